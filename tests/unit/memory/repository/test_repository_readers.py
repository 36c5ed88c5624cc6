"""Each repository reader on small, realistic repositories in five languages."""

from __future__ import annotations

from pathlib import Path

import pytest

from squirrel_memory.models import MemoryCandidate, MemoryType
from squirrel_memory.repository import read_repository, repository_candidates
from squirrel_memory.repository.findings import Readings
from squirrel_memory.repository.instructions import read_instruction_file
from squirrel_memory.repository.snapshot import TextFile
from tests.unit.memory.repository.conftest import (
    DOTNET,
    ELIXIR,
    GO,
    JAVA,
    JS,
    PHP,
    PYTHON,
    RUBY,
    RUST,
    MakeRepo,
    git,
)


def _by_key(candidates: list[MemoryCandidate]) -> dict[str, MemoryCandidate]:
    return {c.key: c for c in candidates}


def _line(root: Path, ref: str) -> str:
    path, _, number = ref.rpartition(":")
    return git(root, "show", f"HEAD:{path}").splitlines()[int(number) - 1]


def _read(
    make_repo: MakeRepo, files: dict[str, str | bytes]
) -> tuple[Path, dict[str, MemoryCandidate]]:
    root = make_repo(files)
    return root, _by_key(repository_candidates(read_repository(root)))


@pytest.mark.parametrize(
    "files",
    [ELIXIR, PYTHON, JS, GO, RUST, RUBY, PHP, JAVA, DOTNET],
    ids=["elixir", "python", "js", "go", "rust", "ruby", "php", "java", "dotnet"],
)
def test_every_reference_names_a_real_line_of_a_tracked_file(
    make_repo: MakeRepo, files: dict[str, str | bytes]
) -> None:
    root, found = _read(make_repo, files)
    head = git(root, "rev-parse", "HEAD").strip()
    assert found, "a realistic repository gives memories"
    for memory in found.values():
        assert memory.key.startswith("repo:")
        assert memory.source_refs, memory.key
        assert memory.content.endswith(".") and len(memory.content) > 20, memory.key
        for ref in memory.source_refs:
            if ref.startswith("commit:"):
                assert ref == f"commit:{head}"
                continue
            assert _line(root, ref).strip(), f"{memory.key} cites an empty line {ref}"


def test_elixir_phoenix_app(make_repo: MakeRepo) -> None:
    root, found = _read(make_repo, ELIXIR)
    stack = found["repo:stack"].content
    assert stack == (
        "Heron is an Elixir/Phoenix app (Elixir 1.17, Phoenix 1.7.14) with PostgreSQL via "
        "Ecto and Oban for background jobs."
    )
    assert "phoenix" in _line(
        root, next(r for r in found["repo:stack"].source_refs if r.startswith("mix.lock"))
    )
    # The main test command is mix's, and the alias that prepares the database is named.
    test = found["repo:recipe:test"]
    assert test.type is MemoryType.RECIPE
    assert test.content.startswith("Run the tests with `mix test` (")
    assert "`ecto.create --quiet`, `ecto.migrate --quiet` first" in test.content
    assert any("test:" in _line(root, r) for r in test.source_refs if r.startswith("mix.exs"))
    # The assets folder's vitest is a scoped recipe, never the project's test command.
    assert "vitest" not in test.content
    assert "In `assets/`" in found["repo:recipe:test@assets"].content
    assert found["repo:recipe:run"].content.startswith("Start the dev server with `mix phx.server`")
    assert "port 4000 (config/dev.exs:" in found["repo:recipe:run"].content
    assert found["repo:recipe:migrate"].content.startswith(
        "Run the database migrations with `mix ecto.migrate`"
    )
    assert found["repo:recipe:format"].content.startswith("Format the code with `mix format` (")
    assert found["repo:recipe:lint"].content.startswith("Lint the code with `mix credo --strict`")
    assert "`mix precommit`" in found["repo:recipe:checks"].content
    assert "`mix credo --strict`" in found["repo:ci"].content
    rule = next(c for k, c in found.items() if k.startswith("repo:rule:always_run_mix_precommit"))
    assert rule.content.startswith("Project instruction (CLAUDE.md): Always run `mix precommit`")
    rules = sorted(c.content for k, c in found.items() if k.startswith("repo:rule:"))
    assert (
        rules[-1] == "Project instruction (CLAUDE.md): Use `Req` for HTTP requests, not HTTPoison."
    )
    assert len(rules) == 3  # the three bullets; the prose about tests is a command, not a rule
    assert "bird sightings" in found["repo:about"].content
    assert "`priv/repo/migrations/`" in found["repo:layout"].content
    assert found["repo:languages"].content.startswith("Tracked code by size: Elixir ")
    # The secret in config/dev.exs is never read into a memory.
    assert not any("Yw3Kx0mJ" in c.content for c in found.values())


