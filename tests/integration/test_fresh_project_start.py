"""A project seen for the first time: its repository and one session are all the evidence.
The session-start text (the gateway's hook over the real memory service) states the project's
test command and the user's top preference, whatever the ecosystem."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.events import Event, EventType, SourceTool
from squirrel_core.settings import Settings
from squirrel_core.wire import event_to_pb
from squirrel_gateway import hook_context
from squirrel_gateway.memory_backend import GrpcMemoryBackend
from squirrel_memory import server as memory_server
from tests.conftest import PATIENCE_SECONDS
from tests.integration.conftest import memory_client, running
from tests.unit.memory.repository.conftest import GO, RUBY, commit, git

DEADLINE_S = PATIENCE_SECONDS
START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)

GO_WITH_MISE: dict[str, str | bytes] = {
    **GO,
    "justfile": "",
    "mise.toml": '[tools]\ngo = "1.22"\n\n[tasks.test]\nrun = "go test -race ./..."\n',
}


def _session(root: Path, nudge: str) -> list[Event]:
    said = [
        (EventType.USER_MESSAGE, {"text": "Add retries to the webhook client."}),
        (EventType.ASSISTANT_RESPONSE, {"text": "I added a new RetryPolicy class and tests."}),
        (EventType.USER_MESSAGE, {"text": nudge}),
        (EventType.ASSISTANT_RESPONSE, {"text": "Done: the client now uses the helper."}),
    ]
    return [
        Event(
            SourceTool.CLAUDE_CODE,
            kind,
            START + timedelta(minutes=i),
            content,
            session_id="first",
            cwd=str(root),
        )
        for i, (kind, content) in enumerate(said)
    ]


@pytest.mark.parametrize(
    ("files", "command", "nudge"),
    [
        (GO_WITH_MISE, "mise run test", "reuse the existing backoff helper for that"),
        (RUBY, "bundle exec rspec", "don't overcomplicate it, there is existing logic for this"),
    ],
)
async def test_a_fresh_project_starts_with_its_test_command_and_the_users_habit(
    make_settings: Callable[..., Settings],
    tmp_path: Path,
    files: dict[str, str | bytes],
    command: str,
    nudge: str,
) -> None:
    root = (tmp_path / "app").resolve()
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    commit(root, files, message="initial")
    settings = make_settings(processor_min_events="1000000")
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(root)))
        deadline = time.monotonic() + DEADLINE_S
        while time.monotonic() < deadline:
            listed = await c.call(
                c.stub.ListMemories, pb.ListMemoriesRequest(project_id=str(root), page_size=500)
            )
            if any(m.key == "repo:recipe:test" for m in listed.memories):
                break
            await asyncio.sleep(0.1)
        else:
            pytest.fail("the repository's test recipe was never read")
        await c.call(
            c.stub.AppendEvents,
            pb.AppendEventsRequest(
                project_id=str(root), events=[event_to_pb(e) for e in _session(root, nudge)]
            ),
        )
        await c.call(c.stub.ProcessNow, pb.ProcessNowRequest(project_id=str(root), drain=True))
        backend = GrpcMemoryBackend(c, lambda: [str(root)])
        start = await hook_context.session_start(
            backend, project_id=str(root), user_id=None, budget=600
        )

    run_here = start.text.split("### How things are run here\n", 1)[1]
    assert run_here.startswith(f"- Run the tests with `{command}`")
    style = start.text.split("### Your coding style\n", 1)[1]
    assert style.startswith("- Noted once so far: The user asks for the simplest way")
