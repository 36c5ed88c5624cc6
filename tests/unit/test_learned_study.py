"""The learned study's judge (bench/learned_study.py): items found by a project fact, pitfall or
recipe and not by a user_style note, a memory that states a `wrong` entry counted wrong and never
as an item's cover, project facts that match no item counted apart; and the study in the
repository loads, every session with its transcripts and provenance."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.learned_study import STUDIES, STUDY, Outcome, load_sessions, report
from bench.study_files import StudyError

STUDY_TOML = """
[[session]]
name = "shop"
transcripts = ["sessions/shop"]

[[session.item]]
importance = "high"
kind = "pitfall"
note = "SA5011 fires because staticcheck does not know t.Fatal stops the test."
match = [["SA5011"], ["t\\\\.Fatal"]]

[[session.item]]
kind = "project_fact"
note = "The journal is the `_migrations` table."
match = [["_migrations"]]

[[session.wrong]]
note = "A database other than ClickHouse."
match = [["postgres"]]
"""


def _sessions(tmp_path: Path) -> Path:
    path = tmp_path / "learned.toml"
    path.write_text(STUDY_TOML)
    return path


def test_items_are_found_by_learned_types_and_wrong_memories_are_apart(tmp_path: Path) -> None:
    sessions = load_sessions(_sessions(tmp_path))
    outcome = Outcome(
        memories=[
            ("pitfall", 0.5, "SA5011 fires in tests: staticcheck does not know t.Fatal stops."),
            ("user_style", 0.6, "The journal is the `_migrations` table, the user said."),
            ("project_fact", 0.45, "The project's database is Postgres."),
            ("project_fact", 0.4, "TypeScript project (tsconfig.json)."),
        ]
    )
    text = report(sessions, {"shop": outcome}, details=True)
    row = next(line for line in text.splitlines() if line.startswith("shop "))
    # items, found, high found/high, wrong, facts, not item
    assert row.split() == ["shop", "2", "1", "1/1", "1", "2", "1"]
    assert "[MISSED] (normal) The journal is the `_migrations` table." in text
    assert "[WRONG project_fact]" in text


def test_an_item_without_match_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "learned.toml"
    path.write_text('[[session]]\nname = "x"\ntranscripts = ["a"]\n[[session.item]]\nnote = "n"\n')
    with pytest.raises(StudyError):
        load_sessions(path)


def test_the_study_in_the_repository_loads_with_its_transcripts() -> None:
    sessions = load_sessions()
    assert len(sessions) >= 8
    for session in sessions:
        assert session.items, session.name
        assert session.paths and all(p.exists() for p in session.paths), session.name
    sources = (STUDY / "SOURCES.md").read_text(encoding="utf-8")
    assert all(f"| {s.name} |" in sources for s in sessions)


def test_the_third_set_loads_with_its_transcripts_and_provenance() -> None:
    sessions = load_sessions(STUDIES["third"])
    assert len(sessions) >= 5
    sources = (STUDY / "SOURCES3.md").read_text(encoding="utf-8")
    for session in sessions:
        kinds = {item.note.split(":", 1)[0] for item in session.items}
        assert "what" in kinds, session.name
        assert session.paths and all(p.exists() for p in session.paths), session.name
        assert f"| {session.name} |" in sources


def test_the_made_up_sixth_set_writes_its_transcripts_and_has_quiet_cases() -> None:
    sessions = load_sessions(STUDIES["sixth"])
    assert len(sessions) >= 30
    quiet = [s for s in sessions if not s.items]
    assert len(quiet) >= 9 and all(s.wrong for s in quiet)
    assert all(s.paths and all(p.exists() for p in s.paths) for s in sessions)


def test_the_made_up_seventh_set_attaches_a_file_and_has_quiet_cases() -> None:
    sessions = load_sessions(STUDIES["seventh"])
    assert len(sessions) >= 6
    assert all("Called the Read tool" in s.paths[0].read_text(encoding="utf-8") for s in sessions)
    quiet = [s for s in sessions if not s.items]
    assert len(quiet) >= 3 and all(s.wrong for s in quiet)


def test_the_made_up_eighth_set_speaks_ten_languages_and_has_quiet_cases() -> None:
    sessions = load_sessions(STUDIES["eighth"])
    assert len(sessions) >= 12
    assert len({s.name.split("-")[0] for s in sessions if not s.name.startswith("quiet")}) >= 10
    quiet = [s for s in sessions if not s.items]
    assert len(quiet) >= 3 and all(s.wrong for s in quiet)
    assert all(s.paths and all(p.exists() for p in s.paths) for s in sessions)
