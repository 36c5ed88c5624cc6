"""Consolidation: the chosen model tidies a project's memories now and then.

It sees the project's live memories (never the manual ones, never the facts read from the
repository's own files, which stay the source of truth for what the repository says) and may
merge duplicates into one clear sentence, rewrite a fragment, or retire a memory that a later
one contradicts. Every change is an ordinary, non-destructive update: the previous versions stay
in the history with the reason, a merged or retired memory is marked deleted, never erased.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Final

import structlog

from squirrel_memory.extractors.base import ExtractionError
from squirrel_memory.llm.base import ToolCaller, written_by
from squirrel_memory.llm.framing import data_rule, quoted_data
from squirrel_memory.llm.ledger import load_ledger, save_ledger
from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemorySource,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.storage import Store

log = structlog.get_logger()

CONSOLIDATION_TOOL_NAME: Final = "consolidate_memories"
MAX_MEMORIES: Final = 80
MAX_CONTENT_CHARS: Final = 1000
CONSOLIDATION_SYSTEM_PROMPT: Final = f"""\
You keep a coding assistant's long-term memory of one project tidy. Below are its memories, each \
with a ref (m1, m2, …), type, key and text. Propose only changes that make the memory clearly \
better:
- merge: memories that say the same thing → keep one ref, drop the others, and give the merged \
text (one or two complete sentences).
- rewrite: a fragment or unclear memory → the same fact as a complete sentence a reader \
understands without the session. Never add facts.
- retire: a memory that a later memory (name it) contradicts.
Leave everything else alone; an empty answer is fine.

{data_rule(CONSOLIDATION_TOOL_NAME)}
Call the {CONSOLIDATION_TOOL_NAME} tool exactly once."""
CONSOLIDATION_TOOL: Final[dict[str, Any]] = {
    "name": CONSOLIDATION_TOOL_NAME,
    "description": "Merge duplicates, rewrite fragments and retire contradicted memories.",
    "input_schema": {
        "type": "object",
        "properties": {
            "merge": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "keep": {"type": "string"},
                        "drop": {"type": "array", "items": {"type": "string"}},
                        "content": {"type": "string"},
                    },
                    "required": ["keep", "drop", "content"],
                },
            },
            "rewrite": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"ref": {"type": "string"}, "content": {"type": "string"}},
                    "required": ["ref", "content"],
                },
            },
            "retire": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "ref": {"type": "string"},
                        "contradicted_by": {"type": "string"},
                    },
                    "required": ["ref", "contradicted_by"],
                },
            },
        },
        "required": [],
    },
}


@dataclass
class ConsolidationReport:
    """Memories rewritten to hold a merge (`kept`), merged away, rewritten and retired."""

    kept: int = 0
    merged: int = 0
    rewritten: int = 0
    retired: int = 0


def consolidatable(memory: MemoryItem) -> bool:
    """Manual memories and facts read from the repository's own files are never touched."""
    if memory.deleted or memory.source is MemorySource.MANUAL:
        return False
    return not any(not ref.startswith("commit:") for ref in memory.source_refs)


def _text(value: object) -> str:
    return " ".join(value.split())[:MAX_CONTENT_CHARS] if isinstance(value, str) else ""


