"""The spec's event dedup hash: sha256 of a canonical struct with a 5-minute time bucket.

The canonical struct is, as JSON with sorted keys and no spaces::

    {"project_id", "source_tool", "event_type", "session_id" (or null),
     "timestamp_bucket": UTC start of the 5-minute bucket, ISO-8601,
     "file_paths": sorted, duplicates removed,
     "content_signature": sha256 hex of the normalised content}

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
rehashed the command events stored while `cwd` was still hashed).
"""

from __future__ import annotations

import functools
import hashlib
import json
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from squirrel_core.events import Event

BUCKET_SECONDS = 300
#: Top-level content keys that describe where a record was made, not what it says: the shell's
#: folder, and the machine a laptop delivered it from to a team server (so the hash a laptop
#: computed is the hash the server computes: the idempotency key of a delivery).
UNHASHED_CONTENT_KEYS = frozenset({"cwd", "machine"})


def timestamp_bucket(timestamp: datetime) -> str:
    """Start of the 5-minute UTC bucket holding `timestamp` (naive values are UTC)."""
    if timestamp.tzinfo is None:
        timestamp = timestamp.replace(tzinfo=UTC)
    return _bucket_start(int(timestamp.timestamp()) // BUCKET_SECONDS * BUCKET_SECONDS)


@functools.lru_cache(maxsize=4096)
def _bucket_start(seconds: int) -> str:
    """A batch's events mostly share a few buckets: each is formatted once."""
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def normalise_content(value: Any) -> Any:
    """The lightly normalised form of a JSON value (see the module docstring).

    Dict keys come out in their original order: `canonical_json` sorts them. (A dict with two
    keys of one `str()`, such as 1 and "1", keeps the later one, as a sort by `str(key)` —
    stable — would too.) ASCII text is already NFC.
    """
    if isinstance(value, str):
        if not value.isascii() and not unicodedata.is_normalized("NFC", value):
            value = unicodedata.normalize("NFC", value)
        return " ".join(value.split())
    if isinstance(value, dict):
        return {
            str(key): normalise_content(item) for key, item in value.items() if item is not None
        }
    if isinstance(value, list | tuple):
        return [normalise_content(item) for item in value]
    return value


#: `json.dumps` with these options would build a new encoder per call; an encoder keeps no state
#: between calls, so threads may share this one.
_CANONICAL = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
)


def canonical_json(value: Any) -> str:
    """Deterministic JSON: sorted keys, no spaces, non-ASCII kept, NaN refused."""
    return _CANONICAL.encode(value)


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def content_signature(content: dict[str, Any]) -> str:
    """sha256 hex of the canonical JSON of the normalised content, `UNHASHED_CONTENT_KEYS` out."""
    kept = {k: v for k, v in content.items() if k not in UNHASHED_CONTENT_KEYS}
    return _sha256(canonical_json(normalise_content(kept)))


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
        "event_type": str(event.event_type),
        "session_id": event.session_id,
        "timestamp_bucket": timestamp_bucket(event.timestamp),
        "file_paths": sorted(set(event.file_paths)),
        "content_signature": content_signature(event.content),
    }


def event_hash(project_id: str, event: Event | HashedFields) -> str:
    """The dedup hash of `event` in `project_id` (64 hex characters)."""
    return _sha256(canonical_json(canonical_struct(project_id, event)))
