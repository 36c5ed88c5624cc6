"""`sqrl hook` (what hosts run) and `sqrl hooks install|remove|status` (setting hosts up)."""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from squirrel_cli import hook_client, hook_config
from squirrel_cli.console import Console
from squirrel_core.home import HomeLayout
from squirrel_core.hook_activity import read_activity
from squirrel_core.projects import canonical_root


def add_commands(sub: Any) -> None:
    hook = sub.add_parser(
        "hook",
        help="answer a host's hook (what Claude Code, Codex or Gemini run; prints JSON or nothing)",
    )
    hook.add_argument("host", help="claude, codex or gemini")
    hook.add_argument("event", help="the host's event name, e.g. SessionStart")
    hook.set_defaults(handler=cmd_hook)

    hooks = sub.add_parser("hooks", help="install, remove or inspect the hosts' Squirrel hooks")
    action = hooks.add_subparsers(dest="action", metavar="ACTION")
    action.required = True
    for name, handler, text in (
        ("install", cmd_hooks_install, "write Squirrel's hooks into the hosts' settings"),
        ("remove", cmd_hooks_remove, "take Squirrel's hooks (only those) back out"),
        ("status", cmd_hooks_status, "where the hooks are installed and when they last ran"),
    ):
        parser = action.add_parser(name, help=text)
        add_hook_options(parser, flag="--hosts")
        if name == "status":
            parser.add_argument("--json", action="store_true", help="print JSON")
        parser.set_defaults(handler=handler)


def add_hook_options(parser: argparse.ArgumentParser, *, flag: str) -> None:
    """The host list and scope options shared by `sqrl hooks …` and `sqrl init --hooks`."""
    if flag == "--hosts":
        parser.add_argument(
            "--hosts",
            default="",
            metavar="LIST",
            help="comma-separated hosts: claude,codex,gemini (default: all)",
        )
        parser.add_argument(
            "--project", default=".", metavar="PATH", help="a path in the repository (default: .)"
        )
    parser.add_argument(
        "--hooks-scope",
        choices=("project", "user"),
        default=None,
        help="where to write: the repository's file or your own (default: Claude Code's "
        "uncommitted .claude/settings.local.json; your own files for Codex and Gemini)",
    )


def cmd_hook(args: argparse.Namespace, console: Console) -> int:
    return hook_client.main([args.host, args.event])


def program_path() -> str:
    """The `sqrl` to put in hook commands: the one running now, else the one on PATH."""
    here = Path(sys.argv[0])
    if here.name == "sqrl" and here.exists():
        return str(here.resolve())
    return shutil.which("sqrl") or "sqrl"


def _targets(
    args: argparse.Namespace, hosts_value: str, repo: Path
) -> list[hook_config.HookTarget]:
    return [
        hook_config.target(host, repo=repo, home=Path.home(), scope=args.hooks_scope)
        for host in hook_config.parse_hosts(hosts_value)
    ]


def install_hooks(args: argparse.Namespace, console: Console, hosts_value: str, repo: Path) -> None:
    program = program_path()
    for target in _targets(args, hosts_value, repo):
        outcome = hook_config.install(target, program)
        console.line(f"Hooks for {target.host}: {outcome} in {target.path}")
        excluded = hook_config.keep_out_of_git(target)
        if excluded is not None and outcome != "unchanged":
            console.line(f"  This machine's file, kept out of git by {excluded}.")
        note = hook_config.NOTES.get(target.host)
        if note and outcome != "unchanged":
            console.line(f"  {note}")


def remove_hooks(args: argparse.Namespace, console: Console, hosts_value: str, repo: Path) -> None:
    for target in _targets(args, hosts_value, repo):
        outcome = hook_config.remove(target)
        shown = "removed from" if outcome == "removed" else "none in"
        console.line(f"Hooks for {target.host}: {shown} {target.path}")


def cmd_hooks_install(args: argparse.Namespace, console: Console) -> int:
    install_hooks(args, console, args.hosts, canonical_root(args.project))
    return 0


def cmd_hooks_remove(args: argparse.Namespace, console: Console) -> int:
    remove_hooks(args, console, args.hosts, canonical_root(args.project))
    return 0


def hook_report(settings: Any, repo: Path, scope: str | None = None) -> list[dict[str, Any]]:
    """Per host: the files holding Squirrel's hooks and the recorded activity."""
    activity = read_activity(HomeLayout(settings.home).run)
    report = []
    for host in hook_config.HOSTS:
        places = []
        for where in hook_config.SCOPES:
            target = hook_config.target(host, repo=repo, home=Path.home(), scope=where)
            events = hook_config.installed_events(target)
            if events:
                places.append({"path": str(target.path), "events": events})
        report.append({"host": host, "installed": places, "activity": activity.get(host, {})})
    return report


def _ago(stamp: object) -> str:
    if not isinstance(stamp, int | float):
        return "never"
    seconds = max(0, int(time.time() - stamp))
    if seconds < 120:
        return f"{seconds} s ago"
    if seconds < 7200:
        return f"{seconds // 60} min ago"
    return f"{seconds // 3600} h ago"


def activity_line(host: str, activity: dict[str, Any]) -> str:
    """One line of hook activity for `sqrl status` and `sqrl hooks status`."""
    if not activity:
        return f"{host}: no hook has run yet"
    return (
        f"{host}: last injection {_ago(activity.get('last_injection_at'))}, "
        f"{activity.get('injections', 0)} injections (~{activity.get('tokens_injected', 0):,} "
        f"tokens), {activity.get('abstentions', 0)} abstentions, "
        f"{activity.get('failures', 0)} failures, {activity.get('sessions_ended', 0)} sessions "
        f"ended; last success {_ago(activity.get('last_ok_at'))}"
    )


def cmd_hooks_status(args: argparse.Namespace, console: Console) -> int:
    rows = hook_report(args.settings, canonical_root(args.project))
    if args.json:
        console.json({"hosts": rows})
        return 0
    for row in rows:
        if row["installed"]:
            for place in row["installed"]:
                console.line(
                    f"{row['host']}: installed in {place['path']} ({', '.join(place['events'])})"
                )
        else:
            console.line(
                f"{row['host']}: not installed (`sqrl hooks install --hosts {row['host']}`)"
            )
        console.line("  " + activity_line(row["host"], row["activity"]))
    return 0
