"""A short question of one kind (what the project is, what it is written in, how to run or test
it, where things are, how to answer the user, how to commit) finds the memories of that kind
although it shares no word with them; an off-topic question, even one sharing a verb, gets
nothing it did not get before, and the per-prompt context (`Retriever.rank`) is not lifted."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from squirrel_memory.models import MemoryType
from squirrel_memory.retrieval import Retriever
from squirrel_memory.retrieval.intents import joined, question_intents
from squirrel_memory.storage import SqliteStore
from tests.unit.memory.test_retrieval import add_memory

MEMORIES = (
    (
        MemoryType.PROJECT_FACT,
        "about",
        "What this project (sandpiper) is and does, per its README.md: a dashboard of harbour tide gauges.",
    ),
    (
        MemoryType.PROJECT_FACT,
        "build",
        "The project is a game engine built with a vendor toolchain: the root `board.ini`.",
    ),
    (MemoryType.PROJECT_FACT, "language", "Zig project (build.zig)."),
    (
        MemoryType.PROJECT_FACT,
        "public_headers",
        "The project ships a library: its public headers are in `include/sand/`.",
    ),
    (MemoryType.RECIPE, "recipe:run", "To run the app: `zig build serve -- --mock`."),
    (MemoryType.RECIPE, "recipe:test", "To run the tests: `zig build check`."),
    (
        MemoryType.RECIPE,
        "readme:section:README.md#installation",
        "README.md, under Installation, gives: `zig fetch` (fetch the dependencies).",
    ),
    (
        MemoryType.PITFALL,
        "pitfall:missing:cc",
        "`cc` was not found on `PATH`: the link step failed.",
    ),
    (
        MemoryType.USER_STYLE,
        "pref:keep_replies_short",
        "Keep replies brief: two or three sentences, no lists.",
    ),
    (
        MemoryType.PROJECT_FACT,
        "convention:commits",
        "Commit subjects start with a Conventional Commits prefix `type: summary`.",
    ),
)

ASKED = (
    ("what is this repository?", "about"),
    ("what does this tool do?", "about"),
    ("what is it written in?", "language"),
    ("how do I restart the server?", "recipe:run"),
    ("how can I try it locally?", "recipe:run"),
    ("where are the sources and benchmarks?", "public_headers"),
    ("how long should my answers be?", "pref:keep_replies_short"),
    ("how should I write commit messages?", "convention:commits"),
    ("how do I set up a development environment?", "readme:section:README.md#installation"),
    ("how do I get my dev environment set up?", "readme:section:README.md#installation"),
)

OFF_TOPIC = (
    "what is the capital of France?",
    "how do I run a marathon in under four hours?",
    "what language do people speak in Brazil?",
    "how long should I boil an egg?",
    "where is the nearest train station?",
    "how do I commit to a daily exercise routine?",
    "where are the tests of the new tax law published?",
    "what is this error about a null pointer in the payment webhook?",
    "how do I set up a home wifi network?",
)


@pytest.fixture
async def retriever(tmp_path: Path) -> AsyncIterator[Retriever]:
    store = await SqliteStore.open(str(tmp_path))
    for kind, key, content in MEMORIES:
        await add_memory(store, kind, key, content)
    yield Retriever(store)  # lexical only: no shared word, no match but by intent
    await store.close()


@pytest.mark.parametrize(("question", "key"), ASKED)
def test_a_short_question_of_one_kind_has_its_intent(question: str, key: str) -> None:
    assert question_intents(question)


@pytest.mark.parametrize("question", OFF_TOPIC)
def test_a_question_with_a_word_outside_every_intent_has_none(question: str) -> None:
    assert question_intents(question) == ()


def test_a_long_request_has_no_intent() -> None:
    text = "what is this repository? " + "please look at the renderer and the parser " * 5
    assert question_intents(text) == ()


@pytest.mark.parametrize(("question", "key"), ASKED)
async def test_search_finds_the_memory_of_the_questions_kind(
    retriever: Retriever, question: str, key: str
) -> None:
    page = await retriever.search(retriever.project_id, question, 5)
    assert key in [r.key for r in page.results]


async def test_what_the_project_is_comes_first_for_what_is_this(retriever: Retriever) -> None:
    page = await retriever.search(retriever.project_id, "what is this repository?", 5)
    assert [r.key for r in page.results][:2] == ["about", "build"]


@pytest.mark.parametrize(
    "question",
    [
        "what is the capital of France?",
        "how long should I boil an egg?",
        "where is the nearest train station?",
        "what is the tallest mountain in Africa?",
    ],
)
async def test_an_off_topic_question_still_gets_nothing(
    retriever: Retriever, question: str
) -> None:
    page = await retriever.search(retriever.project_id, question, 5)
    assert page.results == ()


async def test_an_off_topic_question_sharing_a_verb_gets_no_intent_answer(
    retriever: Retriever,
) -> None:
    question = "how do I run a marathon in under four hours?"
    page = await retriever.search(retriever.project_id, question, 5)
    ranked, _ = await retriever.rank(retriever.project_id, question, limit=5)
    assert [r.key for r in page.results] == [s.item.key for s in ranked]


async def test_search_of_other_types_leaves_the_intent_out(retriever: Retriever) -> None:
    page = await retriever.search(
        retriever.project_id, "what is this repository?", 5, types=[MemoryType.PITFALL]
    )
    assert page.results == ()


async def test_the_per_prompt_ranking_is_not_lifted(retriever: Retriever) -> None:
    ranked, _ = await retriever.rank(retriever.project_id, "what is this repository?")
    assert ranked == []


@pytest.mark.parametrize("text", ["run the tests test command", "start", "build", "run the tests"])
def test_a_list_of_words_is_no_question_and_has_no_intent(text: str) -> None:
    assert question_intents(text) == ()


async def test_a_search_for_words_that_asks_no_question_is_not_lifted(retriever: Retriever) -> None:
    page = await retriever.search(retriever.project_id, "restart the server", 5)
    assert page.results == ()


async def test_an_old_answer_behind_many_newer_memories_is_found_by_its_key(
    tmp_path: Path,
) -> None:
    store = await SqliteStore.open(str(tmp_path))
    try:
        await add_memory(store, MemoryType.PROJECT_FACT, "about", "A dashboard of tide gauges.")
        for n in range(60):
            await add_memory(store, MemoryType.PITFALL, f"pitfall:p{n}", f"Gauge {n} drifts.")
        page = await Retriever(store).search(store.project_id, "what is this repository?", 5)
        assert [r.key for r in page.results] == ["about"]
    finally:
        await store.close()


async def test_a_memory_written_after_a_search_answers_the_next(tmp_path: Path) -> None:
    store = await SqliteStore.open(str(tmp_path))
    try:
        retriever = Retriever(store)
        await add_memory(store, MemoryType.PITFALL, "pitfall:p", "Gauge 3 drifts.")
        assert not (await retriever.search(store.project_id, "what is it written in?", 5)).results
        await add_memory(store, MemoryType.PROJECT_FACT, "language", "Zig project (build.zig).")
        page = await retriever.search(store.project_id, "what is it written in?", 5)
        assert [r.key for r in page.results] == ["language"]
    finally:
        await store.close()


def test_a_verb_written_as_two_words_is_read_as_its_one_word() -> None:
    assert joined(["how", "do", "i", "set", "up", "ci"]) == ["how", "do", "i", "setup", "ci"]
    assert joined(["set", "the", "table", "up"]) == ["set", "the", "table", "up"]
    assert joined(["up", "set"]) == ["up", "set"]
