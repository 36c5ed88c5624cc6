"""Manifests of ecosystems read without a package of their own: Dart's `pubspec.yaml`,
Gleam's `gleam.toml`, R's `DESCRIPTION`, Haskell's `*.cabal`, OCaml's `dune-project` and a
CMake `project()` — each for the project's name, what it says it is and its dependencies —
and the manifests read only for the ecosystem they mark (`MARKER_MANIFESTS`).

Each format has a parser in Python (yaml, tomllib) or a simple anchored line shape (R's
Debian control fields, cabal's `field: value`, dune's s-expressions, CMake's `project(…)`).
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

import yaml

from squirrel_memory.repository.findings import Dependency, Readings
from squirrel_memory.repository.snapshot import TextFile

#: Longest manifest description kept (characters).
MAX_DESCRIPTION_CHARS = 300


def _describe(out: Readings, value: object, text: TextFile, needle: str) -> None:
    if isinstance(value, str) and len(value.strip()) >= 10:
        described = " ".join(value.split())[:MAX_DESCRIPTION_CHARS]
        out.describe_project(described.rstrip(".") + ".", text.ref_of(needle))


def _dependency(out: Readings, text: TextFile, ecosystem: str, name: str, version: str) -> None:
    out.dependencies.append(Dependency(ecosystem, name, version, text.ref_of(name), text.path))


def _table(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def read_pubspec(text: TextFile, out: Readings) -> None:
    """Dart/Flutter `pubspec.yaml`."""
    data = _table(yaml.safe_load(text.text))
    out.manifests[text.path] = "dart"
    out.name_project(str(data.get("name") or ""), text.ref_of("name:"))
    _describe(out, data.get("description"), text, "description:")
    for section in ("dependencies", "dev_dependencies"):
        for name, spec in _table(data.get(section)).items():
            _dependency(out, text, "dart", str(name), spec if isinstance(spec, str) else "")


def read_gleam_toml(text: TextFile, out: Readings) -> None:
    """Gleam's `gleam.toml`."""
    data = tomllib.loads(text.text)
    out.manifests[text.path] = "gleam"
    out.name_project(str(data.get("name") or ""), text.ref_of("name"))
    _describe(out, data.get("description"), text, "description")
    for section in ("dependencies", "dev-dependencies"):
        for name, spec in _table(data.get(section)).items():
            _dependency(out, text, "gleam", name, spec if isinstance(spec, str) else "")


_DCF_FIELD = re.compile(r"^([A-Za-z][\w/@.-]*):\s*(.*)$")
_R_PACKAGE = re.compile(r"^\s*([A-Za-z][\w.]*)\s*(?:\(([^)]*)\))?\s*$")


def _dcf_fields(text: TextFile) -> dict[str, str]:
    """Debian control fields: `Name: value`, continued on indented lines."""
    fields: dict[str, str] = {}
    current = ""
    for line in text.lines:
        match = _DCF_FIELD.match(line)
        if match and not line[:1].isspace():
            current = match.group(1)
            fields[current] = match.group(2).strip()
        elif current and line[:1].isspace():
            fields[current] = f"{fields[current]} {line.strip()}".strip()
    return fields


def read_r_description(text: TextFile, out: Readings) -> None:
    """An R package's `DESCRIPTION` (its `Package`, `Description` and `Imports`)."""
    fields = _dcf_fields(text)
    if "Package" not in fields:
        return  # not an R package's DESCRIPTION
    out.manifests[text.path] = "r"
    out.name_project(fields["Package"], text.ref_of("Package:"))
    _describe(out, fields.get("Description") or fields.get("Title"), text, "Description:")
    for field in ("Depends", "Imports", "LinkingTo", "Suggests"):
        for spec in fields.get(field, "").split(","):
            match = _R_PACKAGE.match(spec)
            if match and match.group(1) != "R":
                _dependency(out, text, "r", match.group(1), (match.group(2) or "").strip())


_CABAL_FIELD = re.compile(r"^\s*([a-z][\w-]*):\s*(.*)$", re.IGNORECASE)
_CABAL_PACKAGE = re.compile(r"^\s*([A-Za-z][\w-]*)\s*(.*)$")


