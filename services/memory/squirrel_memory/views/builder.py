"""Builds one project's views (`Views`), served from their cache (`cache`) while fresh."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from squirrel_core.budget_limits import validate_budget
from squirrel_core.caller import team_user
from squirrel_core.errors import InvalidArgumentError
from squirrel_core.store_paths import ProjectPaths
from squirrel_core.tokens import estimate_tokens
from squirrel_memory.llm.read_prompts import Note
from squirrel_memory.loaded_sources import checked_files, without_loaded
from squirrel_memory.models import MemoryItem, MemoryType
from squirrel_memory.retrieval import Retriever, relevance_threshold
from squirrel_memory.storage import MemoryChange
from squirrel_memory.storage.checks import Clock, utc_now
from squirrel_memory.style_scope import for_project, retired_keys
from squirrel_memory.user_memories.confirmations import Injectable, unflagged
from squirrel_memory.user_memories.privacy import visible
from squirrel_memory.user_memories.userstore import UserStyleItem as GlobalStyleItem
from squirrel_memory.view_order import Weigh, brief_order, by_usefulness, stored_importance
from squirrel_memory.views.arguments import checked_mode, clean_paths, params_key, task_text
from squirrel_memory.views.blocks import (
    best_per_key,
    brief_modules,
    key_fact,
    merge_style,
    relevant_pitfalls,
)
from squirrel_memory.views.cache import ViewCache, ViewStore
from squirrel_memory.views.codec import (
    brief_from_json,
    decoded,
    pitfalls_from_json,
    style_from_json,
)
from squirrel_memory.views.core_style import core_style, said_again_first
from squirrel_memory.views.markdown import (
    author,
    file_list,
    module_line,
    one_line,
    pack,
    pitfall_line,
    report,
    written,
)
from squirrel_memory.views.models import (
    FACT_ITEMS,
    MODULE_ITEMS,
    PITFALL_ITEMS,
    STYLE_ITEMS,
    PitfallItem,
    PitfallsView,
    ProjectBriefView,
    UserStyleView,
    ViewName,
)
from squirrel_memory.views.start_modules import earns_a_start
from squirrel_memory.views.start_order import not_passed_over
from squirrel_memory.views.start_pitfalls import earns_the_start
from squirrel_memory.views.start_places import earns_a_place
from squirrel_memory.views.start_scope import of_the_project

if TYPE_CHECKING:
    from squirrel_memory.llm.read_writer import LlmWriter, ViewDraft


DEFAULT_BUDGET_TOKENS = 256
_LIST_LIMIT = 1000
_TITLES: dict[ViewName, str] = {
    ViewName.USER_STYLE: "the user's coding style (how they like code written and work done)",
    ViewName.PROJECT_BRIEF: "project brief (key facts and modules of this repository)",
    ViewName.PITFALLS: "known pitfalls (traps hit in this project and what fixed them)",
}


def _viewer() -> tuple[str, ...]:
    """The team user a view is built for, as part of its cache key: a view read as one user
    is never served to another, nor to the install's own caller (who sees every memory)."""
    user = team_user()
    # No user name holds a NUL: a team user's key never equals a local caller's.
    return () if user is None else ("\x00viewer", user)


class GlobalStyleSource(Protocol):
    """The global `user.db` style items (`SqliteUserStore` provides it)."""

    async def list_user_style(self, user_id: str) -> list[GlobalStyleItem]: ...


