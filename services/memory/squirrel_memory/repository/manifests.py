"""Manifests: project name, language version and declared dependencies, with their lines.

Formats with a parser are parsed with it (tomllib, json, xml.etree, configparser); mix.exs,
go.mod and Gradle scripts have none in Python and are read with anchored patterns (a Gemfile
too, in `gemfile.py`).
"""

from __future__ import annotations

import configparser
import json
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from xml.etree import ElementTree as ET

import yaml

from squirrel_memory.repository.dev_groups import is_dev_group
from squirrel_memory.repository.findings import Dependency, Readings, Toolchain, folder_of
from squirrel_memory.repository.gemfile import read_gemfile
from squirrel_memory.repository.manifest_fields import add_dependency, describe
from squirrel_memory.repository.manifest_formats import (
    MARKED_BY_CONTENT,
    MARKER_MANIFESTS,
    MARKER_SUFFIXES,
    read_cabal,
    read_cmakelists,
    read_dune_project,
    read_gleam_toml,
    read_marker,
    read_pubspec,
    read_r_description,
)
from squirrel_memory.repository.pinned_versions import PINNED_READERS
from squirrel_memory.repository.snapshot import TextFile

Reader = Callable[[TextFile, Readings], None]

_PEP508_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._\-]*)")


def _toml_line(text: TextFile, name: str) -> str:
    for pattern in (f'"{name}', f"{name} =", f"{name}=", name):
        line = text.line_of(pattern)
        if line:
            return text.ref(line)
    return text.ref(0)


def _pep508(
    out: Readings, text: TextFile, specs: Iterable[object], *, dev: bool = False, extra: str = ""
) -> None:
    for spec in specs:
        if not isinstance(spec, str):
            continue
        match = _PEP508_NAME.match(spec)
        if match:
            name = match.group(1).lower().replace("_", "-")
            version = spec[match.end() :].split(";", 1)[0].strip().strip("[]")
            ref = _toml_line(text, match.group(1))
            dependency = Dependency("python", name, version, ref, text.path, dev=dev, extra=extra)
            out.dependencies.append(dependency)


def read_pyproject(text: TextFile, out: Readings) -> None:
    data = tomllib.loads(text.text)
    out.manifests[text.path] = "python"
    project = _table(data.get("project"))
    poetry = _table(_table(data.get("tool")).get("poetry"))
    out.name_project(str(project.get("name") or poetry.get("name") or ""), _toml_line(text, "name"))
    describe(
        out,
        project.get("description") or poetry.get("description"),
        _toml_line(text, "description"),
    )
    for tool in _table(data.get("tool")):
        out.tools.setdefault(tool.lower(), text.ref_of(f"[tool.{tool}"))
    requires = project.get("requires-python")
    if isinstance(requires, str):
        out.toolchains.append(Toolchain("python", requires, _toml_line(text, "requires-python")))
    _pep508(out, text, _strings(project.get("dependencies")))
    # An extra named for development (`test`, `docs`) serves it; another (`postgres`,
    # `server`) is an optional part of the running project. A dependency group serves
    # development.
    for extra, group in _table(project.get("optional-dependencies")).items():
        if is_dev_group(extra):
            _pep508(out, text, _strings(group), dev=True)
        else:
            _pep508(out, text, _strings(group), extra=extra)
    for group in _table(data.get("dependency-groups")).values():
        _pep508(out, text, _strings(group), dev=True)
    for section in ("dependencies", "dev-dependencies"):
        for name, spec in _table(poetry.get(section)).items():
            if name == "python" and isinstance(spec, str):
                out.toolchains.append(Toolchain("python", spec, _toml_line(text, "python")))
            elif name != "python":
                version = spec if isinstance(spec, str) else str(_table(spec).get("version", ""))
                ref = _toml_line(text, name)
                dev = section != "dependencies"
                add_dependency(out, text, "python", name.lower(), version, ref=ref, dev=dev)


