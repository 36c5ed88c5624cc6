"""Writing Squirrel's hooks into each host's settings, merged with what is there, and back out.

- Claude Code: `<repo>/.claude/settings.local.json` (not committed) by default, or the user's
  `~/.claude/settings.json`; events SessionStart, UserPromptSubmit, SessionEnd.
- Codex CLI: `~/.codex/hooks.json` by default, or the repository's `.codex/hooks.json`; events
  SessionStart, UserPromptSubmit and Stop (Codex has no session-end hook: the gateway counts a
  session as ended once it stays idle after a Stop).
- Gemini CLI: `~/.gemini/settings.json` by default, or the repository's `.gemini/settings.json`;
  events SessionStart, BeforeAgent, SessionEnd.

`<repo>/.claude/settings.local.json` holds this machine's `sqrl` path: installing adds it to the
repository's `.git/info/exclude` (`keep_out_of_git`), so `git status` stays clean.

Squirrel's entries are the command hooks whose command runs `sqrl hook …`; every other hook is
left exactly as it was. Installing twice changes nothing; removing takes out only those entries.
A settings file that is not a JSON object (or whose `hooks` is malformed) is never rewritten.
"""

from __future__ import annotations

import json
import shlex
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from squirrel_core.errors import FailedPreconditionError, InvalidArgumentError
from squirrel_core.files import write_json_file

HOSTS: Final = ("claude", "codex", "gemini")
HOST_EVENTS: Final[Mapping[str, tuple[str, ...]]] = {
    "claude": ("SessionStart", "UserPromptSubmit", "SessionEnd"),
    "codex": ("SessionStart", "UserPromptSubmit", "Stop"),
    "gemini": ("SessionStart", "BeforeAgent", "SessionEnd"),
}
HOST_TIMEOUT_SECONDS: Final = 5
"""What hosts are told to allow a hook; `sqrl hook` gives up long before (hooks.deadline_ms)."""
MAX_SETTINGS_BYTES: Final = 1024 * 1024
NOTES: Final[Mapping[str, str]] = {
    "codex": "Codex runs hooks only with `hooks = true` under `[features]` in "
    "~/.codex/config.toml (older versions: `codex_hooks`), and 0.171 runs new or changed hooks "
    "only once you trust them (`codex exec` skips them until then).",
    "gemini": "Older Gemini CLI versions also need hooks enabled in settings.json "
    '(`"hooksConfig": {"enabled": true}`).',
}

Scope = Literal["project", "user"]
SCOPES: Final[tuple[Scope, ...]] = ("project", "user")
Outcome = Literal["added", "updated", "unchanged", "removed", "absent"]


@dataclass(frozen=True, slots=True)
class HookTarget:
    """One host's settings file and the events Squirrel answers there."""

    host: str
    path: Path
    events: tuple[str, ...]
    repo: Path | None = None
    """The repository whose git must not see `path` (it holds this machine's `sqrl` path)."""


def parse_hosts(value: str | None) -> list[str]:
    """`claude,codex` → ["claude", "codex"]; None or "" → every host."""
    if not value:
        return list(HOSTS)
    hosts = [h.strip().lower() for h in value.split(",") if h.strip()]
    unknown = [h for h in hosts if h not in HOSTS]
    if unknown:
        raise InvalidArgumentError(f"unknown host {unknown[0]!r}; choose from {', '.join(HOSTS)}")
    return list(dict.fromkeys(hosts))


def target(host: str, *, repo: Path, home: Path, scope: Scope | None = None) -> HookTarget:
    """Where `host`'s hooks go. Default scope: the repository's uncommitted local file for
    Claude Code, the user's own file for Codex and Gemini (their project files are committed)."""
    chosen = scope or ("project" if host == "claude" else "user")
    if host == "claude":
        path = (
            repo / ".claude" / "settings.local.json"
            if chosen == "project"
            else home / ".claude" / "settings.json"
        )
    elif host == "codex":
        path = (repo if chosen == "project" else home) / ".codex" / "hooks.json"
    elif host == "gemini":
        path = (repo if chosen == "project" else home) / ".gemini" / "settings.json"
    else:
        raise InvalidArgumentError(f"unknown host {host!r}; choose from {', '.join(HOSTS)}")
    local = host == "claude" and chosen == "project"
    return HookTarget(host, path, HOST_EVENTS[host], repo if local else None)


def hook_command(program: str, host: str, event: str) -> str:
    return shlex.join([program, "hook", host, event])


def is_squirrel_hook(entry: object) -> bool:
    """Whether a hook entry is one of Squirrel's (`<…/>sqrl hook …`)."""
    if not isinstance(entry, dict) or entry.get("type", "command") != "command":
        return False
    command = entry.get("command")
    if not isinstance(command, str):
        return False
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    return len(words) >= 2 and Path(words[0]).name == "sqrl" and words[1] == "hook"


def _entry(host: str, program: str, event: str) -> dict[str, Any]:
    entry: dict[str, Any] = {"type": "command", "command": hook_command(program, host, event)}
    if host == "gemini":
        entry = {"name": "squirrel", **entry, "timeout": HOST_TIMEOUT_SECONDS * 1000}
    else:
        entry["timeout"] = HOST_TIMEOUT_SECONDS
    return entry


