"""What the MCP tools need from the memory engine: a Protocol and the records it returns."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal, Protocol

from squirrel_core.read_shapes import MemoryTypeName, team_mark_text
from squirrel_gateway.schemas import (
    ModuleSummary,
    PitfallItem,
    SearchResult,
    SelectedMemory,
    UserStyleItem,
    ViewMode,
)

UpdateActionName = Literal["ADD_NEW", "UPDATE_EXISTING", "NOOP", "DELETE_AND_ADD"]
RememberOutcomeName = Literal["added", "updated", "merged", "unchanged"]

_deadline: ContextVar[float | None] = ContextVar("memory_call_deadline", default=None)


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Memory calls inside the block get at most what is left of `seconds` as their gRPC
    deadline, so the memory service knows how long its caller (a hook) will wait."""
    token = _deadline.set(asyncio.get_running_loop().time() + seconds)
    try:
        yield
    finally:
        _deadline.reset(token)


def time_left(timeout: float) -> float:
    """`timeout`, or less when a `deadline` block is shorter (never below a millisecond)."""
    until = _deadline.get()
    if until is None:
        return timeout
    return max(0.001, min(timeout, until - asyncio.get_running_loop().time()))


@dataclass(frozen=True, slots=True)
class TaskContextData:
    """Task context as the engine built it; `selected_memories` best first, not yet budgeted."""

    project_id: str
    user_id: str | None
    task_description: str
    generated_at: datetime
    has_relevant_memory: bool
    selected_memories: Sequence[SelectedMemory]
    total: int = 0
    """How many exist, including those the memory service's own budget left out."""


@dataclass(frozen=True, slots=True)
class UserStyleData:
    """The user-style view; `items` best first."""

    mode: ViewMode
    project_id: str
    user_id: str | None
    generated_at: datetime
    items: Sequence[UserStyleItem]
    total: int = 0
    """How many exist, including those the memory service's own budget left out."""


@dataclass(frozen=True, slots=True)
class ProjectBriefData:
    """The project brief; `key_facts` and `modules` each best first."""

    mode: ViewMode
    project_id: str
    generated_at: datetime
    modules: Sequence[ModuleSummary]
    key_facts: Sequence[str]
    total: int = 0
    """How many exist, including those the memory service's own budget left out."""
    key_fact_memory_ids: Sequence[str] = ()
    """The memory behind each of `key_facts`, in the same order, when the view named them."""
    module_memory_ids: Sequence[str] = ()
    """The memory behind each of `modules`, in the same order, when the view named them."""
    key_fact_contributors: Sequence[str] = ()
    """The teammate who contributed each of `key_facts`, in the same order, when a team server
    named them ("" when not known)."""
    team_facts: Mapping[str, str] = field(default_factory=dict)
    """The key facts the team's memory gave a joined laptop's merged brief, each with the
    teammate who contributed it ("" when not known): their lines carry the team's mark."""

    def memory_id_of(self, entry: str | ModuleSummary) -> str:
        """The memory a fact or module of this brief was rendered from ("" when not named)."""
        if isinstance(entry, str):
            pairs = zip(self.key_facts, self.key_fact_memory_ids, strict=False)
            return next((i for fact, i in pairs if fact == entry), "")
        named = zip(self.modules, self.module_memory_ids, strict=False)
        return next((i for module, i in named if module.name == entry.name), "")

    def contributor_of(self, fact: str) -> str:
        """The teammate a team server named for `fact` ("" when none)."""
        pairs = zip(self.key_facts, self.key_fact_contributors, strict=False)
        return next((name for said, name in pairs if said == fact), "")

    def mark_of(self, entry: str | ModuleSummary) -> str:
        """`(team: alice) ` before a key fact the team's memory gave, else ""."""
        if not isinstance(entry, str) or entry not in self.team_facts:
            return ""
        return f"{team_mark_text(True, self.team_facts[entry])} "


