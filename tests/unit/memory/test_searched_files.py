"""The project's language from the files a search or listing command printed: every ecosystem
alike, weaker than files touched or listed by git, with what must not be stated."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.activity import CommandRun
from squirrel_memory.extractors.elsewhere import ran_elsewhere
from squirrel_memory.extractors.searched_files import searched_paths
from squirrel_memory.extractors.touched_languages import (
    LISTED_PREFIX,
    SEARCHED_PREFIX,
    merged_statement,
)
from tests.unit.memory.session_builder import Session
from tests.unit.memory.test_touched_languages import ECOS, IDS, ROOT, Eco, _extract, _said, _session

AT = datetime(2026, 6, 1, tzinfo=UTC)


def _searched(command: str, output: str, ok: bool | None = True, cwd: str | None = None) -> list:
    run = CommandRun("e1", AT, command, ok, output, cwd=cwd)
    return [path for path, _ in searched_paths([run], ROOT)]


@pytest.mark.parametrize(
    "command",
    [
        "grep -rl 'post' src",
        "grep -rli post src | head -30",
        "grep -r --files-with-matches post src",
        "grep -rn post src --include=*.ts -l",
        "rg -l post",
        "rg --files src",
        "ag -l post src",
        "find src -name '*.ts'",
        "fd -e ts . src",
        f"cd {ROOT}; grep -rl post src; echo ---; git show --stat HEAD",
        f"cd {ROOT} && find . -name '*.ts'",
        "grep -rlE 'post|get' src | sort | uniq",  # a quoted `|` is no pipe
        "find src -name '*.ts' | grep -v test",
    ],
)
def test_a_search_that_prints_file_names_gives_its_paths(command: str) -> None:
    output = "src/a.ts\n./src/b.ts\n---\nsrc/c.ts:12: const post = 1\n Error: nothing\n"

    assert _searched(command, output) == ["src/a.ts", "src/b.ts"]


def test_paths_printed_after_a_cd_into_a_sub_folder_start_from_it() -> None:
    assert _searched("cd web && grep -rl post src", "src/a.ts\n") == ["web/src/a.ts"]
    assert _searched("grep -rl post src", "src/a.ts\n", cwd=f"{ROOT}/web") == ["web/src/a.ts"]


@pytest.mark.parametrize(
    ("command", "ok"),
    [
        ("grep -rn post src", True),  # matches, not file names
        ("grep -rl post src", False),  # failed
        ("find src -name '*.ts' -exec wc -l {} +", True),  # prints counts
        ("cat notes.txt", True),  # a file's text, whatever lines it holds
        ("grep -rl post src && cat src/a.ts", True),  # prints something else too
        ("cd /home/dev/other && grep -rl post src", True),  # another repository
        ("cd $REPO && grep -rl post src", True),  # a folder that cannot be told
        ("git -C ../other grep -l post", True),
        ("find src -name '*.md' | xargs cat", True),  # the files' text, not their names
        ("grep -rl post src | sed 's/^/x-/'", True),  # names rewritten
        ("grep -rl post src | grep -c ts", True),  # a count
    ],
)
def test_a_line_that_prints_more_than_names_or_works_elsewhere_gives_none(
    command: str, ok: bool
) -> None:
    assert _searched(command, "src/a.ts\nsrc/b.ts\n", ok=ok) == []


def test_absolute_home_and_parent_paths_are_left_out() -> None:
    output = "/usr/lib/x.ts\n~/x.ts\n../other/x.ts\nsrc/a.ts\n"

    assert _searched("grep -rl post .", output) == ["src/a.ts"]


def test_a_cd_to_the_project_root_is_not_work_elsewhere() -> None:
    assert not ran_elsewhere(f"cd {ROOT}; grep -rl post src", ROOT)
    assert not ran_elsewhere(f"cd {ROOT}/web && ls", ROOT)
    assert ran_elsewhere("cd /home/dev/other; grep -rl post src", ROOT)


@pytest.mark.parametrize("eco", ECOS, ids=IDS)
async def test_files_a_search_listed_name_the_language_when_nothing_else_does(eco: Eco) -> None:
    session = _session()
    session.run("grep -rl post .", 0, f"{eco.first}\n{eco.second}\nREADME.md\n")

    assert _said(await _extract(session), "language") == [
        f"{SEARCHED_PREFIX}{eco.language} (2 files: `{eco.first}`, `{eco.second}`)."
    ]


@pytest.mark.parametrize("eco", ECOS[:4], ids=IDS[:4])
@pytest.mark.parametrize("folder", ["vendor", "node_modules", "docs", ".github", "build"])
async def test_searched_vendored_generated_and_docs_code_names_no_language(
    eco: Eco, folder: str
) -> None:
    session = _session()
    session.run("find . -type f", 0, f"{folder}/{eco.first}\n{folder}/{eco.second}\n")

    assert _said(await _extract(session), "language") == []


async def test_one_searched_file_names_no_language() -> None:
    session = _session()
    session.run("grep -rl post .", 0, "src/a.ts\nREADME.md\n")

    assert _said(await _extract(session), "language") == []


async def test_files_git_listed_outweigh_files_a_search_printed() -> None:
    session = _session()
    session.run("git ls-files", 0, "ledger/books.py\nledger/post.py\n")
    session.run("grep -rl post .", 0, "src/a.ts\nsrc/b.ts\nsrc/c.ts\n")

    assert _said(await _extract(session), "language") == [
        f"{LISTED_PREFIX}Python (2 files: `ledger/books.py`, `ledger/post.py`)."
    ]


def test_a_searched_statement_merges_with_another_session_s() -> None:
    older = f"{SEARCHED_PREFIX}TypeScript (3 files)."
    newer = f"{SEARCHED_PREFIX}TypeScript (2 files: `src/a.ts`, `src/z.ts`)."

    assert merged_statement(older, newer) == f"{SEARCHED_PREFIX}TypeScript (3 files)."


def _tool_result(session: object, tool: str, output: str, paths: tuple[str, ...] = ()) -> None:
    assert isinstance(session, Session)
    session.add("tool_result", {"tool": tool, "tool_use_id": "g1", "output": output}, paths)


@pytest.mark.parametrize("eco", ECOS, ids=IDS)
async def test_files_a_search_tool_listed_name_the_language(eco: Eco) -> None:
    session = _session()
    listed = f"Found 3 files\n{ROOT}/{eco.first}\n{ROOT}/{eco.second}\n{ROOT}/README.md\n"
    _tool_result(session, "Grep", listed)

    assert _said(await _extract(session), "language") == [
        f"{SEARCHED_PREFIX}{eco.language} (2 files: `{eco.first}`, `{eco.second}`)."
    ]


@pytest.mark.parametrize(
    ("output", "paths"),
    [
        # Matched lines of text, not file names.
        (f"{ROOT}/src/a.ts:3: const post = 1\n{ROOT}/src/b.ts:9: post()\n", ()),
        # Files of another repository, or a search pointed at another folder.
        ("/home/dev/other/src/a.ts\n/home/dev/other/src/b.ts\n", ()),
        ("src/a.ts\nsrc/b.ts\n", ("/home/dev/other",)),
    ],
)
async def test_a_search_tool_s_matches_or_another_folder_s_files_name_no_language(
    output: str, paths: tuple[str, ...]
) -> None:
    session = _session()
    _tool_result(session, "Glob", output, paths)

    assert _said(await _extract(session), "language") == []
