"""Fixture transcripts placed where an assistant would write them, moved into a test project."""

from __future__ import annotations

import json
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def relocate_line(line: str, cwd: str, session_suffix: str = "") -> str:
    """The same record with its `cwd` pointing into the test project (blank lines kept);
    with `session_suffix`, a distinct session (so copies are not duplicates of each other)."""
    if not line.strip():
        return line
    try:
        record = json.loads(line)
    except json.JSONDecodeError:
        return line
    if isinstance(record, dict):
        if "cwd" in record:
            record["cwd"] = cwd
        if session_suffix and isinstance(record.get("sessionId"), str):
            record["sessionId"] += session_suffix
    return json.dumps(record) + "\n"


def place_claude(
    source: Path, claude_root: Path, cwd: str, name: str | None = None, session_suffix: str = ""
) -> Path:
    """Copies a Claude fixture to `<root>/<encoded cwd>/<name>` with every cwd set to `cwd`."""
    folder = claude_root / ("-" + cwd.strip("/").replace("/", "-"))
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / (name or source.name)
    lines = source.read_text().splitlines(keepends=True)
    target.write_text("".join(relocate_line(line, cwd, session_suffix) for line in lines))
    return target


def append_claude(source: Path, target: Path, cwd: str, skip_lines: int) -> int:
    """Appends the lines of `source` after the first `skip_lines`; returns how many."""
    lines = source.read_text().splitlines(keepends=True)[skip_lines:]
    with target.open("a") as fh:
        fh.write("".join(relocate_line(line, cwd) for line in lines))
    return len(lines)
