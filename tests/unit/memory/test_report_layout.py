"""A subagent's report: the key files it lists become project facts, told apart from plans,
findings about bugs, guesses, reports of changes and paths it never read or listed."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from pathlib import Path

import pytest

from squirrel_memory.extractors.report_layout import report_layout
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import Episode, MemoryType, StoredEvent
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/shop"
FILES = {
    "cmd/server/main.go": "package main\n\nfunc main() { serve() }\n",
    "internal/api/router.go": "package api\n\nfunc Routes() {}\n",
    "internal/api/handlers.go": "package api\n\nfunc Health() {}\n",
}
KEY_FILES = """I have read the server code.

## Key files

- `cmd/server/main.go` — entry point, starts the HTTP server
- `internal/api/router.go` - route registration
- **`internal/api/handlers.go`**: HTTP handlers for the health and order endpoints
"""


def _subagent(session: Session, agent: str = "a1") -> list[StoredEvent]:
    """The session's events as a subagent's transcript (its prompt is the parent agent's)."""
    return [dataclasses.replace(e, sidechain=True, agent_id=agent) for e in session.events]


def _explored(report: str, *, prompt: str = "Find where the HTTP routes live.") -> Session:
    """A subagent that read the server's files and then reported `report`."""
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": prompt}, origin="parent_agent")
    for path, text in FILES.items():
        session.read(path, text)
    session.say(report)
    return session


def _said(events: list[StoredEvent]) -> list[str]:
    return [found.content for found in report_layout(events)]


def test_key_files_of_a_subagents_report_become_facts_about_where_things_are() -> None:
    said = _said(_subagent(_explored(KEY_FILES)))

    assert said == [
        "`cmd/server/main.go`: entry point, starts the HTTP server.",
        "`internal/api/router.go`: route registration.",
        "`internal/api/handlers.go`: HTTP handlers for the health and order endpoints.",
    ]


def test_a_fact_carries_the_path_the_report_and_the_reads_of_the_file() -> None:
    events = _subagent(_explored(KEY_FILES))

    first = report_layout(events)[0]

    assert first.key == "where:cmd/server/main.go:start_http_server"
    assert first.path == "cmd/server/main.go"
    assert first.event_ids[0] == events[-1].id  # the report
    assert set(first.event_ids[1:]) <= {e.id for e in events if e.file_paths}


def test_a_table_of_files_and_a_labelled_item_are_read_as_the_layout() -> None:
    report = (
        "| File | Purpose |\n|---|---|\n"
        "| `internal/api/router.go` | Route registration with the standard mux |\n\n"
        "### Project structure\n\n"
        "1. **Server**: `cmd/server/main.go` — reads flags and starts listening\n"
    )

    said = _said(_subagent(_explored(report)))

    assert said == [
        "`internal/api/router.go`: route registration with the standard mux.",
        "`cmd/server/main.go` (Server): reads flags and starts listening.",
    ]


def test_a_path_in_a_tables_second_column_and_an_absolute_path_with_its_lines() -> None:
    report = (
        "## File locations\n\n| Component | File |\n|---|---|\n"
        "| Order endpoints | `internal/api/handlers.go` |\n\n"
        "## Relevant files\n\n"
        f"- `{ROOT}/internal/api/router.go:12` - route registration with the mux (lines 10-40)\n"
    )

    said = _said(_subagent(_explored(report)))

    assert said == [
        "`internal/api/handlers.go`: Order endpoints.",
        "`internal/api/router.go`: route registration with the mux.",
    ]


def test_a_path_the_subagent_only_listed_counts_as_seen() -> None:
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": "List the packages."}, origin="parent_agent")
    session.add("tool_call", {"tool": "Glob", "tool_use_id": "g1", "input": {"pattern": "**/*"}})
    listing = f"{ROOT}/internal/store/orders.go\n{ROOT}/internal/store/db.go"
    session.add(
        "tool_result", {"tool": "Glob", "tool_use_id": "g1", "output": listing, "is_error": False}
    )
    session.say("## Layout\n\n- `internal/store/` — database access for orders\n")

    found = report_layout(_subagent(session))

    assert [f.content for f in found] == ["`internal/store/`: database access for orders."]
    assert found[0].event_ids[1] == session.events[2].id  # the listing


def test_only_a_listing_or_a_search_lists_paths_not_any_line_of_any_output() -> None:
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": "Find the billing code."}, origin="parent_agent")
    # A build's output names a path that is not there: a line's first word, not a listing.
    session.run("make invoices", 0, "internal/billing/invoice.go: skipped, no such file\n")
    session.run("ls internal/store", 0, "orders.go\ninternal/store/db.go\n")
    session.say(
        "## Key files\n\n- `internal/billing/invoice.go` — invoice rendering\n"
        "- `internal/store/db.go` — database connection pool\n"
    )

    found = report_layout(_subagent(session))

    assert [f.content for f in found] == ["`internal/store/db.go`: database connection pool."]


@pytest.mark.parametrize(
    ("heading", "item"),
    [
        # a plan: the files to change, or the structure proposed
        ("## Files to modify", "- `internal/api/router.go` — register the orders route"),
        ("## Recommended structure", "- `internal/api/router.go` — route registration"),
        ("## Changes made", "- `internal/api/router.go` — route registration"),
        # a layout to come, stated as files and roles all the same
        ("## Target structure", "- `internal/api/router.go` — route registration"),
        ("## Module layout after the refactor", "- `internal/api/router.go` — route registration"),
        ("## Where the routes would live", "- `internal/api/router.go` — route registration"),
        # a finding about a bug
        ("## Issues found", "- `internal/api/router.go` — route registration"),
        ("## Key files", "- `internal/api/router.go` — missing the health route"),
        ("## Key files", "- `internal/api/router.go` — never registers `/orders`"),
        # a guess, a recommendation, a question, the session's own change
        ("## Key files", "- `internal/api/router.go` — probably the route registration"),
        ("## Key files", "- `internal/api/router.go` — should hold the route registration"),
        ("## Key files", "- `internal/api/router.go` — route registration?"),
        ("## Key files", "- `internal/api/router.go` — added the orders route"),
        # a heading that is not about where things are, or inside a plan
        ("## Summary", "- `internal/api/router.go` — route registration"),
        ("# Implementation plan\n\n### Files", "- `internal/api/router.go` — route registration"),
        (
            "**Implementation steps**\n\n### Files",
            "- `internal/api/router.go` — route registration",
        ),
        ("## Overview\n\n**Changes made**\n\n### Files", "- `internal/api/router.go` — routes"),
        # a path outside the project, or one never read or listed
        ("## Key files", "- `/home/dev/other/router.go` — route registration"),
        ("## Key files", "- `internal/billing/invoice.go` — invoice rendering"),
        # nothing more than the file's own name
        ("## Key files", "- `internal/api/handlers.go` — handlers"),
    ],
)
def test_what_is_not_a_statement_of_the_layout_is_left_out(heading: str, item: str) -> None:
    assert _said(_subagent(_explored(f"{heading}\n\n{item}\n"))) == []


def test_only_a_subagents_replies_after_its_last_read_are_its_report() -> None:
    main = _explored(KEY_FILES).events
    early = _explored(KEY_FILES)
    early.read("internal/api/router.go", FILES["internal/api/router.go"])

    assert _said(main) == []
    assert _said(_subagent(early)) == []


def test_a_subagent_that_read_another_repository_reports_on_that_one() -> None:
    session = _explored("")
    session.events.pop()  # its report comes after the read elsewhere
    session.add("tool_call", {"tool": "Read", "tool_use_id": "x", "input": {}}, ("/srv/lib/a.go",))
    session.say(KEY_FILES)

    assert _said(_subagent(session)) == []


def _extract(events: list[StoredEvent]) -> list[tuple[MemoryType, str]]:
    episode = Episode(
        id="ep1",
        project_id=ROOT,
        user_id="dev",
        session_id="s1",
        start_ts=events[0].timestamp,
        end_ts=events[-1].timestamp,
        event_count=len(events),
        summary="",
        importance=0.5,
        created_at=T0,
        event_ids=tuple(e.id for e in events),
    )
    return [(c.type, c.content) for c in RulesExtractor().extract_sync(episode, events)]


def test_a_lone_subagents_report_reaches_the_rules_extractors_facts() -> None:
    found = _extract(_subagent(_explored(KEY_FILES)))

    assert (MemoryType.PROJECT_FACT, "`internal/api/router.go`: route registration.") in found


def test_a_parent_agents_orders_to_a_subagent_are_never_the_users_style(tmp_path: Path) -> None:
    prompt = (
        "You must always use tabs for indentation and never commit. Always prefer table-driven "
        "tests. Find where the HTTP routes live."
    )

    alone = _extract(_subagent(_explored("Routes are in the router.", prompt=prompt)))
    session = _explored("Routes are in the router.", prompt=prompt)
    session.events[0] = dataclasses.replace(session.events[0], origin="typed")
    typed = _extract(session.events)

    assert not [text for kind, text in alone if kind == MemoryType.USER_STYLE]
    assert [text for kind, text in typed if kind == MemoryType.USER_STYLE]  # the user's would be


def test_a_subagents_one_test_run_is_a_recipe_and_its_diagnosed_failure_a_pitfall() -> None:
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": "Fix the failing api tests."}, origin="parent_agent")
    session.run(
        "go test ./internal/api/...",
        1,
        "--- FAIL: TestRouter (0.00s)\n    router_test.go:12: expected 200, got 404\nFAIL",
    )
    session.read("internal/api/router.go", FILES["internal/api/router.go"])
    session.say("The test fails because `Routes` never registers `/health`, so the router 404s.")
    session.edit_lines(
        "internal/api/router.go", "func Routes() {}", 'func Routes() { mux.Handle("/health", h) }'
    )
    session.run("go test ./...", 0, "ok  \texample.com/shop/internal/api\t0.010s")

    found = _extract(_subagent(session))

    assert (MemoryType.RECIPE, "To run the tests: `go test ./...`.") in found
    pitfalls = [text for kind, text in found if kind == MemoryType.PITFALL]
    assert any("never registers `/health`" in text for text in pitfalls)
