"""Episode segmentation: events grouped by session, split on idle gaps, summarised offline."""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import structlog

from squirrel_core.events import EventType, Origin
from squirrel_memory.extractors.activity import (
    CommandRun,
    changed_files,
    commands,
    has_failure_then_success,
    user_requests,
)
from squirrel_memory.models import Episode, StoredEvent

log = structlog.get_logger()

#: Spec §3.2: a new episode starts after more than 20 idle minutes.
DEFAULT_GAP = timedelta(minutes=20)
#: Spec §3.2: shorter segments are merged into a neighbour.
MIN_EVENTS = 3
#: Sessionless commits read in one pass, at least this many, are git history read as one
#: episode (so the commit convention is judged over all of them), not split on idle gaps.
HISTORY_MIN_COMMITS = 8
#: Summaries stay under ~150 tokens at the project's 4-characters-per-token estimate.
MAX_SUMMARY_CHARS = 560

_PREFERENCE_WORDS = re.compile(
    r"\b(always|never|prefer|instead of|don't|do not|stop)\b", re.IGNORECASE
)


@dataclass(slots=True)
class _Segment:
    session_id: str | None
    events: list[StoredEvent] = field(default_factory=list)

    @property
    def start(self) -> datetime:
        return self.events[0].timestamp

    @property
    def end(self) -> datetime:
        return self.events[-1].timestamp


def _ordered(events: Iterable[StoredEvent]) -> list[StoredEvent]:
    return sorted(events, key=lambda e: (e.timestamp, e.id))


def _split_on_gaps(events: list[StoredEvent], gap: timedelta) -> list[_Segment]:
    segments: list[_Segment] = []
    for event in events:
        if not segments or event.timestamp - segments[-1].end > gap:
            segments.append(_Segment(event.session_id))
        segments[-1].events.append(event)
    return segments


def _distance(a: _Segment, b: _Segment) -> timedelta:
    if a.end <= b.start:
        return b.start - a.end
    if b.end <= a.start:
        return a.start - b.end
    return timedelta(0)


def _merge_short_within_session(segments: list[_Segment], min_events: int) -> list[_Segment]:
    """Fold each short segment into the nearer (in time) neighbour; ties go to the earlier one."""
    merged = list(segments)
    while len(merged) > 1:
        short = [i for i, seg in enumerate(merged) if len(seg.events) < min_events]
        if not short:
            break
        i = short[0]
        before = merged[i - 1] if i > 0 else None
        after = merged[i + 1] if i + 1 < len(merged) else None
        if before is not None and (
            after is None or _distance(before, merged[i]) <= _distance(merged[i], after)
        ):
            before.events.extend(merged[i].events)
        elif after is not None:
            after.events[:0] = merged[i].events
        del merged[i]
    return merged


def _merge_short_across_sessions(
    segments: list[_Segment], min_events: int, gap: timedelta
) -> list[_Segment]:
    """A session too short on its own joins the closest episode of another session within `gap`.

    This is how a stray git commit (no session) lands in the coding episode it belongs to.
    A short segment with no episode within `gap` stays on its own: nothing is dropped.
    """
    result = list(segments)
    for seg in sorted(
        (s for s in segments if len(s.events) < min_events), key=lambda s: (s.start, s.events[0].id)
    ):
        others = [o for o in result if o is not seg and len(o.events) >= min_events]
        if not others:
            continue
        target = min(others, key=lambda o: (_distance(o, seg), o.start, o.events[0].id))
        if _distance(target, seg) > gap:
            continue
        target.events = _ordered([*target.events, *seg.events])
        result.remove(seg)
    return result


def _is_history(session_id: str | None, events: list[StoredEvent]) -> bool:
    """A backlog of git history: at least `HISTORY_MIN_COMMITS` commits and nothing else."""
    return (
        session_id is None
        and len(events) >= HISTORY_MIN_COMMITS
        and all(e.event_type == EventType.COMMIT for e in events)
    )


def episode_id(event_ids: Iterable[str]) -> str:
    """A deterministic id from the events an episode groups (a retry yields the same id)."""
    digest = hashlib.sha256("\n".join(sorted(event_ids)).encode()).hexdigest()
    return f"ep_{digest[:24]}"


def segment_episodes(
    events: list[StoredEvent],
    *,
    gap: timedelta = DEFAULT_GAP,
    min_events: int = MIN_EVENTS,
    now: datetime,
) -> list[Episode]:
    """Group events into episodes (spec §3.2 / §5.1 step 1).

    Events are grouped by `(project_id, user_id, session_id)`, sorted by time and split where
    more than `gap` passes between two events. A segment with fewer than `min_events` events
    is merged into the nearer neighbour of the same session; if its whole session is that
    short, it joins the nearest episode of another session of the same project and user when
    one lies within `gap`, taking that episode's session id; otherwise it is kept as it is.
    A backlog of git history (`HISTORY_MIN_COMMITS` or more sessionless commits and nothing
    else) is one episode.
    Episodes come back ordered by start time.
    """
    if gap <= timedelta(0):
        raise ValueError("gap must be positive")
    if min_events < 1:
        raise ValueError("min_events must be at least 1")
    by_owner: dict[tuple[str, str], dict[str | None, list[StoredEvent]]] = {}
    for event in events:
        sessions = by_owner.setdefault((event.project_id, event.user_id), {})
        sessions.setdefault(event.session_id, []).append(event)

    episodes: list[Episode] = []
    for (project_id, user_id), sessions in sorted(by_owner.items()):
        segments: list[_Segment] = []
        for session_id in sorted(sessions, key=lambda s: s or ""):
            ordered = _ordered(sessions[session_id])
            if _is_history(session_id, ordered):
                segments.append(_Segment(session_id, ordered))
                continue
            split = _split_on_gaps(ordered, gap)
            segments.extend(_merge_short_within_session(split, min_events))
        segments = _merge_short_across_sessions(segments, min_events, gap)
        for seg in sorted(segments, key=lambda s: (s.start, s.events[0].id)):
            episodes.append(_episode(project_id, user_id, seg, now))
    log.debug("episodes_segmented", event_count=len(events), episode_count=len(episodes))
    return episodes


