"""Memory text that must not reach a model unasked: code fetched and run, orders to the model.

`flags_of(text)` names what is hazardous in a memory; a flagged memory is shown with its flags
(`sqrl memories`, search) and is left out of views, task context and hooks until the user
confirms it (`sqrl confirm <id>`). A confirmation holds for the exact content confirmed
(`fingerprint`): changing the text needs a new one. `safe_to_inject` is the one question a
caller that hands memory to a model asks.

The rules look at shell and PowerShell idioms, not at one project's commands:
- `runs_downloaded_code`: a download piped or substituted into an interpreter (`curl … | sh`,
  `wget -O- … | bash`, `bash <(curl …)`, `sh -c "$(curl …)"`, `iwr … | iex`,
  `iex (New-Object Net.WebClient).DownloadString(…)`), an encoded PowerShell command
  (`powershell -enc …`), or decoded text piped into a shell (`base64 -d | sh`);
- `overrides_instructions`: text addressed to the model to drop its instructions ("ignore all
  previous instructions", "disregard the system prompt", "you are now …").
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Final

RUNS_DOWNLOADED_CODE: Final = "runs_downloaded_code"
OVERRIDES_INSTRUCTIONS: Final = "overrides_instructions"
FLAG_MEANINGS: Final = {
    RUNS_DOWNLOADED_CODE: "downloads and runs code",
    OVERRIDES_INSTRUCTIONS: "tells the model to set its instructions aside",
}

_FETCH = r"(?:curl|wget|fetch|aria2c|http(?:ie)?|iwr|irm|invoke-webrequest|invoke-restmethod)"
_SHELL = (
    r"(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+)?(?:/\S*/)?"
    r"(?:sh|bash|zsh|ksh|dash|fish|ash|python[0-9.]*|perl|ruby|node|php|pwsh|powershell|iex"
    r"|invoke-expression|source|\.)"
)
_DOWNLOAD_AND_RUN = (
    # curl … | sh   /   iwr … | iex
    # (not `… | python -m json.tool` or `… | node -e '…'`: the program there is not the download)
    re.compile(rf"\b{_FETCH}\b[^\n|;&]*\|\s*{_SHELL}(?![\w.-])(?!\s+-[mce]\b)", re.IGNORECASE),
    # bash <(curl …)   /   sh -c "$(curl …)"   /   python -c "$(wget -qO- …)"
    re.compile(rf"{_SHELL}\s+(?:-\S+\s+)*[\"']?(?:<\(|\$\(|`)\s*{_FETCH}\b", re.IGNORECASE),
    # iex (New-Object Net.WebClient).DownloadString(…)  /  Invoke-Expression (irm …)
    re.compile(
        r"\b(?:iex|invoke-expression)\b[^\n]{0,200}"
        r"(?:downloadstring|downloadfile|\b(?:iwr|irm|invoke-webrequest|invoke-restmethod)\b)",
        re.IGNORECASE,
    ),
    re.compile(
        r"(?:downloadstring|downloadfile)\([^\n)]*\)[^\n]{0,40}\|\s*(?:iex|invoke-expression)\b",
        re.IGNORECASE,
    ),
    # powershell -enc / -EncodedCommand <base64>
    re.compile(
        r"\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]{0,120}\s[-/]e(?:c|nc|ncodedcommand)?\s+\S{8,}",
        re.IGNORECASE,
    ),
    # base64 -d | sh, xxd -r | bash
    re.compile(
        rf"\b(?:base64\s+(?:-d|--decode|-D)|xxd\s+-r)\b[^\n|]*\|\s*{_SHELL}(?![\w.-])",
        re.IGNORECASE,
    ),
)
_OVERRIDE = (
    # "ignore all previous instructions", "disregard the system prompt", "forget your rules";
    # a bare "ignore rules E501" or "don't forget the rules in .eslintrc" is ordinary advice.
    re.compile(
        r"\b(?:ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|every)\s+(?:of\s+)?)?"
        r"(?:the\s+|your\s+|these\s+|those\s+)?"
        r"(?:(?:previous|prior|above|earlier|preceding|original|system|safety)\s+"
        r"(?:instructions?|prompts?|rules|directions|guidelines|guardrails)"
        r"|system\s+prompt)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+(?:of\s+)?)?(?:your\s+"
        r"(?:instructions?|prompts?|rules|guidelines|guardrails)|(?:all|any)\s+(?:of\s+)?"
        r"(?:the\s+)?(?:instructions|prompts))\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:you\s+are\s+now|from\s+now\s+on\s+you\s+are|act\s+as\s+if\s+you\s+have\s+no)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b(?:do\s+not|don't|never)\s+(?:tell|inform|show|mention\s+(?:this\s+)?to)\s+the\s+user\b",
        re.IGNORECASE,
    ),
)


class _Rule:
    """A pattern, and what a text must hold for it to match: one of `words` (lower case,
    matched without case as the pattern's letters are) and, when given, a match of `near`
    (found at once: it starts with a fixed character). Most patterns try every offset of the
    text; the words are found at once."""

    def __init__(
        self, pattern: re.Pattern[str], words: Sequence[str], near: str | None = None
    ) -> None:
        self.pattern = pattern
        self.words = tuple(words)
        self.any_word = re.compile("|".join(map(re.escape, self.words)), re.IGNORECASE)
        self.near = None if near is None else re.compile(near, re.IGNORECASE)

    def matches(self, text: str, lowered: str | None) -> bool:
        """Whether the pattern matches `text`; `lowered` is `text.lower()` when that finds
        the words exactly (see `_lowered`), else None."""
        if lowered is not None:
            if not any(word in lowered for word in self.words):
                return False
        elif not self.any_word.search(text):
            return False
        if self.near is not None and not self.near.search(text):
            return False
        return self.pattern.search(text) is not None


_ORDER_VERBS = ("ignore", "disregard", "forget", "override", "bypass")
_DOWNLOAD_AND_RUN_RULES = (
    _Rule(_DOWNLOAD_AND_RUN[0], ["|"]),
    # Its shell part tries every offset, and backquotes are common in notes.
    _Rule(_DOWNLOAD_AND_RUN[1], ["<(", "$(", "`"], rf"(?:<\(|\$\(|`)\s*{_FETCH}\b"),
    _Rule(_DOWNLOAD_AND_RUN[2], ["iex", "invoke-expression"]),
    _Rule(_DOWNLOAD_AND_RUN[3], ["download"]),
    _Rule(_DOWNLOAD_AND_RUN[4], ["powershell", "pwsh"]),
    _Rule(_DOWNLOAD_AND_RUN[5], ["base64", "xxd"]),
)
_OVERRIDE_RULES = (
    _Rule(_OVERRIDE[0], _ORDER_VERBS),
    _Rule(_OVERRIDE[1], _ORDER_VERBS),
    _Rule(_OVERRIDE[2], ["you"]),
    _Rule(_OVERRIDE[3], ["user"]),
)
# The only letters outside ASCII that match ASCII ones without case (`İ` and `ı` match i, `ſ`
# matches s, the Kelvin sign matches k; `İ` and the Kelvin sign also lower-case to ASCII).
_FOLDS_TO_ASCII = re.compile("[\u0130\u0131\u017f\u212a]")
# Long inputs are checked in full, but a pattern never looks further than one line.
_MAX_SCAN_CHARS: Final = 200_000


def _lowered(text: str) -> str | None:
    """`text.lower()`, where an ASCII word is found without case exactly when its lower case
    is in it (no letter of `_FOLDS_TO_ASCII`); else None."""
    if text.isascii() or not _FOLDS_TO_ASCII.search(text):
        return text.lower()
    return None


def flags_of(text: str) -> tuple[str, ...]:
    """The hazards in `text`, in a fixed order (empty when there are none)."""
    sample = text[:_MAX_SCAN_CHARS]
    lowered = _lowered(sample)
    flags: list[str] = []
    if any(rule.matches(sample, lowered) for rule in _DOWNLOAD_AND_RUN_RULES):
        flags.append(RUNS_DOWNLOADED_CODE)
    if any(rule.matches(sample, lowered) for rule in _OVERRIDE_RULES):
        flags.append(OVERRIDES_INSTRUCTIONS)
    return tuple(flags)


def fingerprint(text: str) -> str:
    """What a confirmation is bound to: the SHA-256 of the text with whitespace collapsed."""
    return hashlib.sha256(" ".join(text.split()).encode("utf-8")).hexdigest()


def safe_to_inject(flags: Sequence[str], confirmed: bool) -> bool:
    """Whether a memory may be handed to a model without being asked for (hooks, views)."""
    return not flags or confirmed


def describe(flags: Sequence[str]) -> str:
    """`flags` in words, for a table cell or a line shown to a model."""
    return "; ".join(FLAG_MEANINGS.get(f, f) for f in flags)
