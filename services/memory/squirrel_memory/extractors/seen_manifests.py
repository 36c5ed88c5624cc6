"""The ecosystems whose manifest or lock file the session saw at the project root: read, changed,
or named by a listing of the root (`ls`, a Glob). A package manager's runs that did none of the
project's work (`bun run a-server`) say the project runs through it only beside one of these
(`evidence/habits.package_manager_fact`)."""

from __future__ import annotations

from collections.abc import Mapping

from squirrel_memory.extractors.about import last_root_reads
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.file_reads import printed_paths
from squirrel_memory.extractors.script_managers import LOCK_FILES
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.manifests import MANIFEST_ECOSYSTEMS

#: Lock files and workspace files, by the ecosystem whose package manager writes or reads them.
_LOCKS: Mapping[str, str] = {
    **dict.fromkeys(("uv.lock", "poetry.lock", "Pipfile.lock", "pdm.lock", "setup.py"), "python"),
    # the JavaScript managers' own lock files, and the workspace and Deno files beside them
    **dict.fromkeys(
        (*LOCK_FILES, "pnpm-workspace.yaml", "deno.json", "deno.jsonc", "deno.lock"), "javascript"
    ),
    "Gemfile.lock": "ruby",
    "composer.lock": "php",
}


def _ecosystem(name: str) -> str | None:
    if name.endswith(".gemspec"):
        return "ruby"
    return MANIFEST_ECOSYSTEMS.get(name) or _LOCKS.get(name)


def root_manifest_ecosystems(events: list[StoredEvent]) -> frozenset[str]:
    """The ecosystems of the manifests and lock files seen at the root of the project."""
    names = {name for name in printed_paths(events) if "/" not in name}
    names |= set(last_root_reads(events, lambda path: "/" not in path))
    for event in events:
        for raw in event.file_paths:
            path = relative_path(raw, event.project_id).removeprefix("./")
            if path and "/" not in path and not path.startswith(("~", "..")):
                names.add(path)
    return frozenset(eco for name in names if (eco := _ecosystem(name)) is not None)