def read_setup_cfg(text: TextFile, out: Readings) -> None:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string(text.text)
    out.manifests[text.path] = "python"
    if parser.has_option("metadata", "name"):
        out.name_project(parser.get("metadata", "name"), text.ref_of("name"))
    if parser.has_option("metadata", "description"):
        describe(out, parser.get("metadata", "description"), _toml_line(text, "description"))
    if parser.has_option("options", "python_requires"):
        version = parser.get("options", "python_requires")
        out.toolchains.append(Toolchain("python", version, text.ref_of("python_requires")))
    if parser.has_option("options", "install_requires"):
        _pep508(out, text, parser.get("options", "install_requires").splitlines())
    # `[options.extras_require]`, as a pyproject's optional dependencies: an extra named for
    # development serves it, another is an optional part of the running project.
    if parser.has_section("options.extras_require"):
        for extra, specs in parser.items("options.extras_require"):
            if is_dev_group(extra):
                _pep508(out, text, specs.splitlines(), dev=True)
            else:
                _pep508(out, text, specs.splitlines(), extra=extra)


def read_requirements(text: TextFile, out: Readings) -> None:
    out.manifests.setdefault(text.path, "python")
    for number, line in enumerate(text.lines, 1):
        match = _PEP508_NAME.match(line)
        if match and not line.lstrip().startswith(("#", "-")):
            name = match.group(1).lower().replace("_", "-")
            version = line[match.end() :].split("#", 1)[0].split(";", 1)[0].strip()
            add_dependency(out, text, "python", name, version, ref=text.ref(number))


def read_package_json(text: TextFile, out: Readings) -> None:
    data = _table(json.loads(text.text))
    out.manifests[text.path] = "javascript"
    if not folder_of(text.path):
        out.name_project(str(data.get("name") or ""), text.ref_of('"name"'))
        describe(out, data.get("description"), _toml_line(text, '"description"'))
    workspaces = data.get("workspaces")
    members = _table(workspaces).get("packages") if isinstance(workspaces, dict) else workspaces
    for member in _strings(members):
        out.workspaces.append((member, text.ref_of(f'"{member}"')))
    node = _table(data.get("engines")).get("node")
    if isinstance(node, str):
        out.toolchains.append(Toolchain("javascript", node, text.ref_of('"node"')))
    # `optionalDependencies` are installed when they can be: the project runs without them.
    for section in ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies"):
        for name, version in _table(data.get(section)).items():
            ref = text.ref_of(f'"{name}"')
            dev = section == "devDependencies"
            optional = section == "optionalDependencies"
            add_dependency(
                out, text, "javascript", name, str(version), ref=ref, dev=dev, optional=optional
            )


def read_cargo_toml(text: TextFile, out: Readings) -> None:
    data = tomllib.loads(text.text)
    out.manifests[text.path] = "rust"
    package = _table(data.get("package"))
    if package.get("name"):
        out.name_project(str(package["name"]), _toml_line(text, "name"))
    describe(out, package.get("description"), _toml_line(text, "description"))
    for key in ("rust-version", "edition"):
        value = package.get(key)
        if isinstance(value, str):
            label = value if key == "rust-version" else f"edition {value}"
            out.toolchains.append(Toolchain("rust", label, _toml_line(text, key)))
            break
    workspace = _table(data.get("workspace"))
    for member in _strings(workspace.get("members")):
        out.workspaces.append((member, _toml_line(text, member)))
    features = _table(data.get("features"))
    for section, dev in (
        (_table(data.get("dependencies")), False),
        (_table(data.get("dev-dependencies")), True),
        (_table(workspace.get("dependencies")), False),
    ):
        for name, spec in section.items():
            version = spec if isinstance(spec, str) else str(_table(spec).get("version", ""))
            ref = _toml_line(text, name)
            extra, optional = "", False
            if _table(spec).get("optional") is True:
                extra, optional = _cargo_feature(features, name)
            for shown in (name, *(f"{name}:{f}" for f in _strings(_table(spec).get("features")))):
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
        and any(e in turned_on or e.split("/", 1)[0] == name for e in _strings(enables))
    ]
    default = set(_strings(features.get("default")))
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
    data = _table(json.loads(text.text))
    out.manifests[text.path] = "php"
    out.name_project(str(data.get("name") or ""), text.ref_of('"name"'))
    describe(out, data.get("description"), _toml_line(text, '"description"'))
    for section in ("require", "require-dev"):
        for name, version in _table(data.get(section)).items():
            if name == "php":
                out.toolchains.append(Toolchain("php", str(version), text.ref_of('"php"')))
            elif "/" in name:
                ref, dev = text.ref_of(f'"{name}"'), section == "require-dev"
                add_dependency(out, text, "php", name, str(version), ref=ref, dev=dev)


