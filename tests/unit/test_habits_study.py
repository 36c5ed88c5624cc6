"""The habits study (bench/habits_study.py): every set loads with every transcript in place and
provenance beside it, no session name is in two sets, and the table counts a habit found only
when one memory states every concept, a memory matching no habit as not one, and one that
states a task instruction the set lists as `must_not` as a task kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.habits_study import STUDIES, STUDY, Outcome, StudyError, load_sessions, report


def test_every_set_loads_with_its_transcripts_and_sources() -> None:
    names: list[str] = []
    for path in STUDIES.values():
        sessions = load_sessions(path)
        assert sessions, path
        for session in sessions:
            assert session.paths and all(p.exists() for p in session.paths), session.name
        names += [s.name for s in sessions]
    assert len(names) == len(set(names))
    assert all((STUDY / f).exists() for f in ("SOURCES.md", "SOURCES2.md", "SOURCES3.md"))


def test_the_third_set_has_one_session_per_project_and_classes_every_habit() -> None:
    sessions = load_sessions(STUDIES["third"])
    assert all(len(s.paths) == 1 for s in sessions)
    assert all(h.kind for s in sessions for h in s.habits)
    assert sum(len(s.must_not) for s in sessions) >= 5


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


def test_a_memory_stating_a_task_instruction_is_a_task_kept(tmp_path: Path) -> None:
    path = tmp_path / "habits.toml"
    path.write_text(
        '[[session]]\nname = "s"\ntranscripts = ["x"]\n'
        '[[session.habit]]\nimportance = "high"\nclass = "repeated"\nnote = "tests first"\n'
        'match = [["test"], ["first"]]\n'
        '[[session.must_not]]\nnote = "limit to 20 this time"\nmatch = [["limit"]]\n',
        encoding="utf-8",
    )
    (session,) = load_sessions(path)
    outcome = Outcome(styles=[(0.4, "Limit it to 20 for now."), (0.4, "Write the test first.")])

    table = report([session], {"s": outcome}, details=True)

    assert "[TASK KEPT] (0.40) Limit it to 20 for now." in table
    assert "found by class: repeated 1/1" in table
    assert table.splitlines()[2].split()[-2:] == ["1", "1"]  # not habit, task kept


def test_an_unknown_class_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "habits.toml"
    path.write_text(
        '[[session]]\nname = "s"\ntranscripts = ["x"]\n'
        '[[session.habit]]\nclass = "loud"\nmatch = ["x"]\n',
        encoding="utf-8",
    )
    with pytest.raises(StudyError):
        load_sessions(path)
