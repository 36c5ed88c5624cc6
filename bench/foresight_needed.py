"""What a replayed session would have used that no answer gave it, and where each one stood.

Every memory the project held before the session is judged as if the session start had served
it (`squirrel_memory.outcomes.outcome_of`, the judge the replay scores served items with). Each
one the session would have used but no answer gave (by id or by text) is then searched for with
each of the session's prompts (top `DEPTH`), so `--details` says why it was not served: no
prompt's words or meaning found it ("not in the top 30"), or it stood below the cut (its place,
score and reason), or the session had no prompt to ask with. A needed memory whose only use
was a command a served item had already given as the way to run it (a CI recipe beside the test
and lint commands the start served) says so (`given_otherwise`): it would have added nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.read_shapes import MEMORY_TYPES
from squirrel_gateway.hook_context import Served
from squirrel_gateway.memory_backend import GrpcMemoryBackend
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.outcomes.verdict import (
    Outcome,
    Run,
    ServedMemory,
    SessionActivity,
    Stated,
    advice_of,
    names,
    outcome_of,
    stated_commands,
    uncited,
)

DEPTH = 30
"""Search hits read per prompt for a needed memory."""
PAGE = 500


@dataclass(frozen=True, slots=True)
class Held:
    """A memory the project held before the session."""

    memory_id: str
    type: str
    key: str
    content: str
    file_paths: tuple[str, ...] = ()


def needed(
    held: Iterable[Held], facts: SessionActivity, served: Iterable[Served], root: str = ""
) -> list[Held]:
    """The memories of `held` the session would have used had its start served them, that no
    answer of the session gave (the same id, or the same text)."""
    given = list(served)
    ids = {s.memory_id for s in given if s.memory_id}
    texts = {" ".join(s.content.split()) for s in given}
    return [
        m
        for m in held
        if m.memory_id not in ids
        and " ".join(m.content.split()) not in texts
        and outcome_of(ServedMemory(m.type, m.key, m.content, files=m.file_paths), facts, root)
        is Outcome.USED
    ]


def _runs(run: Run, stated: Sequence[Stated]) -> bool:
    """Whether `run` is one of the `stated` commands: the same base, or the same tool for the
    same purpose (as `outcome_of` reads a use)."""
    return any(
        run.base == s.base or (bool(s.tool) and (run.tool, run.purpose) == (s.tool, s.purpose))
        for s in stated
    )


def given_otherwise(
    memory: Held, facts: SessionActivity, served: Iterable[Served], root: str = ""
) -> tuple[str, ...]:
    """The commands `memory` states that the session ran and a served item had already given
    as the way to run them, when the memory names no file the session touched: all it would
    have added was given (a CI recipe beside the test and lint commands served); else ()."""
    content = uncited(memory.content)
    stated = stated_commands(advice_of(memory.type, content), root)
    shown = [
        s for item in served for s in stated_commands(advice_of(item.type, item.content), root)
    ]
    ran = [r for r in facts.runs if r.ok and _runs(r, stated)]
    if not ran or not all(_runs(r, shown) for r in ran):
        return ()
    for path in facts.touched:
        name = path.rsplit("/", 1)[-1]
        if name in ("", ".", ".."):
            continue  # the project root names no file (`outcome_of` skips it too)
        if names(content, path) or (len(name) >= 4 and "." in name and names(content, name)):
            return ()
    held = {relative_path(path, root) for path in memory.file_paths}
    if memory.key.startswith("module:") and held & facts.touched:
        return ()
    return tuple(sorted({r.base for r in ran}))


async def held_memories(client: MemoryClient, project_id: str) -> list[Held]:
    """Every live memory of the project."""
    out: list[Held] = []
    token = ""
    while True:
        page = await client.call(
            client.stub.ListMemories,
            pb.ListMemoriesRequest(project_id=project_id, page_size=PAGE, page_token=token),
        )
        for m in page.memories:
            name = memory_pb2.MemoryType.Name(m.type).removeprefix("MEMORY_TYPE_").lower()
            out.append(Held(m.memory_id, name, m.key, m.content, tuple(m.file_paths)))
        token = page.next_page_token
        if not token:
            return out


async def needed_lines(
    backend: GrpcMemoryBackend,
    project_id: str,
    held: Sequence[Held],
    facts: SessionActivity,
    served: Iterable[Served],
    prompts: Sequence[str],
) -> list[str]:
    """For --details: each memory of `held` the session needed and was not given, then, for
    each prompt, its place among that prompt's search hits (or that it was not among the first
    `DEPTH`)."""
    lines: list[str] = []
    given = list(served)
    for memory in needed(held, facts, given, project_id):
        flat = " ".join(memory.content.split())
        lines.append(f"  needed, not served: [{memory.type}] {flat[:100]}")
        if otherwise := given_otherwise(memory, facts, given, project_id):
            ran = ", ".join(f"`{base}`" for base in otherwise)
            lines.append(f"    (its use, {ran}, was given by a served item)")
        if not prompts:
            lines.append("    no prompt to ask with")
        for prompt in prompts:
            page = await backend.search_memory(
                project_id,
                query=prompt,
                top_k=DEPTH,
                types=MEMORY_TYPES,
                scope_paths=[],
                cursor=None,
            )
            place = next(
                (
                    f"{n}. at {r.score:.2f}, {r.reason}"
                    for n, r in enumerate(page.results, 1)
                    if r.memory_id == memory.memory_id
                ),
                f"not in the top {DEPTH}",
            )
            lines.append(f"    {prompt[:60]!r}: {place}")
    return lines
