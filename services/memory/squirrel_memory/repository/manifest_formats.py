"""Manifests of ecosystems read without a package of their own: Dart's `pubspec.yaml`,
Gleam's `gleam.toml`, R's `DESCRIPTION`, Haskell's `*.cabal`, OCaml's `dune-project` and a
CMake `project()` — each for the project's name, what it says it is, the language version it
asks for and its dependencies (those for tests or development only marked so: `dev_dependencies`,
a cabal `test-suite`, dune's `:with-test`) — and the manifests read only for the ecosystem they
mark (`MARKER_MANIFESTS`) and the language version they ask for (`MARKER_VERSIONS`).

Each format has a parser in Python (yaml, tomllib) or a simple anchored line shape (R's
Debian control fields, cabal's `field: value`, dune's s-expressions, CMake's `project(…)`).
"""

from __future__ import annotations

import re
import tomllib

import yaml

from squirrel_memory.repository.code_manifests import read_code_manifest_dependencies
from squirrel_memory.repository.findings import Readings, Toolchain
from squirrel_memory.repository.manifest_fields import add_dependency, describe, table
from squirrel_memory.repository.snapshot import TextFile


def _toolchain(out: Readings, text: TextFile, ecosystem: str, version: object, needle: str) -> None:
    """The language version a manifest asks for, when it names a number."""
    if isinstance(version, str) and re.search(r"\d", version):
        out.toolchains.append(Toolchain(ecosystem, " ".join(version.split()), text.ref_of(needle)))


def read_pubspec(text: TextFile, out: Readings) -> None:
    """Dart/Flutter `pubspec.yaml`."""
    data = table(yaml.safe_load(text.text))
    out.manifests[text.path] = "dart"
    out.name_project(str(data.get("name") or ""), text.ref_of("name:"))
    describe(out, data.get("description"), text.ref_of("description:"))
    _toolchain(out, text, "dart", table(data.get("environment")).get("sdk"), "sdk:")
    for section in ("dependencies", "dev_dependencies"):
        for name, spec in table(data.get(section)).items():
            version = spec if isinstance(spec, str) else ""
            dev = section != "dependencies"
            ref = text.ref_of(str(name))
            add_dependency(out, text, "dart", str(name), version, ref=ref, dev=dev)


def read_gleam_toml(text: TextFile, out: Readings) -> None:
    """Gleam's `gleam.toml`."""
    data = tomllib.loads(text.text)
    out.manifests[text.path] = "gleam"
    out.name_project(str(data.get("name") or ""), text.ref_of("name"))
    describe(out, data.get("description"), text.ref_of("description"))
    _toolchain(out, text, "gleam", data.get("gleam"), "gleam")
    for section in ("dependencies", "dev-dependencies"):
        for name, spec in table(data.get(section)).items():
            version = spec if isinstance(spec, str) else ""
            dev = section != "dependencies"
            add_dependency(out, text, "gleam", name, version, ref=text.ref_of(name), dev=dev)


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
    describe(out, fields.get("Description") or fields.get("Title"), text.ref_of("Description:"))
    for field in ("Depends", "Imports", "LinkingTo", "Suggests"):
        for spec in fields.get(field, "").split(","):
            match = _R_PACKAGE.match(spec)
            if match and match.group(1) != "R":
                name, version = match.group(1), (match.group(2) or "").strip()
                add_dependency(out, text, "r", name, version, ref=text.ref_of(name))


_CABAL_FIELD = re.compile(r"^\s*([a-z][\w-]*):\s*(.*)$", re.IGNORECASE)
_CABAL_PACKAGE = re.compile(r"^\s*([A-Za-z][\w-]*)\s*(.*)$")
#: A cabal stanza whose dependencies serve the tests or benchmarks, not the running package.
_CABAL_DEV_STANZA = re.compile(r"^(?:test-suite|benchmark)\b", re.IGNORECASE)
_CABAL_STANZA = re.compile(r"^[a-z][\w-]*(?:\s|$)", re.IGNORECASE)


