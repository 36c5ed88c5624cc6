"""The processor: unprocessed events → episodes → candidates → Mem0-style decisions, on a timer."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta

import structlog

from squirrel_core.settings import Settings
from squirrel_memory.consolidation import Consolidator
from squirrel_memory.episodes import DEFAULT_GAP, segment_episodes
from squirrel_memory.extractors.base import ExtractionError, Extractor
from squirrel_memory.extractors.evidence import EVIDENCE_TAG
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.manual import LOOKALIKE_LIMIT, WordScreen, manual_lookalikes
from squirrel_memory.models import (
    Episode,
    MemoryCandidate,
    MemoryItem,
    MemorySource,
    MemoryType,
    Scope,
    StoredEvent,
    UpdateAction,
    UpdateDecision,
    writer_source,
)
from squirrel_memory.parked_retry import ParkedRetry
from squirrel_memory.parking import EXTRACTION_LETTER, model_letter, parked_ref
from squirrel_memory.pass_report import Decide, PassReport
from squirrel_memory.project_work import ProjectWork, project_candidates
from squirrel_memory.recipe_join import join_candidates, retire_duplicates
from squirrel_memory.recurrence import (
    align_with_stored,
    decide_recurrence,
    is_tentative,
    merge_pair,
    unify_keys,
)
from squirrel_memory.repository.sync import repository_memories
from squirrel_memory.storage import Store
from squirrel_memory.storage.base import FindAnchor, FindLookalikes
from squirrel_memory.style_scope import with_project
from squirrel_memory.updates import decide_update
from squirrel_memory.updates.writers import spare_rules_memory
from squirrel_memory.userstore import UserStore

log = structlog.get_logger()

RETRY_DELAYS_SECONDS = (1.0, 4.0, 15.0)
SESSION_CAP = 1000
"""Most events of one pass: the batch's sessions are taken whole, up to this many events."""
MAX_HOLD = timedelta(hours=2)
"""A session still active is held back (its episode is not over) for at most this long."""
STYLE_LIMIT = 500
"""Stored user_style memories an instruction said again in other words is compared with."""


@dataclass
class ProcessorSettings:
    """Cadence of processing (spec §4.2: every 30 s or at ≥ 20 waiting events, 200 at a time)."""

    interval_seconds: float = 30.0
    min_events: int = 20
    batch_size: int = 200
    session_idle_seconds: float = 180.0
    """A session idle this long is finished for now and processed (at most the episode gap)."""
    retry_delays: Sequence[float] = field(default_factory=lambda: RETRY_DELAYS_SECONDS)

    @classmethod
    def from_settings(cls, settings: Settings) -> ProcessorSettings:
        """The `processor.*` settings (retry delays keep their default)."""
        return cls(
            interval_seconds=settings.float_("processor.interval_seconds"),
            min_events=settings.int_("processor.min_events"),
            batch_size=settings.int_("processor.batch_size"),
            session_idle_seconds=settings.float_("processor.session_idle_seconds"),
        )


