"""Repairing `config.toml`: keep the allowed settings, drop what cannot be read, keep a backup."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import tomli_w

from squirrel_core.files import write_private_file
from squirrel_core.settings import CONFIG_FILE, file_values, lookup

_LINE = re.compile(r"at line (\d+)")
MAX_DROPPED_LINES = 1_000


@dataclass(frozen=True)
class ConfigRepair:
    """What `repair_config` did: the backup it kept, the settings kept, and what was dropped."""

    backup: Path | None
    kept: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    """One entry per dropped line or setting; never the value itself (it may be a key)."""


def _salvage(text: str) -> tuple[dict[str, object], list[str]]:
    """The file parsed after dropping each line TOML cannot read (reported by line number)."""
    lines = text.splitlines()
    dropped: list[str] = []
    original = list(range(1, len(lines) + 1))
    for _ in range(MAX_DROPPED_LINES):
        try:
            return tomllib.loads("\n".join(lines)), dropped
        except (tomllib.TOMLDecodeError, RecursionError) as exc:  # or nested past its depth
            found = _LINE.search(str(exc))
            index = int(found.group(1)) - 1 if found else -1
            if not 0 <= index < len(lines):
                index = max((i for i, line in enumerate(lines) if line.strip()), default=-1)
            if index < 0:
                return {}, dropped
            dropped.append(f"line {original[index]} (not valid TOML)")
            del lines[index]
            del original[index]
    return {}, [*dropped, "the rest of the file (too many broken lines)"]


def _free_backup_name(path: Path, stamp: str) -> Path:
    """`config.toml.broken-<stamp>`, or `…-2`, `…-3` when taken: the stamp is to the second, and
    a second repair within it must not replace the first original."""
    backup = path.with_name(f"{CONFIG_FILE}.broken-{stamp}")
    number = 2
    while backup.exists():
        backup = path.with_name(f"{CONFIG_FILE}.broken-{stamp}-{number}")
        number += 1
    return backup


def repair_config(home: Path, *, now: datetime | None = None) -> ConfigRepair:
    """Rewrites `<home>/config.toml` with only its readable, known and allowed settings.

    The original is first copied to `config.toml.broken-<UTC time>` (mode 0600, since it may
    hold the API key; `-2`, `-3`… after it when that second already has a backup). Nothing is
    written when the file is absent or already fine.
    """
    path = home / CONFIG_FILE
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return ConfigRepair(None)
    raw, dropped = _salvage(data.decode("utf-8", errors="replace"))
    values, problems = file_values(raw)
    if not dropped and not problems and b"\x00" not in data:
        try:
            data.decode("utf-8")
            return ConfigRepair(None, kept=sorted(values))
        except UnicodeDecodeError:
            pass
    backup = _free_backup_name(path, (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ"))
    write_private_file(backup, data)
    tables: dict[str, dict[str, object]] = {}
    for dotted, value in values.items():
        setting = lookup(dotted)
        tables.setdefault(setting.section, {})[setting.name] = value
    header = b"# Squirrel settings: see `sqrl config list`. Repaired by `sqrl doctor --repair`.\n"
    write_private_file(path, header + tomli_w.dumps(tables).encode())
    return ConfigRepair(backup, kept=sorted(values), dropped=dropped + problems)


__all__ = ["ConfigRepair", "repair_config"]
