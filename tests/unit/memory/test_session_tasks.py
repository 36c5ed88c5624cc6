"""The project's tasks, from the task-runner files the assistant read in a session."""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import timedelta
from pathlib import Path

import pytest

from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.facts import project_facts
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.extractors.session_tasks import MAX_LISTED, session_tasks, started_by_task
from squirrel_memory.models import MemoryType, StoredEvent
from squirrel_memory.repository.runners import NESTED_TASK_READERS
from squirrel_memory.repository.task_records import NESTED_TASK_FILES
from tests.gitrepos import git, make_repo
from tests.unit.memory.test_rules_extractor import Stream
from tests.unit.memory.test_session_about import T0, _event, _numbered, _reads

PACKAGE = """{
  "name": "blog",
  "scripts": {
    "dev": "next dev",
    "build": "next build",
    "lint": "next lint --fix",
    "postinstall": "husky install",
    "analyze": "ANALYZE=true next build"
  }
}"""
MIX = """defmodule Heron.MixProject do
  use Mix.Project

  defp aliases do
    [
      setup: ["deps.get", "ecto.setup"],
      test: ["ecto.create --quiet", "ecto.migrate --quiet", "test"]
    ]
  end
end
"""
MAKEFILE = """.PHONY: install local-up local-up-core py-test _stamp

# Install dependencies
install:
\tuv sync

local-up-core: ## Start core services (Kafka, MinIO, Postgres)
\tdocker compose up -d kafka minio postgres

local-up: _stamp
\tdocker compose --profile full up -d

py-test:
\tuv run pytest

_stamp:
\ttouch .stamp
"""


def test_every_public_makefile_target_is_listed_with_the_files_own_words() -> None:
    (found,) = session_tasks(_reads(("Makefile", _numbered(MAKEFILE))))

    assert found.key == "tasks:Makefile"
    assert found.content == (
        "Tasks `Makefile` defines: `make install` (Install dependencies); `make local-up-core` "
        "(Start core services (Kafka, MinIO, Postgres)); `make local-up` (runs `docker compose "
        "--profile full up -d`); `make py-test` (runs the tests; runs `uv run pytest`)."
    )


def test_package_scripts_read_in_a_session_are_one_recipe() -> None:
    events = _reads(("package.json", _numbered(PACKAGE)))
    lock = _event("tool_result", {"tool": "Bash", "output": ""}, ("package-lock.json",))
    (found,) = session_tasks([*events, dataclasses.replace(lock, id="evt_lock")])
    assert found.key == "tasks:package.json"
    assert found.content == (
        "Tasks `package.json` defines: `npm run dev` (starts the dev server; runs `next dev`); "
        "`npm run build` (builds the project; runs `next build`); `npm run lint` (lints "
        "the code; runs `next lint --fix`); `npm run analyze` (builds the project; runs "
        "`ANALYZE=true next build`)."
    )


def test_scripts_whose_package_manager_was_not_seen_are_said_by_name() -> None:
    (found,) = session_tasks(_reads(("package.json", _numbered(PACKAGE))))
    assert found.content == (
        "Scripts `package.json` defines, by name (which package manager runs them was not "
        "seen): the `dev` script (starts the dev server; runs `next dev`); the `build` script "
        "(builds the project; runs `next build`); the `lint` script (lints the code; runs "
        "`next lint --fix`); the `analyze` script (builds the project; runs `ANALYZE=true next "
        "build`)."
    )
    assert "npm" not in found.content


def test_the_lock_file_the_session_touched_names_the_package_manager() -> None:
    events = _reads(("package.json", _numbered(PACKAGE)))
    lock = _event("tool_result", {"tool": "Bash", "output": ""}, ("yarn.lock",))
    events.append(dataclasses.replace(lock, id="evt_lock"))
    (found,) = session_tasks(events)
    assert "`yarn dev` (starts the dev server" in found.content


def test_the_package_manager_the_commands_went_through_names_it() -> None:
    events = _reads(("package.json", _numbered(PACKAGE)))
    run = _event("command_run", {"command": "bun install", "exit_code": 0, "output": ""})
    events.append(dataclasses.replace(run, id="evt_bun"))
    (found,) = session_tasks(events)
    # bun's own `build` bundles: the script runs as `bun run build`
    assert "`bun run dev` (starts the dev server" in found.content
    assert "`bun run build`" in found.content


