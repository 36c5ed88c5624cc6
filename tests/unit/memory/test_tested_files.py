"""The project's language from the files a test runner printed as it ran them: every runner's
shape alike, weaker than files touched, and nothing from a line that is not one file's."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.activity import CommandRun
from squirrel_memory.extractors.tested_files import runner_printed_paths
from squirrel_memory.extractors.touched_languages import (
    PREFIX,
    TESTED_PREFIX,
    merged_statement,
)
from tests.unit.memory.test_touched_languages import ROOT, _extract, _said, _session

AT = datetime(2026, 6, 1, tzinfo=UTC)


def _tested(command: str, output: str, ok: bool | None = True, cwd: str | None = None) -> list:
    run = CommandRun("e1", AT, command, ok, output, cwd=cwd)
    return [path for path, _ in runner_printed_paths([run], ROOT)]


#: (runner, command, what it printed, the language of the files, the files).
RUNNERS = [
    (
        "vitest",
        "pnpm check && pnpm test",
        "$ vitest run\n\n RUN  v3.2.7 /home/dev/ledger\n\n ✓ src/books.test.ts (4 tests) 55ms\n"
        " ✓ src/post.test.ts (25 tests) 12ms\n\n Test Files  2 passed (2)\n",
        "TypeScript",
        ("src/books.test.ts", "src/post.test.ts"),
    ),
    (
        "jest",
        "npm test",
        "PASS src/books.test.js\nFAIL src/post.test.js\n  ● post › rounds\n",
        "JavaScript",
        ("src/books.test.js", "src/post.test.js"),
    ),
    (
        "pytest",
        "uv run pytest -q",
        "tests/test_books.py ..F.   [ 40%]\ntests/test_post.py ......  [100%]\n",
        "Python",
        ("tests/test_books.py", "tests/test_post.py"),
    ),
    (
        "pytest-verbose",
        "pytest -v",
        "tests/test_books.py::test_sum PASSED [ 50%]\ntests/test_post.py::test_round FAILED\n",
        "Python",
        ("tests/test_books.py", "tests/test_post.py"),
    ),
    (
        "cargo",
        "cargo test",
        "   Compiling ledger v0.1.0\n     Running unittests src/lib.rs (target/debug/deps/ledger-1a)"
        "\n     Running tests/post.rs (target/debug/deps/post-2b)\ntest result: ok.\n",
        "Rust",
        ("src/lib.rs", "tests/post.rs"),
    ),
    (
        "rspec",
        "bundle exec rspec",
        "Failed examples:\n\nrspec ./spec/books_spec.rb:12 # Books sums\n"
        "rspec ./spec/post_spec.rb:40 # Post rounds\n",
        "Ruby",
        ("spec/books_spec.rb", "spec/post_spec.rb"),
    ),
]
RUNNER_IDS = [r[0] for r in RUNNERS]


@pytest.mark.parametrize(
    ("runner", "command", "output", "language", "files"), RUNNERS, ids=RUNNER_IDS
)
def test_a_runner_s_file_lines_give_their_paths(
    runner: str, command: str, output: str, language: str, files: tuple[str, ...]
) -> None:
    assert _tested(command, output) == list(files), runner
    assert _tested(command, output, ok=False) == list(files)  # a failing run ran them too


@pytest.mark.parametrize(
    ("runner", "command", "output", "language", "files"), RUNNERS, ids=RUNNER_IDS
)
async def test_files_a_test_run_printed_name_the_language_when_nothing_else_does(
    runner: str, command: str, output: str, language: str, files: tuple[str, ...]
) -> None:
    session = _session()
    session.run(command, 0, output)

    named = ", ".join(f"`{f}`" for f in files)
    assert _said(await _extract(session), "language") == [
        f"{TESTED_PREFIX}{language} (2 files: {named})."
    ], runner


@pytest.mark.parametrize(
    "output",
    [
        # Go, Dart, PHPUnit, Swift and R print packages, counts or names of tests, not files.
        "ok  \tgithub.com/dev/ledger/books\t0.01s\nok  \tgithub.com/dev/ledger/post\t0.02s\n",
        "00:01 +3: All tests passed!\n",
        "PHPUnit 11.0\n\n...                                    3 / 3 (100%)\n\nOK (3 tests)\n",
        "Test Suite 'All tests' passed.\nExecuted 4 tests, with 0 failures\n",
        "[ FAIL 0 | WARN 0 | SKIP 0 | PASS 12 ]\n",
        # A build's marks, a message, a matched line, paths outside the project.
        "✓ built in 3.2s\n✓ 312 modules transformed.\n",
        "PASS all checks\nFAIL see the log\n",
        "src/books.ts:12:3 - error TS2322\nsrc/post.ts:9:1 - error TS2304\n",
        " ✓ /home/dev/other/src/a.test.ts (2 tests)\n ✓ ../other/src/b.test.ts (1 test)\n",
    ],
)
def test_lines_that_name_no_file_a_runner_ran_give_none(output: str) -> None:
    assert _tested("make test", output) == []


@pytest.mark.parametrize(
    ("command", "cwd"),
    [
        ("cd web && npm test", None),  # the paths start from `web/`, which the line hides
        ("cd /home/dev/other && npm test", None),  # another repository
        ("npm test", "/home/dev/other"),
        ("npm test", f"{ROOT}/web"),
    ],
)
def test_a_run_outside_the_project_root_gives_none(command: str, cwd: str | None) -> None:
    output = " ✓ src/books.test.ts (4 tests)\n ✓ src/post.test.ts (2 tests)\n"

    assert _tested(command, output, cwd=cwd) == []


async def test_one_tested_file_names_no_language() -> None:
    session = _session()
    session.run("npx vitest run", 0, " ✓ src/books.test.ts (4 tests) 55ms\n")

    assert _said(await _extract(session), "language") == []


async def test_files_touched_outweigh_files_a_test_run_printed() -> None:
    session = _session()
    session.edit("ledger/books.py")
    session.edit("ledger/post.py")
    session.run("npx vitest run", 0, " ✓ web/a.test.ts (1 test)\n ✓ web/b.test.ts (1 test)\n")

    assert _said(await _extract(session), "language") == [
        f"{PREFIX}Python (2 files: `ledger/books.py`, `ledger/post.py`)."
    ]


async def test_two_languages_a_test_run_printed_alike_are_both_named() -> None:
    session = _session()
    output = (
        "tests/test_books.py ..\ntests/test_post.py ..\n"
        "     Running tests/books.rs (target/debug/deps/books-1)\n"
        "     Running tests/post.rs (target/debug/deps/post-2)\n"
    )
    session.run("make test", 0, output)

    assert _said(await _extract(session), "language") == [
        f"{TESTED_PREFIX}Python (2 files: `tests/test_books.py`, `tests/test_post.py`) and "
        "Rust (2 files: `tests/books.rs`, `tests/post.rs`)."
    ]


async def test_a_package_json_with_tested_typescript_is_a_typescript_project() -> None:
    session = _session()
    session.read("package.json", '{\n  "name": "ledger"\n}\n')
    session.run("pnpm test", 0, " ✓ src/books.test.ts (4 tests)\n ✓ src/post.test.ts (2 tests)\n")

    assert _said(await _extract(session), "language") == ["TypeScript project (package.json)."]


def test_a_touched_statement_of_another_session_replaces_a_tested_one() -> None:
    tested = f"{TESTED_PREFIX}TypeScript (11 files)."
    touched = f"{PREFIX}TypeScript (2 files: `src/a.ts`, `src/b.ts`)."

    assert merged_statement(tested, touched) == touched
    assert merged_statement(touched, tested) == touched
    assert merged_statement(tested, f"{TESTED_PREFIX}TypeScript (3 files).") == tested
