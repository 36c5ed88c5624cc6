"""Python manifests: `pyproject.toml` (PEP 621 and Poetry), `setup.cfg`, `requirements.txt` and
a `Pipfile` — the project's name, what it says it is, the Python it asks for, the tools it
configures and its dependencies (PEP 508 specifiers; an extra or dependency group named for
development marks its dependencies so, another extra is an optional part of the running
project)."""

from __future__ import annotations

import configparser
import re
import tomllib
from collections.abc import Iterable

from squirrel_memory.repository.dev_groups import is_dev_group
from squirrel_memory.repository.findings import Dependency, Readings, Toolchain
from squirrel_memory.repository.manifest_fields import (
    add_dependency,
    describe,
    strings,
    table,
    toml_line,
)
from squirrel_memory.repository.snapshot import TextFile

_PEP508_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._\-]*)")


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
            ref = toml_line(text, match.group(1))
            dependency = Dependency("python", name, version, ref, text.path, dev=dev, extra=extra)
            out.dependencies.append(dependency)


def read_pyproject(text: TextFile, out: Readings) -> None:
    data = tomllib.loads(text.text)
    out.manifests[text.path] = "python"
    project = table(data.get("project"))
    poetry = table(table(data.get("tool")).get("poetry"))
    out.name_project(str(project.get("name") or poetry.get("name") or ""), toml_line(text, "name"))
    describe(
        out,
        project.get("description") or poetry.get("description"),
        toml_line(text, "description"),
    )
    for tool in table(data.get("tool")):
        out.tools.setdefault(tool.lower(), text.ref_of(f"[tool.{tool}"))
    requires = project.get("requires-python")
    if isinstance(requires, str):
        out.toolchains.append(Toolchain("python", requires, toml_line(text, "requires-python")))
    _pep508(out, text, strings(project.get("dependencies")))
    # An extra named for development (`test`, `docs`) serves it; another (`postgres`,
    # `server`) is an optional part of the running project. A dependency group serves
    # development.
    for extra, group in table(project.get("optional-dependencies")).items():
        if is_dev_group(extra):
            _pep508(out, text, strings(group), dev=True)
        else:
            _pep508(out, text, strings(group), extra=extra)
    for group in table(data.get("dependency-groups")).values():
        _pep508(out, text, strings(group), dev=True)
    # uv's own development dependencies (`[tool.uv] dev-dependencies`), before PEP 735 groups.
    uv = table(table(data.get("tool")).get("uv"))
    _pep508(out, text, strings(uv.get("dev-dependencies")), dev=True)
    # A uv workspace's members (`[tool.uv.workspace] members = ["packages/*"]`).
    for member in strings(table(uv.get("workspace")).get("members")):
        out.workspaces.append((member, toml_line(text, member)))
    # Poetry's dependency groups (`[tool.poetry.group.dev.dependencies]`) serve development,
    # as its older `dev-dependencies` do.
    groups = [table(group).get("dependencies") for group in table(poetry.get("group")).values()]
    sections = [("dependencies", poetry.get("dependencies"))]
    sections += [("dev-dependencies", poetry.get("dev-dependencies"))]
    sections += [("group", group) for group in groups]
    for section, declared in sections:
        for name, spec in table(declared).items():
            if name == "python" and isinstance(spec, str):
                out.toolchains.append(Toolchain("python", spec, toml_line(text, "python")))
            elif name != "python":
                version = spec if isinstance(spec, str) else str(table(spec).get("version", ""))
                ref = toml_line(text, name)
                dev = section != "dependencies"
                add_dependency(out, text, "python", name.lower(), version, ref=ref, dev=dev)


def read_setup_cfg(text: TextFile, out: Readings) -> None:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string(text.text)
    out.manifests[text.path] = "python"
    if parser.has_option("metadata", "name"):
        out.name_project(parser.get("metadata", "name"), text.ref_of("name"))
    if parser.has_option("metadata", "description"):
        describe(out, parser.get("metadata", "description"), toml_line(text, "description"))
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


def read_pipfile(text: TextFile, out: Readings) -> None:
    data = tomllib.loads(text.text)
    out.manifests[text.path] = "python"
    python = table(data.get("requires")).get("python_version")
    if isinstance(python, str):
        out.toolchains.append(Toolchain("python", python, toml_line(text, "python_version")))
    for section in ("packages", "dev-packages"):
        for name, spec in table(data.get(section)).items():
            version = spec if isinstance(spec, str) else str(table(spec).get("version", ""))
            ref, dev = toml_line(text, name), section == "dev-packages"
            add_dependency(out, text, "python", name.lower(), version.strip("*"), ref=ref, dev=dev)
