"""The test run collects the longest files first (tests/conftest.py): a file with a `slow` test,
then the other end-to-end files, then the rest, each file's tests together and in their order,
so that several workers never end with a minutes-long file started last."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import cast

import pytest

from tests.conftest import pytest_collection_modifyitems


@dataclass(frozen=True)
class _Mark:
    name: str


@dataclass(frozen=True)
class _Item:
    path: Path
    name: str
    marks: tuple[str, ...] = ()

    def iter_markers(self) -> list[_Mark]:
        return [_Mark(name) for name in self.marks]


def test_files_with_a_slow_test_come_first_then_end_to_end_files_then_the_rest() -> None:
    unit, e2e, mixed = Path("tests/unit/test_a.py"), Path("tests/e2e/test_b.py"), Path("c.py")
    items = [
        _Item(unit, "u1"),
        _Item(mixed, "m1"),
        _Item(e2e, "e1", ("e2e",)),
        _Item(mixed, "m2", ("slow",)),
        _Item(unit, "u2"),
        _Item(e2e, "e2", ("e2e",)),
    ]
    pytest_collection_modifyitems(cast(list[pytest.Item], items))
    assert [item.name for item in items] == ["m1", "m2", "e1", "e2", "u1", "u2"]
