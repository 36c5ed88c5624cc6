"""What the assistant found in the code in answer to the user's yes-or-no question about it: kept
with the question, in any project, and where it must not be kept."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.code_answers import code_answers
from squirrel_memory.models import MemoryCandidate
from tests.unit.memory.session_builder import Session
from tests.unit.memory.test_touched_languages import ROOT, T0

QUESTION = "ok and is the late fee applied anywhere in code?"
ANSWER = (
    "No. The late fee only appears in the help text, not in any billing logic.\n\n"
    "- **Where it's mentioned:** `app/help/page.tsx:40`."
)


def _asked(
    question: str = QUESTION,
    answer: str = ANSWER,
    *,
    look: str = "read",
    origin: str = "typed",
    sidechain: bool = False,
) -> Session:
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": question}, origin=origin)
    session.say("I'll look at where the fee is computed.")
    if look == "read":
        session.read("app/billing/fees.ts", "export const fees = []\n")
    elif look == "search":
        session.run("rg -n 'late fee' app", 0, "app/help/page.tsx:40: late fee\n")
    elif look == "history":
        session.run("git branch -a && git log --oneline -5", 0, "* main\nab12cd3 fees\n")
    elif look == "failed search":
        session.run("rg -n 'late fee' app", 2, "rg: app: No such file or directory\n")
    session.add("assistant_response", {"text": answer}, sidechain=sidechain)
    return session


def _said(session: Session) -> list[MemoryCandidate]:
    return [c for c in session.extracted() if c.key.startswith("answer:")]


@pytest.mark.parametrize("look", ["read", "search"])
def test_an_answer_found_in_the_code_is_kept_with_its_question(look: str) -> None:
    [found] = _said(_asked(look=look))

    assert found.content == (
        f'Asked "{QUESTION}", the assistant answered after reading the project\'s files: No. '
        "The late fee only appears in the help text, not in any billing logic. "
        "Where it's mentioned: `app/help/page.tsx:40`."
    )
    assert found.type.value == "project_fact"


@pytest.mark.parametrize(
    "question",
    [
        "Does the importer keep the original file names?",
        "There is a retry loop in the client. In the uploader, does it back off or retry at once?",
        "so are refunds stored in their own table?",
        "Has the cache any expiry?",
    ],
)
def test_fact_questions_of_any_shape_are_read(question: str) -> None:
    [found] = _said(_asked(question, "Yes, it does: `retry.ts` waits 2 s, then 4 s."))

    assert found.content.startswith(f'Asked "{question}"')
    assert found.content.endswith("Yes, it does: `retry.ts` waits 2 s, then 4 s.")


@pytest.mark.parametrize(
    "question",
    [
        "can you fix the late fee?",  # a request
        "do you think the fee is right?",  # the assistant's opinion
        "should we drop the fee?",  # a decision to make
        "how is the late fee computed?",  # no yes-or-no question
        "is the late fee applied anywhere? fix it if not.",  # the question is not the end
    ],
)
def test_what_asks_no_fact_of_the_project_is_not_kept(question: str) -> None:
    assert _said(_asked(question)) == []


@pytest.mark.parametrize(
    "answer",
    [
        "Yes and no: the fee is computed but never charged.",
        "Partly. The fee is computed in `fees.ts`.",
        "Not exactly: the fee is computed but never charged.",
        "I checked the billing code. No fee there.",
        "Nope",
        "No-op: the fee function returns early.",  # no bare "No"
    ],
)
def test_a_hedged_or_indirect_answer_is_not_kept(answer: str) -> None:
    assert _said(_asked(answer=answer)) == []


def test_an_answer_without_reading_the_code_is_not_kept() -> None:
    assert _said(_asked(look="none")) == []
    assert _said(_asked(look="failed search")) == []
    assert _said(_asked(look="history")) == []


def test_a_question_not_in_the_users_voice_or_a_subagent_s_answer_is_not_kept() -> None:
    assert _said(_asked(origin="harness")) == []
    assert code_answers(_asked(sidechain=True).events) == []


def test_a_long_answer_keeps_its_opening_sentences_within_the_limit() -> None:
    long = "No. " + " ".join(f"Sentence {n} says more about the billing code." for n in range(20))

    [found] = _said(_asked(answer=long))

    answer = found.content.split("reading the project's files: ", 1)[1]
    assert answer.startswith("No. Sentence 0 says more")
    assert answer.endswith("billing code.")
    assert len(answer) <= 320


VERDICT = "No. The discount only appears in the pricing copy, not in any checkout logic."


@pytest.mark.parametrize(
    ("listed", "kept"),
    [
        (
            "- **Where it's mentioned:** the pricing page (`web/pricing.vue:12`) describes 10 % "
            "off for yearly plans. It also says so in the FAQ.\n"
            "- **What counts:** `Checkout.total` sums the line items only.",
            "Where it's mentioned: the pricing page (`web/pricing.vue:12`) describes 10 % off "
            "for yearly plans. It also says so in the FAQ.",
        ),
        (
            "1. `billing/Invoice.java` never reads a discount field.\n2. No table stores one.",
            "`billing/Invoice.java` never reads a discount field.",
        ),
        (
            "* **Searched** `lib/` and `priv/repo/migrations`: no discount column.",
            "Searched `lib/` and `priv/repo/migrations`: no discount column.",
        ),
    ],
)
def test_a_bare_verdict_keeps_the_first_item_of_the_list_after_it(listed: str, kept: str) -> None:
    [found] = _said(_asked(answer=f"{VERDICT}\n\n{listed}"))

    answer = found.content.split("reading the project's files: ", 1)[1]
    assert answer == f"{VERDICT} {kept}"
    assert len(answer) <= 320


@pytest.mark.parametrize(
    "after",
    [
        # Prose after the verdict may weigh options or propose the change: not what was found.
        "Adding it would need a migration and a table of awards.",
        # A heading, not a list.
        "**Where it lives**\n\n- `web/pricing.vue:12`",
        # A list item too long to fit beside the verdict is left out whole, never cut.
        "- " + " ".join(["the pricing page describes the yearly discount in detail"] * 8),
    ],
)
def test_prose_a_heading_or_an_item_too_long_after_a_verdict_is_not_kept(after: str) -> None:
    [found] = _said(_asked(answer=f"{VERDICT}\n\n{after}"))

    assert found.content.endswith(VERDICT)


def test_a_list_after_a_longer_opening_is_not_kept() -> None:
    opening = (
        "Yes, it needs a new migration, but it is small. The total you see comes from the "
        "database view, not from the application code, and the view sorts by points, then by name."
    )

    [found] = _said(_asked(answer=f"{opening}\n\n- `db/views/totals.sql:4`"))

    assert found.content.endswith("then by name.")


@pytest.mark.parametrize(
    "changed",
    [
        "app/billing/fees.ts",  # the file the assistant read for the answer
        "app/help/page.tsx",  # the file the answer names
    ],
)
def test_an_answer_the_session_then_made_untrue_is_not_kept(changed: str) -> None:
    session = _asked()
    session.user("ok, apply the late fee in the billing logic then")
    session.edit_lines(changed, "export const fees = []", "export const fees = [lateFee]")
    session.run("npm test", 0, "Tests  12 passed (12)\n")

    assert _said(session) == []


def test_an_answer_stays_when_the_session_changes_another_file() -> None:
    session = _asked()
    session.user("thanks; now bump the version")
    session.edit_lines("package.json", '"version": "1.2.0"', '"version": "1.2.1"')

    [found] = _said(session)

    assert found.content.startswith(f'Asked "{QUESTION}"')
