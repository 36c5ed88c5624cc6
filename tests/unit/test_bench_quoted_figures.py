"""bench/quoted_figures.py: which quoted speed and size figures name the run that printed them."""

from __future__ import annotations

from pathlib import Path

from bench.quoted_figures import CONTINUED, NAMED, UNNAMED, audit, judged, unreleased

DOC = """# Speed

## Search

`python -m bench.search_floor --sizes 400`, load 2.1: search p50 12.8 ms.

More of that run: the encoder took 5.1 ms.

## Writes

RememberMany measured 2,400/s.

```
took 99 ms in a fenced block
```

The service times out after 120 s.

Version 3.12 is supported.
"""


def _verdicts(text: str, **kwargs: bool) -> list[tuple[int, str]]:
    return [(p.line, p.verdict) for p in judged(Path("doc.md"), text, **kwargs)]


def test_a_named_run_its_continuation_and_an_unnamed_figure_are_told_apart() -> None:
    assert _verdicts(DOC) == [(5, NAMED), (7, CONTINUED), (11, UNNAMED)]


def test_settings_versions_and_fenced_code_are_not_figures() -> None:
    lines = {line for line, _ in _verdicts(DOC)}
    # the fenced "took 99 ms", "times out after 120 s" and "3.12" are never listed
    assert not lines & {14, 17, 19}


def test_a_load_without_its_value_does_not_name_the_run() -> None:
    text = "`bench.writes` took 4 ms; the load was not recorded.\n\n## B\n\n`bench.writes`, load 1.5: 3 ms.\n"
    assert _verdicts(text) == [(1, UNNAMED), (5, NAMED)]


def test_a_command_then_its_table_with_a_load_column_is_a_named_run() -> None:
    text = (
        "Adds took 1.1 ms each:\n\n```\npython -m bench.writes --size 10\n```\n\n"
        "| load | adds |\n|---|---|\n| 2.1 | 900/s |\n"
    )
    assert _verdicts(text) == [(1, CONTINUED), (7, CONTINUED)]


def test_a_run_named_in_one_section_does_not_cover_the_next() -> None:
    text = "## A\n\n`bench.writes`, load 1: 900/s.\n\n## B\n\nIt took 4 ms.\n"
    assert _verdicts(text) == [(3, NAMED), (7, UNNAMED)]


def test_changelog_entries_are_each_their_own_section() -> None:
    text = (
        "## Unreleased\n### Changed\n- Faster adds (`bench.writes`, load 1.2: 933/s).\n"
        "- Searches took 3 ms less.\n\n## 0.1.0\n- Old entry took 9 ms.\n"
    )
    assert _verdicts(unreleased(text), items_are_sections=True) == [(3, NAMED), (4, UNNAMED)]


def test_only_the_unreleased_changelog_and_the_docs_are_read(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("It took 4 ms.\n", encoding="utf-8")
    (tmp_path / "README.md").write_text("No figures.\n", encoding="utf-8")
    (tmp_path / "CHANGELOG.md").write_text(
        "## Unreleased\n- It took 5 ms.\n## 1.0\n- It took 6 ms.\n", encoding="utf-8"
    )
    found = audit(tmp_path)
    assert [(str(p.path), p.line, p.verdict) for p in found] == [
        ("docs/a.md", 1, UNNAMED),
        ("CHANGELOG.md", 2, UNNAMED),
    ]
