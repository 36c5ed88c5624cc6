"""The memory pipeline on the fixture transcripts, through the real memory service over gRPC.

For every fixture project (one Claude `projects/<folder>`, or one folder of
bench/data/transcripts/), events are appended with AppendEvents and processed with the offline
`rules` extractor. Prints:
- throughput: AppendEvents events/s and processing events/s (median of --runs),
- with --memories: every memory extracted per fixture project,
- with --views: the brief, style and pitfalls views (full mode) per fixture project.

Usage: python bench/fixture_pipeline.py [--fixtures DIR] [--runs 3] [--memories] [--views]
(DIR defaults to ../shared/fixtures/claude.)
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from bench.instruction_files import write_shown_instructions
from bench.memory_in_process import memory_in_process
from squirrel.v1 import memory_pb2, views_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.events import Event, SourcePosition, SourceTool
from squirrel_core.logs import configure_logging
from squirrel_core.settings import load_settings
from squirrel_core.typed_commands import posix_form
from squirrel_core.wire import event_to_pb
from squirrel_gateway.hook_service import HookService, HookSettings
from squirrel_gateway.memory_backend import GrpcMemoryBackend
from squirrel_ingest.parsers import (
    Parser,
    line_parser_for,
    line_parser_of,
    parse_gemini_json_document,
    parser_for,
    source_of_first_line,
)

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_FIXTURES = ROOT.parent / "shared" / "fixtures" / "claude"
# Real transcripts kept in the repository (each folder one project, with its SOURCES.md).
PROJECT_TRANSCRIPTS = ROOT / "bench" / "data" / "transcripts"
# The hook's own deadline (1 s by default) decides whether its answer arrives in time, not what
# it says; the benchmark waits longer so that a loaded machine still gets the text.
HOOK_DEADLINE_MS = 60_000
# How Gemini CLI names a chat stored as one JSON document (rewritten whole on every update).
GEMINI_DOCUMENT_PREFIX = "session-"
TYPE_NAMES = {
    memory_pb2.MEMORY_TYPE_USER_STYLE: "user_style",
    memory_pb2.MEMORY_TYPE_PROJECT_FACT: "project_fact",
    memory_pb2.MEMORY_TYPE_PITFALL: "pitfall",
    memory_pb2.MEMORY_TYPE_RECIPE: "recipe",
}


def fixture_projects(base: Path) -> Iterator[tuple[str, list[Path]]]:
    """(name, transcripts) per project folder under `base` (any depth): a Claude
    `real_projects/<folder>`, else the first folder level under `base`. A transcript is a
    `.jsonl` file or a Gemini CLI chat in its legacy whole-document form (`session-*.json`)."""
    folders: dict[Path, list[Path]] = {}
    found = [*base.rglob("*.jsonl"), *base.rglob(f"{GEMINI_DOCUMENT_PREFIX}*.json")]
    for path in sorted(found):
        if path.stat().st_size == 0:
            continue
        parts = path.relative_to(base).parts
        if "real_projects" in parts[:-1]:
            cut = parts.index("real_projects") + 2
            key = base.joinpath(*parts[:cut])
        else:
            key = base.joinpath(*parts[:1]) if len(parts) > 1 else base
        folders.setdefault(key, []).append(path)
    for folder, paths in folders.items():
        yield folder.name, paths


class UnknownTranscriptError(ValueError):
    """A `.jsonl` file in no format the ingest parsers read (the message names the file)."""


def transcript_parser(path: Path) -> Parser | None:
    """A fresh parser for the transcript at `path`: by its name and folders as ingest watches
    them, else by its first line (an exported Codex or Gemini session outside their folders);
    `None` for a file with no line at all. Raises `UnknownTranscriptError` for any other file."""
    parser = line_parser_for(str(path))
    if parser is not None:
        return parser
    with path.open("rb") as fh:
        first = next((line for line in fh if line.strip()), None)
    if first is None:
        return None
    source = source_of_first_line(first)
    parser = None if source is None else line_parser_of(source, str(path))
    if parser is None:
        raise UnknownTranscriptError(
            f"{path}: not a Claude Code, Codex or Gemini CLI transcript (its first line is in no"
            " format the parsers know)"
        )
    return parser


def parse(paths: list[Path], cwd: str) -> list[Event]:
    """Every event of the transcripts at `paths`, moved to `cwd` as on the user's machine (the
    project's original folder replaced by `cwd` wherever it appears: `relocate`); raises
    `UnknownTranscriptError` (before reading any) when one is in no known format."""
    parsers = [(path, None if _is_document(path) else transcript_parser(path)) for path in paths]
    events: list[Event] = []
    for path, parser in parsers:
        if _is_document(path):
            data = path.read_bytes()
            # A chat that names its folder (`directories`) is read there and moved like the
            # other hosts' transcripts; one that does not is read in `cwd` itself.
            named = _named_folder(data)
            found, _ = parse_gemini_json_document(data, str(path), 0, set(), cwd=named or cwd)
            events.extend(found)
            continue
        if parser is not None:
            events.extend(transcript_events(path, parser))
    return relocate(events, cwd)


def transcript_events(path: Path, parser: Parser) -> Iterator[Event]:
    """The events `parser` reads in the transcript at `path`, line by line, each line with its
    position (the bytes read so far)."""
    offset = 0
    with path.open("rb") as fh:
        for line in fh:
            offset += len(line)
            yield from parser.feed(line, SourcePosition(str(path), 0, offset))


HOOK_HOSTS = {
    SourceTool.CLAUDE_CODE: "claude",
    SourceTool.CODEX: "codex",
    SourceTool.GEMINI_CLI: "gemini",
}


def transcript_host(paths: Sequence[Path]) -> str:
    """The hook host (`claude`, `codex`, `gemini`) that wrote most of the transcripts at
    `paths`, judged as `transcript_parser` judges each (its name and folders, else its first
    line); `claude` when none says."""
    hosts: Counter[str] = Counter()
    for path in paths:
        source = SourceTool.GEMINI_CLI if _is_document(path) else parser_for(str(path))
        if source is None:
            with path.open("rb") as fh:
                first = next((line for line in fh if line.strip()), None)
            source = None if first is None else source_of_first_line(first)
        if source in HOOK_HOSTS:
            hosts[HOOK_HOSTS[source]] += 1
    return hosts.most_common(1)[0][0] if hosts else "claude"


def _named_folder(data: bytes) -> str | None:
    """The first of the `directories` a Gemini CLI chat document names, if any."""
    try:
        document = json.loads(data)
    except ValueError:
        return None
    folders = document.get("directories") if isinstance(document, dict) else None
    first = folders[0] if isinstance(folders, list) and folders else None
    return first if isinstance(first, str) and first.startswith("/") else None


def _is_document(path: Path) -> bool:
    """Whether `path` is a Gemini CLI chat kept as one JSON document rather than JSONL."""
    return path.suffix == ".json" and path.name.startswith(GEMINI_DOCUMENT_PREFIX)


def _moved_value(value: Any, pattern: re.Pattern[str], root: str) -> Any:
    if isinstance(value, str):
        return pattern.sub(root, value)
    if isinstance(value, list):
        return [_moved_value(v, pattern, root) for v in value]
    if isinstance(value, dict):
        return {k: _moved_value(v, pattern, root) for k, v in value.items()}
    return value


def original_folder(events: Sequence[Event]) -> str:
    """The project's original folder: the commonest `cwd` of its events ("" when none has one)."""
    cwds = Counter(e.cwd for e in events if e.cwd)
    return max(sorted(cwds), key=lambda c: cwds[c]) if cwds else ""


