"""Commands that work without running services: init, config, token."""

from __future__ import annotations

import argparse
import errno
import os
from pathlib import Path
from typing import Any

from squirrel_cli import hosts
from squirrel_cli.backends import PRIVACY
from squirrel_cli.commands import hooks as hook_commands
from squirrel_cli.console import Console
from squirrel_core.auth import ensure_token
from squirrel_core.errors import (
    FailedPreconditionError,
    InvalidArgumentError,
    PermissionDeniedError,
)
from squirrel_core.files import write_private_file
from squirrel_core.home import HomeLayout
from squirrel_core.projects import add_project, canonical_root, checked_path, read_projects
from squirrel_core.settings import (
    ANTHROPIC_KEY_ENV,
    Settings,
    known_settings,
    lookup,
    read_config_file,
    unset_setting,
    write_setting,
)


def add_commands(sub: Any) -> None:
    init = sub.add_parser(
        "init", help="set up Squirrel here: the home, this repo's .ctx/, registration"
    )
    init.add_argument(
        "path", nargs="?", default=".", help="a path inside the repository (default: .)"
    )
    init.add_argument(
        "--no-git",
        action="store_true",
        help="use PATH itself as the project root even if it is not a git repository",
    )
    init.add_argument("--yes", "-y", action="store_true", help="answer yes to every question")
    init.add_argument(
        "--moved-from",
        metavar="OLD",
        default=None,
        help="this repository was registered at OLD and has since been moved or renamed: carry "
        "its memories here (with the services stopped)",
    )
    init.add_argument(
        "--mcp",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="register the ctx-memory MCP server for Claude Code in .mcp.json (default: ask)",
    )
    init.add_argument(
        "--mcp-absolute",
        action="store_true",
        help="write this machine's absolute path to sqrl into .mcp.json (default: `sqrl`, found"
        " on PATH on every machine)",
    )
    init.add_argument(
        "--hooks",
        nargs="?",
        const="",
        default=None,
        metavar="HOSTS",
        help="also install the session-start and per-prompt hooks for claude,codex,gemini "
        "(default: all)",
    )
    init.add_argument(
        "--remove", action="store_true", help="with --hooks: take Squirrel's hooks back out"
    )
    hook_commands.add_hook_options(init, flag="--hooks")
    init.set_defaults(handler=cmd_init)

    config = sub.add_parser("config", help="show or change settings (config.toml in the home)")
    config_sub = config.add_subparsers(dest="action", metavar="ACTION")
    config_sub.required = True
    get = config_sub.add_parser("get", help="print one setting's value")
    get.add_argument("key", help="section.name, e.g. processor.extractor")
    get.add_argument("--json", action="store_true", help="print JSON")
    get.set_defaults(handler=cmd_config_get)
    setp = config_sub.add_parser("set", help="store one setting")
    setp.add_argument("key")
    setp.add_argument("value")
    setp.add_argument("--json", action="store_true", help="print JSON")
    setp.set_defaults(handler=cmd_config_set)
    unset = config_sub.add_parser("unset", help="remove one setting (its default applies)")
    unset.add_argument("key")
    unset.add_argument("--json", action="store_true", help="print JSON")
    unset.set_defaults(handler=cmd_config_unset)
    listp = config_sub.add_parser("list", help="every setting with its value and meaning")
    listp.add_argument("--json", action="store_true")
    listp.set_defaults(handler=cmd_config_list)

    token = sub.add_parser("token", help="print the path of the auth token file (or the token)")
    token.add_argument("--show", action="store_true", help="print the token itself")
    token.add_argument("--json", action="store_true", help="print JSON")
    token.set_defaults(handler=cmd_token)


def find_repo_root(start: Path) -> Path | None:
    """The nearest folder at or above `start` holding `.git` (a folder, or a file for worktrees)."""
    for candidate in (start, *start.parents):
        if (candidate / ".git").exists():
            return candidate
    return None


def prepare_home(settings: Settings) -> HomeLayout:
    """Creates the home with its token, config, projects list and user.db (idempotent)."""
    layout = HomeLayout(settings.home)
    try:
        layout.ensure()
    except PermissionError:
        raise PermissionDeniedError(f"cannot create the Squirrel home at {settings.home}") from None
    ensure_token(layout.token)
    if not layout.config.exists():
        write_private_file(layout.config, b"# Squirrel settings: see `sqrl config list`.\n")
    if not layout.projects.exists():
        write_private_file(layout.projects, b'{"projects": []}\n')
    from squirrel_core.store_setup import init_user_db  # noqa: PLC0415 - storage only here

    init_user_db(layout.user_db)
    return layout


