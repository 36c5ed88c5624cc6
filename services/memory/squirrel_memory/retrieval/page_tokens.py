"""Search page tokens: opaque, tied to one query, checked for edits and corruption."""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
from collections.abc import Callable, Sequence

from squirrel_core.errors import InvalidArgumentError
from squirrel_memory.models import MemoryType
from squirrel_memory.retrieval.queries import MAX_CANDIDATES

PAGE_TOKEN_VERSION = 1
_HEX = re.compile(r"[0-9a-f]*")
_quoted: Callable[[str], str] = json.encoder.encode_basestring_ascii
"""A string as `json.dumps(..., ensure_ascii=True)` writes it, quotes included."""


def query_fingerprint(
    project_id: str, query: str, types: list[MemoryType] | None, scopes: Sequence[str]
) -> str:
    """What a page token is tied to: the project, query, types and scope paths.

    The digest is of `json.dumps([project_id, query, [types...], [sorted scopes...]],
    ensure_ascii=True)`, written out here with the same string encoder JSON uses (no encoder
    made per search; `tests/unit/memory/test_page_tokens.py` holds it to `json.dumps`)."""
    quoted = _quoted
    kinds = ", ".join(quoted(str(t)) for t in types or [])
    paths = ", ".join(quoted(p) for p in sorted(scopes))
    material = f"[{quoted(project_id)}, {quoted(query)}, [{kinds}], [{paths}]]"
    return hashlib.sha256(material.encode("ascii")).hexdigest()[:24]


def _check_digest(offset: int, fingerprint: str) -> str:
    return hashlib.sha256(f"{PAGE_TOKEN_VERSION}:{offset}:{fingerprint}".encode()).hexdigest()[:16]


def encode_page_token(offset: int, fingerprint: str) -> str:
    """An opaque token: base64 of JSON {v, o: offset, f: query fingerprint, c: check digest}."""
    check = _check_digest(offset, fingerprint)
    if type(offset) is int and _HEX.fullmatch(fingerprint):
        # `json.dumps` of the payload below, written out (a search's fingerprint is hex)
        text = f'{{"v":{PAGE_TOKEN_VERSION},"o":{offset},"f":"{fingerprint}","c":"{check}"}}'
    else:
        payload = {"v": PAGE_TOKEN_VERSION, "o": offset, "f": fingerprint, "c": check}
        text = json.dumps(payload, separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode("ascii")).decode("ascii").rstrip("=")


def decode_page_token(token: str, fingerprint: str) -> int:
    """The offset a token carries; `InvalidArgumentError` if it is malformed, altered or belongs
    to another search. (The check digest detects corruption and edits; it is not a secret.)"""
    bad = InvalidArgumentError(
        "page_token is not valid for this search; repeat the same query, types and scope_paths"
        " with the token returned by the previous page, or omit it"
    )
    if not isinstance(token, str) or not 0 < len(token) <= 512:
        raise bad
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        payload = json.loads(raw.decode("ascii"))
    except (ValueError, binascii.Error, UnicodeDecodeError) as exc:
        raise bad from exc
    if not isinstance(payload, dict) or set(payload) != {"v", "o", "f", "c"}:
        raise bad
    offset, mark, check = payload["o"], payload["f"], payload["c"]
    if (
        payload["v"] != PAGE_TOKEN_VERSION
        or isinstance(offset, bool)
        or not isinstance(offset, int)
        or not 0 < offset <= MAX_CANDIDATES
        or not isinstance(mark, str)
        or not isinstance(check, str)
        or check != _check_digest(offset, mark)
        or mark != fingerprint
    ):
        raise bad
    return offset
