"""The habits study (bench/habits_study.py): both sets load with every transcript in place and
provenance beside them, no session name is in both, and the table counts a habit found only
when one memory states every concept, a memory matching no habit as not one."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.habits_study import STUDIES, STUDY, Outcome, StudyError, load_sessions, report


def test_both_sets_load_with_their_transcripts_and_sources() -> None:
    names: list[str] = []
    for path in STUDIES.values():
        sessions = load_sessions(path)
        assert sessions, path
        for session in sessions:
            assert session.paths and all(p.exists() for p in session.paths), session.name
        names += [s.name for s in sessions]
    assert len(names) == len(set(names))
    assert (STUDY / "SOURCES.md").exists() and (STUDY / "SOURCES2.md").exists()


def test_a_habit_is_found_only_when_one_memory_states_every_concept(tmp_path: Path) -> None:
    path = tmp_path / "habits.toml"
    path.write_text(
        '[[session]]\nname = "s"\ntranscripts = ["x"]\n'
        '[[session.habit]]\nimportance = "high"\nnote = "commit and push"\n'
        'match = [["commit"], ["push"]]\n',
        encoding="utf-8",
    )
    (session,) = load_sessions(path)
    split = Outcome(styles=[(0.7, "The user asked to commit."), (0.7, "Then to push.")])
    joined = Outcome(styles=[(0.7, "In 2 sessions the user asked: “commit and push”.")])
    assert "1/1" not in report([session], {"s": split}, details=False)
    assert "1/1" in report([session], {"s": joined}, details=False)
    assert "[not a habit] (0.70) Then to push." in report([session], {"s": split}, details=True)


def test_a_habit_without_concepts_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "habits.toml"
    path.write_text(
        '[[session]]\nname = "s"\ntranscripts = ["x"]\n[[session.habit]]\nmatch = []\n',
        encoding="utf-8",
    )
    with pytest.raises(StudyError):
        load_sessions(path)
