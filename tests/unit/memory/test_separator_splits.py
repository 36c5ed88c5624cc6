"""Separators that follow one another still split one by one.

The split patterns only start a separator's leading blanks where a run of blanks starts (so a
long run is read once); a separator right after another one's trailing blanks must still count.
"""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.activity import _SEGMENT_SPLIT, split_segments
from squirrel_memory.extractors.rule_lists import _PART_END
from squirrel_memory.extractors.session_routines import _MOVES_ON


@pytest.mark.parametrize(
    ("command", "segments"),
    [
        ("make; ; make test", ["make", "make test"]),
        ("make  &&  && make test", ["make", "make test"]),
        ("make ;\n; make test", ["make", "make test"]),
        ("make   ;   make test", ["make", "make test"]),
        ("make\n\n\nmake test", ["make", "make test"]),
    ],
)
def test_each_separator_splits_the_command(command: str, segments: list[str]) -> None:
    assert split_segments(command) == segments


def test_a_separator_after_another_leaves_an_empty_part() -> None:
    assert _SEGMENT_SPLIT.split("a; ; b") == ["a", "", "b"]
    assert _PART_END.split("tabs, , and spaces") == ["tabs", "", "spaces"]
    assert _MOVES_ON.split("commit it; ; push") == ["commit it", "", "push"]


def test_blanks_before_a_separator_belong_to_it() -> None:
    assert _SEGMENT_SPLIT.split("a   ;b") == ["a", "b"]
    assert _PART_END.split("tabs   , spaces") == ["tabs", "spaces"]
    assert _MOVES_ON.split("commit it  - then push") == ["commit it", "then push"]
