"""What each package of a workspace runs for a task, read from a task runner's prefixed output:
each command scoped to the packages that run it (a docs site's tool is not the project's), the
same whatever the packages' languages; nothing from one package's own echo, a file read, a
message, or a script that only calls the runner again."""

from __future__ import annotations

from datetime import UTC, datetime

from squirrel_memory.extractors.package_scripts import package_scripts
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 2, 9, 0, tzinfo=UTC)
TURBO = (
    "$ turbo run deploy\n• turbo 2.8.9\n• Running deploy in 4 packages\n"
    "@acme/core:build: cache miss, executing 3a0d\n"
    "@acme/core:build: $ tsc -p tsconfig.json\n"
    "\x1b[2m@acme/docs:build:\x1b[0m $ astro build\n"
    "@acme/cli:build: $ tsc -p tsconfig.json\n"
    "@acme/docs:deploy: $ wrangler pages deploy dist --project-name=acme-docs\n"
    "@acme/docs:deploy: ✨ Deployment complete!\n"
)


def _contents(output: str, command: str = "bun run deploy") -> list[str]:
    session = Session("/home/dev/acme", "s1", T0)
    session.run(command, 0, output)
    return [found.content for found in package_scripts(session.events)]


def test_each_task_names_its_commands_scoped_to_their_packages() -> None:
    assert _contents(TURBO) == [
        "What the workspace's `build` task runs, package by package (as the task runner printed "
        "it): `astro build` in `@acme/docs`; `tsc -p tsconfig.json` in `@acme/core` and "
        "`@acme/cli`.",
        "What the workspace's `deploy` task runs, package by package (as the task runner printed "
        "it): `wrangler pages deploy dist --project-name=acme-docs` in `@acme/docs`.",
    ]


def test_packages_in_other_languages_and_a_recursive_run() -> None:
    polyglot = (
        "api:build: $ go build ./...\nengine:build: $ cargo build --release\n"
        "web:build: $ vite build\n"
    )
    assert _contents(polyglot, "turbo run build") == [
        "What the workspace's `build` task runs, package by package (as the task runner printed "
        "it): `cargo build --release` in `engine`; `go build ./...` in `api`; `vite build` in "
        "`web`."
    ]
    recursive = "Scope: 2 of 3 workspace projects\npackages/web test$ vitest run\n" + (
        "packages/api test$ pytest -q\n"
    )
    assert _contents(recursive, "pnpm -r test") == [
        "What the workspace's `test` task runs, package by package (as the task runner printed "
        "it): `pytest -q` in `packages/api`; `vitest run` in `packages/web`."
    ]


def test_one_packages_echo_a_nested_runner_and_other_texts_say_nothing() -> None:
    # One package's own echo: no workspace.
    assert _contents("web:build: $ vite build\nweb:build: built in 2s\n") == []
    # A script that only calls the runner again says nothing of what the task does.
    assert _contents("app:ci: $ turbo run lint test\nlib:ci: $ nx run-many -t test\n") == []
    # The same lines in a file read or in a message are no run's output.
    session = Session("/home/dev/acme", "s1", T0)
    session.read("docs/ci.log", TURBO)
    session.user(TURBO)
    session.say(TURBO)
    assert package_scripts(session.events) == []
