"""Manifests: which reader reads each (`manifest_reader`) and the ecosystem its name marks
(`MANIFEST_ECOSYSTEMS`); the readers of JavaScript, Rust, Go, Elixir and PHP manifests are here,
each for the project's name, language version and declared dependencies, with their lines.

Formats with a parser are parsed with it (json, tomllib, yaml); mix.exs and go.mod have none in
Python and are read with anchored patterns. Python's manifests are in `python_manifests.py`,
the JVM's and .NET's build files in `build_manifests.py`, a Gemfile in `gemfile.py`, the other
ecosystems' in `manifest_formats.py`.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable, Mapping
from typing import Any

import yaml

from squirrel_memory.repository.build_manifests import read_csproj, read_gradle, read_pom_xml
from squirrel_memory.repository.findings import Readings, Toolchain, folder_of
from squirrel_memory.repository.gemfile import read_gemfile
from squirrel_memory.repository.manifest_fields import (
    add_dependency,
    describe,
    strings,
    table,
    toml_line,
)
from squirrel_memory.repository.manifest_formats import (
    MARKED_BY_CONTENT,
    MARKER_MANIFESTS,
    MARKER_SUFFIXES,
    read_cabal,
    read_cmakelists,
    read_dune_project,
    read_gleam_toml,
    read_hpack,
    read_marker,
    read_pubspec,
    read_r_description,
)
from squirrel_memory.repository.pinned_versions import PINNED_READERS
from squirrel_memory.repository.python_manifests import (
    read_pipfile,
    read_pyproject,
    read_requirements,
    read_setup_cfg,
)
from squirrel_memory.repository.snapshot import TextFile

Reader = Callable[[TextFile, Readings], None]


def read_package_json(text: TextFile, out: Readings) -> None:
    data = table(json.loads(text.text))
    out.manifests[text.path] = "javascript"
    if not folder_of(text.path):
        out.name_project(str(data.get("name") or ""), text.ref_of('"name"'))
        describe(out, data.get("description"), toml_line(text, '"description"'))
    workspaces = data.get("workspaces")
    members = table(workspaces).get("packages") if isinstance(workspaces, dict) else workspaces
    for member in strings(members):
        out.workspaces.append((member, text.ref_of(f'"{member}"')))
    node = table(data.get("engines")).get("node")
    if isinstance(node, str):
        out.toolchains.append(Toolchain("javascript", node, text.ref_of('"node"')))
    # `optionalDependencies` are installed when they can be: the project runs without them.
    for section in ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies"):
        for name, version in table(data.get(section)).items():
            ref = text.ref_of(f'"{name}"')
            dev = section == "devDependencies"
            optional = section == "optionalDependencies"
            add_dependency(
                out, text, "javascript", name, str(version), ref=ref, dev=dev, optional=optional
            )


#: A Deno import map's package specifier: `npm:postgres@^3.4.4`, `jsr:@hono/hono@^4.4.0`.
_DENO_SPECIFIER = re.compile(r"^(?:npm|jsr):(?P<name>@?[^@\s]+)(?:@(?P<version>\S*))?$")


def read_deno_json(text: TextFile, out: Readings) -> None:
    """A Deno project's `deno.json`: its name and the `npm:` and `jsr:` packages its import
    map names (an import of a URL or a path says nothing of the stack)."""
    data = table(json.loads(text.text))
    out.manifests[text.path] = "javascript"
    if not folder_of(text.path) and isinstance(data.get("name"), str):
        out.name_project(data["name"], text.ref_of('"name"'))
    for alias, spec in table(data.get("imports")).items():
        match = _DENO_SPECIFIER.match(spec) if isinstance(spec, str) else None
        if match is not None and not alias.endswith("/"):
            ref = text.ref_of(f'"{alias}"')
            version = match.group("version") or ""
            add_dependency(out, text, "javascript", match.group("name"), version, ref=ref)


def read_cargo_toml(text: TextFile, out: Readings) -> None:
    data = tomllib.loads(text.text)
    out.manifests[text.path] = "rust"
    package = table(data.get("package"))
    if package.get("name"):
        out.name_project(str(package["name"]), toml_line(text, "name"))
    described = package.get("description")
    if described is None and not folder_of(text.path):
        # A workspace's root: what `[workspace.package]` gives every member describes the whole.
        described = table(table(data.get("workspace")).get("package")).get("description")
    describe(out, described, toml_line(text, "description"))
    for key in ("rust-version", "edition"):
        value = package.get(key)
        if isinstance(value, str):
            label = value if key == "rust-version" else f"edition {value}"
            out.toolchains.append(Toolchain("rust", label, toml_line(text, key)))
            break
    workspace = table(data.get("workspace"))
    for member in strings(workspace.get("members")):
        out.workspaces.append((member, toml_line(text, member)))
    features = table(data.get("features"))
    for section, dev in (
        (table(data.get("dependencies")), False),
        (table(data.get("dev-dependencies")), True),
        (table(workspace.get("dependencies")), False),
    ):
        for name, spec in section.items():
            version = spec if isinstance(spec, str) else str(table(spec).get("version", ""))
            ref = toml_line(text, name)
            extra, optional = "", False
            if table(spec).get("optional") is True:
                extra, optional = _cargo_feature(features, name)
            for shown in (name, *(f"{name}:{f}" for f in strings(table(spec).get("features")))):
                # `sqlx = { features = ["postgres"] }` names the database: `sqlx:postgres`.
                add_dependency(
                    out,
                    text,
                    "rust",
                    shown,
                    version,
                    ref=ref,
                    dev=dev,
                    extra=extra,
                    optional=optional,
                )


def _cargo_feature(features: dict[str, Any], name: str) -> tuple[str, bool]:
    """How an optional Cargo dependency is turned on, as (extra, optional): the first feature
    that turns it on (`pg = ["dep:sqlx"]`, `pg = ["sqlx/postgres"]`; its own implicit
    feature, named after it, when none does) is the extra; when a default feature turns it on,
    it is on unless turned off: no extra, only optional. A weak `sqlx?/postgres` turns
    nothing on."""
    turned_on = {name, f"dep:{name}"}
    naming = [
        feature
        for feature, enables in features.items()
        if feature != "default"
        and any(e in turned_on or e.split("/", 1)[0] == name for e in strings(enables))
    ]
    default = set(strings(features.get("default")))
    if default & (turned_on | set(naming)):
        return "", True
    return (naming[0] if naming else name), False


_GO_MODULE = re.compile(r"^module\s+(\S+)")
_GO_VERSION = re.compile(r"^go\s+(\d+(?:\.\d+)*)")
_GO_REQUIRE = re.compile(r"^(?:require\s+)?\s*([a-z0-9][\w.\-]*\.[a-z]{2,}/\S+)\s+(v\S+)")


def read_go_mod(text: TextFile, out: Readings) -> None:
    out.manifests[text.path] = "go"
    for number, line in enumerate(text.lines, 1):
        stripped = line.strip()
        if match := _GO_MODULE.match(stripped):
            out.name_project(match.group(1), text.ref(number))
        elif match := _GO_VERSION.match(stripped):
            out.toolchains.append(Toolchain("go", match.group(1), text.ref(number)))
        elif (match := _GO_REQUIRE.match(stripped)) and "// indirect" not in stripped:
            add_dependency(out, text, "go", match.group(1), match.group(2), ref=text.ref(number))


_MIX_APP = re.compile(r"\bapp:\s*:([a-z_][a-z0-9_]*)")
_MIX_DESCRIPTION = re.compile(r'^\s*description:\s*"([^"]{10,300})"')
_MIX_ELIXIR = re.compile(r"\belixir:\s*\"([^\"]+)\"")
_MIX_DEP = re.compile(r"\{\s*:([a-z_][a-z0-9_]*)\s*(?:,\s*\"([^\"]+)\")?")
#: A mix dependency's options that keep it out of the running application: `only:` some
#: environments other than `:prod`, or `runtime: false` (a build or lint tool).
_MIX_ONLY = re.compile(r"\bonly:\s*(\[[^\]]*\]|:\w+)")
_MIX_NOT_RUNTIME = re.compile(r"\bruntime:\s*false\b")


def _mix_dev(options: str) -> bool:
    only = _MIX_ONLY.search(options)
    return bool(_MIX_NOT_RUNTIME.search(options)) or bool(only and ":prod" not in only.group(1))


def read_mix_exs(text: TextFile, out: Readings) -> None:
    out.manifests[text.path] = "elixir"
    in_deps = False
    for number, line in enumerate(text.lines, 1):
        if match := _MIX_APP.search(line):
            out.name_project(match.group(1), text.ref(number))
        if match := _MIX_DESCRIPTION.search(line):
            out.describe_project(match.group(1).rstrip(".") + ".", text.ref(number))
        if match := re.search(r'\bapps_path:\s*"([^"]+)"', line):
            out.workspaces.append((f"{match.group(1)}/*", text.ref(number)))
        if match := _MIX_ELIXIR.search(line):
            out.toolchains.append(Toolchain("elixir", match.group(1), text.ref(number)))
        if re.match(r"\s*defp?\s+deps\b", line):
            in_deps = True
        elif in_deps and re.match(r"\s*defp?\s", line):
            in_deps = False
        if in_deps and not line.lstrip().startswith("#"):
            for match in _MIX_DEP.finditer(line):
                options = line[match.end() :].split("}", 1)[0]
                version, ref = match.group(2) or "", text.ref(number)
                add_dependency(
                    out, text, "elixir", match.group(1), version, ref=ref, dev=_mix_dev(options)
                )


def read_composer_json(text: TextFile, out: Readings) -> None:
    data = table(json.loads(text.text))
    out.manifests[text.path] = "php"
    out.name_project(str(data.get("name") or ""), text.ref_of('"name"'))
    describe(out, data.get("description"), toml_line(text, '"description"'))
    for section in ("require", "require-dev"):
        for name, version in table(data.get(section)).items():
            if name == "php":
                out.toolchains.append(Toolchain("php", str(version), text.ref_of('"php"')))
            elif "/" in name:
                ref, dev = text.ref_of(f'"{name}"'), section == "require-dev"
                add_dependency(out, text, "php", name, str(version), ref=ref, dev=dev)


def read_pnpm_workspace(text: TextFile, out: Readings) -> None:
    """The `packages:` globs of a `pnpm-workspace.yaml` or a Melos `melos.yaml`."""
    data = yaml.safe_load(text.text)
    packages = data.get("packages") if isinstance(data, dict) else None
    for member in strings(packages):
        out.workspaces.append((member, text.ref_of(member)))


def read_go_work(text: TextFile, out: Readings) -> None:
    for number, line in enumerate(text.lines, 1):
        match = re.match(r"^\s*(?:use\s+)?(\./[\w./\-]+)\s*$", line)
        if match:
            out.workspaces.append((match.group(1)[2:], text.ref(number)))


#: Manifest readers by file name; `*.csproj`/`*.fsproj` by suffix.
MANIFEST_READERS: Mapping[str, Reader] = {
    "pyproject.toml": read_pyproject,
    "setup.cfg": read_setup_cfg,
    "requirements.txt": read_requirements,
    "package.json": read_package_json,
    "deno.json": read_deno_json,
    "Cargo.toml": read_cargo_toml,
    "go.mod": read_go_mod,
    "mix.exs": read_mix_exs,
    "Gemfile": read_gemfile,
    "composer.json": read_composer_json,
    "pom.xml": read_pom_xml,
    "build.gradle": read_gradle,
    "build.gradle.kts": read_gradle,
    "pnpm-workspace.yaml": read_pnpm_workspace,
    "melos.yaml": read_pnpm_workspace,
    "Pipfile": read_pipfile,
    "go.work": read_go_work,
    "pubspec.yaml": read_pubspec,
    "gleam.toml": read_gleam_toml,
    "DESCRIPTION": read_r_description,
    "dune-project": read_dune_project,
    "package.yaml": read_hpack,
    "CMakeLists.txt": read_cmakelists,
    **dict.fromkeys(MARKER_MANIFESTS, read_marker),
    **PINNED_READERS,
}
SUFFIX_READERS: Mapping[str, Reader] = {
    ".csproj": read_csproj,
    ".fsproj": read_csproj,
    ".cabal": read_cabal,
    **dict.fromkeys(MARKER_SUFFIXES, read_marker),
}


#: The ecosystem of each manifest, known from its name alone (kept when it cannot be parsed).
MANIFEST_ECOSYSTEMS: Mapping[str, str] = {
    "pyproject.toml": "python",
    "setup.cfg": "python",
    "requirements.txt": "python",
    "Pipfile": "python",
    "package.json": "javascript",
    "Cargo.toml": "rust",
    "go.mod": "go",
    "mix.exs": "elixir",
    "Gemfile": "ruby",
    "composer.json": "php",
    "pom.xml": "jvm",
    "build.gradle": "jvm",
    "build.gradle.kts": "jvm",
    "pubspec.yaml": "dart",
    "gleam.toml": "gleam",
    "dune-project": "ocaml",
    **{name: eco for name, eco in MARKER_MANIFESTS.items() if name not in MARKED_BY_CONTENT},
}


def manifest_reader(path: str) -> Reader | None:
    """The reader for a tracked path, if it is a manifest."""
    name = path.rsplit("/", 1)[-1]
    found = MANIFEST_READERS.get(name)
    if found is not None:
        return found
    return next((r for s, r in SUFFIX_READERS.items() if name.endswith(s)), None)
