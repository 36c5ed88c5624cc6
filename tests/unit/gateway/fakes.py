"""An in-memory MemoryBackend for tool-layer tests: canned data, real project-root checks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from squirrel_core.errors import NotFoundError
from squirrel_core.read_shapes import MemoryTypeName
from squirrel_gateway.backend import (
    ForgetOutcome,
    PitfallsData,
    ProjectBriefData,
    RememberOutcome,
    SearchPage,
    TaskContextData,
    UserStyleData,
)
from squirrel_gateway.projects import normalise_project_root
from squirrel_gateway.schemas import (
    ModuleSummary,
    PitfallItem,
    SearchResult,
    SearchSource,
    SelectedMemory,
    UserStyleItem,
    ViewMode,
)

GENERATED_AT = datetime(2025, 11, 25, 10, 21, tzinfo=UTC)


@dataclass
class Call:
    """One recorded backend call: method name and keyword arguments."""

    method: str
    args: dict[str, object]


@dataclass
class FakeBackend:
    """Serves whatever lists the test puts in it, best first, and records every call.

    `fail_with` makes every data method raise that exception (to test error mapping).
    """

    roots: list[str]
    selected: list[SelectedMemory] = field(default_factory=list)
    has_relevant_memory: bool = True
    style_items: list[UserStyleItem] = field(default_factory=list)
    key_facts: list[str] = field(default_factory=list)
    modules: list[ModuleSummary] = field(default_factory=list)
    brief_memory_ids: list[str] = field(default_factory=list)
    """The memory behind each of `key_facts`, then each of `modules` (none: not named)."""
    pitfalls: list[PitfallItem] = field(default_factory=list)
    pitfalls_total: int = 0  # how many the memory service says exist (0: as many as listed)
    search_results: list[SearchResult] = field(default_factory=list)
    abstains_on: set[str] = field(default_factory=set)
    """Queries the search answers with nothing (as a real search abstains below its floor)."""
    forgotten: set[str] = field(default_factory=set)
    fail_with: BaseException | None = None
    calls: list[Call] = field(default_factory=list)

    def _record(self, method: str, **args: object) -> None:
        self.calls.append(Call(method, args))
        if self.fail_with is not None:
            raise self.fail_with

    async def resolve_project(self, path: str) -> str:
        self.calls.append(Call("resolve_project", {"path": path}))
        return normalise_project_root(path, self.roots)

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
        self._record(
            "get_task_context",
            omit_sources_in=tuple(omit_sources_in),
            project_id=project_id,
            active_file_paths=tuple(active_file_paths),
            preferred_memory_types=tuple(preferred_memory_types),
            budget=budget,
        )
        chosen = [m for m in self.selected if m.type in preferred_memory_types]
        return TaskContextData(
            project_id=project_id,
            user_id=user_id,
            task_description=task_description,
            generated_at=GENERATED_AT,
            has_relevant_memory=self.has_relevant_memory and bool(chosen),
            selected_memories=chosen if self.has_relevant_memory else [],
        )

    async def get_user_style_view(
        self,
        project_id: str,
        *,
        user_id: str | None,
        mode: ViewMode,
        budget: int,
        omit_sources_in: Sequence[str] = (),
    ) -> UserStyleData:
        self._record(
            "get_user_style_view",
            project_id=project_id,
            mode=mode,
            budget=budget,
            omit_sources_in=tuple(omit_sources_in),
        )
        return UserStyleData(
            mode=mode,
            project_id=project_id,
            user_id=user_id,
            generated_at=GENERATED_AT,
            items=list(self.style_items),
        )

    async def get_project_brief_view(
        self,
        project_id: str,
        *,
        mode: ViewMode,
        budget: int,
        omit_sources_in: Sequence[str] = (),
        live_only: bool = False,
    ) -> ProjectBriefData:
        self._record(
            "get_project_brief_view",
            project_id=project_id,
            mode=mode,
            budget=budget,
            omit_sources_in=tuple(omit_sources_in),
            live_only=live_only,
        )
        return ProjectBriefData(
            mode=mode,
            project_id=project_id,
            generated_at=GENERATED_AT,
            modules=list(self.modules),
            key_facts=list(self.key_facts),
            key_fact_memory_ids=self.brief_memory_ids[: len(self.key_facts)],
            module_memory_ids=self.brief_memory_ids[len(self.key_facts) :],
        )

    async def get_pitfalls_view(
        self,
        project_id: str,
        *,
        scope_paths: Sequence[str],
        task_description: str | None,
        budget: int,
        live_only: bool = False,
    ) -> PitfallsData:
        self._record(
            "get_pitfalls_view",
            project_id=project_id,
            scope_paths=tuple(scope_paths),
            task_description=task_description,
            budget=budget,
            live_only=live_only,
        )
        return PitfallsData(
            project_id=project_id,
            generated_at=GENERATED_AT,
            has_relevant_pitfalls=bool(self.pitfalls),
            items=list(self.pitfalls),
            total=self.pitfalls_total,
        )

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
        self._record(
            "search_memory",
            project_id=project_id,
            query=query,
            top_k=top_k,
            types=tuple(types),
            scope_paths=tuple(scope_paths),
            cursor=cursor,
        )
        matches = [
            r for r in self.search_results if r.type in types and query not in self.abstains_on
        ]
        start = 0
        if cursor is not None:
            if not cursor.startswith("offset:") or not cursor[7:].isdigit():
                raise NotFoundError("unknown cursor")
            start = int(cursor[7:])
        page = matches[start : start + top_k]
        end = start + len(page)
        return SearchPage(
            query=query,
            results=page,
            total=len(matches),
            next_cursor=f"offset:{end}" if end < len(matches) else None,
        )

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
        self._record(
            "remember",
            project_id=project_id,
            memory_type=memory_type,
            key=key,
            content=content,
            tags=tuple(tags),
            importance=importance,
            file_paths=tuple(file_paths),
        )
        return RememberOutcome(memory_id=f"mem_{len(self.calls)}", action="ADD_NEW", version=1)

    async def forget(self, project_id: str, *, memory_id: str, reason: str | None) -> ForgetOutcome:
        self._record("forget", project_id=project_id, memory_id=memory_id, reason=reason)
        if not memory_id.startswith("mem_"):
            raise NotFoundError(f"No memory {memory_id} in this project.")
        already = memory_id in self.forgotten
        self.forgotten.add(memory_id)
        return ForgetOutcome(memory_id=memory_id, deleted=not already)


def selected(
    n: int, *, content: str = "Prefers async/await for I/O-bound handlers."
) -> SelectedMemory:
    """A selected memory numbered `n`."""
    return SelectedMemory(
        memory_id=f"mem_{n}",
        type="user_style",
        key=f"pref_{n}",
        content=f"{content} ({n})",
        importance=0.9,
        reason="The task adds an HTTP endpoint.",
    )


def search_hit(n: int, *, content: str = "Auth uses JWT tokens via /login.") -> SearchResult:
    """A search result numbered `n` (scores fall with n)."""
    return SearchResult(
        memory_id=f"mem_{n}",
        type="project_fact",
        key=f"fact_{n}",
        content=f"{content} ({n})",
        tags=["auth"],
        importance=0.8,
        recency_days=n,
        score=round(1.0 - n / 1000, 3),
        reason="Mentions JWT, as the query does.",
        source=SearchSource(episode_ids=[f"ep_{n}"], file_paths=["src/auth.py"]),
    )


def style_item(n: int) -> UserStyleItem:
    """A user-style item numbered `n`."""
    return UserStyleItem(
        key=f"style_{n}",
        summary=f"Uses pytest fixtures for setup, never unittest classes ({n}).",
        tags=["python", "testing"],
        importance=0.8,
        last_updated_at=GENERATED_AT,
        source_memory_ids=[f"mem_{n}"],
    )


def pitfall(n: int) -> PitfallItem:
    """A pitfall numbered `n`."""
    return PitfallItem(
        key=f"pitfall_{n}",
        content=f"JWT tokens expire after 1 hour; refresh logic needed ({n}).",
        tags=["auth"],
        importance=0.8,
        file_paths=["src/auth.py"],
    )
