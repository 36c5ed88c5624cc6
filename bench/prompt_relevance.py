"""Does the prompt hook serve a memory only for what the prompt is about? A blind study on
made-up projects (`bench/data/prompt_relevance.toml`).

Each project's memories (the shapes the extractors write: a correction's pitfall, a finding of
a session, an earlier assistant's closing report, a module, a recipe, the user's standing
preferences) are stored in their own SQLite project and embedded with MiniLM (the fake hashing
embedder when its package is missing; the output says which). Every prompt is asked through the
gateway's per-prompt path (`hook_context.prompt_context`, at the default `hooks.prompt_budget`)
over the memory service's task context, as the prompt hook of a session that has been given
nothing yet asks it. A prompt names the memory it needs (`serve`), or none (`abstain`: it shares
with the memories only the words their own framing says — "The user corrected the assistant",
"Found in a session", "Closing report" — or words every request uses, or what the gateway leaves
out of a prompt anyway).

Per project and pooled: the `serve` prompts whose memory was served, the `abstain` prompts that
got nothing, the items served to an `abstain` prompt (wrong serves), and the reasons served that
name a word of a memory's framing or a generic word ("Matches 'user'": a reason that names no
word that matters).

Run: `.venv/bin/python -m bench.prompt_relevance [--embedder auto|minilm|fake] [--misses]`.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, cast

import structlog

from bench.retrieval_quality import choose_embedder
from bench.retrieval_study import indexed_retriever
from squirrel_gateway.backend import TaskContextData
from squirrel_gateway.hook_context import prompt_context
from squirrel_gateway.hook_service import HookSettings
from squirrel_gateway.schemas import SelectedMemory
from squirrel_memory.models import MemoryCandidate, MemoryType, UpdateAction, UpdateDecision
from squirrel_memory.retrieval import is_generic
from squirrel_memory.storage import SqliteBackend, Store
from squirrel_memory.task_context import TaskContextBuilder

if TYPE_CHECKING:
    from squirrel_gateway.backend import MemoryBackend
    from squirrel_memory.embedding.base import Embedder

USER = "dain"
CASES = Path(__file__).resolve().parent / "data" / "prompt_relevance.toml"
#: The words the extractors' own framing says ("The user corrected the assistant (working on
#: …)", "Found in a session", "Closing report", "Subagent report", "… in their words", "Code
#: worked on in this project's sessions", "(worked in 2 sessions)"): a reason naming one of them
#: names no word of what the memory is about.
FRAME_WORDS = frozenset(
    {"user", "corrected", "assistant", "found", "session", "sessions", "closing", "report"}
    | {"subagent", "words"}
)
_NAMED = re.compile(r"'([^']+)'")


class _Local:
    """The two calls of the gateway's `MemoryBackend` the per-prompt path makes, answered by a
    `TaskContextBuilder` in this process."""

    def __init__(self, builder: TaskContextBuilder, project_id: str) -> None:
        self._builder = builder
        self._project_id = project_id

    async def resolve_project(self, path: str) -> str:
        return self._project_id

    async def get_task_context(
        self,
        project_id: str,
        *,
        user_id: str | None,
        task_description: str,
        active_file_paths: Sequence[str],
        preferred_memory_types: Sequence[str],
        budget: int,
        omit_sources_in: Sequence[str] = (),
    ) -> TaskContextData:
        context = await self._builder.build(
            project_id, task_description, user_id=user_id, context_budget_tokens=budget
        )
        chosen = [
            SelectedMemory(
                memory_id=m.memory_id,
                type=str(m.type),  # type: ignore[arg-type]
                key=m.key,
                content=m.content,
                importance=m.importance,
                reason=m.reason,
            )
            for m in context.selected_memories
        ]
        return TaskContextData(
            project_id=project_id,
            user_id=user_id,
            task_description=task_description,
            generated_at=datetime.now(UTC),
            has_relevant_memory=context.has_relevant_memory,
            selected_memories=chosen,
            total=context.items_total,
        )


@dataclass
class Tally:
    served: int = 0
    serve: int = 0
    abstained: int = 0
    abstain: int = 0
    wrong: int = 0
    empty_reasons: int = 0
    reasons: int = 0
    misses: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.served += other.served
        self.serve += other.serve
        self.abstained += other.abstained
        self.abstain += other.abstain
        self.wrong += other.wrong
        self.empty_reasons += other.empty_reasons
        self.reasons += other.reasons
        self.misses += other.misses


def names_nothing(reason: str) -> bool:
    """Whether a reason that names words ("Matches 'user', 'session'; a pitfall.") names only
    words of a memory's framing or words every request uses."""
    shared = reason.split(";", 1)[0]
    if not shared.startswith("Matches "):
        return False
    words = [w.lower() for w in _NAMED.findall(shared)]
    return bool(words) and all(w in FRAME_WORDS or is_generic(w) for w in words)


