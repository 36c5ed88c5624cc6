"""Which known libraries (`manifests.LIBRARIES`) a manifest a session read declares, and whether
the project runs with each or only develops with it.

The table names Python and JavaScript packages, so only those ecosystems' manifests are read
for it: a Gemfile's `gem "pg"` or a Cargo feature called `redis` shares a name with a package
of another ecosystem and says nothing of it. A manifest is read by its structure, never by its
words: a name in `keywords`, a description or a tool's settings declares nothing. A library
declared for development only (`devDependencies`, `[dependency-groups]`, an optional extra named
for development — `test`, `lint`, `docs` —, a `requirements-dev.txt`) is *dev*: it may say how
the project is tested, never what it is built with or where its data lives. A runtime extra
(`postgres`, `server`) is installed on request only: it is neither. A manifest that does not
parse (an edit's fragment, a partial read) is matched name by name, as declared for the running
project; a setup script is read for its `install_requires` (and its `tests_require` and
development extras, as development ones).

The manifests of every other ecosystem (`mix.exs`, `composer.json`, a Gemfile, `go.mod`, a
Gradle script, `pubspec.yaml` …) are read with the repository scan's reader for their format
and weighed with its stack table (`stack.toml`): `declared_frameworks` says which frameworks
one declares for the running project, by the same rule (a development, test or optional
dependency is none).
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import PurePosixPath
from typing import Any

from squirrel_memory.extractors.manifests import LIBRARIES
from squirrel_memory.repository.dev_groups import is_dev_group
from squirrel_memory.repository.findings import Readings
from squirrel_memory.repository.manifests import manifest_reader
from squirrel_memory.repository.scan import PARSE_ERRORS
from squirrel_memory.repository.snapshot import TextFile
from squirrel_memory.repository.stack import dependency_role

#: `name`, `name[extra]>=1`, `name @ url`: a requirement's distribution name (PEP 508).
_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
#: A declared name in a manifest fragment that does not parse (`"pg": "^8",`, `flask>=3`).
_FRAGMENT_DEP = re.compile(
    r"""["']?(@?[A-Za-z][\w.-]*(?:/[\w.-]+)?)["']?\s*(?:[<>=~!^\[;:,"']|$)"""
)
_PYTHON_SCRIPTS = frozenset({"setup.py", "setup.cfg"})


def _known(names: dict[str, bool]) -> dict[str, bool]:
    return {n: dev for n, dev in names.items() if n in LIBRARIES}


def _add(found: dict[str, bool], names: list[str], *, dev: bool) -> None:
    """Each name as declared; a name declared for the running project too is not dev."""
    for name in names:
        key = name.lower()
        found[key] = found.get(key, True) and dev


def _requirements(specs: object) -> list[str]:
    if not isinstance(specs, list):
        return []
    return [m.group(1) for s in specs if isinstance(s, str) and (m := _REQUIREMENT.match(s))]


def _table(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _package_json(data: dict[str, Any]) -> dict[str, bool]:
    found: dict[str, bool] = {}
    for section, dev in (
        ("dependencies", False),
        ("peerDependencies", False),
        ("devDependencies", True),
        ("optionalDependencies", True),
    ):
        _add(found, list(_table(data.get(section))), dev=dev)
    return found


def _pyproject(data: dict[str, Any]) -> dict[str, bool]:
    found: dict[str, bool] = {}
    project = _table(data.get("project"))
    _add(found, _requirements(project.get("dependencies")), dev=False)
    for name, extra in _table(project.get("optional-dependencies")).items():
        # A runtime extra (`postgres`, `server`) is installed on request: neither the stack
        # nor how the project is developed.
        if is_dev_group(name):
            _add(found, _requirements(extra), dev=True)
    for group in _table(data.get("dependency-groups")).values():
        _add(found, _requirements(group), dev=True)
    tool = _table(data.get("tool"))
    poetry = _table(tool.get("poetry"))
    _add(found, [n for n in _table(poetry.get("dependencies")) if n != "python"], dev=False)
    _add(found, list(_table(poetry.get("dev-dependencies"))), dev=True)
    for group in _table(poetry.get("group")).values():
        _add(found, list(_table(_table(group).get("dependencies"))), dev=True)
    for runner in ("uv", "rye", "pdm"):
        _add(found, _requirements(_table(tool.get(runner)).get("dev-dependencies")), dev=True)
    return found


def _pipfile(data: dict[str, Any]) -> dict[str, bool]:
    found: dict[str, bool] = {}
    _add(found, list(_table(data.get("packages"))), dev=False)
    _add(found, list(_table(data.get("dev-packages"))), dev=True)
    return found


def _requirements_file(name: str, text: str) -> dict[str, bool]:
    dev = is_dev_group(name.removeprefix("requirements").removesuffix(".txt"))
    found: dict[str, bool] = {}
    lines = [line.split("#", 1)[0] for line in text.splitlines()]
    specs = [line for line in lines if not line.lstrip().startswith("-")]
    _add(found, _requirements(specs), dev=dev)
    return found


def declared_libraries(path: str, text: str) -> dict[str, bool]:
    """Known libraries the manifest at `path` declares → whether only for development."""
    name = PurePosixPath(path).name.lower()
    try:
        if name == "package.json":
            return _known(_package_json(_table(json.loads(text))))
        if name == "pyproject.toml":
            return _known(_pyproject(tomllib.loads(text)))
        if name == "pipfile":
            return _known(_pipfile(tomllib.loads(text)))
    except (ValueError, tomllib.TOMLDecodeError):
        found: dict[str, bool] = {}
        _add(found, _FRAGMENT_DEP.findall(text), dev=False)
        return _known(found)
    if name.startswith("requirements") and name.endswith(".txt"):
        return _known(_requirements_file(name, text))
    if name in _PYTHON_SCRIPTS:
        return _known(_setup_requirements(text))
    return {}


#: `install_requires=[…]` in a setup script, `install_requires =` and its indented lines in
#: `setup.cfg`; `tests_require` and an extra named for development (`extras_require={"test":
#: […]}`) are development ones, a runtime extra (`"postgres": […]`) is neither.
_SETUP_LIST = re.compile(r"\b(install_requires|extras_require|tests_require)\s*=\s*([\[{])")
_SETUP_EXTRA = re.compile(r"""["']([\w.-]+)["']\s*:\s*\[([^\]]*)\]""")
_CFG_KEY = re.compile(r"^(install_requires|tests_require)\s*=(.*)$")
_QUOTED = re.compile(r"""["']([^"']+)["']""")


def _braced(text: str, start: int) -> str:
    """The text from `start` (just inside a `{`) to the `}` that closes it, or to the end."""
    depth = 1
    for index in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[index], 0)
        if depth == 0:
            return text[start:index]
    return text[start:]


