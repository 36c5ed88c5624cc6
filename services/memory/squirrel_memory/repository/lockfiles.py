"""Lock files: the exact version of each locked package, and the line that says so."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable, Mapping

from squirrel_memory.repository.snapshot import TextFile

Locked = dict[str, tuple[str, str]]
"""Package name → (version, `path:line`)."""

_MIX_LOCK = re.compile(r'^\s*"([a-z_][a-z0-9_]*)":\s*\{:hex,\s*:[a-z0-9_]+,\s*"([^"]+)"')
_GEMFILE_LOCK = re.compile(r"^    ([A-Za-z0-9_.\-]+) \(([^)]+)\)$")


def _toml_packages(text: TextFile) -> Locked:
    data = tomllib.loads(text.text)
    found: Locked = {}
    packages = data.get("package")
    for package in packages if isinstance(packages, list) else []:
        if isinstance(package, dict) and "name" in package and "version" in package:
            name = str(package["name"])
            ref = text.ref_of(f'name = "{name}"')
            found.setdefault(name.lower(), (str(package["version"]), ref))
    return found


def _mix_lock(text: TextFile) -> Locked:
    found: Locked = {}
    for number, line in enumerate(text.lines, 1):
        if match := _MIX_LOCK.match(line):
            found[match.group(1)] = (match.group(2), text.ref(number))
    return found


def _gemfile_lock(text: TextFile) -> Locked:
    found: Locked = {}
    for number, line in enumerate(text.lines, 1):
        if match := _GEMFILE_LOCK.match(line):
            found.setdefault(match.group(1), (match.group(2), text.ref(number)))
    return found


def _package_lock(text: TextFile) -> Locked:
    data = json.loads(text.text)
    found: Locked = {}
    packages = data.get("packages") if isinstance(data, dict) else None
    for key, value in (packages or {}).items():
        if key.count("node_modules/") == 1 and isinstance(value, dict) and "version" in value:
            name = key.split("node_modules/", 1)[1]
            found[name] = (str(value["version"]), text.ref_of(f'"{key}"'))
    return found


def _composer_lock(text: TextFile) -> Locked:
    data = json.loads(text.text)
    found: Locked = {}
    for section in ("packages", "packages-dev"):
        for package in data.get(section, []) if isinstance(data, dict) else []:
            if isinstance(package, dict) and "name" in package and "version" in package:
                name = str(package["name"])
                ref = text.ref_of(f'"name": "{name}"')
                found[name] = (str(package["version"]).lstrip("v"), ref)
    return found


#: Lock file name → (ecosystem, reader).
LOCK_READERS: Mapping[str, tuple[str, Callable[[TextFile], Locked]]] = {
    "mix.lock": ("elixir", _mix_lock),
    "poetry.lock": ("python", _toml_packages),
    "uv.lock": ("python", _toml_packages),
    "Cargo.lock": ("rust", _toml_packages),
    "Gemfile.lock": ("ruby", _gemfile_lock),
    "package-lock.json": ("javascript", _package_lock),
    "composer.lock": ("php", _composer_lock),
}
