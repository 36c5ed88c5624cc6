"""Commands that run or inspect the services: up, down, status."""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from squirrel.v1 import events_pb2
from squirrel.v1 import ingest_service_pb2 as ipb
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_cli.console import Console
from squirrel_cli.supervisor import (
    Supervisor,
    SupervisorState,
    pid_alive,
    read_supervisor_state,
    supervisor_running,
)
from squirrel_core.auth import load_token
from squirrel_core.clients import (
    IngestClient,
    MemoryClient,
    channel_health,
    open_channel,
    target_of,
)
from squirrel_core.errors import SquirrelError, UnavailableError
from squirrel_core.home import SERVICES, HomeLayout
from squirrel_core.hook_activity import read_activity
from squirrel_core.projects import read_projects
from squirrel_core.service_info import LOOPBACK, read_service_info
from squirrel_core.settings import Settings
from squirrel_memory.model_files import install_command, model_problem

if TYPE_CHECKING:
    import grpc

DOWN_TIMEOUT_SECONDS = 30.0
SOURCE_NAMES = {
    events_pb2.SOURCE_TOOL_CLAUDE_CODE: "claude_code",
    events_pb2.SOURCE_TOOL_CODEX: "codex",
    events_pb2.SOURCE_TOOL_GEMINI_CLI: "gemini_cli",
    events_pb2.SOURCE_TOOL_CURSOR: "cursor",
    events_pb2.SOURCE_TOOL_GIT: "git",
}


def add_commands(sub: Any) -> None:
    up = sub.add_parser("up", help="start memory, ingest and gateway and keep them running")
    up.add_argument(
        "--detach", "-d", action="store_true", help="run in the background and return once serving"
    )
    up.set_defaults(handler=cmd_up)

    down = sub.add_parser("down", help="stop the services started by `sqrl up`")
    down.set_defaults(handler=cmd_down)

    status = sub.add_parser(
        "status", help="services (pid, port, health, uptime, restarts) and projects"
    )
    status.add_argument("--json", action="store_true")
    status.set_defaults(handler=cmd_status)


def cmd_up(args: argparse.Namespace, console: Console) -> int:
    settings: Settings = args.settings
    from squirrel_cli.commands_local import prepare_home  # noqa: PLC0415 - storage only here
    from squirrel_core.logs import configure_logging  # noqa: PLC0415 - the supervisor logs

    layout = prepare_home(settings)
    running = supervisor_running(layout)
    if running is not None and args.detach:
        console.line(f"Squirrel is already running (supervisor pid {running.pid}).")
        return 0
    if args.detach:
        return _up_detached(settings, layout, console)
    configure_logging("supervisor", settings.str_("general.log_level"))
    return asyncio.run(Supervisor(settings, os.environ).run())


def _up_detached(settings: Settings, layout: HomeLayout, console: Console) -> int:
    log_path = layout.log_file("supervisor")
    with log_path.open("ab") as log_fh:
        proc = subprocess.Popen(
            [sys.executable, "-m", "squirrel_cli", "up"],
            stdin=subprocess.DEVNULL,
            stdout=log_fh,
            stderr=log_fh,
            start_new_session=True,
            env={**os.environ, "SQRL_HOME": str(settings.home)},
        )
    timeout = settings.float_("supervisor.start_timeout_seconds") * len(SERVICES)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        code = proc.poll()
        if code is not None:
            raise UnavailableError(f"`sqrl up` exited with code {code}; see {log_path}")
        state = read_supervisor_state(layout.supervisor_file)
        if state is not None and state.pid == proc.pid and _all_serving(state):
            ports = ", ".join(f"{s.name} :{s.port}" for s in state.services.values())
            console.line(f"Squirrel is up (supervisor pid {proc.pid}; {ports}).")
            return 0
        time.sleep(0.1)
    raise UnavailableError(f"services did not reach SERVING within {timeout:.0f}s; see {log_path}")


def _all_serving(state: SupervisorState) -> bool:
    return all(
        name in state.services and state.services[name].state == "serving" for name in SERVICES
    )


