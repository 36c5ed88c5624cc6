"""Which JavaScript package manager runs the scripts of a `package.json` a session read, as the
session saw it; unknown when nothing it saw says.

A repository's reader sees every lock file and falls back on npm; a session sees only what it
listed, read or ran, and npm named on no evidence is a wrong command half the time (`npm run
check` in a Bun project). The manager is, in order:

- the one the manifest's `packageManager` field names (`pnpm@9.1.0`);
- the one whose lock file the session saw in the manifest's folder, else in the nearest folder
  above it that shows one: a path an event touched, a name a listing placed there (an `ls` of
  the folder, a listing tool's tree, a Glob's paths, or an `ls` with no folder named on the line
  that printed the manifest); lock files of two managers side by side decide nothing;
- the only manager the session's own commands went through and did not fail (`bun install`,
  `pnpm test`; npm only when typed as `npm`, never through `npx`);
- the only manager the scripts' own bodies run scripts with (`"check": "bun run lint && bun run
  test"`);
- else none: the scripts are said by their names, with no runner.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping

from squirrel_core.commands import package_manager, typed_commands
from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import commands, core_tokens, relative_path, split_segments
from squirrel_memory.extractors.file_reads import listing_output, printed_paths
from squirrel_memory.extractors.folder_listings import ls_listed_paths, tree_listed_paths
from squirrel_memory.extractors.git_listed import folder_of
from squirrel_memory.models import StoredEvent

#: Lock files by the manager they belong to.
LOCK_FILES: Mapping[str, str] = {
    "pnpm-lock.yaml": "pnpm",
    "yarn.lock": "yarn",
    "bun.lockb": "bun",
    "bun.lock": "bun",
    "package-lock.json": "npm",
    "npm-shrinkwrap.json": "npm",
}
MANAGERS = frozenset(LOCK_FILES.values())
_RUNS = frozenset({EventType.COMMAND_RUN, EventType.TEST_RUN})
_MOVES = frozenset({"cd", "pushd", "popd"})


def _bare_listing(event: StoredEvent) -> bool:
    """Whether a command's listing names the root's files bare: it ran at the root, its `ls`
    steps name no folder and nothing moves the shell first."""
    command = event.content.get("command")
    if event.event_type not in _RUNS or not isinstance(command, str):
        return event.event_type == EventType.TOOL_RESULT  # a Glob's or Grep's paths, placed
    cwd = event.content.get("cwd")
    if folder_of(cwd if isinstance(cwd, str) and cwd else None, event.project_id) != "":
        return False  # run in a sub-folder: the names are that folder's
    steps = [tokens for part in split_segments(command) if (tokens := core_tokens(part))]
    if any(tokens[0] in _MOVES for tokens in steps):
        return False
    listings = [tokens for tokens in steps if tokens[0] == "ls"]
    return bool(listings) and all(
        all(t.startswith("-") or t in (".", "./") for t in tokens[1:]) for tokens in listings
    )


def seen_locks(events: list[StoredEvent]) -> dict[str, str]:
    """{folder: manager} of the lock files the session saw, by the folder that holds them
    ("" for the root); a folder with lock files of two managers maps to ""."""
    paths: set[str] = set()
    for event in events:
        for raw in event.file_paths:
            paths.add(relative_path(raw, event.project_id))
    runs = commands(events)
    project = events[0].project_id if events else ""
    paths.update(p for p, _ in ls_listed_paths(runs, project))
    paths.update(p for p, _ in tree_listed_paths(events))
    by_id = {e.id: e for e in events}
    for path, event_id in printed_paths(events).items():
        shown = by_id.get(event_id)
        if shown is not None and ("/" in path or _bare_listing(shown)):
            paths.add(path)
    found: dict[str, set[str]] = {}
    for path in paths:
        manager = LOCK_FILES.get(posixpath.basename(path))
        if manager is not None:
            found.setdefault(posixpath.dirname(path.removeprefix("./")), set()).add(manager)
    return {folder: next(iter(m)) if len(m) == 1 else "" for folder, m in found.items()}


def managers_used(events: list[StoredEvent]) -> set[str]:
    """The JavaScript package managers the session's commands that did not fail went through
    (npm only when typed as `npm`)."""
    used: set[str] = set()
    for event in events:
        command = event.content.get("command") if event.event_type in _RUNS else None
        if not isinstance(command, str) or listing_output(event) is not None:
            continue
        if event.content.get("is_error") is True or event.content.get("exit_code") not in (
            None,
            0,
        ):
            continue  # `pnpm: command not found` says the project does not use it
        for typed in typed_commands(command):
            words = list(typed.words)
            found = package_manager(words)
            if found is None or found[1] != "javascript" or found[0] not in MANAGERS:
                continue
            if found[0] != "npm" or (words and posixpath.basename(words[0]) == "npm"):
                used.add(found[0])
    return used


def _named_by_bodies(scripts: Mapping[str, object]) -> set[str]:
    """The managers the scripts' bodies run other scripts with (`bun run lint`, `npm test`)."""
    named: set[str] = set()
    for body in scripts.values():
        if not isinstance(body, str):
            continue
        for typed in typed_commands(body):
            words = list(typed.words)
            if len(words) >= 2 and words[0] in MANAGERS and words[1] in ("run", "test"):
                named.add(words[0])
    return named


def script_manager(
    data: Mapping[str, object],
    folder: str,
    locks: Mapping[str, str],
    used: set[str],
) -> str:
    """The manager that runs the scripts of the manifest `data` in `folder`, or "" when what the
    session saw does not say (module docstring)."""
    declared = data.get("packageManager")
    named = declared.split("@", 1)[0].strip() if isinstance(declared, str) else ""
    if named in MANAGERS:
        return named
    parts = folder.split("/") if folder else []
    while True:
        above = "/".join(parts)
        if above in locks:
            return locks[above]
        if not parts:
            break
        parts.pop()
    if len(used) == 1:
        return next(iter(used))
    scripts = data.get("scripts")
    bodies = _named_by_bodies(scripts) if isinstance(scripts, Mapping) else set()
    return next(iter(bodies)) if len(bodies) == 1 else ""
