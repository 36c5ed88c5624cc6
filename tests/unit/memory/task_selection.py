"""What the task context selects for a task from a few memories, on BM25 alone at a low bar:
the helper the task-word tests share."""

from __future__ import annotations

from pathlib import Path

from squirrel_memory.models import MemoryCandidate, MemoryType, UpdateAction, UpdateDecision
from squirrel_memory.retrieval import Retriever
from squirrel_memory.storage import SqliteStore
from squirrel_memory.task_context import TaskContextBuilder, TaskContextSettings

Memories = list[tuple[MemoryType, str, str]]
LOW = TaskContextSettings(min_relevance_lexical=0.2)


async def selected_for(root: Path, memories: Memories, task: str) -> list[tuple[str, str]]:
    """(key, reason) of what the task context selects for `task` on BM25 alone, at a low bar
    (`LOW`): one shared word is enough, so what a word alone selects shows."""
    store = await SqliteStore.open(str(root))
    try:
        for kind, key, content in memories:
            candidate = MemoryCandidate(kind, key, content, (), 0.6, ())
            await store.apply_decision(UpdateDecision(UpdateAction.ADD_NEW, candidate), user_id="u")
        context = await TaskContextBuilder(Retriever(store), settings=LOW).build(str(root), task)
    finally:
        await store.close()
    return [(m.key, m.reason) for m in context.selected_memories]
