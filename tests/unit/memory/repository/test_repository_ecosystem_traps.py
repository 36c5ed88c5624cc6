"""Repositories built to mislead the stack facts, the second battery (the sessions are
`test_ecosystem_traps.py`): a framework or a job queue declared only for development, tests or
an example; a job queue declared and never configured; runtime versions that disagree; two lock
files or a `packageManager` field beside a stale lock file.

Each case says what the facts must state and what they must never state, in the facts and in
the text a session starts with. Where the evidence
conflicts and nothing decides, they say less."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from squirrel_memory.models import MemoryCandidate
from squirrel_memory.repository import read_repository, repository_candidates
from tests.unit.memory.repository.conftest import MakeRepo
from tests.unit.memory.test_ecosystem_traps import MIX_DEPS, session_start_text
from tests.unit.memory.test_stack_traps import mentions

TS = "export const stones = 1\n" * 50
PY = "x = 1\n" * 100
EX = "defmodule Quarry do\nend\n" * 40
RB = "class Quarry\nend\n" * 60


@dataclass(frozen=True)
class RepoTrap:
    """One trap: the repository's files, what its facts must say and what never."""

    name: str
    files: dict[str, str]
    said: tuple[tuple[str, str], ...] = ()
    """(fact key, text that fact must hold)."""
    unsaid: tuple[str, ...] = ()
    """Words no fact may state."""


RAILS_GEMFILE = 'source "https://rubygems.org"\ngem "rails", "~> 7.1"\ngem "sidekiq"\n'