def _setup_requirements(text: str) -> dict[str, bool]:
    found: dict[str, bool] = {}
    for match in _SETUP_LIST.finditer(text):
        if match.group(1) == "extras_require" and match.group(2) == "{":
            for extra in _SETUP_EXTRA.finditer(_braced(text, match.end())):
                if is_dev_group(extra.group(1)):
                    _add(found, _requirements(_QUOTED.findall(extra.group(2))), dev=True)
            continue
        closing = "]" if match.group(2) == "[" else "}"
        end = text.find(closing, match.end())
        body = text[match.end() : end if end >= 0 else len(text)]
        _add(found, _requirements(_QUOTED.findall(body)), dev=match.group(1) != "install_requires")
    key = ""
    for line in text.splitlines():
        if cfg := _CFG_KEY.match(line):
            key = cfg.group(1)
            _add(found, _requirements([cfg.group(2)]), dev=key != "install_requires")
        elif key and line[:1].isspace() and line.strip():
            _add(found, _requirements([line.strip()]), dev=key != "install_requires")
        else:
            key = ""
    return found


#: Ecosystems whose manifests `declared_libraries` reads with `LIBRARIES`.
_LIBRARY_ECOSYSTEMS = frozenset({"python", "javascript"})


def declared_frameworks(path: str, text: str) -> list[str]:
    """Frameworks (as a person writes them: `Phoenix`, `Laravel`) the manifest at `path` of
    any other ecosystem than `LIBRARIES`' declares for the running project, in its order; a
    manifest no reader knows, or that does not parse, declares none."""
    reader = manifest_reader(path)
    if reader is None:
        return []
    out = Readings()
    try:
        reader(TextFile.of(path, text), out)
    except PARSE_ERRORS:
        return []
    found: list[str] = []
    for dep in out.dependencies:
        if dep.ecosystem in _LIBRARY_ECOSYSTEMS or dep.dev or dep.extra:
            continue
        role = dependency_role(dep.ecosystem, dep.name)
        if role is not None and role.role == "framework" and role.name not in found:
            found.append(role.name)
    return found
