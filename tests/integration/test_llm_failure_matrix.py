"""The failure matrix through the real memory service: whatever way the model fails, the rules'
memories are written, the episode is parked for the model only, forced retries (1 or 10, past
every cap) keep it parked, and once the model works one forced retry writes its memories once."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.events import Event, EventType, SourceTool
from squirrel_core.settings import Settings
from squirrel_core.wire import event_to_pb
from squirrel_memory import processor_settings
from squirrel_memory import server as memory_server
from squirrel_memory.parking.letters import MAX_PARKED_ATTEMPTS
from tests.integration.conftest import memory_client, running
from tests.integration.llm_fakes.fake_openai import running_fake_openai
from tests.integration.test_llm_callers import FAKE_ENV, install_fake_clis

MODEL_KEY = "recipe:test"
"""The key of the one memory the fake model answers with."""

#: (row, backend, failing mode): the fake CLI's modes, or the fake server's for openai_compatible.
#: A hang and an HTTP 500 are retried in the pass (three times; the waits between tries are
#: shortened here, see `short_retry_waits`) and each try of a hang waits for the 5 s timeout, so
#: those rows are marked slow.
ROWS = [
    pytest.param("exit 1", "codex_cli", "exit1", id="exit 1"),
    pytest.param("not logged in", "claude_cli", "logged_out", id="not logged in"),
    pytest.param("garbage", "gemini_cli", "malformed", id="garbage"),
    pytest.param("prose", "claude_cli", "prose", id="prose"),
    pytest.param("hang", "gemini_cli", "timeout", id="hang", marks=pytest.mark.slow),
    pytest.param(
        "HTTP 500", "openai_compatible", "server_error", id="HTTP 500", marks=pytest.mark.slow
    ),
]

#: Forced retries (`sqrl process`) while the model still fails: one, and ten (past every cap).
#: A forced retry parks the episode again whatever way the model failed, so ten of them are run
#: for every row but the hang, whose tries wait out the 5 s timeout each: it is forced once.
CASES = [
    pytest.param(*row.values, forced, id=f"{row.id}-{forced}", marks=row.marks)
    for row in ROWS
    for forced in (1, 10)
    if not (row.id == "hang" and forced == 10)
]


def session(project: Path) -> list[Event]:
    start = datetime.now(UTC) - timedelta(days=1)
    lines = [
        (EventType.USER_MESSAGE, "From now on always use pnpm instead of npm in this repo."),
        (EventType.ASSISTANT_RESPONSE, "Switching the scripts to pnpm."),
        (EventType.ASSISTANT_RESPONSE, "Done: the scripts use pnpm."),
    ]
    return [
        Event(
            SourceTool.CLAUDE_CODE,
            kind,
            start + timedelta(minutes=i),
            {"text": text},
            session_id="s1",
            cwd=str(project),
        )
        for i, (kind, text) in enumerate(lines)
    ]


class Model:
    """Makes the chosen backend fail in one way, then work."""

    def __init__(self, backend: str, tmp_path: Path, server: Any) -> None:
        self.backend = backend
        self.server = server
        self.mode_file = tmp_path / "mode"
        self.bins = install_fake_clis(tmp_path / "bin")

    def fail(self, mode: str) -> None:
        if self.backend == "openai_compatible":
            self.server.mode = mode
        else:
            self.mode_file.write_text(mode)

    def fix(self) -> None:
        self.fail("tool_call" if self.backend == "openai_compatible" else "ok")

    def settings(self, make_settings: Callable[..., Settings]) -> dict[str, str]:
        if self.backend == "openai_compatible":
            return {
                "openai_compatible_base_url": self.server.url,
                "openai_compatible_model": "llama3.2",
            }
        cli = self.backend.removesuffix("_cli")
        return {f"{self.backend}_command": str(self.bins[cli])}


@contextmanager
def mode_file(path: Path) -> Iterator[None]:
    os.environ["FAKE_LLM_MODE_FILE"] = str(path)
    try:
        yield
    finally:
        os.environ.pop("FAKE_LLM_MODE_FILE", None)


@asynccontextmanager
async def service(settings: Settings) -> AsyncIterator[MemoryClient]:
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        yield c


async def memories(c: MemoryClient, project: Path) -> list[Any]:
    listed = await c.call(c.stub.ListMemories, pb.ListMemoriesRequest(project_id=str(project)))
    return list(listed.memories)


@pytest.fixture(autouse=True)
def short_retry_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pass still retries a retryable failure three times, without the real 1, 4 and 15 s
    between tries (the service's processor reads its delays when it is made)."""
    monkeypatch.setattr(processor_settings, "RETRY_DELAYS_SECONDS", (0.05, 0.05, 0.05))


@pytest.mark.parametrize(("row", "backend", "mode", "forced"), CASES)
async def test_a_failing_model_loses_nothing_and_recovers_once(
    make_settings: Callable[..., Settings],
    tmp_path: Path,
    row: str,
    backend: str,
    mode: str,
    forced: int,
) -> None:
    project = (tmp_path / "proj").resolve()
    project.mkdir()
    with running_fake_openai() as server, mode_file(tmp_path / "mode"):
        model = Model(backend, tmp_path, server)
        model.fail(mode)
        settings = make_settings(
            extractor_backend=backend,
            extractor_cli_env=",".join(FAKE_ENV),
            extractor_timeout_seconds="5",
            processor_min_events="1000000",
            **model.settings(make_settings),
        )
        async with service(settings) as c:
            await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(project)))
            await c.call(
                c.stub.AppendEvents,
                pb.AppendEventsRequest(
                    project_id=str(project), events=[event_to_pb(e) for e in session(project)]
                ),
            )
            first = await c.call(c.stub.ProcessNow, pb.ProcessNowRequest(drain=True), timeout=120)
            written = await memories(c, project)
            # The rules' memories are written; the model's part is parked, not lost.
            assert first.dead_lettered == 1
            assert written and all(m.written_by == "rules" for m in written)
            for _ in range(forced):  # `sqrl process` while the model still fails
                again = await c.call(c.stub.ProcessNow, pb.ProcessNowRequest(), timeout=120)
                assert again.dead_lettered == 1 and again.memories_added == 0
            status = await c.call(c.stub.GetProcessingStatus, pb.GetProcessingStatusRequest())
            [project_status] = status.projects
            assert project_status.dead_letters == 1 and project_status.events_unprocessed == 0
            [letter] = project_status.parked
            assert letter.attempts == 1 < MAX_PARKED_ATTEMPTS  # forced tries are not counted
        # A restart with the model fixed: one forced retry writes its memory, once.
        model.fix()
        async with service(settings) as c:
            recovered = await c.call(c.stub.ProcessNow, pb.ProcessNowRequest(), timeout=120)
            after = await c.call(c.stub.ProcessNow, pb.ProcessNowRequest(), timeout=120)
            status = await c.call(c.stub.GetProcessingStatus, pb.GetProcessingStatusRequest())
            final = await memories(c, project)
    assert recovered.memories_added == 1 and after.memories_added == 0
    assert status.projects[0].dead_letters == 0  # zero episodes lost, none still parked
    from_model = [m for m in final if m.written_by.startswith(backend)]
    assert [m.key for m in from_model] == [MODEL_KEY]
    assert {m.key for m in written} <= {m.key for m in final if m.written_by == "rules"}