def test_python_fastapi_service(make_repo: MakeRepo) -> None:
    root, found = _read(make_repo, PYTHON)
    assert found["repo:stack"].content == (
        "ledger-api is a Python/FastAPI app (Python 3.12, FastAPI 0.115.4) with PostgreSQL via "
        "SQLAlchemy and Celery for background jobs."
    )
    assert "Alembic" in found["repo:database"].content
    assert found["repo:recipe:test"].content.startswith(
        "Run the tests with `make test` (Makefile:3 runs `uv run pytest -q`)"
    )
    assert "port 8000" in found["repo:recipe:run"].content
    services = found["repo:services"].content
    assert "PostgreSQL on port 5432" in services and "Redis on port 6379" in services
    # Example environment files give the kind of service, never the credentials.
    assert not any("s3cr3t" in c.content or "change-me" in c.content for c in found.values())
    assert any(r.startswith(".env.example:") for r in found["repo:database"].source_refs)
    assert "Prefer `uv run`" in next(c.content for k, c in found.items() if "prefer_uv_run" in k)
    del root


def test_typescript_next_app(make_repo: MakeRepo) -> None:
    _, found = _read(make_repo, JS)
    assert found["repo:stack"].content == (
        "storefront is a TypeScript/Next.js app (Node.js 20, Next.js 14.2.15) with PostgreSQL "
        "via Prisma."
    )
    # BullMQ is declared, and no file read sets it up: it is named as declared, no more.
    assert found["repo:jobs"].content.startswith("The manifests declare BullMQ 5.21.0 (background")
    # pnpm-lock.yaml makes the scripts pnpm's.
    assert found["repo:recipe:test"].content.startswith("Run the tests with `pnpm test`")
    assert found["repo:recipe:typecheck"].content.startswith(
        "Type-check the code with `pnpm typecheck`"
    )
    assert "port 3001" in found["repo:recipe:run"].content
    assert "postinstall" not in " ".join(c.content for c in found.values())
    assert found["repo:layout"].content.endswith("tests sit beside the code they test.")


def test_go_service(make_repo: MakeRepo) -> None:
    _, found = _read(make_repo, GO)
    assert found["repo:stack"].content == (
        "github.com/acme/ledger is a Go/Gin app (Go 1.22, Gin 1.10.0)."
    )
    assert found["repo:recipe:test"].content.startswith(
        "Run the tests with `just test` (justfile:2 runs `go test -race ./...`)"
    )
    assert found["repo:recipe:lint"].content.startswith("Lint the code with `just lint`")
    # go.mod's indirect requirements say nothing about the stack.
    assert "text" not in found["repo:stack"].content
    assert "`internal/` and `cmd/`" in found["repo:layout"].content


def test_rust_service(make_repo: MakeRepo) -> None:
    _, found = _read(make_repo, RUST)
    assert found["repo:stack"].content == (
        "tiles is a Rust/Axum app (Rust 1.80, Axum 0.7.7) with SQLx."
    )
    assert found["repo:recipe:test"].content.startswith("Run the tests with `cargo test --locked`")
    # The formatting recipe formats; CI's check-only variant is named beside it.
    assert found["repo:recipe:format"].content.startswith("Format the code with `cargo fmt` (")
    assert "`cargo fmt --check`" in found["repo:recipe:format"].content
    checks = found["repo:recipe:checks"].content
    assert "Pre-commit hooks (.pre-commit-config.yaml) run `cargo-fmt` and `clippy`" in checks


