"""Shell command lines as hosts record them: an argv unwrapped to its line, commands that only
print one file from its first line, taken as reads of that file, and command lines that only
print files (`cat a; echo ---; cat b`, `head -n 50 a b`), taken as reads of each."""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass

from squirrel_ingest.parsers.base import relative_path, shell_folder

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
#: Between the reads of a compound read: what splits a line into its commands.
_SEPARATORS = frozenset({";", "&&"})
#: What a compound read may not hold anywhere: a pipe, a redirection, a fallback, a background
#: job or a subshell (the output would go, or come from, somewhere else).
_NOT_A_READ = frozenset({"|", "||", "&", ">", ">>", "<", "<<", "<<<", "(", ")", ">|", "&>"})
#: Words whose value the line does not show: a variable, a command's output, a glob, `~`.
_UNSEEN = re.compile(r"[$`*?\[{~]")
_SED_PRINT = re.compile(r"^\d{1,7}(?:,\d{1,7})?p$")
_COUNT = re.compile(r"^\d{1,7}$")


def shell_reads(command: str) -> tuple[str, ...]:
    """The files a command line only prints, in order, when each of its commands (split at `;`,
    `&&` and line ends) prints files by name (`cat a b`, `head -n 50 a`, `tail -20 a`,
    `sed -n 1,40p a`, `nl -ba a`) or a literal separator (`echo ---`, `printf '\\n'`):
    `cat a; echo ---; cat b`, `head -n 50 a b`, `sed -n 1,40p a && cat b`. Empty for any
    other line: one that pipes, redirects, falls back (`||`), runs anything else, or names a
    file by a variable, a glob or `~` (what it read is not on the line)."""
    try:
        steps = [step for line in command.splitlines() for step in _steps(line) if step] or [[]]
    except ValueError:  # unbalanced quotes: not a line this can read
        return ()
    files: list[str] = []
    for step in steps:
        named = _printed_files(step)
        if named is None:
            return ()
        files.extend(named)
    return tuple(dict.fromkeys(files))


def read_paths(command: str, folder: str | None, cwd: str | None) -> tuple[str, ...]:
    """The files `command` only prints (`shell_reads`), placed from `folder` (where it ran) and
    named as the session names paths (relative to `cwd`); what a tool call's `reads` records."""
    placed = (relative_path(shell_folder(p, folder) or p, cwd) for p in shell_reads(command))
    return tuple(dict.fromkeys(placed))


def _steps(line: str) -> list[list[str]]:
    """The words of each command of one line, split at `;` and `&&`; a word that is not a
    command's (`|`, `>`, a subshell) makes the line no compound read (`ValueError`)."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    steps: list[list[str]] = [[]]
    for word in lexer:
        if word in _SEPARATORS:
            steps.append([])
        elif word in _NOT_A_READ or set(word) <= set(";&|<>()"):
            raise ValueError(word)
        else:
            steps[-1].append(word)
    return steps


def _printed_files(words: Sequence[str]) -> list[str] | None:
    """The files one command prints by name ([] for a literal separator), or None when it is
    anything else."""
    if not words or any(_UNSEEN.search(w) for w in words):
        return None
    program, arguments = words[0], list(words[1:])
    if program in ("echo", "printf"):
        return []
    if program == "cat":
        files = [a for a in arguments if a not in ("-n", "-b", "-A", "--")]
    elif program in ("head", "tail"):
        files = _after_count(arguments)
    elif program == "sed":
        if len(arguments) < 3 or arguments[0] != "-n" or not _SED_PRINT.match(arguments[1]):
            return None
        files = arguments[2:]
    elif program == "nl":
        files = [a for a in arguments if a != "-ba"]
    else:
        return None
    if not files or any(f.startswith("-") for f in files):
        return None
    return files


def _after_count(arguments: list[str]) -> list[str]:
    """The files of `head`/`tail` after their line count (`-n 50`, `-n50`, `-50`); a word that
    looks like another option is kept and refuses the step."""
    if arguments[:1] == ["-n"] and len(arguments) > 1 and _COUNT.match(arguments[1]):
        return arguments[2:]
    if arguments and re.fullmatch(r"-n?\d{1,7}", arguments[0]):
        return arguments[1:]
    return arguments


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


#: The switches before the command line of a Windows shell's argv (`powershell.exe -NoProfile
#: -Command "…"`, `cmd.exe /c "…"`), case aside.
_WINDOWS_QUIET = frozenset({"-noprofile", "-nologo", "-noninteractive"})
_WINDOWS_RUN = frozenset({"-command", "-c", "/c"})


def command_text(raw: object) -> str | None:
    """A shell command line from a string or an argv list (`["bash", "-lc", "…"]`, and on
    Windows `["C:\\…\\powershell.exe", "-NoProfile", "-Command", "…"]` or `["cmd.exe", "/c",
    "…"]`, unwrapped)."""
    if isinstance(raw, str):
        return raw or None
    if not isinstance(raw, list) or not raw or not all(isinstance(part, str) for part in raw):
        return None
    if len(raw) >= 3 and posixpath.basename(raw[0]) in _SHELLS and raw[1] in ("-lc", "-c", "-l"):
        return str(raw[2])
    program = raw[0].replace("\\", "/").rsplit("/", 1)[-1].lower().removesuffix(".exe")
    if program in ("powershell", "pwsh", "cmd"):
        rest = [part for part in raw[1:] if part.lower() not in _WINDOWS_QUIET]
        if len(rest) == 2 and rest[0].lower() in _WINDOWS_RUN:
            return str(rest[1])
    return shlex.join(raw)
