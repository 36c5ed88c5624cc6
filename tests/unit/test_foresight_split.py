"""The foresight replay's split (bench/foresight_split.py): the tuning split never lists a
held-out project's transcripts, a key's tuning project joins the fixture projects, and the
scored sessions are halved into those `--details` may show and those it never shows."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import foresight_split
from bench.answer_key_gold import AnswerKey
from bench.foresight_score import Tally
from bench.foresight_table import ProjectResult, figures, table

KEYS = (
    AnswerKey("tuned-app", "Go", (), (), split="tuning"),
    AnswerKey("kept-apart", "Elixir", (), (), split="held-out"),
    AnswerKey("-Users-me-fixture-app", "Python", (), (), split="tuning"),
)


def _transcript(folder: Path, name: str = "a.jsonl") -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text('{"x": 1}\n', encoding="utf-8")


@pytest.fixture
def roots(tmp_path: Path) -> tuple[Path, Path]:
    fixtures, keyed = tmp_path / "fixtures", tmp_path / "transcripts"
    _transcript(fixtures / "claude" / "real_projects" / "-Users-me-fixture-app")
    _transcript(fixtures / "claude" / "real_projects" / "kept-apart")
    _transcript(keyed / "tuned-app")
    _transcript(keyed / "kept-apart")
    _transcript(keyed / "-Users-me-fixture-app")  # the fixtures hold it already
    return fixtures, keyed


def test_the_tuning_split_takes_the_fixtures_and_the_keys_tuning_projects(
    roots: tuple[Path, Path],
) -> None:
    fixtures, keyed = roots
    names = [n for n, _ in foresight_split.replayed_groups(fixtures, "tuning", KEYS, keyed)]

    assert names == ["-Users-me-fixture-app", "key:tuned-app"]


def test_the_tuning_split_never_lists_a_held_out_project(roots: tuple[Path, Path]) -> None:
    fixtures, keyed = roots
    groups = foresight_split.replayed_groups(fixtures, "tuning", KEYS, keyed)

    assert all("kept-apart" not in str(p) for _, paths in groups for p in paths)


def test_the_held_out_split_takes_only_held_out_projects_once(roots: tuple[Path, Path]) -> None:
    fixtures, keyed = roots
    names = [n for n, _ in foresight_split.replayed_groups(fixtures, "held-out", KEYS, keyed)]

    assert names == ["kept-apart"]


def test_an_unknown_split_is_refused(roots: tuple[Path, Path]) -> None:
    with pytest.raises(ValueError, match="unknown split"):
        foresight_split.replayed_groups(roots[0], "everything", KEYS, roots[1])


def test_a_fixture_session_is_studied_by_its_ids_hash_and_a_keys_never() -> None:
    ids = [f"session-{n}" for n in range(40)]
    marks = [foresight_split.studied("-Users-me-fixture-app", i) for i in ids]

    assert 10 < sum(marks) < 30  # about half, and the same on every run
    assert marks == [foresight_split.studied("-Users-me-fixture-app", i) for i in ids]
    assert not any(foresight_split.studied("key:tuned-app", i) for i in ids)


def test_the_table_and_figures_show_studied_and_unstudied_sessions_apart() -> None:
    studied = Tally(sessions=2, served=4, unused=1)
    unstudied = Tally(sessions=1, served=2, unused=2)
    total = Tally()
    total.add(studied)
    total.add(unstudied)
    result = ProjectResult("app", 4, 10, 3, total, studied=studied, unstudied=unstudied)

    rows = [[c.strip() for c in line.split("|")[1:-1]] for line in table([result]).splitlines()]
    noise = rows[0].index("noise")
    assert rows[3][:2] == ["studied sessions (pooled)", "2"] and rows[3][noise] == "1/4 25 %"
    assert rows[4][:2] == ["unstudied sessions (pooled)", "1"] and rows[4][noise] == "2/2 100 %"
    measures = {f.measure: f.value for f in figures([result])}
    assert measures["unstudied sessions: served items unused (noise)"] == 1.0
    assert measures["studied sessions: served items unused (noise)"] == 0.25
