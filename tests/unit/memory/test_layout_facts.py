"""Local services, the container image and migrations are read from the paths a session
touched, in any ecosystem; a dev container's files and a template's placeholder folders are
another thing's, and say nothing of how the project runs."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.layout_facts import layout_facts


def _said(*paths: str) -> list[str]:
    return [f.content for f in layout_facts([(p, f"e{i}") for i, p in enumerate(paths)])]


def test_the_projects_own_compose_file_dockerfile_and_migrations_are_stated() -> None:
    assert _said("docker-compose.yml", "Dockerfile", "db/migrations/001_init.sql") == [
        "Local services run with Docker Compose (docker-compose.yml).",
        "Packaged as a container image (Dockerfile).",
        "Database migrations live in db/migrations/.",
    ]


@pytest.mark.parametrize(
    "paths",
    [
        # a Go service's dev container from a trial of hosted editors
        (".devcontainer/docker-compose.yml", ".devcontainer/Dockerfile"),
        # a cookiecutter template for Python services
        ("{{cookiecutter.project_slug}}/Dockerfile", "{{cookiecutter.project_slug}}/compose.yaml"),
        # a copier template of a Rails app
        ("template/{% if db %}db{% endif %}/migrations/001.rb",),
    ],
)
def test_a_dev_containers_or_a_templates_files_say_nothing(paths: tuple[str, ...]) -> None:
    assert _said(*paths) == []