def cmd_down(args: argparse.Namespace, console: Console) -> int:
    settings: Settings = args.settings
    layout = HomeLayout(settings.home)
    state = read_supervisor_state(layout.supervisor_file)
    pids = [s.pid for s in state.services.values()] if state else []
    if state is None or not pid_alive(state.pid):
        strays = _stray_services(layout)
        if not strays:
            console.line("Squirrel is not running.")
            return 0
        pids = strays
    else:
        os.kill(state.pid, signal.SIGTERM)
        _wait_gone([state.pid], DOWN_TIMEOUT_SECONDS)
    for pid in pids:
        if pid_alive(pid):
            os.kill(pid, signal.SIGTERM)
    if not _wait_gone(pids, DOWN_TIMEOUT_SECONDS):
        for pid in pids:
            if pid_alive(pid):
                os.kill(pid, signal.SIGKILL)
    console.line("Squirrel stopped.")
    return 0


def _stray_services(layout: HomeLayout) -> list[int]:
    """Services whose supervisor is gone but which still run (e.g. after `kill -9` of `sqrl up`)."""
    pids = []
    for name in SERVICES:
        info = read_service_info(layout.service_file(name))
        if info is not None and pid_alive(info.pid):
            pids.append(info.pid)
    return pids


def _wait_gone(pids: list[int], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(pid_alive(p) for p in pids):
            return True
        time.sleep(0.05)
    return not any(pid_alive(p) for p in pids)


def _uptime(started_at: float) -> str:
    seconds = int(max(0.0, time.time() - started_at))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}h{minutes:02d}m{secs:02d}s" if hours else f"{minutes}m{secs:02d}s"


class _Channels:
    """One channel per service for the whole of `sqrl status`: its health check and its status
    call share it, and every call is made at the same time."""

    def __init__(self) -> None:
        self._open: dict[str, grpc.aio.Channel] = {}

    def to(self, target: str) -> grpc.aio.Channel:
        if target not in self._open:
            self._open[target] = open_channel(target)
        return self._open[target]

    async def close(self) -> None:
        await asyncio.gather(*(channel.close(None) for channel in self._open.values()))


async def _service_rows(
    layout: HomeLayout, state: SupervisorState | None, channels: _Channels
) -> list[dict[str, Any]]:
    rows = []
    checks: list[Awaitable[str]] = []
    for name in SERVICES:
        info = read_service_info(layout.service_file(name))
        svc = state.services.get(name) if state else None
        pid = svc.pid if svc else (info.pid if info else 0)
        port = svc.port if svc else (info.port if info else 0)
        alive = pid_alive(pid)
        if alive and port:
            checks.append(channel_health(channels.to(f"{LOOPBACK}:{port}")))
        else:
            checks.append(_down())
        started = svc.started_at if svc else (info.started_at if info else 0.0)
        rows.append(
            {
                "service": name,
                "state": svc.state if svc else ("unsupervised" if alive else "stopped"),
                "pid": pid if alive else None,
                "port": port if alive else None,
                "health": "DOWN",
                "uptime_seconds": round(time.time() - started, 1) if alive and started else None,
                "restarts": svc.restarts if svc else 0,
            }
        )
    for row, health in zip(rows, await asyncio.gather(*checks), strict=True):
        row["health"] = health
    return rows


async def _down() -> str:
    return "DOWN"


async def _memory_counts(layout: HomeLayout, channels: _Channels) -> dict[str, dict[str, Any]]:
    """Per-project counts from the memory service ({} when it is not reachable)."""
    try:
        channel = channels.to(target_of(layout.service_file("memory")))
        client = MemoryClient(channel, load_token(layout.token), 3.0)
        reply = await client.call(client.stub.GetProcessingStatus, pb.GetProcessingStatusRequest())
    except SquirrelError:
        return {}
    a = reply.extractor_activity
    activity = {
        "backend": a.backend,
        "model": a.model,
        "calls_last_hour": a.calls_last_hour,
        "tokens_last_day": a.tokens_last_day,
        "failures": a.failures,
        "sends_to_vendor": a.sends_to_vendor,
    }
    return {
        p.project_id: {
            "events": p.events_total,
            "unprocessed": p.events_unprocessed,
            "processed_by": p.next_processing_at.ToDatetime(UTC).isoformat()
            if p.next_processing_at.seconds
            else None,
            "episodes": p.episodes_total,
            "memories": p.memories_live,
            "superseded_or_forgotten": p.memories_deleted,
            "dead_letters": p.dead_letters,
            "extractor": p.extractor,
            "memories_by_writer": dict(p.memories_by_writer),
            "extractor_activity": activity,
            "team_events_waiting": p.team_events_waiting,
            "team_delivery_error": p.team_delivery_error or None,
        }
        for p in reply.projects
    }


