"""Sessions built to mislead the stack facts, one trap a real project has per case, in many
ecosystems: a dependency only a script, a side store or a dev tool uses; two stores (the main
one through the ORM's configuration, a cache or another store through a client); a monorepo
whose docs site or example app is in another language or test runner; vendored third-party
code; a lock file of another ecosystem; a CI matrix of several runtimes and a container base
image beside the declared version; a test command run in a sub-package only; a Makefile that
wraps another build tool; a file suffix two languages share; a container launch whose options
take values.

Each case says what the memory must state (scoped where it holds) and what it must never state.
Where the evidence conflicts and nothing decides, it says less. The battery is imagined, not
recorded (see `test_ordinary_sessions.py` for ordinary sessions).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime

import pytest

from squirrel_memory.models import MemoryCandidate
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/orchard"

#: A step of a session: ("read", path, text), ("edit", path), ("run", command, output) or
#: ("run", command, output, folder the shell was in).
Step = tuple[str, ...]


@dataclass(frozen=True)
class Trap:
    """One trap in one ecosystem: the session, what must be said and what never."""

    name: str
    steps: tuple[Step, ...]
    said: tuple[tuple[str, str], ...] = ()
    """(memory key, text that memory must hold)."""
    unsaid: tuple[str, ...] = ()
    """Names no memory may state."""
    absent: tuple[str, ...] = field(default=())
    """Memory keys that must not be made at all."""


GEMFILE = 'source "https://rubygems.org"\ngem "rails", "~> 7.1"\ngem "pg"\ngem "redis"\n'
PYTEST_OK = "12 passed in 0.41s\n"

TRAPS = [
    # -- an example environment file left from a starter, beside the settings the app reads ----
    Trap(
        "django-stale-env-example",
        (
            ("read", ".env.example", "DATABASE_URL=mysql://root:root@localhost:3306/app\n"),
            (
                "read",
                "clinic/settings.py",
                "DATABASES = {'default': {'ENGINE': 'django.db.backends.postgresql'}}\n",
            ),
            ("run", "python manage.py test", "Ran 8 tests in 0.412s\n\nOK\n"),
        ),
        said=(("database", "PostgreSQL"),),
        unsaid=("MySQL",),
    ),
    Trap(
        "django-env-example-alone",
        (
            ("read", ".env.example", "DATABASE_URL=mysql://root:root@localhost:3306/app\n"),
            ("run", "python manage.py test", "Ran 8 tests in 0.412s\n\nOK\n"),
        ),
        said=(("database", "MySQL"),),
    ),
    # -- a dependency only declared, or used by a script, a side store or a dev tool ------------
    Trap(
        "ruby-declared-driver",
        (
            ("read", "Gemfile", GEMFILE),
            ("read", "app/models/order.rb", "class Order < ApplicationRecord\nend\n"),
            ("edit", "app/models/order.rb"),
            ("run", "bin/rails test", "10 runs, 20 assertions, 0 failures, 0 errors\n"),
        ),
        said=(("language", "Ruby project"), ("recipe:test", "`bin/rails test`")),
        unsaid=("PostgreSQL", "Redis"),
        absent=("database",),
    ),
    Trap(
        "node-driver-in-a-seed-script",
        (
            (
                "read",
                "package.json",
                '{"name": "orchard", "dependencies": {"express": "^4", "pg": "^8"}}\n',
            ),
            ("read", "scripts/seed.js", "const { Client } = require('pg')\n"),
            ("read", "src/server.js", "const express = require('express')\n"),
            ("edit", "src/server.js"),
            ("run", "node --test", "# pass 4\n# fail 0\n"),
        ),
        said=(("framework", "Express"),),
        unsaid=("PostgreSQL",),
        absent=("database",),
    ),
    Trap(
        "python-keywords-and-extras",
        (
            (
                "read",
                "pyproject.toml",
                '[project]\nname = "orchard"\nkeywords = ["django", "flask", "redis"]\n'
                'dependencies = ["attrs"]\n\n[project.optional-dependencies]\n'
                'postgres = ["psycopg>=3"]\nweb = ["fastapi"]\n\n'
                '[dependency-groups]\ndev = ["pytest", "requests"]\n',
            ),
            ("edit", "orchard/core.py"),
            ("run", "pytest -q", PYTEST_OK),
        ),
        said=(("language", "Python project"),),
        unsaid=("Django", "Flask", "FastAPI", "PostgreSQL", "Redis", "requests"),
        absent=("framework", "database", "libraries"),
    ),
    Trap(
        "javascript-dev-server-dependency",
        (
            (
                "read",
                "package.json",
                '{"name": "orchard", "keywords": ["react", "vue"], "dependencies": {"zod": "^3"},'
                ' "devDependencies": {"express": "^4", "vitest": "^2"}}\n',
            ),
            ("edit", "src/parse.ts"),
            ("edit", "src/index.ts"),
            ("run", "npx vitest run", " Test Files  3 passed (3)\n"),
        ),
        said=(("language", "TypeScript project (package.json)"),),
        unsaid=("Express", "React", "Vue"),
        absent=("framework",),
    ),
    Trap(
        "php-keywords-are-no-dependencies",
        (
            (
                "read",
                "composer.json",
                '{"name": "acme/orchard", "keywords": ["react", "express", "redis"],'
                ' "require": {"php": ">=8.2", "predis/predis": "^2"},'
                ' "require-dev": {"phpunit/phpunit": "^11"}}\n',
            ),
            ("edit", "src/Harvest.php"),
            ("edit", "src/Crate.php"),
            ("run", "vendor/bin/phpunit", "OK (3 tests, 5 assertions)\n"),
        ),
        said=(("language", "PHP project"), ("recipe:test", "`vendor/bin/phpunit`")),
        unsaid=("React", "Express", "Redis"),
    ),
    Trap(
        "perl-declared-drivers",
        (
            (
                "read",
                "cpanfile",
                "requires 'DBD::Pg';\non 'test' => sub { requires 'DBD::SQLite'; };\n",
            ),
            ("edit", "lib/Orchard.pm"),
            ("edit", "t/orchard.t"),
            ("run", "prove -lr t", "All tests successful.\nResult: PASS\n"),
        ),
        said=(("language", "Perl project"),),
        unsaid=("PostgreSQL", "SQLite"),
    ),
    # -- a framework's package used by a script only for the HTTP client it ships ------------
    Trap(
        "perl-framework-client-only",
        (
            ("read", "cpanfile", "requires 'Mojolicious', '9.38';\n"),
            (
                "read",
                "bin/linkcheck",
                "#!/usr/bin/env perl\nuse v5.36;\nuse Mojo::UserAgent;\nuse Mojo::DOM;\n",
            ),
            ("edit", "bin/linkcheck"),
            ("run", "prove -l t", "All tests successful.\nResult: PASS\n"),
        ),
        unsaid=("Mojolicious",),
        absent=("framework",),
    ),
    Trap(
        "perl-framework-app-and-client",
        (
            ("read", "cpanfile", "requires 'Mojolicious', '9.38';\n"),
            ("read", "lib/Orchard/Fetch.pm", "package Orchard::Fetch;\nuse Mojo::UserAgent;\n"),
            ("read", "script/orchard", "#!/usr/bin/env perl\nuse Mojolicious::Lite -signatures;\n"),
            ("edit", "lib/Orchard/Fetch.pm"),
            ("run", "prove -l t", "All tests successful.\nResult: PASS\n"),
        ),
        said=(("framework", "Mojolicious"),),
    ),
    Trap(
        "python-pipfile-dev-server",
        (
            (
                "read",
                "Pipfile",
                '[packages]\nattrs = "*"\n\n[dev-packages]\ndjango = "*"\npytest = "*"\n',
            ),
            ("read", "requirements-dev.txt", "flask\nredis\n"),
            ("edit", "orchard/core.py"),
            ("run", "pytest -q", PYTEST_OK),
        ),
        said=(("language", "Python project"),),
        unsaid=("Django", "Flask", "Redis"),
        absent=("framework", "database"),
    ),
    Trap(
        "python-setup-script-keywords",
        (
            (
                "read",
                "setup.py",
                'from setuptools import setup\n\nsetup(\n    name="orchard",\n'
                '    keywords=["flask", "django", "redis"],\n    install_requires=["click>=8"],\n'
                '    extras_require={"web": ["fastapi"]},\n)\n',
            ),
            ("edit", "orchard/cli.py"),
            ("run", "pytest -q", PYTEST_OK),
        ),
        said=(("libraries", "Click"),),
        unsaid=("Flask", "Django", "Redis", "FastAPI"),
        absent=("framework",),
    ),
    Trap(
        "kotlin-test-scoped-driver",
        (
            (
                "read",
                "build.gradle.kts",
                'plugins { kotlin("jvm") version "2.0.0" }\ndependencies {\n'
                '    implementation("com.h2database:h2:2.2.224")\n'
                '    testImplementation("org.testcontainers:postgresql:1.19.7")\n}\n',
            ),
            ("edit", "src/main/kotlin/Orchard.kt"),
            ("edit", "src/main/kotlin/Tree.kt"),
            ("run", "./gradlew test", "BUILD SUCCESSFUL in 3s\n"),
        ),
        said=(("language", "Kotlin project"), ("recipe:test", "`./gradlew test`")),
        unsaid=("PostgreSQL", "H2"),
    ),
    # -- two stores: the main one configured, a cache or another store used through a client --
    Trap(
        "python-configured-store-cache-and-test-double",
        (
            (
                "read",
                "pyproject.toml",
                '[project]\nname = "orchard"\ndependencies = ["django", "psycopg2", "redis"]\n',
            ),
            (
                "read",
                "orchard/settings.py",
                "DATABASES = {'default': {'ENGINE': 'django.db.backends.postgresql'}}\n",
            ),
            ("read", "orchard/cache.py", "import redis\n\nclient = redis.Redis()\n"),
            ("read", "tests/conftest.py", "import sqlite3\n"),
            ("read", "scripts/export.py", "import pymongo\n"),
            ("run", "pytest -q", PYTEST_OK),
        ),
        said=(("database", "PostgreSQL"), ("database", "Redis")),
        unsaid=("SQLite", "MongoDB"),
    ),
    Trap(
        "python-configured-store-beats-an-imported-one",
        (
            ("read", "orchard/db.py", 'engine = create_engine("sqlite:///orchard.db")\n'),
            ("read", "orchard/migrate_legacy.py", "import psycopg2\n"),
            ("run", "pytest -q", PYTEST_OK),
        ),
        said=(("database", "SQLite"),),
        unsaid=("PostgreSQL",),
    ),
    Trap(
        "elixir-adapter-over-declared-client",
        (
            (
                "read",
                "mix.exs",
                "defmodule Orchard.MixProject do\n  defp deps do\n"
                '    [{:phoenix, "~> 1.7"}, {:postgrex, ">= 0.0.0"}, {:ecto_sqlite3, "~> 0.17"}]\n'
                "  end\nend\n",
            ),
            (
                "read",
                "lib/orchard/repo.ex",
                "defmodule Orchard.Repo do\n"
                "  use Ecto.Repo, otp_app: :orchard, adapter: Ecto.Adapters.SQLite3\nend\n",
            ),
            ("run", "mix test", "Finished in 0.1 seconds\n5 tests, 0 failures\n"),
        ),
        said=(("database", "Data layer: SQLite."), ("language", "Elixir project")),
        unsaid=("PostgreSQL",),
    ),
    Trap(
        "dotnet-configured-provider-over-declared-driver",
        (
            (
                "read",
                "Api/Api.csproj",
                '<Project Sdk="Microsoft.NET.Sdk.Web"><ItemGroup>'
                '<PackageReference Include="Npgsql" Version="8.0.0" />'
                '<PackageReference Include="Microsoft.EntityFrameworkCore.Sqlite" Version="8.0.0" />'
                "</ItemGroup></Project>\n",
            ),
            ("read", "Api/Program.cs", "builder.Services.AddDbContext<Db>(o => o.UseSqlite(c));\n"),
            ("run", "dotnet test", "Passed!  - Failed:     0, Passed:    12\n"),
        ),
        said=(("database", "Data layer: SQLite."),),
        unsaid=("PostgreSQL",),
    ),
    # -- a monorepo with a docs site or an example app in another language or runner ----------
    Trap(
        "python-with-a-typescript-docs-site",
        (
            ("read", "pyproject.toml", '[project]\nname = "orchard"\ndependencies = ["fastapi"]\n'),
            (
                "read",
                "docs/package.json",
                '{"name": "docs", "dependencies": {"next": "^14", "react": "^18"},'
                ' "devDependencies": {"vitest": "^2"}}\n',
            ),
            ("write", "docs/pages/index.tsx", "import React from 'react'\n"),
            ("write", "docs/pages/api.tsx", "import React from 'react'\n"),
            ("write", "docs/src/search.test.ts", "import { it } from 'vitest'\n"),
            ("edit", "orchard/app.py"),
            ("run", "cd docs && npx vitest run", " Test Files  1 passed (1)\n"),
            ("run", "pytest -q", PYTEST_OK),
        ),
        said=(
            # The root's framework joins the language; the docs site's React does not.
            ("language", "Python project (pyproject.toml), built with FastAPI."),
            ("framework", "Built with FastAPI."),
            ("testing@docs", "In `docs/`, tests are written with Vitest."),
            ("recipe:test", "`pytest -q`"),
        ),
        unsaid=("TypeScript project", "Built with React", "Built with Next.js"),
    ),
    Trap(
        "typescript-example-app-with-its-own-framework",
        (
            ("read", "package.json", '{"name": "orchard-sdk", "dependencies": {"zod": "^3"}}\n'),
            ("write", "examples/shop/server.ts", "import express from 'express'\n"),
            ("write", "examples/shop/page.tsx", "import React from 'react'\n"),
            ("edit", "src/client.ts"),
            ("edit", "src/schema.ts"),
            ("run", "npx vitest run", " Test Files  2 passed (2)\n"),
        ),
        said=(("language", "TypeScript project"),),
        unsaid=("Built with Express", "Built with React"),
    ),
    # -- vendored third-party code -------------------------------------------------------------
    Trap(
        "go-with-vendored-python-and-third-party-code",
        (
            ("read", "go.mod", "module example.com/orchard\n\ngo 1.22\n"),
            (
                "read",
                "vendor/github.com/acme/tool/gen.py",
                "import psycopg2\nfrom flask import Flask\n",
            ),
            ("read", "third_party/bench/app.py", "from django.db import models\n"),
            ("edit", "main.go"),
            ("edit", "harvest.go"),
            ("run", "go test ./...", "ok  \texample.com/orchard\t0.1s\n"),
        ),
        said=(("language", "Go project (go.mod: Go 1.22)."), ("recipe:test", "`go test ./...`")),
        unsaid=("PostgreSQL", "Flask", "Django", "Python"),
    ),
    # -- a generated lock file of another ecosystem ---------------------------------------------
    Trap(
        "rust-with-a-javascript-lock-file",
        (
            (
                "read",
                "Cargo.toml",
                '[package]\nname = "orchard"\nedition = "2021"\n\n[dependencies]\nredis = "0.25"\n'
                "\n[features]\npostgres = []\nnext = []\n",
            ),
            (
                "read",
                "package-lock.json",
                '{"name": "orchard", "lockfileVersion": 3, "packages": {'
                '"node_modules/react": {"version": "18.3.1"}, "node_modules/pg": {"version": "8"}}}\n',
            ),
            ("edit", "src/main.rs"),
            ("edit", "src/lib.rs"),
            ("run", "cargo test", "test result: ok. 3 passed; 0 failed\n"),
        ),
        said=(("language", "Rust project (Cargo.toml: edition 2021)."),),
        unsaid=("React", "PostgreSQL", "Next.js", "Redis", "JavaScript"),
    ),
    # -- a CI matrix of runtimes; a container base image beside the declared version -----------
    Trap(
        "python-ci-matrix-and-base-image",
        (
            (
                "read",
                "pyproject.toml",
                '[project]\nname = "orchard"\nrequires-python = ">=3.9"\ndependencies = []\n',
            ),
            (
                "read",
                ".github/workflows/ci.yml",
                "jobs:\n  test:\n    strategy:\n      matrix:\n"
                "        python-version: ['3.9', '3.10', '3.11', '3.12']\n    steps:\n"
                "      - uses: actions/setup-python@v5\n        with:\n"
                "          python-version: ${{ matrix.python-version }}\n      - run: pytest\n",
            ),
            ("read", "Dockerfile", "FROM python:3.11-slim\nRUN pip install .\n"),
            ("edit", "orchard/core.py"),
            ("run", "pytest -q", PYTEST_OK),
        ),
        said=(("language", "Python project"),),
        unsaid=("3.11", "3.10", "Python 3.12"),
    ),
    Trap(
        "node-base-image-beside-engines",
        (
            (
                "read",
                "package.json",
                '{"name": "orchard", "engines": {"node": ">=20"}, "dependencies": {"fastify": "^4"}}\n',
            ),
            ("read", "Dockerfile", "FROM node:18-alpine\nCOPY . .\nRUN npm ci\n"),
            ("read", "src/app.js", "const fastify = require('fastify')\n"),
            ("edit", "src/app.js"),
            ("run", "npm test", "# pass 3\n# fail 0\n"),
        ),
        said=(("framework", "Built with Fastify."),),
        unsaid=("Node.js 18", "Node 18"),
    ),
    Trap(
        "typescript-other-node-in-a-shell",
        (
            ("read", ".nvmrc", "20\n"),
            ("read", "package.json", '{"name": "orchard", "engines": {"node": ">=20"}}\n'),
            ("run", "nvm use 18 && node --version", "v18.19.0\n"),
            ("edit", "src/tree.ts"),
            ("edit", "src/grove.ts"),
            ("run", "npm test", "# pass 3\n# fail 0\n"),
        ),
        said=(("language", "TypeScript project (package.json: Node.js >=20)."),),
        unsaid=("18", "v18.19.0"),
    ),
    # -- a test command that only ran in a sub-package ------------------------------------------
    Trap(
        "javascript-tests-of-one-workspace-package",
        (
            ("read", "package.json", '{"name": "orchard", "workspaces": ["packages/*"]}\n'),
            (
                "read",
                "packages/ui/package.json",
                '{"name": "@orchard/ui", "devDependencies": {"jest": "^29"}}\n',
            ),
            (
                "write",
                "packages/ui/src/button.test.js",
                "const { test } = require('@jest/globals')\n",
            ),
            ("run", "npx jest", "Tests:       4 passed, 4 total\n", "packages/ui"),
        ),
        said=(
            ("recipe:test:packages/ui", "In `packages/ui/`"),
            ("testing@packages/ui", "In `packages/ui/`, tests are written with Jest."),
        ),
        absent=("testing", "recipe:test"),
    ),
    Trap(
        "javascript-root-dev-runner-and-a-docs-site-that-tests-with-another",
        (
            (
                "read",
                "package.json",
                '{"name": "orchard", "dependencies": {"zod": "^3"},'
                ' "devDependencies": {"jest": "^29", "eslint": "^9"}}\n',
            ),
            (
                "read",
                "docs/package.json",
                '{"name": "orchard-docs", "devDependencies": {"vitest": "^2"}}\n',
            ),
            ("edit", "docs/src/search.ts"),
            ("edit", "src/parse.js"),
            ("run", "npx vitest run", " Test Files  2 passed (2)\n", "docs"),
        ),
        said=(("testing@docs", "In `docs/`, tests are written with Vitest."),),
        unsaid=("Jest",),
        absent=("testing", "recipe:test"),
    ),
    Trap(
        "elixir-umbrella-app-tests",
        (
            ("read", "mix.exs", "defmodule Orchard.Umbrella.MixProject do\nend\n"),
            ("read", "apps/web/mix.exs", "defmodule Web.MixProject do\nend\n"),
            ("edit", "apps/web/lib/web/router.ex"),
            ("run", "cd apps/web && mix test", "Finished in 0.2 seconds\n7 tests, 0 failures\n"),
        ),
        said=(("recipe:test:apps/web", "In `apps/web/`, to run the tests: `mix test`."),),
        absent=("recipe:test",),
    ),
    # -- a Makefile that wraps another build tool -----------------------------------------------
    Trap(
        "cpp-makefile-over-cmake",
        (
            (
                "read",
                "Makefile",
                "build:\n\tcmake -B build && cmake --build build\n"
                "test: build\n\tctest --test-dir build\n",
            ),
            (
                "read",
                "CMakeLists.txt",
                "cmake_minimum_required(VERSION 3.20)\nproject(orchard CXX)\n",
            ),
            ("edit", "src/grove.cpp"),
            ("edit", "src/tree.cpp"),
            ("run", "make build", "[100%] Built target orchard\n"),
            ("run", "make test", "100% tests passed, 0 tests failed out of 4\n"),
        ),
        said=(
            ("language", "C++ project (CMakeLists.txt)."),
            ("recipe:build", "`make build`"),
            ("recipe:test", "`make test`"),
        ),
        unsaid=("Built with", "C/C++ and C++"),
    ),
    # -- a suffix two languages share -----------------------------------------------------------
    Trap(
        "prolog-is-not-perl",
        (
            ("read", "src/solver.pl", ":- module(solver, [solve/2]).\nsolve(X, Y) :- dif(X, Y).\n"),
            ("edit", "src/solver.pl"),
            ("edit", "src/parse.pl"),
            ("edit", "src/util.pl"),
            ("run", "swipl -g run_tests -t halt tests/run.pl", "% All 4 tests passed\n"),
        ),
        unsaid=("Perl",),
    ),
    Trap(
        "matlab-and-verilog-suffixes",
        (
            ("edit", "dsp/filter.m"),
            ("edit", "dsp/window.m"),
            ("edit", "rtl/alu.v"),
            ("edit", "rtl/top.v"),
        ),
        unsaid=("Objective-C", "Coq", "V project"),
        absent=("language",),
    ),
    Trap(
        "go-with-video-segments-listed",
        (
            (
                "run",
                "git ls-files",
                "go.mod\nmain.go\nmedia/seg0.ts\nmedia/seg1.ts\nmedia/seg2.ts\nmedia/seg3.ts\n",
            ),
            ("edit", "main.go"),
            ("run", "go test ./...", "ok  \texample.com/orchard\t0.1s\n"),
        ),
        unsaid=("TypeScript",),
    ),
    # -- a container launch whose options take values ---------------------------------------------
    Trap(
        "python-tests-in-a-gpu-container",
        (
            ("edit", "train/loop.py"),
            (
                "run",
                "docker run --rm --gpus all --shm-size 8g --add-host db:10.0.0.2 "
                "-v $PWD:/w -w /w pytorch/pytorch:2.3.0 pytest -q tests",
                PYTEST_OK,
            ),
        ),
        said=(
            ("recipe:test", '-v "$PWD:/w"'),
            # the container's own folder (`-w /w`) is no path of one machine: flags are kept
            ("recipe:test", "pytorch/pytorch:2.3.0 pytest -q tests`"),
        ),
        unsaid=("'$PWD",),
    ),
    Trap(
        "python-tests-in-a-compose-service-with-a-workdir",
        (
            ("edit", "app/orders.py"),
            ("run", "docker compose exec --workdir /srv/app web pytest -q", PYTEST_OK),
        ),
        said=(("recipe:test", "`docker compose exec --workdir /srv/app web pytest -q`"),),
    ),
    Trap(
        "php-tests-in-a-named-container",
        (
            ("edit", "src/Harvest.php"),
            (
                "run",
                "docker run --rm --hostname ci --restart no --detach-keys ctrl-x "
                "-v /srv/app:/app -w /app php:8.3-cli vendor/bin/phpunit",
                "OK (12 tests, 30 assertions)\n",
            ),
        ),
        said=(("recipe:test", "php:8.3-cli vendor/bin/phpunit"),),
    ),
]
IDS = [t.name for t in TRAPS]


def _session(trap: Trap) -> list[MemoryCandidate]:
    session = Session(ROOT, trap.name, T0, test_runs=True)
    session.user("Read the project, then fix the harvest total and check it.")
    for kind, *args in trap.steps:
        if kind == "read":
            session.read(args[0], args[1])
        elif kind == "write":
            session.write(args[0], args[1])
        elif kind == "edit":
            session.edit_lines(args[0], "old", "new")
        else:
            cwd = f"{ROOT}/{args[2]}" if len(args) > 2 else None
            session.run(args[0], 0, args[1], cwd=cwd)
    session.say("Done: the total is fixed and the checks pass.")
    return session.extracted()


def mentions(word: str, text: str) -> bool:
    """Whether `text` names `word` as a word of its own (`Go` is not in `Google`)."""
    return re.search(rf"(?<![\w/.#+-]){re.escape(word)}(?![\w#+-])", text) is not None


def check_said(trap: Trap, found: list[MemoryCandidate]) -> None:
    """Every memory the trap expects holds its text; no memory it rules out is made."""
    by_key: dict[str, list[str]] = {}
    for candidate in found:
        by_key.setdefault(candidate.key, []).append(candidate.content)
    for key, text in trap.said:
        assert any(text in said for said in by_key.get(key, [])), (key, text, by_key)
    for key in trap.absent:
        assert key not in by_key, (key, by_key[key])


def check_unsaid(trap: Trap, found: list[MemoryCandidate]) -> None:
    """No memory names what the trap suggests."""
    for candidate in found:
        for word in trap.unsaid:
            assert not mentions(word, candidate.content), (word, candidate.key, candidate.content)


@pytest.mark.parametrize("trap", TRAPS, ids=IDS)
def test_the_memory_states_what_the_session_shows_where_it_holds(trap: Trap) -> None:
    check_said(trap, _session(trap))


@pytest.mark.parametrize("trap", TRAPS, ids=IDS)
def test_the_memory_never_states_what_the_trap_suggests(trap: Trap) -> None:
    check_unsaid(trap, _session(trap))


def test_the_battery_spans_twelve_ecosystems() -> None:
    ecosystems = {t.name.split("-")[0] for t in TRAPS}
    assert len(ecosystems) >= 12, sorted(ecosystems)
