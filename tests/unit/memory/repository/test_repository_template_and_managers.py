"""A template's placeholder paths, a vendored `_vendor/` folder, a README's other package manager
and the database a compose-built app connects to; and where each rule must not fire."""

from __future__ import annotations

from squirrel_memory.repository import is_excluded, read_repository, repository_candidates
from tests.unit.memory.repository.conftest import MakeRepo


def _found(make_repo: MakeRepo, files: dict[str, str | bytes]) -> dict[str, str]:
    return {c.key: c.content for c in repository_candidates(read_repository(make_repo(files)))}


# --- a template's placeholder paths and vendored `_vendor/` --------------------------------

_TEMPLATE = {
    "cookiecutter.json": '{"project_slug": "svc"}',
    "README.md": "# svc-template\n\nA template for web services.\n",
    "{{cookiecutter.project_slug}}/pyproject.toml": '[project]\nname = "{{ cookiecutter.project_slug }}"\n'
    'dependencies = ["fastapi", "sqlalchemy", "psycopg"]\n',
    "{{cookiecutter.project_slug}}/app/main.py": "from fastapi import FastAPI\napp = FastAPI()\n"
    * 9,
    "{{cookiecutter.project_slug}}/tests/test_main.py": "def test_ok():\n    assert True\n",
    "tests/test_bake.py": "def test_bake(cookies):\n    assert cookies.bake().exit_code == 0\n",
}


def test_a_template_s_placeholder_paths_are_not_the_project_s(make_repo: MakeRepo) -> None:
    found = _found(make_repo, _TEMPLATE)
    assert not any("{{" in text or "cookiecutter" in key for key, text in found.items())
    assert "FastAPI" not in found.get("repo:stack", "")
    assert "repo:database" not in found


def test_only_a_double_brace_or_a_tag_marks_a_template_path() -> None:
    assert is_excluded("{{cookiecutter.project_slug}}/app/main.py")
    assert is_excluded("template/{% if docker %}Dockerfile{% endif %}")
    assert not is_excluded("app/routes/{id}.py")  # one brace is a route's parameter
    assert not is_excluded("app/[slug]/page.tsx")


def test_a_vendor_underscore_folder_is_vendored_code() -> None:
    assert is_excluded("src/tool/_vendor/flask/app.py")
    assert not is_excluded("src/tool/vendor_api.py")


# --- a README's package manager ---------------------------------------------------------------

_README_YARN = "# app\n\n```\nyarn install\nyarn dev\n```\n"


def _node(lock: str) -> dict[str, str | bytes]:
    return {
        "README.md": _README_YARN,
        "package.json": '{"name": "app", "scripts": {"dev": "vite"}, "dependencies": {"vite": "^5"}}',
        lock: "lock\n",
        "src/main.ts": "export const a = 1;\n" * 20,
    }


def test_a_readme_s_other_package_manager_is_not_said(make_repo: MakeRepo) -> None:
    found = _found(make_repo, _node("pnpm-lock.yaml"))
    assert "yarn" not in " ".join(found.values())
    assert "`pnpm dev`" in found["repo:recipe:run"]


def test_a_readme_s_own_package_manager_is_said(make_repo: MakeRepo) -> None:
    found = _found(make_repo, _node("yarn.lock"))
    assert "`yarn install`" in found["repo:recipe:install"]


# --- a compose-built app's database -------------------------------------------------------------

_NODE_PG = {
    "package.json": '{"name": "p", "dependencies": {"express": "^4.19.0", "pg": "^8.12.0"}}',
    "package-lock.json": "{}",
    "src/server.js": "import express from 'express';\n" * 20,
}
_COMPOSE = (
    "services:\n  app:\n{how}    environment:\n      DATABASE_URL: postgres://u:p@db:5432/p\n"
    "  db:\n    image: postgres:16\n  mongo:\n    image: mongo:7\n"
)


def test_a_compose_built_app_s_database_url_names_the_project_s_database(
    make_repo: MakeRepo,
) -> None:
    found = _found(
        make_repo, {**_NODE_PG, "docker-compose.yml": _COMPOSE.format(how="    build: .\n")}
    )
    assert found["repo:database"] == "The project's database is PostgreSQL."


def test_another_program_s_database_url_decides_nothing(make_repo: MakeRepo) -> None:
    how = "    image: metabase/metabase\n"
    found = _found(make_repo, {**_NODE_PG, "docker-compose.yml": _COMPOSE.format(how=how)})
    assert "does not say which one" in found["repo:database"]


def test_a_list_environment_and_a_driver_after_a_plus_are_read(make_repo: MakeRepo) -> None:
    compose = (
        "services:\n  web:\n    build: .\n    environment:\n"
        "      - DATABASE_URL=mysql+pymysql://u:p@db/app\n  db:\n    image: mysql:8\n"
    )
    files = {
        "requirements.txt": "flask==3.0.3\npymysql==1.1.1\npsycopg2-binary==2.9.9\n",
        "app/__init__.py": "from flask import Flask\n" * 20,
        "docker-compose.yml": compose,
    }
    assert _found(make_repo, files)["repo:database"].startswith("The project's database is MySQL")


def test_an_example_environment_s_url_with_a_driver_names_its_database(
    make_repo: MakeRepo,
) -> None:
    files = {
        "pyproject.toml": '[project]\nname = "s"\ndependencies = ["fastapi", "sqlalchemy", "asyncpg", "aiosqlite"]\n',
        "s/main.py": "from fastapi import FastAPI\n" * 20,
        ".env.example": "DATABASE_URL=postgresql+asyncpg://u:p@localhost/s\n",
    }
    assert _found(make_repo, files)["repo:database"].startswith(
        "The project's database is PostgreSQL"
    )


def test_a_variable_in_the_url_names_no_database(make_repo: MakeRepo) -> None:
    how = "    build: .\n"
    compose = _COMPOSE.format(how=how).replace("postgres://u:p@db:5432/p", "${DATABASE_URL}")
    found = _found(make_repo, {**_NODE_PG, "docker-compose.yml": compose})
    assert "does not say which one" in found["repo:database"]
