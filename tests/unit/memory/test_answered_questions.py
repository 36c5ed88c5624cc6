"""Decisions the user made by answering the assistant's questions: one memory per asking, the
question quoted and the chosen answer without the assistant's recommendation marker; nothing
for answers that decide nothing, a bare yes or no, answers that do not line up with the
questions, a subagent's question or an answer the user takes back."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.answered_questions import answered_questions
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


def _answer(session: Session, questions: list[str], answers: list[str], **kw: bool) -> str:
    return session.add(
        "user_message",
        {"text": "\n".join(answers), "questions": questions, "tool_use_id": "toolu_1"},
        origin="answer",
        **kw,
    )


def test_answers_in_a_rust_workspace_become_one_decision_in_the_users_voice() -> None:
    session = Session("/home/dev/ferry", "s1", T0)
    session.user("The release binary is too big; ship one binary for both tools.")
    session.say("Two things to settle first.")
    _answer(
        session,
        [
            "Should `tokio` stay a required dependency of the merged binary?",
            "Which feature flag gates the TLS backend?",
        ],
        ["Required (Recommended)", "rustls"],
    )

    (decision,) = [c for c in session.extracted() if c.key.startswith("decision:")]

    assert decision.type == MemoryType.USER_STYLE
    assert decision.content == (
        'The user decided, answering the assistant: "Should `tokio` stay a required '
        'dependency of the merged binary?" → Required; "Which feature flag gates the TLS '
        'backend?" → rustls.'
    )
    assert "decision" in decision.tags
    assert "tentative" not in decision.tags


def test_an_answer_in_a_python_project_is_kept_whatever_the_language_of_the_question() -> None:
    session = Session("/home/dev/ledger", "s1", T0)
    _answer(session, ["¿Qué base de datos usamos para las pruebas?"], ["SQLite en memoria"])

    (decision,) = answered_questions(session.events)

    assert decision.content == (
        'The user decided, answering the assistant: "¿Qué base de datos usamos para las '
        'pruebas?" → SQLite en memoria.'
    )


def test_a_question_asked_again_keeps_its_latest_answer() -> None:
    session = Session("/home/dev/ledger", "s1", T0)
    _answer(session, ["Which logger should the CLI use?"], ["structlog"])
    session.user("Let's go on with the parser.")
    _answer(session, ["Which logger should the CLI use?"], ["the standard logging module"])

    (decision,) = answered_questions(session.events)

    assert decision.content.endswith("→ the standard logging module.")


@pytest.mark.parametrize(
    "answer", ["Skip", "you decide", "Not sure", "either", "Yes", "no", "Go ahead", "Proceed."]
)
def test_an_answer_that_decides_nothing_is_not_kept(answer: str) -> None:
    session = Session("/home/dev/ledger", "s1", T0)
    _answer(session, ["Shall I run the migrations now?"], [answer])

    assert answered_questions(session.events) == []


def test_answers_that_do_not_line_up_with_the_questions_say_nothing() -> None:
    session = Session("/home/dev/ledger", "s1", T0)
    # three lines for two questions: which answer goes with which cannot be told
    _answer(session, ["Which runner?", "Which formatter?"], ["pytest", "with xdist", "ruff"])

    assert answered_questions(session.events) == []


def test_an_answer_the_user_takes_back_is_not_kept() -> None:
    session = Session("/home/dev/ledger", "s1", T0)
    _answer(session, ["Should Redis become a hard dependency?"], ["Required"])
    session.user("No wait, keep it optional for now.")

    assert answered_questions(session.events) == []


def test_a_subagents_question_or_a_typed_message_is_no_decision() -> None:
    session = Session("/home/dev/ledger", "s1", T0)
    _answer(session, ["Which module owns the cache?"], ["store"], sidechain=True)
    session.user("Which module owns the cache?\nstore")

    assert answered_questions(session.events) == []


@pytest.mark.parametrize("answer", ["Ja", "Sí.", "Oui", "Non", "Да", "はい", "Vale", "Klar!"])
def test_a_one_word_go_ahead_in_any_language_is_not_kept(answer: str) -> None:
    rust = Session("/home/dev/ferry", "s1", T0)
    _answer(rust, ["Soll ich die Migrationen jetzt ausführen?"], [answer])
    node = Session("/home/dev/site", "s1", T0)
    _answer(node, ["Shall I publish the package now?"], [answer])

    assert answered_questions(rust.events) == []
    assert answered_questions(node.events) == []


@pytest.mark.parametrize(
    ("root", "question", "answer"),
    [
        ("/home/dev/ledger", "Install the tools with uv or pip?", "uv"),
        ("/home/dev/agent", "Should the agent be written in Go or Rust?", "Go"),
        ("/home/dev/site", "¿Usamos Deno o Node para los scripts?", "Deno"),
    ],
)
def test_a_short_answer_naming_one_of_the_questions_options_is_a_decision(
    root: str, question: str, answer: str
) -> None:
    session = Session(root, "s1", T0)
    _answer(session, [question], [answer])

    (decision,) = answered_questions(session.events)

    assert decision.content.endswith(f"→ {answer}.")
