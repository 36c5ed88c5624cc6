"""Docs sites: their configuration says what they are, and their generators' commands are
the project's build and preview recipes without outvoting the code beside them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel_core.commands import classify_command
from squirrel_memory.extractors.activity import CommandRun
from squirrel_memory.extractors.evidence import attempts, main_ecosystem, recipes
from squirrel_memory.repository.findings import Command, Readings
from squirrel_memory.repository.recipes import _project_recipes, _scoped_recipes
from squirrel_memory.repository.scan import RepositoryReading
from squirrel_memory.repository.site_configs import site_config_reader
from squirrel_memory.repository.snapshot import TextFile

ROOT = "/home/dev/site"
T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)


def _read(path: str, text: str) -> Readings:
    reader = site_config_reader(path)
    assert reader is not None
    out = Readings()
    reader(TextFile.of(path, text), out)
    return out


def test_mkdocs_names_the_site_and_says_what_it_is() -> None:
    out = _read(
        "mkdocs.yml",
        "# Project site\nsite_name: Harbor Handbook\n"
        "site_description: 'How the Harbor team ships'  # shown in search\ntheme:\n"
        "  name: material\n",
    )

    assert (out.name, out.name_ref) == ("Harbor Handbook", "mkdocs.yml:2")
    assert (out.description, out.description_ref) == ("How the Harbor team ships", "mkdocs.yml:3")


def test_jekyll_and_mdbook_configs_are_read() -> None:
    jekyll = _read("_config.yml", 'title: Lab notebook\ndescription: "Weekly lab results"\n')
    book = _read("book.toml", '[book]\ntitle = "Ops guide"\ndescription = "Runbooks for on-call"\n')

    assert (jekyll.name, jekyll.description) == ("Lab notebook", "Weekly lab results")
    assert (book.name, book.description) == ("Ops guide", "Runbooks for on-call")
    assert book.description_ref == "book.toml:3"


@pytest.mark.parametrize(
    "line",
    [
        "site_description: >",  # folded over the lines after it
        "site_description: !ENV SITE_DESCRIPTION",
        "site_description: '{{ config.extra.tagline }}'",
        "  site_description: Nested under another key",
        "site_description:",
    ],
)
def test_what_is_not_a_one_line_value_says_nothing(line: str) -> None:
    out = _read("mkdocs.yml", f"site_name: Handbook\nextra:\n{line}\n  more text\n")

    assert out.description == ""


def test_other_files_have_no_site_reader() -> None:
    for path in ("docs/mkdocs.yml", "config.yml", "README.md", "pyproject.toml", "_config.yaml"):
        assert site_config_reader(path) is None


@pytest.mark.parametrize(
    ("line", "purpose", "tool"),
    [
        ("mkdocs build --strict", "build", "mkdocs"),
        ("uv run mkdocs serve -a 127.0.0.1:8001", "run", "mkdocs"),
        ("sphinx-build -b html docs docs/_build", "build", "sphinx"),
        ("mdbook build", "build", "mdbook"),
        ("bundle exec jekyll serve", "run", "jekyll"),
        ("hugo server -D", "run", "hugo"),
        ("quarto render report.qmd", "build", "quarto"),
    ],
)
def test_docs_generators_build_and_preview(line: str, purpose: str, tool: str) -> None:
    use = classify_command(line)

    assert use is not None
    assert (use.purpose, use.tool, use.ecosystem) == (purpose, tool, "docs")


@pytest.mark.parametrize("line", ["hugo new content posts/first.md", "mkdocs --version"])
def test_other_generator_commands_are_no_recipe(line: str) -> None:
    assert classify_command(line) is None


def _runs(*commands: str) -> list[CommandRun]:
    return [
        CommandRun(f"e{n}", T0 + timedelta(minutes=n), c, True, "", session_id="s1")
        for n, c in enumerate(commands)
    ]


def test_a_docs_only_project_builds_with_its_generator() -> None:
    found = attempts(_runs("mkdocs build --strict"), ROOT)

    (recipe,) = recipes(found, ())
    assert recipe.key == "recipe:build"
    assert "`mkdocs build --strict`" in recipe.content
    assert main_ecosystem(found, []) == "docs"


def test_docs_commands_never_outvote_the_code() -> None:
    found = attempts(
        _runs("mkdocs serve", "mkdocs serve", "mkdocs build", "mkdocs build", "pytest"), ROOT
    )

    assert main_ecosystem(found, []) == "python"
    assert main_ecosystem(attempts(_runs("mkdocs build"), ROOT), ["src/app.py"]) == "python"
    keys = {f.key: f.content for f in recipes(found, ("python",))}
    assert keys["recipe:build:docs"].startswith("For the documentation site part, to build:")
    assert "recipe:build" not in keys


def test_a_readme_docs_preview_in_a_code_repository_is_a_side_recipe() -> None:
    command = Command("mkdocs serve", "run", "docs", "", "docs", "README.md:12")

    reading = RepositoryReading(Path(), "", Readings(), (), (), {})
    assert _project_recipes([command], ["python"], reading) == []
    (recipe,) = _scoped_recipes([command], ["python"])
    assert recipe.content.startswith(
        "For its documentation site part, start the dev server with `mkdocs serve`"
    )
    assert recipe.content.endswith("this is not the project's main command.")
