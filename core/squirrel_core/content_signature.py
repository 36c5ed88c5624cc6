"""The content signature of an event's identity: sha256 of its lightly normalised content.

Normalised content ("lightly normalised", spec §3.1) is the event's whole `content` with:
strings in Unicode NFC, leading/trailing whitespace stripped and inner whitespace runs collapsed
to one space; dict keys sorted and keys whose value is null dropped; lists kept in order; the
keys in `UNHASHED_CONTENT_KEYS` left out. The memory service's dedup hash
(`squirrel_memory.dedup`) is built on it; ingest signs with it the shorter form of an event
whose texts it kept past the first bounds (`squirrel_core.kept_text`), so both sides sign
alike. It is part of the on-disk format: see `squirrel_memory.dedup`.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from typing import Any

#: Top-level content keys that describe where a record was made, not what it says: the shell's
#: folder, and the machine a laptop delivered it from to a team server (so the hash a laptop
#: computed is the hash the server computes: the idempotency key of a delivery).
UNHASHED_CONTENT_KEYS = frozenset({"cwd", "machine"})


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


def sha256_hex(text: str) -> str:
    """sha256 hex of `text` as UTF-8."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def content_signature(content: dict[str, Any]) -> str:
    """sha256 hex of the canonical JSON of the normalised content, `UNHASHED_CONTENT_KEYS` out."""
    kept = {k: v for k, v in content.items() if k not in UNHASHED_CONTENT_KEYS}
    return sha256_hex(canonical_json(normalise_content(kept)))
