"""Session stack facts are weighed: what the code uses over what a manifest declares, each piece
of evidence scoped to the folder where it holds; the same rules in every ecosystem."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from squirrel_memory.extractors.activity import CommandRun
from squirrel_memory.extractors.declared_libraries import declared_libraries
from squirrel_memory.extractors.facts import project_facts
from squirrel_memory.extractors.stack_evidence import code_scope, is_test_code, run_scope
from tests.unit.memory.test_rules_extractor import PROJECT, T0
from tests.unit.memory.test_session_about import _numbered, _reads

MIX = "defmodule Birds.MixProject do\n  def project, do: [app: :birds, deps: deps()]\nend\n"
PYPROJECT = '[project]\nname = "shop"\ndependencies = ["django"]\n'
DOCS_PACKAGE = '{"name": "docs", "devDependencies": {"vitest": "^2.0.0", "astro": "^4"}}\n'
VITEST_TEST = "import { describe, it } from 'vitest'\n\ndescribe('x', () => {})\n"


def _run(command: str, cwd: str | None = None) -> CommandRun:
    return CommandRun("run1", T0, command, True, "ok", cwd=cwd)


def _facts(files: list[tuple[str, str]], runs: Sequence[CommandRun] = ()) -> dict[str, str]:
    events = _reads(*((path, _numbered(text)) for path, text in files))
    return {f.key: f.content for f in project_facts(events, list(runs), repository=False)}


@pytest.mark.parametrize(
    ("root", "runner"),
    [("mix.exs", "mix test"), ("pyproject.toml", "pytest -q"), ("go.mod", "go test ./...")],
)
def test_a_sub_package_manifest_never_names_the_project_test_framework(
    root: str, runner: str
) -> None:
    found = _facts([(root, "x\n"), ("docs/package.json", DOCS_PACKAGE)], [_run(runner)])

    assert "Vitest" not in found.get("testing", "")
    assert not any(k.startswith("testing@") for k in found)  # a manifest alone: dropped


def test_test_code_in_another_language_folder_is_scoped_to_it() -> None:
    files = [
        ("mix.exs", MIX),
        ("lib/birds/sightings.ex", "defmodule Birds.Sightings do\nend\n"),
        ("lib/birds/repo.ex", "defmodule Birds.Repo do\nend\n"),
        ("docs/src/search.test.ts", VITEST_TEST),
    ]

    found = _facts(files, [_run("mix test")])

    assert "testing" not in found
    assert found["testing@docs"] == "In `docs/`, tests are written with Vitest."


def test_a_root_manifest_alone_still_names_the_test_framework() -> None:
    found = _facts([("package.json", '{"devDependencies": {"vitest": "^2"}}\n')])

    assert found["testing"] == "Tests are written with Vitest."


def test_the_runner_a_test_command_runs_wins_over_a_declared_one() -> None:
    package = '{"devDependencies": {"jest": "^29", "vitest": "^2"}}\n'

    found = _facts([("package.json", package)], [_run("npx vitest run")])

    assert found["testing"] == "Tests are written with Vitest."


@pytest.mark.parametrize("runner", ["go test ./...", "mix test", "cargo test", "bundle exec rspec"])
def test_a_language_runner_at_the_root_silences_a_declared_framework(runner: str) -> None:
    found = _facts([("package.json", '{"devDependencies": {"vitest": "^2"}}\n')], [_run(runner)])

    assert "testing" not in found


def test_a_script_runner_names_no_framework_and_silences_nothing() -> None:
    found = _facts(
        [("package.json", '{"devDependencies": {"vitest": "^2"}}\n')], [_run("npm test")]
    )

    assert found["testing"] == "Tests are written with Vitest."


@pytest.mark.parametrize(
    ("command", "cwd"),
    [("cd docs && npx vitest run", PROJECT), ("npx vitest run", f"{PROJECT}/docs")],
)
def test_a_test_command_run_in_a_sub_folder_is_scoped_to_it(command: str, cwd: str) -> None:
    found = _facts([("pyproject.toml", PYPROJECT)], [_run(command, cwd), _run("pytest")])

    # At the root, only the run says pytest: the test command's own memory says that already.
    assert "testing" not in found
    assert found["testing@docs"] == "In `docs/`, tests are written with Vitest."


def test_two_declared_databases_and_nothing_deciding_name_none() -> None:
    package = '{"dependencies": {"mysql2": "^3", "better-sqlite3": "^9", "express": "^4"}}\n'

    found = _facts([("package.json", package)])

    assert "database" not in found


def test_the_configured_adapter_names_the_database() -> None:
    package = '{"dependencies": {"mysql2": "^3", "better-sqlite3": "^9", "knex": "^3"}}\n'
    knexfile = "module.exports = {\n  client: 'better-sqlite3',\n}\n"

    found = _facts([("package.json", package), ("knexfile.js", knexfile)])

    assert found["database"] == "Data layer: SQLite."


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("lib/birds/repo.ex", "  use Ecto.Repo, otp_app: :birds, adapter: Ecto.Adapters.SQLite3\n"),
        ("shop/settings.py", "DATABASES = {'default': {'ENGINE': 'django.db.backends.sqlite3'}}\n"),
        ("config/database.yml", "default: &default\n  adapter: sqlite3\n"),
        ("prisma/schema.prisma", 'datasource db {\n  provider = "sqlite"\n}\n'),
    ],
)
def test_an_adapter_read_in_a_session_beats_a_declared_client(path: str, text: str) -> None:
    found = _facts([("requirements.txt", "psycopg2==2.9\nflask\n"), (path, text)])

    assert found["database"] == "Data layer: SQLite."


@pytest.mark.parametrize(
    "path", ["test/dummy/config/database.yml", "spec/dummy/config/database.yml"]
)
def test_a_tests_folders_configured_database_is_the_tests_own(path: str) -> None:
    # A Rails engine's dummy app: the engine writes to whichever database its host app has.
    found = _facts(
        [("quux.gemspec", "Gem::Specification.new\n"), (path, "test:\n  adapter: sqlite3\n")]
    )

    assert "database" not in found


def test_one_declared_database_alone_is_only_a_dependency() -> None:
    # The driver may serve a script, a side store or nothing yet: the code must use it.
    declared = _facts([("package.json", '{"dependencies": {"pg": "^8"}}\n')])
    used = _facts(
        [
            ("package.json", '{"dependencies": {"pg": "^8"}}\n'),
            ("src/db.js", "const { Pool } = require('pg')\n"),
        ]
    )

    assert "database" not in declared
    assert used["database"] == "Data layer: PostgreSQL."


def test_scopes() -> None:
    assert code_scope("docs/src/a.ts", set(), {"Elixir"}, "TypeScript") == "docs"
    assert code_scope("assets/js/app.ts", {"assets"}, {"JavaScript"}, "TypeScript") == "assets"
    assert code_scope("src/a.ts", set(), {"JavaScript"}, "TypeScript") == ""
    assert code_scope("lib/a.ex", set(), set(), "Elixir") == ""
    assert run_scope(_run("cd web && npm test", PROJECT), 1, PROJECT) == "web"
    assert run_scope(_run("pytest", "/elsewhere"), 0, PROJECT) is None
    assert run_scope(_run("cd /tmp && pytest", PROJECT), 1, PROJECT) is None


def test_an_import_that_never_ran_yields_to_the_language_runner() -> None:
    # No manifest read, so nothing scopes the TypeScript test: the runner that ran decides.
    files = [("web/search.test.ts", VITEST_TEST), ("lib/birds.ex", "defmodule Birds do\nend\n")]

    assert "testing" not in _facts(files, [_run("mix test")])
    ran_too = _facts(files, [_run("mix test"), _run("npx vitest run")])
    assert ran_too["testing"] == "Tests are written with Vitest."


def test_an_import_stands_when_no_other_runner_ran() -> None:
    found = _facts([("tests/test_app.py", "import pytest\n")], [_run("npm test")])

    assert found["testing"] == "Tests are written with pytest."


@pytest.mark.parametrize(
    ("name", "dev"),
    [
        ("requirements.txt", False),
        ("requirements-dev.txt", True),
        ("requirements_test.txt", True),
        ("requirements-docs.txt", True),
        ("requirements.lint.txt", True),
        ("requirements-typing.txt", True),
        # a short word inside a longer one is not that word
        ("requirements-docker.txt", False),
        ("requirements-latest.txt", False),
        ("requirements-prototype.txt", False),
        ("requirements-special.txt", False),
        ("requirements-devices.txt", False),
    ],
)
def test_a_requirements_file_is_for_development_when_its_name_says_so_word_for_word(
    name: str, dev: bool
) -> None:
    assert declared_libraries(name, "django\n") == {"django": dev}


@pytest.mark.parametrize(
    ("path", "test"),
    [
        ("src/test/java/LedgerIT.java", True),
        ("src/main/java/LedgerIT.java", True),
        ("src/LedgerTest.java", True),
        ("lib/ledger_spec.rb", True),
        ("tests/helpers.py", True),
        # a short suffix inside a word in capitals is no test's
        ("tools/AUDIT.py", False),
        ("src/main/java/SUBMIT.java", False),
        ("src/audit.py", False),
    ],
)
def test_a_test_file_is_named_as_one_not_by_a_few_letters_inside_its_name(
    path: str, test: bool
) -> None:
    assert is_test_code(path) is test


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("src/main.rs", "use axum::{routing::get, Router};\nuse sqlx::PgPool;\n"),
        ("src/main.rs", "extern crate axum;\nextern crate sqlx;\n\nfn main() {}\n"),
        ("src/lib.rs", "pub use axum::Router;\npub(crate) use ::sqlx::Pool;\n"),
        ("app/main.py", "from fastapi import FastAPI\nimport sqlalchemy\n"),
        ("src/server.ts", "import express from 'express'\nimport { Pool } from 'pg'\n"),
    ],
)
def test_the_code_a_session_touched_shows_its_framework_and_data_layer_in_every_language(
    path: str, code: str
) -> None:
    found = _facts([(path, code)])

    assert found["framework"].startswith("Built with ")
    assert found["database"].startswith("Data layer: ")


def test_rust_use_and_extern_crate_name_the_crates_the_code_uses() -> None:
    found = _facts(
        [
            ("Cargo.toml", '[package]\nname = "tiles"\n'),
            ("src/main.rs", "use axum::Router;\nuse tokio::net::TcpListener;\n"),
            ("src/db.rs", "extern crate diesel;\nuse diesel::prelude::*;\n"),
        ]
    )

    assert found["framework"] == "Built with Axum."
    assert found["database"] == "Data layer: Diesel."


@pytest.mark.parametrize(
    ("path", "code"),
    [
        # the crate's own modules, the standard library, prose and another language's `use`
        ("src/main.rs", "use crate::axum::Router;\nuse self::sqlx::Pool;\nuse std::io;\n"),
        ("src/main.rs", '// use axum::Router;\nlet s = "use sqlx::Pool;";\n'),
        ("README.md", "Notes\n\nuse axum::Router; is how we started\nuse sqlx for the data\n"),
        ("src/Handler.php", "<?php\nuse axum;\nuse sqlx;\n"),
        ("lib/Tiles.pm", "use axum;\nuse sqlx;\n1;\n"),
    ],
)
def test_a_use_line_that_is_not_rust_code_importing_a_crate_names_nothing(
    path: str, code: str
) -> None:
    found = _facts([(path, code)])

    assert "framework" not in found and "database" not in found


@pytest.mark.parametrize(
    ("manifest", "manifest_text", "code", "code_text", "stated"),
    [
        (
            "Cargo.toml",
            '[package]\nname = "tiles"\n',
            "src/main.rs",
            "use axum::Router;\nuse tokio::net::TcpListener;\n",
            "Rust project (Cargo.toml), built with Axum.",
        ),
        (
            "pyproject.toml",
            '[project]\nname = "shop"\n',
            "app/main.py",
            "from fastapi import FastAPI\n",
            "Python project (pyproject.toml), built with FastAPI.",
        ),
        (
            "package.json",
            '{"name": "api"}\n',
            "src/server.js",
            "import express from 'express'\n",
            "JavaScript project (package.json), built with Express.",
        ),
    ],
)
def test_a_manifests_language_names_the_framework_the_code_is_built_with(
    manifest: str, manifest_text: str, code: str, code_text: str, stated: str
) -> None:
    found = _facts([(manifest, manifest_text), (code, code_text)])

    assert found["language"] == stated


def test_a_counted_language_or_a_sub_folders_framework_is_not_joined() -> None:
    # No root manifest: the language is counted from files, which says where code was seen.
    counted = _facts(
        [
            ("src/main.rs", "use axum::Router;\n"),
            ("src/web.rs", "use axum::routing::get;\n"),
        ]
    )
    # The framework is the docs site's, in its own package: not what the project is built on.
    scoped = _facts(
        [
            ("pyproject.toml", '[project]\nname = "shop"\n'),
            ("docs/package.json", '{"name": "docs"}\n'),
            ("docs/src/page.js", "import express from 'express'\n"),
        ]
    )

    assert "built with" not in counted["language"]
    assert counted["framework"] == "Built with Axum."
    assert scoped["language"] == "Python project (pyproject.toml)."


TWO_FRAMEWORKS = '{"dependencies": {"express": "^4.19.2", "fastify": "^4.26.0"}}\n'


def test_the_framework_the_code_imports_wins_over_one_only_declared() -> None:
    server = (
        "import Fastify from 'fastify';\n\nconst app = Fastify();\napp.listen({ port: 3000 });\n"
    )

    found = _facts([("package.json", TWO_FRAMEWORKS), ("src/server.ts", server)])

    assert found["framework"] == "Built with Fastify."


def test_two_rival_server_frameworks_only_declared_name_none() -> None:
    found = _facts([("package.json", TWO_FRAMEWORKS)])

    assert "framework" not in found


@pytest.mark.parametrize(
    ("manifest", "said"),
    [
        # A framework built on another one declares both: no conflict.
        ('{"dependencies": {"@nestjs/core": "^10", "express": "^4"}}\n', "NestJS"),
        # A UI library beside one server framework: no conflict.
        ('{"dependencies": {"express": "^4", "react": "^18"}}\n', "Express"),
    ],
)
def test_declared_frameworks_that_do_not_rival_are_still_named(manifest: str, said: str) -> None:
    found = _facts([("package.json", manifest)])

    assert said in found["framework"]


def test_code_that_imports_both_frameworks_names_both() -> None:
    files = [
        ("package.json", TWO_FRAMEWORKS),
        ("src/server.ts", "import Fastify from 'fastify';\nexport const app = Fastify();\n"),
        ("src/admin.ts", "import express from 'express';\nexport const admin = express();\n"),
    ]

    found = _facts(files)

    assert "Express" in found["framework"] and "Fastify" in found["framework"]
