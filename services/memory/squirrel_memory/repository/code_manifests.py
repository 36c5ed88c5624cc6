"""The dependencies a manifest written as code declares, read from its literal declaration
lines: SwiftPM's `Package.swift`, sbt's `build.sbt`, Mill's `build.mill`, Leiningen's
`project.clj`, Clojure's `deps.edn`, Perl's `cpanfile`, rebar3's `rebar.config`, a Nimble
package's `requires`, a Crystal `shard.yml` and a Zig `build.zig.zon`.

Such a file is a program (`manifest_formats.MARKER_MANIFESTS`), so only the shapes every one of
them writes its dependencies in are read, each with its line; a dependency built from a
variable or a function call says nothing. One declared for tests or development only is marked
so: sbt's `% Test`, a Mill test module's `ivyDeps`, a Leiningen `:profiles` entry, a
`deps.edn` alias, a cpanfile's `on 'test'` block or `test_requires`, a rebar3 profile's
`deps`, a shard's `development_dependencies`. A SwiftPM package is declared for the whole
manifest, so one counts only when a target that is no test target and sits in no examples or
docs folder names it (`.product(name: "Vapor", package: "vapor")`, or a product of the
package's own name).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from squirrel_memory.repository.findings import SAMPLE_FOLDERS, Readings
from squirrel_memory.repository.manifest_fields import add_dependency
from squirrel_memory.repository.snapshot import TextFile

#: `.package(url: "https://github.com/vapor/vapor.git", from: "4.0.0")`: the repository's name.
_SWIFT_PACKAGE = re.compile(
    r"""\.package\s*\(\s*(?:name\s*:\s*"[^"]*"\s*,\s*)?url\s*:\s*"[^"]*/(?P<name>[\w.-]+?)"""
    r"""(?:\.git)?/?"(?:\s*,\s*(?:from|exact|branch|revision)\s*:\s*"(?P<version>[^"]*)")?"""
)
#: `"org.http4s" %% "http4s-ember-server" % "0.23.27" % Test`.
_SBT_MODULE = re.compile(
    r'"(?P<group>[\w.-]+)"\s*%%?%?\s*"(?P<artifact>[\w.-]+)"\s*%\s*"(?P<version>[^"]*)"'
    r'(?P<config>\s*%\s*(?:"[^"]*"|\w+))?'
)
_SBT_DEV_CONFIG = re.compile(r"%\s*\"?(?:Test|IntegrationTest|it|test)\"?", re.IGNORECASE)
#: `[compojure "1.7.1"]` in a `project.clj`.
_LEIN_DEP = re.compile(r'\[\s*(?P<name>[\w.\-]+(?:/[\w.\-]+)?)\s+"(?P<version>[^"]*)"')
#: `ring/ring-core {:mvn/version "1.12.1"}` (or a `:git/tag`) in a `deps.edn`.
_EDN_DEP = re.compile(
    r'(?<![\w.\-])(?P<name>[\w.\-]+/[\w.\-]+)\s*\{\s*:(?:mvn/version|git/tag|git/url|local/root)\s*"'
    r'(?P<version>[^"]*)"'
)
#: `requires 'Mojolicious', '9.35';` (and `test_requires`, `recommends` …) in a cpanfile.
_CPAN_DEP = re.compile(
    r"""^\s*(?P<kind>\w*requires|recommends|suggests)\s+["'](?P<name>[\w:]+)["']"""
    r"""(?:\s*(?:,|=>)\s*["']?(?P<version>[^"';]*))?"""
)
_CPAN_PHASE = re.compile(r"""^\s*on\s+["']?(?P<phase>\w+)["']?\s*=>\s*sub\b""")


#: The start of a SwiftPM target: its kind decides whether it runs as the package.
_SWIFT_TARGET = re.compile(r"\.(?P<kind>\w*[tT]arget|plugin|macro)\s*\(")
_SWIFT_PATH = re.compile(r'\bpath\s*:\s*"(?P<path>[^"]*)"')
_SWIFT_NAMED = re.compile(r'\bpackage\s*:\s*"(?P<package>[^"]+)"|"(?P<product>[^"]+)"')
#: Folders of a target that shows the package in use, not the package.
_SAMPLE_FOLDERS = SAMPLE_FOLDERS | {"docs"}


def _swift_used(text: str) -> set[str]:
    """The package names (lower-cased) a target that is the package's own names."""
    starts = list(_SWIFT_TARGET.finditer(text))
    used: set[str] = set()
    for index, start in enumerate(starts):
        end = starts[index + 1].start() if index + 1 < len(starts) else len(text)
        body = text[start.end() : end]
        path = _SWIFT_PATH.search(body)
        folder = path.group("path").split("/", 1)[0].lower() if path else ""
        if start.group("kind") == "testTarget" or folder in _SAMPLE_FOLDERS:
            continue
        for named in _SWIFT_NAMED.finditer(body):
            used.add((named.group("package") or named.group("product")).lower())
    return used


def _read_swift(text: TextFile, out: Readings) -> None:
    used = _swift_used(text.text)
    for number, line in enumerate(text.lines, 1):
        for match in _SWIFT_PACKAGE.finditer(line):
            name = match.group("name").lower()
            if name in used:
                version = match.group("version") or ""
                add_dependency(out, text, "swift", name, version, ref=text.ref(number))


def _read_sbt(text: TextFile, out: Readings) -> None:
    for number, line in enumerate(text.lines, 1):
        code = line.split("//", 1)[0]
        for match in _SBT_MODULE.finditer(code):
            name = f"{match.group('group')}:{match.group('artifact')}"
            dev = bool(_SBT_DEV_CONFIG.search(match.group("config") or ""))
            add_dependency(
                out, text, "jvm", name, match.group("version"), ref=text.ref(number), dev=dev
            )


#: `ivy"com.lihaoyi::cask:0.9.2"` (or Mill 0.12's `mvn"…"`) in a Mill build file.
_MILL_DEP = re.compile(
    r'\b(?:ivy|mvn)"(?P<group>[\w.-]+):{1,3}(?P<artifact>[\w.-]+):+(?P<version>[^":]*)"'
)
#: A Mill module opening (`object test extends ScalaTests with TestModule.Munit {`).
_MILL_OBJECT = re.compile(r"^\s*object\s+(?P<name>\w+)\b(?P<rest>.*)$")
_MILL_TEST_MODULE = re.compile(r"\bTests?\b|Tests\b|TestModule", re.IGNORECASE)


def _read_mill(text: TextFile, out: Readings) -> None:
    """The `ivyDeps` of a Mill build file; those of a test module (`object test extends
    ScalaTests`, nested in the module it tests) are for tests."""
    depth = 0
    tests: list[int] = []  # the depths at which test modules opened
    for number, line in enumerate(text.lines, 1):
        code = line.split("//", 1)[0]
        opening = _MILL_OBJECT.match(code)
        if opening and "{" in code:
            named = opening.group("name").lower() in ("test", "tests", "it")
            if named or _MILL_TEST_MODULE.search(opening.group("rest")):
                tests.append(depth)
        for match in _MILL_DEP.finditer(code):
            name = f"{match.group('group')}:{match.group('artifact')}"
            version = match.group("version")
            add_dependency(out, text, "jvm", name, version, ref=text.ref(number), dev=bool(tests))
        depth += code.count("{") - code.count("}")
        while tests and depth <= tests[-1]:
            tests.pop()


def _read_lein(text: TextFile, out: Readings) -> None:
    """`:dependencies [...]` of the project; those under `:profiles` are for development."""
    profiles = False
    for number, line in enumerate(text.lines, 1):
        code = line.split(";", 1)[0]
        profiles = profiles or ":profiles" in code
        if code.lstrip().startswith("(defproject"):
            continue
        for match in _LEIN_DEP.finditer(code):
            name = match.group("name")
            name = name if "/" in name else f"{name}/{name}"
            add_dependency(
                out,
                text,
                "clojure",
                name,
                match.group("version"),
                ref=text.ref(number),
                dev=profiles,
            )


def _read_edn(text: TextFile, out: Readings) -> None:
    """`:deps {...}` of the project; an alias's `:extra-deps` is for development or tests."""
    aliases = False
    for number, line in enumerate(text.lines, 1):
        code = line.split(";", 1)[0]
        aliases = aliases or ":aliases" in code
        for match in _EDN_DEP.finditer(code):
            add_dependency(
                out,
                text,
                "clojure",
                match.group("name"),
                match.group("version"),
                ref=text.ref(number),
                dev=aliases,
            )


def _read_cpanfile(text: TextFile, out: Readings) -> None:
    """`requires` of the running code; in an `on 'test'|'develop'|…` block, or as
    `test_requires`, `recommends` …, for development."""
    phase = ""
    for number, line in enumerate(text.lines, 1):
        code = line.split("#", 1)[0]
        if start := _CPAN_PHASE.match(code):
            phase = start.group("phase")
        elif phase and code.strip().startswith("}"):
            phase = ""
        if match := _CPAN_DEP.match(code):
            name = match.group("name")
            if name == "perl":
                continue
            dev = match.group("kind") != "requires" or phase not in ("", "runtime")
            version = (match.group("version") or "").strip()
            add_dependency(out, text, "perl", name, version, ref=text.ref(number), dev=dev)


#: `{deps, [` opening rebar3's dependency list (a profile's own list is for that profile).
_REBAR_DEPS = re.compile(r"\{\s*deps\s*,\s*\[")
#: `{cowboy, "2.12.0"}` or `{cowboy, {git, …}}` in a rebar3 deps list.
_REBAR_DEP = re.compile(r'\{\s*(?P<name>[a-z]\w*)\s*,\s*(?:"(?P<version>[^"]*)")?')


def _read_rebar(text: TextFile, out: Readings) -> None:
    """`{deps, [...]}` of the project; the deps of a `{profiles, …}` entry are for that profile
    (tests, development)."""
    profiles = text.text.find("{profiles")
    for match in _REBAR_DEPS.finditer(text.text):
        close = text.text.find("]}", match.end())
        body = text.text[match.end() : close if close >= 0 else len(text.text)]
        dev = 0 <= profiles < match.start()
        depth, start = 0, match.end()
        for offset, char in enumerate(body):
            if char == "{":
                depth += 1
                if depth == 1 and (dep := _REBAR_DEP.match(body, offset)):
                    line = text.text.count("\n", 0, start + offset) + 1
                    add_dependency(
                        out,
                        text,
                        "erlang",
                        dep.group("name"),
                        dep.group("version") or "",
                        ref=text.ref(line),
                        dev=dev,
                    )
            elif char == "}":
                depth -= 1


#: `requires "jester >= 0.6.0"` (or several names apart by commas) in a `.nimble` file.
_NIMBLE_REQUIRES = re.compile(r'^\s*requires\s*\(?\s*(?P<specs>"[^\n]*)$')
_NIMBLE_SPEC = re.compile(r'"(?P<name>[A-Za-z][\w]*)\s*(?P<version>[^"]*)"')


def _read_nimble(text: TextFile, out: Readings) -> None:
    """A Nimble package's `requires` lines (`nim` itself is the language, not a dependency)."""
    for number, line in enumerate(text.lines, 1):
        match = _NIMBLE_REQUIRES.match(line.split("#", 1)[0])
        for spec in _NIMBLE_SPEC.finditer(match.group("specs")) if match else ():
            if spec.group("name").lower() != "nim":
                version = spec.group("version").strip()
                add_dependency(out, text, "nim", spec.group("name"), version, ref=text.ref(number))


#: A `build.zig.zon` dependency entry (`.httpz = .{`), one level inside `.dependencies`.
_ZON_DEPENDENCY = re.compile(r'^\s*\.@?"?(?P<name>[\w-]+)"?\s*=\s*\.\{')


def _read_zig_zon(text: TextFile, out: Readings) -> None:
    """The `.dependencies` of a `build.zig.zon`, by name (a package has no version there)."""
    depth = 0
    inside = -1  # the depth of the `.dependencies` block, once open
    for number, line in enumerate(text.lines, 1):
        code = line.split("//", 1)[0]
        if inside < 0 and re.match(r"^\s*\.dependencies\s*=\s*\.\{", code):
            inside = depth + 1
        elif inside >= 0 and depth == inside and (entry := _ZON_DEPENDENCY.match(code)):
            add_dependency(out, text, "zig", entry.group("name"), "", ref=text.ref(number))
        depth += code.count("{") - code.count("}")
        if inside >= 0 and depth < inside:
            break


#: A shard's dependency section and one entry of it (`  kemal:` two spaces in).
_SHARD_SECTION = re.compile(r"^(?P<section>dependencies|development_dependencies)\s*:\s*$")
_SHARD_ENTRY = re.compile(r"^  (?P<name>[\w.-]+)\s*:\s*$")


def _read_shard(text: TextFile, out: Readings) -> None:
    """The `dependencies` (and, for development, `development_dependencies`) of a Crystal
    `shard.yml`."""
    section = ""
    for number, line in enumerate(text.lines, 1):
        if start := _SHARD_SECTION.match(line):
            section = start.group("section")
        elif line.strip() and not line.startswith(" "):
            section = ""
        elif section and (entry := _SHARD_ENTRY.match(line)):
            dev = section != "dependencies"
            add_dependency(
                out, text, "crystal", entry.group("name"), "", ref=text.ref(number), dev=dev
            )


CODE_MANIFEST_READERS: Mapping[str, Callable[[TextFile, Readings], None]] = {
    "Package.swift": _read_swift,
    "build.sbt": _read_sbt,
    "build.mill": _read_mill,
    "build.sc": _read_mill,
    "project.clj": _read_lein,
    "deps.edn": _read_edn,
    "cpanfile": _read_cpanfile,
    "rebar.config": _read_rebar,
    "shard.yml": _read_shard,
    "build.zig.zon": _read_zig_zon,
}
#: The same, known by their suffix.
CODE_MANIFEST_SUFFIXES: Mapping[str, Callable[[TextFile, Readings], None]] = {
    ".nimble": _read_nimble,
}


def read_code_manifest_dependencies(text: TextFile, out: Readings) -> None:
    """The dependencies a manifest written as code declares (module docstring)."""
    name = text.path.rsplit("/", 1)[-1]
    reader = CODE_MANIFEST_READERS.get(name) or next(
        (read for suffix, read in CODE_MANIFEST_SUFFIXES.items() if name.endswith(suffix)), None
    )
    if reader is not None:
        reader(text, out)
