"""The activity page: processing per project, dead letters, activity over time, ingest."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime

from squirrel.v1 import ingest_service_pb2, memory_service_pb2
from squirrel_gateway.ui.html import bar_chart, esc, hidden, href, table, when
from squirrel_gateway.ui.pages import TOOL_NAMES


def activity_page(
    status: memory_service_pb2.GetProcessingStatusResponse,
    ingest: ingest_service_pb2.GetIngestStatusResponse | None,
    created: Sequence[datetime],
    csrf: str,
) -> str:
    out = ["<h2>Processing per project</h2>"]
    rows = []
    for p in status.projects:
        retry = ""
        if p.dead_letters:
            retry = (
                "<form method='post' action='/ui/activity/retry' class='inline'>"
                + hidden("project", p.project_id)
                + hidden("csrf", csrf)
                + "<button type='submit'>Retry parked work</button></form>"
            )
        rows.append(
            [
                f"<a href='{href('/ui/project', project=p.project_id)}'>{esc(p.project_id)}</a>",
                str(p.events_total),
                str(p.events_unprocessed),
                str(p.episodes_total),
                f"{p.memories_live} / {p.memories_deleted}",
                f"{p.dead_letters} {retry}",
                esc(when(p.last_processed_at)),
                esc(p.extractor),
            ]
        )
    out.append(
        table(
            "Memory service",
            [
                "Project",
                "Events",
                "Waiting",
                "Episodes",
                "Memories live / forgotten",
                "Dead letters",
                "Last processed",
                "Extractor",
            ],
            rows,
        )
    )
    parked = [
        [
            esc(p.project_id),
            esc(d.kind),
            esc(d.payload_ref[:120]),
            esc(d.error),
            str(d.attempts),
            esc(when(d.updated_at)),
        ]
        for p in status.projects
        for d in p.parked
    ]
    if parked:
        out.append(
            table(
                "Dead letters",
                ["Project", "Kind", "Work", "Reason", "Attempts", "Last try"],
                parked,
            )
        )
    out.append(_outcomes(status))
    events: Counter[str] = Counter()
    for p in status.projects:
        events.update({day[5:]: count for day, count in p.events_per_day.items()})
    out.append(bar_chart("Events stored per day (last 30 days)", sorted(events.items())[-30:]))
    days = Counter(d.astimezone(UTC).strftime("%m-%d") for d in created)
    out.append(bar_chart("Memories written per day (last 30 days)", sorted(days.items())[-30:]))
    out.append(_ingest(ingest))
    return "".join(out)


def _outcomes(status: memory_service_pb2.GetProcessingStatusResponse) -> str:
    """What the memories served in each project's last sessions became (nothing when no
    project was served any)."""
    rows = [
        [
            f"<a href='{href('/ui/project', project=p.project_id)}'>{esc(p.project_id)}</a>",
            str(o.sessions),
            str(o.served),
            str(o.used),
            str(o.missed),
            str(o.contradicted),
            str(o.unused),
            str(o.pending),
            str(o.stale),
        ]
        for p in status.projects
        if (o := p.outcomes).served
    ]
    if not rows:
        return ""
    return table(
        "What served memories became (each project's last served sessions)",
        [
            "Project",
            "Sessions",
            "Served",
            "Used",
            "Missed",
            "Contradicted",
            "Unused",
            "Not judged yet",
            "Stale now",
        ],
        rows,
    )


def _ingest(ingest: ingest_service_pb2.GetIngestStatusResponse | None) -> str:
    if ingest is None:
        return "<h2>Ingest</h2><p class='error'>The ingest service is not running.</p>"
    rows = [
        [
            esc(TOOL_NAMES.get(s.source_tool, "?")),
            str(s.files_seen),
            str(s.lines_read),
            str(s.events_produced),
            str(s.events_delivered),
            str(s.duplicates),
            str(s.rejected),
            esc(", ".join(f"{k}: {v}" for k, v in sorted(s.skipped.items())) or "—"),
        ]
        for s in ingest.sources
    ]
    out = "<h2>Ingest</h2>" + table(
        f"Per source ({ingest.buffered_events} buffered{_failures(ingest.delivery_failures)}, "
        f"last delivery {when(ingest.last_delivery_at)})",
        ["Source", "Files", "Lines", "Events", "Delivered", "Duplicates", "Rejected", "Skipped"],
        rows,
    )
    unregistered = [
        [esc(path), str(count)]
        for path, count in sorted(ingest.unregistered_projects.items(), key=lambda x: -x[1])
    ]
    if unregistered:
        out += table(
            "Folders with activity that are not registered (run sqrl init there)",
            ["Folder", "Records"],
            unregistered,
        )
    return out


def _failures(count: int) -> str:
    """ ", 2 delivery failures" (", 1 delivery failure"); nothing when there were none."""
    if count <= 0:
        return ""
    return f", {count} delivery failure{'' if count == 1 else 's'}"
