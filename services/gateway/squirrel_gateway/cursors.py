"""Search continuation cursors: opaque, bound to one search, resuming inside or after a page."""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Sequence
from typing import Final

from squirrel_core.errors import InvalidArgumentError

MAX_CURSOR_CHARS: Final = 4096
MAX_SKIP: Final = 10_000


def search_fingerprint(
    project_id: str, query: str, types: Sequence[str], paths: Sequence[str]
) -> str:
    """What a cursor is bound to: the project, query, types and scope of its search."""
    blob = json.dumps([project_id, query, sorted(types), list(paths)], ensure_ascii=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def encode_cursor(after: str | None, skip: int, fingerprint: str) -> str:
    """A cursor resuming at the memory service's page `after`, `skip` results into it."""
    raw = json.dumps({"a": after, "s": skip, "f": fingerprint}, separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_cursor(cursor: str, fingerprint: str) -> tuple[str | None, int]:
    """`(after, skip)` of a cursor this server returned for the same search; else refused."""
    bad = InvalidArgumentError(
        "cursor is not a next_cursor this server returned; omit it to start from the best match."
    )
    if len(cursor) > MAX_CURSOR_CHARS:
        raise bad
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        data = json.loads(raw)
    except (binascii.Error, ValueError, RecursionError):  # nested past the parser's depth too
        raise bad from None
    if not isinstance(data, dict):
        raise bad
    after, skip, mark = data.get("a"), data.get("s"), data.get("f")
    if not (after is None or isinstance(after, str)) or not isinstance(mark, str):
        raise bad
    if isinstance(skip, bool) or not isinstance(skip, int) or not 0 <= skip <= MAX_SKIP:
        raise bad
    if mark != fingerprint:
        raise InvalidArgumentError(
            "cursor belongs to a different search; send the same query, types and scope_paths"
            " as the call that returned it, or omit the cursor."
        )
    return after, skip
