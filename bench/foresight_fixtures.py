"""The foresight replay's fixture projects: which transcripts make a project, their events as
ingest's parsers read them, moved into the replay's folder, and grouped by session."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from bench import fixture_pipeline
from squirrel_core.events import Event
from squirrel_ingest.parsers import parse_gemini_json_document

#: Fixture folders that are not real sessions (schema-coverage files built by a tool's author).
CONSTRUCTED = "agent-sessions-constructed"
#: Transcripts reserved for held-out evaluation: never read here.
RESERVED = re.compile(r"marot|spotter|locomo", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Session:
    """One session of a project: its events (moved into the replay folder), in time order."""

    session_id: str
    events: tuple[Event, ...]

    @property
    def subagent_only(self) -> bool:
        """Whether every event is a subagent's (`Event.sidechain`): a subagent's transcript whose
        own session is not among the fixtures (the host's warm-up of its search agent, a task
        it delegated). A host runs no session-start or prompt hook for a subagent, so nothing is
        asked for it; what it did is still learnt from, as any session's is."""
        return all(event.sidechain for event in self.events)


@dataclass(frozen=True, slots=True)
class Project:
    """A fixture project: its events as the transcripts hold them (original folders)."""

    name: str
    events: tuple[Event, ...]


def fixture_groups(base: Path) -> list[tuple[str, list[Path]]]:
    """(project name, transcripts) for every fixture project under `base`."""
    groups: list[tuple[str, list[Path]]] = []
    for host, prefix in (("claude", ""), ("codex", "codex:")):
        folder = base / host
        if not folder.is_dir():
            continue
        for name, paths in fixture_pipeline.fixture_projects(folder):
            kept = [p for p in paths if not RESERVED.search(str(p))]
            if name == CONSTRUCTED or RESERVED.search(name) or not kept:
                continue
            groups.append((prefix + name, kept))
    return groups


def read_events(paths: Iterable[Path]) -> list[Event]:
    """Every event of the transcripts, as ingest's parsers read them (a Gemini CLI chat kept
    as one JSON document, `session-*.json`, as its document parser reads it)."""
    events: list[Event] = []
    for path in paths:
        if path.suffix == ".json" and path.name.startswith(fixture_pipeline.GEMINI_DOCUMENT_PREFIX):
            found, _ = parse_gemini_json_document(path.read_bytes(), str(path), 0, set())
            events.extend(found)
            continue
        parser = fixture_pipeline.transcript_parser(path)
        if parser is not None:
            events.extend(fixture_pipeline.transcript_events(path, parser))
    return events


def sessions_of(events: Sequence[Event]) -> tuple[Session, ...]:
    """The events grouped by session, each session in time order, sessions by their start."""
    by_id: dict[str, list[Event]] = {}
    for event in events:
        by_id.setdefault(event.session_id or "", []).append(event)
    sessions = [
        Session(sid, tuple(sorted(group, key=lambda e: e.timestamp)))
        for sid, group in by_id.items()
        if sid
    ]
    return tuple(sorted(sessions, key=lambda s: (s.events[0].timestamp, s.session_id)))


def load_project(name: str, paths: Sequence[Path]) -> Project:
    """The fixture project `name`: every event of its transcripts."""
    return Project(name, tuple(read_events(paths)))
