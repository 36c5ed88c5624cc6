"""A command as a memory shows it: whole when it fits, else with its long free-text arguments
shown as `'…'`, else its stable head (`shown_command`); text flattened and cut with "…"
(`clip`)."""

from __future__ import annotations

import shlex

from squirrel_memory.extractors.evidence.attempts import command_base


def clip(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


#: An argument longer than this (a prompt, a message) is shown as `'…'` in a long command.
_LONG_ARGUMENT = 24


def shown_command(text: str, limit: int) -> str:
    """A command as typed, whole when it fits; else with its long free-text arguments shown
    as `'…'` (every program, option and short value kept); else its stable head. Never cut
    in the middle: the flag that mattered may be the last word."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    try:
        words = shlex.split(flat)
    except ValueError:
        words = flat.split()
    short = " ".join(
        "'…'" if len(w) > _LONG_ARGUMENT or (" " in w and len(w) > 8) else w for w in words
    )
    return short if len(short) <= limit else command_base(flat)
