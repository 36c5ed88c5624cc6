"""The short-sessions study's cases, its cuts of real sessions and how an outcome is judged (no
pipeline run)."""

from __future__ import annotations

import json
from pathlib import Path

from bench.short_session_cases import CASES, GO_FIX_TEST, KOTLIN_WRAPPER
from bench.short_session_cuts import CUTS, Cut
from bench.short_sessions import Outcome, _cut_records


def test_every_case_and_cut_is_named_once_and_keeps_something() -> None:
    names = [c.name for c in (*CASES, *CUTS)]
    assert len(names) == len(set(names))
    assert all(c.keep for c in (*CASES, *CUTS))
    assert all(len({i.id for i in c.keep}) == len(c.keep) for c in (*CASES, *CUTS))
    assert all(c.transcript().is_file() for c in CUTS)


def test_an_item_is_kept_by_a_memory_of_its_kinds_matching_all_its_patterns() -> None:
    test = ("recipe", "To run the tests: `go test ./...`.")
    language = ("project_fact", "The project (tidewater, go.mod) is written in Go.")
    assert Outcome(GO_FIX_TEST, [test, language]).right()
    assert [i.id for i in Outcome(GO_FIX_TEST, [test]).missed()] == ["language"]
    # the language said in a recipe is not a fact about the project
    assert not Outcome(GO_FIX_TEST, [test, ("recipe", language[1])]).stated()


def test_a_never_pattern_makes_the_case_wrong_and_a_failure_said_is_not_a_recipe() -> None:
    kept = [("project_fact", "Kotlin project."), ("recipe", "To run the tests: `./gradlew test`.")]
    assert Outcome(KOTLIN_WRAPPER, kept).right()
    said_failed = ("pitfall", "`gradle test` failed with `gradle: command not found`.")
    assert Outcome(KOTLIN_WRAPPER, [*kept, said_failed]).right()
    assert not Outcome(KOTLIN_WRAPPER, [*kept, ("recipe", "Run `gradle test`.")]).right()


def test_a_cut_keeps_the_first_records_a_stretch_near_the_end_and_the_last(tmp_path: Path) -> None:
    kinds = ["user", "progress", "assistant", "user", "assistant", "user", "system", "assistant"]
    kinds += ["user", "assistant", "system"]
    path = tmp_path / "p" / "s.jsonl"
    path.parent.mkdir()
    path.write_text("".join(json.dumps({"type": k, "n": i}) + "\n" for i, k in enumerate(kinds)))
    cut = Cut("p-cut", "", "", "p", "s.jsonl", keep=(), first=2, block=2, before_end=1)
    object.__setattr__(cut, "transcript", lambda: path)
    kept = [json.loads(line)["n"] for line in _cut_records(cut)]
    # counted records are 0 2 3 4 5 7 8 9: the first two (0..2, with the progress record
    # between), the two counted before the last but one (5..7, the system record between),
    # and the file's last record
    assert kept == [0, 1, 2, 5, 6, 7, 10]
