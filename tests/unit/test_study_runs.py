"""What the three studies share in printing (bench/study_runs.py): a table whose pair cells read
`found/of` and whose totals add each column, and sessions left out when a transcript is missing."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from bench.study_runs import StudyTable, present


@dataclass(frozen=True)
class Made:
    name: str
    paths: tuple[Path, ...]


def test_totals_add_counts_and_both_sides_of_pairs() -> None:
    table = StudyTable(6, [("seen", 5), ("high", 6)])
    table.add("a", 2, (1, 3))
    table.add("b", 4, (0, 2))
    lines = table.render("legend")
    assert lines[0] == "session  seen   high"
    assert lines[2] == "a          2    1/3"
    assert lines[-2] == "total      6    1/5"
    assert lines[-1] == "\nlegend"
    assert lines[1] == lines[-3] == "-" * len(lines[0])


def test_a_row_with_too_few_cells_is_refused() -> None:
    with pytest.raises(ValueError):
        StudyTable(6, [("seen", 5), ("high", 6)]).add("a", 2)


def test_sessions_missing_a_transcript_or_not_asked_for_are_left_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    there = tmp_path / "there.jsonl"
    there.write_text("{}\n", encoding="utf-8")
    sessions = [
        Made("kept", (there,)),
        Made("gone", (there, tmp_path / "gone.jsonl")),
        Made("empty", ()),
        Made("other", (there,)),
    ]
    assert [s.name for s in present(sessions, [])] == ["kept", "other"]
    assert "skipped (transcripts not found): gone, empty" in capsys.readouterr().out
    assert [s.name for s in present(sessions, ["other", "gone"])] == ["other"]
