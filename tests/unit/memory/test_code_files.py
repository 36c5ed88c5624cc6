"""The one extension table: a file's language and ecosystem, for shares and for session votes."""

from __future__ import annotations

import pytest

from squirrel_memory.code_files import language_of, path_ecosystem


@pytest.mark.parametrize(
    ("path", "language", "ecosystem"),
    [
        ("src/App.kt", "Kotlin", "jvm"),
        ("lib/Parser.HH", "C++", "c"),
        ("infra/main.tf", "HCL", "terraform"),
        ("web/site.css", "CSS", ""),
    ],
)
def test_a_code_file_has_its_language_and_ecosystem(
    path: str, language: str, ecosystem: str
) -> None:
    assert language_of(path) == (language, ecosystem)


def test_markup_and_unknown_files_vote_for_no_ecosystem() -> None:
    assert path_ecosystem("web/site.css") is None
    assert path_ecosystem("docs/README.md") is None
    assert path_ecosystem("Makefile") is None
    assert path_ecosystem("src/main.rs") == "rust"
