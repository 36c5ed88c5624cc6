"""Decoding one transcript line into a record: torn lines and bytes that are not UTF-8 recovered
where the record can still be read, every other fault counted by its reason."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

import orjson

from squirrel_core.lone_surrogates import whole_value

#: How many inner `{"` boundaries are tried when a line is two records run together.
TORN_LINE_ATTEMPTS = 16
#: A JSON escape of a UTF-16 surrogate: only a line holding one can decode to a lone surrogate.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def decode_record(line: bytes, skipped: Counter[str]) -> dict[str, Any] | None:
    """Decode one JSONL line into a dict, recovering the tail of a torn line when possible."""
    if not line.strip():
        skipped["blank_line"] += 1
        return None
    value = _loads(line)
    if value is None:
        value = _with_bad_bytes_replaced(line)
        if value is not None:
            skipped["invalid_utf8_replaced"] += 1
    if value is None:
        value = _recover_torn_line(line)
        if value is None:
            skipped["malformed_json"] += 1
            return None
        skipped["torn_line_prefix"] += 1
    if _SURROGATE_ESCAPE.search(line):
        whole = whole_value(value)
        if whole != value:  # half of an emoji cut from its pair: U+FFFD, as a bad byte is
            skipped["lone_surrogates_replaced"] += 1
            value = whole
    if not isinstance(value, dict):
        skipped["not_an_object"] += 1
        return None
    return value


def _loads(data: bytes) -> Any:
    """`json.loads(data)`, or None where it raises. orjson decodes the lines it accepts (the
    same values in about half the time, except that an integer beyond 64 bits comes as a
    double: what the memory service reads every number as anyway); what it refuses and `json`
    may read (NaN, lone surrogates, a byte-order mark, a number beyond a double) goes to
    `json`."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        pass
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        return None


def _with_bad_bytes_replaced(line: bytes) -> Any:
    """A line whose fault is bytes that are not UTF-8 (a write cut inside a character, a tool's
    output in another encoding), read with each such byte as U+FFFD; None for any other line."""
    try:
        line.decode("utf-8")
    except UnicodeDecodeError:
        return _loads(line.decode("utf-8", errors="replace").encode("utf-8"))
    return None


def _recover_torn_line(line: bytes) -> Any:
    """Find a complete record after a half-written one: `{"a":1,"b{"type":...}`."""
    start = 1
    for _ in range(TORN_LINE_ATTEMPTS):
        start = line.find(b'{"', start)
        if start < 0:
            return None
        value = _loads(line[start:])
        if isinstance(value, dict):
            return value
        start += 2
    return None
