"""The foresight table (bench/foresight_table.py) shows the answer key's held-out projects only
as one pooled row unless asked; every other project keeps its own row, and the overall pooled
row counts them all."""

from __future__ import annotations

from bench import foresight_table
from bench.answer_key_gold import load_keys
from bench.foresight_score import Tally


def _result(name: str, warned: int, failures: int) -> foresight_table.ProjectResult:
    tally = Tally(sessions=2, failures=failures, warned=warned, misses=[f"{name} missed"])
    return foresight_table.ProjectResult(name, sessions=3, events=10, memories=4, tally=tally)


RESULTS = [
    _result("tuned", 1, 2),
    _result("kept-apart", 3, 4),
    _result("codex:also-apart", 0, 1),
]
HELD_OUT = frozenset({"kept-apart", "also-apart"})


def _first_cells(text: str) -> list[str]:
    return [line.split("|")[1].strip() for line in text.splitlines()[2:]]


def test_held_out_projects_are_one_pooled_row_after_the_rest() -> None:
    text = foresight_table.table(RESULTS, HELD_OUT)

    assert _first_cells(text) == ["all (pooled)", "tuned", "held-out projects (2, pooled)"]
    pooled = text.splitlines()[-1]
    assert "3/5" in pooled  # warned 3 of 5 failures, pooled over both held-out projects
    assert "4/7" in text.splitlines()[2]  # the overall row still counts every project


def test_without_held_out_projects_every_project_has_its_row() -> None:
    assert _first_cells(foresight_table.table(RESULTS)) == [
        "all (pooled)",
        "tuned",
        "kept-apart",
        "codex:also-apart",
    ]


def test_only_the_projects_not_held_out_are_shown_one_by_one() -> None:
    assert [r.name for r in foresight_table.shown(RESULTS, HELD_OUT)] == ["tuned"]
    assert foresight_table.shown(RESULTS) == RESULTS


def test_the_held_out_projects_are_the_answer_keys_held_out_split() -> None:
    held_out = foresight_table.held_out_projects()

    keys = load_keys()
    assert held_out == {k.project for k in keys if k.split == "held-out"}
    assert held_out and all(k.project not in held_out for k in keys if k.split == "tuning")


def test_the_prompts_own_items_have_their_columns_and_figures() -> None:
    tally = Tally(sessions=1, served=5, used=2, unused=3, prompt_served=2, prompt_unused=1)
    tally.prompt_used = 1
    result = foresight_table.ProjectResult("tuned", sessions=2, events=4, memories=3, tally=tally)
    row = foresight_table.table([result]).splitlines()[2]

    cells = [cell.strip() for cell in row.split("|")[1:-1]]
    assert cells[-2:] == ["2: 1/0/0/1", "1/2 50 %"]
    found = {f.measure: f.value for f in foresight_table.figures([result])}
    assert found["items served by prompts unused (prompt noise)"] == 0.5
    assert found["items served by prompts used"] == 0.5


def test_the_needs_met_add_up_the_five_kinds_and_not_the_sessions_scored() -> None:
    # Two of three sessions scored; of 1 failure, 2 commands, 1 instruction, 2 starts after a
    # passing test run and 1 after a stated rule, 5 were met: 5/7, beside the sessions' 2/3.
    tally = Tally(sessions=2, failures=1, warned=0, recipes=2, recipes_served=2)
    tally.instructions, tally.instructions_served = 1, 1
    tally.start_tests, tally.start_tests_served = 2, 1
    tally.start_prefs, tally.start_prefs_served = 1, 1
    result = foresight_table.ProjectResult("tuned", sessions=3, events=4, memories=3, tally=tally)
    head, _, row = foresight_table.table([result]).splitlines()[:3]

    names = [cell.strip() for cell in head.split("|")[1:-1]]
    cells = dict(zip(names, (cell.strip() for cell in row.split("|")[1:-1]), strict=True))
    assert (cells["sessions scored"], cells["needs met"]) == ("2/3", "5/7 71 %")
    found = {f.measure: f.value for f in foresight_table.figures([result])}
    assert found["needs met (the five kinds below, pooled)"] == 5 / 7
