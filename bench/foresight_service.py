"""The replay's own memory service and project folder (bench/foresight.py): a fresh in-process
memory service and a client (rules extractor, no background passes, the hooks' settings with
their deadline raised), a session's events learnt as its end would learn them (appended,
processed, indexed), and the project's folder with the files its sessions read or wrote."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import re
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path, PurePosixPath

from bench import fixture_pipeline
from bench import foresight_split as split
from bench.foresight_fixtures import Project, Session
from bench.foresight_score import SessionFacts
from bench.instruction_files import write_shown_instructions
from bench.memory_in_process import memory_in_process
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.events import Event
from squirrel_core.wire import event_to_pb
from squirrel_gateway.hook_service import HookSettings

HOOK_DEADLINE_MS = 120_000
INDEX_WAIT_SECONDS = 300.0


@contextlib.asynccontextmanager
async def memory_service(
    tmp: Path, *, learn: bool = True, session_budget: int | None = None
) -> AsyncIterator[tuple[MemoryClient, HookSettings]]:
    """A fresh in-process memory service (rules extractor, no background passes) and a client;
    `learn`: ranking and hooks use the outcomes of served memories (`hooks.learn_from_outcomes`);
    `session_budget`: `hooks.session_budget` (its default when None)."""
    env = {
        "SQRL_EXTRACTOR_BACKEND": "rules",
        "SQRL_HOOKS_LEARN_FROM_OUTCOMES": "true" if learn else "false",
    }
    if session_budget is not None:
        env["SQRL_HOOKS_SESSION_BUDGET"] = str(session_budget)
    async with memory_in_process(tmp / "home", env) as (client, settings):
        hooks = HookSettings.from_settings(settings)
        yield client, dataclasses.replace(hooks, deadline_ms=HOOK_DEADLINE_MS)


async def wait_indexed(client: MemoryClient, project_id: str) -> None:
    """Until the embedder is loaded and the project's vector index holds every memory, so the
    hook answers rank as they would a moment later (and the same on every run)."""
    deadline = time.monotonic() + INDEX_WAIT_SECONDS
    while time.monotonic() < deadline:
        status = await client.call(client.stub.GetProcessingStatus, pb.GetProcessingStatusRequest())
        pending = sum(p.vectors_pending for p in status.projects if p.project_id == project_id)
        if not status.embedder_loading and pending == 0:
            return
        await asyncio.sleep(0.1)
    raise RuntimeError(f"the vector index of {project_id} did not catch up")


def project_folder(tmp: Path, project: Project) -> Path:
    """Makes the replay's folder of a fixture project under `tmp`, named as the project's folder
    was on the user's disk (the last part of its original folder, `fixture_pipeline.
    original_folder`), else as the fixture project (a Codex one without its `codex:` prefix)."""
    original = re.split(r"[\\/]", fixture_pipeline.original_folder(project.events).rstrip("/\\"))[
        -1
    ]
    own = project.name.removeprefix("codex:").removeprefix(split.KEYED)
    name = original if original not in ("", ".", "..") else own
    root = tmp / "projects" / (name.lstrip("-") or "project")
    root.mkdir(parents=True)
    return root


def materialise(root: Path, facts: SessionFacts, events: Sequence[Event] = ()) -> None:
    """Creates the project's files a session read or wrote, as they would be on the user's disk
    for the sessions after it: the prompt hook only counts a path a prompt names when the file
    exists, and the session-start hook reads the instruction files for their imports (a
    CLAUDE.md that imports AGENTS.md). Each instruction file `events` (the session's, moved
    into `root`) showed is written with the last text shown; the other files are created
    empty. Only names with an extension are files here (a folder a session searched is not
    one); paths outside the project are left alone."""
    write_shown_instructions(root, events, update=True)
    for path in sorted(facts.touched):
        relative = PurePosixPath(path)
        if relative.is_absolute() or ".." in relative.parts or not relative.suffix:
            continue
        target = root.joinpath(*relative.parts)
        with contextlib.suppress(OSError):  # a file where a folder is needed, or the reverse
            target.parent.mkdir(parents=True, exist_ok=True)
            target.touch(exist_ok=True)


async def learn_session(client: MemoryClient, project_id: str, session: Session) -> None:
    """Appends one session's events and processes them, as its end would."""
    wire = [event_to_pb(e) for e in session.events]
    for start in range(0, len(wire), 500):
        await client.call(
            client.stub.AppendEvents,
            pb.AppendEventsRequest(project_id=project_id, events=wire[start : start + 500]),
        )
    await client.call(
        client.stub.ProcessNow, pb.ProcessNowRequest(project_id=project_id, drain=True)
    )
    await wait_indexed(client, project_id)
