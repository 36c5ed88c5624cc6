"""Repositories built to mislead the stack facts (the session battery is `test_stack_traps.py`):
a suffix two kinds of file share, and a database driver only a script uses."""

from __future__ import annotations

import pytest

from squirrel_memory.models import MemoryCandidate
from squirrel_memory.repository import primary_ecosystems, read_repository, repository_candidates
from tests.unit.memory.repository.conftest import MakeRepo

GO = {"go.mod": "module example.com/orchard\n\ngo 1.22\n", "main.go": "package main\n" * 100}
#: An MPEG transport stream segment: a `.ts` file that is video, not TypeScript.
SEGMENT = b"G@\x00\x10" + bytes(188 * 200)


def _facts(make_repo: MakeRepo, files: dict[str, str | bytes]) -> dict[str, MemoryCandidate]:
    return {c.key: c for c in repository_candidates(read_repository(make_repo(files)))}


def test_video_segments_do_not_make_a_typescript_project(make_repo: MakeRepo) -> None:
    files: dict[str, str | bytes] = {**GO, "media/seg0.ts": SEGMENT, "media/seg1.ts": SEGMENT}

    found = _facts(make_repo, files)

    assert primary_ecosystems(make_repo(files)) == ("go",)
    assert "TypeScript" not in found["repo:languages"].content
    assert found["repo:stack"].content.startswith("example.com/orchard is a Go project")


def test_typescript_beside_its_manifest_still_counts(make_repo: MakeRepo) -> None:
    files = {"package.json": '{"name": "orchard"}\n', "src/index.ts": "export {}\n" * 300}

    assert primary_ecosystems(make_repo(files)) == ("javascript",)


def test_prolog_is_not_perl(make_repo: MakeRepo) -> None:
    files = {"src/solver.pl": ":- module(solver, [solve/2]).\n" * 300, "README.md": "# solver\n"}

    found = _facts(make_repo, files)

    assert not any("Perl" in c.content for c in found.values())
    perl = {
        "lib/Orchard.pm": "package Orchard;\n1;\n" * 50,
        "bin/harvest.pl": "use strict;\n" * 300,
    }
    assert primary_ecosystems(make_repo(perl)) == ("perl",)


def test_a_driver_only_a_script_uses_is_not_the_database(make_repo: MakeRepo) -> None:
    files = {
        "pyproject.toml": '[project]\nname = "orchard"\ndependencies = ["flask", "psycopg2"]\n',
        "orchard/app.py": "import sqlite3\n" + "x = 1\n" * 300,
        "scripts/migrate_legacy.py": "import psycopg2\n",
    }

    found = _facts(make_repo, files)

    assert "database is PostgreSQL" not in found["repo:database"].content
    assert "declare a client for PostgreSQL (psycopg2)" in found["repo:database"].content
    assert "PostgreSQL" not in found["repo:stack"].content


def test_a_base_image_and_a_ci_matrix_do_not_set_the_runtime(make_repo: MakeRepo) -> None:
    files = {
        "package.json": '{"name": "orchard", "engines": {"node": ">=20"},'
        ' "dependencies": {"express": "^4"}}\n',
        "Dockerfile": "FROM node:18-alpine\nCOPY . .\n",
        ".github/workflows/ci.yml": "jobs:\n  test:\n    strategy:\n      matrix:\n"
        "        node-version: [18, 20, 22]\n    steps:\n      - run: npm test\n",
        "src/app.js": "const express = require('express')\n" * 100,
    }

    stack = _facts(make_repo, files)["repo:stack"].content

    assert "Node.js 20" in stack
    assert "18" not in stack and "22" not in stack


def test_headers_take_the_language_of_the_sources_beside_them(make_repo: MakeRepo) -> None:
    cmake = "cmake_minimum_required(VERSION 3.20)\nproject(orchard CXX)\n"
    files = {
        "CMakeLists.txt": cmake,
        "include/orchard/tree.h": "template <class T> struct Tree {};\n" * 400,
        "src/tree.cpp": "#include <orchard/tree.h>\n" * 100,
    }

    languages = _facts(make_repo, files)["repo:languages"].content

    assert languages.startswith("Tracked code by size: C++ 100%"), languages
    mixed = _facts(make_repo, {**files, "src/shim.c": "int x;\n" * 50})["repo:languages"]
    assert "C/C++" in mixed.content and "C 8" not in mixed.content


