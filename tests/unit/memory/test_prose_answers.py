"""Design decisions from a plain yes or no to the one question the assistant asked in prose:
every kind of project alike, with the go-aheads, approvals and qualified answers that must say
nothing."""

from __future__ import annotations

from dataclasses import replace

import pytest

from squirrel_memory.extractors.prose_answers import prose_answers
from squirrel_memory.models import MemoryType
from tests.unit.memory.test_rules_extractor import Stream, extract


def _asked(reply: str, answer: str) -> Stream:
    stream = Stream()
    stream.user("Plan the export feature.")
    stream.run("find src -type f | head -30", 0, "src/export.rs\nsrc/books.rs\n")
    stream.say(reply)
    stream.user(answer)
    stream.say("That settles it. Writing the plan now.")
    return stream


@pytest.mark.parametrize(
    ("reply", "answer", "said"),
    [
        (
            "Good. I can see the full picture. Currently zero combat exists.\n\nOne question"
            " before I can write the plan:\n\n**Should the LLM system connect to combat at all?**"
            " For example — should the cop say something via dialogue, or is combat purely"
            " code-driven (no LLM involved)?",
            "great idea, yes",
            '"Should the LLM system connect to combat at all?" → yes ("great idea, yes")',
        ),
        (
            "I read the handlers. Should archived invoices still be returned by the export API?",
            "no",
            '"Should archived invoices still be returned by the export API?" → no ("no")',
        ),
        (
            "The migration is ready. Must the old `amount` column stay until the next release?",
            "yes please",
            '"Must the old `amount` column stay until the next release?" → yes ("yes please")',
        ),
    ],
    ids=["game", "api", "migration"],
)
async def test_a_plain_answer_to_one_design_question_is_a_decision(
    reply: str, answer: str, said: str
) -> None:
    stream = _asked(reply, answer)

    (found,) = [c for c in await extract(stream) if c.key.startswith("decision:")]

    assert found.type == MemoryType.USER_STYLE
    assert found.content == f"The user decided, answering the assistant: {said}."


@pytest.mark.parametrize(
    ("reply", "answer"),
    [
        # the assistant's next step or an approval: a go-ahead, not a decision
        ("The fix is in. Should I run the tests and commit?", "yes"),
        ("Want me to open a pull request for the export?", "yes"),
        ("Do you want me to continue with the next task?", "sure"),
        ("Here is the diff. Does this look right to you?", "yes"),
        ("Is that the behaviour you expected from the export?", "yes"),
        # a fact asked, not a choice
        ("Is the export service running on port 3000 right now?", "yes"),
        ("Does the export read the invoices from the replica?", "yes"),
        # two questions: a yes cannot tell which
        (
            "Should the export include draft invoices? Should the export include archived ones?",
            "yes",
        ),
        # a qualified, questioning or long answer
        ("Should the export include draft invoices?", "yes but only for admins"),
        ("Should the export include draft invoices?", "yes?"),
        ("Should the export include draft invoices?", "hmm, why would it need drafts at all?"),
        (
            "Should the export include draft invoices?",
            "yes, and also add a column for the currency and the tax rate",
        ),
        # too short to be about anything
        ("Should it?", "yes"),
    ],
)
def test_go_aheads_approvals_and_unclear_answers_decide_nothing(reply: str, answer: str) -> None:
    assert prose_answers(_asked(reply, answer).events) == []


def test_an_answer_the_user_takes_back_decides_nothing() -> None:
    stream = _asked("Should the export include draft invoices?", "yes")
    stream.user("actually, leave drafts out for now")

    assert prose_answers(stream.events) == []


def test_a_question_in_a_code_block_is_no_question() -> None:
    reply = "The docs say:\n```\nShould the export include draft invoices?\n```\nDone."

    assert prose_answers(_asked(reply, "yes").events) == []


def test_a_subagents_question_is_not_the_assistants() -> None:
    stream = _asked("Should the export include draft invoices?", "yes")
    stream.events = [
        replace(e, sidechain=True) if e.event_type == "assistant_response" else e
        for e in stream.events
    ]

    assert prose_answers(stream.events) == []
