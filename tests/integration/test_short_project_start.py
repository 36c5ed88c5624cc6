"""A short project: one session, a repository that names no test task. The session-start text
(the gateway's hook over the real memory service) still states the test command the session
ran and the user's instruction, even one said once and never stressed."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.events import Event, EventType, SourceTool
from squirrel_core.settings import Settings
from squirrel_core.wire import event_to_pb
from squirrel_gateway import hook_context
from squirrel_gateway.memory_backend import GrpcMemoryBackend
from squirrel_memory import server as memory_server
from tests.integration.conftest import memory_client, running

START = datetime(2026, 11, 3, 9, 0, tzinfo=UTC)


def _session(root: Path, command: str, instruction: str) -> list[Event]:
    said: list[tuple[EventType, dict[str, Any]]] = [
        (EventType.USER_MESSAGE, {"text": instruction}),
        (EventType.USER_MESSAGE, {"text": "Fix the failing parser case."}),
        (EventType.ASSISTANT_RESPONSE, {"text": "I fixed the off-by-one in the tokenizer."}),
        (
            EventType.COMMAND_RUN,
            {"command": command, "exit_code": 0, "is_error": False, "output": "all passed"},
        ),
        (EventType.ASSISTANT_RESPONSE, {"text": "The tests pass."}),
    ]
    return [
        Event(
            SourceTool.CLAUDE_CODE,
            kind,
            START + timedelta(minutes=i),
            content,
            session_id="only",
            cwd=str(root),
        )
        for i, (kind, content) in enumerate(said)
    ]


@pytest.mark.parametrize(
    ("command", "instruction", "said"),
    [
        # Gleam: a plain directive said once, before the assistant did anything (importance 0.25)
        ("gleam test", "Don't add type annotations to private functions.", "type annotations"),
        # R: a workflow habit
        (
            "Rscript -e 'devtools::test()'",
            "Please keep going until every task in the list is done.",
            "keep going",
        ),
    ],
)
async def test_a_short_project_starts_with_its_test_command_and_the_users_instruction(
    make_settings: Callable[..., Settings],
    tmp_path: Path,
    command: str,
    instruction: str,
    said: str,
) -> None:
    root = (tmp_path / "lib").resolve()
    root.mkdir()
    (root / "README.md").write_text("# lib\n", encoding="utf-8")
    settings = make_settings(processor_min_events="1000000")
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(root)))
        await c.call(
            c.stub.AppendEvents,
            pb.AppendEventsRequest(
                project_id=str(root),
                events=[event_to_pb(e) for e in _session(root, command, instruction)],
            ),
        )
        await c.call(c.stub.ProcessNow, pb.ProcessNowRequest(project_id=str(root), drain=True))
        backend = GrpcMemoryBackend(c, lambda: [str(root)])
        start = await hook_context.session_start(
            backend, project_id=str(root), user_id=None, budget=600
        )

    head, style = start.text.split("### Your coding style\n", 1)
    assert f"`{command}`" in head  # as a fact of the project or as the way to run the tests
    assert said in style.splitlines()[0]
    assert "No coding-style preferences" not in start.text
