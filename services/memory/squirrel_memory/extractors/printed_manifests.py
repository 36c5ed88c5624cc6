"""What the project is, from its own manifest's description field as a shell command printed it
among other output.

A session often prints the root manifest as one part of a longer command (`pnpm list effect;
cat pnpm-workspace.yaml; cat package.json | head -n 80`, `ls -a && cat package.json AGENTS.md
&& ls bun.lock*`), and such a command may end in an error that has nothing to do with the
manifest (an `ls` of a missing lock file). `about.session_about` reads only a file printed
alone by a command that succeeded; this reads the one field that says what the project is
wherever the manifest's text stands in the output. The rule, the same for every ecosystem:

- the command prints, from its first line, exactly one manifest of one format at the project
  root (`cat`, `head`, `bat`, `sed -n '1,Np'`): `package.json` or `composer.json` (the
  top-level `"description"`), `Cargo.toml` (`[package]`), `pyproject.toml` (`[project]` or
  `[tool.poetry]`), `mix.exs` (`description:`), a root `*.gemspec` (`summary`, else
  `description`), `pom.xml` (the project's `<description>`, before its dependencies and
  build). `go.mod` has no such field. A manifest in a sub-folder or a dependency
  (`node_modules/x/package.json`) is not the project's; a command that changes folder first
  (`cd ../lib`) prints another project's;
- the field appears exactly once in the whole output, at the manifest's top level: a second
  one (a dependency's manifest printed beside it, `npm view x --json`) leaves it unknown
  which is the project's, and a field nested deeper is another package's;
- the command may fail as a whole, but the field's line is the manifest's own text (an error
  of the reader itself prints no manifest);
- two commands that print different descriptions of the project leave it unsaid; a
  placeholder or a few words say nothing.

`cargo metadata --no-deps` prints the Cargo manifest as one JSON line (`{"packages": […],
"workspace_root": …}`): the package whose manifest is the project's root `Cargo.toml` gives
its `description` and counts as the root `Cargo.toml` read, wherever that line stands in the
output of a command that succeeded; a package of another folder is not the project's.

Such a manifest also counts as read for the project's language (`printed_manifest_paths`) when
the output shows its own text once (a top-level `"name"`, `[package]`, `[project]`, a
`MixProject`, `Gem::Specification.new`, `<project>`), and the `package.json` object so printed
is what `package_language` reads for TypeScript.

The memory quotes the field with its file ("What this project (hevy-mcp) is and does, per its
package.json: A Model Context Protocol (MCP) server …"), as a manifest read alone does.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import PurePosixPath

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import core_tokens, relative_path
from squirrel_memory.extractors.file_reads import PATH_ARGUMENT
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.boilerplate import is_boilerplate
from squirrel_memory.repository.wording import about_text

MIN_CHARS = 12
MIN_WORDS = 3
MAX_CHARS = 300
#: Longest command output searched (characters).
MAX_OUTPUT_CHARS = 200_000

#: Where one command of a line ends and the next begins.
COMMAND_PARTS = re.compile(r"\s*(?:&&|\|\||;|\n)\s*")
#: Programs that print a file from its first line (`head` and `sed -n '1,Np'` part of it).
FILE_READERS = frozenset({"cat", "head", "bat", "batcat"})
_SED_FROM_TOP = re.compile(r"^1(?:,\d+)?p$")
FOLDER_CHANGES = frozenset({"cd", "pushd", "popd"})

_JSON_FIELD = re.compile(
    r'^(?P<indent>\s*)"description"\s*:\s*"(?P<value>(?:[^"\\]|\\.)*)"\s*,?\s*$'
)
_JSON_KEY = re.compile(r'^(?P<indent>\s+)"')
_JSON_NAME = re.compile(r'^\s+"name"\s*:')
_TOML_TABLE = re.compile(r"^\s*\[(?P<table>[^\]\[]+)\]\s*(?:#.*)?$")
_TOML_FIELD = re.compile(r"""^description\s*=\s*(?P<q>"|')(?P<value>.*?)(?P=q)\s*(?:#.*)?$""")
_MIX_FIELD = re.compile(r"""^\s*description:\s*"(?P<value>(?:[^"\\]|\\.)*)"\s*,?\s*$""")
_GEMSPEC_FIELD = re.compile(
    r"""^\s*\w+\.(?P<field>summary|description)\s*=\s*(?P<q>["'])(?P<value>.*?)(?P=q)"""
    r"""(?:\.freeze)?\s*$"""
)
_POM_FIELD = re.compile(r"^\s*<description>(?P<value>[^<]+)</description>\s*$")
#: Where a pom's own fields end: what follows belongs to its dependencies, plugins or modules.
_POM_END = re.compile(r"^\s*<(?:dependencies|dependencyManagement|build|profiles|modules)>")