def test_a_language_named_by_a_letter_takes_its_article(make_repo: MakeRepo) -> None:
    files = {"DESCRIPTION": "Package: orchard\n", "R/tree.R": "f <- function(x) x\n" * 300}

    assert " is an R project" in _facts(make_repo, files)["repo:stack"].content


LEGACY_EXPRESS = {
    "package.json": '{"name": "parcel-api", "scripts": {"start": "node dist/server.js"}, '
    '"dependencies": {"express": "^4.19.2", "fastify": "^4.26.0"}}\n',
    "src/server.ts": "import Fastify from 'fastify';\nFastify().listen({ port: 3000 });\n",
    "legacy/admin-server.js": "const express = require('express');\n",
}


def test_two_rival_server_frameworks_leave_the_framework_unsaid(make_repo: MakeRepo) -> None:
    found = _facts(make_repo, LEGACY_EXPRESS)

    assert found["repo:stack"].content == "parcel-api is a TypeScript project."


def test_the_framework_the_start_command_starts_decides_between_rivals(
    make_repo: MakeRepo,
) -> None:
    files = {
        "Gemfile": 'source "https://rubygems.org"\ngem "rails", "~> 7.1"\ngem "sinatra"\n',
        "config/application.rb": "module Shop\nend\n" * 30,
    }
    started = {**files, "Procfile": "web: bin/rails server -p $PORT\n"}

    assert _facts(make_repo, files)["repo:stack"].content.endswith("is a Ruby project.")
    assert _facts(make_repo, started)["repo:stack"].content.endswith(
        "is a Ruby/Rails app (Rails 7.1)."
    )


def test_a_framework_built_on_another_is_no_rival(make_repo: MakeRepo) -> None:
    files = {
        "pyproject.toml": '[project]\nname = "orchard"\ndependencies = ["fastapi", "starlette"]\n',
        "orchard/main.py": "from fastapi import FastAPI\napp = FastAPI()\n" * 50,
    }

    found = _facts(make_repo, files)

    assert found["repo:stack"].content.startswith("orchard is a Python/FastAPI app")


RAILS_GEMFILE = 'source "https://rubygems.org"\ngem "rails", "~> 7.1"\ngem "pg"\ngem "sqlite3"\n'


def test_a_rails_app_runs_on_its_production_database(make_repo: MakeRepo) -> None:
    database = (
        "default: &default\n  pool: 5\n\ndevelopment:\n  <<: *default\n  adapter: sqlite3\n"
        "  database: db/development.sqlite3\n\ntest:\n  <<: *default\n  adapter: sqlite3\n"
        "\nproduction:\n  <<: *default\n  adapter: postgresql\n  url: <%= ENV['DATABASE_URL'] %>\n"
    )
    files = {"Gemfile": RAILS_GEMFILE, "config/database.yml": database}

    text = _facts(make_repo, files)["repo:database"].content

    assert text.startswith("The project's database is PostgreSQL;")
    assert "`development` profile's (config/database.yml) names SQLite" in text
    assert "which the database configuration does not use" not in text


def test_an_aliased_adapter_holds_for_every_environment(make_repo: MakeRepo) -> None:
    database = (
        "default: &default\n  adapter: postgresql\n\ndevelopment:\n  <<: *default\n"
        "  database: shop_dev\n\nproduction:\n  <<: *default\n  database: shop\n"
    )
    files = {"Gemfile": RAILS_GEMFILE, "config/database.yml": database}

    text = _facts(make_repo, files)["repo:database"].content

    assert text.startswith("The project's database is PostgreSQL;")
    assert "profile" not in text