def spellings(folder: str) -> list[str]:
    """The ways a command may write `folder`: as recorded, and for a Windows drive folder
    (`C:\\Users\\ann\\app`) also with forward slashes (`C:/Users/ann/app`) and as Git Bash
    writes it (`/c/Users/ann/app`)."""
    bash = posix_form(folder)
    if bash == folder or "\\" not in folder:
        return [folder]
    return [folder, folder.replace("\\", "/"), bash]


def relocate(events: Sequence[Event], root: str) -> list[Event]:
    """The events with the project's original folder (the commonest `cwd`) replaced by `root`
    wherever it appears (cwd, paths, commands, outputs); a `cwd` elsewhere becomes `root`."""
    original = original_folder(events)
    pattern = re.compile(
        "(?:" + "|".join(re.escape(s) for s in spellings(original.rstrip("/"))) + r")(?![\w.-])"
        if original
        else r"(?!)"
    )
    moved: list[Event] = []
    for event in events:
        cwd = pattern.sub(root, event.cwd) if event.cwd else root
        moved.append(
            dataclasses.replace(
                event,
                cwd=cwd if cwd.startswith(root) else root,
                content=_moved_value(event.content, pattern, root),
                file_paths=tuple(pattern.sub(root, p) for p in event.file_paths),
            )
        )
    return moved


# Called once per project after processing, while the service still runs:
# (client, fixture project name, project id, events appended).
Inspect = Callable[[MemoryClient, str, str, int], Awaitable[None]]
# Keeps part of a project's parsed events: (fixture project name, events) -> events to append.
Select = Callable[[str, list[Event]], list[Event]]