def _json_fields(lines: list[str]) -> list[str]:
    """Top-level `"description"` values of the pretty-printed JSON objects in `lines`."""
    found: list[str] = []
    indent: str | None = None
    for line in lines:
        if line.rstrip() == "{":
            indent = None
            continue
        if line.rstrip() in ("}", "},"):
            indent = None
            continue
        key = _JSON_KEY.match(line)
        if key and indent is None:
            indent = key.group("indent")
        field = _JSON_FIELD.match(line)
        if field and indent is not None and field.group("indent") == indent:
            found.append(field.group("value").replace('\\"', '"'))
    return found


def _toml_fields(tables: frozenset[str]) -> Callable[[list[str]], list[str]]:
    def fields(lines: list[str]) -> list[str]:
        found: list[str] = []
        table = ""
        for line in lines:
            header = _TOML_TABLE.match(line)
            if header:
                table = header.group("table").strip()
                continue
            field = _TOML_FIELD.match(line)
            if field and table in tables:
                found.append(field.group("value"))
        return found

    return fields


def _mix_fields(lines: list[str]) -> list[str]:
    return [m.group("value") for line in lines if (m := _MIX_FIELD.match(line))]


def _gemspec_fields(lines: list[str]) -> list[str]:
    matches = [m for line in lines if (m := _GEMSPEC_FIELD.match(line))]
    summaries = [m.group("value") for m in matches if m.group("field") == "summary"]
    return summaries or [m.group("value") for m in matches]


def _pom_fields(lines: list[str]) -> list[str]:
    found: list[str] = []
    for line in lines:
        if _POM_END.match(line):
            break
        field = _POM_FIELD.match(line)
        if field:
            found.append(field.group("value"))
    return found


#: A root manifest's format (by the file's name) and the reader of its description field.
_FORMATS: dict[str, Callable[[list[str]], list[str]]] = {
    "package.json": _json_fields,
    "composer.json": _json_fields,
    "Cargo.toml": _toml_fields(frozenset({"package"})),
    "pyproject.toml": _toml_fields(frozenset({"project", "tool.poetry"})),
    "mix.exs": _mix_fields,
    "pom.xml": _pom_fields,
}


def _format(name: str) -> str | None:
    """The format key of a manifest file's name (`*.gemspec` shares one), or None."""
    if name in _FORMATS:
        return name
    return ".gemspec" if name.endswith(".gemspec") else None


def printing_steps(command: str) -> list[tuple[list[str], list[str], str]] | None:
    """The steps of the command that print files from their first line (`cat`, `head`, `bat`,
    `sed -n '1,Np'`): (the step's words, the files it names, what it is piped into); None when
    it changes folder first (the files would be another folder's)."""
    steps: list[tuple[list[str], list[str], str]] = []
    for raw in COMMAND_PARTS.split(command.strip()):
        head, _, piped = raw.partition(" | ")
        tokens = core_tokens(head.strip().lstrip("(").rstrip(")"))
        if not tokens:
            continue
        if tokens[0] in FOLDER_CHANGES:
            return None
        arguments = tokens[1:]
        files = [a for a in arguments if not a.startswith("-") and PATH_ARGUMENT.match(a)]
        from_top = tokens[0] == "sed" and any(_SED_FROM_TOP.match(a) for a in arguments)
        if tokens[0] in FILE_READERS or from_top:
            steps.append((tokens, files, piped))
    return steps


def _printed_files(command: str) -> list[str] | None:
    """Files the command prints from their first line, as it names them; None when it changes
    folder first (the files would be another folder's)."""
    steps = printing_steps(command)
    return None if steps is None else [f for _, files, _ in steps for f in files]


def _root_manifests(event: StoredEvent) -> dict[str, str]:
    """{format: root manifest path} of the manifests the event's command printed from their
    first line, one of each format at most (two of one format are left out)."""
    command = event.content.get("command")
    if event.event_type not in (EventType.COMMAND_RUN, EventType.TEST_RUN):
        return {}
    printed = _printed_files(command) if isinstance(command, str) else None
    by_format: dict[str, list[str]] = {}
    for raw in printed or []:
        kind = _format(PurePosixPath(raw).name)
        if kind is not None:
            by_format.setdefault(kind, []).append(relative_path(raw, event.project_id))
    roots: dict[str, str] = {}
    for kind, paths in by_format.items():
        path = paths[0].removeprefix("./")
        if len(paths) == 1 and "/" not in path and not path.startswith(("~", "..")):
            roots[kind] = path
    return roots


#: A line that shows a manifest's own text is in the output, by format.
_SIGNATURES: dict[str, re.Pattern[str]] = {
    "package.json": re.compile(r'^\s+"name"\s*:'),
    "composer.json": re.compile(r'^\s+"name"\s*:'),
    "Cargo.toml": re.compile(r"^\[package\]\s*$"),
    "pyproject.toml": re.compile(r"^\[(?:project|build-system|tool\.poetry)\]\s*$"),
    "mix.exs": re.compile(r"^defmodule\s+[\w.]+\.MixProject\b"),
    ".gemspec": re.compile(r"Gem::Specification\.new\b"),
    "pom.xml": re.compile(r"^\s*<project\b"),
}