def _xml(text: TextFile) -> ET.Element:
    """Parse a build XML file; documents declaring a DTD or entities are refused (pom and
    project files never need them, and refusing them shuts out entity-expansion attacks)."""
    if "<!DOCTYPE" in text.text or "<!ENTITY" in text.text:
        raise ValueError("XML with a DTD or entities is not read")
    return ET.fromstring(text.text)  # noqa: S314 - DTDs refused above; expat caps expansion


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def read_pom_xml(text: TextFile, out: Readings) -> None:
    root = _xml(text)
    out.manifests[text.path] = "jvm"
    children = {_local(child.tag): child for child in root}
    artifact = children.get("artifactId")
    if artifact is not None and artifact.text:
        out.name_project(artifact.text.strip(), text.ref_of("<artifactId>"))
    described = children.get("description")
    if described is not None and described.text:
        describe(out, described.text, _toml_line(text, "<description>"))
    for element in root.iter():
        tag = _local(element.tag)
        if tag in ("java.version", "maven.compiler.release", "maven.compiler.source"):
            if element.text:
                ref = text.ref_of(f"<{tag}>")
                out.toolchains.append(Toolchain("jvm", element.text.strip(), ref))
        elif tag in ("dependency", "parent", "plugin"):
            fields = {_local(c.tag): (c.text or "").strip() for c in element}
            if fields.get("groupId") and fields.get("artifactId"):
                name = f"{fields['groupId']}:{fields['artifactId']}"
                ref = text.ref_of(f"<artifactId>{fields['artifactId']}<")
                add_dependency(out, text, "jvm", name, fields.get("version", ""), ref=ref)
                add_dependency(
                    out, text, "jvm", fields["groupId"], fields.get("version", ""), ref=ref
                )


_GRADLE_DEP = re.compile(r"""["']([\w.\-]+):([\w.\-]+)(?::([\w.\-]+))?["']""")
_GRADLE_PLUGIN = re.compile(r"""id\s*\(?\s*["']([\w.\-]+)["']\s*\)?\s*version\s*["']([^"']+)""")


#: Gradle configurations of the tests or of development builds (`testImplementation`,
#: `androidTestImplementation`, `debugImplementation`).
_GRADLE_DEV_CONFIGURATION = re.compile(
    r"^\s*(?:test|androidTest|debug|testFixtures|integrationTest)\w*\s*[(\s]"
)
_GRADLE_DESCRIPTION = re.compile(r"""^\s*description\s*=\s*["']([^"']+)["']""")
#: The Java version a Gradle build compiles for: `jvmToolchain(21)`,
#: `JavaLanguageVersion.of(21)`, `JavaVersion.VERSION_17` (`VERSION_1_8` is 1.8).
_GRADLE_JAVA = re.compile(
    r"\bjvmToolchain\s*\(\s*(\d+)\s*\)|\bJavaLanguageVersion\.of\(\s*(\d+)\s*\)"
    r"|\bJavaVersion\.VERSION_(\d+(?:_\d+)?)\b"
)


