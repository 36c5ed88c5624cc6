"""How a part of the project works, as the assistant stated it under a bold label of a summary."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.file_reads import shell_read_paths
from squirrel_memory.extractors.labelled_points import labelled_points
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/ledger"

SEARCH = """\
I've read the search code. Findings:

1. **Ledger search:** it is in `src/search/`.
   - **Fetching:** when the dialog opens, it runs one query per account type \
(`queryByType` in `src/search/query.ts`) and indexes the results.
   - **Preview:** a split pane renders the selected entry.
2. **Account tags:** each account type has a tag. Tagged entries are found by the \
translator in `translators.ts`, which matches entries that reference the tag page.
"""


def _looked_around(*, sidechain: bool = False) -> Session:
    """A session that listed the search folder and printed two of its files."""
    session = Session(ROOT, "s1", T0)
    session.add(
        "command_run",
        {
            "command": "grep -rl query src",
            "exit_code": 0,
            "output": "src/search/query.ts\nsrc/search/translators.ts\n",
        },
        sidechain=sidechain,
    )
    session.add(
        "command_run",
        {"command": "sed -n 1,40p src/search/query.ts", "exit_code": 0, "output": "export"},
        sidechain=sidechain,
    )
    return session


def test_a_labelled_point_naming_a_listed_path_is_kept_with_its_label() -> None:
    session = _looked_around()
    session.say(SEARCH)
    found = {p.path: p.content for p in labelled_points(session.events)}
    assert found["src/search/query.ts"] == (
        "Ledger search (fetching): when the dialog opens, it runs one query per account type "
        "(`queryByType` in `src/search/query.ts`) and indexes the results."
    )
    # A bare file name counts when the session listed one file of that name.
    assert found["src/search/translators.ts"].startswith(
        "Account tags: Tagged entries are found by the translator in `src/search/translators.ts`"
    )
    assert found["src/search"] == "Ledger search: it is in `src/search/`."
    assert len(found) == 3  # "Preview" names no path


def test_a_subagents_handed_back_report_counts() -> None:
    session = _looked_around(sidechain=True)
    session.add(
        "tool_call",
        {"tool": "SubagentHandback", "input": {"message": SEARCH}},
        sidechain=True,
    )
    assert {p.path for p in labelled_points(session.events)} == {
        "src/search",
        "src/search/query.ts",
        "src/search/translators.ts",
    }


def test_the_point_becomes_a_project_fact() -> None:
    session = _looked_around()
    session.say(SEARCH)
    facts = [
        c
        for c in session.extracted()
        if c.type == MemoryType.PROJECT_FACT and "(fetching)" in c.content
    ]
    assert len(facts) == 1
    assert facts[0].file_paths == ("src/search/query.ts",)


@pytest.mark.parametrize(
    "item",
    [
        # a plan
        "- **Ledger search:** I'll look at `src/search/query.ts` next.",
        "- **Ledger search:** it will run one query per type in `src/search/query.ts`.",
        # a question
        "- **Ledger search:** does it run one query per type in `src/search/query.ts`?",
        # a guess
        "- **Ledger search:** it probably runs one query per type in `src/search/query.ts`.",
        "- **Ledger search:** it might run one query per type in `src/search/query.ts`.",
        # a path never seen in the session
        "- **Ledger search:** it runs one query per type in `src/search/other.ts`.",
        # a report of the session's own work, and a past-tense label
        "- **Ledger search:** added one query per type in `src/search/query.ts`.",
        "- **Switched the search:** it runs one query per type in `src/search/query.ts`.",
        # a problem, not the layout
        "- **Ledger search:** the bug is that it runs one query in `src/search/query.ts`.",
        "- **Ledger search:** `src/search/query.ts` is not called.",
        # a label that names no part, with no labelled item above it
        "- **Summary:** it runs one query per type in `src/search/query.ts`.",
        "- **Fetching:** it runs one query per type in `src/search/query.ts`.",
        # a label that denies: that day's state, no part's name
        "- **Nothing is committed.** `src/search/query.ts` is untracked, so it is local.",
        "- **No search tests yet:** it runs one query per type in `src/search/query.ts`.",
        # a code span as the label: a list of changed files
        "- **`src/search/query.ts`**: it runs one query per type in `src/search/query.ts`.",
    ],
)
def test_no_point_is_kept_from(item: str) -> None:
    session = _looked_around()
    session.say(f"Here is what I found:\n\n{item}\n")
    assert labelled_points(session.events) == []


def test_a_point_of_a_dependencys_folder_is_not_the_projects() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("ls node_modules/pkg", output="node_modules/pkg/index.js\n")
    session.say("- **Package loader:** it reads every entry in `node_modules/pkg/index.js`.\n")
    assert labelled_points(session.events) == []


@pytest.mark.parametrize(
    ("command", "exit_code", "named"),
    [
        ("sed -n 89,130p src/a.ts", 0, ["src/a.ts"]),
        ("cat README.md && head -20 lib/b.py", 0, ["README.md", "lib/b.py"]),
        ("cat src/a.ts", 1, []),  # it failed: nothing was shown
        ("rm src/a.ts", 0, []),  # not a reader
    ],
)
def test_files_a_command_printed_by_name(command: str, exit_code: int, named: list[str]) -> None:
    session = Session(ROOT, "s1", T0)
    session.run(command, exit_code=exit_code, output="text", call=False)
    assert shell_read_paths(session.events[-1]) == named


def test_a_labelled_path_alone_is_kept_when_the_session_listed_it() -> None:
    session = _looked_around()
    session.say(
        "Here is the layout:\n\n- **Account lookup:** `src/search/query.ts`\n"
        "- **Search translators:** `src/search/translators.ts` — one per account type\n"
    )
    assert [p.content for p in labelled_points(session.events)] == [
        "Account lookup: `src/search/query.ts`.",
        "Search translators: `src/search/translators.ts` — one per account type.",
    ]


@pytest.mark.parametrize(
    "item",
    [
        "- **Entry point:** `src/search/query.ts`",  # nothing more than any file could be
        "- **Search query:** `src/search/query.ts`",  # the path's own words
        "- **Latest commit:** `src`",  # not path-like: a commit, a symbol, a word
        "- **Account lookup:** `src/search/query.ts` — probably the lookup",  # a guess
    ],
)
def test_a_labelled_path_that_says_nothing_is_not_kept(item: str) -> None:
    session = _looked_around()
    session.say(f"Here is the layout:\n\n{item}\n")
    assert labelled_points(session.events) == []


def test_a_labelled_path_the_session_changed_reports_the_work() -> None:
    session = _looked_around()
    session.edit(f"{ROOT}/src/search/query.ts", "export const q = 1")
    session.say("Done.\n\n- **Account lookup:** `src/search/query.ts`\n")
    assert labelled_points(session.events) == []


@pytest.mark.parametrize("heading", ["## Files changed", "**Proposed layout:**", "### Issues"])
def test_items_under_a_heading_of_changes_plans_or_trouble_are_not_kept(heading: str) -> None:
    session = _looked_around()
    session.say(f"{heading}\n\n- **Search query:** it runs one query in `src/search/query.ts`.\n")
    assert labelled_points(session.events) == []


def test_a_label_that_only_says_a_path_follows_names_no_part() -> None:
    session = _looked_around()
    session.say("- **Document path (relative):** `src/search/translators.ts`\n")
    assert labelled_points(session.events) == []


def test_a_label_written_as_a_sentence_loses_its_full_stop() -> None:
    session = _looked_around()
    session.say("- **Search is fragile.** It runs one query per type in `src/search/query.ts`.\n")
    assert [p.content for p in labelled_points(session.events)] == [
        "Search is fragile: it runs one query per type in `src/search/query.ts`."
    ]
