"""The reads written once (`memory_reads`, `event_log`): each dialect's read plans use only its
own placeholder, take exactly the values they are given, and name the project by id only on
the database every project shares."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pytest

from squirrel_memory.models import MemoryType
from squirrel_memory.storage.dialect import POSTGRES, SQLITE, Dialect
from squirrel_memory.storage.memory_reads import kind_version, load, load_many, texts
from squirrel_memory.storage.queries import Rows

DIALECTS = pytest.mark.parametrize("d", [SQLITE, POSTGRES], ids=["sqlite", "postgres"])


def _steps(plan: Generator[Rows, Any, Any], reply: list[Any]) -> list[Rows]:
    """Every step of `plan`, each answered with `reply`."""
    steps = [next(plan)]
    try:
        while True:
            steps.append(plan.send(reply))
    except StopIteration:
        return steps


@DIALECTS
def test_every_read_takes_as_many_values_as_it_has_placeholders(d: Dialect) -> None:
    other = "%s" if d is SQLITE else "?"
    plans = [
        load(d, "/p", "mem_1", lock=True),
        load_many(d, "/p", ["mem_1", "mem_2"]),
        texts(d, "/p", MemoryType.PROJECT_FACT, None),
        kind_version(d, "/p", MemoryType.PROJECT_FACT),
    ]
    for plan in plans:
        for step in _steps(plan, []):
            assert step.sql.count(d.mark) == len(step.params), step.sql
            assert other not in step.sql


def test_a_read_by_id_names_its_project_only_on_the_shared_database() -> None:
    (on_sqlite,) = _steps(load(SQLITE, "/p", "mem_1"), [])
    (on_postgres,) = _steps(load(POSTGRES, "/p", "mem_1", lock=True), [])
    assert on_sqlite.params == ("mem_1",)
    assert "project_id" not in on_sqlite.sql.split("WHERE")[1]
    assert on_postgres.params == ("mem_1", "/p")
    assert on_postgres.sql.endswith("AND project_id = %s FOR UPDATE")


@DIALECTS
def test_many_ids_are_read_in_chunks_in_the_order_asked(d: Dialect) -> None:
    ids = [f"mem_{i}" for i in range(1200)]
    steps = _steps(load_many(d, "/p", [*ids, ids[0]]), [])
    assert len(steps) == 3
    sent = [d.load_list(step.params[0]) for step in steps]
    assert [i for chunk in sent for i in chunk] == ids
