"""The user correcting the assistant becomes a pitfall saying what holds instead; guesses,
questions, plans, pasted text, dependencies and corrections taken back do not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.user_corrections import PREFIX, correction, user_corrections
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/shop"


def _corrected(reply: str, answer: str, read_with: str = "Read") -> Session:
    session = Session(ROOT, "s1", T0)
    session.add("user_message", {"text": "Add the sync state to the session file."}, origin="typed")
    path = f"{ROOT}/src/sync/state.ts"
    session.add("tool_call", {"tool": read_with, "input": {"file_path": path}}, paths=(path,))
    session.add("assistant_response", {"text": reply})
    session.add("user_message", {"text": answer}, origin="typed")
    return session


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "no, not the staging bucket — the release one",
            "No, not the staging bucket — the release one.",
        ),
        (
            "it's not a JSONL file. it's one JSON document with a syncState key",
            "It's not a JSONL file. it's one JSON document with a syncState key.",
        ),
        (
            "that's wrong because the cache is per user, not per project",
            "That's wrong because the cache is per user, not per project.",
        ),
        (
            "The config is not YAML, it's TOML in pyproject.toml",
            "The config is not YAML, it's TOML in pyproject.toml.",
        ),
    ],
)
def test_a_correction_says_what_holds_instead(text: str, said: str) -> None:
    assert correction(text) == said


@pytest.mark.parametrize(
    "text",
    [
        "maybe it's not the cache, it's the session",  # a guess
        "is it not the cache, but the session?",  # a question
        "no, not now — later",  # a plan
        "it's not the upstream parser, it's our wrapper",  # a dependency
        "no, add the field, but set its value from the session id",  # a task's next step
        "Not bad, it works",
        "it's not working, it still shows the error",  # the work's state, not a fact
        "that's not fixed, the test still fails",
        "no, not yet, the tests first",
        "that is not what I asked, use the other file",  # about the request
        "> it's not a JSONL file, it's JSON\nthis is what the reviewer wrote",  # pasted
        "```\nit's not a JSONL file, it's JSON\n```",
        "no, not that one, the other one",  # names nothing of its own
        "no, not this file — the other file",
        "it's not that one, it's the other one",
        "that's wrong, use the other one instead",
    ],
)
def test_guesses_questions_plans_dependencies_and_pasted_text_are_no_correction(
    text: str,
) -> None:
    assert correction(text) == ""


def test_the_correction_keeps_the_files_the_assistant_was_working_on() -> None:
    session = _corrected(
        "The sync state goes into a JSONL file beside the session.",
        "it's not a JSONL file. it's one JSON document with a syncState key",
    )

    found = user_corrections(session.events)

    assert [f.content for f in found] == [
        f"{PREFIX} (working on src/sync/state.ts): It's not a JSONL file. it's one JSON "
        "document with a syncState key."
    ]
    assert found[0].event_ids == ("s1_0004",)


@pytest.mark.parametrize(
    "tool",
    [
        *("Write", "MultiEdit", "NotebookEdit"),  # Claude Code
        "apply_patch",  # Codex CLI (its shell reads are `read_file`)
        *("read_file", "write_file", "replace"),  # Gemini CLI
        *("edit_file", "search_replace", "delete_file"),  # Cursor
        "view",
    ],
)
def test_every_hosts_file_tools_name_the_files_worked_on(tool: str) -> None:
    session = _corrected("The cache is per project.", "that's wrong, the cache is per user", tool)
    (found,) = user_corrections(session.events)
    assert "(working on src/sync/state.ts)" in found.content


def test_a_listing_or_a_search_names_no_file_worked_on() -> None:
    session = _corrected("The cache is per project.", "that's wrong, the cache is per user", "Grep")
    (found,) = user_corrections(session.events)
    assert "working on" not in found.content


def test_the_rules_extractor_keeps_it_as_a_pitfall() -> None:
    session = _corrected("The cache is per project.", "that's wrong because the cache is per user")

    kept = [c for c in session.extracted() if "corrected" in c.tags]

    assert [c.type for c in kept] == [MemoryType.PITFALL]
    assert kept[0].file_paths == ("src/sync/state.ts",)


def test_a_correction_taken_back_later_is_not_kept() -> None:
    session = _corrected("The cache is per project.", "that's wrong because the cache is per user")
    session.add("assistant_response", {"text": "Checked: the cache key has no user id."})
    session.add("user_message", {"text": "never mind, you were right"}, origin="typed")

    assert user_corrections(session.events) == []


def test_an_instruction_file_an_answer_and_a_message_after_the_users_own_are_no_correction() -> (
    None
):
    loaded = Session(ROOT, "s1", T0)
    loaded.add("assistant_response", {"text": "Reading the notes."})
    loaded.add(
        "user_message", {"text": "that's wrong because the cache is per user"}, origin="harness"
    )
    answered = Session(ROOT, "s1", T0)
    answered.add("assistant_response", {"text": "Which cache?"})
    answered.add(
        "user_message", {"text": "that's wrong because the cache is per user"}, origin="answer"
    )
    opening = Session(ROOT, "s1", T0)
    opening.add("user_message", {"text": "Look at the cache."}, origin="typed")
    opening.add(
        "user_message", {"text": "that's wrong because the cache is per user"}, origin="typed"
    )

    assert user_corrections(loaded.events) == []
    assert user_corrections(answered.events) == []
    assert user_corrections(opening.events) == []
