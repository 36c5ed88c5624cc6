"""The lessons study's judge (bench/lessons_study.py): a lesson is found only by a memory of its
kind that states every concept, a `wrong` pattern marks a pitfall or recipe as wrong, anything
else of those kinds is "not a lesson"; and the study in the repository loads, every session with
its transcripts and provenance beside it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.lessons_study import STUDY, Outcome, StudyError, judge, load_sessions

LESSONS = """
[[session]]
name = "shop"
transcripts = ["shop.jsonl"]

[[session.lesson]]
kind = "pitfall"
importance = "high"
note = "integration tests only compile under the build tag"
match = [["-tags=integration"], ["mismatched types", "MustCheckpointID"]]

[[session.lesson]]
kind = "recipe"
note = "the CI tests"
match = [["make test-ci"]]

[[session.wrong]]
pattern = "no test files"
why = "a listing line"
"""


def _sessions(tmp_path: Path, text: str = LESSONS) -> Path:
    path = tmp_path / "lessons.toml"
    path.write_text(text)
    return path


def test_lessons_are_found_by_their_kind_and_wrong_lines_are_wrong(tmp_path: Path) -> None:
    (session,) = load_sessions(_sessions(tmp_path))
    outcome = Outcome(
        memories=[
            # States the pitfall's concepts, but as a recipe: a recipe does not find a pitfall.
            ("recipe", 0.5, "Run `go test -tags=integration` (mismatched types otherwise)."),
            ("project_fact", 0.5, "CI runs `make test-ci`."),
            ("pitfall", 0.4, "`go test` printed `[no test files]` for cmd/app."),
            ("pitfall", 0.4, "`go vet` failed once."),
            ("user_style", 0.7, "The user wants `make test-ci` before a push."),
        ]
    )
    verdict = judge(session, outcome)
    assert [lesson.note for lesson in verdict.found] == ["the CI tests"]
    assert [text for _, _, text in verdict.wrong] == [
        "`go test` printed `[no test files]` for cmd/app."
    ]
    assert [text for _, _, text in verdict.not_lessons] == [
        "Run `go test -tags=integration` (mismatched types otherwise).",
        "`go vet` failed once.",
    ]
    # Only pitfalls and recipes are judged: the fact and the style note are not counted.
    assert verdict.judged == 3


def test_a_pitfall_memory_stating_every_concept_finds_the_pitfall(tmp_path: Path) -> None:
    (session,) = load_sessions(_sessions(tmp_path))
    text = "`go test -tags=integration` failed: mismatched types; fixed with `id.MustCheckpointID`."
    verdict = judge(session, Outcome(memories=[("pitfall", 0.6, text)]))
    assert [lesson.kind for lesson in verdict.found] == ["pitfall"]
    assert verdict.not_lessons == ()


def test_a_lesson_of_an_unknown_kind_is_refused(tmp_path: Path) -> None:
    bad = LESSONS.replace('kind = "recipe"', 'kind = "habit"')
    with pytest.raises(StudyError):
        load_sessions(_sessions(tmp_path, bad))


def test_the_study_in_the_repository_loads_with_its_transcripts() -> None:
    sessions = load_sessions()
    assert len(sessions) >= 7
    assert all(s.paths and all(p.exists() for p in s.paths) for s in sessions)
    assert sum(len(s.lessons) for s in sessions) >= 10
    assert (STUDY / "SOURCES.md").exists()