def read_cabal(text: TextFile, out: Readings) -> None:
    """A Haskell package's `*.cabal` (its `name`, `synopsis` and `build-depends`; those of a
    `test-suite` or `benchmark` stanza are for development)."""
    out.manifests[text.path] = "haskell"
    depends: list[tuple[str, bool]] = []
    field = ""
    dev = False
    for line in text.lines:
        if _CABAL_STANZA.match(line) and not _CABAL_FIELD.match(line):
            dev = bool(_CABAL_DEV_STANZA.match(line))
            field = ""
            continue
        match = _CABAL_FIELD.match(line)
        if match:
            field = match.group(1).lower()
            value = match.group(2).strip()
            if field == "name":
                out.name_project(value, text.ref_of(line))
            elif field == "synopsis":
                describe(out, value, text.ref_of("synopsis:"))
        elif field == "build-depends" and line[:1].isspace() and line.strip():
            value = line.strip()
        else:
            continue
        if field == "build-depends":
            depends.extend((spec, dev) for spec in value.split(","))
    for spec, dev in depends:
        match = _CABAL_PACKAGE.match(spec)
        if match:
            name, version = match.group(1), match.group(2).strip()
            add_dependency(out, text, "haskell", name, version, ref=text.ref_of(name), dev=dev)


#: The sections of an hpack `package.yaml` that name what it builds; one of them (beside a
#: `dependencies` list somewhere) tells hpack's file from another tool's `package.yaml`.
_HPACK_TARGETS = ("library", "executables", "executable", "tests", "benchmarks")
_HPACK_DEV = ("tests", "benchmarks")


def _hpack_dependencies(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    if isinstance(value, dict):
        return [str(k) for k in value]
    return []


def read_hpack(text: TextFile, out: Readings) -> None:
    """A Haskell package's hpack `package.yaml`: its `name`, `synopsis` and `dependencies`, at
    the top, in its library and executables, and (for development) in its tests."""
    data = yaml.safe_load(text.text)
    if not isinstance(data, dict) or not any(isinstance(data.get(t), dict) for t in _HPACK_TARGETS):
        return
    out.manifests[text.path] = "haskell"
    if isinstance(data.get("name"), str):
        out.name_project(data["name"], text.ref_of("name:"))
    if isinstance(data.get("synopsis"), str):
        describe(out, data["synopsis"], text.ref_of("synopsis:"))
    found: list[tuple[str, bool]] = [
        (d, False) for d in _hpack_dependencies(data.get("dependencies"))
    ]
    for section in _HPACK_TARGETS:
        targets = table(data.get(section))
        stanzas = [targets] if section == "library" else [table(t) for t in targets.values()]
        for stanza in stanzas:
            deps = _hpack_dependencies(stanza.get("dependencies"))
            found.extend((d, section in _HPACK_DEV) for d in deps)
    for spec, dev in found:
        match = _CABAL_PACKAGE.match(spec)
        if match:
            name, version = match.group(1), match.group(2).strip()
            add_dependency(out, text, "haskell", name, version, ref=text.ref_of(name), dev=dev)


_DUNE_NAME = re.compile(r"^\s*\(name\s+([\w-]+)\)")
_DUNE_SYNOPSIS = re.compile(r'^\s*\(synopsis\s+"([^"]+)"\)')
_DUNE_DEPENDS = re.compile(r"\(depends\b")
_DUNE_WORD = re.compile(r"[a-z][\w-]*")
#: Packages a dune-project depends on for its tests, docs or development set-up only.
_DUNE_DEV = re.compile(r":with-(?:test|doc|dev-setup)\b")
_DUNE_VERSION = re.compile(r"\(\s*(>=|>|=)\s*\"?(\d[\d.]*)\"?\s*\)")


def _closing(text: str, start: int) -> int:
    """The index of the `)` that closes the `(` just before `start`, or the text's end."""
    depth = 1
    for index in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[index], 0)
        if depth == 0:
            return index
    return len(text)


def _dune_packages(body: str) -> list[tuple[str, str]]:
    """(package, its constraint) of each item of a `depends` list: `name` or `(name …)`."""
    found: list[tuple[str, str]] = []
    index = 0
    while index < len(body):
        if body[index] == "(":
            end = _closing(body, index + 1)
            item = body[index + 1 : end]
            if word := _DUNE_WORD.match(item.strip()):
                found.append((word.group(0), item.strip()[word.end() :]))
            index = end + 1
        elif word := _DUNE_WORD.match(body, index):
            found.append((word.group(0), ""))
            index = word.end()
        else:
            index += 1
    return found


