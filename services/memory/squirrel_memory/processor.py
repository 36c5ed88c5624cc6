"""The processor: unprocessed events → episodes → candidates → Mem0-style decisions, on a timer."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime

import structlog

from squirrel_memory.candidate_decisions import decide_by_rules, decide_candidates
from squirrel_memory.embedding.base import Embedder
from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.base import Extractor
from squirrel_memory.extractors.disowned_tools import disowned_after
from squirrel_memory.extractors.echoes import echo_candidates
from squirrel_memory.extractors.evidence import EVIDENCE_TAG
from squirrel_memory.extractors.lifted_bans import lifted_after
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.housekeeping.consolidation import Consolidator
from squirrel_memory.models import (
    Episode,
    MemoryCandidate,
    MemorySource,
    StoredEvent,
)
from squirrel_memory.parking.failures import ExtractionFailures
from squirrel_memory.parking.letters import (
    EXTRACTION_LETTER,
    model_letter,
)
from squirrel_memory.parking.retry import ParkedRetry
from squirrel_memory.pass_report import Decide, PassReport
from squirrel_memory.pass_writes import PassWrites
from squirrel_memory.processor_settings import ProcessorSettings
from squirrel_memory.project_work import (
    ProjectWork,
    UserFindings,
    UserWork,
    project_candidates,
    user_candidates,
)
from squirrel_memory.recipe_join import join_candidates, retire_duplicates
from squirrel_memory.repository.sync import repository_memories
from squirrel_memory.session_readiness import SessionReadiness
from squirrel_memory.storage import Retirement, Store
from squirrel_memory.style_scope import merge_global_style
from squirrel_memory.user_memories.style_owner import owned_styles
from squirrel_memory.user_memories.userstore import UserStore

log = structlog.get_logger()

SESSION_CAP = 1000
"""Most events of one pass: the batch's sessions are taken whole, up to this many events."""


AfterSessions = Callable[[Store, Sequence[StoredEvent]], Awaitable[object]]
"""Runs after a pass is written, with its events."""