#: The line `cargo metadata` prints: the workspace's packages as one JSON object.
_CARGO_METADATA = re.compile(r"^\s*\{\s*\"packages\"\s*:")


def _ran_cargo_metadata(command: str) -> bool:
    return any(
        core_tokens(part)[:2] == ["cargo", "metadata"]
        for part in COMMAND_PARTS.split(command.strip())
    )


def cargo_root_package(event: StoredEvent) -> dict[str, object] | None:
    """The package `cargo metadata`, run by the event's command that succeeded, printed for the
    project's root `Cargo.toml`, or None."""
    if event.event_type not in (EventType.COMMAND_RUN, EventType.TEST_RUN):
        return None
    command, output = event.content.get("command"), event.content.get("output")
    if not isinstance(command, str) or not isinstance(output, str):
        return None
    if event.content.get("exit_code") not in (0, None) or not _ran_cargo_metadata(command):
        return None
    lines = [line for line in output[:MAX_OUTPUT_CHARS].splitlines() if _CARGO_METADATA.match(line)]
    if len(lines) != 1:
        return None
    try:
        data = json.loads(lines[0])
    except ValueError:
        return None
    packages = data.get("packages") if isinstance(data, dict) else None
    root = event.project_id.rstrip("/") + "/Cargo.toml"
    found = [p for p in packages or [] if isinstance(p, dict) and p.get("manifest_path") == root]
    return found[0] if len(found) == 1 else None


def printed_manifest_paths(events: list[StoredEvent]) -> list[tuple[str, str]]:
    """(root manifest, event id) for each manifest a command printed among other output whose
    own text the output shows (`_SIGNATURES`), and the root `Cargo.toml` `cargo metadata`
    printed: read as surely as with a file tool."""
    found: list[tuple[str, str]] = []
    for event in events:
        output = event.content.get("output")
        if not isinstance(output, str):
            continue
        if cargo_root_package(event) is not None:
            found.append(("Cargo.toml", event.id))
        lines = output[:MAX_OUTPUT_CHARS].splitlines()
        for kind, path in _root_manifests(event).items():
            signature = _SIGNATURES[kind]
            if sum(1 for line in lines if signature.search(line)) == 1:
                found.append((path, event.id))
    return found


def printed_package_json(events: list[StoredEvent]) -> list[tuple[str, str, str]]:
    """(`package.json`, event id, the JSON object's text) for each command that printed the
    root `package.json` among other output: the one object opened by a `{` line whose first key
    is `"name"`, up to its closing `}` line (or the output's end, when cut short)."""
    found: list[tuple[str, str, str]] = []
    for event in events:
        output = event.content.get("output")
        if "package.json" not in _root_manifests(event) or not isinstance(output, str):
            continue
        lines = output[:MAX_OUTPUT_CHARS].splitlines()
        starts = [
            i
            for i, line in enumerate(lines[:-1])
            if line.rstrip() == "{" and _JSON_NAME.match(lines[i + 1])
        ]
        if len(starts) != 1:
            continue  # no object, or two: which is the project's is not known
        block = lines[starts[0] :]
        end = next((i for i, line in enumerate(block) if line.rstrip() == "}"), len(block) - 1)
        found.append(("package.json", event.id, "\n".join(block[: end + 1])))
    return found


def printed_description(event: StoredEvent) -> tuple[str, str] | None:
    """(root manifest, its description) the command of `event` printed, or None (module
    docstring)."""
    if event.event_type not in (EventType.COMMAND_RUN, EventType.TEST_RUN):
        return None
    package = cargo_root_package(event)
    described = package.get("description") if package else None
    if isinstance(described, str) and _says_enough(" ".join(described.split())):
        return "Cargo.toml", " ".join(described.split())
    output = event.content.get("output")
    roots = _root_manifests(event)
    if not roots or not isinstance(output, str):
        return None
    lines = output[:MAX_OUTPUT_CHARS].splitlines()
    for kind, path in roots.items():
        reader = _FORMATS.get(kind, _gemspec_fields)
        values = reader(lines)
        if len(values) != 1:
            continue
        value = " ".join(values[0].split())
        if _says_enough(value):
            return path, value
    return None


def _says_enough(value: str) -> bool:
    return (
        MIN_CHARS <= len(value) <= MAX_CHARS
        and len(value.split()) >= MIN_WORDS
        and not is_boilerplate(value)
    )


def printed_about(events: list[StoredEvent]) -> tuple[str, str, tuple[str, ...]] | None:
    """(statement, manifest, event ids) saying what the project is from a description field
    printed among other output, or None when none is, or two differ."""
    found: dict[str, tuple[str, str]] = {}
    for event in events:
        printed = printed_description(event)
        if printed is not None:
            found.setdefault(printed[1], (printed[0], event.id))
    if len(found) != 1:
        return None
    ((value, (source, event_id)),) = found.items()
    name = PurePosixPath(events[0].project_id).name or "unnamed"
    text = about_text(name, value.rstrip(".") + ".", source)
    return text, source, (event_id,)
