"""What a Codex code-mode cell's source says it runs: the commands it passes to
`tools.exec_command` (or `tools.shell_command`) and the patches it passes to
`tools.apply_patch`, where each is a JavaScript string literal, or a name the cell binds once to
one (one built at run time is not read: what it held is not in the source).

    const r = await tools.exec_command({cmd: "pytest -q", workdir: "/repo"}); text(r);
    await tools.apply_patch("*** Begin Patch\\n*** Update File: src/app.py\\n@@ …\\n*** End Patch");
    const p = await tools.write_stdin({session_id: 80631, chars: ""}); text(JSON.stringify(p));
    const patch = "*** Begin Patch\\n…"; text(await tools.apply_patch(patch));
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final

from squirrel_ingest.parsers.patches import patch_paths

_CALL = re.compile(r"\btools\s*\.\s*(?P<tool>exec_command|shell_command)\s*\(\s*")
#: The key each shell tool takes its command line under.
_COMMAND_KEY: Final = {"exec_command": "cmd", "shell_command": "command"}
_PATCH_CALL = re.compile(r"\btools\s*\.\s*apply_patch\s*\(\s*")
#: `tools.write_stdin({session_id: 80631, chars: ""})`: a poll of a running command's session.
_POLL_CALL = re.compile(
    r"""\btools\s*\.\s*write_stdin\s*\(\s*\{[^{}]*?(?<![\w$])["']?session_id["']?\s*:\s*"""
    r"""(?P<quote>["']?)(?P<session>\d{1,12})(?P=quote)(?![\w.])"""
)
_ANY_POLL = re.compile(r"\btools\s*\.\s*write_stdin\b")
#: `tools.write_stdin({session_id: r.session_id, …})`: a poll of the session a result named.
_OWN_POLL = re.compile(
    r"""\btools\s*\.\s*write_stdin\s*\(\s*\{[^{}]*?(?<![\w$])["']?session_id["']?\s*:\s*"""
    r"""[A-Za-z_$][\w$]*\s*\.\s*session_id\b"""
)
_KEY = re.compile(
    r"""\s*(?:(?P<name>[A-Za-z_$][\w$]*)|"(?P<dq>[^"\\]*)"|'(?P<sq>[^'\\]*)')\s*:\s*"""
)
_NAME = re.compile(r"[A-Za-z_$][\w$]*")
_SHORTHAND = re.compile(r"\s*(?P<name>[A-Za-z_$][\w$]*)\s*(?P<end>[,}])")
#: `const name = ` (or `let`, `var`): where a cell binds a name to a value.
_BINDING = re.compile(r"\b(?:const|let|var)\s+(?P<name>[A-Za-z_$][\w$]*)\s*=(?!=)\s*")
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


def bindings(source: str) -> dict[str, str]:
    """The names a cell binds once, and never assigns again, to a string literal
    (`const patch = "*** Begin Patch…";`); a name bound or assigned twice is left out (which
    value a call saw is not in the source)."""
    found: dict[str, str] = {}
    for binding in _BINDING.finditer(source):
        name = binding.group("name")
        value = _literal(source, binding.end())
        assigned = re.findall(rf"(?<![\w$.]){re.escape(name)}\s*(?:[-+*/]?=)(?!=)", source)
        if value is not None and len(assigned) == 1:
            found[name] = value[0]
    return found


def _value(source: str, start: int, bound: dict[str, str]) -> tuple[str | None, int]:
    """The string at `start`, a literal or a name bound to one, and the index after it."""
    literal = _literal(source, start)
    if literal is not None:
        return literal
    name = _NAME.match(source, start)
    if name is not None and re.match(r"\s*[,})]", source[name.end() :]):
        return bound.get(name.group(0)), name.end()
    return None, start


def _object_strings(source: str, start: int, bound: dict[str, str] | None = None) -> dict[str, str]:
    """The keys of the object literal opening at `start` whose values are string literals or
    names `bound` to one (`{cmd: command}`, or shorthand `{cmd}`)."""
    found: dict[str, str] = {}
    bound = bound or {}
    index = start + 1
    while index < len(source):
        key = _KEY.match(source, index)
        if key is None:  # shorthand: `{cmd}` names the value `cmd` is bound to
            shorthand = _SHORTHAND.match(source, index)
            if shorthand is None:
                break
            name = shorthand.group("name")
            if name in bound:
                found.setdefault(name, bound[name])
            if shorthand.group("end") != ",":
                break
            index = shorthand.end()
            continue
        name = key.group("name") or key.group("dq") or key.group("sq") or ""
        text, after = _value(source, key.end(), bound)
        if text is not None:
            found.setdefault(name, text)
        end = _skip_value(source, after)
        if end >= len(source) or source[end] != ",":
            break
        index = end + 1
    return found


def cell_commands(source: str) -> list[CellCommand]:
    """The commands a cell's source runs through `tools.exec_command` (or, on some hosts,
    `tools.shell_command`), in order: its `cmd` (`command`), or its one argument, when a string
    literal or a name bound once to one, with the `workdir` it names."""
    found: list[CellCommand] = []
    bound = bindings(source)
    for call in _CALL.finditer(source):
        start = call.end()
        if source.startswith("{", start):
            given = _object_strings(source, start, bound)
            command, workdir = given.get(_COMMAND_KEY[call.group("tool")]), given.get("workdir")
        else:
            command, workdir = _value(source, start, bound)[0], None
        if command and command.strip():
            found.append(CellCommand(command.strip(), workdir or None, len(found) + 1))
    return found


def cell_patches(source: str) -> list[str]:
    """The patches a cell's source applies through `tools.apply_patch`, in order: its one
    argument, or that object's `input` (or `patch`), when a string literal naming files or a
    name bound once to one (`const patch = "*** Begin Patch…"; tools.apply_patch(patch)`)."""
    found: list[str] = []
    bound = bindings(source)
    for call in _PATCH_CALL.finditer(source):
        start = call.end()
        if source.startswith("{", start):
            given = _object_strings(source, start, bound)
            body = given.get("input", given.get("patch"))
        else:
            body = _value(source, start, bound)[0]
        if body and patch_paths(body):
            found.append(body)
    return found


def cell_polls(source: str) -> list[str]:
    """The sessions a cell's source polls through `tools.write_stdin`, each given as a number
    (or a string of digits) in the call's object literal; a poll whose session is not written
    so (a name, a value built at run time) is left out of the list, and makes the list empty
    (which session that poll asked about is not in the source)."""
    found = [call.group("session") for call in _POLL_CALL.finditer(source)]
    return found if len(found) == len(_ANY_POLL.findall(source)) else []


def polls_beyond_its_own(source: str) -> bool:
    """Whether a cell's source runs a command of its own (`tools.exec_command`, whatever its
    line) and polls a session it did not take from a result it got (`tools.write_stdin(
    {session_id: r.session_id})`): a number it writes (`session_id: 68808`, an earlier
    command's: a cell cannot know the number its own command's session will get) or a name.
    Its answer's results may then be of two commands."""
    if _CALL.search(source) is None:
        return False
    return len(_OWN_POLL.findall(source)) != len(_ANY_POLL.findall(source))
