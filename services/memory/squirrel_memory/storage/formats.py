"""Formats shared by every backend: sortable ids, stored times and JSON, searchable text."""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


class _SortableIds:
    """ULID-style ids: 48-bit milliseconds + 80 random bits, monotonic within one process."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last_ms = -1
        self._last_rand = 0

    def next(self) -> str:
        with self._lock:
            now_ms = time.time_ns() // 1_000_000
            if now_ms <= self._last_ms:
                now_ms = self._last_ms
                self._last_rand = (self._last_rand + 1) & ((1 << 80) - 1)
            else:
                self._last_rand = int.from_bytes(os.urandom(10), "big") >> 1
            self._last_ms = now_ms
            value = (now_ms << 80) | self._last_rand
        chars = []
        for _ in range(26):
            chars.append(_CROCKFORD[value & 31])
            value >>= 5
        return "".join(reversed(chars))


_IDS = _SortableIds()


def new_id(prefix: str) -> str:
    """A new unique id that sorts by creation time, e.g. `evt_01JD…` (prefix + `_` + 26 chars)."""
    return f"{prefix}_{_IDS.next()}"


def to_db_time(value: datetime) -> str:
    """Fixed-width UTC ISO-8601 text (`2026-11-22T03:52:09.123456Z`); naive values are UTC."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def from_db_time(text: str) -> datetime:
    """Parse a stored time; values written by older tools without a zone are read as UTC."""
    parsed = datetime.fromisoformat(text)
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed


# One encoder for every call: `json.dumps` with these options builds a new one each time (about
# a microsecond per event stored). An encoder keeps no state between calls; threads may share it.
_STORED_JSON = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":"), allow_nan=False, sort_keys=True
)


def to_json(value: Any) -> str:
    """Compact, key-sorted JSON as stored in TEXT columns (non-ASCII kept, NaN refused)."""
    return _STORED_JSON.encode(value)


_PLAIN_STRINGS = re.compile(r'\["[^"\\\x00-\x1f]*"(?:,"[^"\\\x00-\x1f]*")*\]')
"""A compact JSON array of strings without escapes (as Squirrel writes tags and paths): its
strings are the text between its `","` separators, which `json.loads` need not parse."""


def json_strings(text: str | None) -> tuple[str, ...]:
    """Decode a stored JSON array of strings; anything else decodes to ()."""
    if not text or text == "[]":
        return ()
    if _PLAIN_STRINGS.fullmatch(text):
        return tuple(text[2:-2].split('","'))
    try:
        value = json.loads(text)
    except ValueError:
        return ()
    if not isinstance(value, list):
        return ()
    return tuple(str(item) for item in value)


# --- identifier splitting for full-text search ----------------------------------------------

_LETTERS = re.compile(r"[A-Za-z]+")
_LOWER_UPPER = re.compile(r"[a-z][A-Z]")
_ALNUM = re.compile(r"[A-Za-z0-9]*")
_DIGITS = frozenset("0123456789")
_CAMEL_PART = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


def camel_identifiers(text: str) -> list[str]:
    """The camelCase identifiers of `text`: a run of letters with a lower-case letter followed
    by a capital inside it (`getUserName`), or followed by a digit and a capital (`utf8Decode`),
    through the end of its letters and digits.

    One pass over the text (what the regex `[A-Za-z]+[a-z0-9][A-Z][A-Za-z0-9]*` finds, without
    its backtracking: on a 10,000-letter word with no capital that regex took seconds)."""
    found: list[str] = []
    end = 0
    for run in _LETTERS.finditer(text):
        start, stop = run.span()
        if start < end:  # inside the identifier just found
            continue
        inside = _LOWER_UPPER.search(text, start + 1, stop) is not None
        after = stop + 1 < len(text) and text[stop] in _DIGITS and "A" <= text[stop + 1] <= "Z"
        if inside or after:
            match = _ALNUM.match(text, stop)
            end = match.end() if match is not None else stop
            found.append(text[start:end])
    return found


#: What a memory says of its own record, not of its subject: how many sessions a command worked
#: in, an error was seen in, a routine was done in ("(worked in 3 sessions)", "(done 4 times in
#: 2 sessions)", "A procedure done 3 times in 2 sessions: …", "(4 merges in sessions)"), or the
#: lead of a repeated request ("In 3 sessions the user asked: …"). A task that says "session"
#: is not about them: search neither matches nor embeds it.
_SESSIONS = r"in (?:\d+|one|two|three) sessions?\b"
_TALLY = re.compile(
    rf"\s*\((?:[a-z]+ )?(?:\d+ times )?{_SESSIONS}\)"
    rf"|\b(?:done|run|ran|seen|worked|said|used) \d+ times {_SESSIONS}"
    r"|\b\d+ [a-z]+ in sessions\b"
    r"|(?<![\w-])in \d+ sessions (?=the user\b)",
    re.IGNORECASE,
)
#: The tags that say how often something was said or met, not what it is about.
TALLY_TAGS = frozenset({"recurring", "tentative", "standing"})


def searchable_content(content: str) -> str:
    """A memory's text as search matches and embeds it: without its tallies (`_TALLY`); what
    is shown keeps them."""
    return _TALLY.sub("", content) if "session" in content.lower() else content


def searchable_tags(tags: Iterable[str]) -> list[str]:
    """A memory's tags as search matches and embeds them: without `TALLY_TAGS`."""
    return [t for t in tags if t not in TALLY_TAGS]


def fts_text(text: str) -> str:
    """Text for the FTS index: the original plus camelCase identifiers split into words.

    The tokenizer already splits on `_ . / - :`; camelCase (`getUserName`) is split here so
    `user name` finds it, while the whole identifier stays searchable too.
    """
    extra = [" ".join(_CAMEL_PART.findall(word)) for word in camel_identifiers(text)]
    return text if not extra else text + "\n" + " ".join(extra)
