"""What a Codex code-mode cell's source says it runs: the commands it passes to
`tools.exec_command` and the patches it passes to `tools.apply_patch`, where each is a JavaScript
string literal (one built at run time is not read: what it held is not in the source).

    const r = await tools.exec_command({cmd: "pytest -q", workdir: "/repo"}); text(r);
    await tools.apply_patch("*** Begin Patch\\n*** Update File: src/app.py\\n@@ …\\n*** End Patch");
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

from squirrel_ingest.parsers.patches import patch_paths

_CALL = re.compile(r"\btools\s*\.\s*exec_command\s*\(\s*")
_PATCH_CALL = re.compile(r"\btools\s*\.\s*apply_patch\s*\(\s*")
_KEY = re.compile(
    r"""\s*(?:(?P<name>[A-Za-z_$][\w$]*)|"(?P<dq>[^"\\]*)"|'(?P<sq>[^'\\]*)')\s*:\s*"""
)
_ESCAPES: Final = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


@dataclass(frozen=True, slots=True)
class CellCommand:
    """One `tools.exec_command` call of a cell: the command line, the folder it names, and
    which of the cell's commands it is (1 for the first)."""

    command: str
    workdir: str | None = None
    ordinal: int = field(default=0, compare=False)


def _literal(source: str, start: int) -> tuple[str, int] | None:
    """The JavaScript string literal at `start` ('…', "…" or a template without `${`) and the
    index after it; None when there is none."""
    quote = source[start : start + 1]
    if quote not in ("'", '"', "`"):
        return None
    out: list[str] = []
    index = start + 1
    while index < len(source):
        char = source[index]
        if char == quote:
            return "".join(out), index + 1
        if quote == "`" and source.startswith("${", index):
            return None  # built at run time
        if char == "\\" and index + 1 < len(source):
            escaped = source[index + 1]
            if escaped == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", source[index + 2 : index + 6]):
                out.append(chr(int(source[index + 2 : index + 6], 16)))
                index += 6
                continue
            if escaped == "x" and re.fullmatch(r"[0-9a-fA-F]{2}", source[index + 2 : index + 4]):
                out.append(chr(int(source[index + 2 : index + 4], 16)))
                index += 4
                continue
            out.append(_ESCAPES.get(escaped, "" if escaped == "\n" else escaped))
            index += 2
            continue
        if char == "\n" and quote != "`":
            return None
        out.append(char)
        index += 1
    return None


def _skip_value(source: str, start: int) -> int:
    """The index of the `,` or `}` that ends the object value at `start`."""
    depth, index = 0, start
    while index < len(source):
        char = source[index]
        if char in "'\"`":
            found = _literal(source, index)
            index = found[1] if found else index + 1
            continue
        if char in "([{":
            depth += 1
        elif char in ")]}":
            if depth == 0:
                return index
            depth -= 1
        elif char == "," and depth == 0:
            return index
        index += 1
    return index


def _object_strings(source: str, start: int) -> dict[str, str]:
    """The keys of the object literal opening at `start` whose values are string literals."""
    found: dict[str, str] = {}
    index = start + 1
    while index < len(source):
        key = _KEY.match(source, index)
        if key is None:
            break
        name = key.group("name") or key.group("dq") or key.group("sq") or ""
        value = _literal(source, key.end())
        if value is not None:
            found.setdefault(name, value[0])
        end = _skip_value(source, value[1] if value else key.end())
        if end >= len(source) or source[end] != ",":
            break
        index = end + 1
    return found


def cell_commands(source: str) -> list[CellCommand]:
    """The commands a cell's source runs through `tools.exec_command`, in order: its `cmd`
    (or its one argument) when a string literal, with the `workdir` it names."""
    found: list[CellCommand] = []
    for call in _CALL.finditer(source):
        start = call.end()
        if source.startswith("{", start):
            given = _object_strings(source, start)
            command, workdir = given.get("cmd"), given.get("workdir")
        else:
            literal = _literal(source, start)
            command, workdir = (literal[0] if literal else None), None
        if command and command.strip():
            found.append(CellCommand(command.strip(), workdir or None, len(found) + 1))
    return found


def cell_patches(source: str) -> list[str]:
    """The patches a cell's source applies through `tools.apply_patch`, in order: its one
    argument, or that object's `input` (or `patch`), when a string literal naming files."""
    found: list[str] = []
    for call in _PATCH_CALL.finditer(source):
        start = call.end()
        if source.startswith("{", start):
            given = _object_strings(source, start)
            body = given.get("input", given.get("patch"))
        else:
            literal = _literal(source, start)
            body = literal[0] if literal else None
        if body and patch_paths(body):
            found.append(body)
    return found
