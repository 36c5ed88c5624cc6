"""The facts study's judge (bench/facts_study.py): facts found or missed, `unsure` facts apart,
`never` patterns as wrong facts that cover nothing, the answer key's junk rules as noise; and
every study folder in the repository loads, with provenance beside it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.facts_study import STUDY_DIR, StudyError, judge, load_studies, load_study
from squirrel_memory.models import MemoryCandidate, MemoryType


def _memory(text: str, kind: MemoryType = MemoryType.PROJECT_FACT) -> MemoryCandidate:
    return MemoryCandidate(type=kind, key=f"k{len(text)}", content=text, tags=(), importance=0.5)


def _study(tmp_path: Path, expected: str) -> Path:
    folder = tmp_path / "shop"
    folder.mkdir()
    (folder / "expected.toml").write_text(expected)
    (folder / "go.mod").write_text("module example.com/shop\n\ngo 1.22\n")
    return folder


EXPECTED = """
[[fact]]
fact = "language: Go"
match = ['\\bGo\\b']

[[fact]]
fact = "database: SQLite"
match = ['SQLite']

[[fact]]
fact = "test command"
match = ['`go test']
unsure = true

[[never]]
pattern = 'PostgreSQL'
reason = "SQLite only"
"""


def test_facts_are_found_missed_or_wrong_and_junk_is_noise(tmp_path: Path) -> None:
    study = load_study(_study(tmp_path, EXPECTED))
    result = judge(
        study,
        [
            _memory("Go project (go.mod: Go 1.22)."),
            _memory("The project's database is PostgreSQL, with SQLite for tests."),
            _memory("Run the tests with `go test ./...` and"),
            _memory("The user prefers tabs.", MemoryType.USER_STYLE),
        ],
    )
    assert result.found == ["language: Go"]
    # The wrong memory names SQLite too, but a wrong memory covers nothing.
    assert result.missed == ["database: SQLite"]
    assert [why for _, why in result.wrong] == ["SQLite only"]
    assert len(result.junk) == 1  # no sentence ending
    assert result.bonus == ["test command"]  # an unsure fact found counts apart
    assert result.noise == 2
    assert len(result.memories) == 3  # the user's style is not judged by a facts study


def test_an_unsure_fact_missed_is_not_counted(tmp_path: Path) -> None:
    result = judge(load_study(_study(tmp_path, EXPECTED)), [])
    assert result.missed == ["language: Go", "database: SQLite"]
    assert result.bonus == []


def test_the_copied_files_exclude_the_study_s_own_notes(tmp_path: Path) -> None:
    folder = _study(tmp_path, EXPECTED)
    (folder / "SOURCES.md").write_text("# provenance\n")
    assert [path for path, _ in load_study(folder).files()] == ["go.mod"]


@pytest.mark.parametrize(
    "expected",
    ["[[fact]]\nfact = 'x'\nmatch = []\n", "[[never]]\npattern = 'x'\nreason = 'y'\n", "[[fact"],
)
def test_a_malformed_study_is_refused(tmp_path: Path, expected: str) -> None:
    with pytest.raises(StudyError):
        load_study(_study(tmp_path, expected))


def test_every_study_in_the_repository_loads_with_its_sources() -> None:
    studies = load_studies()
    assert len(studies) >= 10
    for study in studies:
        sources = (STUDY_DIR / study.name / "SOURCES.md").read_text(encoding="utf-8")
        assert "licen" in sources.lower(), study.name
        assert study.files(), study.name
