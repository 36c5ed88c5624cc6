"""Stored JSON lists of strings decode as `json.loads` reads them, and memory rows' enums as
their enum's call does."""

from __future__ import annotations

import json

import pytest

from squirrel_memory.models import MemorySource, MemoryType, Scope
from squirrel_memory.storage.dialect import SQLITE
from squirrel_memory.storage.formats import json_strings
from squirrel_memory.storage.memory_reads import row_reader

_TEXTS = [
    '["a"]',
    '[""]',
    '["",""]',
    '["style","render"]',
    '["src/app.py","docs/a b.md","é/ü.rs"]',
    '["a", "b"]',
    '["a",1]',
    '[1,"a"]',
    '["a",["b"]]',
    '["a",null,"b"]',
    '["a\\"b","c"]',
    '["\\u00e9"]',
    '["tab\\there"]',
    '["a"',
    ' ["a"]',
    '["a"] ',
    '["a","b",2,"c"]',
    '{"a":"b"}',
    "null",
]


@pytest.mark.parametrize("text", _TEXTS)
def test_stored_string_lists_decode_as_json_reads_them(text: str) -> None:
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    expected = tuple(str(v) for v in value) if isinstance(value, list) else ()
    assert json_strings(text) == expected


def test_a_raw_control_character_makes_a_list_unreadable_as_before() -> None:
    assert json_strings('["a\x01b"]') == ()


def _row(scope: str, kind: str, source: str) -> tuple[object, ...]:
    return (
        "mem_1", "/p", "u", scope, kind, "k", "c", '["t"]', 0.5,
        "2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z", source, "[]", None, "[]", 0, None, 1,
        "[]", "", "[]",
    )  # fmt: skip


def test_a_row_decodes_its_enums_to_their_members() -> None:
    item = row_reader(SQLITE)(_row("project", "pitfall", "manual"))
    assert (item.scope, item.type, item.source) == (
        Scope.PROJECT,
        MemoryType.PITFALL,
        MemorySource.MANUAL,
    )
    assert item.tags == ("t",)


def test_a_row_with_an_unknown_enum_value_is_refused_as_before() -> None:
    with pytest.raises(ValueError):
        row_reader(SQLITE)(_row("planet", "pitfall", "manual"))