def _load(path: Path) -> dict[str, Any] | None:
    """The settings object, None when the file does not exist; refuses anything malformed."""
    try:
        found = path.stat()
    except FileNotFoundError:
        return None
    size = found.st_size
    if not stat.S_ISREG(found.st_mode):  # a FIFO would block the read forever
        raise FailedPreconditionError(f"{path} is not a regular file; it was left untouched")
    if size > MAX_SETTINGS_BYTES:
        raise FailedPreconditionError(f"{path} is larger than 1 MB; it was left untouched")
    try:
        data = json.loads(path.read_text(encoding="utf-8") or "{}")
    except (ValueError, UnicodeDecodeError, RecursionError):  # nested past the parser's depth
        raise FailedPreconditionError(
            f"{path} is not valid JSON; fix it (or move it aside) and run again. "
            "It was left untouched."
        ) from None
    if not isinstance(data, dict):
        raise FailedPreconditionError(f"{path} is not a JSON object; it was left untouched")
    hooks = data.get("hooks", {})
    if not isinstance(hooks, dict) or not all(isinstance(v, list) for v in hooks.values()):
        raise FailedPreconditionError(
            f"{path} has a `hooks` setting in a shape Squirrel does not know; it was left untouched"
        )
    return data


def _without_ours(groups: list[Any]) -> list[Any]:
    """The event's matcher groups with Squirrel's entries taken out (empty groups dropped)."""
    kept: list[Any] = []
    for group in groups:
        if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
            kept.append(group)
            continue
        inner = [h for h in group["hooks"] if not is_squirrel_hook(h)]
        if inner:
            kept.append({**group, "hooks": inner})
        elif len(inner) == len(group["hooks"]):
            kept.append(group)
    return kept


def _write(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_json_file(path, data, new_mode=0o600)


def install(hook_target: HookTarget, program: str) -> Outcome:
    """Adds (or refreshes) Squirrel's hooks in the target file, keeping every other hook."""
    data = _load(hook_target.path)
    existed = data is not None
    data = data if data is not None else {}
    hooks: dict[str, Any] = dict(data.get("hooks", {}))
    before = json.dumps(hooks, sort_keys=True)
    had_ours = any(
        is_squirrel_hook(h)
        for groups in hooks.values()
        for g in groups
        if isinstance(g, dict)
        for h in g.get("hooks", [])
    )
    for event in hook_target.events:
        groups = _without_ours(list(hooks.get(event, [])))
        group: dict[str, Any] = {"hooks": [_entry(hook_target.host, program, event)]}
        if hook_target.host != "codex" or event == "SessionStart":
            group = {"matcher": "", **group}
        hooks[event] = [*groups, group]
    if existed and json.dumps(hooks, sort_keys=True) == before:
        return "unchanged"
    _write(hook_target.path, {**data, "hooks": hooks})
    return "updated" if had_ours else "added"


def remove(hook_target: HookTarget) -> Outcome:
    """Takes Squirrel's hooks (and nothing else) out of the target file."""
    data = _load(hook_target.path)
    if data is None or "hooks" not in data:
        return "absent"
    hooks: dict[str, Any] = dict(data["hooks"])
    changed = False
    for event in list(hooks):
        groups = _without_ours(list(hooks[event]))
        if groups != hooks[event]:
            changed = True
            if groups:
                hooks[event] = groups
            else:
                del hooks[event]
    if not changed:
        return "absent"
    updated = {**data, "hooks": hooks}
    if not hooks:
        del updated["hooks"]
    _write(hook_target.path, updated)
    return "removed"


def installed_events(hook_target: HookTarget) -> list[str]:
    """The events of the target file that run Squirrel's hook ([] when none or unreadable)."""
    try:
        data = _load(hook_target.path)
    except FailedPreconditionError:
        return []
    if data is None:
        return []
    return [
        event
        for event, groups in data.get("hooks", {}).items()
        if any(
            is_squirrel_hook(h)
            for g in groups
            if isinstance(g, dict) and isinstance(g.get("hooks"), list)
            for h in g["hooks"]
        )
    ]


EXCLUDE_HEADER: Final = "# Squirrel's hooks for this machine (sqrl hooks install)"


def keep_out_of_git(hook_target: HookTarget) -> Path | None:
    """Adds the target file to its repository's `info/exclude` (of the common git dir, so
    linked worktrees too), unless a line there names it already. Returns the exclude file;
    None when the target is not this machine's file in a repository. A file git already tracks
    stays tracked: exclusion only hides untracked files."""
    if hook_target.repo is None:
        return None
    from squirrel_core.worktrees import common_dir  # noqa: PLC0415 - loads structlog

    common = common_dir(hook_target.repo)
    if common is None:
        return None
    try:
        pattern = "/" + hook_target.path.relative_to(hook_target.repo).as_posix()
    except ValueError:
        return None
    exclude = common / "info" / "exclude"
    try:
        existing = exclude.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        existing = []
    except (OSError, UnicodeDecodeError) as exc:
        raise FailedPreconditionError(f"{exclude} could not be read: {exc}") from None
    if pattern in {line.strip() for line in existing}:
        return exclude
    text = "\n".join(existing).rstrip("\n")
    lines = [*([text] if text else []), EXCLUDE_HEADER, pattern]
    try:
        exclude.parent.mkdir(parents=True, exist_ok=True)
        exclude.write_text("\n".join(lines) + "\n", encoding="utf-8")
    except OSError as exc:
        raise FailedPreconditionError(f"{exclude} could not be written: {exc}") from None
    return exclude
