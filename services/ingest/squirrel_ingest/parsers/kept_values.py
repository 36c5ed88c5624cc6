"""How much of a text or a JSON value an event keeps: outputs cut at their end, messages and
reports kept by their head and tail, tool inputs copied with their strings and containers
bounded (the bounds themselves live in `squirrel_core.kept_text`)."""

from __future__ import annotations

from typing import Any

from squirrel_core.kept_text import (
    FIRST_INPUT_LIMIT,
    FIRST_TEXT_LIMIT,
    INPUT_KEPT,
    cut_end,
    keep_ends,
)

#: Longest output kept in an event (a subagent's report and a file read aside); longer values are
#: cut and marked.
#: Messages, tool inputs, shell commands and reports keep more (`squirrel_core.kept_text`).
TEXT_LIMIT = FIRST_TEXT_LIMIT
#: Longest string kept inside a value copied with `cap_value` (a Cursor tool's result).
INPUT_STRING_LIMIT = FIRST_INPUT_LIMIT
#: Most characters a tool call's input keeps in all its strings past `INPUT_STRING_LIMIT` each.
INPUT_TOTAL_KEPT = 64_000
#: Most list items / dict keys kept inside a tool's input dict, and how deep it is copied.
INPUT_ITEMS_LIMIT = 50
INPUT_DEPTH_LIMIT = 4


def cap_text(text: str, limit: int = TEXT_LIMIT) -> str:
    """Cut `text` to `limit` characters, saying how much was dropped."""
    return cut_end(text, limit)


def keep_text(text: str) -> str:
    """A message's text or a subagent's report as an event keeps it: whole up to a bound, else
    its head and its tail (`squirrel_core.kept_text.keep_ends`)."""
    return keep_ends(text)


def keep_input(value: Any) -> Any:
    """A tool call's input as an event keeps it: `cap_value` with strings kept to `INPUT_KEPT`,
    unless its strings then add up to more than `INPUT_TOTAL_KEPT` characters (fifty long edits
    in one call): it is then cut as before, each string to `INPUT_STRING_LIMIT`."""
    kept = cap_value(value, limit=INPUT_KEPT)
    if _chars(kept) > INPUT_TOTAL_KEPT:
        return cap_value(value)
    return kept


def _chars(value: Any) -> int:
    if isinstance(value, str):
        return len(value)
    if isinstance(value, dict):
        return sum(_chars(item) for item in value.values())
    if isinstance(value, list):
        return sum(_chars(item) for item in value)
    return 0


def cap_value(value: Any, depth: int = 0, *, limit: int = INPUT_STRING_LIMIT) -> Any:
    """Copy a JSON value with strings cut to `limit` and big containers trimmed."""
    if isinstance(value, str):
        return cap_text(value, limit)
    if value is None or isinstance(value, bool | int | float):
        return value
    if depth >= INPUT_DEPTH_LIMIT:
        return "…[nested value dropped]"
    if isinstance(value, dict):
        items = list(value.items())[:INPUT_ITEMS_LIMIT]
        return {str(key): cap_value(item, depth + 1, limit=limit) for key, item in items}
    if isinstance(value, list):
        return [cap_value(item, depth + 1, limit=limit) for item in value[:INPUT_ITEMS_LIMIT]]
    return None