def test_workspaces_are_named_in_the_layout(make_repo: MakeRepo) -> None:
    _, found = _read(
        make_repo,
        (
            {
                "package.json": '{"name": "mono", "private": true, "workspaces": ["packages/*"],'
                ' "scripts": {"test": "turbo run test"}}\n',
                "packages/web/package.json": '{"name": "web", "scripts": {"test": "vitest run"}}\n',
                "packages/web/src/index.ts": "export {}\n" * 50,
            }
        ),
    )
    assert "workspace (package.json) of `packages/*`" in found["repo:layout"].content
    assert found["repo:recipe:test"].content.startswith("Run the tests with `npm test`")
    assert "In `packages/web/`" in found["repo:recipe:test@packages/web"].content


def test_cargo_workspace_and_mix_umbrella(make_repo: MakeRepo) -> None:
    _, cargo = _read(
        make_repo,
        (
            {
                "Cargo.toml": '[workspace]\nmembers = ["crates/core", "crates/cli"]\n',
                "crates/core/Cargo.toml": '[package]\nname = "core"\nedition = "2021"\n',
                "crates/core/src/lib.rs": "pub fn f() {}\n" * 40,
            }
        ),
    )
    assert "of `crates/core` and `crates/cli`" in cargo["repo:layout"].content
    _, umbrella = _read(
        make_repo,
        (
            {
                "mix.exs": 'defmodule U.MixProject do\n  def project do\n    [apps_path: "apps"]'
                "\n  end\nend\n",
                "apps/web/mix.exs": "defmodule Web.MixProject do\n  def project do\n    [app: :web,"
                ' elixir: "~> 1.16"]\n  end\n\n  defp deps do\n    [{:phoenix, "~> 1.7"}]\n'
                "  end\nend\n",
                "apps/web/lib/web.ex": "defmodule Web do\nend\n" * 30,
            }
        ),
    )
    assert "workspace (mix.exs) of `apps/*`" in umbrella["repo:layout"].content
    # A member app names its own package, not the umbrella: the repository's folder names it.
    assert " is an Elixir/Phoenix app (Elixir 1.16" in umbrella["repo:stack"].content
    assert not umbrella["repo:stack"].content.startswith("web ")


def test_contributing_prose_is_not_a_rule_but_its_bullets_are(make_repo: MakeRepo) -> None:
    _, found = _read(
        make_repo,
        (
            {
                **GO,
                "CONTRIBUTING.md": "# Contributing\n\nYou should feel welcome to open issues "
                "about anything at all.\n\n- Always sign off your commits (`git commit -s`).\n",
            }
        ),
    )
    rules = [c.content for k, c in found.items() if k.startswith("repo:rule:")]
    assert rules == [
        "Project instruction (CONTRIBUTING.md): Always sign off your commits (`git commit -s`)."
    ]


def test_a_script_named_run_or_a_seed_script_is_not_the_dev_server(make_repo: MakeRepo) -> None:
    readme = "# Heron\n\nHeron tracks bird sightings on a live map for volunteers.\n\n"
    readme += "```bash\n.ci/run\nmix run priv/repo/seeds.exs\n```\n"
    _, found = _read(make_repo, {**ELIXIR, "README.md": readme, ".ci/run": "#!/bin/sh\n"})
    assert found["repo:recipe:run"].content.startswith("Start the dev server with `mix phx.server`")
    assert ".ci/run" not in found["repo:recipe:run"].content


@pytest.mark.parametrize("fence", ["```", "~~~"])
def test_a_readmes_shell_block_gives_its_commands_whichever_fence(fence: str) -> None:
    readme = (
        f"# X\n\nA tool.\n\n{fence}bash\nmake test\n{fence}\n\n{fence}python\nmake(1)\n{fence}\n"
    )
    out = Readings()
    read_instruction_file(TextFile.of("README.md", readme), out, "readme")
    assert [c.text for c in out.commands] == ["make test"]