def merge_candidates(candidates: Sequence[MemoryCandidate]) -> list[MemoryCandidate]:
    """One candidate per anchor (type, key, scope) within a batch: the most important wins,
    evidence (event ids, paths, tags) is pooled, so two episodes cannot both ADD the same key.
    A tentative instruction repeated by another episode, in the same words or others, is
    promoted (`recurrence`)."""
    merged: dict[tuple[str, str, str], MemoryCandidate] = {}
    for cand in unify_keys(candidates):
        anchor = (cand.type.value, cand.key, cand.scope.value)
        best = merged.get(anchor)
        if best is None:
            merged[anchor] = cand
            continue
        if (recurring := merge_pair(best, cand)) is not None:
            merged[anchor] = recurring
            continue
        winner, other = (cand, best) if cand.importance > best.importance else (best, cand)
        merged[anchor] = replace(
            winner,
            source_event_ids=tuple(
                dict.fromkeys((*winner.source_event_ids, *other.source_event_ids))
            ),
            file_paths=tuple(dict.fromkeys((*winner.file_paths, *other.file_paths))),
            source_refs=tuple(dict.fromkeys((*winner.source_refs, *other.source_refs))),
            tags=tuple(dict.fromkeys((*winner.tags, *other.tags))),
        )
    return list(merged.values())


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
    ) -> None:
        self._consolidator = consolidator
        self._after = after
        """Told of the events of every pass once they are written (served memories judged)."""
        self._stores = stores
        self._user_store = user_store
        self._model: Extractor | None = None if extractor.name == "rules" else extractor
        self._rules: Extractor = rules or (extractor if self._model is None else RulesExtractor())
        self._decide = decide
        """Decides the model's candidates; without a model, every candidate."""
        self._rules_decide: Decide = decide if self._model is None else _decide_by_rules
        self._user_id = user_id
        self._per_user = per_user
        """A team server: each user's events are decided as that user's (their style is theirs);
        otherwise every event is this install's user's."""
        self._settings = settings or ProcessorSettings()
        self._clock = clock
        self._wake = asyncio.Event()
        self._stop = asyncio.Event()
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        #: Project-wide passes a drain put off until after its last batch, per project.
        self._deferred: dict[str, ProjectWork] = {}
        self.last_processed_at: dict[str, datetime] = {}
        self.extraction_failures = 0
        """Extraction attempts that failed since start (each retry counts)."""
        self._parked = ParkedRetry(
            rules=self._rules,
            model=self._model,
            rules_decide=self._rules_decide,
            decide=self._decide,
            write_found=self._write_found,
            park=self._park,
            user_id=self._user_id,
            per_user=self._per_user,
            clock=self._clock,
        )

    @property
    def extractor_name(self) -> str:
        """The chosen backend: the model's, or `rules` when there is none."""
        return self._model.name if self._model is not None else self._rules.name

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

    def ready_at(self, first: datetime, last: datetime) -> datetime:
        """When a session whose waiting events span `first`..`last` is processed: once it has
        been idle `session_idle_seconds` (capped at the episode gap), or held `MAX_HOLD`."""
        idle = min(timedelta(seconds=self._settings.session_idle_seconds), DEFAULT_GAP)
        return min(last + idle, first + MAX_HOLD)

    def _ready(self, events: list[StoredEvent]) -> list[StoredEvent]:
        """Events of sessions that are finished for now (see `ready_at`)."""
        now = self._clock()
        spans: dict[str | None, tuple[datetime, datetime]] = {}
        for event in events:
            first, last = spans.get(event.session_id, (event.timestamp, event.timestamp))
            spans[event.session_id] = (min(first, event.timestamp), max(last, event.timestamp))
        ready = {
            session for session, (first, last) in spans.items() if self.ready_at(first, last) <= now
        }
        return [e for e in events if e.session_id in ready]

    async def next_processing_at(self, store: Store) -> datetime | None:
        """The latest time the events waiting now will have been processed (None: none wait):
        the first pass after their sessions are ready, passes running every `interval_seconds`."""
        spans = await store.waiting_sessions(store.project_id)
        if not spans:
            return None
        ready = min(self.ready_at(first, last) for first, last in spans)
        return max(ready, self._clock()) + timedelta(seconds=self._settings.interval_seconds)

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
                events = self._ready(events)
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
                candidates.extend(await self._rules.extract(episode, episode_events))
            except Exception as exc:  # a bug in a rule: the whole episode waits, parked
                await self._park(store, EXTRACTION_LETTER, episode, exc)
                report.dead_lettered += 1
                continue
            if self._model is None:
                continue
            found = await self._extract_with_retry(store, self._model, episode, episode_events)
            if found is None:
                report.dead_lettered += 1
            elif found:
                from_model[episode.id] = found
        if episodes:
            candidates = await self._project_candidates(
                store, candidates, events, episodes, defer=defer_project
            )
        candidates, joined = join_candidates(candidates, await repository_memories(store))
        decisions = [*joined, *await self._decisions(store, candidates, user, self._rules_decide)]
        result = await store.apply_processing_result(
            episodes,
            decisions,
            [e.id for e in events],
            user_id=user,
            source=MemorySource.RULES,
        )
        report.memories_added = len(result.change.added)
        report.memories_updated = len(result.change.updated)
        report.memories_deleted = len(result.change.deleted)
        await self._merge_global_style(decisions, user, store.project_id)
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
        *,
        defer: bool,
    ) -> list[MemoryCandidate]:
        """The batch's candidates with the project-wide ones: recipes, habits and pitfalls
        weighed over every session (replacing the batch's own), and failures paired with fix
        commits. Deferred, they are only noted: a drain of a long backlog weighs them once at
        its end instead of re-reading the project's evidence after every batch."""
        latest = max(episodes, key=lambda ep: (ep.end_ts, ep.id))
        pending = ProjectWork.asked_by(events, latest)
        earlier = self._deferred.pop(store.project_id, None)
        if earlier is not None:
            pending = pending.joined(earlier)
        if pending.evidence:
            candidates = [c for c in candidates if EVIDENCE_TAG not in c.tags]
        if defer:
            self._deferred[store.project_id] = pending
            return candidates
        return candidates + await project_candidates(store, pending)

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
            decisions = await self._decisions(store, candidates, user, self._decide)
            result = await store.apply_processing_result(
                [], decisions, [], user_id=user, source=MemorySource.LLM
            )
        except Exception as exc:
            assert self._model is not None
            for episode in episodes:
                if episode.id in found:
                    await self._park(store, model_letter(self._model.name), episode, exc)
            return PassReport(dead_lettered=len(found))
        await self._merge_global_style(decisions, user, store.project_id)
        return PassReport(
            memories_added=len(result.change.added),
            memories_updated=len(result.change.updated),
            memories_deleted=len(result.change.deleted),
        )

    async def _deferred_project_pass(self, store: Store) -> PassReport:
        """The project-wide candidates a drain put off, decided and written in one transaction."""
        async with self._lock:
            pending = self._deferred.pop(store.project_id, None)
            if pending is None:
                return PassReport()
            candidates, joined = join_candidates(
                await project_candidates(store, pending), await repository_memories(store)
            )
            return await self._write_candidates(store, candidates, joined)

    async def write_candidates(
        self, store: Store, candidates: Sequence[MemoryCandidate]
    ) -> PassReport:
        """Candidates found outside a pass (no episode, no events), decided against the store
        and written in one transaction, as a pass writes its own."""
        async with self._lock:
            return await self._write_candidates(store, candidates, [])

    async def _write_candidates(
        self,
        store: Store,
        candidates: Sequence[MemoryCandidate],
        joined: Sequence[UpdateDecision],
    ) -> PassReport:
        decisions = [
            *joined,
            *await self._decisions(store, candidates, self._user_id, self._rules_decide),
        ]
        if not decisions:
            return PassReport()
        result = await store.apply_processing_result(
            [], decisions, [], user_id=self._user_id, source=MemorySource.RULES
        )
        await self._merge_global_style(decisions, self._user_id, store.project_id)
        retired = await retire_duplicates(store, user_id=self._user_id)
        return PassReport(
            memories_added=len(result.change.added),
            memories_updated=len(result.change.updated),
            memories_deleted=len(result.change.deleted) + retired,
        )

    async def _decisions(
        self, store: Store, candidates: Sequence[MemoryCandidate], user: str, decide: Decide
    ) -> list[UpdateDecision]:
        """One Mem0-style decision per merged candidate against what the store holds (a
        model's candidate never retires a rules memory: see `spare_rules_memory`)."""
        project_id = store.project_id
        decisions: list[UpdateDecision] = []
        merged = merge_candidates(candidates)
        if any(c.type is MemoryType.USER_STYLE for c in merged):
            # An instruction said again in other words is filed under the stored one's key.
            stored, _ = await store.list_memories(
                project_id, [MemoryType.USER_STYLE], limit=STYLE_LIMIT
            )
            merged = merge_candidates(align_with_stored(merged, stored))
        # The look-alike search below finds manual memories only: without any, it is skipped,
        # and it runs only for candidates the words of the manual memories do not rule out.
        manual = bool(merged) and (await store.writer_counts()).get(str(MemorySource.MANUAL), 0) > 0
        screen = WordScreen()
        # Every candidate's anchor in one read (the decisions are written together at the end).
        anchored = await store.find_anchors(
            project_id, [FindAnchor(c.type, c.key, c.scope, user) for c in merged]
        )
        for cand, existing in zip(merged, anchored, strict=True):
            if manual and not screen.knows(cand.type, 0):  # the manual memories, for this pass
                texts = await store.memory_texts(project_id, cand.type, MemorySource.MANUAL)
                screen.learn(cand.type, 0, [(i, text, True) for i, text in texts])
            # A manual memory saying the same thing under another key: NOOP, wording kept.
            if manual and not screen.rules_out(
                FindLookalikes(cand.type, cand.content, LOOKALIKE_LIMIT)
            ):
                existing += [
                    m
                    for m in await manual_lookalikes(
                        store,
                        project_id,
                        memory_type=cand.type,
                        scope=cand.scope,
                        user_id=user,
                        content=cand.content,
                    )
                    if m.key != cand.key
                ]
            recurring = decide_recurrence(cand, existing)
            decision = recurring or await decide(cand, existing)
            decisions.append(spare_rules_memory(decision, existing))
        return decisions

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

    async def _write_found(
        self,
        store: Store,
        found: Sequence[MemoryCandidate],
        user: str,
        decide: Decide,
        source: MemorySource,
    ) -> PassReport:
        """Candidates of a parked episode, decided and written in one transaction under
        `source` (the rules' part as `RULES`, the model's as `LLM`, as a pass writes them)."""
        decisions = await self._decisions(store, merge_candidates(found), user, decide)
        if not decisions:
            return PassReport()
        result = await store.apply_processing_result([], decisions, [], user_id=user, source=source)
        await self._merge_global_style(decisions, user, store.project_id)
        return PassReport(
            memories_added=len(result.change.added),
            memories_updated=len(result.change.updated),
            memories_deleted=len(result.change.deleted),
        )

    async def _extract_with_retry(
        self, store: Store, model: Extractor, episode: Episode, events: list[StoredEvent]
    ) -> list[MemoryCandidate] | None:
        """The model's candidates, or None once retries ran out and the model's part of the
        episode was parked as a dead letter."""
        delays = list(self._settings.retry_delays)
        kind = model_letter(model.name)
        while True:
            try:
                return await model.extract(episode, events)
            except ExtractionError as exc:
                if not exc.retryable or not delays:
                    await self._park(store, kind, episode, exc)
                    return None
                delay = max(delays.pop(0), exc.retry_after or 0.0)
                self.extraction_failures += 1
                log.warning(
                    "extraction_retrying",
                    episode_id=episode.id,
                    error_type=type(exc).__name__,
                    delay_s=delay,
                )
                await asyncio.sleep(delay)
            except Exception as exc:
                await self._park(store, kind, episode, exc)
                return None

    async def _park(
        self,
        store: Store,
        kind: str,
        episode: Episode,
        exc: BaseException,
        *,
        count_attempt: bool = True,
        ref: str | None = None,
    ) -> None:
        """Park (part of) `episode` as a dead letter of `kind` under `ref` (default: the
        episode's `parked_ref`; a retry keeps its letter's own), its event ids kept beside."""
        self.extraction_failures += 1
        letter = await store.record_dead_letter(
            kind,
            ref or parked_ref(episode),
            f"{type(exc).__name__}: {exc}"[:500],
            count_attempt=count_attempt,
        )
        await store.put_parked_events(letter.id, episode.event_ids)
        log.error(
            "extraction_dead_lettered",
            kind=kind,
            episode_id=episode.id,
            error_type=type(exc).__name__,
            reason=loggable_reason(exc),
        )

    async def _merge_global_style(
        self, decisions: Sequence[UpdateDecision], user: str, project_id: str
    ) -> None:
        """User-scoped style findings also refine the global `user.db` (project items win here);
        tentative instructions stay in their project until they recur. Each global item keeps
        the projects it was found in (`style_scope`): other projects see it once it recurs
        across projects."""
        merged = [
            d
            for d in decisions
            if d.candidate.scope is Scope.USER
            and d.action is not UpdateAction.NOOP
            and not is_tentative(d.candidate.tags)
        ]
        if not merged:
            return
        stored = {i.key: i.tags for i in await self._user_store.list_user_style(user)}
        for decision in merged:
            cand = decision.candidate
            await self._user_store.merge_user_style(
                user,
                key=cand.key,
                content=decision.merged_content or cand.content,
                tags=with_project(cand.tags, stored.get(cand.key, ()), project_id),
                importance=cand.importance,
                source=writer_source(cand.written_by, MemorySource.RULES),
            )


async def _decide_by_rules(
    candidate: MemoryCandidate, existing: list[MemoryItem]
) -> UpdateDecision:
    return decide_update(candidate, existing)


def loggable_reason(exc: BaseException) -> str:
    """Why extraction failed, as the log may carry it: our own messages (which name the fix)
    but never a backend's output, which may echo session text (that stays in the dead letter)."""
    if isinstance(exc, ExtractionError) and not exc.quotes_output:
        return str(exc)[:300]
    return f"{type(exc).__name__} (details with the parked episode: `sqrl status`)"
