"""Who said it, per fixture project: user-role events by origin, and where user_style came from.

For every fixture project (each Claude `real_projects/<folder>`, and each of the other fixture
folders of Claude Code, Codex and Gemini CLI), the transcripts are parsed, appended to a real
memory service and processed with the offline `rules` extractor. Prints one table:
- user-role events by origin (everything the parsers made that the assistant or git did not say),
- user_style memories by the origin of their source events, with this code ("after") and, with
  `--baseline REF`, with the code of that git ref ("before"), run in a temporary worktree.

A baseline's events carry no origin if it predates them; its memories are traced back to records
by timestamp and text and take the origin this code gives those records (`mixed:` when one old
event became several, e.g. a reminder and the words typed after it).

Usage: python bench/speaker_origins.py [--fixtures DIR] [--baseline REF]
(DIR defaults to ../shared/fixtures.)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_FIXTURES = ROOT.parent / "shared" / "fixtures"
SOURCES = {"claude": "claude_code", "codex": "codex", "gemini": "gemini_cli"}
#: Origins of what the assistant or git said; everything else came in as a user-role record.
NOT_USER_ROLE = frozenset({"assistant", "git"})
#: Event types of what the assistant did (tool habits are counted from these).
_ACTIONS = frozenset({"command_run", "test_run", "tool_call", "code_change"})
PACKAGE_DIRS = ("protos", "core", "services/ingest", "services/memory", "services/gateway", "cli")


def fixture_projects(base: Path) -> Iterator[tuple[str, str, list[Path]]]:
    """(name, source tool, transcripts) per fixture project under `base`."""
    for tool, source in SOURCES.items():
        top = base / tool
        if not top.is_dir():
            continue
        for folder in sorted(p for p in top.iterdir() if p.is_dir()):
            groups = (
                sorted(p for p in folder.iterdir() if p.is_dir())
                if folder.name == "claude-code-log"
                else [folder]
            )
            for group in groups:
                if group.name == "real_projects":
                    for project in sorted(p for p in group.iterdir() if p.is_dir()):
                        yield f"{tool}/{project.name}", source, _files(project)
                else:
                    yield f"{tool}/{group.name}", source, _files(group)


def _files(folder: Path) -> list[Path]:
    return sorted(
        p
        for p in folder.rglob("*")
        if p.suffix in (".jsonl", ".json")
        and p.stat().st_size > 0
        and p.name != "logs.json"
        and not p.name.endswith(".meta.json")
    )


def parse(source: str, paths: list[Path], cwd: str) -> list[Any]:
    """Every event of `paths` as the code on `sys.path` parses it, moved into `cwd`."""
    from squirrel_core.events import Event, SourceTool  # noqa: PLC0415
    from squirrel_ingest.parsers import parse_file  # noqa: PLC0415

    events: list[Any] = []
    for path in paths:
        tool = SourceTool(source)
        if tool is not SourceTool.GEMINI_CLI and path.suffix == ".json":
            continue
        for event in parse_file(tool, str(path), path.read_bytes()).events:
            fields = {f: getattr(event, f) for f in event.__dataclass_fields__}
            fields["cwd"] = cwd
            events.append(Event(**fields))
    return events


def _origin_of(event: Any) -> str:
    origin = getattr(event, "origin", None)
    if origin:
        return str(origin)
    return "unclassified" if str(event.event_type) == "user_message" else "assistant"


async def run(fixtures: Path) -> dict[str, Any]:
    """Per project: user-role events by origin and the sources of every user_style memory."""
    from bench.memory_in_process import memory_in_process  # noqa: PLC0415
    from squirrel.v1 import memory_service_pb2 as pb  # noqa: PLC0415
    from squirrel_core.logs import configure_logging  # noqa: PLC0415
    from squirrel_core.wire import event_to_pb  # noqa: PLC0415

    configure_logging("bench", "warning", json=True)
    found: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        async with memory_in_process(f"{tmp}/home") as (client, _):
            for name, source, paths in fixture_projects(fixtures):
                root = Path(tmp) / "projects" / name.replace("/", "_")
                root.mkdir(parents=True)
                project_id = str(root.resolve())
                await client.call(
                    client.stub.RegisterProject, pb.RegisterProjectRequest(root=project_id)
                )
                events = parse(source, paths, project_id)
                roles = Counter(o for o in map(_origin_of, events) if o not in NOT_USER_ROLE)
                wire = [event_to_pb(e) for e in events]
                for start in range(0, len(wire), 500):
                    await client.call(
                        client.stub.AppendEvents,
                        pb.AppendEventsRequest(
                            project_id=project_id, events=wire[start : start + 500]
                        ),
                    )
                await client.call(
                    client.stub.ProcessNow, pb.ProcessNowRequest(project_id=project_id, drain=True)
                )
                found[name] = {"user_role": dict(roles), "user_style": _user_style(root)}
    return found


def _user_style(root: Path) -> list[dict[str, Any]]:
    """Each live user_style memory of the project with its source events (time, text, origin)."""
    conn = sqlite3.connect(root / ".ctx" / "data.db")
    try:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(events)")}
        origin = "origin" if "origin" in columns else "''"
        memories = []
        for content, ids in conn.execute(
            "SELECT content, source_event_ids FROM memory_items "
            "WHERE type = 'user_style' AND deleted = 0 ORDER BY key"
        ):
            sources = []
            for event_id in json.loads(ids):
                row = conn.execute(
                    f"SELECT timestamp, content_json, {origin}, event_type FROM events "
                    "WHERE id = ?",
                    (event_id,),
                ).fetchone()
                if row is not None:
                    text = json.loads(row[1]).get("text")
                    sources.append(
                        {"timestamp": row[0], "text": text, "origin": row[2] or "", "type": row[3]}
                    )
            memories.append({"content": content, "sources": sources})
        return memories
    finally:
        conn.close()


def _baseline(ref: str, fixtures: Path) -> dict[str, Any]:
    """`run` with the code of git ref `ref`, in a temporary worktree and a child process."""
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "baseline"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree), ref],
            check=True,
        )
        try:
            env = dict(os.environ)
            env["PYTHONPATH"] = os.pathsep.join(str(tree / d) for d in PACKAGE_DIRS)
            done = subprocess.run(
                [
                    sys.executable,
                    str(Path(__file__).resolve()),
                    "--emit",
                    "--fixtures",
                    str(fixtures),
                ],
                cwd=tree,
                env=env,
                check=True,
                capture_output=True,
                text=True,
            )
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=True
            )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _record_origins(fixtures: Path) -> dict[str, dict[tuple[str, str, str], set[str]]]:
    """Per project: (event type, timestamp, text) and (event type, timestamp, "") of every
    user-role event → origins, as this code classifies them."""
    from squirrel_memory.storage.formats import to_db_time  # noqa: PLC0415

    table: dict[str, dict[tuple[str, str, str], set[str]]] = {}
    for name, source, paths in fixture_projects(fixtures):
        index: dict[tuple[str, str, str], set[str]] = {}
        for event in parse(source, paths, "/"):
            origin = _origin_of(event)
            if origin in NOT_USER_ROLE:
                continue
            kind, stamp = str(event.event_type), to_db_time(event.timestamp)
            text = event.content.get("text")
            index.setdefault((kind, stamp, text if isinstance(text, str) else ""), set()).add(
                origin
            )
            index.setdefault((kind, stamp, ""), set()).add(origin)
        table[name] = index
    return table


def _style_origins(
    memories: list[dict[str, Any]], index: dict[tuple[str, str, str], set[str]] | None
) -> Counter[str]:
    """How many user_style memories came from each origin (a memory counts once per origin)."""
    counts: Counter[str] = Counter()
    for memory in memories:
        origins: set[str] = set()
        for source in memory["sources"]:
            if source["origin"] and index is None:
                origins.add(source["origin"])
                continue
            key = (source["type"], source["timestamp"])
            exact = (index or {}).get((*key, source["text"] or ""))
            near = (index or {}).get((*key, ""), set())
            if exact and len(exact) == 1:
                origins.update(exact)
            elif near:
                origins.add(
                    "mixed:" + "+".join(sorted(near)) if len(near) > 1 else next(iter(near))
                )
            else:
                origins.add(source["origin"] or "unmatched")
        if all(s["type"] in _ACTIONS for s in memory["sources"]) and memory["sources"]:
            origins = {f"{o} (commands)" for o in origins}
        for origin in origins or {"no source"}:
            counts[origin] += 1
    return counts


def _cell(counts: Counter[str] | dict[str, int]) -> str:
    items = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return ", ".join(f"{k} {v}" for k, v in items) or "–"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--fixtures", type=Path, default=DEFAULT_FIXTURES)
    parser.add_argument("--baseline", help="git ref whose code gives the 'before' column")
    parser.add_argument("--emit", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.fixtures = args.fixtures.resolve()
    if args.emit:
        print(json.dumps(asyncio.run(run(args.fixtures))))
        return
    after = asyncio.run(run(args.fixtures))
    before = _baseline(args.baseline, args.fixtures) if args.baseline else None
    index = _record_origins(args.fixtures) if before is not None else None
    header = ["project", "events by origin (all but assistant and git)", "user_style after"]
    if before is not None:
        header.append(f"user_style before ({args.baseline})")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for name, found in after.items():
        row = [name, _cell(found["user_role"]), _cell(_style_origins(found["user_style"], None))]
        if before is not None and index is not None:
            old = before.get(name, {}).get("user_style", [])
            row.append(_cell(_style_origins(old, index.get(name, {}))))
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
