"""A JSON task file's text as a session saw it cut short or among other output.

A session often prints the project's `package.json` (or `composer.json`, `deno.json`) as one
part of a longer command (`ls && cat package.json | head -40`), or reads its first lines only
(`head -40 package.json`, a Read with a limit). The file's scripts are there, but the text is
not a whole JSON document: a task reader cannot parse it, and cutting it at its last blank line
(as a cut TOML or Makefile is) leaves nothing of a JSON file. The rule, the same for every JSON
task file:

- printed among other output: the command prints exactly one JSON task file from its first line
  (`cat`, `head`, `bat`, `sed -n '1,Np'`) and no other JSON file, without changing folder first;
  its text is the one object the output opens with a `{` line whose next line is a key (two such
  objects leave it unknown which is the file);
- cut short (`head -40`, a pipe into `head` or `sed -n '1,Np'`, a partial read): the lines the
  cut shows (as many as it counts, from the object's first line), up to the last whole one, are
  completed by closing what is left open, and must then parse: a text broken before the cut (a
  merge conflict's markers, a line of another output) says nothing; a count that cannot be told
  (`head -c`, a pipe into `jq`) says nothing either;
- the file's task table the cut left open (the scripts still going on at the cut) keeps the
  entries shown, each a whole line, and says that more follow (`tasks_cut`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import core_tokens
from squirrel_memory.extractors.printed_manifests import MAX_OUTPUT_CHARS, printing_steps
from squirrel_memory.models import StoredEvent

#: The task files written as JSON, by their name.
JSON_TASK_FILES = frozenset({"package.json", "composer.json", "deno.json"})
#: Lines dropped from a cut text's end, at most, looking for a whole line to close it after.
_MAX_DROPPED = 3

_SED_FROM_TOP = re.compile(r"^1(?:,(\d+))?p$")
#: `head -40`, `-n40`, `--lines=40`.
_HEAD_COUNT = re.compile(r"^(?:-n?|--lines=)(\d+)$")
#: The table of each JSON task file that holds its tasks.
TASK_TABLES = {"package.json": "scripts", "composer.json": "scripts", "deno.json": "tasks"}
#: A pretty-printed object's first key line.
_KEY_LINE = re.compile(r'^\s+"[^"\n]+"\s*:')
_CLOSERS = {"{": "}", "[": "]"}


@dataclass(frozen=True, slots=True)
class CutJson:
    """A cut JSON text made whole, and the top-level keys whose value the cut left open."""

    text: str
    open_keys: frozenset[str]


def completed_json(text: str) -> CutJson | None:
    """A cut JSON text made whole: cut at its last whole line and what is left open closed;
    None when no such text parses (module docstring)."""
    lines = text.rstrip().splitlines()
    for dropped in range(min(_MAX_DROPPED, len(lines) - 1) + 1):
        kept = "\n".join(lines[: len(lines) - dropped]).rstrip().rstrip(",")
        closed = _closed(kept)
        if closed is None:
            continue
        whole, open_keys = closed
        try:
            data = json.loads(whole)
        except ValueError:
            continue
        if not isinstance(data, dict):
            return None
        return CutJson(json.dumps(data, indent=2), open_keys)
    return None


def tasks_cut(path: str, cut: CutJson) -> bool:
    """Whether the cut fell inside the task table of the file at `path`: its tasks go on past
    what was shown."""
    return TASK_TABLES.get(PurePosixPath(path).name, "") in cut.open_keys


def _closed(text: str) -> tuple[str, frozenset[str]] | None:
    """`text` with the brackets it leaves open closed, and the top-level keys whose value was
    left open; None when the text ends inside a string or after a key."""
    stack: list[str] = []
    owners: list[str] = []  # the top-level key of each container opened below the root
    key = ""
    in_string = False
    escaped = False
    start = 0
    for index, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
                if len(stack) == 1 and text[index + 1 :].lstrip().startswith(":"):
                    key = text[start + 1 : index]
            continue
        if char == '"':
            in_string, start = True, index
        elif char in _CLOSERS:
            if len(stack) == 1:
                owners.append(key)
            stack.append(char)
        elif char in "}]":
            if not stack or _CLOSERS[stack.pop()] != char:
                return None
            if not stack:
                return text[: index + 1], frozenset()  # the root closed: the text is whole
            if len(stack) == 1 and owners:
                owners.pop()
    if in_string or text.rstrip().endswith(":"):
        return None
    return text + "".join(_CLOSERS[c] for c in reversed(stack)), frozenset(owners)


def _shown_lines(tokens: list[str], piped: str) -> int | None:
    """How many lines from the top a reader step shows: 0 for all (`cat f`), N for `head -N`,
    `head -n N`, `sed -n '1,Np'` or a pipe into one of them; None when it cannot be told."""
    if tokens[0] == "sed":
        ranges = [m for a in tokens[1:] if (m := _SED_FROM_TOP.match(a))]
        return int(ranges[0].group(1) or 1) if ranges else None
    if tokens[0] == "head":
        return _head_count(tokens)
    if not piped.strip():
        return 0
    cutter = core_tokens(piped.split(" | ", 1)[0].strip())
    if not cutter or cutter[0] not in ("head", "sed"):
        return None  # piped into a program that prints something else (`jq`, `grep`)
    return _shown_lines(cutter, "")


def _head_count(tokens: list[str]) -> int | None:
    """The lines `head` shows: 10 by default, `-N`, `-n N` or `-nN`, `--lines=N`."""
    words = tokens[1:]
    for index, word in enumerate(words):
        if match := _HEAD_COUNT.match(word):
            return int(match.group(1))
        if word == "-n" and index + 1 < len(words) and words[index + 1].isdigit():
            return int(words[index + 1])
        if word.startswith("-c") or word.startswith("--bytes"):
            return None
    return 10


def _printed(command: str) -> tuple[str, int] | None:
    """(the one JSON task file a command prints from its first line, how many lines of it: 0
    for all), or None: no such file, two JSON files, a count that cannot be told, or a change of
    folder first."""
    steps = printing_steps(command)
    if steps is None:
        return None
    printed: list[tuple[str, int | None]] = []
    for tokens, files, piped in steps:
        shown = _shown_lines(tokens, piped)
        printed.extend((f, shown) for f in files if f.endswith(".json"))
    if len(printed) != 1 or PurePosixPath(printed[0][0]).name not in JSON_TASK_FILES:
        return None
    raw, shown = printed[0]
    return (raw, shown) if shown is not None else None


@dataclass(frozen=True, slots=True)
class PrintedTasks:
    """A JSON task file a command printed: its path, its whole text, whether its task table
    goes on past what was printed."""

    path: str
    text: str
    cut: bool = False


def printed_json_task(
    event: StoredEvent, placed: Callable[[str, str], str | None]
) -> PrintedTasks | None:
    """The JSON task file a command printed among other output or cut short, when `placed`
    (raw path, project id → the project's task file or None) places the file in the project;
    None else."""
    if event.event_type not in (EventType.COMMAND_RUN, EventType.TEST_RUN):
        return None
    command, output = event.content.get("command"), event.content.get("output")
    if not isinstance(command, str) or not isinstance(output, str):
        return None
    printed = _printed(command)
    if printed is None:
        return None
    raw, shown = printed
    path = placed(raw, event.project_id)
    if path is None:
        return None
    lines = output[:MAX_OUTPUT_CHARS].splitlines()
    starts = [
        i
        for i, line in enumerate(lines[:-1])
        if line.rstrip() == "{" and _KEY_LINE.match(lines[i + 1])
    ]
    if len(starts) != 1:
        return None  # no object, or two: which is the file is not known
    text = "\n".join(lines[starts[0] : starts[0] + shown] if shown else lines[starts[0] :])
    try:
        data, _ = json.JSONDecoder().raw_decode(text)
    except ValueError:
        data = None
    if isinstance(data, dict):
        return PrintedTasks(path, json.dumps(data, indent=2))
    if not shown:
        return None  # printed whole, yet not a JSON object: broken
    completed = completed_json(text)
    if completed is None:
        return None
    return PrintedTasks(path, completed.text, tasks_cut(path, completed))


def json_object(text: str) -> dict[str, Any] | None:
    """The JSON object `text` holds, or None."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None
