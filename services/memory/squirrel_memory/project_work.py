"""The cross-session passes: recipes, habits and pitfalls weighed over every session of a
project, failures of any session paired with the commit that fixed them (`ProjectWork`, whose
events `project_evidence` reads), and, over one user's messages of every session, the requests
they make again and the language they write in (`UserWork`). On a laptop the project has one
user: those passes read every message and write project memories; on a team server each user's
are read and written as theirs."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

import structlog

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import commands, user_requests
from squirrel_memory.extractors.asked_actions import asked_actions
from squirrel_memory.extractors.candidates import candidate
from squirrel_memory.extractors.disowned_tools import (
    disowned_since,
    instructs_disowned,
    states_disowned,
)
from squirrel_memory.extractors.echoes import is_echo
from squirrel_memory.extractors.firmness import REPEATED_TAG, STANDING_TAG, TENTATIVE_TAG
from squirrel_memory.extractors.handover_forms import PREFIX as HANDOVER_PREFIX
from squirrel_memory.extractors.handover_forms import Handover, handover_forms
from squirrel_memory.extractors.lifted_bans import bans, lifted_since
from squirrel_memory.extractors.planned_checks import approved_plans
from squirrel_memory.extractors.repeated_requests import LEAD as REQUEST_LEAD
from squirrel_memory.extractors.repeated_requests import ORIGINS as REQUEST_ORIGINS
from squirrel_memory.extractors.repeated_requests import PREFIX as REQUEST_PREFIX
from squirrel_memory.extractors.repeated_requests import TAG as REQUEST_TAG
from squirrel_memory.extractors.repeated_requests import RepeatedRequest, repeated_requests
from squirrel_memory.extractors.reply_language import IMPORTANCE as LANGUAGE_IMPORTANCE
from squirrel_memory.extractors.reply_language import KEY as REPLY_LANGUAGE_KEY
from squirrel_memory.extractors.reply_language import TAGS as LANGUAGE_TAGS
from squirrel_memory.extractors.reply_language import reply_language
from squirrel_memory.extractors.routine_requests import MIN_SESSIONS as ROUTINE_MIN_SESSIONS
from squirrel_memory.extractors.routine_requests import PREFIX as ROUTINE_PREFIX
from squirrel_memory.extractors.routine_requests import Routine, routine_requests
from squirrel_memory.extractors.session_requests import SessionRequest, session_requests
from squirrel_memory.extractors.session_routines import TAG as SESSION_TAG
from squirrel_memory.extractors.session_routines import SessionRoutine, session_routines
from squirrel_memory.models import (
    Episode,
    MemoryCandidate,
    MemoryItem,
    MemorySource,
    MemoryType,
    Scope,
    StoredEvent,
)
from squirrel_memory.project_evidence import EVIDENCE_TYPES, commit_fix_candidates, project_evidence
from squirrel_memory.promotion import RECURRING_TAG, recurring_importance
from squirrel_memory.storage import Retirement, Store

log = structlog.get_logger()

REQUEST_EVIDENCE_LIMIT = 4_000
"""Newest messages, replies and calls read for the requests the user makes again."""
REQUEST_CONTEXT_TYPES = (EventType.USER_MESSAGE, EventType.ASSISTANT_RESPONSE, EventType.TOOL_CALL)
STYLE_LIMIT = 500
"""Most user_style memories read for the events they cite."""
LANGUAGE_EVIDENCE_LIMIT = 4_000
"""Newest user messages read for the language the user writes in."""
LANGUAGE_RETIRED = "retired: the project's messages no longer show that language"
DISOWNED_RETIRED = "retired: the user said the project no longer uses a tool it names"
LIFTED_RETIRED = "retired: the user later said what it turns down is fine"


def _newest(a: Episode, b: Episode) -> Episode:
    return max(a, b, key=lambda ep: (ep.end_ts, ep.id))


@dataclass(frozen=True, slots=True)
class ProjectWork:
    """Project-wide passes a batch asks for, and the newest episode they are credited to."""

    latest: Episode
    evidence: bool
    commit_fixes: bool

    @classmethod
    def asked_by(cls, events: list[StoredEvent], latest: Episode) -> ProjectWork:
        """What a batch's events ask for: evidence when they hold commands or edits, commit
        fixes when they hold a commit or a failed command."""
        kinds = {str(t) for t in EVIDENCE_TYPES}
        return cls(
            latest,
            evidence=any(e.event_type in kinds for e in events),
            commit_fixes=any(e.event_type == EventType.COMMIT for e in events)
            or any(run.ok is False for run in commands(events)),
        )

    def joined(self, other: ProjectWork) -> ProjectWork:
        return ProjectWork(
            _newest(self.latest, other.latest),
            self.evidence or other.evidence,
            self.commit_fixes or other.commit_fixes,
        )


@dataclass(frozen=True, slots=True)
class UserWork:
    """The passes over one user's messages of every session a batch of theirs asks for, and
    the newest episode they are credited to."""

    latest: Episode
    requests: bool
    language: bool

    @classmethod
    def asked_by(cls, events: list[StoredEvent], latest: Episode) -> UserWork:
        """What a batch's events ask for: requests said again when they hold a request or a
        plan the user approved (a form work is handed over in), the language when the user said
        anything."""
        return cls(
            latest,
            requests=any(
                e.event_type == EventType.USER_MESSAGE and e.origin in REQUEST_ORIGINS
                for e in events
            )
            or bool(approved_plans(events)),
            language=bool(user_requests(events)),
        )

    def joined(self, other: UserWork) -> UserWork:
        return UserWork(
            _newest(self.latest, other.latest),
            self.requests or other.requests,
            self.language or other.language,
        )


@dataclass(frozen=True, slots=True)
class UserFindings:
    """What the passes over a user's messages found, and the memories they wrote before and no
    longer find (retired in the same write)."""

    candidates: list[MemoryCandidate] = field(default_factory=list)
    retirements: list[Retirement] = field(default_factory=list)
    #: The tools the user disowned in their messages, each with when they last said so.
    disowned: dict[str, datetime] = field(default_factory=dict)
    #: The things the user called fine again after a ban, each with when they last said so.
    lifted: dict[str, datetime] = field(default_factory=dict)


async def project_candidates(store: Store, pending: ProjectWork) -> list[MemoryCandidate]:
    """The candidates of the project-wide passes `pending` asks for, credited to its latest
    episode."""
    found: list[MemoryCandidate] = []
    if pending.evidence:
        found += await project_evidence(store)
    if pending.commit_fixes:
        found += await commit_fix_candidates(store)
    return [replace(c, source_episode_id=pending.latest.id) for c in found]


async def user_candidates(
    store: Store, asked: UserWork, owner: str | None, batch: Sequence[MemoryCandidate] = ()
) -> UserFindings:
    """The candidates of the passes over a user's messages `asked` asks for, credited to its
    latest episode (`batch`: the candidates the pass's episodes gave, which a request said
    again may already be one of). `owner` is the user on a team server: only their messages
    are read, and what is found is theirs (user-scoped); None on a laptop, whose one user's
    are every message of the project and whose findings are the project's."""
    found = UserFindings()
    if asked.requests:
        found.candidates.extend(await _repeated_requests(store, owner, batch))
    if asked.language:
        said = await store.fetch_recent_of_types(
            store.project_id, [str(EventType.USER_MESSAGE)], LANGUAGE_EVIDENCE_LIMIT, user_id=owner
        )
        disowned = disowned_since(said)
        lifted = lifted_since(said)
        found = replace(found, disowned=disowned, lifted=lifted)
        found.retirements.extend(await _disowned_retirements(store, disowned))
        found.retirements.extend(await _lifted_retirements(store, lifted))
        language = await _reply_language(store, owner, said)
        found.candidates.extend(language.candidates)
        found.retirements.extend(language.retirements)
    scope = Scope.PROJECT if owner is None else Scope.USER
    found.candidates[:] = [
        replace(c, source_episode_id=asked.latest.id, scope=scope) for c in found.candidates
    ]
    return found


