"""Shell command lines as hosts record them: an argv unwrapped to its line, and commands that
only print one file from its first line, taken as reads of that file."""

from __future__ import annotations

import posixpath
import re
import shlex
from dataclasses import dataclass

_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "fish", "pwsh", "powershell"})
#: The tool a shell command that only prints one file from its first line is recorded as (Codex
#: itself calls such a command a `read` of that file); its result is the file's text.
READ_TOOL = "read_file"
_FILE = r"""(?P<path>'[^'\s]+'|"[^"\s]+"|[^\s|;&<>()*?$`'"\\]+)"""
_FROM_START = (
    r"(?:sed -n '?1,(?P<sed>\d{1,6})p'?|head(?: -n ?(?P<head>\d{1,6})| -(?P<short>\d{1,6}))?)"
)
#: How many lines `head` prints when not told.
_HEAD_LINES = 10
_READS = tuple(
    re.compile(pattern)
    for pattern in (
        rf"cat {_FILE}",
        rf"{_FROM_START} {_FILE}",
        rf"nl -ba {_FILE}(?: \| {_FROM_START})?",
    )
)


@dataclass(frozen=True, slots=True)
class ShellRead:
    """A shell command that only prints one file from its first line."""

    path: str
    #: The most lines it prints (`head -n 40 f`: 40), or `None` when it prints the whole file.
    line_limit: int | None


def shell_read(command: str) -> ShellRead | None:
    """The read a shell command is when it only prints one file from its first line (`cat f`,
    `sed -n '1,200p' f`, `head -n 50 f`, `nl -ba f | sed -n '1,120p'`), else `None`."""
    for pattern in _READS:
        match = pattern.fullmatch(command.strip())
        if match:
            path = match.group("path").strip("'\"")
            return ShellRead(path, _line_limit(match))
    return None


#: What `cat`, `head`, `sed` or `nl` prints when the file is not there or cannot be read.
_UNREADABLE = re.compile(
    r"^(?:cat|head|sed|nl): .*(?:No such file or directory|Permission denied|Is a directory)",
    re.MULTILINE,
)


def read_failed(output: str) -> bool:
    """Whether a shell read's output says the file could not be read (`No such file`)."""
    return _UNREADABLE.search(output[:2000]) is not None


def _line_limit(match: re.Match[str]) -> int | None:
    groups = match.groupdict()
    counted = groups.get("sed") or groups.get("head") or groups.get("short")
    if counted is not None:
        return int(counted)
    said_head = "head" in match.group(0).split("|")[-1].split()
    return _HEAD_LINES if said_head else None


def command_text(raw: object) -> str | None:
    """A shell command line from a string or an argv list (`["bash", "-lc", "…"]` unwrapped)."""
    if isinstance(raw, str):
        return raw or None
    if not isinstance(raw, list) or not raw or not all(isinstance(part, str) for part in raw):
        return None
    if len(raw) >= 3 and posixpath.basename(raw[0]) in _SHELLS and raw[1] in ("-lc", "-c", "-l"):
        return str(raw[2])
    return shlex.join(raw)
