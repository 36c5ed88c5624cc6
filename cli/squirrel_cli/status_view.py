"""`sqrl status` without gRPC: the rows it reads from the home, its JSON, and how it prints.

Health, memory counts and ingest counters come from `squirrel_core.status_probe` (asked by the CLI
over gRPC, or by the gateway for it over loopback HTTP); everything else is read here from the
home (which memory answers, and a laptop's delivery to its team server: `memory_status`). Only
the standard library and light parts of the core are imported.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from squirrel_cli.memory_status import (
    kept_while_refused,
    memory_in_use,
    outbox_note,
    team_delivery,
    team_rows,
)
from squirrel_cli.parked_view import parked_lines
from squirrel_cli.store_writes import refused_line
from squirrel_cli.supervisor_state import SupervisorState, services_run
from squirrel_core.errors import SquirrelError
from squirrel_core.home import HomeLayout
from squirrel_core.hook_activity import read_activity
from squirrel_core.projects import read_projects
from squirrel_core.service_info import pid_alive, read_service_info, read_starting

if TYPE_CHECKING:
    from squirrel_cli.console import Console
    from squirrel_core.settings import Settings


def uptime_text(started_at: float) -> str:
    seconds = int(max(0.0, time.time() - started_at))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}h{minutes:02d}m{secs:02d}s" if hours else f"{minutes}m{secs:02d}s"


def up_failure(layout: HomeLayout) -> str | None:
    """Why the last `sqrl up` could not start the services, when the user can fix it."""
    try:
        return layout.up_failure_file.read_text(encoding="utf-8").strip() or None
    except (OSError, UnicodeDecodeError):
        return None


def service_rows(
    layout: HomeLayout, state: SupervisorState | None
) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """A row per service (its health still "DOWN") and the loopback port of each one whose
    process is alive, to ask for its health."""
    rows = []
    ports: dict[str, int] = {}
    for name in services_run(state):
        info = read_service_info(layout.service_file(name))
        svc = state.services.get(name) if state else None
        pid = svc.pid if svc else (info.pid if info else 0)
        # A service given no port names the one it bound in its file, once serving.
        port = (svc.port if svc else 0) or (info.port if info else 0)
        alive = pid_alive(pid)
        if alive and port:
            ports[name] = port
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
                "problem": (svc.problem or None) if svc else None,
                "starting": read_starting(layout.starting_file(name)) if alive else None,
                "waits_for": (svc.waits_for or None) if svc and alive else None,
                "late": bool(svc and svc.late and alive),
            }
        )
    return rows, ports


def not_serving_line(row: dict[str, Any]) -> str | None:
    """Why a running service is not serving yet, in one line (None when nothing says)."""
    said = [str(row["starting"])] if row.get("starting") else []
    if row.get("waits_for"):
        said.append(f"the supervisor waits for {row['waits_for']}")
    if not said:
        return None
    late = (
        ", past the start timeout (supervisor.start_timeout_seconds): the other services run,"
        " it joins them once it serves"
        if row.get("late")
        else ""
    )
    return f"The {row['service']} service is not serving yet{late}: {'; '.join(said)}"


@dataclass(frozen=True)
class HomeStatus:
    """What `sqrl status` reads from the home itself (no service asked): read while the services
    are being asked."""

    projects: list[tuple[dict[str, Any], bool]]
    """Each project's row, and whether the memory service's counts belong in it."""
    model: dict[str, Any]
    memory: dict[str, Any]
    hooks: dict[str, dict[str, Any]]


def home_status(settings: Settings) -> HomeStatus:
    from squirrel_core.model_files import install_command, model_problem  # noqa: PLC0415

    layout = HomeLayout(settings.home)
    projects = [project_row(layout, root) for root in read_projects(layout.projects)]
    model = model_problem()
    model_row = {"ok": model is None, "problem": model, "fix": install_command() if model else None}
    return HomeStatus(projects, model_row, memory_in_use(settings), read_activity(layout.run))


def status_data(
    settings: Settings,
    state: SupervisorState | None,
    services: list[dict[str, Any]],
    counts: dict[str, dict[str, Any]],
    ingest: dict[str, Any] | None,
    *,
    home: HomeStatus | None = None,
) -> dict[str, Any]:
    """What `sqrl status --json` prints, given what the services answered (and what the home
    says, read now unless given)."""
    home = home or home_status(settings)
    projects = [
        {**row, **counts.get(row["project"], {})} if counted else row
        for row, counted in home.projects
    ]
    memory = dict(home.memory)
    if memory["mode"] == "team-server":
        projects.extend(team_rows(counts, {row["project"] for row, _ in home.projects}))
    if memory["mode"] == "team" and counts:
        memory.update(team_delivery(projects))
    if memory["mode"] == "team" and memory.get("token_refused"):
        memory["text_delivery"] = "; " + kept_while_refused(
            str(memory["server"]), memory.get("events_waiting"), memory.get("remembers_queued")
        )
    elif memory["mode"] == "team":
        memory["text_delivery"] = memory.get("text_delivery", "") + outbox_note(memory)
    return {
        "home": str(settings.home),
        "memory": memory,
        "supervisor_pid": state.pid if state else None,
        "up_failure": None if state else up_failure(HomeLayout(settings.home)),
        "services": services,
        "projects": projects,
        "ingest": ingest,
        "hooks": home.hooks,
        "embedding_model": home.model,
    }


def outcome_row(project: dict[str, Any]) -> list[str]:
    """A project's served memories by outcome (those not judged yet: "+N pending")."""
    o = project["outcomes"]
    pending = f" (+{o['pending']} pending)" if o.get("pending") else ""
    return [
        str(project["project"]),
        str(o["sessions"]),
        f"{o['served']}{pending}",
        *(str(o[k]) for k in ("used", "missed", "contradicted", "unused")),
        f"⚠ {o['stale']}" if o.get("stale") else "0",
    ]


