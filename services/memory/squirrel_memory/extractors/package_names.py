"""A package of the project whose name its folder does not tell, from its manifest as read.

In a monorepo the name a package is published, built and addressed by (`cargo test -p
acme-token`, `pnpm --filter @acme/ledger`) need not be its folder's: `libs/token-sdk`
holds `acme-token`. A user names the package, the tools want the package, and the files sit
under the folder; reading the manifest is how the session found out, and the fact says what it
read ("The package in `libs/token-sdk` is named `acme-token`, not after its folder
(`libs/token-sdk/Cargo.toml`; "SDK for tokens")."). The rule, the same for every
ecosystem:

- a manifest in a sub-folder of the project (`Cargo.toml`'s `[package]`, `pyproject.toml`'s
  `[project]` or Poetry's table, `package.json`, `composer.json`, `pubspec.yaml`), read whole
  from its first line; a root manifest names the project, not one of its packages, and a
  manifest in an examples, docs or test-data folder, a dependency's or vendored one says
  nothing of the project's own packages;
- the name, without its scope or vendor (`@acme/`, `acme/`) and with `_` read as `-`, neither
  holds the folder's name nor is held in it (`core` named `acme-core` is named after its
  folder); the later read of a manifest wins;
- at most `MAX_PACKAGES` per episode: a session that reads every package of a large workspace
  is surveying it, and a list of names is no fact.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

import yaml

from squirrel_memory.extractors.file_reads import file_text, whole_read_output
from squirrel_memory.extractors.manifests import first_project_path
from squirrel_memory.extractors.stack_evidence import is_test_data, sample_folder
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.languages import is_excluded
from squirrel_memory.repository.scan import PARSE_ERRORS

IMPORTANCE = 0.5
KEY_PREFIX = "package_name:"
#: Packages named per episode at most (module docstring).
MAX_PACKAGES = 3
#: Longest description quoted beside the name.
MAX_DESCRIPTION_CHARS = 120
_MANIFESTS = frozenset(
    {"Cargo.toml", "pyproject.toml", "package.json", "composer.json", "pubspec.yaml"}
)


@dataclass(frozen=True, slots=True)
class PackageName:
    """One package whose name its folder does not tell, and the read that showed it."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    files: tuple[str, ...]


def _parsed(name: str, text: str) -> dict[str, Any] | None:
    try:
        if name.endswith(".toml"):
            data: object = tomllib.loads(text)
        elif name.endswith(".json"):
            data = json.loads(text)
        else:
            data = yaml.safe_load(text)
    except (*PARSE_ERRORS, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _table(data: dict[str, Any], *keys: str) -> dict[str, Any]:
    for key in keys:
        inner = data.get(key)
        if not isinstance(inner, dict):
            return {}
        data = inner
    return data


def _name_and_description(name: str, data: dict[str, Any]) -> tuple[str, str] | None:
    """The package's name and description a manifest declares, or None."""
    if name == "Cargo.toml":
        table = _table(data, "package")
    elif name == "pyproject.toml":
        table = _table(data, "project") or _table(data, "tool", "poetry")
    else:
        table = data
    declared = table.get("name")
    if not isinstance(declared, str) or not declared.strip():
        return None
    description = table.get("description")
    said = description.strip() if isinstance(description, str) else ""
    return declared.strip(), said


def _bare(name: str) -> str:
    return name.rsplit("/", 1)[-1].lower().replace("_", "-")


def not_after_folder(name: str, folder: str) -> bool:
    """Whether a package's `name` does not tell its `folder`'s (module docstring)."""
    bare, place = _bare(name), _bare(folder)
    return bool(bare) and bool(place) and bare not in place and place not in bare


def package_names(events: list[StoredEvent]) -> list[PackageName]:
    """The packages of sub-folders whose names their folders do not tell (module docstring)."""
    latest: dict[str, tuple[str, str, str]] = {}  # folder -> (name, description, event id)
    manifests: dict[str, str] = {}
    for event in events:
        path = first_project_path(event)
        if path is None:
            continue
        pure = PurePosixPath(path)
        if pure.name not in _MANIFESTS or len(pure.parts) < 2:
            continue
        if sample_folder(path) or is_test_data(path) or is_excluded(path):
            continue
        output = whole_read_output(event)
        data = None if output is None else _parsed(pure.name, file_text(output))
        found = None if data is None else _name_and_description(pure.name, data)
        if found is None:
            continue
        folder = str(pure.parent)
        latest[folder] = (found[0], found[1], event.id)
        manifests[folder] = path
    named = [
        (folder, found) for folder, found in latest.items() if not_after_folder(found[0], folder)
    ]
    if len(named) > MAX_PACKAGES:
        return []
    result: list[PackageName] = []
    for folder, (name, description, event_id) in named:
        source = f"`{manifests[folder]}`"
        if description and len(description) <= MAX_DESCRIPTION_CHARS and "\n" not in description:
            source += f'; "{description}"'
        result.append(
            PackageName(
                f"{KEY_PREFIX}{folder}",
                f"The package in `{folder}` is named `{name}`, not after its folder ({source}).",
                (event_id,),
                (manifests[folder],),
            )
        )
    return result