class Views:
    """Builds and caches one project's views. Call `close()` to stop listening to the store."""

    def __init__(
        self,
        store: ViewStore,
        *,
        user_store: GlobalStyleSource | None = None,
        retriever: Retriever | None = None,
        views_dir: Path | None = None,
        clock: Clock = utc_now,
        pitfall_min_relevance: float | None = None,
        writer: LlmWriter | None = None,
        injectable: Injectable = unflagged,
        weigh: Weigh = stored_importance,
        resting: Callable[[MemoryItem], bool] = lambda _: False,
        heeded: Callable[[MemoryItem], bool] = lambda _: False,
        passed_over: Callable[[MemoryItem], bool] = lambda _: False,
    ) -> None:
        """`resting`: whether a pitfall rests (`OutcomeBook.resting`), left out of the
        pitfalls a session starts with (`pitfalls(live_only=True)`), as a one-off is unless
        `heeded` (`OutcomeBook.heeded`: used or met again since; `earns_the_start`).
        `passed_over`: a fact served at many session starts and never used
        (`OutcomeBook.passed_over`), left out of the brief a session starts with
        (`views.start_order`)."""
        self._store = store
        self._passed_over = passed_over
        self._resting = resting
        self._heeded = heeded
        self._injectable = injectable
        self._weigh = weigh
        self._writer = writer
        self._user_store = user_store
        self._retriever = retriever
        folder = views_dir or ProjectPaths.for_project(store.project_id).views_dir
        self._cache = ViewCache(store, folder, clock)
        self._clock = clock
        self._pitfall_min_relevance = pitfall_min_relevance
        self._listening = True
        store.add_listener(self._on_memory_change)

    @property
    def project_id(self) -> str:
        """The project whose views these are."""
        return self._store.project_id

    def close(self) -> None:
        """Stop invalidating on memory changes (calling it again does nothing)."""
        if self._listening:
            self._listening = False
            self._store.remove_listener(self._on_memory_change)

    async def invalidate(self, names: Sequence[ViewName] = tuple(ViewName)) -> None:
        """Mark views stale now (their next read rebuilds them) and drop their cached files."""
        await self._cache.invalidate(names)

    async def _on_memory_change(self, change: MemoryChange) -> None:
        await self.invalidate()

    # -- user style ------------------------------------------------------------------------

    async def user_style(
        self,
        project_id: str,
        *,
        user_id: str | None = None,
        mode: str = "core",
        context_budget_tokens: int | None = None,
        omit_sources_in: Sequence[str] = (),
    ) -> UserStyleView:
        """Spec §5.2: this user's style, project memories refining the global `user.db` ones.

        Global items are merged only when `user_id` is given; user-scoped project memories of
        another user are left out, and so are instructions read only from `omit_sources_in`
        (the instruction files the asking host loads itself, with those they import): core
        mode never falls back to them.
        """
        self._check_project(project_id)
        view_mode = checked_mode(mode)
        budget = validate_budget(context_budget_tokens, DEFAULT_BUDGET_TOKENS)
        stored = await self._stored_global_style(user_id)
        globals_ = for_project(stored, self.project_id)
        omitted = checked_files(omit_sources_in)
        params = params_key(ViewName.USER_STYLE, view_mode, user_id, *omitted, *_viewer())
        extra = "|".join(f"{g.id}:{g.updated_at.isoformat()}" for g in globals_)
        cached, stamp = await self._cache.cached(ViewName.USER_STYLE, params, budget, extra)
        hit = decoded(style_from_json, cached)
        if hit is not None:
            return hit
        live = await self._live(MemoryType.USER_STYLE)
        # An item whose memory this project retired is not shown again from its global copy.
        globals_ = for_project(
            stored, self.project_id, {m.key for m in live}, await self._retired_style()
        )
        memories = without_loaded(live, omitted)
        if view_mode != "full":
            memories = core_style(memories)
        items = merge_style(memories, globals_, user_id, self._weigh)
        if view_mode != "full":
            items = said_again_first(items)
        limit = STYLE_ITEMS[1] if view_mode == "full" else STYLE_ITEMS[0]
        heading = "## User Coding Style"
        notes = [Note(i.key, "user_style", i.key, i.summary) for i in items[:limit]]
        draft = await self._draft(ViewName.USER_STYLE, heading, notes, budget)
        if draft is not None:
            items = [
                replace(i, summary=draft.summaries.get(i.key, i.summary)) if n < limit else i
                for n, i in enumerate(items)
            ]
        lines = [f"- {one_line(i.summary)}" for i in items[:limit]]
        empty = "No coding-style preferences are recorded yet."
        markdown, shown = written(draft, budget, len(lines)) or pack(heading, lines, budget, empty)
        view = UserStyleView(
            mode=view_mode,
            project_id=project_id,
            user_id=user_id,
            generated_at=self._clock(),
            token_estimate=estimate_tokens(markdown),
            items=tuple(items[:shown]),
            markdown=markdown,
            budget=report(budget, markdown, shown, len(items)),
            written_by=author(draft),
        )
        await self._cache.save(ViewName.USER_STYLE, params, stamp, budget, view)
        return view

    # -- project brief ---------------------------------------------------------------------

    async def project_brief(
        self,
        project_id: str,
        *,
        mode: str = "core",
        context_budget_tokens: int | None = None,
        omit_sources_in: Sequence[str] = (),
        live_only: bool = False,
    ) -> ProjectBriefView:
        """Spec §5.3: key facts ("Framework: FastAPI") and modules, from project facts; facts
        read only from `omit_sources_in` (the instruction files the asking host loads itself)
        are left out. `live_only` (what a session starts with): only the modules a session
        they were served to used (`heeded`, `views.start_modules`), without the facts served at
        many session starts and never used (`passed_over`, `views.start_order`), those said
        only of a test fixture's or a sample's folder (`views.start_scope`) and the placements
        no session they were served to used (`views.start_places`)."""
        self._check_project(project_id)
        view_mode = checked_mode(mode)
        budget = validate_budget(context_budget_tokens, DEFAULT_BUDGET_TOKENS)
        omitted = checked_files(omit_sources_in)
        # No path holds a NUL: the session start's brief never shares a cache with another.
        starting = ("\x00live",) if live_only else ()
        params = params_key(ViewName.PROJECT_BRIEF, view_mode, *omitted, *starting, *_viewer())
        cached, stamp = await self._cache.cached(ViewName.PROJECT_BRIEF, params, budget)
        hit = decoded(brief_from_json, cached)
        if hit is not None:
            return hit
        live = without_loaded(await self._live(MemoryType.PROJECT_FACT), omitted)
        facts = brief_order(best_per_key(live), self._weigh)
        if live_only:
            facts = of_the_project(not_passed_over(facts, self._passed_over))
            facts = [m for m in facts if earns_a_place(m, self._heeded)]
        full = view_mode == "full"
        fact_items = [m for m in facts if not m.key.startswith("module:")][: FACT_ITEMS[full]]
        key_facts = [key_fact(m) for m in fact_items]
        kept = [m for m in facts if earns_a_start(m, self._heeded)] if live_only else facts
        modules = brief_modules(kept, project_id)[: MODULE_ITEMS[full]]
        heading = "## Project Overview"
        notes = [Note(f"f{n}", "project_fact", "fact", f) for n, f in enumerate(key_facts)] + [
            Note(f"d{n}", "module", m.name, module_line(m)[2:]) for n, m in enumerate(modules)
        ]
        draft = await self._draft(ViewName.PROJECT_BRIEF, heading, notes, budget)
        if draft is not None:
            said = draft.summaries
            key_facts = [said.get(f"f{n}", f) for n, f in enumerate(key_facts)]
            modules = [
                replace(m, summary=said.get(f"d{n}", m.summary)) for n, m in enumerate(modules)
            ]
        lines = [f"- {one_line(f)}" for f in key_facts] + [module_line(m) for m in modules]
        empty = "No project facts are recorded yet."
        markdown, shown = written(draft, budget, len(lines)) or pack(heading, lines, budget, empty)
        facts_shown = min(shown, len(key_facts))
        view = ProjectBriefView(
            mode=view_mode,
            project_id=project_id,
            generated_at=self._clock(),
            token_estimate=estimate_tokens(markdown),
            modules=tuple(modules[: shown - facts_shown]),
            key_facts=tuple(key_facts[:facts_shown]),
            key_fact_ids=tuple(m.id for m in fact_items[:facts_shown]),
            markdown=markdown,
            budget=report(budget, markdown, shown, len(lines)),
            written_by=author(draft),
        )
        await self._cache.save(ViewName.PROJECT_BRIEF, params, stamp, budget, view)
        return view

    # -- pitfalls --------------------------------------------------------------------------

    async def pitfalls(
        self,
        project_id: str,
        *,
        scope_paths: Sequence[str] = (),
        task_description: str | None = None,
        context_budget_tokens: int | None = None,
        live_only: bool = False,
    ) -> PitfallsView:
        """Spec §5.4: pitfalls touching `scope_paths` or relevant to the task (all without them).

        A pitfall is relevant when one of its files is in a scope path, one of its tags names
        a part of a scope path, or (with a task and a retriever) its relevance to the task
        clears `pitfall_min_relevance` (by default the calibrated task-context threshold).
        `live_only` (what a session starts with): pitfalls at rest, and one-offs, are left out.
        """
        self._check_project(project_id)
        budget = validate_budget(context_budget_tokens, DEFAULT_BUDGET_TOKENS)
        scopes = clean_paths(scope_paths)
        task = task_text(task_description)
        # No path holds a NUL: the session start's view never shares a cache with another.
        live = ("\x00live",) if live_only else ()
        params = params_key(ViewName.PITFALLS, task, *sorted(scopes), *live, *_viewer())
        cached, stamp = await self._cache.cached(ViewName.PITFALLS, params, budget)
        hit = decoded(pitfalls_from_json, cached)
        if hit is not None:
            return hit
        memories = await self._live(MemoryType.PITFALL)
        if live_only:
            memories = [
                m for m in memories if not self._resting(m) and earns_the_start(m, self._heeded)
            ]
        if scopes or task:
            relevance = await self._task_relevance(project_id, task)
            chosen = relevant_pitfalls(memories, scopes, relevance, project_id)
        else:
            chosen = memories
        items = [
            PitfallItem(m.key, m.content, m.tags, m.importance, m.file_paths, m.id)
            for m in chosen[:PITFALL_ITEMS]
        ]
        heading = "## Known Pitfalls"
        notes = [
            Note(i.memory_id, "pitfall", i.key, i.content, file_list(i.file_paths)) for i in items
        ]
        draft = await self._draft(ViewName.PITFALLS, heading, notes, budget)
        said = draft.summaries if draft is not None else {}
        lines = [pitfall_line(i, said.get(i.memory_id)) for i in items]
        markdown, shown = written(draft, budget, len(lines)) or pack(
            heading, lines, budget, "No relevant pitfalls found."
        )
        view = PitfallsView(
            project_id=project_id,
            generated_at=self._clock(),
            token_estimate=estimate_tokens(markdown),
            has_relevant_pitfalls=bool(items),
            items=tuple(items[:shown]),
            markdown=markdown,
            budget=report(budget, markdown, shown, len(items)),
            written_by=author(draft),
        )
        await self._cache.save(ViewName.PITFALLS, params, stamp, budget, view)
        return view

    async def _task_relevance(self, project_id: str, task: str) -> dict[str, float]:
        if not task or self._retriever is None:
            return {}
        ranked, vector_used = await self._retriever.rank(
            project_id, task, types=[MemoryType.PITFALL]
        )
        threshold = self._pitfall_min_relevance
        if threshold is None:
            threshold = relevance_threshold(vector_used)
        return {s.item.id: s.score.total for s in ranked if s.relevance >= threshold}

    async def _draft(
        self, name: ViewName, heading: str, notes: list[Note], budget: int
    ) -> ViewDraft | None:
        """Claude's summaries and markdown for a view being rebuilt (None: keep the rules')."""
        if self._writer is None or not notes:
            return None
        return await self._writer.view(_TITLES[name], heading, notes, budget)

    # -- reads ------------------------------------------------------------------------------

    def _check_project(self, project_id: str) -> None:
        if project_id != self._store.project_id:
            raise InvalidArgumentError("project_id does not match this store")

    async def _stored_global_style(self, user_id: str | None) -> list[GlobalStyleItem]:
        """The user's global style items as stored (`style_scope.for_project` tells which hold
        in this project)."""
        if self._user_store is None or not user_id:
            return []
        return await self._user_store.list_user_style(user_id)

    async def _retired_style(self) -> set[str]:
        """The keys of user_style memories this project retired for the caller
        (`style_scope.retired_keys`)."""
        every, _ = await self._store.list_memories(
            self.project_id, [MemoryType.USER_STYLE], include_deleted=True, limit=_LIST_LIMIT
        )
        return retired_keys(every, team_user())

    async def _live(self, kind: MemoryType) -> list[MemoryItem]:
        """The newest live memories of `kind` the caller may see, read as theirs in the query
        (`visible_memories`): on a team server other users' styles never take the places of
        the caller's own, however many there are."""
        items = await self._store.visible_memories(
            self.project_id, kind, team_user(), limit=_LIST_LIMIT
        )
        live = self._injectable([m for m in items if visible(m)])
        return by_usefulness(live, self._weigh)
