"""What git ignores, as `git check-ignore -v` run at the project's root showed it: one fact per
ignore file of the repository, with the lines and patterns; nothing from un-ignore patterns,
non-matching lines, global or clone-local exclude files, failed runs, runs in another folder
or repository, or other commands' output."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.checked_ignores import checked_ignores
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import one_run, the_one

T0 = datetime(2026, 4, 1, 9, 0, tzinfo=UTC)


def test_a_rust_crates_check_becomes_a_fact_with_lines_and_patterns() -> None:
    session = one_run(
        "/home/dev/ferry",
        T0,
        "git check-ignore -v target bench/out",
        0,
        ".gitignore:1:/target\ttarget\n.gitignore:7:bench/out/\tbench/out\n",
    )

    fact = the_one(session, "ignored:checked:")

    assert fact.type == MemoryType.PROJECT_FACT
    assert fact.content == (
        "`.gitignore` ignores `target` (line 1: `/target`) and `bench/out` (line 7: "
        "`bench/out/`), as `git check-ignore -v` showed."
    )
    assert fact.file_paths == (".gitignore",)


def test_a_node_projects_compound_line_is_read_for_the_checks_own_lines() -> None:
    session = one_run(
        "/home/dev/site",
        T0,
        "git check-ignore -v dist .cache; git ls-files dist | head; date",
        0,
        ".gitignore:3:/dist/\tdist\nweb/.gitignore:2:.cache\t.cache\n"
        "2026-04-01 09:00 src/index.ts\nWed Apr  1 09:00:00 UTC 2026\n",
    )

    found = checked_ignores(session.events)

    assert [f.content for f in found] == [
        "`.gitignore` ignores `dist` (line 3: `/dist/`), as `git check-ignore -v` showed.",
        "`web/.gitignore` ignores `.cache` (line 2: `.cache`), as `git check-ignore -v` showed.",
    ]


@pytest.mark.parametrize(
    ("command", "exit_code", "output", "cwd"),
    [
        # un-ignored, not matching (-n), a global or clone-local exclude file
        ("git check-ignore -v keep", 0, ".gitignore:9:!keep/\tkeep\n", None),
        ("git check-ignore -v -n src", 1, "::\tsrc\n", None),
        ("git check-ignore -v .envrc", 0, "/home/dev/.config/git/ignore:1:.envrc\t.envrc\n", None),
        ("git check-ignore -v scratch", 0, ".git/info/exclude:7:scratch/\tscratch\n", None),
        # a failed run, another repository, a shell in a sub-folder, no -v
        ("git check-ignore -v dist", 128, ".gitignore:3:/dist/\tdist\n", None),
        ("git -C ../other check-ignore -v dist", 0, ".gitignore:3:/dist/\tdist\n", None),
        ("git check-ignore -v dist", 0, ".gitignore:3:/dist/\tdist\n", "/home/dev/site/web"),
        ("git check-ignore dist", 0, "dist\n", None),
        # another command printing a line of the same shape
        ("grep -n dist .gitignore", 0, ".gitignore:3:/dist/\tdist\n", None),
    ],
)
def test_nothing_else_says_what_git_ignores(
    command: str, exit_code: int, output: str, cwd: str | None
) -> None:
    session = one_run("/home/dev/site", T0, command, exit_code, output, cwd=cwd)

    assert checked_ignores(session.events) == []


@pytest.mark.parametrize(
    "command",
    [
        # a repository cloned inside the project: its `.gitignore` is not the root's
        "cd vendor/lib && git check-ignore -v build",
        "pushd third_party/zlib; git check-ignore -v build",
    ],
)
def test_a_check_after_moving_into_a_sub_folder_says_nothing(command: str) -> None:
    session = one_run("/home/dev/site", T0, command, 0, ".gitignore:4:/build/\tbuild\n")

    assert checked_ignores(session.events) == []


def test_a_cd_to_the_root_itself_still_reads_the_check() -> None:
    session = one_run(
        "/home/dev/site",
        T0,
        "cd /home/dev/site && git check-ignore -v build",
        0,
        ".gitignore:4:/build/\tbuild\n",
    )

    (found,) = checked_ignores(session.events)

    assert found.content.startswith("`.gitignore` ignores `build` (line 4: `/build/`)")
