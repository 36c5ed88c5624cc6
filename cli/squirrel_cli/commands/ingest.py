"""`sqrl import`: ingest existing history with a progress bar and a summary."""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from squirrel.v1 import events_pb2
from squirrel.v1 import ingest_service_pb2 as ipb
from squirrel_cli.console import Console
from squirrel_core.auth import load_token
from squirrel_core.clients import IngestClient, open_channel, target_of
from squirrel_core.home import HomeLayout
from squirrel_core.settings import Settings

SOURCES = {
    "claude": events_pb2.SOURCE_TOOL_CLAUDE_CODE,
    "codex": events_pb2.SOURCE_TOOL_CODEX,
    "gemini": events_pb2.SOURCE_TOOL_GEMINI_CLI,
    "cursor": events_pb2.SOURCE_TOOL_CURSOR,
    "git": events_pb2.SOURCE_TOOL_GIT,
}
IMPORT_TIMEOUT_SECONDS = 6 * 3600.0


def add_commands(sub: Any) -> None:
    imp = sub.add_parser("import", help="ingest existing transcripts and git history now")
    imp.add_argument("--source", choices=sorted(SOURCES), action="append", default=[])
    imp.add_argument("--json", action="store_true", help="print the summary as JSON")
    imp.set_defaults(handler=cmd_import)


def _summary(last: ipb.ImportBacklogProgress) -> dict[str, int]:
    return {
        "files": last.files_done,
        "lines": last.lines,
        "events": last.events,
        "duplicates": last.duplicates,
        "rejected": last.rejected,
        "redactions": last.redactions,
        "bytes": last.bytes_read,
    }


async def _import(
    settings: Settings, sources: list[events_pb2.SourceTool.ValueType], show_bar: bool
) -> ipb.ImportBacklogProgress:
    layout = HomeLayout(settings.home)
    client = IngestClient(
        open_channel(target_of(layout.service_file("ingest"))),
        load_token(layout.token),
        service="ingest",
    )
    last = ipb.ImportBacklogProgress()
    request = ipb.ImportBacklogRequest(source_tools=sources)
    try:
        stream = client.stream(client.stub.ImportBacklog, request, timeout=IMPORT_TIMEOUT_SECONDS)
        if not show_bar:
            async for progress in stream:
                last = progress
            return last
        # Loaded only when a person watches: scripts (`--json`) start faster without it.
        from rich.progress import (  # noqa: PLC0415
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        with Progress(
            TextColumn("importing"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("files · {task.fields[events]} events"),
            TimeElapsedColumn(),
            transient=True,
        ) as bar:
            task = bar.add_task("import", total=None, events=0)
            async for progress in stream:
                last = progress
                bar.update(
                    task,
                    total=progress.files_total or None,
                    completed=progress.files_done,
                    events=progress.events,
                )
    finally:
        await client.close()
    return last


def cmd_import(args: argparse.Namespace, console: Console) -> int:
    settings: Settings = args.settings
    sources = [SOURCES[s] for s in args.source]
    last = asyncio.run(
        _import(settings, sources, show_bar=not args.json and console.out.is_terminal)
    )
    summary = _summary(last)
    if args.json:
        console.json(summary)
        return 0
    console.line(import_line(summary))
    return 0


def import_line(summary: dict[str, int]) -> str:
    """The one line `sqrl import` ends with ("Imported 1 file: …", "Imported 3 files: …")."""
    files = summary["files"]
    return (
        f"Imported {files} file{'' if files == 1 else 's'}: {summary['lines']} lines, "
        f"{summary['events']} events ({summary['duplicates']} duplicates, "
        f"{summary['rejected']} rejected, {summary['redactions']} secrets redacted, "
        f"{summary['bytes'] / 2**20:.1f} MiB)."
    )
