"""Markdown links (`[text](target)`) read as their text, in one pass over any input.

Neither part of the pattern runs past the next bracket (the text stops at `[` or `]`, the
target at `(` or `)`, one level of parentheses allowed inside it), so no position is read again
from every earlier one: a run of `[` or of `[a](` hundreds of thousands long is read in one
pass, not in a time that grows with the square of its length.
"""

from __future__ import annotations

import re
from typing import Final

MARKDOWN_LINK: Final = re.compile(r"\[([^\[\]]+)\]\((?:[^()]|\([^()]*\))*\)")
"""A Markdown link; group 1 is its text."""


def unlinked(text: str) -> str:
    """`text` with each Markdown link replaced by the link's text."""
    return MARKDOWN_LINK.sub(r"\1", text)