def read_cabal(text: TextFile, out: Readings) -> None:
    """A Haskell package's `*.cabal` (its `name`, `synopsis` and `build-depends`)."""
    out.manifests[text.path] = "haskell"
    depends: list[str] = []
    field = ""
    for line in text.lines:
        match = _CABAL_FIELD.match(line)
        if match:
            field = match.group(1).lower()
            value = match.group(2).strip()
            if field == "name":
                out.name_project(value, text.ref_of(line))
            elif field == "synopsis":
                _describe(out, value, text, "synopsis:")
        elif field == "build-depends" and line[:1].isspace() and line.strip():
            value = line.strip()
        else:
            continue
        if field == "build-depends":
            depends.extend(value.split(","))
    for spec in depends:
        match = _CABAL_PACKAGE.match(spec)
        if match:
            _dependency(out, text, "haskell", match.group(1), match.group(2).strip())


_DUNE_NAME = re.compile(r"^\s*\(name\s+([\w-]+)\)")
_DUNE_SYNOPSIS = re.compile(r'^\s*\(synopsis\s+"([^"]+)"\)')
_DUNE_DEPENDS = re.compile(r"\(depends\s+(.*)")
_DUNE_PACKAGE = re.compile(r"(?:^|[\s(])([a-z][\w-]*)")


def read_dune_project(text: TextFile, out: Readings) -> None:
    """OCaml's `dune-project` (its `name`, package `synopsis` and `depends`)."""
    out.manifests[text.path] = "ocaml"
    for number, line in enumerate(text.lines, 1):
        if match := _DUNE_NAME.match(line):
            out.name_project(match.group(1), text.ref(number))
        elif match := _DUNE_SYNOPSIS.match(line):
            _describe(out, match.group(1), text, "(synopsis")
        elif match := _DUNE_DEPENDS.search(line):
            for name in _DUNE_PACKAGE.findall(match.group(1)):
                if not name.startswith("with-"):
                    _dependency(out, text, "ocaml", name, "")


_CMAKE_PROJECT = re.compile(r"\bproject\s*\(\s*([\w.-]+)([^)]*)\)", re.IGNORECASE | re.DOTALL)
_CMAKE_DESCRIPTION = re.compile(r'\bDESCRIPTION\s+"([^"]+)"')


def read_cmakelists(text: TextFile, out: Readings) -> None:
    """A root `CMakeLists.txt`'s `project(name … DESCRIPTION "…")`."""
    match = _CMAKE_PROJECT.search(text.text)
    if match is None:
        return
    out.manifests[text.path] = "c"
    out.name_project(match.group(1), text.ref_of("project("))
    described = _CMAKE_DESCRIPTION.search(match.group(2))
    if described:
        _describe(out, described.group(1), text, "DESCRIPTION")


#: Manifests read only for the ecosystem they mark (what they declare is code to evaluate, or
#: says nothing of the stack): the ecosystem's conventions then apply to the folder.
MARKER_MANIFESTS = {
    "Package.swift": "swift",
    "build.sbt": "jvm",
    "project.clj": "clojure",
    "deps.edn": "clojure",
    "rebar.config": "erlang",
    "build.zig": "zig",
    "stack.yaml": "haskell",
    "cabal.project": "haskell",
    "Project.toml": "julia",
    "cpanfile": "perl",
    "Makefile.PL": "perl",
    "shard.yml": "crystal",
}
#: The same, known by their suffix (`ledger-0.1-1.rockspec`).
MARKER_SUFFIXES = {".rockspec": "lua", ".nimble": "nim"}
#: Marker names other tools use too, and the line that makes the file the ecosystem's: a
#: Haskell Stack project names its snapshot (a Docker stack file is a `stack.yaml` too).
MARKED_BY_CONTENT = {"stack.yaml": re.compile(r"^(?:resolver|snapshot)\s*:", re.MULTILINE)}


def read_marker(text: TextFile, out: Readings) -> None:
    """A manifest that marks its folder as one ecosystem's (`Package.swift` → swift)."""
    name = text.path.rsplit("/", 1)[-1]
    found = MARKER_MANIFESTS.get(name) or next(
        (eco for suffix, eco in MARKER_SUFFIXES.items() if name.endswith(suffix)), None
    )
    needs = MARKED_BY_CONTENT.get(name)
    if found is not None and (needs is None or needs.search(text.text)):
        out.manifests[text.path] = found
