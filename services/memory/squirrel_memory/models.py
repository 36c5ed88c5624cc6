"""Domain records of the memory engine: stored events, episodes, memory items and candidates."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from squirrel_core.events import default_origin


class MemoryType(StrEnum):
    """The spec's memory types."""

    USER_STYLE = "user_style"
    PROJECT_FACT = "project_fact"
    PITFALL = "pitfall"
    RECIPE = "recipe"


class Scope(StrEnum):
    """Who a memory is about: this user (everywhere) or this project."""

    USER = "user"
    PROJECT = "project"


class MemorySource(StrEnum):
    """Who wrote a memory. Manual memories are never overwritten by extraction."""

    RULES = "rules"
    LLM = "llm"
    MANUAL = "manual"


def is_model_writer(written_by: str) -> bool:
    """Whether `written_by` names a model backend (`claude_cli:haiku`, `llm`), not the rules
    or the user."""
    return bool(written_by) and written_by not in (MemorySource.RULES, MemorySource.MANUAL)


def writer_source(written_by: str, source: MemorySource) -> MemorySource:
    """The source a candidate is stored under: a model's candidate is `LLM` whatever batch it
    came in, others keep the batch's `source`."""
    return MemorySource.LLM if is_model_writer(written_by) else source


class UpdateAction(StrEnum):
    """Mem0-style decision for a candidate against existing memories with the same anchor."""

    ADD_NEW = "ADD_NEW"
    UPDATE_EXISTING = "UPDATE_EXISTING"
    NOOP = "NOOP"
    DELETE_AND_ADD = "DELETE_AND_ADD"


class RememberOutcome(StrEnum):
    """What `remember` did with a statement (rules in `manual.py`; the wire's enum)."""

    ADDED = "added"
    UPDATED = "updated"
    MERGED = "merged"
    UNCHANGED = "unchanged"


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """A row of the `events` table, content decoded."""

    id: str
    project_id: str
    user_id: str
    source_tool: str
    session_id: str | None
    timestamp: datetime
    event_type: str
    content: dict[str, Any]
    file_paths: tuple[str, ...]
    hash: str
    processed_at: datetime | None = None
    #: Who said it (an `Origin` value); empty means the default of the event type.
    origin: str = ""
    #: Subagent traffic: counts as the session's work, never as the user's voice.
    sidechain: bool = False
    agent_id: str | None = None

    def __post_init__(self) -> None:
        if not self.origin:
            object.__setattr__(self, "origin", str(default_origin(self.event_type)))


@dataclass(frozen=True, slots=True)
class Episode:
    """A row of the `episodes` table plus the ids of the events it groups."""

    id: str
    project_id: str
    user_id: str
    session_id: str | None
    start_ts: datetime
    end_ts: datetime
    event_count: int
    summary: str
    importance: float
    created_at: datetime
    event_ids: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class MemoryCandidate:
    """What an extractor proposes; one schema for every extractor."""

    type: MemoryType
    key: str
    content: str
    tags: tuple[str, ...]
    importance: float
    file_paths: tuple[str, ...] = ()
    source_episode_id: str | None = None
    source_event_ids: tuple[str, ...] = ()
    scope: Scope = Scope.PROJECT
    # Where the memory was read, outside the event stream: `path:line` in the repository
    # (`mix.exs:3`) or `commit:<sha>`.
    source_refs: tuple[str, ...] = ()
    written_by: str = ""
    # The rule (or extractor) that proposed it, e.g. `placements`, `facts:database`,
    # `command_evidence:recipe`: a trace for benches and debugging, never stored and never
    # compared (two candidates that say the same thing are equal whoever found them).
    rule: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class MemoryItem:
    """A row of `memory_items` (the current version of one memory)."""

    id: str
    project_id: str
    user_id: str | None
    scope: Scope
    type: MemoryType
    key: str
    content: str
    tags: tuple[str, ...]
    importance: float
    created_at: datetime
    updated_at: datetime
    source: MemorySource
    file_paths: tuple[str, ...] = ()
    source_episode_id: str | None = None
    source_event_ids: tuple[str, ...] = ()
    deleted: bool = False
    superseded_by: str | None = None
    version: int = 1
    source_refs: tuple[str, ...] = ()
    written_by: str = ""
    #: The users who stated it with `remember`, in the order they first did (on a team server,
    #: each teammate once); empty for a memory no one remembered.
    writers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class MemoryVersion:
    """One past (or the current) version of a memory, as `sqrl history` shows it."""

    memory_id: str
    version: int
    action: str
    content: str
    tags: tuple[str, ...]
    importance: float
    changed_at: datetime
    reason: str
    source_event_ids: tuple[str, ...] = ()
    superseded_by: str | None = None
    source_refs: tuple[str, ...] = ()
    written_by: str = ""
    #: The users who had stated it with `remember` by this version (see `MemoryItem.writers`).
    writers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class UpdateDecision:
    """What to do with one candidate; `target_id` names the existing memory acted on."""

    action: UpdateAction
    candidate: MemoryCandidate
    target_id: str | None = None
    merged_content: str | None = None
    reason: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    dropped_tags: tuple[str, ...] = ()
    """Tags UPDATE_EXISTING takes off the target: what they said of the statement it replaces
    no longer holds (a summary's tag once the project's own description replaces it)."""
