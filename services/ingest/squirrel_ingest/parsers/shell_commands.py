"""Shell command lines as hosts record them: an argv unwrapped to its line, and commands that
only print one file from its first line, taken as reads of that file."""

from __future__ import annotations

import posixpath
import re
import shlex

_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "fish", "pwsh", "powershell"})
#: The tool a shell command that only prints one file from its first line is recorded as (Codex
#: itself calls such a command a `read` of that file); its result is the file's text.
READ_TOOL = "read_file"
_FILE = r"""(?P<path>'[^'\s]+'|"[^"\s]+"|[^\s|;&<>()*?$`'"\\]+)"""
_FROM_START = r"(?:sed -n '?1,\d{1,6}p'?|head(?: -n ?\d{1,6}| -\d{1,6})?)"
_READS = tuple(
    re.compile(pattern)
    for pattern in (
        rf"cat {_FILE}",
        rf"{_FROM_START} {_FILE}",
        rf"nl -ba {_FILE}(?: \| {_FROM_START})?",
    )
)


def read_path(command: str) -> str | None:
    """The file a shell command only prints from its first line (`cat f`, `sed -n '1,200p' f`,
    `head -n 50 f`, `nl -ba f | sed -n '1,120p'`), or `None` for any other command."""
    for pattern in _READS:
        match = pattern.fullmatch(command.strip())
        if match:
            return match.group("path").strip("'\"")
    return None


def command_text(raw: object) -> str | None:
    """A shell command line from a string or an argv list (`["bash", "-lc", "…"]` unwrapped)."""
    if isinstance(raw, str):
        return raw or None
    if not isinstance(raw, list) or not raw or not all(isinstance(part, str) for part in raw):
        return None
    if len(raw) >= 3 and posixpath.basename(raw[0]) in _SHELLS and raw[1] in ("-lc", "-c", "-l"):
        return str(raw[2])
    return shlex.join(raw)
