"""A command as a memory shows it: whole when it fits, else with its long free-text arguments
shown as `'…'`, else its stable head (`shown_command`); a line judged whole (`shown_line`) cut
after its last whole word instead, never reduced to its first command; text flattened and cut
with "…" (`clip`)."""

from __future__ import annotations

import shlex

from squirrel_memory.extractors.evidence.attempts import command_base


def clip(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


#: An argument longer than this (a prompt, a message) is shown as `'…'` in a long command.
_LONG_ARGUMENT = 24


def shown_line(text: str, limit: int) -> str:
    """A command line judged as a whole (a host refused all of it), as `shown_command` shows it
    when that fits; else its words, long free text as `'…'`, cut after the last whole word
    that fits: its first command alone would name the wrong one."""
    shown = shown_command(text, limit)
    flat = " ".join(text.split())
    if len(flat) <= limit or shown != command_base(flat):
        return shown
    short = _shortened(flat)
    room = short[: limit - 1]
    cut = room[: room.rfind(" ")] if " " in room else room
    return cut.rstrip(" ;|&") + " …"


def _shortened(flat: str) -> str:
    try:
        words = shlex.split(flat)
    except ValueError:
        words = flat.split()
    return " ".join(_shown_word(w) for w in words)


def _shown_word(word: str) -> str:
    """A word as shown: long free text as `'…'`, keeping a `;` the shell read after it."""
    bare = word.removesuffix(";")
    if len(bare) > _LONG_ARGUMENT or (" " in bare and len(bare) > 8):
        return "'…'" + word[len(bare) :]
    return word


def shown_command(text: str, limit: int) -> str:
    """A command as typed, whole when it fits; else with its long free-text arguments shown
    as `'…'` (every program, option and short value kept); else its stable head. Never cut
    in the middle: the flag that mattered may be the last word."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    short = _shortened(flat)
    return short if len(short) <= limit else command_base(flat)