def test_a_layout_trees_folders_in_a_plain_fence_are_no_commands() -> None:
    fence = "```"
    agents = f"# X\n\n## Project Structure\n{fence}\nsrc/\ntests/\n{fence}\n\n{fence}\nmake test\n{fence}\n"
    out = Readings()
    read_instruction_file(TextFile.of("AGENTS.md", agents), out, "instructions")
    assert [c.text for c in out.commands] == ["make test"]


def test_a_line_with_a_templates_unfilled_placeholder_is_no_rule() -> None:
    agents = (
        "# X\n\n## Commands\nmake test [COMMANDS FOR YOUR STACK] make lint\n\n"
        "## Style\nAlways run [NEEDS CLARIFICATION] first.\n\n"
        "Always run `make check` before committing [see CI].\n"
    )
    out = Readings()
    read_instruction_file(TextFile.of("AGENTS.md", agents), out, "instructions")
    assert [i.text for i in out.instructions] == [
        "Always run `make check` before committing [see CI]."
    ]


def test_a_compound_name_or_a_mapping_in_a_list_is_no_rule() -> None:
    agents = (
        "# Agents\n\n"
        "- **commit-agent** (conductor)\n"
        "- **test-fixer** (test remediation)\n"
        "- Test failures → test-fixer agent\n"
        "- Build errors -> the build agent\n"
        "- Test the parser with `make test`.\n"
        "- Lint errors → always fix them before pushing.\n"
    )
    out = Readings()
    read_instruction_file(TextFile.of("AGENTS.md", agents), out, "instructions")
    assert [i.text for i in out.instructions] == [
        "Test the parser with `make test`.",
        "Lint errors → always fix them before pushing.",
    ]


def test_the_parts_of_an_enumeration_that_completes_a_sentence_are_no_rules() -> None:
    agents = (
        "# Delivery\n\n"
        "1. Turn the request into slices. Separate:\n"
        "   - dependent work that must run in order;\n"
        "   - user-only or approval-gated actions; and\n"
        "   - checks that can run in the background.\n"
        "- Always run `make check` before committing.\n"
        "- Never push to `main`; open a pull request.\n"
    )
    out = Readings()
    read_instruction_file(TextFile.of("AGENTS.md", agents), out, "instructions")
    assert [i.text for i in out.instructions] == [
        "Always run `make check` before committing.",
        "Never push to `main`; open a pull request.",
    ]


def test_a_hard_wrapped_paragraph_too_long_for_one_rule_gives_its_rule_sentences() -> None:
    agents = (
        "# Agents\n\n## Commit messages\n\n"
        'When writing commit messages, follow the format "component: Brief summary" for\n'
        "the title. In the body of the commit message, provide a brief prose summary\n"
        "of the purpose of the changes made. Do not mention added tests, comments,\n"
        "documentation, etc., unless this is the main purpose of the change. The history\n"
        "is read by many people over many years, which is why the messages matter so much.\n"
    )
    out = Readings()
    read_instruction_file(TextFile.of("AGENTS.md", agents), out, "instructions")
    assert [(i.text, i.ref) for i in out.instructions] == [
        (
            'When writing commit messages, follow the format "component: Brief summary" for '
            "the title.",
            "AGENTS.md:5",
        ),
        (
            "Do not mention added tests, comments, documentation, etc., unless this is the "
            "main purpose of the change.",
            "AGENTS.md:5",
        ),
    ]


@pytest.mark.parametrize(
    ("path", "paragraph", "rule"),
    [
        (
            "CLAUDE.md",
            "Do not store application state in globals or module-level variables scattered\n"
            "across files. Pass a single context table (e.g. `ctx`) through the call chain.\n"
            "Modules receive and operate on this context rather than reaching for global or\n"
            "upvalue state. This keeps state ownership explicit and makes the code testable.\n",
            "Do not store application state in globals or module-level variables scattered "
            "across files; pass a single context table (e.g. `ctx`) through the call chain.",
        ),
        (
            "AGENTS.md",
            "Never open a database connection inside an HTTP handler or a background job.\n"
            "Pass the repository in through the constructor (i.e. `NewServer(repo)`) instead.\n"
            "Handlers that reach for a package-level pool are hard to test, and the pool's\n"
            "lifetime then belongs to nobody, which is how the leaks of last year started.\n",
            "Never open a database connection inside an HTTP handler or a background job; pass "
            "the repository in through the constructor (i.e. `NewServer(repo)`) instead.",
        ),
    ],
    ids=["lua-context-table", "go-constructor"],
)
def test_what_to_do_instead_right_after_a_rule_is_kept_with_it(
    path: str, paragraph: str, rule: str
) -> None:
    out = Readings()
    read_instruction_file(TextFile.of(path, f"# Notes\n\n{paragraph}"), out, "instructions")
    assert [i.text for i in out.instructions] == [rule]