class Processor:
    """Runs passes for every open project; `wake()` asks for a pass before the timer.

    The rules extract every episode whatever the backend. An `extractor` that is not the rules
    is the model, which adds its own candidates: they are decided (by `decide`) against what the
    store holds once the rules' part is written, so a model memory may refine a rules memory (its
    earlier version kept in the history) and never retires one. A failing model parks only its
    own part of the episode; the rules' memories are written all the same."""

    def __init__(
        self,
        stores: Callable[[], Awaitable[list[Store]]],
        user_store: UserStore,
        extractor: Extractor,
        decide: Decide,
        *,
        user_id: str,
        settings: ProcessorSettings | None = None,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        consolidator: Consolidator | None = None,
        per_user: bool = False,
        rules: Extractor | None = None,
        after: AfterSessions | None = None,
        meaning: Embedder | None = None,
    ) -> None:
        self._consolidator = consolidator
        self._meaning = meaning
        """Tells an instruction said again in other words by its meaning (`recurrence`)."""
        self._after = after
        """Told of the events of every pass once they are written (served memories judged)."""
        self._stores = stores
        self._user_store = user_store
        self._model: Extractor | None = None if extractor.name == "rules" else extractor
        self._rules: Extractor = rules or (extractor if self._model is None else RulesExtractor())
        self._decide = decide
        """Decides the model's candidates; without a model, every candidate."""
        self._rules_decide: Decide = decide if self._model is None else decide_by_rules
        self._user_id = user_id
        self._per_user = per_user
        """A team server: each user's events are decided as that user's (their style is theirs);
        otherwise every event is this install's user's."""
        self._settings = settings or ProcessorSettings()
        self._clock = clock
        self.readiness = SessionReadiness(self._settings, clock, other_clocks=per_user)
        """When each waiting session is ready for a pass."""
        self._wake = asyncio.Event()
        self._stop = asyncio.Event()
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        #: Project-wide passes a drain put off until after its last batch, per project.
        self._deferred: dict[str, ProjectWork] = {}
        #: The passes over a user's messages a drain put off, per project and user (None: the
        #: one user of a laptop's project, whose are written with the project-wide ones).
        self._deferred_users: dict[str, dict[str | None, UserWork]] = {}
        self.last_processed_at: dict[str, datetime] = {}
        self._failures = ExtractionFailures(self._settings.retry_delays)
        self._writes = PassWrites(
            user_store=user_store,
            rules_decide=self._rules_decide,
            meaning=meaning,
            per_user=per_user,
        )
        """Decided candidates written outside a pass's own episodes."""
        self._parked = ParkedRetry(
            rules=self._rules,
            model=self._model,
            rules_decide=self._rules_decide,
            decide=self._decide,
            write_found=self._writes.found,
            park=self._failures.park,
            user_id=self._user_id,
            per_user=self._per_user,
            clock=self._clock,
        )

    @property
    def extractor_name(self) -> str:
        """The chosen backend: the model's, or `rules` when there is none."""
        return self._model.name if self._model is not None else self._rules.name

    @property
    def extraction_failures(self) -> int:
        """Extraction attempts that failed since start (each retry counts)."""
        return self._failures.count

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="processor")

    async def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def wake(self) -> None:
        self._wake.set()

    async def _run(self) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self._settings.interval_seconds)
            self._wake.clear()
            if self._stop.is_set():
                return
            try:
                for store in await self._stores():
                    await self.drain(store)
                    await self.retry_parked(store)
                    await self.consolidate(store)
            except Exception as exc:  # the loop must survive anything; the next pass retries
                log.error("processing_failed", error_type=type(exc).__name__, exc_info=exc)

    async def should_wake(self, store: Store, accepted: int = 0) -> bool:
        """Whether enough events wait for a pass; `accepted` new ones alone may tell (no read)."""
        if accepted >= self._settings.min_events:
            return True
        return await store.count_unprocessed(store.project_id) >= self._settings.min_events

    async def drain(self, store: Store, max_batches: int = 0, *, force: bool = False) -> PassReport:
        """Passes over `store` until nothing more is ready (or `max_batches` ran); `force`
        also takes sessions that are still active."""
        total = PassReport()
        batches = 0
        while not self._stop.is_set():
            report = await self.process_once(store, force=force, defer_project=True)
            total.add(report)
            batches += 1
            if report.events_processed == 0 or (max_batches and batches >= max_batches):
                break
        total.add(await self._deferred_project_pass(store))
        return total

    async def process_once(
        self, store: Store, *, force: bool = False, defer_project: bool = False
    ) -> PassReport:
        """One pass, written in one transaction: the oldest `batch_size` waiting events and the
        rest of their sessions (whole sessions make whole episodes). Sessions still active are
        held back unless `force`. `defer_project` leaves the project-wide evidence to the
        caller's `_deferred_project_pass` (a drain weighs it once, after its last batch)."""
        async with self._lock:
            started = time.perf_counter()
            project_id = store.project_id
            head = await store.fetch_unprocessed(project_id, self._settings.batch_size)
            if not head:
                return PassReport()
            sessions = list(dict.fromkeys(e.session_id for e in head))
            events = await store.fetch_unprocessed_of_sessions(project_id, sessions, SESSION_CAP)
            if not force:
                events = self.readiness.ready(events)
            return await self._process(store, events, started, defer_project=defer_project)

    async def process_sessions(self, store: Store, session_ids: Sequence[str]) -> PassReport:
        """Processes these sessions' waiting events now, active or not (their host said they
        ended); other sessions wait for their turn."""
        async with self._lock:
            started = time.perf_counter()
            events = await store.fetch_unprocessed_of_sessions(
                store.project_id, list(dict.fromkeys(session_ids)), SESSION_CAP
            )
            return await self._process(store, events, started)

    async def _process(
        self,
        store: Store,
        events: list[StoredEvent],
        started: float,
        *,
        defer_project: bool = False,
    ) -> PassReport:
        """Episodes, extraction and decisions for `events`, written in one transaction (one per
        user of the events on a team server)."""
        if not events:
            return PassReport()
        if not self._per_user:
            return await self._process_as(
                store, events, started, self._user_id, defer_project=defer_project
            )
        by_user: dict[str, list[StoredEvent]] = {}
        for event in events:
            by_user.setdefault(event.user_id or self._user_id, []).append(event)
        report = PassReport()
        for user, group in by_user.items():
            report.add(
                await self._process_as(store, group, started, user, defer_project=defer_project)
            )
        return report

    async def _process_as(
        self,
        store: Store,
        events: list[StoredEvent],
        started: float,
        user: str,
        *,
        defer_project: bool,
    ) -> PassReport:
        """`_process` for the events of one user."""
        project_id = store.project_id
        episodes = segment_episodes(events, now=self._clock())
        by_id = {e.id: e for e in events}
        candidates: list[MemoryCandidate] = []
        from_model: dict[str, list[MemoryCandidate]] = {}
        report = PassReport(events_processed=len(events), episodes_created=len(episodes))
        for episode in episodes:
            episode_events = [by_id[i] for i in episode.event_ids if i in by_id]
            try:
                extracted = await self._rules.extract(episode, episode_events)
            except Exception as exc:  # a bug in a rule: the whole episode waits, parked
                await self._failures.park(store, EXTRACTION_LETTER, episode, exc)
                report.dead_lettered += 1
                continue
            candidates.extend(owned_styles(extracted, self._writes.owner(user)))
            # The user's other sentences, to hear an instruction said again in words no rule reads.
            candidates.extend(
                owned_styles(echo_candidates(episode_events, episode.id), self._writes.owner(user))
            )
            if self._model is None:
                continue
            found = await self._failures.extract_with_retry(
                store, self._model, episode, episode_events
            )
            if found is None:
                report.dead_lettered += 1
            elif found:
                from_model[episode.id] = owned_styles(found, self._writes.owner(user))
        retirements: list[Retirement] = []
        if episodes:
            candidates, retirements = await self._project_candidates(
                store, candidates, events, episodes, user, defer=defer_project
            )
        candidates, joined = join_candidates(candidates, await repository_memories(store))
        decisions = [
            *joined,
            *await decide_candidates(
                store,
                candidates,
                user,
                self._rules_decide,
                self._meaning,
                owner=self._writes.owner(user),
            ),
        ]
        result = await store.apply_processing_result(
            episodes,
            decisions,
            [e.id for e in events],
            user_id=user,
            source=MemorySource.RULES,
            retirements=retirements,
        )
        report.memories_added = len(result.change.added)
        report.memories_updated = len(result.change.updated)
        report.memories_deleted = len(result.change.deleted)
        await merge_global_style(self._user_store, decisions, user, store.project_id)
        report.add(await self._write_model_part(store, episodes, from_model, user))
        report.memories_deleted += await retire_duplicates(store, user_id=user)
        if self._after is not None:
            try:
                await self._after(store, events)
            except Exception as exc:  # the pass is written; what follows it must not undo it
                log.error("after_processing_failed", error_type=type(exc).__name__, exc_info=exc)
        self.last_processed_at[project_id] = self._clock()
        log.info(
            "events_processed",
            project_id=project_id,
            events=len(events),
            episodes=len(episodes),
            added=report.memories_added,
            updated=report.memories_updated,
            deleted=report.memories_deleted,
            dead_lettered=report.dead_lettered,
            duration_ms=round((time.perf_counter() - started) * 1000, 1),
        )
        return report

    async def _project_candidates(
        self,
        store: Store,
        candidates: list[MemoryCandidate],
        events: list[StoredEvent],
        episodes: list[Episode],
        user: str,
        *,
        defer: bool,
    ) -> tuple[list[MemoryCandidate], list[Retirement]]:
        """The batch's candidates with the cross-session ones: recipes, habits and pitfalls
        weighed over every session (replacing the batch's own), failures paired with fix
        commits, and the requests and language of the batch's user over all their sessions;
        with what those retire. Deferred, they are only noted: a drain of a long backlog weighs
        them once at its end instead of re-reading the project's evidence after every batch."""
        latest = max(episodes, key=lambda ep: (ep.end_ts, ep.id))
        pending = ProjectWork.asked_by(events, latest)
        asked = UserWork.asked_by(events, latest)
        owner = self._writes.owner(user)
        earlier = self._deferred.pop(store.project_id, None)
        if earlier is not None:
            pending = pending.joined(earlier)
        earlier_asked = self._deferred_users.get(store.project_id, {}).pop(owner, None)
        if earlier_asked is not None:
            asked = asked.joined(earlier_asked)
        if pending.evidence:
            candidates = [c for c in candidates if EVIDENCE_TAG not in c.tags]
        if defer:
            self._deferred[store.project_id] = pending
            self._deferred_users.setdefault(store.project_id, {})[owner] = asked
            return candidates, []
        project = await project_candidates(store, pending)
        found = await user_candidates(store, asked, owner, candidates)
        if found.disowned:
            # A tool the user disowned in a later session of the batch, as the stored
            # memories of it are retired: the earlier sessions' candidates naming it go.
            when = {e.id: e.timestamp for e in events}
            candidates = [c for c in candidates if not disowned_after(c, found.disowned, when)]
        if found.lifted:
            # A ban the user lifted in a later message of the batch: its candidates go.
            when = {e.id: e.timestamp for e in events}
            candidates = [c for c in candidates if not lifted_after(c, found.lifted, when)]
        return candidates + project + found.candidates, found.retirements

    async def _write_model_part(
        self,
        store: Store,
        episodes: Sequence[Episode],
        found: dict[str, list[MemoryCandidate]],
        user: str,
    ) -> PassReport:
        """The model's candidates, decided against the store once the rules' part is written
        (their own transaction). If writing fails, each episode's model part is parked."""
        candidates = [c for episode in episodes for c in found.get(episode.id, [])]
        if not candidates:
            return PassReport()
        try:
            decisions = await decide_candidates(
                store, candidates, user, self._decide, self._meaning, owner=self._writes.owner(user)
            )
            result = await store.apply_processing_result(
                [], decisions, [], user_id=user, source=MemorySource.LLM
            )
        except Exception as exc:
            assert self._model is not None
            for episode in episodes:
                if episode.id in found:
                    await self._failures.park(store, model_letter(self._model.name), episode, exc)
            return PassReport(dead_lettered=len(found))
        await merge_global_style(self._user_store, decisions, user, store.project_id)
        return PassReport(
            memories_added=len(result.change.added),
            memories_updated=len(result.change.updated),
            memories_deleted=len(result.change.deleted),
        )

    async def _deferred_project_pass(self, store: Store) -> PassReport:
        """The cross-session candidates a drain put off, decided and written in one transaction
        (one more per user of a team server, each user's written as theirs)."""
        async with self._lock:
            pending = self._deferred.pop(store.project_id, None)
            asked = self._deferred_users.pop(store.project_id, {})
            report = PassReport()
            if pending is None and not asked:
                return report
            found = await project_candidates(store, pending) if pending is not None else []
            own = asked.pop(None, None)
            mine = await user_candidates(store, own, None) if own is not None else UserFindings()
            if found or own is not None:
                report.add(await self._writes.found_work(store, self._user_id, None, found, mine))
            for user, work in asked.items():
                assert user is not None
                theirs = await user_candidates(store, work, user)
                report.add(await self._writes.found_work(store, user, user, [], theirs))
            return report

    async def write_candidates(
        self, store: Store, candidates: Sequence[MemoryCandidate]
    ) -> PassReport:
        """Candidates found outside a pass (no episode, no events), decided against the store
        and written in one transaction, as a pass writes its own."""
        async with self._lock:
            return await self._writes.candidates(store, candidates, [], user=self._user_id)

    async def consolidate(self, store: Store, *, force: bool = False) -> PassReport:
        """The model backend's tidy-up of the project's memories, when due (or now with
        `force`); nothing without a model backend."""
        if self._consolidator is None:
            return PassReport()
        async with self._lock:
            done = await self._consolidator.run(store, force=force)
        return PassReport(
            memories_updated=done.kept + done.rewritten,
            memories_deleted=done.merged + done.retired,
        )

    async def retry_parked(self, store: Store, *, force: bool = False) -> PassReport:
        """Parked extraction tried again when its back-off has passed, or at once with `force`
        (`sqrl process`, the browser's retry button): see `ParkedRetry.retry_parked`."""
        async with self._lock:
            return await self._parked.retry_parked(store, force=force)