def _refuse_all_of_them(root: Path, *, no_git: bool) -> None:
    """Refuse a root that holds every project of the machine (the filesystem's root) or, taken
    with --no-git, of the user (the home folder): its store would take in the sessions of every
    repository below it that is not registered itself, each one's facts mixed into the others'.
    A home that is itself a git repository (the user's dotfiles) is theirs to register."""
    if root == Path(root.anchor):
        raise InvalidArgumentError(
            f"{root} is the filesystem's root, not a project; run `sqrl init` in a repository"
        )
    try:
        user_home = Path.home().resolve()
    except (RuntimeError, OSError):  # no home folder known
        return
    if no_git and root == user_home:
        raise InvalidArgumentError(
            f"{root} is your home folder, which holds all your projects; run `sqrl init` in "
            "one of them (or in a folder of its own with --no-git)"
        )


def _exists(path: Path) -> bool:
    """Whether `path` exists; a name longer than the file system allows does not (`exists`
    raised "File name too long", exit 1, where a missing folder is the argument's fault)."""
    try:
        return path.exists()
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            return False
        raise


def _unwritable(root: Path) -> str:
    """Why `sqrl init` cannot keep `root`'s store in it, and how it can keep it elsewhere."""
    return (
        f"cannot write to {root}, where Squirrel keeps the project's data ({root}/.ctx); to"
        " keep it under the Squirrel home instead: `sqrl config set storage.location home`,"
        " then `sqrl init` again"
    )


def cmd_init(args: argparse.Namespace, console: Console) -> int:
    from squirrel_core.store_placement import Location, location_of, place_store  # noqa: PLC0415
    from squirrel_core.store_setup import init_project_files  # noqa: PLC0415 - storage only here

    settings: Settings = args.settings
    start = canonical_root(args.path)
    if not _exists(start):
        raise InvalidArgumentError(f"{start} does not exist")
    if not start.is_dir():
        raise InvalidArgumentError(f"{start} is not a directory")
    root = start if args.no_git else find_repo_root(start)
    if root is None:
        raise FailedPreconditionError(
            f"{start} is not inside a git repository; run `sqrl init` in one, "
            "or pass --no-git to use this folder as the project root"
        )
    if not args.no_git and (root / ".git").is_file():
        from squirrel_core.worktrees import main_checkout  # noqa: PLC0415 - worktrees only

        main = main_checkout(root)
        if main is not None and main != root:
            console.line(f"{root} is a linked worktree of {main}; registering {main}.")
            root = main
    _refuse_all_of_them(root, no_git=bool(args.no_git))
    home = canonical_root(settings.home)
    if root == home or home in root.parents:
        raise InvalidArgumentError(
            f"{root} is inside the Squirrel home ({home}), where Squirrel runs its own tools; "
            "register a repository of yours instead"
        )
    location = location_of(settings.str_("storage.location"))
    if location is Location.REPO and not os.access(root, os.W_OK | os.X_OK):
        raise PermissionDeniedError(_unwritable(root))
    layout = prepare_home(settings)
    moved = _carry_over(layout, root, getattr(args, "moved_from", None), console)
    try:
        placement = place_store(
            layout,
            str(root),
            location=location,
            registered_before=str(root) in read_projects(layout.projects),
        )
        init_project_files(root, placement.store_dir)
    except PermissionError:
        raise PermissionDeniedError(_unwritable(root)) from None
    created = add_project(layout.projects, root) or moved
    verb = "Registered" if created else "Already registered:"
    console.line(f"{verb} {root}  (data in {placement.store_dir}, home {layout.root})")
    if placement.notice:
        console.line(placement.notice)
    _say_gone(layout, root, console)
    hosts.offer_claude_code(
        root,
        settings.home,
        console,
        choice=args.mcp,
        assume_yes=args.yes,
        absolute=args.mcp_absolute,
    )
    if args.hooks is not None:
        if args.remove:
            hook_commands.remove_hooks(args, console, args.hooks, root)
        else:
            hook_commands.install_hooks(args, console, args.hooks, root)
    _offer_backends(settings, console)
    return 0


def _carry_over(layout: HomeLayout, root: Path, moved_from: str | None, console: Console) -> bool:
    """With --moved-from, or when `root` holds the signed `.ctx/` of a registered project whose
    folder is gone (it moved here), carry that project's store to `root` first."""
    from squirrel_core.project_move import move_project, moved_store  # noqa: PLC0415

    if moved_from is not None:
        old = str(Path(checked_path(moved_from)).expanduser().absolute())
        if old not in read_projects(layout.projects):
            old = str(canonical_root(moved_from))
    else:
        found = moved_store(layout, root)
        if found is None:
            return False
        old = found
    moved = move_project(layout, old, root)
    since = (
        f", {moved.carried} of them from sessions run here since, to be processed again"
        if moved.carried
        else ""
    )
    console.line(
        f"Moved here from {moved.old}: {moved.memories} memories and {moved.events} events kept"
        f"{since} (data in {moved.store_dir})"
    )
    return True