def test_an_imperative_after_an_explanation_or_a_rule_then_its_reason_stays_apart() -> None:
    agents = (
        "# Agents\n\nThe cache of parsed sessions lives in SQLite next to the transcripts, and a\n"
        "second run reads it first so that pages come back fast after the first build. Run\n"
        "the cleaner when it grows. Never write to the cache from a test, because the suite\n"
        "runs in parallel and two writers would corrupt the file on a slow disk. Keeping the\n"
        "cache small matters more than keeping it warm, e.g. on a laptop.\n"
    )
    out = Readings()
    read_instruction_file(TextFile.of("AGENTS.md", agents), out, "instructions")
    assert [i.text for i in out.instructions] == [
        "Never write to the cache from a test, because the suite runs in parallel and two "
        "writers would corrupt the file on a slow disk."
    ]


def test_a_paragraph_that_states_no_rule_gives_none() -> None:
    about = (
        "# Agents\n\nThis project converts transcripts to HTML. It is written in Python and\n"
        "uses Jinja templates for its pages, with a cache of parsed sessions kept in SQLite\n"
        "next to the transcripts, so that a second run is fast. When a page is built, the\n"
        "cache is read first. What a new reporter must not do is decide where the walk\n"
        "stops. Test files live in `test/` and use the fixtures of `test/data/`. Only one\n"
        "worker runs at a time, so jobs finish in order. Always-on workers read the queue.\n"
    )
    out = Readings()
    read_instruction_file(TextFile.of("AGENTS.md", about), out, "instructions")
    assert out.instructions == []


def test_taskfile_poe_tasks_and_pipfile(make_repo: MakeRepo) -> None:
    _, go = _read(
        make_repo,
        {
            **GO,
            "justfile": "",
            "Taskfile.yml": "version: '3'\ntasks:\n  test:\n    cmds:\n      - go test ./...\n",
        },
    )
    assert go["repo:recipe:test"].content.startswith(
        "Run the tests with `task test` (Taskfile.yml:3 runs `go test ./...`)"
    )
    _, py = _read(
        make_repo,
        {
            "Pipfile": '[packages]\ndjango = "==5.1"\npsycopg = "*"\n\n[requires]\n'
            'python_version = "3.12"\n',
            "pyproject.toml": '[tool.poe.tasks]\ntest = "pytest -x"\nlint = { cmd = "ruff check ." }\n',
            "manage.py": "import django\n" * 40,
        },
    )
    assert py["repo:stack"].content.startswith("repo")
    # psycopg is declared, but no configuration says the app uses it: no database is stated.
    assert py["repo:stack"].content.endswith("Python/Django app (Python 3.12, Django 5.1).")
    assert py["repo:recipe:test"].content.startswith(
        "Run the tests with `poe test` (pyproject.toml:2"
    )
    assert py["repo:recipe:lint"].content.startswith("Lint the code with `poe lint`")
    assert py["repo:recipe:run"].content.startswith(
        "Start the dev server with `python manage.py runserver`"
    )


