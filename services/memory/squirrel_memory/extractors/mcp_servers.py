"""The MCP servers the project declares in a configuration file it keeps in its own repository.

A repository may carry the configuration its assistant starts MCP servers from: a JSON file
whose `mcpServers` object names them, or a TOML one with a `[mcp_servers.<name>]` table each.
Whoever opens the project next starts the same servers from it, and a session that fixed how
one starts should not be re-done. The rule, the same in every ecosystem and host:

- the text is that of a file inside the project (never a home folder's or another
  repository's), not in a folder of examples, docs or test data: read whole, written whole, or
  edited (the new text of an edit, which holds a server's table as written); a write counts
  only when the host recorded it as applied;
- a server is a `[mcp_servers.<name>]` table (its sub-tables, such as `.env`, belong to it) or
  a key of the `mcpServers` object of a JSON file read or written whole (and of `servers` in a
  file named `mcp.json`); its `command` and `args`, when written as plain strings, are how it
  starts, and a command line longer than `MAX_COMMAND_CHARS` is left out;
- the latest text wins: an edit restates the servers its new text shows and drops those whose
  table it removed, a whole text replaces all, and an edit of a JSON file (whose objects an
  edit's fragment does not show) leaves its servers unknown until it is read whole again;
- the statement names the file and each server (at most `MAX_SERVERS`), with its command line
  where known: "`.codex/config.toml` (in the repository) declares the MCP server `db`, started
  with `.venv/bin/db-mcp --read-only`." It says nothing of whether the server worked.
"""

from __future__ import annotations

import json
import re
import shlex
import tomllib
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from squirrel_core.events import EventType
from squirrel_memory.extractors.file_reads import file_text, whole_read_output
from squirrel_memory.extractors.file_writes import applied_calls, writes
from squirrel_memory.extractors.manifests import first_project_path, in_project
from squirrel_memory.extractors.project_fact import Fact
from squirrel_memory.extractors.stack_evidence import is_test_data, sample_folder
from squirrel_memory.models import StoredEvent

KEY_PREFIX = "mcp_servers:"
IMPORTANCE = 0.6
MAX_SERVERS = 4
MAX_COMMAND_CHARS = 120

#: A TOML table header of an MCP server: its name, and the sub-table when it is one.
_TABLE = re.compile(
    r'^\s*\[\s*mcp_servers\.(?:"(?P<quoted>[^"]+)"|(?P<bare>[\w-]+))(?P<sub>\.[^\]]*)?\s*\]\s*$'
)
_OTHER_TABLE = re.compile(r"^\s*\[")
_KEY_LINE = re.compile(r"^\s*(?P<key>command|args)\s*=")


@dataclass
class _Declared:
    """The servers one file declares (name -> command line or ""), and the events behind it."""

    servers: dict[str, str] = field(default_factory=dict)
    event_ids: list[str] = field(default_factory=list)


def _command_line(command: object, args: object) -> str:
    """`command args…` as one line, or "" when either is not plain strings or it is too long."""
    if not isinstance(command, str) or not command.strip():
        return ""
    if args is None:
        args = []
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        return ""
    line = shlex.join([command, *args]) if args else command
    return line if len(line) <= MAX_COMMAND_CHARS and "\n" not in line else ""


def toml_servers(text: str) -> dict[str, str]:
    """The `[mcp_servers.<name>]` tables of a TOML text or fragment, with their command lines."""
    found: dict[str, dict[str, Any]] = {}
    current: str | None = None
    for line in text.splitlines():
        if match := _TABLE.match(line):
            name = match["quoted"] or match["bare"]
            found.setdefault(name, {})
            current = None if match["sub"] else name
            continue
        if _OTHER_TABLE.match(line):
            current = None
            continue
        if current is not None and (key := _KEY_LINE.match(line)):
            try:
                value = tomllib.loads(line.strip()).get(key["key"])
            except tomllib.TOMLDecodeError:
                continue
            found[current][key["key"]] = value
    return {
        name: _command_line(values.get("command"), values.get("args"))
        for name, values in found.items()
    }


def json_servers(path: str, text: str) -> dict[str, str]:
    """The servers of a whole JSON file's `mcpServers` object (`servers` in an `mcp.json`)."""
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    if not isinstance(data, dict):
        return {}
    keys = ["mcpServers"] + (["servers"] if PurePosixPath(path).name == "mcp.json" else [])
    found: dict[str, str] = {}
    for key in keys:
        block = data.get(key)
        if not isinstance(block, dict):
            continue
        for name, spec in block.items():
            if isinstance(name, str) and name and isinstance(spec, dict):
                found[name] = _command_line(spec.get("command"), spec.get("args"))
    return found


def _servers(path: str, text: str, whole: bool) -> dict[str, str] | None:
    """The servers `text` of `path` declares; None when it is no file that can declare any."""
    suffix = PurePosixPath(path).suffix.lower()
    if suffix == ".toml":
        return toml_servers(text)
    if suffix == ".json" and whole:
        return json_servers(path, text)
    return None


def _own_file(path: str) -> bool:
    return in_project(path) and not sample_folder(path) and not is_test_data(path)


def _texts(events: list[StoredEvent]) -> list[tuple[str, str, str, bool, str]]:
    """(path, text before, text after, whole, event id) of every project file read whole or
    written, in order (the text before is the part an edit replaced, "" for a whole text)."""
    applied = applied_calls(events)
    found: list[tuple[str, str, str, bool, str]] = []
    for event in events:
        if event.event_type == EventType.TOOL_CALL:
            if event.content.get("tool_use_id") not in applied:
                continue  # rejected or failed: nothing was written
            for written in writes(event):
                if _own_file(written.path):
                    found.append(
                        (written.path, written.before, written.after, written.whole, event.id)
                    )
            continue
        output = whole_read_output(event)
        path = first_project_path(event) if output is not None else None
        if output is not None and path is not None and _own_file(path):
            found.append((path, "", file_text(output), True, event.id))
    return found


def _statement(path: str, servers: dict[str, str]) -> str:
    named = list(servers.items())[:MAX_SERVERS]
    parts = [f"`{name}`" + (f", started with `{line}`" if line else "") for name, line in named]
    noun = "the MCP server" if len(named) == 1 else "the MCP servers"
    return f"`{path}` (in the repository) declares {noun} " + "; ".join(parts) + "."


def mcp_servers(events: list[StoredEvent]) -> list[Fact]:
    """One fact per project file that declares MCP servers (module docstring)."""
    files: dict[str, _Declared] = {}
    for path, before, text, whole, event_id in _texts(events):
        if not whole and path.lower().endswith(".json"):
            files.pop(path, None)  # an edit of objects not shown whole: now unknown
            continue
        servers = _servers(path, text, whole)
        if servers is None:
            continue
        removed = set(toml_servers(before)) - set(servers) if not whole else set()
        if not servers and not removed and not whole:
            continue
        declared = files.setdefault(path, _Declared())
        if whole:
            declared.servers = dict(servers)
        else:
            declared.servers.update(servers)
            for name in removed:
                declared.servers.pop(name, None)
        declared.event_ids.append(event_id)
    return [
        Fact(
            KEY_PREFIX + path,
            _statement(path, declared.servers),
            ("mcp", "server", "configuration"),
            IMPORTANCE,
            tuple(dict.fromkeys(declared.event_ids)),
            (path,),
        )
        for path, declared in files.items()
        if declared.servers
    ]
