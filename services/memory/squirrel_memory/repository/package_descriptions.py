"""What a manifest of any other ecosystem says the project is: its name and one-line summary.

The manifests read in full (`manifests`, `manifest_formats`) cover the common ecosystems; many
more formats carry a name and a one-line description in the same few shapes, and a session that
read one should say what it says. Each is read for those two fields only, never for the stack
(its ecosystem is the language rules' business):

- Ruby DSL (`*.gemspec`, `*.podspec`): `spec.summary = "…"`, else `spec.description`;
  `spec.name`;
- key = value (`*.nimble`, `build.sbt`'s `description := "…"`, Python's `setup.py`
  `description="…"`), Clojure's `(defproject name "version" :description "…")`;
- `field: "value"` (`*.opam`'s `synopsis`, else `description`);
- Perl's `Makefile.PL`: `NAME => '…'` and `ABSTRACT => '…'`;
- YAML (`shard.yml`, `Chart.yaml`) and JSON (`elm.json`'s `summary`, `vcpkg.json`,
  `manifest.json` of a browser extension): `name` and `description`/`summary`;
- Lua's `*.rockspec`: `package = "…"` and its `description` table's `summary = "…"`;
- a plugin's or extension's manifest at its fixed place: Claude Code's
  `.claude-plugin/plugin.json`, Gemini CLI's `gemini-extension.json` (`name`, `description`);
- pixi's `pixi.toml` (a workspace of any language): its `[workspace]` table, or the older
  `[project]`, `name` and `description`;
- a name only: Swift's `Package.swift` (`Package(name: "…")`), Julia's `Project.toml`, Zig's
  `build.zig.zon` (`.name = …`), Meson's `project('…')`.

A value that is not a plain literal (a variable, an interpolation, a call) says nothing.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable, Mapping
from typing import Any

import yaml

from squirrel_memory.repository.findings import Readings
from squirrel_memory.repository.manifest_fields import MIN_DESCRIPTION_CHARS, describe
from squirrel_memory.repository.snapshot import TextFile

Reader = Callable[[TextFile, Readings], None]

#: `spec.summary = "…"` / `s.description = '…'` / `%q{…}` in a gemspec or podspec.
_RUBY_FIELD = re.compile(
    r"^\s*\w+\.(?P<field>summary|description|name)\s*=\s*"
    r"""(?:(?P<q>["'])(?P<value>[^"'#{}]*)(?P=q)|%q\{(?P<pct>[^{}]*)\})\s*(?:#.*)?$"""
)
#: `description = "…"` (nimble), `description := "…"` (sbt), `description="…",` (setup.py).
_ASSIGNED = re.compile(
    r"""^\s*(?P<field>name|description|summary)\s*:?=\s*(?P<q>["'])(?P<value>[^"'\\]*)(?P=q)"""
    r"""\s*[,)]?\s*(?:#.*|//.*)?$"""
)
#: `package = "…"`, `summary = "…",` in a rockspec (`--` comments).
_ROCKSPEC = re.compile(
    r"""^\s*(?P<field>package|summary)\s*=\s*(?P<q>["'])(?P<value>[^"'\\]*)(?P=q)"""
    r"""\s*,?\s*(?:--.*)?$"""
)
_SETUP_PY = re.compile(
    r"""^\s*(?P<field>name|description)\s*=\s*(?P<q>["'])(?P<value>[^"'\\]*)(?P=q)\s*,?\s*$"""
)
_OPAM = re.compile(r"""^(?P<field>synopsis|description|name)\s*:\s*"(?P<value>[^"\\]*)"\s*$""")
#: `NAME => 'Foo::Bar',` and `ABSTRACT => '…',` in a Perl `Makefile.PL`.
_MAKEMAKER = re.compile(
    r"""^\s*(?P<field>NAME|ABSTRACT)\s*=>\s*(?P<q>["'])(?P<value>[^"'\\]*)(?P=q)\s*,?\s*(?:#.*)?$"""
)
_DEFPROJECT = re.compile(r"^\s*\(defproject\s+(?P<name>[\w.\-/]+)")
_CLOJURE_DESCRIPTION = re.compile(r""":description\s+"(?P<value>[^"\\]*)\"""")
_SWIFT_NAME = re.compile(r"""Package\s*\(\s*name\s*:\s*"(?P<value>[^"\\]+)\"""")
_ZON_NAME = re.compile(r"""^\s*\.name\s*=\s*(?:\.(?P<tag>[A-Za-z_]\w*)|"(?P<quoted>[^"\\]+)")""")
_MESON_NAME = re.compile(r"""^\s*project\s*\(\s*'(?P<value>[^'\\]+)'""")


def _name(out: Readings, value: object, text: TextFile, needle: str) -> None:
    if isinstance(value, str) and value.strip():
        out.name_project(value.strip(), text.ref_of(needle))


def _fields(text: TextFile, pattern: re.Pattern[str]) -> dict[str, str]:
    """The first literal value of each field a line pattern finds."""
    found: dict[str, str] = {}
    for line in text.lines:
        match = pattern.match(line)
        if match:
            value = match.groupdict().get("value") or match.groupdict().get("pct") or ""
            found.setdefault(match.group("field"), value)
    return found


def _summary_first(out: Readings, text: TextFile, fields: Mapping[str, str]) -> None:
    _name(out, fields.get("name"), text, "name")
    for field in ("summary", "synopsis", "description"):
        if len(fields.get(field, "").strip()) >= MIN_DESCRIPTION_CHARS:
            describe(out, fields[field], text.ref_of(field))
            return


def read_ruby_spec(text: TextFile, out: Readings) -> None:
    """`*.gemspec`, `*.podspec`."""
    _summary_first(out, text, _fields(text, _RUBY_FIELD))


def read_assigned(text: TextFile, out: Readings) -> None:
    """`*.nimble`, `build.sbt`."""
    _summary_first(out, text, _fields(text, _ASSIGNED))


def _stem_named(read: Reader) -> Reader:
    """`read`, with the package named by the file's stem when the file names none: a Nimble
    or opam package is named by its manifest's file name (`plotkit.nimble`, `quire.opam`)."""

    def named(text: TextFile, out: Readings) -> None:
        read(text, out)
        if text.path not in out.named:
            _name(out, text.path.rsplit("/", 1)[-1].rsplit(".", 1)[0], text, "")

    return named


def read_rockspec(text: TextFile, out: Readings) -> None:
    """Lua's `*.rockspec`: `package` and the `description` table's `summary`."""
    fields = _fields(text, _ROCKSPEC)
    _name(out, fields.get("package"), text, "package")
    if len(fields.get("summary", "").strip()) >= MIN_DESCRIPTION_CHARS:
        describe(out, fields["summary"], text.ref_of("summary"))


def read_setup_py(text: TextFile, out: Readings) -> None:
    """`setup.py`: the literal `name=` and `description=` arguments."""
    _summary_first(out, text, _fields(text, _SETUP_PY))


def read_opam(text: TextFile, out: Readings) -> None:
    """`*.opam`, `opam`."""
    _summary_first(out, text, _fields(text, _OPAM))


def read_makefile_pl(text: TextFile, out: Readings) -> None:
    """Perl's `Makefile.PL`: the literal `NAME` and `ABSTRACT` of `WriteMakefile(…)`."""
    fields = _fields(text, _MAKEMAKER)
    _summary_first(
        out, text, {"name": fields.get("NAME", ""), "summary": fields.get("ABSTRACT", "")}
    )


def read_defproject(text: TextFile, out: Readings) -> None:
    """Leiningen's `project.clj`."""
    if match := _DEFPROJECT.search(text.text):
        _name(out, match.group("name"), text, "defproject")
    if match := _CLOJURE_DESCRIPTION.search(text.text):
        describe(out, match.group("value"), text.ref_of(":description"))


def _table(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _read_mapping(data: dict[str, Any], text: TextFile, out: Readings) -> None:
    _name(out, data.get("name"), text, "name")
    for field in ("summary", "description"):
        if isinstance(data.get(field), str):
            describe(out, data[field], text.ref_of(field))
            return


def read_yaml_manifest(text: TextFile, out: Readings) -> None:
    """`shard.yml`, `Chart.yaml`."""
    _read_mapping(_table(yaml.safe_load(text.text)), text, out)


def read_json_manifest(text: TextFile, out: Readings) -> None:
    """`elm.json`, `vcpkg.json`, a browser extension's `manifest.json`."""
    data = _table(json.loads(text.text))
    if isinstance(data.get("name"), str) and data["name"].startswith("__MSG_"):
        return  # a localised extension names itself through message files
    _read_mapping(data, text, out)


def read_swift_package(text: TextFile, out: Readings) -> None:
    """`Package.swift`: the package's name."""
    if match := _SWIFT_NAME.search(text.text):
        _name(out, match.group("value"), text, "name:")


def read_julia_project(text: TextFile, out: Readings) -> None:
    """Julia's `Project.toml`: the package's name."""
    _name(out, tomllib.loads(text.text).get("name"), text, "name")


def read_pixi_toml(text: TextFile, out: Readings) -> None:
    """pixi's `pixi.toml`: the `[workspace]` (or older `[project]`) table's name and
    description."""
    data = tomllib.loads(text.text)
    table = data.get("workspace") or data.get("project")
    if not isinstance(table, dict):
        return
    fields = {k: v for k, v in table.items() if k in ("name", "description") and isinstance(v, str)}
    _summary_first(out, text, fields)


def read_zig_zon(text: TextFile, out: Readings) -> None:
    """`build.zig.zon`: the package's name (`.name = .foo` or `.name = "foo"`)."""
    for line in text.lines:
        if match := _ZON_NAME.match(line):
            _name(out, match.group("tag") or match.group("quoted"), text, ".name")
            return


def read_meson(text: TextFile, out: Readings) -> None:
    """`meson.build`: the name `project('…')` gives."""
    for line in text.lines:
        if match := _MESON_NAME.match(line):
            _name(out, match.group("value"), text, "project(")
            return


_BY_NAME: Mapping[str, Reader] = {
    "build.sbt": read_assigned,
    "setup.py": read_setup_py,
    "opam": read_opam,
    "project.clj": read_defproject,
    "Makefile.PL": read_makefile_pl,
    "shard.yml": read_yaml_manifest,
    "Chart.yaml": read_yaml_manifest,
    "elm.json": read_json_manifest,
    "vcpkg.json": read_json_manifest,
    "manifest.json": read_json_manifest,
    "Package.swift": read_swift_package,
    "Project.toml": read_julia_project,
    "pixi.toml": read_pixi_toml,
    "build.zig.zon": read_zig_zon,
    "meson.build": read_meson,
}
#: Manifests known by their place from the project root, not their name alone (`plugin.json`
#: is many tools' file name; under `.claude-plugin/` it is a Claude Code plugin's manifest).
PLACED_MANIFESTS: Mapping[str, Reader] = {
    ".claude-plugin/plugin.json": read_json_manifest,
    "gemini-extension.json": read_json_manifest,
}
_BY_SUFFIX: Mapping[str, Reader] = {
    ".rockspec": read_rockspec,
    ".gemspec": read_ruby_spec,
    ".podspec": read_ruby_spec,
    ".nimble": _stem_named(read_assigned),
    ".opam": _stem_named(read_opam),
}


def description_reader(path: str) -> Reader | None:
    """The reader of a manifest read here for its name and description only, or None."""
    placed = PLACED_MANIFESTS.get(path)
    if placed is not None:
        return placed
    name = path.rsplit("/", 1)[-1]
    found = _BY_NAME.get(name)
    if found is not None:
        return found
    return next((r for s, r in _BY_SUFFIX.items() if name.endswith(s) and name != s), None)
