"""Problems a subagent reported finding in the project's code become pitfalls; guesses, plans,
questions, advice, a dependency's code, another place and a report taken back do not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.subagent_findings import PREFIX, problem, subagent_findings
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/shop"


def _session() -> Session:
    return Session(ROOT, "s1", T0)


REPORT = (
    "## Report\n\n"
    "### 2. Retries -- findings\n"
    "The client wraps every call in `with_retry()` (src/shop/http.py).\n"
    "- **Conclusion: a timeout raised inside `with_retry()` is silently swallowed, so the "
    "caller sees an empty cart.**\n"
    "### 3. Layout\n"
    "Handlers live in `src/shop/handlers/`, one module per route.\n"
)


def _delegated(report: str) -> Session:
    session = _session()
    session.add("user_message", {"text": "Check how the client retries."}, origin="typed")
    session.add("tool_call", {"tool": "Agent", "input": {"prompt": "Explore the retries."}})
    session.add("tool_result", {"tool": "Agent", "output": report})
    return session


def test_a_labelled_problem_in_a_relayed_report_is_a_pitfall_with_its_files() -> None:
    session = _delegated(REPORT)

    found = subagent_findings(session.events)

    assert [f.content for f in found] == [
        f"{PREFIX} (src/shop/http.py): A timeout raised inside `with_retry()` is silently "
        "swallowed, so the caller sees an empty cart."
    ]
    assert found[0].files == ("src/shop/http.py",)
    assert found[0].event_ids == ("s1_0003",)


def test_the_rules_extractor_keeps_it_as_a_pitfall() -> None:
    kept = [c for c in _delegated(REPORT).extracted() if "subagent" in c.tags]

    assert [c.type for c in kept] == [MemoryType.PITFALL]
    assert kept[0].file_paths == ("src/shop/http.py",)


def test_a_background_agents_notification_and_a_handback_are_reports() -> None:
    notified = _session()
    notified.add(
        "user_message",
        {
            "text": "<task-notification>\n<status>completed</status>\n<result>Bug: the "
            "refresh token is never invalidated after logout in `auth/session.py`."
            "</result>\n</task-notification>"
        },
        origin="harness",
    )
    handed = _session()
    handed.add("user_message", {"text": "Read the auth code."}, origin="parent_agent")
    handed.add(
        "tool_call",
        {
            "tool": "SubagentHandback",
            "input": {"message": "Gap: a deleted user's sessions are not cleaned up anywhere."},
        },
        sidechain=True,
    )

    assert [f.content for f in subagent_findings(notified.events)] == [
        f"{PREFIX} (auth/session.py): The refresh token is never invalidated after logout in "
        "`auth/session.py`."
    ]
    assert [f.content for f in subagent_findings(handed.events)] == [
        f"{PREFIX}: A deleted user's sessions are not cleaned up anywhere."
    ]


def test_a_subagents_own_transcript_reports_in_its_last_reply() -> None:
    session = _session()
    session.add("user_message", {"text": "Audit the cache."}, origin="parent_agent")
    session.add(
        "assistant_response",
        {"text": "Bug: the cache key is never reset between runs in `cache/store.go`."},
        sidechain=True,
    )
    session.add(
        "assistant_response",
        {"text": "Finding: an expired entry is not removed when `cache/store.go` evicts."},
        sidechain=True,
    )

    assert [f.content for f in subagent_findings(session.events)] == [
        f"{PREFIX} (cache/store.go): An expired entry is not removed when `cache/store.go` evicts."
    ]


@pytest.mark.parametrize(
    "sentence",
    [
        "Conclusion: the timeout might be silently swallowed by `with_retry()`.",  # a guess
        "Conclusion: is the timeout silently swallowed by `with_retry()`?",  # a question
        "Next, fix the bug where `with_retry()` silently swallows the timeout.",  # a plan
        "Conclusion: the timeout is silently swallowed, so `with_retry()` should re-raise it.",
        "Conclusion: I saw that the timeout is silently swallowed in `with_retry()`.",
        "Conclusion: a timeout in node_modules/axios/lib/core.js is silently swallowed.",
        "Conclusion: the upstream client's timeout is silently swallowed in its retry loop.",
        "The retry loop is not handled by a decorator; it is a plain loop.",  # no label, weak
        "Handlers live in `src/shop/handlers/`, one module per route, all registered at start.",
        "Hypothesis: `with_retry()` silently swallows the timeout.",  # offered to check
        "To verify: the timeout is silently swallowed in `with_retry()`.",
        "If `close()` is never called on exit, `app.log` is lost.",  # a condition
        "Not a bug: the timeout is silently swallowed in `with_retry()` by design.",
        "The timeout was never propagated by `with_retry()`; it is now fixed.",  # gone
    ],
)
def test_guesses_questions_plans_advice_and_dependencies_are_not_findings(sentence: str) -> None:
    assert problem(sentence) == ""


def test_a_quoted_instruction_file_or_the_users_pasted_text_is_no_report() -> None:
    session = _session()
    pasted = "Conclusion: a timeout raised inside `with_retry()` is silently swallowed."
    session.add("user_message", {"text": pasted}, origin="typed")
    session.add("user_message", {"text": f"# CLAUDE.md\n{pasted}"}, origin="harness")
    session.add("assistant_response", {"text": pasted})

    assert subagent_findings(session.events) == []


def test_a_report_taken_back_later_is_not_kept() -> None:
    called_wrong = _delegated(REPORT)
    called_wrong.add(
        "assistant_response",
        {
            "text": "Having read http.py myself, the agent's report was wrong: the timeout is "
            "re-raised."
        },
    )
    user_says_no = _delegated(REPORT)
    user_says_no.add("user_message", {"text": "No, that's handled in the caller."}, origin="typed")

    assert subagent_findings(called_wrong.events) == []
    assert subagent_findings(user_says_no.events) == []


def test_a_subagent_that_read_another_place_reports_on_that_place() -> None:
    session = _session()
    session.add("user_message", {"text": "Look at the vendored client."}, origin="parent_agent")
    session.add(
        "tool_call",
        {"tool": "Read", "input": {"file_path": "/home/dev/other/client.py"}},
        sidechain=True,
        paths=("/home/dev/other/client.py",),
    )
    session.add(
        "assistant_response",
        {"text": "Bug: the timeout is never retried in `client.py` before it gives up."},
        sidechain=True,
    )

    assert subagent_findings(session.events) == []


@pytest.mark.parametrize(
    "path",
    ["/usr/lib/python3/http.py", "src/../../other/http.py", "../other/http.py"],
)
def test_a_path_outside_the_project_keeps_a_sentence_out(path: str) -> None:
    report = f"Bug: the timeout is silently dropped by `{path}` on a retry."

    assert subagent_findings(_delegated(report).events) == []


def test_a_sections_conclusion_restating_its_finding_leaves_room_for_the_next_section() -> None:
    report = (
        "### 3. Retries -- NOT handled\n"
        "**Critical finding: a timeout is never retried in `with_retry()`.**\n"
        "A dropped connection is not reported to the caller by `send()` in src/shop/http.py.\n"
        "**Conclusion: a timeout raised inside `with_retry()` is silently swallowed.**\n"
        "### 4. Logout\n"
        "**Conclusion: the refresh token is never invalidated after logout in `auth/session.py`.**\n"
    )

    found = [f.content for f in subagent_findings(_delegated(report).events)]

    assert len(found) == 3
    assert "timeout is never retried" in found[0]
    assert "dropped connection is not reported" in found[1]
    assert "refresh token is never invalidated" in found[2]