def test_mise_tasks_are_the_projects_commands(make_repo: MakeRepo) -> None:
    _, go = _read(
        make_repo,
        {
            **GO,
            "justfile": "",
            "mise.toml": '[tools]\ngo = "1.22"\n\n[tasks.test]\nrun = "go test -race ./..."\n\n'
            '[tasks.lint]\nrun = ["golangci-lint run", "go vet ./..."]\n\n'
            '[tasks.dev]\ndescription = "watch"\n',
        },
    )
    assert go["repo:recipe:test"].content.startswith(
        "Run the tests with `mise run test` (mise.toml:4 runs `go test -race ./...`)"
    )
    assert go["repo:recipe:lint"].content.startswith("Lint the code with `mise run lint`")
    _, rust = _read(make_repo, {**RUST, ".mise.toml": '[tasks]\nfmt = "cargo fmt --all"\n'})
    assert rust["repo:recipe:format"].content.startswith("Format the code with `mise run fmt`")
    # a formatting task is not the test command
    assert "mise run" not in rust["repo:recipe:test"].content


def test_pixi_pdm_and_rake_tasks_are_the_projects_commands(make_repo: MakeRepo) -> None:
    _, pixi = _read(
        make_repo,
        {
            "pixi.toml": '[project]\nname = "sim"\n\n[tasks]\ntest = "pytest -q"\n',
            "sim/core.py": "import numpy\n" * 40,
        },
    )
    assert pixi["repo:recipe:test"].content.startswith(
        "Run the tests with `pixi run test` (pixi.toml:5 runs `pytest -q`)"
    )
    _, pdm = _read(
        make_repo,
        {
            "pyproject.toml": '[project]\nname = "x"\n\n[tool.pdm.scripts]\n'
            'lint = "ruff check ."\n_private = "echo"\n',
            "x/app.py": "import os\n" * 40,
        },
    )
    assert pdm["repo:recipe:lint"].content.startswith("Lint the code with `pdm run lint`")
    root = make_repo({**RUBY, "Rakefile": 'desc "Run the specs"\ntask :spec do\nend\n'})
    tasks = read_repository(root).readings.tasks
    assert any(t.text == "rake spec" and t.about == "Run the specs" for t in tasks)


def test_rails_app(make_repo: MakeRepo) -> None:
    _, found = _read(make_repo, RUBY)
    assert found["repo:stack"].content.endswith(
        "is a Ruby/Rails app (Ruby 3.3.4, Rails 7.2.1) with PostgreSQL and Sidekiq for "
        "background jobs."
    )
    assert any(r.startswith("config/database.yml:") for r in found["repo:database"].source_refs)
    assert found["repo:recipe:test"].content.startswith("Run the tests with `bundle exec rspec`")
    assert found["repo:recipe:migrate"].content.startswith(
        "Run the database migrations with `bin/rails db:migrate`"
    )
    assert "`db/migrate/`" in found["repo:layout"].content


def test_laravel_app(make_repo: MakeRepo) -> None:
    _, found = _read(make_repo, PHP)
    assert found["repo:stack"].content == "acme/shop is a PHP/Laravel app (PHP 8.3, Laravel 11.0)."
    assert found["repo:recipe:test"].content.startswith(
        "Run the tests with `composer test` (composer.json:11 runs `phpunit`)"
    )
    assert found["repo:recipe:run"].content.startswith(
        "Start the dev server with `php artisan serve`"
    )


def test_spring_boot_service(make_repo: MakeRepo) -> None:
    _, found = _read(make_repo, JAVA)
    assert found["repo:stack"].content == (
        "orders is a Java/Spring Boot app (Java 21, Spring Boot 3.3.4) with PostgreSQL."
    )
    assert found["repo:recipe:test"].content.startswith("Run the tests with `mvn test`")
    assert not any("hunter2" in c.content for c in found.values())


def test_aspnet_core_service(make_repo: MakeRepo) -> None:
    _, found = _read(make_repo, DOTNET)
    assert found["repo:stack"].content.endswith(
        "is a .NET/ASP.NET Core app (.NET 8.0) with Entity Framework Core."
    )
    # The project file sits in Api/, so its conventions are not the root's: no root recipe.
    assert "repo:recipe:test" not in found