def read_gradle(text: TextFile, out: Readings) -> None:
    out.manifests[text.path] = "jvm"
    java = False
    for number, line in enumerate(text.lines, 1):
        if match := _GRADLE_DESCRIPTION.match(line):
            describe(out, match.group(1), _toml_line(text, "description"))
        if not java and (match := _GRADLE_JAVA.search(line.split("//", 1)[0])):
            version = next(g for g in match.groups() if g).replace("_", ".")
            out.toolchains.append(Toolchain("jvm", version, text.ref(number)))
            java = True
        if match := _GRADLE_PLUGIN.search(line):
            add_dependency(out, text, "jvm", match.group(1), match.group(2), ref=text.ref(number))
        dev = bool(_GRADLE_DEV_CONFIGURATION.match(line))
        for match in _GRADLE_DEP.finditer(line):
            name = f"{match.group(1)}:{match.group(2)}"
            add_dependency(
                out, text, "jvm", name, match.group(3) or "", ref=text.ref(number), dev=dev
            )


def read_csproj(text: TextFile, out: Readings) -> None:
    root = _xml(text)
    out.manifests[text.path] = "dotnet"
    sdk = root.get("Sdk", "")
    if sdk == "Microsoft.NET.Sdk.Web":
        add_dependency(out, text, "dotnet", "Microsoft.AspNetCore.App", "", ref=text.ref_of("Sdk="))
    for element in root.iter():
        tag = _local(element.tag)
        if tag == "Description" and element.text:
            describe(out, element.text, _toml_line(text, "<Description>"))
        elif tag in ("TargetFramework", "TargetFrameworks") and element.text:
            ref = text.ref_of(f"<{tag}>")
            out.toolchains.append(Toolchain("dotnet", element.text.strip(), ref))
        elif tag == "PackageReference" and element.get("Include"):
            name = element.get("Include", "")
            ref = text.ref_of(f'"{name}"')
            add_dependency(out, text, "dotnet", name, element.get("Version", ""), ref=ref)


def read_pnpm_workspace(text: TextFile, out: Readings) -> None:
    data = yaml.safe_load(text.text)
    packages = data.get("packages") if isinstance(data, dict) else None
    for member in _strings(packages):
        out.workspaces.append((member, text.ref_of(member)))


def read_go_work(text: TextFile, out: Readings) -> None:
    for number, line in enumerate(text.lines, 1):
        match = re.match(r"^\s*(?:use\s+)?(\./[\w./\-]+)\s*$", line)
        if match:
            out.workspaces.append((match.group(1)[2:], text.ref(number)))


def read_pipfile(text: TextFile, out: Readings) -> None:
    data = tomllib.loads(text.text)
    out.manifests[text.path] = "python"
    python = _table(data.get("requires")).get("python_version")
    if isinstance(python, str):
        out.toolchains.append(Toolchain("python", python, _toml_line(text, "python_version")))
    for section in ("packages", "dev-packages"):
        for name, spec in _table(data.get(section)).items():
            version = spec if isinstance(spec, str) else str(_table(spec).get("version", ""))
            ref, dev = _toml_line(text, name), section == "dev-packages"
            add_dependency(out, text, "python", name.lower(), version.strip("*"), ref=ref, dev=dev)


#: Manifest readers by file name; `*.csproj`/`*.fsproj` by suffix.
MANIFEST_READERS: Mapping[str, Reader] = {
    "pyproject.toml": read_pyproject,
    "setup.cfg": read_setup_cfg,
    "requirements.txt": read_requirements,
    "package.json": read_package_json,
    "Cargo.toml": read_cargo_toml,
    "go.mod": read_go_mod,
    "mix.exs": read_mix_exs,
    "Gemfile": read_gemfile,
    "composer.json": read_composer_json,
    "pom.xml": read_pom_xml,
    "build.gradle": read_gradle,
    "build.gradle.kts": read_gradle,
    "pnpm-workspace.yaml": read_pnpm_workspace,
    "Pipfile": read_pipfile,
    "go.work": read_go_work,
    "pubspec.yaml": read_pubspec,
    "gleam.toml": read_gleam_toml,
    "DESCRIPTION": read_r_description,
    "dune-project": read_dune_project,
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


def _table(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _strings(value: object) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