async def _ingest_counts(layout: HomeLayout, channels: _Channels) -> dict[str, Any] | None:
    """Counters of the ingest service (None when it is not reachable)."""
    try:
        channel = channels.to(target_of(layout.service_file("ingest")))
        client = IngestClient(channel, load_token(layout.token), 3.0)
        reply = await client.call(client.stub.GetIngestStatus, ipb.GetIngestStatusRequest())
    except SquirrelError:
        return None
    return {
        "sources": {
            SOURCE_NAMES.get(s.source_tool, "?"): {
                "files": s.files_seen,
                "lines": s.lines_read,
                "events": s.events_produced,
                "delivered": s.events_delivered,
                "duplicates": s.duplicates,
                "rejected": s.rejected,
                "redactions": s.redactions,
                "skipped": dict(s.skipped),
            }
            for s in reply.sources
        },
        "buffered_events": reply.buffered_events,
        "delivery_failures": reply.delivery_failures,
        "unregistered_projects": dict(reply.unregistered_projects),
    }


async def _gather_status(
    layout: HomeLayout, state: SupervisorState | None
) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]], dict[str, Any] | None]:
    """Health of every service and the counts of memory and ingest, asked at the same time over
    one channel per service."""
    channels = _Channels()
    try:
        if state is None:
            return await _service_rows(layout, state, channels), {}, None
        rows, counts, ingest = await asyncio.gather(
            _service_rows(layout, state, channels),
            _memory_counts(layout, channels),
            _ingest_counts(layout, channels),
        )
        return rows, counts, ingest
    finally:
        await channels.close()


def _project_row(
    layout: HomeLayout, root: str, counts: dict[str, dict[str, Any]]
) -> dict[str, Any]:
    try:
        from squirrel_memory.provenance import inspect_store  # noqa: PLC0415 - status only

        state = inspect_store(layout, root)
    except SquirrelError as exc:
        return {"project": root, "initialised": False, "store": None, "notice": str(exc)}
    return {
        "project": root,
        "initialised": state.trusted and (state.store_dir / "data.db").exists(),
        "store": str(state.store_dir),
        "notice": state.notice,
        **counts.get(root, {}),
    }


def team_delivery(projects: list[dict[str, Any]]) -> dict[str, Any]:
    """What a laptop has still to deliver to its team server, and the last failure."""
    waiting = sum(int(p.get("team_events_waiting") or 0) for p in projects)
    error = next((p["team_delivery_error"] for p in projects if p.get("team_delivery_error")), None)
    note = f"; {waiting:,} events waiting to be delivered" if waiting else "; all delivered"
    if error:
        note += f" (last attempt: {error})"
    return {"events_waiting": waiting, "delivery_error": error, "text_delivery": note}


def memory_in_use(settings: Settings) -> dict[str, Any]:
    """Which memory this home answers from: its own, or a team server (and which)."""
    server = settings.str_("team.server").strip()
    serving = settings.str_("serve.address").strip()
    if server:
        has_token = HomeLayout(settings.home).team_token.is_file()
        note = "" if has_token else " — no token: run `sqrl team join`"
        return {
            "mode": "team",
            "server": server,
            "token": has_token,
            "text": f"team server {server} (local memory while it is unreachable){note}",
        }
    if serving:
        return {"mode": "team-server", "server": serving, "text": f"serving a team on {serving}"}
    return {"mode": "local", "server": None, "text": "local (this machine only)"}


