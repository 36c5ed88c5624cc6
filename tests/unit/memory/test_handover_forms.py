"""How the user hands work over, when it takes one form in several sessions: an approved plan, a
tracker issue's link, a checklist, quoted review comments, a document to implement; the traps:
one session, a link given for context once, a heading-less message, quoted text with no
review, a document named without anything to implement."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from squirrel_memory.extractors.handover_forms import PREFIX, handover_forms, message_forms
from squirrel_memory.models import Episode, MemoryType, StoredEvent
from squirrel_memory.project_work import UserWork, handover_candidates
from squirrel_memory.promotion import RECURRING_TAG, recurring_importance
from tests.unit.memory.session_builder import Session

START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)

PLAN = (
    "Implement the following plan:\n\n# Plan: {title}\n\n## Context\nWhy it is needed.\n\n"
    "## Change\n- one edit\n\n## Verification\n- run the tests\n"
)


def _sessions(*said: str, origin: str = "typed") -> list[StoredEvent]:
    """One session per message, a day apart, each answered by the assistant."""
    events: list[StoredEvent] = []
    for n, message in enumerate(said):
        session = Session("/work/app", f"s{n}", START + timedelta(days=n))
        session.add("user_message", {"text": message}, origin=origin)
        session.say("Done.")
        events.extend(session.events)
    return events


def test_a_plan_approved_in_three_sessions_is_how_work_is_handed_over() -> None:
    events = _sessions(
        PLAN.format(title="Credit notes"),
        PLAN.format(title="Late fees"),
        PLAN.format(title="Retries"),
        origin="harness",
    )
    (found,) = handover_forms(events)
    assert (found.form, found.sessions) == ("plan", 3)
    assert "an approved plan to carry out, with sections Context, Change, Verification" in (
        found.content
    )
    assert "Implement the following plan:" in found.content
    (memory,) = handover_candidates([found])
    assert memory.type is MemoryType.USER_STYLE and memory.key == PREFIX + "plan"
    assert RECURRING_TAG in memory.tags
    assert memory.importance == recurring_importance(3)


def test_a_typed_plan_with_sections_in_another_language_counts() -> None:
    plan = "Setze folgenden Plan um:\n\n# Plan: {t}\n\n## Kontext\nx\n\n## Änderung\ny\n"
    (found,) = handover_forms(_sessions(plan.format(t="Import"), plan.format(t="Prüfung")))
    assert found.form == "plan" and "a written plan" in found.content
    assert "Kontext, Änderung" in found.content


def test_a_plan_in_one_session_is_that_task_only() -> None:
    events = _sessions(PLAN.format(title="Request ids"), "Quiet the health check.", "Bump httpx.")
    assert handover_forms(events) == []


def test_issue_links_opening_two_sessions_are_a_habit_a_link_once_is_not() -> None:
    events = _sessions(
        "Pick up https://github.com/acme/ledger/issues/41, read the thread first.",
        "Next: https://gitlab.com/acme/ledger/-/issues/57",
    )
    (found,) = handover_forms(events)
    assert found.form == "issue" and "/-/issues/57" in found.content
    once = _sessions("See https://github.com/acme/ui/issues/9 for context.", "Dark mode.")
    assert handover_forms(once) == []


def test_checklists_reviews_and_documents_in_two_sessions() -> None:
    events = _sessions(
        "- [ ] sort the table\n- [ ] empty state\nReview comments:\n> views.py L4: use a join",
        "- [ ] rename the hook\n- [x] drop dayjs\nAddress the review:\n> api.py L9: 404",
    )
    found = {f.form: f for f in handover_forms(events)}
    assert set(found) == {"checklist", "review"}
    assert "“Address the review:”" in found["checklist"].content  # the user's own line
    specs = _sessions(
        "The spec is in docs/specs/0007-rate-limit.md. Implement it as written.",
        "docs/specs/0008-resume.md is next; implement what it says.",
    )
    (found,) = handover_forms(specs)
    assert found.form == "document" and "`docs/specs/0008-resume.md`" in found.content


def test_forms_that_are_not_a_hand_over() -> None:
    assert message_forms("## Notes\n## Todo\nsome text") == {}  # sections, no plan
    assert message_forms("- [ ] one item only") == {}
    assert message_forms("Our CONTRIBUTING says:\n> Always run make lint.") == {}
    assert message_forms("Is docs/setup.md up to date?") == {}
    assert message_forms("Look at https://github.com/acme/ledger/blob/main/go.mod") == {}


def test_a_form_in_two_messages_of_one_session_is_no_habit() -> None:
    session = Session("/work/app", "s0", START)
    for n in (41, 42):
        session.add(
            "user_message", {"text": f"Take https://github.com/a/b/issues/{n}"}, origin="typed"
        )
        session.say("Done.")
    assert handover_forms(session.events) == []


def test_a_failing_test_pasted_to_make_pass_in_two_sessions() -> None:
    events = _sessions(
        "Make this pass:\n\n```python\ndef test_split_shift():\n    assert rows() == 2\n```",
        "New failing test, make it pass:\n```go\nfunc TestWeekStart(t *testing.T) {}\n```",
    )
    (found,) = handover_forms(events)
    assert found.form == "test" and "failing test to make pass" in found.content


def test_a_test_pasted_without_asking_it_to_pass_or_a_pass_without_a_test_is_no_form() -> None:
    assert message_forms("Why does this fail?\n```python\ndef test_x():\n    pass\n```") == {}
    assert message_forms("Make the build pass:\n```\nerror: unused import\n```") == {}


def test_a_pass_over_sessions_of_approved_plans_alone_reads_the_users_requests() -> None:
    events = _sessions(PLAN.format(title="Credit notes"), origin="harness")
    latest = Episode("ep1", "/work/app", "dev", "s0", START, START, len(events), "", 0.5, START)
    assert UserWork.asked_by(events, latest).requests
    said = _sessions(
        "Caveat: the messages below were generated by local commands", origin="harness"
    )
    assert not UserWork.asked_by(said, latest).requests
