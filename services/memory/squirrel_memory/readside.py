"""The read side of the memory service: views, task context, search and the vector indexes.

When Claude extracts (the user chose the `anthropic` backend, and a key is set), it also
writes the task-context packs, view summaries and search reasons, under the same spending caps
as extraction; otherwise all of them are built deterministically.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from squirrel.v1 import memory_service_pb2 as pb
from squirrel.v1 import views_pb2
from squirrel_core.backend_choice import chosen_backend
from squirrel_core.caller import team_user
from squirrel_core.settings import Settings
from squirrel_core.store_paths import ProjectPaths
from squirrel_core.wire import timestamp_pb
from squirrel_memory import views as v
from squirrel_memory.convert import MEMORY_TYPES_PB, memory_types_from_pb
from squirrel_memory.embedding.base import Embedder
from squirrel_memory.embedding.minilm import MiniLmEmbedder
from squirrel_memory.engine import MemoryEngine
from squirrel_memory.indexer import ProjectIndexes
from squirrel_memory.llm.factory import budget_for
from squirrel_memory.llm.spending import LlmBudget
from squirrel_memory.retrieval import Retriever
from squirrel_memory.scoring import recency_days
from squirrel_memory.storage import Store
from squirrel_memory.task_context import TaskContext, TaskContextBuilder
from squirrel_memory.team.contributors import contributors
from squirrel_memory.user_memories.handle_book import HandleBook
from squirrel_memory.views.start_recipes import rests_at_start

if TYPE_CHECKING:
    from squirrel_memory.llm.read_writer import LlmWriter

"""`processor.extractor` values under which Claude is used (with a key)."""
WRITER_TIMEOUT_SECONDS = 8.0
"""A read waits at most this long for Claude before answering with the deterministic text."""
_MODES = {
    views_pb2.VIEW_MODE_UNSPECIFIED: "core",
    views_pb2.VIEW_MODE_CORE: "core",
    views_pb2.VIEW_MODE_FULL: "full",
}
_MODES_PB = {"core": views_pb2.VIEW_MODE_CORE, "full": views_pb2.VIEW_MODE_FULL}


@dataclass
class _Project:
    retriever: Retriever
    task_context: TaskContextBuilder
    views: v.Views
    handles: HandleBook


def _budget_pb(report: v.BudgetReport) -> views_pb2.BudgetReport:
    return views_pb2.BudgetReport(
        budget_tokens=report.budget_tokens,
        token_estimate=report.token_estimate,
        items_shown=report.items_shown,
        items_total=report.items_total,
        capped=report.capped,
    )


def _optional_budget(value: int) -> int | None:
    """0 means "the default" on the wire; anything else is validated by the view builders."""
    return None if value == 0 else value


class ReadSide:
    """Answers the retrieval RPCs: per project one retriever, task-context builder, view cache."""

    def __init__(
        self, engine: MemoryEngine, settings: Settings, embedder: Embedder | None = None
    ) -> None:
        self._engine = engine
        self._settings = settings
        self._embedder: Embedder = embedder or MiniLmEmbedder()
        self.indexes = ProjectIndexes(self._embedder)
        self._projects: dict[str, _Project] = {}
        self._lock = asyncio.Lock()
        self._writer: LlmWriter | None = None

    @property
    def writer(self) -> LlmWriter | None:
        """Claude as the writer of packs, views and reasons, when configured (after `start`)."""
        return self._writer

    @property
    def embedder_ready(self) -> bool:
        return self._embedder.ready

    async def start(self) -> None:
        """Starts loading the model in the background; lexical retrieval works meanwhile.
        Every store the engine opens gets its vector index attached at once, so memories
        written before the first query are indexed as they are written."""
        self._writer = build_llm_writer(self._settings, self._engine.llm_budget)
        self._embedder.start()
        for store in await self._engine.registry.open_stores():
            await self.indexes.attach(store)
        self._engine.registry.on_open(self._attach)

    async def _attach(self, store: Store) -> None:
        await self.indexes.attach(store)

    async def close(self) -> None:
        for project in self._projects.values():
            project.views.close()
        await self.indexes.close()
        if self._writer is not None:
            await self._writer.close()
        await self._embedder.close()

    async def forget_cached_views(self, project_id: str) -> None:
        """Drop the project's cached views (e.g. after a confirmation changes what they may use)."""
        project = await self._project(project_id)
        await project.views.invalidate()

    async def _project(self, project_id: str) -> _Project:
        async with self._lock:
            found = self._projects.get(project_id)
            if found is not None:
                return found
            store = await self._engine.registry.store(project_id)
            index = await self.indexes.attach(store)
            book = await self._engine.outcomes.of(store)
            writer = self._writer
            retriever = Retriever(
                store,
                embedder=self._embedder,
                index=index,
                writer=writer,
                catch_up=self.indexes.caught_up,
                importance=book.importance,
            )
            project = _Project(
                retriever=retriever,
                task_context=TaskContextBuilder(
                    retriever, writer=writer, injectable=book.injectable
                ),
                views=v.Views(
                    store,
                    user_store=self._engine.user_store,
                    retriever=retriever,
                    writer=writer,
                    views_dir=ProjectPaths(Path(project_id), store.store_dir).views_dir,
                    injectable=book.injectable,
                    weigh=book.importance,
                    resting=book.resting,
                    heeded=book.heeded,
                    passed_over=book.passed_over,
                ),
                handles=self._engine.handle_book(store),
            )
            book.on_change(project.views.invalidate)
            self._projects[project_id] = project
            return project

    async def _contributors(self, project_id: str, memory_ids: Sequence[str]) -> dict[str, str]:
        """Who contributed each memory, for a team caller (`team.contributors`); {} for a
        local one, without reading the store."""
        if team_user() is None or not memory_ids:
            return {}
        store = await self._engine.registry.store(project_id)
        return await contributors(store, memory_ids)

    # -- views -----------------------------------------------------------------------------------
    async def user_style_view(
        self, request: pb.GetUserStyleViewRequest
    ) -> pb.GetUserStyleViewResponse:
        project = await self._project(request.project_id)
        view = await project.views.user_style(
            request.project_id,
            user_id=request.user_id or self._engine.user_id,
            mode=_MODES.get(request.mode, "core"),
            context_budget_tokens=_optional_budget(request.context_budget_tokens),
            omit_sources_in=list(request.omit_sources_in),
        )
        return pb.GetUserStyleViewResponse(
            view=views_pb2.UserStyleView(
                mode=_MODES_PB[str(view.mode)],
                project_id=view.project_id,
                user_id=view.user_id or "",
                generated_at=timestamp_pb(view.generated_at),
                token_estimate=view.token_estimate,
                items=[
                    views_pb2.UserStyleItem(
                        key=i.key,
                        summary=i.summary,
                        tags=list(i.tags),
                        importance=i.importance,
                        last_updated_at=timestamp_pb(i.last_updated_at),
                        source_memory_ids=list(i.source_memory_ids),
                    )
                    for i in view.items
                ],
                markdown=view.markdown,
                budget=_budget_pb(view.budget),
            )
        )

    async def project_brief_view(
        self, request: pb.GetProjectBriefViewRequest
    ) -> pb.GetProjectBriefViewResponse:
        project = await self._project(request.project_id)
        view = await project.views.project_brief(
            request.project_id,
            mode=_MODES.get(request.mode, "core"),
            context_budget_tokens=_optional_budget(request.context_budget_tokens),
            omit_sources_in=list(request.omit_sources_in),
            live_only=request.live_only,
        )
        names = await self._contributors(request.project_id, view.key_fact_ids)
        return pb.GetProjectBriefViewResponse(
            view=views_pb2.ProjectBriefView(
                mode=_MODES_PB[str(view.mode)],
                project_id=view.project_id,
                generated_at=timestamp_pb(view.generated_at),
                token_estimate=view.token_estimate,
                modules=[
                    views_pb2.ProjectModule(
                        name=m.name, paths=list(m.paths), summary=m.summary, memory_id=m.memory_id
                    )
                    for m in view.modules
                ],
                key_facts=list(view.key_facts),
                key_fact_memory_ids=list(view.key_fact_ids),
                key_fact_contributors=[names.get(i, "") for i in view.key_fact_ids]
                if names
                else [],
                markdown=view.markdown,
                budget=_budget_pb(view.budget),
            )
        )

    async def pitfalls_view(self, request: pb.GetPitfallsViewRequest) -> pb.GetPitfallsViewResponse:
        project = await self._project(request.project_id)
        view = await project.views.pitfalls(
            request.project_id,
            scope_paths=list(request.scope_paths),
            task_description=request.task_description or None,
            context_budget_tokens=_optional_budget(request.context_budget_tokens),
            live_only=request.live_only,
        )
        names = await self._contributors(request.project_id, [i.memory_id for i in view.items])
        return pb.GetPitfallsViewResponse(
            view=views_pb2.PitfallsView(
                project_id=view.project_id,
                generated_at=timestamp_pb(view.generated_at),
                token_estimate=view.token_estimate,
                has_relevant_pitfalls=view.has_relevant_pitfalls,
                items=[
                    views_pb2.PitfallItem(
                        key=i.key,
                        content=i.content,
                        tags=list(i.tags),
                        importance=i.importance,
                        file_paths=list(i.file_paths),
                        memory_id=i.memory_id,
                        contributor=names.get(i.memory_id, ""),
                    )
                    for i in view.items
                ],
                markdown=view.markdown,
                budget=_budget_pb(view.budget),
            )
        )

    # -- task context and search -----------------------------------------------------------------
    async def task_context(self, request: pb.GetTaskContextRequest) -> pb.GetTaskContextResponse:
        project = await self._project(request.project_id)
        context = await project.task_context.build(
            request.project_id,
            request.task_description,
            user_id=request.user_id or self._engine.user_id,
            active_file_paths=list(request.active_file_paths),
            context_budget_tokens=_optional_budget(request.context_budget_tokens),
            preferred_memory_types=memory_types_from_pb(request.preferred_memory_types),
            omit_sources_in=list(request.omit_sources_in),
        )
        names = await self._contributors(
            request.project_id, [m.memory_id for m in context.selected_memories]
        )
        return pb.GetTaskContextResponse(context=_task_context_pb(context, names))

    async def search(self, request: pb.SearchMemoryRequest) -> pb.SearchMemoryResponse:
        project = await self._project(request.project_id)
        leave_out = (
            functools.partial(self._left_out, request)
            if request.leave_out_stale or request.leave_out_resting
            else None
        )
        page = await project.retriever.search_rows(
            request.project_id,
            request.query,
            request.top_k or 5,
            types=memory_types_from_pb(request.types),
            scope_paths=list(request.scope_paths),
            page_token=request.page_token or None,
            leave_out=leave_out,
        )
        rows = page.rows
        handles = await project.handles.handles([m.id for m, _, _ in rows]) if rows else {}
        names = await self._contributors(request.project_id, [m.id for m, _, _ in rows])
        response = pb.SearchMemoryResponse(
            query=page.query, total_count=page.total, next_page_token=page.next_page_token or ""
        )
        # Each result made in place in the response (`add`) straight from the page's rows.
        add = response.results.add
        now = page.now
        for item, score, reason in rows:
            result = add(
                memory_id=item.id,
                handle=handles.get(item.id, ""),
                type=MEMORY_TYPES_PB[item.type],
                key=item.key,
                content=item.content,
                tags=item.tags,
                importance=item.importance,
                recency_days=recency_days(item.updated_at, now),
                score=score,
                reason=reason,
                contributor=names.get(item.id, ""),
            )
            source = result.source
            source.SetInParent()  # present, as an empty `ResultSource` was before
            if item.source_episode_id:
                source.episode_ids.append(item.source_episode_id)
            if item.file_paths:
                source.file_paths.extend(item.file_paths)
            if item.source_refs:
                source.source_refs.extend(item.source_refs)
        return response

    async def _left_out(self, request: pb.SearchMemoryRequest, ids: list[str]) -> set[str]:
        """Of a page's `ids`, those the request leaves out: contradicted (stale) memories and
        memories resting at the session start, as asked."""
        store = await self._engine.registry.store(request.project_id)
        book = await self._engine.outcomes.of(store)
        shown = set(ids)
        flagged = set(book.contradicted_ids()) & shown if request.leave_out_stale else set()
        resting = (
            {i for i in shown if book.may_rest_at_start(i)} if request.leave_out_resting else set()
        )
        if not (flagged or resting):  # read only the memories that may be left out (usually none)
            return set()
        items = await store.get_memories(sorted(flagged | resting))
        return book.stale_ids([m for m in items if m.id in flagged]) | {
            m.id for m in items if m.id in resting and rests_at_start(m, book)
        }

    async def reindex(self, request: pb.ReindexRequest) -> pb.ReindexResponse:
        loop = asyncio.get_running_loop()
        started = loop.time()
        store = await self._engine.registry.store(request.project_id)
        await self._project(request.project_id)
        count = await self.indexes.rebuild(store)
        return pb.ReindexResponse(
            memories_indexed=count, duration_ms=round((loop.time() - started) * 1000)
        )