def _episode(project_id: str, user_id: str, seg: _Segment, now: datetime) -> Episode:
    ids = tuple(e.id for e in seg.events)
    return Episode(
        id=episode_id(ids),
        project_id=project_id,
        user_id=user_id,
        session_id=seg.session_id,
        start_ts=seg.start,
        end_ts=seg.end,
        event_count=len(ids),
        summary=summarize_events(seg.events),
        importance=score_importance(seg.events),
        created_at=now,
        event_ids=ids,
    )


def _clip(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def _names(paths: list[str], limit: int) -> str:
    shown = ", ".join(p.rsplit("/", 1)[-1] for p in paths[:limit])
    return shown + (f" (+{len(paths) - limit} more)" if len(paths) > limit else "")


def summarize_events(events: list[StoredEvent]) -> str:
    """A deterministic summary of what happened: requests (or, without any, the task a parent
    agent delegated to a subagent), commands, files changed, outcome.

    At most `MAX_SUMMARY_CHARS` characters (about 140 tokens).
    """
    ordered = _ordered(events)
    parts: list[str] = []
    requests = user_requests(ordered)
    if requests:
        more = f" (+{len(requests) - 1} more requests)" if len(requests) > 1 else ""
        parts.append(f'Asked: "{_clip(requests[0][1], 160)}"{more}.')
    elif delegated := _delegated(ordered):
        parts.append(f'Delegated: "{_clip(delegated, 160)}".')
    runs = commands(ordered)
    if runs:
        counts = Counter(r.normalized or r.command for r in runs)
        first: dict[str, str] = {}
        for run in runs:
            first.setdefault(run.normalized or run.command, run.command.splitlines()[0])
        shown = ", ".join(
            f"{_clip(first[cmd], 40)} ×{n}" if n > 1 else _clip(first[cmd], 40)
            for cmd, n in counts.most_common(3)
        )
        failed = sum(1 for r in runs if r.ok is False)
        tail = f"; {failed} failed" if failed else ""
        parts.append(f"Ran {len(runs)} commands ({shown}{tail}).")
    changed = changed_files(ordered)
    if changed:
        parts.append(f"Changed {len(changed)} files: {_names(changed, 4)}.")
    commits = [e for e in ordered if e.event_type == EventType.COMMIT]
    if commits:
        message = commits[-1].content.get("message")
        title = _clip(message.splitlines()[0], 60) if isinstance(message, str) and message else ""
        parts.append(f"Committed {len(commits)}×" + (f': "{title}".' if title else "."))
    outcome = _outcome(runs)
    if outcome:
        parts.append(outcome)
    if not parts:
        parts.append(f"{len(ordered)} events without user requests, commands or file changes.")
    return _clip(" ".join(parts), MAX_SUMMARY_CHARS)


def _delegated(events: list[StoredEvent]) -> str:
    """The task a parent agent gave a subagent (its first prompt), for an episode where the user
    said nothing: a subagent's transcript read without its parent's session."""
    for event in events:
        text = event.content.get("text")
        if (
            event.event_type == EventType.USER_MESSAGE
            and event.sidechain
            and event.origin == str(Origin.PARENT_AGENT)
            and isinstance(text, str)
            and text.strip()
        ):
            return text
    return ""


def _outcome(runs: list[CommandRun]) -> str:
    known = [r for r in runs if r.ok is not None]
    if not known:
        return ""
    if has_failure_then_success(known):
        return "Outcome: a failing command was fixed."
    if known[-1].ok:
        return "Outcome: last command passed."
    return "Outcome: last command failed."


def score_importance(events: list[StoredEvent]) -> float:
    """A 0..1 heuristic: code changes, fixed failures, commits and stated preferences raise it.

    Base 0.1; code changes +0.1 per file up to +0.3; a failure later fixed +0.25; a commit
    +0.15; a stated preference ("always", "never", "prefer", "instead of", "don't", "stop")
    +0.2; any passing test run +0.05. Pure chit-chat stays at 0.1.
    """
    ordered = _ordered(events)
    score = 0.1
    score += min(0.3, 0.1 * len(changed_files(ordered)))
    runs = commands(ordered)
    if has_failure_then_success([r for r in runs if r.ok is not None]):
        score += 0.25
    if any(e.event_type == EventType.COMMIT for e in ordered):
        score += 0.15
    if any(_PREFERENCE_WORDS.search(text) for _, text in user_requests(ordered)):
        score += 0.2
    if any(e.event_type == EventType.TEST_RUN and e.content.get("exit_code") == 0 for e in ordered):
        score += 0.05
    return round(min(1.0, score), 3)