def test_commands_through_two_package_managers_name_neither() -> None:
    events = _reads(("package.json", _numbered(PACKAGE)))
    for n, command in enumerate(("bun install", "pnpm install")):
        run = _event("command_run", {"command": command, "exit_code": 0, "output": ""})
        events.append(dataclasses.replace(run, id=f"evt_{n}"))
    (found,) = session_tasks(events)
    assert "the `dev` script" in found.content and "npm" not in found.content


def test_mix_aliases_read_in_a_session() -> None:
    (found,) = session_tasks(_reads(("mix.exs", _numbered(MIX))))
    assert found.content.startswith(
        "Tasks `mix.exs` defines: `mix setup` (sets the project up; runs `deps.get`, `ecto.setup`)"
    )
    assert (
        "`mix test` (runs the tests; runs `ecto.create --quiet`, `ecto.migrate --quiet` first)"
        in (found.content)
    )


#: One file per ecosystem: (path, text, what the recipe must say).
MATRIX = [
    ("justfile", "# Run the linters\nlint:\n    cargo clippy\n\n_hidden:\n    echo\n", "`just lint` (Run the linters)"),
    ("Taskfile.yml", "version: '3'\ntasks:\n  seed:\n    desc: Load the demo data\n    cmds: [go run ./cmd/seed]\n", "`task seed` (Load the demo data)"),
    ("mise.toml", '[tasks.release]\ndescription = "Cut a release"\nrun = "./bin/release"\n', "`mise run release` (Cut a release)"),
    ("pixi.toml", '[project]\nname = "eon"\n\n[tasks]\nmkdocs = "mkdocs serve"\nsetup = { cmd = "meson setup bbdir" }\n', "`pixi run mkdocs` (starts the dev server; runs `mkdocs serve`); `pixi run setup`"),
    ("pyproject.toml", '[tool.pixi.tasks]\nbench = "python -m bench"\n', "`pixi run bench` (runs `python -m bench`)"),
    ("pyproject.toml", '[tool.poe.tasks]\ndocs = {cmd = "mkdocs build", help = "Build the docs"}\n', "`poe docs` (Build the docs)"),
    ("pyproject.toml", '[tool.pdm.scripts]\nserve = "flask run"\n_private = "x"\n', "`pdm run serve` (starts the dev server; runs `flask run`)"),
    ("pyproject.toml", '[tool.hatch.envs.default.scripts]\ncov = "pytest --cov"\n[tool.hatch.envs.docs.scripts]\nbuild = "mkdocs build"\n', "`hatch run cov` (runs the tests; runs `pytest --cov`); `hatch run docs:build`"),
    ("composer.json", '{"scripts": {"analyse": "phpstan analyse"}}', "`composer analyse` (type-checks the code; runs `phpstan analyse`)"),
    ("deno.json", '{"tasks": {"start": {"command": "deno run -A main.ts", "description": "Serve the site"}}}', "`deno task start` (Serve the site)"),
    ("Rakefile", 'desc "Regenerate the fixtures"\ntask :fixtures do\n  sh "bin/fixtures"\nend\n\ntask default: :spec\n', "`rake fixtures` (Regenerate the fixtures); `rake default`"),
    ("tox.ini", "[tox]\nenvlist = py312\n\n[testenv:docs]\ncommands = sphinx-build docs out\n", "runs `sphinx-build docs out`)"),
    ("noxfile.py", "import nox\n\n@nox.session\ndef tests(session):\n    session.run('pytest')\n", "`nox -s tests` (runs the tests)"),
    ("mix.exs", MIX, "`mix setup` (sets the project up; runs `deps.get`, `ecto.setup`)"),
    ("Makefile", MAKEFILE, "`make local-up-core` (Start core services"),
    ("package.json", PACKAGE, "the `analyze` script"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("path", "text", "said"), MATRIX, ids=[f"{p}-{i}" for i, (p, _, _) in enumerate(MATRIX)]
)
def test_every_ecosystems_task_file_gives_its_tasks(path: str, text: str, said: str) -> None:
    (found,) = session_tasks(_reads((path, _numbered(text))))

    assert found.key == f"tasks:{path}"
    assert said in found.content
    assert "_hidden" not in found.content and "_private" not in found.content
    assert found.content.count("`") % 2 == 0 and found.content.endswith(".")


@pytest.mark.parametrize(
    ("path", "text", "said"),
    [
        (".config/mise.toml", '[tasks.lint]\nrun = "golangci-lint run"\n', "`mise run lint`"),
        (".cargo/config.toml", '[alias]\nxtask = "run --package xtask --"\n', "`cargo xtask`"),
        ("mise/config.toml", '[tasks]\nrelease = "./bin/release"\n', "`mise run release`"),
    ],
)
def test_a_runners_own_folder_defines_the_projects_tasks(path: str, text: str, said: str) -> None:
    (found,) = session_tasks(_reads((path, _numbered(text))))

    assert found.content.startswith(f"Tasks `{path}` defines: {said}")


def test_every_runners_own_folder_file_has_its_reader() -> None:
    assert list(NESTED_TASK_READERS) == list(NESTED_TASK_FILES)


def test_a_sub_folders_tasks_are_that_folders() -> None:
    (found,) = session_tasks(_reads(("infra/Makefile", _numbered(MAKEFILE))))

    assert found.key == "tasks:infra/Makefile"
    assert found.content.startswith("Tasks `infra/Makefile` defines (run in `infra/`): ")


def test_a_re_read_replaces_what_the_file_said() -> None:
    later = PACKAGE.replace('"analyze"', '"storybook"')
    (found,) = session_tasks(
        _reads(("package.json", _numbered(PACKAGE)), ("package.json", _numbered(later)))
    )

    assert "storybook" in found.content and "analyze" not in found.content
    assert len(found.event_ids) == 2


def test_a_long_list_is_cut_and_counted() -> None:
    many = "".join(f"t{n}:\n\t./build.sh {n}\n" for n in range(MAX_LISTED + 3))
    (found,) = session_tasks(_reads(("Makefile", _numbered(many))))

    assert found.content.endswith("; and 3 more.")


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("node_modules/left-pad/package.json", PACKAGE),  # a dependency's scripts
        ("/home/dev/other/Makefile", MAKEFILE),  # another project's file
        (".venv/lib/Makefile", MAKEFILE),  # a hidden folder's
        ("a/b/c/d/Makefile", MAKEFILE),  # too deep to be one of the project's folders
        ("package.json", '{"scripts": {"dev": "next dev"'),  # a partial read
        ("package.json", '{"scripts": {"prepare": "husky", "_x": "y"}}'),  # lifecycle, private
        ("package.json", '{"scripts": {"test": "echo \\"Error: no test specified\\" && exit 1"}}'),
        ("package.json", '{"name": "x"}'),
        ("Makefile", ".PHONY: all\nCC := gcc\n"),
        ("Makefile", ""),
        (".pre-commit-config.yaml", "repos: []\n"),  # hooks, not tasks
    ],
)
def test_no_recipe_without_public_tasks_of_the_project(path: str, text: str) -> None:
    assert session_tasks(_reads((path, _numbered(text)))) == []


