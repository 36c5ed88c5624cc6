"""A file search that answered nothing although a later step of the turn found the file."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.missed_searches import glob_regex, looks_only, missed_searches
from squirrel_memory.models import StoredEvent
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/site"


def _session(*steps: tuple[str, dict[str, object]]) -> list[StoredEvent]:
    session = Session(ROOT, "s", T0)
    for kind, content in steps:
        session.add(kind, dict(content), origin="typed" if kind == "user_message" else "")
    return session.events


def _search(
    use: str, pattern: str, answer: str, **more: object
) -> list[tuple[str, dict[str, object]]]:
    given = {"pattern": pattern, **more}
    return [
        ("tool_call", {"tool": "Glob", "tool_use_id": use, "input": given}),
        ("tool_result", {"tool": "Glob", "tool_use_id": use, "output": answer, "is_error": False}),
    ]


def _ran(command: str, output: str, code: int = 0) -> tuple[str, dict[str, object]]:
    return ("command_run", {"command": command, "exit_code": code, "output": output})


def test_a_search_that_found_nothing_before_a_command_found_the_file_is_a_pitfall() -> None:
    events = _session(
        ("user_message", {"text": "Fix the typos on the billing page."}),
        *_search("t1", "**/billing.md", "No files found"),
        *_search("t2", "**/console/**/*.md", "No files found"),
        _ran('find . -name "*.md" -path "*/console/*"', "./docs/console/billing.md"),
    )

    found = missed_searches(events)

    assert [f.content for f in found] == [
        "A file search of `Glob` answered `No files found` for `**/billing.md` and "
        '`**/console/**/*.md` although `docs/console/billing.md` exists; `find . -name "*.md" '
        '-path "*/console/*"` found it.'
    ]
    assert found[0].key == "pitfall:missed_search:glob"
    assert found[0].event_ids == ("s_0003", "s_0005", "s_0006")


def test_an_absolute_path_inside_the_project_counts() -> None:
    events = _session(
        *_search("t1", "src/**/*.proto", ""),
        _ran("ls -d $PWD/src/api/v1/*", f"{ROOT}/src/api/v1/orders.proto"),
    )

    assert [f.key for f in missed_searches(events)] == ["pitfall:missed_search:glob"]


@pytest.mark.parametrize(
    "steps",
    [
        # the search found something
        [
            *_search("t1", "**/billing.md", "/home/dev/site/docs/billing.md"),
            _ran("ls", "docs/billing.md"),
        ],
        # a search pointed at a folder of its own
        [
            *_search("t1", "**/billing.md", "No files found", path="/elsewhere"),
            _ran("ls", "docs/billing.md"),
        ],
        # a text search's pattern, not a file pattern
        [*_search("t1", "def fetch stock", "No matches found"), _ran("ls", "docs/fetch/stock.md")],
        # what was found later does not match the pattern
        [*_search("t1", "**/billing.md", "No files found"), _ran("ls docs", "docs/pricing.md")],
        # the command that printed it failed
        [*_search("t1", "**/billing.md", "No files found"), _ran("ls", "docs/billing.md", 2)],
        # the user spoke between the search and the find: another turn
        [
            *_search("t1", "**/billing.md", "No files found"),
            ("user_message", {"text": "I added it now, try again."}),
            _ran("ls docs", "docs/billing.md"),
        ],
        # a file written between the search and the listing: it may be new
        [
            *_search("t1", "**/billing.md", "No files found"),
            ("code_change", {"tool": "Write", "path": "docs/billing.md"}),
            _ran("ls docs", "docs/billing.md"),
        ],
        # a command that may have written it, before or as part of the listing
        [
            *_search("t1", "**/billing.md", "No files found"),
            _ran("touch docs/billing.md", ""),
            _ran("ls docs", "docs/billing.md"),
        ],
        [
            *_search("t1", "**/billing.md", "No files found"),
            _ran("git checkout docs && ls docs", "docs/billing.md"),
        ],
        [
            *_search("t1", "**/billing.md", "No files found"),
            _ran("find . -name billing.md > found.txt; cat found.txt", "docs/billing.md"),
        ],
        # a path outside the project
        [*_search("t1", "**/billing.md", "No files found"), _ran("ls /tmp", "/tmp/x/billing.md")],
    ],
)
def test_no_pitfall_when_the_search_found_it_looked_elsewhere_or_nothing_matches(
    steps: list[tuple[str, dict[str, object]]],
) -> None:
    assert missed_searches(_session(*steps)) == []


@pytest.mark.parametrize(
    ("command", "looks"),
    [
        ('find . -name "*.md" | grep -i billing', True),
        ("git ls-files docs && ls -la docs", True),
        ("npm install && ls node_modules", False),
        ("git pull; ls", False),
        ("ls > listing.txt", False),
    ],
)
def test_a_command_that_only_looks(command: str, looks: bool) -> None:
    assert looks_only(command) is looks


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("**/billing.md", "billing.md", True),
        ("**/billing.md", "a/b/billing.md", True),
        ("**/console/**/*.md", "sources/platform/console/billing.md", True),
        ("src/*.{ts,tsx}", "src/app.tsx", True),
        ("*.md", "docs/readme.md", True),
        ("src/*.ts", "src/a/b.ts", False),
        ("**/billing.md", "billing.mdx", False),
    ],
)
def test_a_file_pattern_reads_as_the_search_tools_read_it(
    pattern: str, path: str, matches: bool
) -> None:
    assert bool(glob_regex(pattern).match(path)) is matches
