"""Parked work in one line each: what waits, why, and the command that fixes it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

MODEL_PREFIX = "model:"


def _reason(error: str) -> str:
    """The error's message without its exception type (`PermanentExtractionError: …`)."""
    head, sep, rest = error.partition(": ")
    return rest if sep and head.isidentifier() and head[:1].isupper() else error


def fix_for(reason: str) -> str:
    """The command that fixes a parked episode, given why it is parked ("" when the reason
    already names it)."""
    if "sqrl process" in reason:
        return ""
    if "not found on PATH" in reason:
        return "install it or `sqrl config set extractor.backend rules`, then `sqrl process`"
    lowered = reason.lower()
    if any(word in lowered for word in ("timed out", "rate limited", "cap reached", "server")):
        return "retried automatically with back-off; `sqrl process` retries now"
    return "`sqrl doctor` checks the backend; `sqrl process` retries now"


def parked_lines(project: str, letters: Iterable[tuple[str, str]]) -> list[str]:
    """One line per distinct (kind, reason) of a project's parked work, with its count (led by
    the project's name unless `project` is empty)."""
    groups = Counter((kind, _reason(error)) for kind, error in letters)
    lines = []
    for (kind, reason), count in groups.items():
        what = f"{count} episode{'s' if count != 1 else ''}"
        if kind.startswith(MODEL_PREFIX):
            what += f" parked for {kind.removeprefix(MODEL_PREFIX)} (the rules' part is written)"
        elif kind == "extraction":
            what += " parked (not extracted yet)"
        else:
            what += f" parked ({kind})"
        fix = fix_for(reason)
        lead = f"{project}: " if project else ""
        lines.append(f"{lead}{what}: {reason}" + (f"; fix: {fix}" if fix else ""))
    return lines
