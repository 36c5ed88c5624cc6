"""A launcher's result in the parent session relays its subagent's report: when that subagent
looked at another place, or its brief sent it there, the result speaks of that place too and
is flagged with the replies that do; a report on the project itself is not."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.elsewhere import replies_elsewhere
from squirrel_memory.extractors.subagent_findings import subagent_findings
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
FINDING = "Bug: the timeout is silently dropped by `with_retry()` before a retry."

# (project root, a file inside it, a file of another repository): one per ecosystem.
ECOSYSTEMS = [
    ("/home/dev/shop", "src/shop/http.py", "/home/dev/other/client.py"),
    ("/srv/work/engine", "crates/net/src/retry.rs", "/srv/work/upstream/src/retry.rs"),
    ("/Users/ana/app", "lib/net/retry.ex", "/Users/ana/deps-fork/lib/retry.ex"),
]


def _launch(
    session: Session, brief: str, read: str, *, agent: str, tool: str = "Agent", use: str = "t1"
) -> str:
    """A launcher call with `brief`, its subagent (`agent`) reading `read` and reporting, and
    the launcher's result in the parent; returns the result's id."""
    session.add("tool_call", {"tool": tool, "input": {"prompt": brief}, "tool_use_id": use})
    first = len(session.events)
    session.add("user_message", {"text": brief}, origin="parent_agent", sidechain=True)
    session.add(
        "tool_result",
        {"tool": "Read", "output": "def with_retry(): ..."},
        paths=(read,),
        sidechain=True,
    )
    session.add("assistant_response", {"text": FINDING}, sidechain=True)
    session.events[first:] = [replace(e, agent_id=agent) for e in session.events[first:]]
    return session.add("tool_result", {"tool": tool, "output": FINDING, "tool_use_id": use})


def _asked(root: str) -> Session:
    session = Session(root, "s1", T0)
    session.add("user_message", {"text": "How does the retry work?"}, origin="typed")
    return session


@pytest.mark.parametrize(("root", "inside", "outside"), ECOSYSTEMS)
@pytest.mark.parametrize("tool", ["Agent", "Task"])
def test_a_launchers_result_relaying_a_report_on_another_repository_is_flagged(
    root: str, inside: str, outside: str, tool: str
) -> None:
    session = _asked(root)
    result = _launch(session, "Read the retry code.", outside, agent="a-away", tool=tool)

    assert result in replies_elsewhere(session.events)
    assert subagent_findings(session.events) == []


@pytest.mark.parametrize(("root", "inside", "outside"), ECOSYSTEMS)
def test_a_brief_sending_the_subagent_elsewhere_flags_the_result_without_its_records(
    root: str, inside: str, outside: str
) -> None:
    session = _asked(root)
    session.add("tool_call", {"tool": "Agent", "input": {"prompt": f"Read `{outside}`."}})
    result = session.add("tool_result", {"tool": "Agent", "output": FINDING})

    assert result in replies_elsewhere(session.events)


@pytest.mark.parametrize(("root", "inside", "outside"), ECOSYSTEMS)
def test_a_launchers_result_on_the_project_itself_is_not_flagged(
    root: str, inside: str, outside: str
) -> None:
    """Must not fire: the subagent read only the project, its brief names a project path."""
    session = _asked(root)
    result = _launch(session, f"Read `{root}/docs/../{inside}`.", f"{root}/{inside}", agent="a")

    assert result not in replies_elsewhere(session.events)
    assert len(subagent_findings(session.events)) == 1


def test_beside_a_subagent_that_looked_elsewhere_the_one_on_the_project_keeps_its_result() -> None:
    """Must not fire: two subagents in one turn; only the result whose brief went away."""
    session = _asked("/home/dev/shop")
    away = _launch(session, "Read the vendored retry.", "/home/dev/other/c.py", agent="a1")
    home = _launch(session, "Read our retry.", "/home/dev/shop/src/http.py", agent="a2", use="t2")

    flagged = replies_elsewhere(session.events)

    assert away in flagged
    assert home not in flagged
