"""Which JavaScript package manager runs a folder's package.json scripts, and how a script is
typed with it.

The manager is the one package.json's `packageManager` field names, else the one its lock files
name, else that of the nearest folder above that says one (a workspace member), else npm; none
when lock files of two managers lie side by side and nothing decides. A script runs as
`<manager> <name>` where the manager does not take the word as a command of its own (npm only
for `test` and `start`), else as `<manager> run <name>`.
"""

from __future__ import annotations

import json

from squirrel_memory.repository.snapshot import Snapshot

_LOCK_RUNNERS = (
    ("pnpm-lock.yaml", "pnpm"),
    ("yarn.lock", "yarn"),
    ("bun.lockb", "bun"),
    ("bun.lock", "bun"),
    ("package-lock.json", "npm"),
    ("npm-shrinkwrap.json", "npm"),
)
_PACKAGE_MANAGERS = frozenset(runner for _, runner in _LOCK_RUNNERS)


def package_runner(snap: Snapshot, folder: str, declared: object = None) -> str | None:
    """The JavaScript package manager of a folder: the one its package.json's `packageManager`
    field names (`pnpm@9.1.0`: a lock file left behind does not outweigh it), else the one its
    lock files name (npm when none does); None when lock files of two managers lie there and
    nothing decides."""
    named = declared.split("@", 1)[0].strip() if isinstance(declared, str) else ""
    if named in _PACKAGE_MANAGERS:
        return named
    prefix = f"{folder}/" if folder else ""
    found = {runner for lock, runner in _LOCK_RUNNERS if snap.has(prefix + lock)}
    if len(found) > 1:
        return None
    if found:
        return found.pop()
    if folder:
        # A workspace member without its own lock file is installed and run by the manager of
        # the folder above it that holds one (a pnpm workspace's `apps/web`).
        return _enclosing_runner(snap, folder)
    return "npm"


def _enclosing_runner(snap: Snapshot, folder: str) -> str | None:
    """The package manager of the nearest folder above `folder` that says one, else npm."""
    parts = folder.split("/")[:-1]
    while True:
        above = "/".join(parts)
        prefix = f"{above}/" if above else ""
        found = {runner for lock, runner in _LOCK_RUNNERS if snap.has(prefix + lock)}
        if snap.has(prefix + "pnpm-workspace.yaml"):
            found.add("pnpm")
        manifest = snap.read(prefix + "package.json") if snap.has(prefix + "package.json") else None
        if manifest is not None:
            declared = _declared_manager(manifest.text)
            if declared:
                return declared
        if len(found) > 1:
            return None
        if found:
            return found.pop()
        if not parts:
            return "npm"
        parts.pop()


def _declared_manager(text: str) -> str:
    """The manager a package.json's `packageManager` field names, or ""."""
    try:
        data = json.loads(text)
    except ValueError:
        return ""
    declared = data.get("packageManager") if isinstance(data, dict) else None
    named = declared.split("@", 1)[0].strip() if isinstance(declared, str) else ""
    return named if named in _PACKAGE_MANAGERS else ""


#: Words a package manager runs as its own command, never as the script of that name (`bun
#: build` bundles, `bun test` runs bun's test runner, `pnpm deploy` deploys a package).
_OWN_COMMANDS = {
    "bun": None,  # bun's own commands shadow scripts: a script always runs as `bun run <name>`
    "pnpm": frozenset(
        {"add", "audit", "create", "deploy", "dlx", "env", "exec", "import", "init", "install"}
        | {"link", "list", "outdated", "pack", "patch", "prune", "publish", "rebuild", "remove"}
        | {"root", "server", "setup", "store", "unlink", "update", "why"}
    ),
    "yarn": frozenset(
        {"add", "audit", "cache", "config", "create", "dlx", "exec", "info", "init", "install"}
        | {"link", "pack", "plugin", "publish", "rebuild", "remove", "set", "unlink", "up"}
        | {"upgrade", "version", "why", "workspace", "workspaces"}
    ),
}


def runs_by_name(runner: str, name: str) -> bool:
    """Whether `runner <name>` runs the package.json script `name` (npm only for its
    shortcuts `test` and `start`)."""
    if runner == "npm":
        return name in ("test", "start")
    own = _OWN_COMMANDS.get(runner, frozenset())
    return own is not None and name not in own


__all__ = ["package_runner", "runs_by_name"]