def test_a_failed_read_says_nothing() -> None:
    assert session_tasks(_reads(("Makefile", _numbered(MAKEFILE)), is_error=True)) == []


def _episode_candidates(events: list[StoredEvent]) -> dict[str, MemoryType]:
    (episode,) = segment_episodes(events, now=T0 + timedelta(days=1))
    found = asyncio.run(RulesExtractor().extract(episode, events))
    return {c.key: c.type for c in found}


def test_the_rules_extractor_keeps_it_as_a_recipe_without_a_repository() -> None:
    found = _episode_candidates(_reads(("package.json", _numbered(PACKAGE))))
    assert found["tasks:package.json"] is MemoryType.RECIPE


def test_a_read_repository_gives_its_own_task_recipes(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "repo")
    (root / "index.js").write_text("console.log('hi')\n" * 40)
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "code")
    events = [
        dataclasses.replace(e, project_id=str(root))
        for e in _reads(("package.json", _numbered(PACKAGE)))
    ]
    assert "tasks:package.json" not in _episode_candidates(events)


MISE_LONG = '''[tasks.dev]
description = "Start the dev server"
run = """
#!/usr/bin/env bash
set -euo pipefail

bin/setup
bin/dev
"""

[tasks.release]
description = "Tag and push a release"
run = """
#!/usr/bin/env bash

git tag "$version"
git push origin "$version"
"""
'''


def _cut(text: str, keep: int) -> str:
    """A Read's output as ingest stores it when it was longer than its limit."""
    output = _numbered(text)
    return f"{output[:keep]}\n…[truncated {len(output) - keep} chars]"