def cmd_status(args: argparse.Namespace, console: Console) -> int:
    settings: Settings = args.settings
    layout = HomeLayout(settings.home)
    state = supervisor_running(layout)
    services, counts, ingest = asyncio.run(_gather_status(layout, state))
    projects = [
        _project_row(layout, root, counts)
        for root in read_projects(HomeLayout(settings.home).projects)
    ]
    model = model_problem()
    model_row = {"ok": model is None, "problem": model, "fix": install_command() if model else None}
    memory = memory_in_use(settings)
    if memory["mode"] == "team" and counts:
        memory.update(team_delivery(projects))
    if args.json:
        console.json(
            {
                "home": str(layout.root),
                "memory": memory,
                "supervisor_pid": state.pid if state else None,
                "services": services,
                "projects": projects,
                "ingest": ingest,
                "hooks": read_activity(layout.run),
                "embedding_model": model_row,
            }
        )
        return 0
    head = f"supervisor pid {state.pid}" if state else "not running (start with `sqrl up`)"
    console.line(f"Squirrel home {layout.root} — {head}")
    console.line(f"Memory: {memory['text']}{memory.get('text_delivery', '')}")
    if model is not None:
        console.line(
            f"Embedding model: {model}; fix: {install_command()} (or sqrl doctor --repair)"
        )
    console.table(
        "Services",
        ["service", "state", "pid", "port", "health", "uptime", "restarts"],
        [
            [
                str(r["service"]),
                str(r["state"]),
                str(r["pid"] or "-"),
                str(r["port"] or "-"),
                str(r["health"]),
                _uptime(time.time() - r["uptime_seconds"])
                if r["uptime_seconds"] is not None
                else "-",
                str(r["restarts"]),
            ]
            for r in services
        ],
    )
    console.table(
        "Projects",
        ["project", "initialised", "events", "waiting", "memories", "dead letters"],
        [
            [
                str(p["project"]),
                "yes" if p["initialised"] else "no (run `sqrl init` there)",
                str(p.get("events", "-")),
                _waiting(p),
                str(p.get("memories", "-")),
                str(p.get("dead_letters", "-")),
            ]
            for p in projects
        ],
    )
    for p in projects:
        if p["notice"]:
            console.line(str(p["notice"]))
    if ingest is not None:
        console.table(
            "Ingest",
            ["source", "files", "lines", "events", "delivered", "duplicates", "redactions"],
            [
                [
                    name,
                    *(str(c[k]) for k in ("files", "lines", "events", "delivered", "duplicates")),
                    str(c["redactions"]),
                ]
                for name, c in ingest["sources"].items()
            ],
        )
        unregistered = ingest["unregistered_projects"]
        if unregistered:
            shown = ", ".join(f"{path} ({n})" for path, n in list(unregistered.items())[:5])
            console.line(
                f"Activity in {len(unregistered)} unregistered folder(s) ignored: {shown}; "
                "`sqrl init` there to remember it."
            )
    for line in _extractor_lines(counts):
        console.line(line)
    activity = read_activity(layout.run)
    if activity:
        from squirrel_cli.commands_hooks import activity_line  # noqa: PLC0415 - only with activity

        for host, entry in sorted(activity.items()):
            console.line("Hooks " + activity_line(host, entry))
    else:
        console.line("Hooks: none has run yet (`sqrl hooks install` sets them up).")
    return 0


def _extractor_lines(counts: dict[str, dict[str, Any]]) -> list[str]:
    """Which backend writes memories, how much it was used, and memories per writer."""
    if not counts:
        return []
    first = next(iter(counts.values()))
    a = first.get("extractor_activity") or {}
    backend = str(a.get("backend") or first.get("extractor") or "rules")
    model = f" ({a['model']})" if a.get("model") else ""
    where = "sends redacted session text to its vendor" if a.get("sends_to_vendor") else "local"
    line = f"Extractor: {backend}{model}, {where}"
    if backend != "rules":
        line += (
            f"; {a.get('calls_last_hour', 0)} calls in the last hour, "
            f"~{a.get('tokens_last_day', 0):,} tokens today, {a.get('failures', 0)} failures"
        )
    writers: dict[str, int] = {}
    for project in counts.values():
        for writer, n in (project.get("memories_by_writer") or {}).items():
            writers[writer] = writers.get(writer, 0) + int(n)
    lines = [line]
    if writers:
        shown = ", ".join(f"{w} {n}" for w, n in sorted(writers.items(), key=lambda x: -x[1]))
        lines.append(f"Memories by writer: {shown}")
    return lines


def _waiting(project: dict[str, Any]) -> str:
    """Events waiting, and by when they will have been processed (local time)."""
    count = project.get("unprocessed")
    if count is None:
        return "-"
    by = project.get("processed_by")
    if not count or not by:
        return str(count)
    when = datetime.fromisoformat(str(by)).astimezone()
    return f"{count} (processed by {when:%H:%M:%S})"