def test_a_manifest_description_says_what_the_project_is_without_a_readme(
    make_repo: MakeRepo,
) -> None:
    files = {
        "pyproject.toml": '[project]\nname = "tally"\nversion = "1.0"\n'
        'description = "Counts words in Markdown files"\n',
        "tally/__init__.py": "def count(text):\n    return len(text.split())\n",
    }
    root, found = _read(make_repo, files)
    about = found["repo:about"]
    assert (
        about.content
        == "What this project (tally) is and does, per its pyproject.toml: Counts words in Markdown files."
    )
    assert "description" in _line(root, about.source_refs[0])
    # A README paragraph says more than the manifest's one line, and wins.
    readme = "Tally\n=====\n\nTally counts the words of every Markdown file in a tree.\n"
    root, found = _read(make_repo, {**files, "README.md": readme})
    assert found["repo:about"].content == (
        "What this project (Tally) is and does, per its README.md: Tally counts the words of every Markdown file in a tree."
    )
    assert found["repo:about"].source_refs == ("README.md:4",)


@pytest.mark.parametrize(
    ("files", "head"),
    [
        (
            {
                "justfile": "ci:\n    ./scripts/lint.sh\n    ./scripts/unit.sh\n",
                "README.md": "# x\n",
            },
            "Run the checks with `just ci` (justfile:1 runs `./scripts/lint.sh`, "
            "`./scripts/unit.sh`)",
        ),
        (
            {"Makefile": "check:\n\t./tools/fmt --check\n\t./tools/suite\n", "README.md": "# x\n"},
            "Run the checks with `make check` (Makefile:1 runs `./tools/fmt --check`, "
            "`./tools/suite`)",
        ),
    ],
)
def test_a_gate_task_is_said_as_the_checks_it_runs(
    make_repo: MakeRepo, files: dict[str, str | bytes], head: str
) -> None:
    _, found = _read(make_repo, files)

    assert found["repo:recipe:test"].content.startswith(head), found["repo:recipe:test"].content


def test_a_commands_section_gives_the_bare_commands_between_a_templates_placeholders() -> None:
    agents = (
        "# Shop Guidelines\n\n## Commands\n"
        "npm test [ONLY COMMANDS FOR ACTIVE TECHNOLOGIES][ONLY COMMANDS FOR ACTIVE TECHNOLOGIES]"
        " npm run lint\n\n## Code Style\nFollow standard conventions\n"
    )
    out = Readings()
    read_instruction_file(TextFile.of("AGENTS.md", agents), out, "instructions")
    assert [(c.text, c.purpose, c.ref) for c in out.commands] == [
        ("npm test", "test", "AGENTS.md:4"),
        ("npm run lint", "lint", "AGENTS.md:4"),
    ]


def test_bare_text_is_no_command_outside_a_commands_section_or_when_it_is_a_sentence() -> None:
    agents = (
        "# Shop\n\n## Testing\nnpm test\n\n"  # another section: its bare words are prose
        "## Development commands\n"
        "make sure the tests pass\n"  # a sentence in the section
        "Run these before pushing.\n"
        "- `cargo test` runs the suite\n"  # a code span, read as every line's is
        "```\nsrc/\n```\n"
    )
    out = Readings()
    read_instruction_file(TextFile.of("AGENTS.md", agents), out, "instructions")
    assert [c.text for c in out.commands] == ["cargo test"]


def test_a_rule_under_a_heading_that_says_when_keeps_that_condition() -> None:
    agents = (
        "# hangar\n\n## Before a release\n"
        "- Run the full browser suite: `npm run e2e` (takes 20 minutes).\n\n"
        "### Deploy checklist\n- Never deploy on Fridays.\n\n"
        "## Style\n- Always use tabs.\n"
    )
    out = Readings()
    read_instruction_file(TextFile.of("CLAUDE.md", agents), out, "instructions")
    assert [i.text for i in out.instructions] == [
        "Before a release: run the full browser suite: `npm run e2e` (takes 20 minutes).",
        "Deploy checklist: never deploy on Fridays.",
        "Always use tabs.",
    ]
    # A rule that says the condition itself is not told it twice.
    said = "# x\n\n## When adding a dependency\n- Always pin it when adding a dependency.\n"
    out = Readings()
    read_instruction_file(TextFile.of("CLAUDE.md", said), out, "instructions")
    assert [i.text for i in out.instructions] == ["Always pin it when adding a dependency."]
