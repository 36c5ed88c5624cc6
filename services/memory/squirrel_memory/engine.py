"""The memory engine: the use cases the servicer calls, over the stores, processor and retrieval."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import TYPE_CHECKING

import structlog

from squirrel_core.backend_choice import chosen_backend
from squirrel_core.caller import team_grant
from squirrel_core.errors import (
    InvalidArgumentError,
    NotFoundError,
)
from squirrel_core.events import Event, EventType, SourceCursor
from squirrel_core.home import HomeLayout
from squirrel_core.redaction import redact_value
from squirrel_core.settings import Settings
from squirrel_core.store_placement import location_of
from squirrel_core.team_listen import is_team_server
from squirrel_memory.embedding.base import Embedder
from squirrel_memory.extractors.base import Extractor
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.housekeeping.consolidation import Consolidator
from squirrel_memory.housekeeping.retention import Retention, RetentionSettings
from squirrel_memory.llm.base import LOCAL_BACKENDS, ToolCaller
from squirrel_memory.llm.factory import budget_for, build_caller
from squirrel_memory.llm.spending import LlmBudget
from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    UpdateDecision,
)
from squirrel_memory.outcomes.book import OutcomeBooks
from squirrel_memory.outcomes.judge import after_processing
from squirrel_memory.pass_report import Decide, PassReport
from squirrel_memory.processor import Processor
from squirrel_memory.processor_settings import ProcessorSettings
from squirrel_memory.registry import ProjectRegistry
from squirrel_memory.repository import RepositoryReader
from squirrel_memory.status import ExtractorActivity, ProjectStatus, project_status
from squirrel_memory.storage import (
    PostgresBackend,
    ProjectStores,
    Store,
    backend_from_settings,
)
from squirrel_memory.team.registry import TeamProjectRegistry
from squirrel_memory.updates import decide_update
from squirrel_memory.user_memories.handle_book import HandleBook
from squirrel_memory.user_memories.manual_writes import ManualWrites
from squirrel_memory.user_memories.memory_actions import MemoryActions
from squirrel_memory.user_memories.style_backfill import own_unowned_styles
from squirrel_memory.user_memories.userstore import SqliteUserStore
from squirrel_memory.views.change_marks import ChangeMarks

if TYPE_CHECKING:
    from squirrel_memory.storage.postgres.online import Progress

log = structlog.get_logger()

MAX_BATCH_EVENTS = 5_000


@dataclass
class AppendOutcome:
    accepted: int = 0
    duplicates: int = 0
    rejected: list[tuple[int, str]] = field(default_factory=list)
    redactions: int = 0


class MemoryEngine(MemoryActions):
    """Owns the registry of project stores, the global user store and the processor."""

    def __init__(self, settings: Settings, embedder: Embedder | None = None) -> None:
        self._settings = settings
        self._embedder = embedder
        """The read side's sentence model, also used to tell an instruction said again in
        other words (`recurrence`); None: word overlap alone."""
        self._layout = HomeLayout(settings.home)
        self.change_marks = ChangeMarks(self._layout.run)
        """Rewrites the home's change mark after memories change (`start_texts`)."""
        self.team_server = is_team_server(settings)
        """Serving a team: projects are team ids (no checkout here), events come from many users."""
        stores = ProjectStores(backend_from_settings(settings))
        self._backend = stores.backend
        self.registry: ProjectRegistry = (
            TeamProjectRegistry(self._layout, stores)
            if self.team_server
            else ProjectRegistry(
                self._layout, location_of(settings.str_("storage.location")), stores
            )
        )
        self._user_store: SqliteUserStore | None = None
        self.processor: Processor | None = None
        self.retention: Retention | None = None
        self.user_id = settings.user_id
        self.llm_budget: LlmBudget | None = None
        self.caller: ToolCaller | None = None
        """The LLM spending caps extraction uses (set by `start()` when Claude extracts)."""
        self.outcomes = OutcomeBooks(learn=settings.bool_("hooks.learn_from_outcomes"))
        """Each project's memory standings from the outcomes of served memories."""
        self.repository = RepositoryReader(self.user_id, enabled=not self.team_server)
        """Reads each registered repository's tracked files into facts and recipes."""
        self._handle_books: dict[str, HandleBook] = {}
        self.manual = ManualWrites(self.registry, lambda: self.user_store, self.user_id)
        """The user's own memories: `remember`, one or a batch."""

    # -- life ------------------------------------------------------------------------------------
    async def _watch_changes(self, store: Store) -> None:
        """Any change of the project's memories or of their standing rewrites the home's change
        mark, so a session-start text kept before it is not printed (`start_texts`)."""
        store.add_listener(lambda _change: self.change_marks.changed())
        (await self.outcomes.of(store)).on_change(self.change_marks.changed_async)

    def on_migration(self, progress: Progress) -> None:
        """`progress` is told how far a migration of the Postgres schema counted the memories
        while `start` opens the database (nothing on SQLite, whose migrations are quick)."""
        if isinstance(self._backend, PostgresBackend):
            self._backend.migrating = progress

    async def start(self) -> None:
        if isinstance(self._backend, PostgresBackend):
            # Every server checks the schema at start (migrating it, or refusing one newer
            # than it), not at its first project: an older server must not serve nothing.
            await self._backend.database()
        self._user_store = await SqliteUserStore.open(self._layout.root)
        self._user_store.on_change(self.change_marks.changed)
        self.registry.on_open(self._read_repository)
        if self.team_server:
            self.registry.on_open(self._own_unowned_styles)
        self.registry.on_open(self._watch_changes)
        await self.registry.open_all()
        extractor, decide = self._build_extractor()
        consolidator = (
            Consolidator(
                self.caller,
                interval=timedelta(hours=self._settings.float_("extractor.consolidate_hours")),
                user_id=self.user_id,
                ledger=self._layout.run / "llm-consolidation.json",
                per_user=self.team_server,
            )
            if self.caller is not None
            else None
        )
        self.processor = Processor(
            self.registry.open_stores,
            self._user_store,
            extractor,
            decide,
            user_id=self.user_id,
            settings=ProcessorSettings.from_settings(self._settings),
            consolidator=consolidator,
            per_user=self.team_server,
            after=functools.partial(after_processing, self.outcomes),
            meaning=self._embedder,
        )
        self.processor.start()
        self.retention = Retention(
            self.registry.open_stores, RetentionSettings.from_settings(self._settings)
        )
        self.retention.start()

    async def _read_repository(self, store: Store) -> None:
        self.repository.schedule(store)

    async def _own_unowned_styles(self, store: Store) -> None:
        """A team server's style memories from before style was owned, each handed to the
        one teammate who said it (`style_backfill`); never run on a laptop. A failure leaves
        them as they were (the next open tries again): the project still opens."""
        try:
            await own_unowned_styles(store, self.user_id)
        except Exception as exc:  # a project must open whatever this meets; next open retries
            log.warning(
                "unowned_styles_left", project_id=store.project_id, error=type(exc).__name__
            )

    async def close(self) -> None:
        await self.repository.close()
        for book in self._handle_books.values():
            book.close()
        self._handle_books.clear()
        if self.retention is not None:
            await self.retention.stop()
        if self.processor is not None:
            await self.processor.stop()
        await self.registry.close()
        if self._user_store is not None:
            await self._user_store.close()
        await self.change_marks.close()
        if self.caller is not None:
            await self.caller.close()

    def _build_extractor(self) -> tuple[Extractor, Decide]:
        backend = chosen_backend(self._settings)
        budget = budget_for(self._settings, backend)
        caller = build_caller(self._settings, budget)
        if caller is None:
            return RulesExtractor(), _rules_decide
        from squirrel_memory.extractors.llm import LlmExtractor  # noqa: PLC0415
        from squirrel_memory.updates.llm import LlmUpdateDecider  # noqa: PLC0415

        self.llm_budget = budget
        self.caller = caller
        return LlmExtractor(caller), LlmUpdateDecider(caller).decide

    @property
    def user_store(self) -> SqliteUserStore:
        if self._user_store is None:
            raise RuntimeError("engine not started")
        return self._user_store

    def _processor(self) -> Processor:
        if self.processor is None:
            raise RuntimeError("engine not started")
        return self.processor

    # -- events ----------------------------------------------------------------------------------
    async def append(
        self,
        project_id: str,
        user_id: str,
        decoded: Sequence[Event | str],
        cursors: Sequence[SourceCursor],
        *,
        redacted: bool = False,
    ) -> AppendOutcome:
        """Stores one batch (`decoded` items are events, or the reason they could not be read).

        Content is redacted first, unless `redacted` says this install's own ingest already
        redacted it with the same rules (`squirrel_core.redaction.ruleset`)."""
        if len(decoded) > MAX_BATCH_EVENTS:
            raise InvalidArgumentError(f"at most {MAX_BATCH_EVENTS} events per batch")
        store = await self.registry.store(project_id)
        outcome = AppendOutcome()
        events: list[Event] = []
        positions: list[int] = []
        for index, item in enumerate(decoded):
            if isinstance(item, str):
                outcome.rejected.append((index, item))
                continue
            if redacted:
                events.append(item)
            else:
                content, count = redact_value(item.content)
                outcome.redactions += count
                events.append(replace(item, content=content) if count else item)
            positions.append(index)
        result = await store.append_events(
            project_id, user_id or self.user_id, events, list(cursors)
        )
        outcome.accepted = result.accepted
        outcome.duplicates = result.duplicates
        outcome.rejected.extend((positions[i], reason) for i, reason in result.rejected)
        outcome.rejected.sort()
        if result.accepted and any(e.event_type == EventType.COMMIT for e in events):
            self.repository.schedule(store)
        processor = self._processor()
        if outcome.accepted and await processor.should_wake(store, outcome.accepted):
            processor.wake()
        return outcome

    async def cursors(self, project_ids: Sequence[str]) -> list[tuple[str, list[SourceCursor]]]:
        """The cursors of `project_ids`, or of every registered project the caller may read (a
        team token: those it is granted) whose folder is there (one deleted folder must not
        stall ingest for the rest); a named one that is gone is `NotFoundError`."""
        ids = list(project_ids)
        grant = team_grant()
        every = [pid for pid in self.registry.roots() if grant is None or grant.covers(pid)]
        found = []
        for project_id in ids or every:
            try:
                store = await self.registry.store(project_id)
            except NotFoundError:
                if ids:
                    raise
                log.warning("project_folder_gone", project_id=project_id)
                continue
            found.append((project_id, await store.get_cursors(project_id)))
        return found

    async def status(self, project_id: str) -> list[ProjectStatus]:
        """One project's status, or every project's the caller may read (a team token: those
        it is granted) whose folder is there."""
        grant = team_grant()
        if project_id:
            store = await self.registry.store(project_id)
            return [await project_status(project_id, store, self._processor())]
        ids = self.registry.roots()
        if grant is not None:
            ids = [pid for pid in ids if grant.covers(pid)]
        processor = self._processor()
        found = []
        for pid in ids:
            try:
                store = await self.registry.store(pid)
            except NotFoundError:  # its folder is gone: `sqrl doctor` says so
                continue
            found.append(await project_status(pid, store, processor))
        return found

    def extractor_activity(self) -> ExtractorActivity:
        """The model backend's recent use (zeros for `rules`)."""
        budget = self.llm_budget
        backend = chosen_backend(self._settings)
        return ExtractorActivity(
            backend=backend,
            model=self.caller.model if self.caller is not None else "",
            calls_last_hour=budget.calls_in_last_hour() if budget else 0,
            tokens_last_day=budget.tokens_in_last_day() if budget else 0,
            failures=self._processor().extraction_failures,
            sends_to_vendor=backend not in LOCAL_BACKENDS,
        )

    async def process_now(
        self,
        project_id: str,
        drain: bool,
        max_batches: int,
        session_ids: Sequence[str] = (),
        *,
        consolidate: bool = False,
    ) -> PassReport:
        processor = self._processor()
        if session_ids:
            if not project_id:
                raise InvalidArgumentError("session_ids need the project_id they belong to")
            store = await self.registry.store(project_id)
            return await processor.process_sessions(store, session_ids)
        ids = [project_id] if project_id else self.registry.roots()
        total = PassReport()
        for pid in ids:
            store = await self.registry.store(pid)
            total.add(await processor.retry_parked(store, force=True))
            read = await self.repository.refresh_logged(store)
            if read is not None:
                total.add(
                    PassReport(
                        memories_added=read.added,
                        memories_updated=read.updated,
                        memories_deleted=read.retired,
                    )
                )
            if drain:
                total.add(await processor.drain(store, max_batches, force=True))
            else:
                total.add(await processor.process_once(store, force=True))
            if consolidate:
                total.add(await processor.consolidate(store, force=True))
        return total


async def _rules_decide(candidate: MemoryCandidate, existing: list[MemoryItem]) -> UpdateDecision:
    return decide_update(candidate, existing)