def _say_gone(layout: HomeLayout, root: Path, console: Console) -> None:
    """One line per other registered project whose folder is gone and whose memories are kept
    under the home: this repository may be it, moved or renamed."""
    from squirrel_core.project_move import gone_projects, kept_at_home  # noqa: PLC0415

    for old in gone_projects(layout):
        store = kept_at_home(layout, old)
        if old != str(root) and store is not None:
            console.line(
                f"{old} is registered but its folder is gone; its memories are kept in {store}. "
                f"If this repository is it, moved or renamed: `sqrl init --moved-from {old}`"
            )


def _offer_backends(settings: Settings, console: Console) -> None:
    """Says who writes memories now, and which model backends this machine could use instead."""
    from squirrel_cli.backends import detect  # noqa: PLC0415 - init only
    from squirrel_core.backend_choice import chosen_backend  # noqa: PLC0415 - init only

    if chosen_backend(settings) != "rules":
        return
    console.line("Memories are written by the offline rules: nothing leaves this machine.")
    for offer in detect(settings):
        if offer.ready:
            console.line(f"  Also available: {offer.backend} ({offer.detail}); it {offer.privacy}.")
            console.line(f"    To use it: {offer.switch}")


def _shown(dotted: str, value: Any) -> str:
    if lookup(dotted).secret and value:
        text = str(value)
        return text[:7] + "…" + text[-4:] if len(text) > 16 else "…"
    return str(value)


def cmd_config_get(args: argparse.Namespace, console: Console) -> int:
    settings: Settings = args.settings
    value = settings.get(args.key)
    if args.json:
        console.json({"key": args.key, "value": _json_value(args.key, value)})
    else:
        console.line(_shown(args.key, value))
    return 0


def _json_value(dotted: str, value: Any) -> Any:
    """A setting's value for `--json`: typed, and a secret masked as in text output."""
    return _shown(dotted, value) if lookup(dotted).secret and value else value


def cmd_config_set(args: argparse.Namespace, console: Console) -> int:
    settings: Settings = args.settings
    HomeLayout(settings.home).ensure()
    value = write_setting(settings.home, args.key, args.value)
    if args.json:
        console.json({"key": args.key, "value": _json_value(args.key, value)})
        return 0
    console.line(f"{args.key} = {_shown(args.key, value)}")
    if args.key == "anthropic.api_key":
        console.line(
            f"(stored in {settings.home / 'config.toml'}, mode 0600; {ANTHROPIC_KEY_ENV} wins)"
        )
    if args.key in ("extractor.backend", "processor.extractor") and value in PRIVACY:
        console.line(f"The {value} backend {PRIVACY[value]}; restart with `sqrl down && sqrl up`.")
    return 0


def cmd_config_unset(args: argparse.Namespace, console: Console) -> int:
    settings: Settings = args.settings
    unset_setting(settings.home, args.key)
    default = lookup(args.key).default
    if args.json:
        console.json({"key": args.key, "value": _json_value(args.key, default)})
        return 0
    console.line(f"{args.key} unset (default: {_shown(args.key, default)})")
    return 0


def cmd_config_list(args: argparse.Namespace, console: Console) -> int:
    settings: Settings = args.settings
    stored = read_config_file(settings.home)
    rows = []
    for setting in known_settings():
        value = settings.get(setting.dotted)
        origin = "file" if setting.name in stored.get(setting.section, {}) else "default"
        if setting.dotted in settings.values and origin == "default":
            origin = "env"
        rows.append(
            [setting.dotted, _shown(setting.dotted, value), origin, setting.doc, setting.allowed]
        )
    if args.json:
        keys = ["key", "value", "from", "doc", "allowed"]
        console.json([dict(zip(keys, r, strict=True)) for r in rows])
    else:
        console.table("Settings", ["key", "value", "from", "meaning", "allowed"], rows)
    return 0


def cmd_token(args: argparse.Namespace, console: Console) -> int:
    settings: Settings = args.settings
    layout = HomeLayout(settings.home).ensure()
    token = ensure_token(layout.token)
    if args.json:
        console.json({"path": str(layout.token), **({"token": token} if args.show else {})})
        return 0
    console.line(token if args.show else str(layout.token))
    return 0


def registered_projects(settings: Settings) -> list[str]:
    return read_projects(HomeLayout(settings.home).projects)
