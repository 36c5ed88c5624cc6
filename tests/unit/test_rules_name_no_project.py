"""No rule names an answer-key project: the same code must serve every ecosystem.

A rule written with a fixture's name in it (its folder, its product) holds for that project
alone, and the answer key would read better than Squirrel does on a project nobody has seen.
Three names are also ordinary things the code means in their own right.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Names that are also what the code means by them.
ORDINARY = {
    "julia": "the Julia language (its manifest and file extension)",
    "mise": "the mise tool manager and task runner (its config files)",
    "resting": "the English word (a pitfall resting after it stopped recurring)",
}


def _project_names() -> set[str]:
    keys = {f.stem for f in (ROOT / "bench/data/answer_key").glob("*.toml")}
    folders = {d.name for d in (ROOT / "bench/data/transcripts").iterdir() if d.is_dir()}
    return keys | folders


def _sources() -> list[Path]:
    return [f for part in ("core", "services", "cli") for f in (ROOT / part).rglob("*.py")]


def test_the_answer_key_has_projects_to_look_for() -> None:
    assert len(_project_names()) > 20


def _naming(paths: list[Path], names: set[str]) -> list[str]:
    """`path:line: text` for every line of `paths` that names one of `names`."""
    pattern = re.compile(
        r"(?<![\w-])(?:" + "|".join(re.escape(n) for n in sorted(names)) + r")(?![\w-])",
        re.IGNORECASE,
    )
    lowered = [n.lower() for n in names]
    return [
        f"{path.name}:{n}: {line.strip()}"
        for path in paths
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if any(name in line.lower() for name in lowered) and pattern.search(line)
    ]


def test_no_source_line_names_an_answer_key_project() -> None:
    assert _naming(_sources(), _project_names() - ORDINARY.keys()) == []


def test_a_planted_name_is_found_in_any_case_but_not_inside_another_word(tmp_path: Path) -> None:
    rule = tmp_path / "rule.py"
    rule.write_text('if "Tuist" in text:\n    pass\nTUISTLIKE = 1\nname = "pre-tuist"\n')
    assert _naming([rule], {"tuist"}) == ['rule.py:1: if "Tuist" in text:']