def test_a_task_file_cut_at_ingest_gives_the_tables_before_the_cut() -> None:
    keep = _numbered(MISE_LONG).index("git tag")  # inside the last task's multi-line script
    (found,) = session_tasks(_reads(("mise.toml", _cut(MISE_LONG, keep))))
    assert found.content == "Tasks `mise.toml` defines: `mise run dev` (Start the dev server)."


def test_a_task_file_cut_inside_its_only_table_says_nothing() -> None:
    keep = _numbered(MISE_LONG).index("bin/dev")
    assert session_tasks(_reads(("mise.toml", _cut(MISE_LONG, keep)))) == []


def test_a_makefile_cut_at_ingest_keeps_the_targets_before_its_last_blank_line() -> None:
    keep = _numbered(MAKEFILE).index("uv run pytest")
    (found,) = session_tasks(_reads(("Makefile", _cut(MAKEFILE, keep))))
    assert "`make local-up`" in found.content
    assert "py-test" not in found.content


MISE_DEV = (
    '[tasks.dev]\ndescription = "Create the DB if needed, then start the dev server"\n'
    'run = """\n#!/usr/bin/env bash\nset -euo pipefail\nbin/rails server\nbin/dev\n"""\n\n'
    '[tasks.test]\nrun = "bin/rails test"\n'
)


@pytest.mark.parametrize(
    ("path", "text", "framework", "task"),
    [
        ("mise.toml", MISE_DEV, "Rails", "mise run dev"),
        (
            "package.json",
            '{"scripts": {"dev": "next dev --turbo", "test": "vitest"}}',
            "Next.js",
            "dev",  # no package manager seen: the script by its name
        ),
        ("Makefile", "run:\n\tpython manage.py runserver\n", "Django", "make run"),
    ],
)
def test_the_task_that_starts_the_app_names_its_framework(
    path: str, text: str, framework: str, task: str
) -> None:
    found = started_by_task(_reads((path, _numbered(text))))
    assert found is not None
    assert found.started is not None
    assert found.started[:2] == (framework, task)


@pytest.mark.parametrize(
    ("path", "text"),
    [
        # A sub-folder's task file holds there, not for the project.
        ("web/mise.toml", MISE_DEV),
        # A task that tests or builds, and a step that only prints the framework's name.
        ("mise.toml", '[tasks.test]\nrun = "bin/rails test"\n'),
        ("mise.toml", '[tasks.dev]\nrun = "echo next steps && docker compose up"\n'),
        # A dependency's task file.
        ("node_modules/x/package.json", '{"scripts": {"dev": "next dev"}}'),
    ],
)
def test_no_framework_from_other_tasks_or_files(path: str, text: str) -> None:
    assert started_by_task(_reads((path, _numbered(text)))) is None


def test_the_framework_fact_quotes_the_task_and_its_step() -> None:
    facts = {
        f.key: f
        for f in project_facts(_reads(("mise.toml", _numbered(MISE_DEV))), [], repository=False)
    }
    assert facts["framework"].content == (
        "Built with Rails: `mise run dev` (mise.toml) starts it with `bin/rails server`."
    )


# --- task files a command printed ------------------------------------------------------------

MISE_GREP_OUTPUT = """== release tasks ==
41:[tasks.fmt]
42-description = "Format every crate"
43-run = "cargo fmt --all"
44-
45:[tasks."release:crate"]
46-description = "Bump the version and publish the crate (see scripts/release.sh)"
47-run = "./scripts/release.sh"
48-
49:[tasks.docs]
50-description = "Build the docs"
== script ==
#!/bin/bash
set -euo pipefail"""
TASKFILE = """version: '3'

tasks:
  migrate:
    desc: Apply the database migrations
    cmds:
      - go run ./cmd/migrate up
"""


def _ran(command: str, output: str, exit_code: int = 0) -> list[StoredEvent]:
    stream = Stream()
    stream.user("how do we cut a release here?")
    stream.add(
        "command_run",
        {"command": command, "output": output, "exit_code": exit_code, "is_error": exit_code != 0},
    )
    return stream.events


