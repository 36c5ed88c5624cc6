"""Words most of a project's memories hold neither pick a memory for a task nor explain it."""

from __future__ import annotations

from pathlib import Path

from squirrel_memory.models import MemoryCandidate, MemoryType, UpdateAction, UpdateDecision
from squirrel_memory.retrieval import Retriever
from squirrel_memory.retrieval.common_words import MIN_MEMORIES, common_terms
from squirrel_memory.storage import SqliteStore
from squirrel_memory.task_context import TaskContextBuilder

#: A project called tally: its name and its files' extension are in nearly every memory.
MEMORIES: list[tuple[MemoryType, str, str]] = [
    (MemoryType.PROJECT_FACT, "module:tally", "Module `tally`: `tally/cli.py` parses arguments."),
    (MemoryType.PROJECT_FACT, "tests", "Tests live in `tests/` (`tests/test_tally.py`)."),
    (MemoryType.RECIPE, "recipe:test", "To run the tests: `uv run pytest tests/test_tally.py`."),
    (MemoryType.RECIPE, "recipe:lint", "To lint: `ruff check tally/cli.py`."),
    (MemoryType.PITFALL, "pitfall:import", "`python tally/cli.py` fails: run `python -m tally`."),
    (MemoryType.PROJECT_FACT, "about", "What this project (tally) is: counts words in py files."),
    (
        MemoryType.PROJECT_FACT,
        "module:tally-renderer",
        "Module `tally`: `tally/renderer.py` renders the counts as an HTML table.",
    ),
    (MemoryType.USER_STYLE, "pref:small", "Keeps functions small."),
]


async def _project(root: Path, memories: list[tuple[MemoryType, str, str]]) -> SqliteStore:
    store = await SqliteStore.open(str(root))
    for kind, key, content in memories:
        candidate = MemoryCandidate(kind, key, content, (), 0.6, ())
        await store.apply_decision(UpdateDecision(UpdateAction.ADD_NEW, candidate), user_id="u")
    return store


async def test_the_words_most_memories_hold_are_common(tmp_path: Path) -> None:
    store = await _project(tmp_path, MEMORIES)
    try:
        common = await common_terms(store, str(tmp_path), ("tally", "py", "renderer"), None)
    finally:
        await store.close()

    assert common == {"tally", "py"}


async def test_a_project_with_few_memories_has_no_common_word(tmp_path: Path) -> None:
    store = await _project(tmp_path, MEMORIES[: MIN_MEMORIES - 1])
    try:
        common = await common_terms(store, str(tmp_path), ("tally", "py"), None)
    finally:
        await store.close()

    assert common == frozenset()


async def test_only_a_rare_word_picks_a_memory_and_the_reason_names_it(tmp_path: Path) -> None:
    store = await _project(tmp_path, MEMORIES)
    try:
        builder = TaskContextBuilder(Retriever(store))
        context = await builder.build(str(tmp_path), "tally renderer.py table looks off")
        plain = await builder.build(str(tmp_path), "have a look at tally/cli.py and tally.py")
    finally:
        await store.close()

    keys = [m.key for m in context.selected_memories]
    assert keys[0] == "module:tally-renderer"  # 'renderer' and 'table': few memories say them
    assert "'renderer'" in context.selected_memories[0].reason
    assert all(
        "'tally'" not in m.reason and "'py'" not in m.reason for m in context.selected_memories
    )
    assert "recipe:lint" not in keys and "pitfall:import" not in keys
    # the project's name and extension alone (and `module:tally` naming it) pick nothing
    assert not plain.has_relevant_memory


async def test_a_reason_names_the_word_few_memories_hold_first(tmp_path: Path) -> None:
    """'renderer' (one memory of eight) decided the pick, not 'table' or 'counts' alone."""
    extra = [
        (MemoryType.PROJECT_FACT, "counts", "The counts are kept as a table in memory."),
        (MemoryType.RECIPE, "recipe:table", "To print the counts table: `tally --table`."),
    ]
    store = await _project(tmp_path, [*MEMORIES, *extra])
    try:
        builder = TaskContextBuilder(Retriever(store))
        context = await builder.build(str(tmp_path), "the counts table of the renderer is off")
    finally:
        await store.close()

    chosen = {m.key: m.reason for m in context.selected_memories}
    reason = chosen["module:tally-renderer"]
    assert reason.startswith("Matches 'renderer'"), reason
    assert reason.index("'renderer'") < reason.index("'counts'")


async def test_words_as_common_as_each_other_are_named_in_the_task_s_order(
    tmp_path: Path,
) -> None:
    store = await _project(tmp_path, MEMORIES)
    try:
        builder = TaskContextBuilder(Retriever(store))
        context = await builder.build(str(tmp_path), "the renderer html table")
    finally:
        await store.close()

    reason = next(m.reason for m in context.selected_memories if m.key == "module:tally-renderer")
    assert reason.startswith("Matches 'renderer', 'html', 'table'"), reason