def build_llm_writer(settings: Settings, budget: LlmBudget | None = None) -> LlmWriter | None:
    """Claude as the read side's writer when the extractor backend is `anthropic`, else None
    (CLI and local backends answer too slowly for a read, so the deterministic text is used).
    `budget` is extraction's, to share its caps; without one a budget is made from the same
    settings."""
    key = settings.anthropic_api_key
    if not key or chosen_backend(settings) != "anthropic":
        return None
    import anthropic  # noqa: PLC0415 - only loaded when an API key is configured

    from squirrel_memory.llm.anthropic_caller import AnthropicCaller  # noqa: PLC0415
    from squirrel_memory.llm.read_writer import LlmWriter  # noqa: PLC0415

    client = anthropic.AsyncAnthropic(
        api_key=key,
        base_url=settings.str_("anthropic.base_url") or None,
        max_retries=0,
        timeout=WRITER_TIMEOUT_SECONDS,
    )
    caller = AnthropicCaller(
        client,
        model=settings.str_("anthropic.model"),
        budget=budget or budget_for(settings, "anthropic"),
    )
    return LlmWriter(caller, timeout_seconds=WRITER_TIMEOUT_SECONDS)


def _task_context_pb(context: TaskContext, names: dict[str, str]) -> views_pb2.TaskContext:
    return views_pb2.TaskContext(
        project_id=context.project_id,
        user_id=context.user_id or "",
        task_description=context.task_description,
        generated_at=timestamp_pb(context.generated_at),
        token_estimate=context.token_estimate,
        has_relevant_memory=context.has_relevant_memory,
        selected_memories=[
            views_pb2.SelectedMemory(
                memory_id=m.memory_id,
                type=MEMORY_TYPES_PB[m.type],
                key=m.key,
                content=m.content,
                importance=m.importance,
                reason=m.reason,
                score=m.score,
                source_refs=list(m.source_refs),
                contributor=names.get(m.memory_id, ""),
            )
            for m in context.selected_memories
        ],
        markdown=context.markdown,
        budget=views_pb2.BudgetReport(
            budget_tokens=context.budget_tokens,
            token_estimate=context.token_estimate,
            items_shown=len(context.selected_memories),
            items_total=context.items_total,
            capped=context.capped,
        ),
    )
