"""`sqrl memories` and `sqrl history` say who remembered a memory: the table counts the
teammates when more than one did, and each version lists its writers."""

from __future__ import annotations

import io
from typing import Any

from squirrel_cli.commands.memory import _by
from squirrel_cli.console import Console
from squirrel_cli.read_view import print_memories


def _row(writers: list[str]) -> dict[str, Any]:
    return {
        "memory_id": "mem_01",
        "handle": "mem_abcd1234",
        "type": "project_fact",
        "key": "migrations",
        "content": "Run the database migrations before the API tests.",
        "written_by": "manual",
        "writers": writers,
        "source_refs": [],
        "importance": 0.8,
        "flags": [],
    }


def _listed(*rows: dict[str, Any]) -> str:
    out = io.StringIO()
    answer = {"memories": list(rows), "total": len(rows), "next_page_token": ""}
    print_memories("/home/a/shop", answer, Console(out), as_json=False, where="team")
    return out.getvalue()


def test_a_memory_two_teammates_remembered_says_so() -> None:
    assert "manual (2 teammates)" in _listed(_row(["alice", "bob"]))


def test_one_writer_or_none_adds_nothing() -> None:
    for writers in (["alice"], []):
        listed = _listed(_row(writers))
        assert "teammates" not in listed and "manual" in listed


def test_a_row_without_writers_from_an_older_gateway_still_prints() -> None:
    row = _row([])
    del row["writers"]
    assert "manual" in _listed(row)


def test_history_lists_the_writers_of_each_version() -> None:
    assert _by({"written_by": "manual", "writers": ["alice", "bob"]}) == "manual (alice, bob)"
    assert _by({"written_by": "rules", "writers": []}) == "rules"
