"""`sqrl projects`: the repositories with assistant history here, registering them at once, and
forgetting one (`--forget`: off the registry, its store kept unless `--delete-store`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from squirrel_cli.console import Console
from squirrel_cli.discovery import Activity, Repository, discover
from squirrel_core.errors import InvalidArgumentError, NotFoundError
from squirrel_core.events import SourceTool
from squirrel_core.home import HomeLayout
from squirrel_core.project_forget import forget_project, own_store, require_registered
from squirrel_core.projects import canonical_root, read_projects, shown_path
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
    projects.add_argument(
        "--forget",
        metavar="N|PATH",
        help="take this registered project off the registry (its memories are kept)",
    )
    projects.add_argument(
        "--delete-store",
        action="store_true",
        help="with --forget: delete its store too, only one this home made (asks first)",
    )
    projects.add_argument(
        "--yes", "-y", action="store_true", help="with --delete-store: do not ask"
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
                raise InvalidArgumentError(_no_number(number, len(found)))
            chosen.append(found[number - 1])
        else:
            root = str(canonical_root(word))
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


def _no_number(number: int, listed: int) -> str:
    """The refusal of a repository number outside `sqrl projects`'s list of `listed`."""
    if listed == 0:
        return (
            f"no repository numbered {number}: `sqrl projects` lists none here (no assistant "
            "history found); give the repository's path"
        )
    return f"no repository numbered {number}; `sqrl projects` lists 1 to {listed}"


def _forgotten_root(settings: Settings, word: str) -> str:
    """The registered project `--forget` names: a number from the list, or a path."""
    layout = HomeLayout(settings.home)
    if not word.isdigit():
        return require_registered(layout, str(canonical_root(word)))
    found = _found(settings)
    number = int(word)
    if not 1 <= number <= len(found):
        raise InvalidArgumentError(_no_number(number, len(found)))
    repo = found[number - 1]
    if not repo.registered:
        raise NotFoundError(
            f"repository {number} ({shown_path(repo.root)}) is not registered; nothing to forget"
        )
    return repo.root


def _confirmed(args: argparse.Namespace, question: str, console: Console) -> bool:
    if args.yes:
        return True
    if not sys.stdin.isatty():
        raise InvalidArgumentError(f"{question} Add --yes to confirm; nothing was changed")
    from rich.prompt import Confirm  # noqa: PLC0415 - only when a person is asked

    return bool(Confirm.ask(question, console=console.out, default=False))


def _forget(args: argparse.Namespace, console: Console) -> int:
    settings: Settings = args.settings
    layout = HomeLayout(settings.home)
    root = _forgotten_root(settings, args.forget)
    notes = Console(sys.stderr) if args.json else console
    if args.delete_store and (store := own_store(layout, root)) is not None:
        question = (
            f"Delete {shown_path(store.store_dir)} ({store.memories} memories, "
            f"{store.events} events of {shown_path(root)})?"
        )
        if not _confirmed(args, question, notes):
            notes.line("Nothing was changed.")
            return 1
    done = forget_project(layout, root, delete_store=args.delete_store)
    shown = shown_path(root)
    if args.json:
        console.json(
            {
                "forgotten": root,
                "store": str(done.store_dir) if done.store_dir else None,
                "deleted": done.deleted,
            }
        )
    elif done.deleted and done.store_dir is not None:
        console.line(f"Forgot {shown} and deleted its store {shown_path(done.store_dir)}.")
    elif done.store_dir is not None:
        console.line(
            f"Forgot {shown}; its memories stay in {shown_path(done.store_dir)} (`sqrl init` "
            f"there registers it again with them; `sqrl projects --forget` with --delete-store "
            "deletes them)."
        )
    else:
        console.line(f"Forgot {shown}; no store of it was found.")
    return 0


def cmd_projects(args: argparse.Namespace, console: Console) -> int:
    settings: Settings = args.settings
    if args.forget is not None:
        if args.register or args.all:
            raise InvalidArgumentError("--forget goes alone, without --register or --all")
        return _forget(args, console)
    if args.delete_store:
        raise InvalidArgumentError("--delete-store goes with --forget N|PATH")
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
