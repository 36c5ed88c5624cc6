"""Sessions in linked git worktrees (live, Claude Code's own, removed) count for the repository."""

from __future__ import annotations

import json
import shutil
import sqlite3
import uuid
from collections.abc import Callable
from pathlib import Path

from squirrel.v1 import ingest_service_pb2 as ipb
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import IngestClient, open_channel
from squirrel_core.events import SourceTool
from squirrel_core.home import HomeLayout
from squirrel_core.projects import add_project
from squirrel_core.settings import Settings
from squirrel_core.store_paths import ProjectPaths
from squirrel_ingest import server as ingest_server
from squirrel_ingest.parsers import parse_file
from squirrel_memory import server as memory_server
from squirrel_memory.bootstrap import init_project_files
from squirrel_memory.extractors.activity import relative_path
from tests.gitrepos import git, make_repo
from tests.integration.conftest import memory_client, running, wait_for


def session_lines(cwd: Path, branch: str, name: str, turn: int) -> list[str]:
    """One exchange of a Claude Code session in `cwd`: a request, an edit, its result."""
    session = str(uuid.uuid5(uuid.NAMESPACE_URL, name))
    tool_id = f"toolu_{name}_{turn}"
    edited = f"{cwd}/src/{name}_{turn}.py"
    base = {
        "cwd": str(cwd),
        "sessionId": session,
        "version": "2.1.7",
        "gitBranch": branch,
        "isSidechain": False,
        "userType": "external",
    }
    stamp = f"2026-01-15T1{turn}:{len(name):02d}:00.000Z"
    records = [
        {
            **base,
            "type": "user",
            "uuid": str(uuid.uuid4()),
            "timestamp": stamp,
            "message": {"role": "user", "content": f"add {name} module part {turn}"},
        },
        {
            **base,
            "type": "assistant",
            "uuid": str(uuid.uuid4()),
            "timestamp": stamp,
            "message": {
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": tool_id,
                        "name": "Write",
                        "input": {"file_path": edited, "content": f"X = {turn}\n"},
                    }
                ],
            },
        },
        {
            **base,
            "type": "user",
            "uuid": str(uuid.uuid4()),
            "timestamp": stamp,
            "message": {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": tool_id, "content": f"wrote {edited}"}
                ],
            },
        },
    ]
    return [json.dumps(r) + "\n" for r in records]


def write_session(claude: Path, cwd: Path, branch: str, name: str, turn: int) -> Path:
    folder = claude / ("-" + str(cwd).strip("/").replace("/", "-").replace(".", "-"))
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{name}.jsonl"
    with target.open("a") as fh:
        fh.writelines(session_lines(cwd, branch, name, turn))
    return target


async def test_sessions_in_worktrees_land_in_the_main_repository(
    make_settings: Callable[..., Settings], tmp_path: Path
) -> None:
    repo = make_repo(tmp_path / "app")
    shelf = tmp_path / "app-worktrees"
    live, short, early = shelf / "feature", shelf / "short", shelf / "early"
    inside = repo / ".claude" / "worktrees" / "brave-fox"
    for path, branch in ((live, "feature"), (short, "short"), (early, "early"), (inside, "fox")):
        git(repo, "worktree", "add", "-q", "-b", branch, str(path))
    claude = tmp_path / "claude-projects"
    transcripts = [
        write_session(claude, live, "feature", "live", 1),
        write_session(claude, inside / "src", "fox", "inside", 1),
        write_session(claude, short, "short", "short", 1),
        write_session(claude, early, "early", "early", 1),
    ]
    git(repo, "worktree", "remove", "--force", str(early))  # gone before Squirrel ever looked
    settings = make_settings(
        ingest_claude_roots=str(claude),
        ingest_codex_roots=str(tmp_path / "none-codex"),
        ingest_gemini_roots=str(tmp_path / "none-gemini"),
        ingest_cursor_roots=str(tmp_path / "none-cursor"),
        ingest_batch_age_seconds="0.05",
        ingest_rescan_seconds="3600",
        ingest_git_poll_seconds="3600",
        processor_min_events="1000000",
    )
    layout = HomeLayout(settings.home).ensure()
    init_project_files(repo)
    token = layout.token

    async with (
        running("memory", memory_server.setup, settings) as mem,
        running("ingest", ingest_server.setup, settings) as ing,
    ):
        client = IngestClient(open_channel(f"127.0.0.1:{ing.port}"), token.read_text())

        async def status() -> ipb.GetIngestStatusResponse:
            return await client.call(client.stub.GetIngestStatus, ipb.GetIngestStatusRequest())

        async def events_total() -> int:
            async with memory_client(mem, settings) as c:
                reply = await c.call(c.stub.GetProcessingStatus, pb.GetProcessingStatusRequest())
                return sum(int(p.events_total) for p in reply.projects)

        async def backlog_unregistered() -> bool:
            return sum((await status()).unregistered_projects.values()) > 0

        await wait_for(backlog_unregistered)  # read before the repository was registered

        add_project(layout.projects, repo)  # the running service follows the registry
        expected = sum(
            len(parse_file(SourceTool.CLAUDE_CODE, str(t), t.read_bytes()).events)
            for t in transcripts
        )

        async def all_landed() -> bool:
            return await events_total() == expected

        await wait_for(all_landed)

        git(repo, "worktree", "remove", "--force", str(short))  # used, then removed
        git(repo, "branch", "-D", "short")
        shutil.rmtree(short, ignore_errors=True)
        transcripts.append(write_session(claude, short, "short", "short", 2))
        expected = sum(
            len(parse_file(SourceTool.CLAUDE_CODE, str(t), t.read_bytes()).events)
            for t in set(transcripts)
        )
        await wait_for(all_landed)
        final = await status()
        await client.close()

    assert dict(final.unregistered_projects) == {}
    with sqlite3.connect(f"file:{ProjectPaths(repo).data_db}?mode=ro", uri=True) as db:
        rows = db.execute("SELECT project_id, file_paths, content_json FROM events").fetchall()
    assert len(rows) == expected
    assert {project for project, _, _ in rows} == {str(repo)}
    paths = [p for _, file_paths, _ in rows for p in json.loads(file_paths)]
    relative = sorted({relative_path(p, str(repo)) for p in paths})
    assert relative == [
        "src/early_1.py",
        "src/inside_1.py",
        "src/live_1.py",
        "src/short_1.py",
        "src/short_2.py",
    ]
    worktree_roots = (str(live), str(short), str(early), str(inside))
    assert not any(root in content for _, _, content in rows for root in worktree_roots)
