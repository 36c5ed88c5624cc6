"""`sqrl projects`: the repositories with assistant history here, and registering them at once."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from squirrel_cli.console import Console
from squirrel_cli.discovery import Activity, Repository, discover
from squirrel_core.errors import InvalidArgumentError
from squirrel_core.events import SourceTool
from squirrel_core.home import HomeLayout
from squirrel_core.projects import read_projects
from squirrel_core.settings import Settings
from squirrel_core.worktrees import WorktreeMemory


def add_commands(sub: Any) -> None:
    projects = sub.add_parser(
        "projects",
        help="repositories with assistant history here; --register adds the chosen ones",
    )
    projects.add_argument(
        "--register",
        nargs="+",
        default=[],
        metavar="N|PATH",
        help="register these (numbers from the list, or paths) in one step",
    )
    projects.add_argument(
        "--all", action="store_true", help="register every listed repository not yet registered"
    )
    projects.add_argument("--json", action="store_true", help="print JSON")
    projects.set_defaults(handler=cmd_projects)


def _found(settings: Settings) -> list[Repository]:
    from squirrel_core.cursor_workspaces import folder_activity  # noqa: PLC0415 - projects only
    from squirrel_core.source_roots import cursor_roots, default_roots  # noqa: PLC0415

    layout = HomeLayout(settings.home)
    memory = WorktreeMemory(layout.worktrees) if layout.worktrees.exists() else None
    cursor = [
        Activity(SourceTool.CURSOR, f.folder, f.chats, f.last_activity)
        for f in folder_activity(cursor_roots(settings, Path.home()))
    ]
    return discover(
        default_roots(settings, Path.home()), read_projects(layout.projects), memory, cursor
    )


def _row(repo: Repository) -> dict[str, Any]:
    return {
        "root": repo.root,
        "sessions": repo.sessions,
        "last_activity": repo.last_activity.isoformat() if repo.last_activity else None,
        "sources": sorted(repo.sources),
        "exists": repo.exists,
        "git": repo.is_git,
        "registered": repo.registered,
    }


def _chosen(args: argparse.Namespace, found: list[Repository]) -> list[Repository]:
    if args.all:
        return [r for r in found if not r.registered and r.exists and r.is_git]
    chosen: list[Repository] = []
    for word in args.register:
        if word.isdigit():
            number = int(word)
            if not 1 <= number <= len(found):
                raise InvalidArgumentError(
                    f"no repository numbered {number}; `sqrl projects` lists 1 to {len(found)}"
                )
            chosen.append(found[number - 1])
        else:
            root = str(Path(word).expanduser().resolve())
            match = next((r for r in found if r.root == root), None)
            chosen.append(match or Repository(root))
    return chosen


def _register(settings: Settings, repo: Repository, console: Console) -> None:
    from squirrel_cli.commands.local import cmd_init  # noqa: PLC0415 - the same steps as init
    from squirrel_cli.main import build_parser  # noqa: PLC0415

    if not repo.exists:
        raise InvalidArgumentError(f"{repo.root} no longer exists; nothing to register there")
    args = build_parser("init").parse_args(["init", repo.root, "--no-mcp"])
    args.settings = settings
    cmd_init(args, console)


def cmd_projects(args: argparse.Namespace, console: Console) -> int:
    settings: Settings = args.settings
    found = _found(settings)
    chosen = _chosen(args, found) if (args.register or args.all) else []
    notes = console
    if args.json:  # stdout carries the JSON alone; what registering says goes to stderr
        notes = Console(sys.stderr)
    for repo in chosen:
        _register(settings, repo, notes)
    if chosen:
        found = _found(settings)
    if args.json:
        console.json({"repositories": [_row(r) for r in found]})
        return 0
    if not found:
        console.line("No assistant history found (Claude Code, Codex, Gemini CLI, Cursor folders).")
        return 0
    console.table(
        "Repositories with assistant history",
        ["#", "repository", "sessions", "last activity", "sources", "registered"],
        [
            [
                str(n),
                r.root + ("" if r.exists else "  (gone)") + ("" if r.is_git else "  (no git)"),
                str(r.sessions),
                r.last_activity.strftime("%Y-%m-%d %H:%M") if r.last_activity else "",
                ", ".join(sorted(r.sources)),
                "yes" if r.registered else "",
            ]
            for n, r in enumerate(found, start=1)
        ],
    )
    if not chosen and any(not r.registered and r.exists and r.is_git for r in found):
        console.line("Register some with `sqrl projects --register 1 3` (or --all).")
    return 0