TRAPS = [
    # -- a job queue declared and never configured -------------------------------------------
    RepoTrap(
        "elixir-job-queue-declared-never-configured",
        {"mix.exs": MIX_DEPS, "lib/quarry.ex": EX},
        said=(("repo:stack", "Elixir/Phoenix app"),),
        unsaid=("Oban for background jobs", "Background jobs run on Oban"),
    ),
    RepoTrap(
        "elixir-job-queue-configured",
        {
            "mix.exs": MIX_DEPS,
            "config/config.exs": "import Config\n"
            "config :quarry, Oban, repo: Quarry.Repo, queues: [default: 10]\n",
            "lib/quarry.ex": EX,
        },
        said=(("repo:stack", "Oban for background jobs"), ("repo:jobs", "Oban")),
    ),
    RepoTrap(
        "ruby-job-queue-declared-never-configured",
        {"Gemfile": RAILS_GEMFILE, "app/models/stone.rb": RB},
        said=(("repo:stack", "Ruby/Rails app"),),
        unsaid=("Sidekiq for background jobs", "Background jobs run on Sidekiq"),
    ),
    RepoTrap(
        "ruby-job-queue-a-worker-process-runs",
        {
            "Gemfile": RAILS_GEMFILE,
            "Procfile": "web: bin/rails server\nworker: bundle exec sidekiq\n",
            "app/models/stone.rb": RB,
        },
        said=(("repo:jobs", "Sidekiq"),),
    ),
    RepoTrap(
        "php-job-queue-of-two-words-declared-never-configured",
        {
            "composer.json": '{"require": {"php": "^8.2", "laravel/framework": "^11.0", '
            '"laravel/horizon": "^5.0"}}\n',
            ".env.example": "APP_NAME=Laravel\nQUEUE_CONNECTION=redis\n",
            "app/Models/Stone.php": "<?php\nclass Stone {}\n" * 40,
        },
        unsaid=("Background jobs run on Laravel Horizon",),
    ),
    # -- a job queue the code sets up (the source modules are not read: no absence claim) ------
    RepoTrap(
        "ruby-job-queue-a-source-module-sets-up",
        {
            "Gemfile": RAILS_GEMFILE,
            "app/workers/polish_worker.rb": "class PolishWorker\n  include Sidekiq::Job\n"
            "  def perform(id) = Stone.find(id).polish!\nend\n",
            "app/models/stone.rb": RB,
        },
        said=(("repo:jobs", "The manifests declare Sidekiq"),),
        unsaid=("no configuration or process file", "Background jobs run on Sidekiq"),
    ),
    RepoTrap(
        "javascript-job-queue-a-source-module-sets-up",
        {
            "package.json": '{"name": "quarry", "dependencies": {"bullmq": "^5"}}\n',
            "src/queue.ts": "import { Queue } from 'bullmq'\n"
            "export const polish = new Queue('polish', { connection })\n" + TS,
        },
        said=(("repo:jobs", "The manifests declare BullMQ"),),
        unsaid=("no configuration or process file", "Background jobs run on BullMQ"),
    ),
    RepoTrap(
        "python-job-queue-a-source-module-sets-up",
        {
            "pyproject.toml": '[project]\nname = "quarry"\ndependencies = ["celery"]\n',
            "quarry/jobs.py": "from celery import Celery\n\napp = Celery('quarry')\n" + PY,
        },
        said=(("repo:jobs", "The manifests declare Celery"),),
        unsaid=("no configuration or process file", "Background jobs run on Celery"),
    ),
    # -- a database the code connects to (the source modules are not read: no absence claim) ---
    RepoTrap(
        "javascript-database-a-source-module-connects-to",
        {
            "package.json": '{"name": "quarry", "dependencies": {"pg": "^8"}}\n',
            "src/store.ts": "import pg from 'pg'\n"
            "export const pool = new pg.Pool({ connectionString: process.env.PGURL })\n" + TS,
        },
        said=(("repo:database", "The manifests declare a client for PostgreSQL (pg)"),),
        unsaid=("no database configuration", "database is PostgreSQL"),
    ),
    RepoTrap(
        "python-database-a-source-module-connects-to",
        {
            "pyproject.toml": '[project]\nname = "quarry"\ndependencies = ["psycopg"]\n',
            "quarry/store.py": "import psycopg\n\nconn = psycopg.connect(DSN)\n" + PY,
        },
        said=(("repo:database", "The manifests declare a client for PostgreSQL (psycopg)"),),
        unsaid=("no database configuration", "database is PostgreSQL"),
    ),
    # -- a framework or queue declared for development, tests or an example only -----------------
    RepoTrap(
        "python-framework-and-queue-of-an-examples-extra",
        {
            "pyproject.toml": '[project]\nname = "quarry"\ndependencies = ["attrs"]\n\n'
            '[project.optional-dependencies]\nexamples = ["flask", "celery"]\n',
            "examples/webapp/app.py": "from flask import Flask\nimport celery\n",
            "quarry/stones.py": PY,
        },
        said=(("repo:stack", "Python project"),),
        unsaid=("Flask", "Celery"),
    ),
    RepoTrap(
        "python-framework-and-queue-of-a-dev-group",
        {
            "pyproject.toml": '[project]\nname = "quarry"\ndependencies = ["attrs"]\n\n'
            '[dependency-groups]\ndev = ["celery", "django"]\n',
            "quarry/stones.py": PY,
        },
        said=(("repo:stack", "Python project"),),
        unsaid=("Django", "Celery"),
    ),
    RepoTrap(
        "javascript-framework-and-queue-in-dev-dependencies",
        {
            "package.json": '{"name": "quarry", "dependencies": {"zod": "^3"},'
            ' "devDependencies": {"express": "^4", "bullmq": "^5"}}\n',
            "src/stones.ts": TS,
        },
        said=(("repo:stack", "TypeScript project"),),
        unsaid=("Express", "BullMQ"),
    ),
    RepoTrap(
        "javascript-framework-in-dev-dependencies-the-start-script-runs",
        {
            "package.json": '{"name": "desk", "scripts": {"start": "electron ."},'
            ' "devDependencies": {"electron": "^30", "express": "^4"}}\n',
            "src/main.ts": TS,
        },
        said=(("repo:stack", "TypeScript/Electron app"),),
        unsaid=("Express",),
    ),
    RepoTrap(
        "elixir-framework-only-for-tests",
        {
            "mix.exs": "defmodule Quarry.MixProject do\n  defp deps do\n    [\n"
            '      {:plug_cowboy, "~> 2.7"},\n'
            '      {:phoenix, "~> 1.7", only: :test},\n'
            '      {:phoenix_live_reload, "~> 1.4", only: :dev}\n    ]\n  end\nend\n',
            "lib/quarry.ex": EX,
        },
        said=(("repo:stack", "Elixir"),),
        unsaid=("Phoenix",),
    ),
    RepoTrap(
        "kotlin-framework-and-driver-of-the-tests",
        {
            "build.gradle.kts": 'plugins { kotlin("jvm") version "2.0.0" }\ndependencies {\n'
            '    testImplementation("org.springframework.boot:spring-boot-starter-test:3.2.4")\n'
            '    testImplementation("org.testcontainers:postgresql:1.19.7")\n}\n',
            "src/main/kotlin/Stones.kt": "fun stones() = 1\n" * 60,
        },
        said=(("repo:stack", "Kotlin project"),),
        unsaid=("Spring", "Spring Boot", "PostgreSQL"),
    ),
    RepoTrap(
        "kotlin-version-catalog-declares-unused-libraries",
        {
            "gradle/libs.versions.toml": '[versions]\nspring = "3.2.4"\n\n[libraries]\n'
            'spring-boot = { module = "org.springframework.boot:spring-boot-starter-web",'
            ' version.ref = "spring" }\n'
            'postgres = { module = "org.postgresql:postgresql", version = "42.7.3" }\n',
            "build.gradle.kts": 'plugins { kotlin("jvm") version "2.0.0" }\n',
            "src/main/kotlin/Stones.kt": "fun stones() = 1\n" * 60,
        },
        said=(("repo:stack", "Kotlin project"),),
        unsaid=("Spring", "PostgreSQL"),
    ),
    # -- runtime versions that disagree --------------------------------------------------------
    RepoTrap(
        "node-nvmrc-below-the-engines-floor",
        {
            ".nvmrc": "18\n",
            "package.json": '{"name": "quarry", "engines": {"node": ">=20"},'
            ' "dependencies": {"hono": "^4"}}\n',
            "Dockerfile": "FROM node:22-slim\nCOPY . .\n",
            "src/app.ts": "import { Hono } from 'hono'\n" + TS,
        },
        said=(("repo:stack", "TypeScript/Hono app"),),
        unsaid=("Node.js 18", "Node.js 20", "Node.js 22"),
    ),
    RepoTrap(
        "node-tool-versions-below-the-engines-floor",
        {
            "package.json": '{"name": "quarry", "engines": {"node": ">=20"}}\n',
            ".tool-versions": "nodejs 18.19.0\n",
            "src/stones.ts": TS,
        },
        said=(("repo:stack", "TypeScript project"),),
        unsaid=("Node.js 18", "Node.js 18.19.0", "Node.js 20"),
    ),
    RepoTrap(
        "node-nvmrc-within-the-engines-range",
        {".nvmrc": "20\n", "package.json": '{"name": "quarry", "engines": {"node": ">=20"}}\n'}
        | {"src/stones.ts": TS},
        said=(("repo:stack", "Node.js 20"),),
    ),
    RepoTrap(
        "python-version-file-pins-the-runtime-within-the-range",
        {
            ".python-version": "3.12.1\n",
            "pyproject.toml": '[project]\nname = "quarry"\nrequires-python = ">=3.10"\n',
            "quarry/stones.py": PY,
        },
        said=(("repo:stack", "quarry is a Python project (Python 3.12.1)."),),
    ),
    RepoTrap(
        "python-version-file-below-the-requires-python-floor",
        {
            ".python-version": "3.9\n",
            "pyproject.toml": '[project]\nname = "quarry"\nrequires-python = ">=3.10"\n',
            "quarry/stones.py": PY,
        },
        said=(("repo:stack", "quarry is a Python project."),),
        unsaid=("Python 3.9", "Python 3.10"),
    ),
    RepoTrap(
        "python-version-file-names-an-environment-not-a-version",
        {
            ".python-version": "quarry-env\n",
            "pyproject.toml": '[project]\nname = "quarry"\nrequires-python = ">=3.11"\n',
            "quarry/stones.py": PY,
        },
        said=(("repo:stack", "(Python 3.11)"),),
    ),
    RepoTrap(
        "ruby-version-file-pins-the-runtime",
        {".ruby-version": "ruby-3.3.0\n", "Gemfile": RAILS_GEMFILE, "app/models/stone.rb": RB},
        said=(("repo:stack", "Ruby/Rails app (Ruby 3.3"),),
    ),
    # another implementation's own version is not the language's (JRuby 9.4 runs Ruby 3.1)
    RepoTrap(
        "ruby-version-file-pins-another-implementation",
        {".ruby-version": "jruby-9.4.5.0\n", "Gemfile": RAILS_GEMFILE, "app/models/stone.rb": RB},
        said=(("repo:stack", "Ruby/Rails app"),),
        unsaid=("Ruby 9.4", "Ruby 9.4.5.0"),
    ),
    RepoTrap(
        "python-version-file-pins-another-implementation",
        {
            ".python-version": "graalpy-23.1.0\n",
            "pyproject.toml": '[project]\nname = "quarry"\n',
            "quarry/stones.py": PY,
        },
        said=(("repo:stack", "quarry is a Python project."),),
        unsaid=("Python 23.1", "Python 23.1.0"),
    ),
    RepoTrap(
        "ruby-version-file-disagrees-with-the-gemfile",
        {
            ".ruby-version": "3.2.2\n",
            "Gemfile": RAILS_GEMFILE + 'ruby "3.3.0"\n',
            "app/models/stone.rb": RB,
        },
        said=(("repo:stack", "Ruby/Rails app"),),
        unsaid=("Ruby 3.2", "Ruby 3.2.2", "Ruby 3.3", "Ruby 3.3.0"),
    ),
    RepoTrap(
        "elixir-tool-versions-beside-ci-matrix-and-image",
        {
            ".tool-versions": "erlang 26.2.2\nelixir 1.16.1-otp-26\n",
            ".github/workflows/ci.yml": "jobs:\n  test:\n    strategy:\n      matrix:\n"
            "        elixir: ['1.14', '1.15', '1.16']\n    steps:\n      - run: mix test\n",
            "Dockerfile": "FROM hexpm/elixir:1.15.7-erlang-25.3-alpine\nRUN mix release\n",
            "mix.exs": 'defmodule Quarry.MixProject do\n  def project, do: [elixir: "~> 1.14"]\nend\n',
            "lib/quarry.ex": EX,
        },
        said=(("repo:recipe:test", "`mix test`"),),
        unsaid=("Elixir 1.15", "Elixir 1.15.7", "Elixir 1.14"),
    ),
    # -- two lock files; a packageManager field beside a stale lock file ----------------------
    RepoTrap(
        "javascript-package-manager-field-beside-a-stale-npm-lock",
        {
            "package.json": '{"name": "quarry", "packageManager": "pnpm@9.1.0",'
            ' "scripts": {"test": "vitest run", "build": "tsc"},'
            ' "devDependencies": {"vitest": "^2"}}\n',
            "package-lock.json": '{"name": "quarry", "lockfileVersion": 3}\n',
            "src/stones.ts": TS,
        },
        said=(("repo:recipe:test", "`pnpm test`"), ("repo:recipe:build", "`pnpm build`")),
        unsaid=("npm test", "npm run build"),
    ),
    RepoTrap(
        "javascript-two-lock-files-and-nothing-deciding",
        {
            "package.json": '{"name": "quarry", "scripts": {"test": "vitest run"},'
            ' "devDependencies": {"vitest": "^2"}}\n',
            "package-lock.json": '{"name": "quarry", "lockfileVersion": 3}\n',
            "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
            "src/stones.ts": TS,
        },
        said=(("repo:stack", "TypeScript project"),),
        unsaid=("npm test", "pnpm test"),
    ),
    # -- two Ruby test frameworks; a runner's configuration left behind -------------------------
    RepoTrap(
        "ruby-rspec-and-minitest-both-present",
        {
            "Gemfile": 'source "https://rubygems.org"\ngem "sinatra"\ngroup :test do\n'
            '  gem "rspec"\n  gem "minitest"\nend\n',
            "spec/spec_helper.rb": "require 'rspec'\n",
            "test/test_helper.rb": "require 'minitest/autorun'\n",
            "lib/quarry.rb": RB,
        },
        said=(("repo:stack", "Ruby/Sinatra app"),),
        unsaid=("RSpec", "Minitest", "bundle exec rspec", "bin/rails test"),
    ),
    RepoTrap(
        "javascript-jest-config-left-behind-after-vitest",
        {
            "package.json": '{"name": "quarry", "scripts": {"test": "vitest run"},'
            ' "devDependencies": {"vitest": "^2", "jest": "^29"}}\n',
            "jest.config.js": "module.exports = { testEnvironment: 'node' }\n",
            "src/stones.ts": TS,
        },
        said=(("repo:recipe:test", "`npm test`"),),
        unsaid=("npx jest", "Jest"),
    ),
]
IDS = [t.name for t in TRAPS]


def _facts(make_repo: MakeRepo, files: dict[str, str]) -> list[MemoryCandidate]:
    return repository_candidates(read_repository(make_repo(files)))


@pytest.mark.parametrize("trap", TRAPS, ids=IDS)
def test_the_facts_state_what_the_repository_shows(make_repo: MakeRepo, trap: RepoTrap) -> None:
    by_key: dict[str, list[str]] = {}
    for fact in _facts(make_repo, trap.files):
        by_key.setdefault(fact.key, []).append(fact.content)

    for key, text in trap.said:
        assert any(text in said for said in by_key.get(key, [])), (key, text, by_key)


@pytest.mark.parametrize("trap", TRAPS, ids=IDS)
async def test_the_facts_never_state_what_the_trap_suggests(
    make_repo: MakeRepo, trap: RepoTrap
) -> None:
    found = _facts(make_repo, trap.files)

    for fact in found:
        for word in trap.unsaid:
            assert not mentions(word, fact.content), (word, fact.key, fact.content)
    text = await session_start_text(found)
    for word in trap.unsaid:
        assert not mentions(word, text), (word, text)