def test_a_task_files_lines_a_numbered_grep_printed_are_its_tasks() -> None:
    events = _ran(
        "echo '== release tasks ==' && grep -n -A8 '^\\[tasks' mise.toml | head -30 "
        "&& echo '== script ==' && sed -n '1,2p' scripts/release.sh",
        MISE_GREP_OUTPUT,
    )

    (found,) = session_tasks(events)

    # the last table the context may have cut (`docs`) is left out; the echoed lines are not
    # the file's
    assert found.key == "tasks:mise.toml"
    assert found.content == (
        "Tasks `mise.toml` defines: `mise run fmt` (Format every crate); `mise run release:crate` "
        "(Bump the version and publish the crate (see scripts/release.sh))."
    )


def test_a_task_file_a_lone_reader_printed_is_read_whole() -> None:
    (found,) = session_tasks(_ran("cat Taskfile.yml", TASKFILE))

    assert (
        found.content
        == "Tasks `Taskfile.yml` defines: `task migrate` (Apply the database migrations)."
    )


@pytest.mark.parametrize(
    ("command", "output", "exit_code"),
    [
        # without `-n` nothing tells the file's lines from the rest
        ("grep -A8 tasks mise.toml", '[tasks.fmt]\nrun = "cargo fmt --all"\n', 0),
        # two files: each line is prefixed with its file's name
        ("grep -n -A3 tasks mise.toml Makefile", "mise.toml:41:[tasks.fmt]\n", 0),
        # a failed command printed nothing of the file
        ("grep -n -A8 tasks mise.toml", '41:[tasks.fmt]\n42-run = "cargo fmt"\n43-\n', 2),
        # a dependency's task file is not the project's
        ("cat node_modules/pkg/Taskfile.yml", TASKFILE, 0),
        # two readers' output mixed together tells no file's text
        ("cat Taskfile.yml && cat Makefile", TASKFILE, 0),
    ],
)
def test_no_tasks_from_output_that_is_not_one_project_task_files_text(
    command: str, output: str, exit_code: int
) -> None:
    assert session_tasks(_ran(command, output, exit_code)) == []


@pytest.mark.parametrize(
    ("path", "text", "said"),
    [
        # A step that prepares the database comes first: the fact names what the task runs.
        (
            "mise.toml",
            '[tasks.dev]\nrun = """\nbin/rails db:prepare\nbin/dev\n"""\n',
            "Built with Rails: `mise run dev` (mise.toml) runs `bin/rails db:prepare`.",
        ),
        # The step that starts the app wins over a preparing one, in another ecosystem.
        (
            "mise.toml",
            '[tasks.dev]\nrun = """\npython manage.py migrate\npython manage.py runserver\n"""\n',
            "starts it with `python manage.py runserver`.",
        ),
    ],
)
def test_a_step_that_only_prepares_the_app_is_not_said_to_start_it(
    path: str, text: str, said: str
) -> None:
    facts = {f.key: f for f in project_facts(_reads((path, _numbered(text))), [], repository=False)}
    assert facts["framework"].content.endswith(said)


def test_a_sub_folders_build_builds_that_folder_not_the_project() -> None:
    (found,) = session_tasks(_reads(("site/package.json", _numbered(PACKAGE))))

    assert "the `build` script (builds `site/`; runs `next build`)" in found.content
    assert "builds the project" not in found.content
    (root,) = session_tasks(_reads(("package.json", _numbered(PACKAGE))))
    assert "the `build` script (builds the project; runs `next build`)" in root.content


CUT_PACKAGE = """{
  "name": "trailhead",
  "scripts": {
    "check": "bun run lint && bun run test",
    "lint": "eslint .",
    "test": "vitest run"
  },
  "devDependencies": {
    "eslint": "^9.6.0","""


def _shell(command: str, output: str, exit_code: int = 0) -> StoredEvent:
    run = _event(
        "command_run",
        {"command": command, "exit_code": exit_code, "is_error": exit_code != 0, "output": output},
    )
    return dataclasses.replace(run, id=f"evt_run{abs(hash(command)) % 10_000}")


def test_a_manifest_printed_after_a_listing_and_cut_short_gives_its_scripts() -> None:
    listing = "README.md\nbun.lock\npackage.json\nsrc\n"
    events = [_shell("ls && cat package.json | head -40", listing + CUT_PACKAGE)]

    (found,) = session_tasks(events)

    assert found.content == (
        "Tasks `package.json` defines: `bun run check` (runs the checks; runs `bun run lint && "
        "bun run test`); `bun run lint` (lints the code; runs `eslint .`); `bun run test` (runs "
        "the tests; runs `vitest run`)."
    )


