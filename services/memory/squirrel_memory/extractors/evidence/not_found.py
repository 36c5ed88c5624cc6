"""The shells' own lines for a program they could not find, in any shell a host runs.

`bash: nvcc: command not found`, `zsh: command not found: tree`, `sh: 1: protoc: not found`,
`fish: Unknown command: just`, `'make' is not recognized as an internal or external command`,
`The term 'dotnet' is not recognized …`: the whole line's shape, never a word in a log. A
program such a line names did not run, whatever the shell's exit status says afterwards
(`java -version; ls` exits 0 when `ls` does).
"""

from __future__ import annotations

import re

_NAME = r"[\w.+-]{1,60}"
#: The shells' own lines for a program they could not find (bash, zsh, dash, fish, cmd,
#: PowerShell).
_NOT_FOUND = (
    re.compile(rf"^(?:\S+: )?(?:line \d+: )?(?P<name>{_NAME}): command not found$"),
    re.compile(rf"^(?:\S+: )?command not found: (?P<name>{_NAME})$"),
    re.compile(rf"^(?:/bin/)?(?:sh|dash|bash): \d+: (?P<name>{_NAME}): not found$"),
    re.compile(rf"^(?:fish: )?Unknown command: (?P<name>{_NAME})$"),
    re.compile(rf"^'(?P<name>{_NAME})' is not recognized as an internal or external command"),
    re.compile(rf"^(?:\S+ : )?The term '(?P<name>{_NAME})' is not recognized as (?:the )?name"),
)
#: Output lines read for such a line.
MAX_LINES = 40


def not_found_lines(output: str) -> list[tuple[str, str]]:
    """(the program, the shell's line) for every line of `output` (its first `MAX_LINES`) that
    is the shell's "not found" line for a program, in order."""
    found: list[tuple[str, str]] = []
    for raw in output.splitlines()[:MAX_LINES]:
        line = raw.strip()
        for shape in _NOT_FOUND:
            match = shape.match(line)
            if match:
                found.append((match.group("name"), line))
                break
    return found


def missing_program(output: str) -> tuple[str, str]:
    """(the program, the shell's line) when a line of `output` is the shell's "not found" line
    for a program, else ("", "")."""
    found = not_found_lines(output)
    return found[0] if found else ("", "")