async def _repeated_requests(
    store: Store, owner: str | None, batch: Sequence[MemoryCandidate]
) -> list[MemoryCandidate]:
    """Requests the user made again in another session, in any wording or language
    (`repeated_requests`), and delivery steps asked again in several sessions or, with other
    work between, in one (`routine_requests`, `session_routines`), requests about how work is
    done asked again in one session for other work (`session_requests`), read from the project's
    stored messages with the replies and calls around them (what each session worked on). A
    request some of whose messages another user_style memory already cites (a rule the
    preference rules read in one of them) is left to that memory: a second memory would say
    it again. A request's own earlier memory is not such a memory: it grows."""
    stored = await store.fetch_recent_of_types(
        store.project_id,
        [str(t) for t in REQUEST_CONTEXT_TYPES],
        REQUEST_EVIDENCE_LIMIT,
        user_id=owner,
    )
    found = await asyncio.to_thread(_request_candidates, stored)
    if not found:
        return []
    kept, _ = await store.list_memories(
        store.project_id, types=[MemoryType.USER_STYLE], limit=STYLE_LIMIT
    )
    owners = [
        c
        for c in [*batch, *(_as_candidate(m) for m in kept if not m.deleted)]
        if c.type is MemoryType.USER_STYLE
        and not is_echo(c)  # words kept only to hear an instruction again: no rule of their own
        and not c.key.startswith((REQUEST_PREFIX, ROUTINE_PREFIX))
        and c.key != REPLY_LANGUAGE_KEY  # cites the messages for their language, not a rule
    ]
    cited = {event_id for owner in owners for event_id in owner.source_event_ids}
    session_of = {e.id: e.session_id for e in stored}
    return [
        c
        for c in found
        if not cited & set(c.source_event_ids)
        or _routine_beyond(c, cited, session_of)
        # the form work came in, not what it asked: another memory of its words says other
        or c.key.startswith(HANDOVER_PREFIX)
    ]