@pytest.mark.parametrize(
    "line",
    [
        "DATABASES = {'default': dj_database_url.config(default='sqlite:///db.sqlite3')}",
        'SQLALCHEMY_DATABASE_URI = os.getenv("DATABASE_URL", "sqlite:///app.db")',
        'SQLALCHEMY_DATABASE_URI = os.environ.get("DATABASE_URL", "sqlite:///app.db")',
        'SQLALCHEMY_DATABASE_URI = os.environ.get("DATABASE_URL") or "sqlite:///app.db"',
    ],
)
def test_a_fallback_url_of_an_environment_setting_is_not_the_database(
    make_repo: MakeRepo, line: str
) -> None:
    files = {
        "requirements.txt": "django==5.0\ndj-database-url==2.1\npsycopg2-binary==2.9\n",
        "shop/settings.py": f"import os\nimport dj_database_url\n{line}\n",
        "manage.py": "import django\n",
    }

    text = _facts(make_repo, files)["repo:database"].content

    assert not text.startswith("The project's database is SQLite")
    assert "more than one database" in text


def test_a_literal_url_is_still_the_database(make_repo: MakeRepo) -> None:
    files = {
        "requirements.txt": "flask==3.0\nflask-sqlalchemy==3.1\n",
        "app/config.py": 'SQLALCHEMY_DATABASE_URI = "sqlite:///app.db"\n',
    }

    text = _facts(make_repo, files)["repo:database"].content

    assert text.startswith("The project's database is SQLite")


def test_a_stack_line_names_no_database_when_the_configuration_names_two(
    make_repo: MakeRepo,
) -> None:
    knexfile = (
        "module.exports = {\n  development: {\n    client: 'sqlite3',\n  },\n"
        "  production: {\n    client: 'pg',\n  },\n};\n"
    )
    files = {
        "package.json": '{"name": "shelf", "dependencies": {"knex": "3", "pg": "8", "sqlite3": "5"}}',
        "knexfile.js": knexfile,
    }

    found = _facts(make_repo, files)

    assert found["repo:stack"].content == "shelf is a JavaScript project with Knex."
    assert "names SQLite and PostgreSQL" in found["repo:database"].content


def _pom(*dependencies: tuple[str, str, str]) -> str:
    deps = "".join(
        f"<dependency><groupId>{g}</groupId><artifactId>{a}</artifactId>"
        + (f"<scope>{scope}</scope>" if scope else "")
        + "</dependency>"
        for g, a, scope in dependencies
    )
    return (
        "<project><modelVersion>4.0.0</modelVersion><groupId>a</groupId>"
        "<artifactId>shop</artifactId><version>1</version>"
        f"<dependencies>{deps}</dependencies></project>"
    )


def test_a_test_scoped_database_is_not_the_applications(make_repo: MakeRepo) -> None:
    pom = _pom(
        ("org.springframework.boot", "spring-boot-starter-web", ""),
        ("org.springframework.boot", "spring-boot-starter-data-mongodb", ""),
        ("com.h2database", "h2", "test"),
    )
    files = {"pom.xml": pom, "src/main/java/a/App.java": "package a;\nclass App {}\n" * 40}

    text = _facts(make_repo, files)["repo:database"].content

    assert "H2" not in text
    assert "MongoDB" in text


def test_a_runtime_scoped_driver_is_still_declared(make_repo: MakeRepo) -> None:
    pom = _pom(("org.postgresql", "postgresql", "runtime"))
    files = {"pom.xml": pom, "src/main/java/a/App.java": "package a;\nclass App {}\n" * 40}

    assert "PostgreSQL" in _facts(make_repo, files)["repo:database"].content


def test_a_workspace_member_does_not_name_the_project(make_repo: MakeRepo) -> None:
    files = {
        "Cargo.toml": '[workspace]\nmembers = ["crates/*"]\n',
        "crates/api/Cargo.toml": '[package]\nname = "api"\nedition = "2021"\n',
        "crates/api/src/main.rs": "fn main() {}\n" * 40,
    }

    stack = _facts(make_repo, files)["repo:stack"].content

    assert not stack.startswith("api ")
    assert " is a Rust project" in stack


def test_a_database_configuration_file_starts_nothing(make_repo: MakeRepo) -> None:
    database = "development:\n  adapter: sqlite3\nproduction:\n  adapter: postgresql\n"
    compose = "services:\n  cache:\n    image: redis:7\n"
    files = {
        "Gemfile": RAILS_GEMFILE,
        "config/database.yml": database,
        "docker-compose.yml": compose,
    }

    found = _facts(make_repo, files)

    assert found["repo:services"].content == "For development, docker-compose.yml starts Redis."
