"""The project's language from the commands `make` and `just` printed as they ran the project's
tasks, when the session shows nothing else: every ecosystem alike, and where it must not be
said."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.unit.memory.session_builder import Session
from tests.unit.memory.test_touched_languages import ROOT, T0, _extract, _said

PREFIX = "Commands the project's build configuration runs are "

#: (ecosystem, task, its echoed output, the statement)
TASKS = [
    (
        "go",
        "make all",
        "mkdir -p dist\ngo build -ldflags=\"-X 'main.v=1'\" -o dist/app .\n"
        "go build -o bin/tally ./cmd/tally\n✅ built\n",
        "Go's: `go build -o bin/tally ./cmd/tally` (printed by `make all`).",
    ),
    (
        "rust",
        "make release",
        "cargo build --release\n   Compiling tally v0.1.0\n    Finished release\n",
        "Rust's: `cargo build --release` (printed by `make release`).",
    ),
    (
        "elixir",
        "just check",
        "mix format --check-formatted\nmix test\n12 tests, 0 failures\n",
        "Elixir's: `mix test` (printed by `just check`).",
    ),
    (
        "python",
        "make test",
        "pytest -q tests\r\n....\r\n4 passed in 0.1s\r\n",
        "Python's: `pytest -q tests` (printed by `make test`).",
    ),
]


def _session(task: str, output: str, *, exit_code: int = 0, cwd: str | None = None) -> Session:
    session = Session(ROOT, "s1", T0 + timedelta(days=1))
    session.user(f"{task} please")
    session.run(task, exit_code, output, cwd=cwd)
    session.say("Done.")
    return session


@pytest.mark.parametrize(("eco", "task", "output", "said"), TASKS, ids=[t[0] for t in TASKS])
async def test_the_one_language_a_task_s_echoed_commands_run_is_said(
    eco: str, task: str, output: str, said: str
) -> None:
    assert _said(await _extract(_session(task, output)), "language") == [PREFIX + said]


@pytest.mark.parametrize(
    ("task", "output"),
    [
        # Two languages' tools: nothing decides.
        ("make all", "cargo build --release\ngo build -o dist/app .\n"),
        # Only tools of no one language, or Node's (JavaScript or TypeScript).
        ("make up", "docker compose up -d\nnpm ci\nnpx tsc -p .\n"),
        # A command only mentioned inside a line is no echoed command.
        ("make help", "Run `go build .` to build; see README.\nusage: make [all|run]\n"),
        # A line that works in another folder builds something else.
        ("make deps", "cd ../vendor-tool && cargo build\n"),
        # Not a task runner that echoes its recipes.
        ("./build.sh", "go build -o dist/app .\n"),
    ],
)
async def test_nothing_is_said_without_one_language_s_echoed_commands(
    task: str, output: str
) -> None:
    assert _said(await _extract(_session(task, output)), "language") == []


async def test_a_failed_task_or_one_run_in_another_folder_says_nothing() -> None:
    failed = _session("make all", "go build -o dist/app .\nmain.go:3: syntax error\n", exit_code=2)
    elsewhere = _session("make all", "go build -o dist/app .\n", cwd="/home/dev/other")
    moved = _session("cd tools && make", "go build -o ../dist/gen .\n")

    for session in (failed, elsewhere, moved):
        assert _said(await _extract(session), "language") == []


async def test_a_code_file_of_another_language_touched_is_a_conflict() -> None:
    session = _session("make all", "go build -o dist/app .\n")
    session.read("lib/ledger.rb", "class Ledger\nend\n")
    session.read("lib/entry.rb", "class Entry\nend\n")

    said = _said(await _extract(session), "language")

    assert not any(PREFIX in text for text in said)