def test_a_read_of_a_manifests_first_lines_gives_the_scripts_it_shows_whole() -> None:
    (read,) = [
        e for e in _reads(("package.json", _numbered(CUT_PACKAGE))) if e.content.get("output")
    ]
    partial = dataclasses.replace(read, content={**read.content, "partial": True, "lines": [1, 10]})

    (found,) = session_tasks([_shell("ls", "pnpm-lock.yaml\npackage.json\n"), partial])

    assert "`pnpm test` (runs the tests; runs `vitest run`)" in found.content
    cut_in_scripts = CUT_PACKAGE.split('    "test"', maxsplit=1)[0]
    (read,) = [
        e for e in _reads(("package.json", _numbered(cut_in_scripts))) if e.content.get("output")
    ]
    partial = dataclasses.replace(read, content={**read.content, "partial": True, "lines": [1, 5]})
    (found,) = session_tasks([partial])  # the scripts go on past the cut
    assert found.content == (
        "Tasks `package.json` defines: `bun run check` (runs the checks; runs `bun run lint && "
        "bun run test`); `bun run lint` (lints the code; runs `eslint .`); and more past the "
        "lines the session read."
    )


def test_a_lock_file_a_listing_showed_names_the_package_manager() -> None:
    events = [
        _shell("ls -a", ".\n..\nsrc\nyarn.lock\n"),
        *_reads(("package.json", _numbered(PACKAGE))),
    ]

    (found,) = session_tasks(events)

    assert "`yarn dev` (starts the dev server" in found.content and "npm" not in found.content


def test_the_scripts_bodies_name_the_package_manager() -> None:
    package = '{"scripts": {"check": "npm run lint && npm test", "lint": "eslint ."}}'

    (found,) = session_tasks(_reads(("package.json", _numbered(package))))

    assert found.content.startswith(
        "Tasks `package.json` defines: `npm run check` (runs the checks"
    )


def test_a_task_the_session_ran_is_left_to_its_run() -> None:
    events = [
        _shell("ls", "bun.lock\npackage.json\n"),
        *_reads(("package.json", _numbered(CUT_PACKAGE.rstrip(",") + "\n  }\n}\n"))),
        _shell("bun run check", "$ eslint .\n$ vitest run\n 4 passed"),
        _shell("bun test src/a.test.ts", "1 pass"),  # bun's own runner, not the `test` script
    ]

    (found,) = session_tasks(events)

    assert "bun run check" not in found.content
    assert "`bun run lint`" in found.content and "`bun run test`" in found.content


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("Makefile", 'all:\n\tcc -o app app.c\n\ntest:\n\t@echo "no tests yet"\n'),
        ("package.json", '{"scripts": {"lint": "echo \'no linter yet\'"}}'),
    ],
)
def test_a_task_that_only_prints_is_left_out(path: str, text: str) -> None:
    found = session_tasks(_reads((path, _numbered(text))))

    assert not any("no tests yet" in f.content or "no linter" in f.content for f in found)


@pytest.mark.parametrize(
    "path", ["examples/basic/package.json", "docs/package.json", "test/fixtures/app/Makefile"]
)
def test_an_examples_docs_or_fixtures_task_file_is_not_the_projects(path: str) -> None:
    text = MAKEFILE if path.endswith("Makefile") else PACKAGE
    assert session_tasks(_reads((path, _numbered(text)))) == []


def test_a_long_list_of_steps_is_not_said_beside_its_task() -> None:
    steps = " && ".join(f"./scripts/step{n}.sh --with-a-long-flag" for n in range(4))
    makefile = f"build:\n\t{steps.replace(' && ', chr(10) + chr(9))}\n\nlint:\n\truff check .\n"

    (found,) = session_tasks(_reads(("Makefile", _numbered(makefile))))

    assert "step0" not in found.content
    assert "`make lint` (lints the code; runs `ruff check .`)" in found.content


def test_a_task_file_piped_into_head_is_cut_and_into_another_program_says_nothing() -> None:
    (found,) = session_tasks([_shell("cat package.json | head -40", CUT_PACKAGE)])
    assert "`bun run lint` (lints the code; runs `eslint .`)" in found.content
    assert (
        session_tasks([_shell("cat Makefile | grep -A1 test", "py-test:\n\tuv run pytest\n")]) == []
    )