@dataclass(frozen=True, slots=True)
class PitfallsData:
    """The pitfalls view; `items` best first."""

    project_id: str
    generated_at: datetime
    has_relevant_pitfalls: bool
    items: Sequence[PitfallItem]
    total: int = 0
    """How many exist, including those the memory service's own budget left out."""
    memory_ids: Sequence[str] = ()
    """The memory behind each of `items`, in the same order, when the view named them."""


@dataclass(frozen=True, slots=True)
class SearchPage:
    """One page of search results, best first.

    `total` counts every match; `next_cursor` (opaque) continues after the last result of
    this page, or is None when there is nothing after it.
    """

    query: str
    results: Sequence[SearchResult]
    total: int
    next_cursor: str | None


@dataclass(frozen=True, slots=True)
class RememberOutcome:
    """A manual memory written: its id, the update decision taken, and its version now."""

    memory_id: str
    action: UpdateActionName
    version: int
    outcome: RememberOutcomeName = "added"
    """added, updated (the named key's memory changed), merged (the same memory as existing
    ones: `merged_ids`) or unchanged."""
    merged_ids: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ForgetOutcome:
    """A memory forgotten: `deleted` is False when it had already been deleted."""

    memory_id: str
    deleted: bool


class MemoryBackend(Protocol):
    """The memory engine as the gateway sees it.

    Every method raises a `squirrel_core.errors.SquirrelError` subclass for a failure the
    caller can act on (unknown project: `PermissionDeniedError`; unknown memory or cursor:
    `NotFoundError` / `InvalidArgumentError`; service down: `UnavailableError`). `budget`
    is a hint for how much to build; the gateway enforces it on what it returns.
    """

    async def resolve_project(self, path: str) -> str:
        """The project_id (absolute, resolved root) of the registered project holding `path`."""
        ...

    async def get_task_context(
        self,
        project_id: str,
        *,
        user_id: str | None,
        task_description: str,
        active_file_paths: Sequence[str],
        preferred_memory_types: Sequence[MemoryTypeName],
        budget: int,
        omit_sources_in: Sequence[str] = (),
    ) -> TaskContextData:
        """`omit_sources_in`: files the asking host loads itself (`CLAUDE.md`); memories read
        only from them are never selected."""
        ...

    async def get_user_style_view(
        self,
        project_id: str,
        *,
        user_id: str | None,
        mode: ViewMode,
        budget: int,
        omit_sources_in: Sequence[str] = (),
    ) -> UserStyleData:
        """`omit_sources_in`: files the asking host loads itself; instructions read only from
        them are left out."""
        ...

    async def get_project_brief_view(
        self,
        project_id: str,
        *,
        mode: ViewMode,
        budget: int,
        omit_sources_in: Sequence[str] = (),
        live_only: bool = False,
    ) -> ProjectBriefData:
        """`omit_sources_in`: files the asking host loads itself; facts read only from them
        are left out. `live_only`: what a session starts with, without the modules no session
        used yet."""
        ...

    async def get_pitfalls_view(
        self,
        project_id: str,
        *,
        scope_paths: Sequence[str],
        task_description: str | None,
        budget: int,
        live_only: bool = False,
    ) -> PitfallsData:
        """`live_only`: what a session starts with, without the pitfalls at rest."""
        ...

    async def search_memory(
        self,
        project_id: str,
        *,
        query: str,
        top_k: int,
        types: Sequence[MemoryTypeName],
        scope_paths: Sequence[str],
        cursor: str | None,
    ) -> SearchPage:
        """Up to `top_k` results after `cursor` (None: from the best match)."""
        ...

    async def remember(
        self,
        project_id: str,
        *,
        user_id: str | None,
        memory_type: MemoryTypeName,
        key: str | None,
        content: str,
        tags: Sequence[str],
        importance: float,
        file_paths: Sequence[str],
    ) -> RememberOutcome:
        """Store a manual memory (`source = manual`); `key` None lets the engine derive one."""
        ...

    async def forget(self, project_id: str, *, memory_id: str, reason: str | None) -> ForgetOutcome:
        """Mark a memory deleted (never erased: its history stays)."""
        ...