async def run_once(
    projects: list[tuple[str, list[Path]]],
    show: bool,
    *,
    settings_env: Mapping[str, str] | None = None,
    inspect: Inspect | None = None,
    select: Select | None = None,
    folder: Callable[[str], str] | None = None,
) -> tuple[int, float, float]:
    """Appends and processes every project in one fresh memory service; `settings_env` adds
    SQRL_* settings (e.g. the extractor), `inspect` looks at each project's result, `select`
    keeps part of a project's events (e.g. one session), `folder` names the project folder of
    a replay (e.g. one session's, after its fixture project: the folder's name is part of what
    the rules see), the replay's own name by default."""
    with tempfile.TemporaryDirectory() as tmp:
        async with memory_in_process(f"{tmp}/home", settings_env) as (client, _):
            total = 0
            append_s = process_s = 0.0
            for name, paths in projects:
                root = Path(tmp) / "projects" / name
                if folder is not None:
                    root = root / folder(name)
                root.mkdir(parents=True)
                project_id = str(root.resolve())
                await client.call(
                    client.stub.RegisterProject, pb.RegisterProjectRequest(root=project_id)
                )
                parsed = parse(paths, project_id)
                if select is not None:
                    parsed = select(name, parsed)
                events = [event_to_pb(e) for e in parsed]
                total += len(events)
                started = time.perf_counter()
                for start in range(0, len(events), 500):
                    await client.call(
                        client.stub.AppendEvents,
                        pb.AppendEventsRequest(
                            project_id=project_id, events=events[start : start + 500]
                        ),
                    )
                append_s += time.perf_counter() - started
                started = time.perf_counter()
                await client.call(
                    client.stub.ProcessNow, pb.ProcessNowRequest(project_id=project_id, drain=True)
                )
                process_s += time.perf_counter() - started
                # The instruction files the sessions showed, on disk as on the user's machine
                # (a hook reads them for their imports), once nothing else reads them first.
                write_shown_instructions(root, parsed)
                if show:
                    listed = await client.call(
                        client.stub.ListMemories,
                        pb.ListMemoriesRequest(project_id=project_id, page_size=500),
                    )
                    print(f"\n## {name}  ({len(events)} events, {listed.total_count} memories)")
                    for memory in sorted(listed.memories, key=lambda m: (m.type, m.key)):
                        print(f"- [{TYPE_NAMES[memory.type]}] {memory.key}: {memory.content}")
                if inspect is not None:
                    await inspect(client, name, project_id, len(events))
        return total, append_s, process_s


async def typed_memories(client: MemoryClient, project_id: str) -> list[tuple[str, str]]:
    """(type name, content) of the project's first 500 memories, as ListMemories gives them."""
    listed = await client.call(
        client.stub.ListMemories, pb.ListMemoriesRequest(project_id=project_id, page_size=500)
    )
    return [(TYPE_NAMES.get(m.type, "unknown"), m.content) for m in listed.memories]


async def views_markdown(client: MemoryClient, project_id: str) -> str:
    """The brief, style and pitfalls views of a project (full mode, default budgets)."""
    full = views_pb2.VIEW_MODE_FULL
    brief = await client.call(
        client.stub.GetProjectBriefView,
        pb.GetProjectBriefViewRequest(project_id=project_id, mode=full),
    )
    style = await client.call(
        client.stub.GetUserStyleView,
        pb.GetUserStyleViewRequest(project_id=project_id, mode=full),
    )
    pitfalls = await client.call(
        client.stub.GetPitfallsView, pb.GetPitfallsViewRequest(project_id=project_id)
    )
    parts = (brief.view.markdown, style.view.markdown, pitfalls.view.markdown)
    return "\n\n".join(part.strip() for part in parts)


async def session_start_text(client: MemoryClient, project_id: str, host: str = "claude") -> str:
    """What `sqrl hook <host> SessionStart` injects for the project ("" when it abstains): the
    gateway's own HookService answers the host's SessionStart call over this memory service,
    with the default `hooks.*` settings (budget included) but a longer deadline."""
    with tempfile.TemporaryDirectory() as run:
        defaults = HookSettings.from_settings(load_settings({"SQRL_HOME": f"{run}/home"}))
        hooks = HookService(
            GrpcMemoryBackend(client, lambda: [project_id]),
            dataclasses.replace(defaults, deadline_ms=HOOK_DEADLINE_MS),
            Path(run),
        )
        answer = await hooks.answer(
            host,
            "SessionStart",
            {"cwd": project_id, "session_id": "bench", "source": "startup"},
        )
    if not answer:
        return ""
    text: str = json.loads(answer)["hookSpecificOutput"]["additionalContext"]
    return text


async def _print_views(client: MemoryClient, name: str, project_id: str, events: int) -> None:
    print(f"\n### views: {name} ({events} events)\n")
    print(await views_markdown(client, project_id))


def main() -> int:
    configure_logging("bench", "warning", json=True)
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--fixtures", type=Path, default=DEFAULT_FIXTURES)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--memories", action="store_true", help="print the memories per project")
    parser.add_argument("--views", action="store_true", help="print the views per project")
    args = parser.parse_args()
    projects = list(fixture_projects(args.fixtures))
    try:
        results = [
            asyncio.run(
                run_once(
                    projects,
                    args.memories and i == 0,
                    inspect=_print_views if args.views and i == 0 else None,
                )
            )
            for i in range(args.runs)
        ]
    except UnknownTranscriptError as exc:
        print(f"fixture pipeline: {exc}", file=sys.stderr)
        return 2
    events = results[0][0]
    append_rates = [n / a for n, a, _ in results]
    process_rates = [n / p for n, _, p in results]
    print(f"\nfixture projects: {len(projects)}, events: {events}, runs: {args.runs}")
    print(f"{'measure':44} {'median':>10} {'min':>10} {'max':>10}")
    for label, rates in (
        ("AppendEvents via gRPC (events/s, batches of 500)", append_rates),
        ("processing, rules extractor (events/s)", process_rates),
    ):
        print(f"{label:44} {statistics.median(rates):10.0f} {min(rates):10.0f} {max(rates):10.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