def print_status(data: dict[str, Any], counts: dict[str, dict[str, Any]], console: Console) -> None:
    """`sqrl status` as text: `data` is its JSON, `counts` the memory service's per project."""
    pid = data["supervisor_pid"]
    head = f"supervisor pid {pid}" if pid else "not running (start with `sqrl up`)"
    console.line(f"Squirrel home {data['home']} — {head}")
    if data.get("up_failure"):
        console.line(f"The last `sqrl up` failed: {data['up_failure']}")
    for row in data["services"]:
        if row.get("problem"):
            console.line(str(row["problem"]))
        if row.get("health") != "SERVING" and (line := not_serving_line(row)):
            console.line(line)
    memory = data["memory"]
    console.line(f"Memory: {memory['text']}{memory.get('text_delivery', '')}")
    model = data["embedding_model"]
    if model["problem"] is not None:
        console.line(
            f"Embedding model: {model['problem']}; fix: {model['fix']} (or sqrl doctor --repair)"
        )
    services, projects, ingest = data["services"], data["projects"], data["ingest"]
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
                uptime_text(time.time() - r["uptime_seconds"])
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
                "team project"
                if p.get("team")
                else "yes"
                if p["initialised"]
                else "no (run `sqrl init` there)"
                if Path(str(p["project"])).is_dir()
                else "no: folder gone",
                str(p.get("events", "-")),
                waiting(p),
                str(p.get("memories", "-")),
                str(p.get("dead_letters", "-")),
            ]
            for p in projects
        ],
    )
    served = [p for p in projects if (p.get("outcomes") or {}).get("served")]
    if served:
        console.table(
            f"Served memories (each project's last {served[0]['outcomes']['last']} sessions "
            "served any)",
            ["project", "sessions", "served", "used", "missed", "contradicted", "unused", "stale"],
            [outcome_row(p) for p in served],
        )
    for p in projects:
        if p["notice"]:
            console.line(str(p["notice"]))
    for p in projects:
        if line := refused_line(p, ingest):
            console.line(line)
    for p in projects:
        letters = [(str(d["kind"]), str(d["error"])) for d in p.get("parked") or []]
        for line in parked_lines(str(p["project"]), letters):
            console.line(f"Parked: {line}")
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
    for line in extractor_lines(counts):
        console.line(line)
    activity = data["hooks"]
    if activity:
        from squirrel_cli.commands.hooks import activity_line  # noqa: PLC0415 - only with activity

        for host, entry in sorted(activity.items()):
            console.line("Hooks " + activity_line(host, entry))
    else:
        console.line("Hooks: none has run yet (`sqrl hooks install` sets them up).")


def project_row(layout: HomeLayout, root: str) -> tuple[dict[str, Any], bool]:
    """A project's row from its store, and whether its counts belong in it (not when its store
    cannot be inspected, nor when its folder is gone)."""
    if not Path(root).is_dir():
        from squirrel_core.project_move import gone_line  # noqa: PLC0415 - status only

        gone = gone_line(layout, root)
        return {"project": root, "initialised": False, "store": None, "notice": gone}, False
    try:
        from squirrel_core.store_placement import inspect_store  # noqa: PLC0415 - status only

        state = inspect_store(layout, root)
    except SquirrelError as exc:
        return {"project": root, "initialised": False, "store": None, "notice": str(exc)}, False
    row = {
        "project": root,
        "initialised": state.trusted and (state.store_dir / "data.db").exists(),
        "store": str(state.store_dir),
        "notice": state.notice,
    }
    return row, True


def extractor_lines(counts: dict[str, dict[str, Any]]) -> list[str]:
    """Which backend writes memories, how much it was used, and memories per writer."""
    if not counts:
        return []
    first = next(iter(counts.values()))
    a = first.get("extractor_activity") or {}
    backend = str(a.get("backend") or first.get("extractor") or "rules")
    model = f" ({a['model']})" if a.get("model") else ""
    where = "sends redacted session text to its vendor" if a.get("sends_to_vendor") else "local"
    if backend == "rules":
        line = "Extractor: rules only (extractor.backend), local"
    else:
        line = f"Extractor: rules + {backend}{model} (chosen with extractor.backend), {where}"
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


def waiting(project: dict[str, Any]) -> str:
    """Events waiting, and by when they will have been processed (local time)."""
    count = project.get("unprocessed")
    if count is None:
        return "-"
    by = project.get("processed_by")
    if not count or not by:
        return str(count)
    when = datetime.fromisoformat(str(by)).astimezone()
    return f"{count} (processed by {when:%H:%M:%S})"