def _routine_beyond(
    found: MemoryCandidate, cited: set[str], session_of: dict[str, str | None]
) -> bool:
    """A routine of delivery steps asked in more sessions than another memory's messages: the
    other memory says one of its requests ("Commit all your recent changes."), not the habit of
    asking it session after session, so the routine stays."""
    if not found.key.startswith(ROUTINE_PREFIX) or RECURRING_TAG not in found.tags:
        return False
    sessions = {session_of.get(i) for i in found.source_event_ids if i not in cited}
    return len(sessions - {None}) >= ROUTINE_MIN_SESSIONS


async def _disowned_retirements(store: Store, since: dict[str, datetime]) -> list[Retirement]:
    """The stored facts and recipes that state a tool the user has since said (`since`: each
    tool with when, as `disowned_since` reads the user's stored messages) the project no longer
    uses ("we stopped using beads"), and the user's
    instructions to use it ("Always run X before you finish", then "Stop running X"): each is
    retired when all its evidence came before the user said so. A memory the user wrote
    stays."""
    if not since:
        return []
    kinds = [MemoryType.PROJECT_FACT, MemoryType.RECIPE, MemoryType.USER_STYLE]
    stating: list[tuple[MemoryItem, datetime]] = []
    for memory in await _derived(store, kinds):
        tools = {
            t
            for t in since
            if states_disowned(memory.type, memory.content, {t})
            or instructs_disowned(memory.type, memory.content, {t})
        }
        if tools:
            # The message that disowned the tool is no evidence of its use (an instruction's
            # memory may cite it, the tool named again).
            stating.append((memory, min(since[t] for t in tools)))
    return await _said_before(store, stating, DISOWNED_RETIRED)


async def _lifted_retirements(store: Store, since: dict[str, datetime]) -> list[Retirement]:
    """The user's stored instructions that ban a thing they have since called fine again
    (`since`: each thing with when, as `lifted_since` reads the user's stored messages): each
    is retired when all its evidence came before the user lifted it. A memory the user wrote
    stays."""
    if not since:
        return []
    banning: list[tuple[MemoryItem, datetime]] = []
    for memory in await _derived(store, [MemoryType.USER_STYLE]):
        times = [at for thing, at in since.items() if bans(memory.type, memory.content, thing)]
        if times:
            banning.append((memory, max(times)))
    return await _said_before(store, banning, LIFTED_RETIRED)


async def _derived(store: Store, kinds: list[MemoryType]) -> list[MemoryItem]:
    """The project's live memories of `kinds` read from sessions (not the user's own)."""
    kept, _ = await store.list_memories(store.project_id, types=kinds, limit=STYLE_LIMIT)
    return [
        m
        for m in kept
        if not m.deleted and m.source is not MemorySource.MANUAL and m.source_event_ids
    ]


async def _said_before(
    store: Store, memories: list[tuple[MemoryItem, datetime]], reason: str
) -> list[Retirement]:
    """A retirement for `reason` of each memory whose evidence all came before its time."""
    if not memories:
        return []
    # The evidence of every such memory in one read.
    evidence = await store.get_events([i for m, _ in memories for i in m.source_event_ids])
    when = {e.id: e.timestamp for e in evidence}
    retired: list[Retirement] = []
    for memory, until in memories:
        latest = max((when[i] for i in memory.source_event_ids if i in when), default=None)
        if latest is not None and latest <= until:
            retired.append(Retirement(memory.id, reason))
    return retired


