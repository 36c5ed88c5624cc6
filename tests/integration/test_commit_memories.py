"""Commits of a real git repository become the commit convention and a migration fact, through
the real memory service; each cites `commit:<sha>` on the wire and in the history."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.settings import Settings
from squirrel_core.wire import event_to_pb
from squirrel_ingest.parsers.git import GIT_LOG_ARGS, parse_git_log
from squirrel_memory import server as memory_server
from tests.integration.conftest import memory_client, running

SUBJECTS = [
    "feat(api): add order export endpoint (#12)",
    "fix(api): handle empty cart in checkout (#14)",
    "chore(deps): replace npm with pnpm (#15)",
    "docs(readme): document the dev server port (#17)",
    "refactor(cart): extract pricing into its own module (#18)",
    "test(api): add refund endpoint cases (#21)",
    "fix(ui): keep focus on the search box (#22)",
    "feat(search): support fuzzy matching (#25)",
    "fix(auth): correct token expiry check (#27)",
]


def _repository(root: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)

    git("init", "-q")
    git("config", "user.email", "dev@example.com")
    git("config", "user.name", "Dev")
    for i, subject in enumerate(SUBJECTS):
        (root / f"module_{i}.ts").write_text(f"export const n = {i};\n")
        git("add", ".")
        git("commit", "-q", "-m", subject)


async def test_commits_become_cited_memories(
    make_settings: Callable[..., Settings], tmp_path: Path
) -> None:
    root = (tmp_path / "shop").resolve()
    root.mkdir()
    _repository(root)
    log = subprocess.run(
        ["git", "-C", str(root), *GIT_LOG_ARGS, "HEAD"], capture_output=True, text=True, check=True
    ).stdout
    commits = parse_git_log(log, str(root))
    shas = {e.content["sha"] for e in commits}
    settings = make_settings(processor_min_events="1000000")
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(root)))
        appended = await c.call(
            c.stub.AppendEvents,
            pb.AppendEventsRequest(
                project_id=str(root), user_id="dev", events=[event_to_pb(e) for e in commits]
            ),
        )
        assert list(appended.rejected) == []
        await c.call(c.stub.ProcessNow, pb.ProcessNowRequest(project_id=str(root), drain=True))
        listed = await c.call(
            c.stub.ListMemories,
            pb.ListMemoriesRequest(
                project_id=str(root), types=[memory_pb2.MEMORY_TYPE_PROJECT_FACT], page_size=200
            ),
        )
        by_key = {m.key: m for m in listed.memories}
        convention = by_key["convention:commits"]
        history = await c.call(
            c.stub.GetMemoryHistory,
            pb.GetMemoryHistoryRequest(project_id=str(root), memory_id=convention.memory_id),
        )

    assert "`type(scope): summary`" in convention.content
    assert "`#123`" in convention.content and "9 of 9" in convention.content
    assert (
        convention.source_refs
        and {r.removeprefix("commit:") for r in convention.source_refs} <= shas
    )
    assert list(history.versions[-1].source_refs) == list(convention.source_refs)
    migration = by_key["migration:npm_to_pnpm"]
    assert migration.content.startswith("The project moved from npm to pnpm (commit ")
    assert len(migration.source_refs) == 1 and migration.source_refs[0].startswith("commit:")