def read_dune_project(text: TextFile, out: Readings) -> None:
    """OCaml's `dune-project` (its `name`, package `synopsis` and `depends`, whose `ocaml`
    constraint is the language version it asks for; a `:with-test` package is for
    development)."""
    out.manifests[text.path] = "ocaml"
    for number, line in enumerate(text.lines, 1):
        if match := _DUNE_NAME.match(line):
            out.name_project(match.group(1), text.ref(number))
        elif match := _DUNE_SYNOPSIS.match(line):
            describe(out, match.group(1), text.ref_of("(synopsis"))
    for depends in _DUNE_DEPENDS.finditer(text.text):
        body = text.text[depends.end() : _closing(text.text, depends.end())]
        for name, constraint in _dune_packages(body):
            if name == "ocaml":
                if version := _DUNE_VERSION.search(constraint):
                    operator = "" if version.group(1) == "=" else version.group(1)
                    _toolchain(out, text, "ocaml", operator + version.group(2), "(ocaml")
            elif name != "dune":
                dev = bool(_DUNE_DEV.search(constraint))
                add_dependency(out, text, "ocaml", name, "", ref=text.ref_of(name), dev=dev)


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
        describe(out, described.group(1), text.ref_of("DESCRIPTION"))


#: Manifests read only for the ecosystem they mark (what they declare is code to evaluate, or
#: says nothing of the stack): the ecosystem's conventions then apply to the folder.
MARKER_MANIFESTS = {
    "Package.swift": "swift",
    "build.sbt": "jvm",
    "build.mill": "jvm",
    "build.sc": "jvm",
    "project.clj": "clojure",
    "deps.edn": "clojure",
    "rebar.config": "erlang",
    "build.zig": "zig",
    "build.zig.zon": "zig",
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


#: The language version a marker manifest asks for: its name → (the ecosystem whose language
#: or runtime it versions, the line that says it, whether the number is a floor). A version
#: that is not a literal (a variable, a range of the ecosystem's own) says none.
MARKER_VERSIONS: dict[str, tuple[str, re.Pattern[str], bool]] = {
    "Package.swift": (
        "swift",
        re.compile(r"^//\s*swift-tools-version\s*:\s*(?P<version>\d+(?:\.\d+)*)"),
        True,
    ),
    "build.sbt": (
        "scala",
        re.compile(r'^\s*(?:ThisBuild\s*/\s*)?scalaVersion\s*:=\s*"(?P<version>\d[\w.-]*)"'),
        False,
    ),
    "rebar.config": (
        "erlang",
        re.compile(r'^\s*\{\s*minimum_otp_vsn\s*,\s*"(?P<version>\d[\d.]*)"'),
        True,
    ),
    "build.zig.zon": (
        "zig",
        re.compile(r'^\s*\.minimum_zig_version\s*=\s*"(?P<version>\d[\w.-]*)"'),
        True,
    ),
    "cpanfile": (
        "perl",
        re.compile(r"""^\s*requires\s+["']perl["']\s*(?:,|=>)\s*["']?v?(?P<version>5[\d.]*)"""),
        True,
    ),
    "Makefile.PL": (
        "perl",
        re.compile(r"""^\s*MIN_PERL_VERSION\s*=>\s*["']?v?(?P<version>5[\d.]*)"""),
        True,
    ),
    "deps.edn": (
        "clojure",
        re.compile(r'\borg\.clojure/clojure\s*\{\s*:mvn/version\s*"(?P<version>\d[\w.-]*)"'),
        False,
    ),
    "project.clj": (
        "clojure",
        re.compile(r'\[\s*org\.clojure/clojure\s+"(?P<version>\d[\w.-]*)"'),
        False,
    ),
    "cabal.project": (
        "haskell",
        re.compile(r"^\s*with-compiler\s*:\s*ghc-(?P<version>\d[\d.]*)\s*$"),
        False,
    ),
}


def read_marker(text: TextFile, out: Readings) -> None:
    """A manifest that marks its folder as one ecosystem's (`Package.swift` → swift), the
    language version it asks for (`MARKER_VERSIONS`) and, for one written as code, the
    dependencies its literal declarations name (`code_manifests`)."""
    name = text.path.rsplit("/", 1)[-1]
    found = MARKER_MANIFESTS.get(name) or next(
        (eco for suffix, eco in MARKER_SUFFIXES.items() if name.endswith(suffix)), None
    )
    needs = MARKED_BY_CONTENT.get(name)
    if found is None or (needs is not None and not needs.search(text.text)):
        return
    out.manifests[text.path] = found
    read_code_manifest_dependencies(text, out)
    if name not in MARKER_VERSIONS:
        return
    ecosystem, line_shape, floor = MARKER_VERSIONS[name]
    for number, line in enumerate(text.lines, 1):
        if match := line_shape.search(line):
            version = (">=" if floor else "") + match.group("version")
            out.toolchains.append(Toolchain(ecosystem, version, text.ref(number)))
            return
