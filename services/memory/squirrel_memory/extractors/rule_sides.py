"""Which side a rule takes: a rule that bans or one that asks ("Never use tabs." / "Always use
tabs."), the side a choice takes ("Use pnpm, not npm."), and the figures it names ("2 spaces"),
for telling two rules in shared words apart (`paraphrases`, `recurrence`)."""

from __future__ import annotations

import re

from squirrel_memory.extractors.instruction_words import instruction_words

_CHOICE = re.compile(r"^Prefers\s+(.+?)\s+(?:over|to|rather than|instead of)\s", re.IGNORECASE)
#: A rule that bans: it opens on a prohibition ("Never …", "Don't …", "No …", "Avoid …") or
#: says "never" (a rule quoted in another language: its "never" word).
_BANS = re.compile(
    r"^[\W_]*(?:(?:please|pls|also|and|so|again)[ \t,]+)*(?:never|don'?t|do not|no|avoid|stop|"
    r"quit|not)\b|\bnever\b|[“\"]\s*(?:(?:ne|nie|nunca|jamais|jamás|mai|niemals|никогда|не|"
    r"asla)(?!\w)|不要|别|絶対)",
    re.IGNORECASE,
)
#: A figure a rule names ("2 spaces", "Python 3.12").
FIGURE = re.compile(r"\d+(?:\.\d+)*")
#: The side a rule chooses, before its rival: "Use pnpm, not npm." → "pnpm".
_SIDE = re.compile(
    r"^(?:(?:always|please|use|prefer|prefers|we use)[ \t]+)*(?P<side>[^,;]{1,60}?)"
    r"(?:,?[ \t]+(?:not|instead of|rather than|over)[ \t]+)",
    re.IGNORECASE,
)


def opposite_choices(first: str, second: str) -> bool:
    """Two choices that prefer different things ("Prefers pnpm over npm." / "Prefers npm over
    pnpm."): the same words, opposite rules."""
    a, b = _chosen(first), _chosen(second)
    return bool(a and b and a != b)


def opposite_rules(first: str, second: str) -> bool:
    """A rule that bans and one that does not ("Always use tabs." / "Never use tabs."), or two
    that choose different sides ("Use pnpm, not npm." / "Use npm, not pnpm.")."""
    if bool(_BANS.search(first)) != bool(_BANS.search(second)):
        return True
    if opposite_choices(first, second):
        return True
    a, b = _SIDE.match(first), _SIDE.match(second)
    if a is None or b is None:
        return False
    chosen_a, chosen_b = instruction_words(a.group("side")), instruction_words(b.group("side"))
    return bool(chosen_a and chosen_b and not chosen_a & chosen_b)


def _chosen(content: str) -> str:
    """What a choice prefers ("Prefers pnpm over npm." → "pnpm"); empty for other rules. The
    same words in the other order are the opposite choice."""
    match = _CHOICE.match(content)
    return match.group(1).lower() if match else ""
