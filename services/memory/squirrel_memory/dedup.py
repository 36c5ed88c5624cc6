"""The spec's event dedup hash: sha256 of a canonical struct with a 5-minute time bucket.

The canonical struct is, as JSON with sorted keys and no spaces::

    {"project_id", "source_tool", "record" (what kind of record it was read from),
     "session_id" (or null),
     "timestamp_bucket": UTC start of the 5-minute bucket, ISO-8601,
     "file_paths": sorted, duplicates removed,
     "content_signature": sha256 hex of the normalised content}

The spec hashes the `event_type`; this hash reads the kind of record the type was chosen for
(`RECORD_KINDS`) instead, because part of the type is ingest's reading of the content, which a
newer version may read differently: whether a shell command runs tests (`command_run` or
`test_run`), whether a user-role text is a summary of a compacted conversation
(`user_message` or `compaction_summary`). The same record re-read after such a change — a cursor
reset, a re-import, an upgrade — is the event already stored. What the record is (a message of
the user or of the assistant, a tool's call, its result, a commit) still tells two events with
the same content apart: an assistant answering "Done." after the user typed "Done." keeps both.

Normalised content ("lightly normalised", spec §3.1) is the event's whole `content` with:
strings in Unicode NFC, leading/trailing whitespace stripped and inner whitespace runs collapsed
to one space; dict keys sorted and keys whose value is null dropped; lists kept in order.
Nothing else is dropped, so two events that differ in any field the parser records —
`tool_use_id`, `text`, `command`, `output`, a commit `sha` — get different hashes even inside the
same bucket. Two records that are identical after normalisation in the same session, type and
bucket are one event by the spec's rule (the same record read twice, e.g. after a cursor reset
or from two copies of a transcript). A parser that must keep identical repeated records apart
puts the source's record id in `content`.

Who said it (`origin`) and the subagent marks (`sidechain`, `agent_id`) are not hashed: they
describe a record rather than make it, so the same record read again by a newer parser that
classifies it differently stays one event. For the same reason the content keys in
`UNHASHED_CONTENT_KEYS` are left out of the content signature: context a parser learned to
record later (the shell's working folder, `cwd`, of a command event), which the record it was
read from already held. A transcript re-read after a cursor reset, by a version that records
more context than the one that stored it, then adds nothing.

The hash is part of the on-disk format: changing anything here needs a schema migration that
rehashes stored events, or re-read records stop matching the ones already stored (migration 6
rehashed the command events stored while `cwd` was still hashed; migration 13, and version 9 on
Postgres, rehashed every event when the type gave way to the record kind, merging the events
stored twice under two types: `storage.rehash`).

An event whose texts were kept past the first bounds (it carries `squirrel_core.kept_text`'s
mark) is signed as its shorter form, the texts as the first bounds cut them
(`kept_text.identity_signature`), so the same record read again by a version that keeps more is
the event already stored. The normalisation and the content signature live in
`squirrel_core.content_signature`, where ingest signs that shorter form too.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from squirrel_core.content_signature import (
    UNHASHED_CONTENT_KEYS,
    canonical_json,
    content_signature,
    normalise_content,
    sha256_hex,
)
from squirrel_core.events import Event
from squirrel_core.kept_text import identity_signature

__all__ = [
    "BUCKET_SECONDS",
    "RECORD_KINDS",
    "UNHASHED_CONTENT_KEYS",
    "HashedFields",
    "canonical_json",
    "canonical_struct",
    "content_signature",
    "event_hash",
    "normalise_content",
    "record_kind",
    "timestamp_bucket",
]

BUCKET_SECONDS = 300

#: The event types ingest chooses between by reading a record's content, and the kind of record
#: each is read from; any other type is its own kind. (The types of one kind keep their texts
#: in the same content key, so a marked event's first form is the same under either.)
RECORD_KINDS: Final = {
    "command_run": "command",
    "test_run": "command",
    "user_message": "user_text",
    "compaction_summary": "user_text",
}


def record_kind(event_type: str) -> str:
    """The kind of record an event of `event_type` is read from (see the module docstring)."""
    return RECORD_KINDS.get(event_type, event_type)


def timestamp_bucket(timestamp: datetime) -> str:
    """Start of the 5-minute UTC bucket holding `timestamp` (naive values are UTC)."""
    if timestamp.tzinfo is None:
        timestamp = timestamp.replace(tzinfo=UTC)
    return _bucket_start(int(timestamp.timestamp()) // BUCKET_SECONDS * BUCKET_SECONDS)


@functools.lru_cache(maxsize=4096)
def _bucket_start(seconds: int) -> str:
    """A batch's events mostly share a few buckets: each is formatted once."""
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True, slots=True)
class HashedFields:
    """The fields of an event the hash reads, as stored (an `Event` or a stored row)."""

    source_tool: str
    event_type: str
    session_id: str | None
    timestamp: datetime
    file_paths: tuple[str, ...]
    content: dict[str, Any]


def canonical_struct(project_id: str, event: Event | HashedFields) -> dict[str, Any]:
    """The struct that is hashed for `event` in `project_id`."""
    return {
        "project_id": project_id,
        "source_tool": str(event.source_tool),
        "record": record_kind(str(event.event_type)),
        "session_id": event.session_id,
        "timestamp_bucket": timestamp_bucket(event.timestamp),
        "file_paths": sorted(set(event.file_paths)),
        "content_signature": identity_signature(str(event.event_type), event.content),
    }


def event_hash(project_id: str, event: Event | HashedFields) -> str:
    """The dedup hash of `event` in `project_id` (64 hex characters)."""
    return sha256_hex(canonical_json(canonical_struct(project_id, event)))
