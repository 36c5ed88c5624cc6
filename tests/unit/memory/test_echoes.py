"""Echoes: the user's sentences no rule reads as an instruction, kept only to hear an
instruction said again in another session in such words. They promote the instruction, in its
own words; alone, in the instruction's own session, or against another instruction they say
nothing."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from squirrel_memory.candidate_decisions import merge_candidates
from squirrel_memory.extractors.echoes import ECHO_TAG, echo_candidates, is_echo
from squirrel_memory.extractors.firmness import TENTATIVE_TAG
from squirrel_memory.instruction_meaning import comparable
from squirrel_memory.models import MemoryCandidate, MemoryItem, MemoryType, Scope
from squirrel_memory.promotion import RECURRING_IMPORTANCE, RECURRING_TAG
from squirrel_memory.storage import SqliteStore
from squirrel_memory.user_memories.userstore import SqliteUserStore
from tests.unit.memory.session_builder import Session
from tests.unit.memory.test_habit_recurrence import _replay, stores

__all__ = ["stores"]  # the fixture, shared with the recurrence tests


def _styles(after: dict[str, MemoryItem]) -> list[MemoryItem]:
    return list(after.values())


def _no_echo_kept(after: dict[str, MemoryItem], *echoed: str) -> None:
    for memory in after.values():
        assert ECHO_TAG not in memory.tags
        assert all(words not in memory.content for words in echoed)


# --- through the processor and a real store ---------------------------------------------------


PARAPHRASED = {
    # said as a rule once, then again in a form no rule reads
    "typescript": (
        ("Add a dark mode toggle. Don't use any, type everything properly.", "Added.", "Thanks."),
        ("Add a settings page. No any types please, type things properly.", "Added.", "Good."),
        "No any types please",
    ),
    "rust": (
        ("Port the parser. Don't call unwrap in the library code.", "Ported.", "Thanks."),
        ("Now the lexer. Library code shouldn't unwrap anything.", "Done.", "Good."),
        "shouldn't unwrap",
    ),
}


async def test_an_instruction_said_again_in_a_form_no_rule_reads_recurs(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    first, second, echoed = PARAPHRASED["typescript"]
    before, after = await _replay(stores, [first, second])
    (said,) = [m for m in before.values() if TENTATIVE_TAG in m.tags]
    promoted = after[said.key]
    assert RECURRING_TAG in promoted.tags and TENTATIVE_TAG not in promoted.tags
    assert promoted.importance >= RECURRING_IMPORTANCE
    assert promoted.content == said.content  # the instruction's own words
    assert len(promoted.source_event_ids) == 2
    _no_echo_kept(after, echoed)


async def test_the_same_holds_in_another_ecosystem(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    first, second, echoed = PARAPHRASED["rust"]
    before, after = await _replay(stores, [first, second])
    (said,) = [m for m in before.values() if TENTATIVE_TAG in m.tags]
    assert RECURRING_TAG in after[said.key].tags
    assert after[said.key].content == said.content
    _no_echo_kept(after, echoed)


async def test_sentences_no_rule_reads_never_make_an_instruction_of_each_other(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    said = ("Tidy the imports in the parser.", "Tidied.", "Looks fine now.")
    *_, after = await _replay(stores, [said, said, said])
    assert after == {}


async def test_an_echo_in_the_instructions_own_session_adds_nothing(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    (after,) = await _replay(
        stores,
        [
            (
                "Add a settings page. Don't use any, type everything properly.",
                "Added.",
                "No any types please, type things properly.",
            )
        ],
    )
    (said,) = _styles(after)
    assert TENTATIVE_TAG in said.tags and RECURRING_TAG not in said.tags
    _no_echo_kept(after, "No any types please")


async def test_echoes_leave_a_request_said_again_to_its_own_memory(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    *_, after = await _replay(
        stores,
        [
            (
                "Add the export button. Then commit it with a conventional commit message.",
                "Done.",
                "Ok.",
            ),
            (
                "Add CSV import. When done, commit it with a conventional commit message.",
                "Done.",
                "Ok.",
            ),
        ],
    )
    assert any(m.content.startswith("In 2 sessions the user asked") for m in after.values())


# --- the batch rules, on candidates -----------------------------------------------------------


def _candidate(content: str, key: str, episode: str, *tags: str) -> MemoryCandidate:
    return MemoryCandidate(
        type=MemoryType.USER_STYLE,
        key=key,
        content=content,
        tags=("preference", TENTATIVE_TAG, *tags),
        importance=0.25,
        source_episode_id=episode,
        source_event_ids=(f"{episode}-e",),
        scope=Scope.PROJECT,
    )


def test_an_echo_never_takes_an_instruction_back() -> None:
    indent = _candidate("Indent with 2 spaces.", "pref:indent_spaces", "ep1")
    echo = _candidate(
        "Indent with 4 spaces, not 2.", "pref:indent_spaces_not", "ep2", "restated", ECHO_TAG
    )
    merged = merge_candidates([indent, echo])
    assert any(c.content == "Indent with 2 spaces." for c in merged)


def test_two_echoes_stay_an_echo() -> None:
    first = _candidate("Tidy the imports please.", "pref:tidy_imports", "ep1", "restated", ECHO_TAG)
    second = _candidate(
        "Tidy the imports please.", "pref:tidy_imports", "ep2", "restated", ECHO_TAG
    )
    (merged,) = merge_candidates([first, second])
    assert is_echo(merged) and TENTATIVE_TAG in merged.tags


def test_only_echoes_that_share_a_telling_word_with_an_instruction_are_embedded() -> None:
    texts = comparable(
        ["Don't call unwrap in the library code."],
        [],
        ["Library code shouldn't unwrap anything.", "Tidy the imports in the parser."],
    )
    assert "Library code shouldn't unwrap anything." in texts
    assert "Tidy the imports in the parser." not in texts


def test_echoes_are_the_users_typed_sentences_only() -> None:
    session = Session("/work/app", "s1", datetime(2026, 11, 2, 9, 0, tzinfo=UTC))
    session.add(
        "user_message", {"text": "Please keep the commits small. Why is this slow?"}, origin="typed"
    )
    session.say("Keep the commits small, noted.")
    session.add("user_message", {"text": "<command-name>/clear</command-name>"}, origin="typed")
    echoes: Sequence[MemoryCandidate] = echo_candidates(session.events, "ep1")
    assert [e.content for e in echoes] == ["Please keep the commits small."]
    assert all(e.source_episode_id == "ep1" and is_echo(e) for e in echoes)