async def _reply_language(
    store: Store, owner: str | None, stored: list[StoredEvent]
) -> UserFindings:
    """The language the user writes in, decided over their stored messages of every session
    (`reply_language`: sessions of one short message add up, a language most sessions do not
    show is none), as important as an instruction said in that many sessions. A stored memory
    of it the messages no longer show (one session in Korean, then many in English) is retired
    with the reason; the user's own memory of it stays. `stored`: the user's stored messages."""
    found = await asyncio.to_thread(language_candidates, stored)
    if found:
        return UserFindings(found)
    scope = Scope.PROJECT if owner is None else Scope.USER
    kept = await store.find_anchor(
        store.project_id, MemoryType.USER_STYLE, REPLY_LANGUAGE_KEY, scope, owner
    )
    return UserFindings(
        retirements=[
            Retirement(memory.id, LANGUAGE_RETIRED)
            for memory in kept
            if memory.source is not MemorySource.MANUAL
        ]
    )


def language_candidates(stored: list[StoredEvent]) -> list[MemoryCandidate]:
    """The reply-language rule over a user's stored messages (CPU only: run off the loop)."""
    found = reply_language(stored)
    if found is None:
        return []
    recurring = (RECURRING_TAG,) if found.sessions > 1 else ()
    return [
        candidate(
            MemoryType.USER_STYLE,
            REPLY_LANGUAGE_KEY,
            found.content,
            tags=(*LANGUAGE_TAGS, *recurring),
            importance=recurring_importance(found.sessions, LANGUAGE_IMPORTANCE),
            event_ids=found.event_ids,
            rule="reply_language",
        )
    ]


def _request_candidates(stored: list[StoredEvent]) -> list[MemoryCandidate]:
    """The request rules over the project's stored messages (CPU only: run off the loop)."""
    found = (
        request_candidates(repeated_requests(stored))
        + routine_candidates(routine_requests(stored))
        + session_routine_candidates(session_routines(stored))
        + session_routine_candidates(session_requests(stored))
        + handover_candidates(handover_forms(stored))
    )
    # an action opening requests of one session, unless another request rule holds them
    taken = {event_id for c in found for event_id in c.source_event_ids}
    actions = [a for a in asked_actions(stored) if len(taken & set(a.event_ids)) < 2]
    return found + session_routine_candidates(actions)


def _as_candidate(memory: MemoryItem) -> MemoryCandidate:
    return MemoryCandidate(
        type=memory.type,
        key=memory.key,
        content=memory.content,
        tags=memory.tags,
        importance=memory.importance,
        source_event_ids=memory.source_event_ids,
        scope=memory.scope,
    )


def request_candidates(found: list[RepeatedRequest]) -> list[MemoryCandidate]:
    """Each repeated request as a standing user_style candidate of this project, as important
    as an instruction said in that many sessions (`recurrence`), quoting the user."""
    return [
        candidate(
            MemoryType.USER_STYLE,
            request.key,
            f"{REQUEST_LEAD.format(n=request.sessions)}: “{request.wording}”.",
            tags=("preference", REQUEST_TAG, STANDING_TAG, RECURRING_TAG),
            importance=recurring_importance(request.sessions),
            event_ids=request.event_ids,
        )
        for request in found
    ]


def routine_candidates(found: Sequence[Routine | Handover]) -> list[MemoryCandidate]:
    """Each routine of delivery steps asked in several sessions (or form work was handed over
    in: `handover_candidates`) as a standing user_style candidate of this project, as
    important as an instruction said in that many sessions."""
    return [
        candidate(
            MemoryType.USER_STYLE,
            found_.key,
            found_.content,
            tags=(
                "preference",
                "handover" if isinstance(found_, Handover) else REQUEST_TAG,
                STANDING_TAG,
                RECURRING_TAG,
            ),
            importance=recurring_importance(found_.sessions),
            event_ids=found_.event_ids,
            rule="handover_forms" if isinstance(found_, Handover) else "",
        )
        for found_ in found
    ]


def handover_candidates(found: list[Handover]) -> list[MemoryCandidate]:
    """Each form the user handed work over in, in several sessions, as a standing user_style
    candidate of this project, as important as an instruction said in that many sessions."""
    return routine_candidates(found)


def session_routine_candidates(
    found: Sequence[SessionRoutine | SessionRequest],
) -> list[MemoryCandidate]:
    """Each routine of delivery steps (or request about how work is done: `session_requests`)
    asked in one session, with other work between, as a
    user_style candidate of this project: a habit so far, weighed below one said in several
    sessions and above a one-off instruction, tentative until another session asks it (its key
    is the routine's across sessions, which then replaces it)."""
    return [
        candidate(
            MemoryType.USER_STYLE,
            routine.key,
            routine.content,
            tags=("preference", REQUEST_TAG, TENTATIVE_TAG, REPEATED_TAG, SESSION_TAG),
            importance=routine.importance,
            event_ids=routine.event_ids,
        )
        for routine in found
    ]
