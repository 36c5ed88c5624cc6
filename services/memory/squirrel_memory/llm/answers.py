"""Reading a model's JSON answer out of free text and checking it against the tool's schema."""

from __future__ import annotations

import json
from typing import Any, Final

from squirrel_memory.extractors.base import PermanentExtractionError

MAX_ANSWER_CHARS: Final = 1_000_000
"""A larger answer is refused unread: no extraction needs it, and parsing it costs memory."""


def _objects(text: str) -> list[Any]:
    """Every JSON object that starts at a `{` in `text`, outermost first."""
    decoder = json.JSONDecoder()
    found: list[Any] = []
    index = text.find("{")
    while index != -1 and len(found) < 20:
        try:
            value, end = decoder.raw_decode(text, index)
        except ValueError:
            index = text.find("{", index + 1)
            continue
        found.append(value)
        index = text.find("{", end)
    return found


_JSON_TYPES: Final[dict[str, type | tuple[type, ...]]] = {
    "object": dict,
    "array": list,
    "string": str,
    "number": (int, float),
    "integer": int,
    "boolean": bool,
}


def shape_problem(value: Any, tool: dict[str, Any]) -> str | None:
    """Why `value` is not the tool's input at the top level (None when it is). Items inside
    arrays are left to the caller, which keeps the good ones and drops the bad."""
    if not isinstance(value, dict):
        return "not a JSON object"
    schema = tool["input_schema"]
    for name in schema.get("required", []):
        if name not in value:
            return f"`{name}` is missing"
    for name, spec in schema.get("properties", {}).items():
        wanted = _JSON_TYPES.get(str(spec.get("type", "")))
        if name in value and wanted is not None:
            got = value[name]
            if not isinstance(got, wanted) or (isinstance(got, bool) and wanted is not bool):
                return f"`{name}` is not a {spec['type']}"
    return None


def checked_input(value: Any, tool: dict[str, Any]) -> dict[str, Any]:
    """`value` when it has the shape of the tool's input; `PermanentExtractionError` if not."""
    problem = shape_problem(value, tool)
    if problem is not None:
        raise PermanentExtractionError(f"model answer does not fit {tool['name']}: {problem}")
    assert isinstance(value, dict)
    return value


def tool_input_from_text(text: str, tool: dict[str, Any]) -> dict[str, Any]:
    """The first JSON object in `text` (bare, or inside a ```json fence, or after prose) that
    has the shape of the tool's input. Raises `PermanentExtractionError` when none does."""
    if len(text) > MAX_ANSWER_CHARS:
        raise PermanentExtractionError(f"model answer too large ({len(text):,} characters)")
    candidates = _objects(text)
    if not candidates:
        raise PermanentExtractionError("model answer holds no JSON object")
    for value in candidates:
        if shape_problem(value, tool) is None:
            return dict(value)
    return checked_input(candidates[0], tool)  # raises, naming the outermost object's problem


def json_instruction(tool: dict[str, Any]) -> str:
    """What a text-only backend is told instead of being handed a tool."""
    return (
        f"Answer with exactly one JSON object and nothing else: the input of the "
        f"`{tool['name']}` tool ({tool.get('description', '')}), matching this JSON schema:\n"
        + json.dumps(tool["input_schema"], separators=(",", ":"))
    )