class Consolidator:
    """Runs a consolidation pass per project at most every `interval`, or now with `force`.

    The schedule starts when a project is first seen (not at every start of the service) and
    the last run of each project is kept in the `ledger` file, so a restart neither runs a
    pass at once nor puts the next one off."""

    def __init__(
        self,
        caller: ToolCaller,
        *,
        interval: timedelta,
        user_id: str,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        ledger: Path | None = None,
        per_user: bool = False,
    ) -> None:
        self._caller = caller
        self._interval = interval
        self._user_id = user_id
        self._per_user = per_user
        """A team server: a memory is never merged into, nor retired by, another owner's."""
        self._clock = clock
        self._ledger = ledger
        self._last: dict[str, datetime] = {}
        for project_id, stamp in load_ledger(ledger).items():
            if isinstance(stamp, int | float):
                self._last[project_id] = datetime.fromtimestamp(stamp, UTC)

    def _mark(self, project_id: str) -> None:
        self._last[project_id] = self._clock()
        save_ledger(self._ledger, {p: t.timestamp() for p, t in self._last.items()})

    def due(self, project_id: str) -> bool:
        """Whether a pass is due; a project seen for the first time starts its schedule."""
        if self._interval <= timedelta(0):
            return False
        last = self._last.get(project_id)
        if last is None:
            self._mark(project_id)
            return False
        return self._clock() - last >= self._interval

    async def run(self, store: Store, *, force: bool = False) -> ConsolidationReport:
        report = ConsolidationReport()
        project_id = store.project_id
        if not force and not self.due(project_id):
            return report
        self._mark(project_id)
        items, _ = await store.list_memories(project_id, limit=MAX_MEMORIES)
        candidates = [m for m in items if consolidatable(m)]
        if len(candidates) < 2:
            return report
        refs = {f"m{i + 1}": m for i, m in enumerate(candidates)}
        lines = [f"{ref} [{m.type}] {m.key}: {m.content}" for ref, m in refs.items()]
        try:
            answer = await self._caller.call_tool(
                system=CONSOLIDATION_SYSTEM_PROMPT,
                message="Memories (quoted data):\n"
                + quoted_data(f"stored memories of project {project_id}", "\n".join(lines)),
                tool=CONSOLIDATION_TOOL,
                max_tokens=2048,
            )
        except ExtractionError as exc:
            log.warning("consolidation_failed", error_type=type(exc).__name__)
            return report
        touched: set[str] = set()
        for item in _objects(answer.get("merge")):
            keep, content = refs.get(str(item.get("keep"))), _text(item.get("content"))
            drops = [refs[d] for d in _strings(item.get("drop")) if d in refs]
            drops = [
                d
                for d in drops
                if keep is not None and d.id != keep.id and self._one_owner(keep, d)
            ]
            if keep is None or not content or not drops or keep.id in touched:
                continue
            if any(d.id in touched for d in drops):
                continue
            await self._update(
                store, keep, content, f"consolidated: merged {len(drops)} duplicate(s)"
            )
            for drop in drops:
                await store.forget(drop.id, f"consolidated: merged into {keep.id}")
            touched.update({keep.id, *(d.id for d in drops)})
            report.kept += 1
            report.merged += len(drops)
        for item in _objects(answer.get("rewrite")):
            memory, content = refs.get(str(item.get("ref"))), _text(item.get("content"))
            if memory is None or not content or memory.id in touched or content == memory.content:
                continue
            await self._update(store, memory, content, "consolidated: rewritten as a sentence")
            touched.add(memory.id)
            report.rewritten += 1
        for item in _objects(answer.get("retire")):
            memory, by = refs.get(str(item.get("ref"))), refs.get(str(item.get("contradicted_by")))
            if memory is None or by is None or memory.id in touched or by.id == memory.id:
                continue
            if not self._one_owner(memory, by):
                continue
            await store.forget(memory.id, f"consolidated: contradicted by {by.id}")
            touched.add(memory.id)
            report.retired += 1
        log.info(
            "memories_consolidated",
            project_id=project_id,
            merged=report.merged,
            rewritten=report.rewritten,
            retired=report.retired,
        )
        return report

    def _one_owner(self, first: MemoryItem, second: MemoryItem) -> bool:
        """Whether one memory may absorb or retire the other: always on a laptop (one user);
        on a team server only when both are the project's or both one user's (a user's style
        is theirs alone: Alice's and Bob's same preference stay two memories)."""
        return not self._per_user or first.user_id == second.user_id

    async def _update(self, store: Store, memory: MemoryItem, content: str, reason: str) -> None:
        candidate = MemoryCandidate(
            type=memory.type,
            key=memory.key,
            content=content,
            tags=memory.tags,
            importance=memory.importance,
            file_paths=memory.file_paths,
            scope=memory.scope,
            written_by=written_by(self._caller),
            rule="consolidation",
        )
        decision = UpdateDecision(
            UpdateAction.UPDATE_EXISTING,
            candidate,
            target_id=memory.id,
            merged_content=content,
            reason=reason,
        )
        await store.apply_decision(decision, user_id=self._user_id, source=MemorySource.LLM)


def _objects(value: object) -> list[dict[str, Any]]:
    return (
        [v for v in value if isinstance(v, dict)][:MAX_MEMORIES] if isinstance(value, list) else []
    )


def _strings(value: object) -> Sequence[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
