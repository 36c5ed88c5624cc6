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
        "The late fee only appears in the help text, not in any billing logic."
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