async def _filled(
    backend: SqliteBackend, root: Path, name: str, memories: list[list[str]]
) -> Store:
    folder = root / name
    folder.mkdir()
    store = await backend.open_store(str(folder), None)
    for kind, key, content, *rest in memories:
        importance = float(rest[0]) if rest else 0.6
        candidate = MemoryCandidate(
            type=MemoryType(kind), key=key, content=content, tags=(), importance=importance
        )
        await store.apply_decision(UpdateDecision(UpdateAction.ADD_NEW, candidate), user_id=USER)
    return store


async def _project(
    backend: SqliteBackend, root: Path, embedder: Embedder, project: dict[str, object]
) -> Tally:
    name = str(project["name"])
    store = await _filled(backend, root, name, cast(list[list[str]], project["memories"]))
    retriever = await indexed_retriever(store, embedder)
    local = cast("MemoryBackend", _Local(TaskContextBuilder(retriever), store.project_id))
    tally = Tally()
    for want, prompt, key in cast(list[list[str]], project["prompts"]):
        answer = await prompt_context(
            local,
            project_id=store.project_id,
            prompt=prompt,
            user_id=USER,
            budget=HookSettings().prompt_budget,
        )
        keys = [item.key for item in answer.served]
        reasons = [line for line in answer.text.splitlines() if " — why: " in line]
        tally.reasons += len(reasons)
        tally.empty_reasons += sum(names_nothing(r.split(" — why: ", 1)[1]) for r in reasons)
        if want == "serve":
            tally.serve += 1
            tally.served += key in keys
            if key not in keys:
                tally.misses.append(f"[{name}] SERVE {prompt!r} -> want {key}, got {keys}")
        else:
            tally.abstain += 1
            tally.abstained += not keys
            tally.wrong += len(keys)
            if keys:
                tally.misses.append(f"[{name}] ABSTAIN {prompt!r} -> got {keys}")
        for r in reasons:
            if names_nothing(r.split(" — why: ", 1)[1]):
                tally.misses.append(f"[{name}] REASON {prompt!r}: {r[:160]}")
    return tally


def _row(name: str, t: Tally) -> str:
    return (
        f"| {name} | {t.served}/{t.serve} | {t.abstained}/{t.abstain} | {t.wrong} | "
        f"{t.empty_reasons}/{t.reasons} |"
    )


async def run(args: argparse.Namespace, root: Path) -> int:
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
    embedder, embedder_name = choose_embedder(args.embedder)
    backend = SqliteBackend()
    cases = tomllib.loads(CASES.read_text(encoding="utf-8"))
    total = Tally()
    rows: list[str] = []
    for project in cases["project"]:
        tally = await _project(backend, root, embedder, project)
        total.add(tally)
        rows.append(_row(str(project["name"]), tally))
    print(f"embedder: {embedder_name}; {len(rows)} made-up projects, per-prompt hook path\n")
    print("| project | served (serve) | abstained (abstain) | wrong serves | empty reasons |")
    print("|---|---|---|---|---|")
    print(_row("all (pooled)", total))
    print("\n".join(rows))
    if args.misses and total.misses:
        print("\n" + "\n".join(total.misses))
    return 0


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    options.add_argument("--embedder", choices=("auto", "minilm", "fake"), default="auto")
    options.add_argument("--misses", action="store_true", help="list the cases missed")
    args = options.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(run(args, Path(tmp)))


if __name__ == "__main__":
    sys.exit(main())
