"""Served memories get outcomes once their session is processed, and ranking learns from them:
the real memory service, the gateway's hook service and its served log, over gRPC."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from test_foresight_bench import ACTIVATED, NOT_FOUND, ORIGINAL, Transcript, session

from bench import fixture_pipeline, foresight_fixtures, foresight_service
from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.clients import MemoryClient
from squirrel_core.events import Event
from squirrel_gateway.hook_context import Injection
from squirrel_gateway.hook_hosts import HookInput
from squirrel_gateway.hook_service import HookService
from squirrel_gateway.memory_backend import GrpcMemoryBackend
from squirrel_gateway.served_log import ServedLog, grpc_sender


class Stack:
    """A memory service with one project, and the hook service recording what it served."""

    def __init__(self, client: MemoryClient, hooks: HookService, served: ServedLog, root: str):
        self.client = client
        self.hooks = hooks
        self.served = served
        self.root = root
        self.shown: list[Injection] = []

    async def start(self, session_id: str) -> Injection:
        payload = {"session_id": session_id, "cwd": self.root, "source": "startup"}
        await self.hooks.answer("claude", "SessionStart", payload)
        assert await self.served.flush()
        return self.shown[-1]

    async def learn(self, events: list[Event]) -> None:
        session = foresight_fixtures.sessions_of(fixture_pipeline.relocate(events, self.root))[0]
        await foresight_service.learn_session(self.client, self.root, session)

    async def history(self, memory_id: str) -> pb.GetMemoryHistoryResponse:
        return await self.client.call(
            self.client.stub.GetMemoryHistory,
            pb.GetMemoryHistoryRequest(project_id=self.root, memory_id=memory_id),
        )


@pytest.fixture
async def stack(tmp_path: Path) -> AsyncIterator[Stack]:
    root = tmp_path / "projects" / "app"
    root.mkdir(parents=True)
    project_id = str(root.resolve())
    (tmp_path / "run").mkdir()
    async with foresight_service.memory_service(tmp_path) as (client, hook_settings):
        await client.call(client.stub.RegisterProject, pb.RegisterProjectRequest(root=project_id))
        served = ServedLog(grpc_sender(lambda: client), tmp_path / "run")
        made: list[Stack] = []

        def observe(hook: HookInput, project: str, injection: Injection) -> None:
            made[0].shown.append(injection)
            served.observe(hook, project, injection)

        hooks = HookService(
            GrpcMemoryBackend(client, lambda: [project_id]).for_hooks(),
            hook_settings,
            tmp_path / "run",
            observer=observe,
        )
        made.append(Stack(client, hooks, served, project_id))
        try:
            yield made[0]
        finally:
            await hooks.close()
            await served.close()


def served_ids(injection: Injection, kind: str) -> list[str]:
    return [s.memory_id for s in injection.served if s.type == kind and s.memory_id]


def run_activated_after_not_found(session_id: str, n: int) -> Transcript:
    """A session whose test command fails as the first session's did, then works activated."""
    return (
        Transcript(session_id, n)
        .say("Run the tests please.")
        .run("pytest", 127, NOT_FOUND)
        .run(ACTIVATED, 0, "3 passed in 0.1s")
        .reply("Done.")
    )


async def test_a_pitfall_whose_error_happens_anyway_is_marked_missed(stack: Stack) -> None:
    await stack.learn(session("first", 1).events)
    shown = await stack.start("second")
    pitfalls = served_ids(shown, "pitfall")
    assert pitfalls, shown.served
    await stack.learn(run_activated_after_not_found("second", 2).events)

    history = await stack.history(pitfalls[0])
    assert [(o.session_id, o.outcome) for o in history.outcomes] == [("second", "missed")]
    assert not history.stale  # it was right, only not heeded


async def test_a_recipe_whose_command_now_fails_is_stale_and_leaves_the_hooks(
    stack: Stack,
) -> None:
    first = (
        Transcript("first", 1)
        .say("Check the code with the linter.")
        .run(f"ruff check {ORIGINAL}/src", 0, "All checks passed!")
        .run("ruff check src", 0, "All checks passed!")
        .reply("Clean.")
    )
    await stack.learn(first.events)
    shown = await stack.start("second")
    recipes = served_ids(shown, "recipe")
    assert recipes, shown.served
    broken = (
        Transcript("second", 2)
        .say("Lint it again.")
        .run("ruff check src", 2, "error: unrecognized subcommand 'check'")
        .run("ruff check src", 2, "error: unrecognized subcommand 'check'")
        .reply("The linter fails to start.")
    )
    await stack.learn(broken.events)

    history = await stack.history(recipes[0])
    assert [(o.session_id, o.outcome) for o in history.outcomes] == [("second", "contradicted")]
    assert history.stale
    # A search that leaves out stale memories drops it from its page; the total is the search's.
    asked = pb.SearchMemoryRequest(project_id=stack.root, query="ruff check src", top_k=10)
    plain = await stack.client.call(stack.client.stub.SearchMemory, asked)
    assert recipes[0] in [r.memory_id for r in plain.results]
    asked.leave_out_stale = True
    left = await stack.client.call(stack.client.stub.SearchMemory, asked)
    assert [r.memory_id for r in left.results] == [
        r.memory_id for r in plain.results if r.memory_id != recipes[0]
    ]
    assert [r.reason for r in left.results] == [
        r.reason for r in plain.results if r.memory_id != recipes[0]
    ]
    assert left.total_count == plain.total_count
    later = await stack.start("third")
    assert recipes[0] not in [s.memory_id for s in later.served]

    await stack.client.call(
        stack.client.stub.ConfirmMemory,
        pb.ConfirmMemoryRequest(project_id=stack.root, memory_id=recipes[0]),
    )
    assert not (await stack.history(recipes[0])).stale
    confirmed = await stack.start("fourth")
    assert recipes[0] in [s.memory_id for s in confirmed.served]


async def test_a_recipe_that_worked_is_used_and_stays(stack: Stack) -> None:
    await stack.learn(session("first", 1).events)
    shown = await stack.start("second")
    await stack.learn(session("second", 2).events)
    status = await stack.client.call(
        stack.client.stub.GetProcessingStatus,
        pb.GetProcessingStatusRequest(project_id=stack.root),
    )
    counts = status.projects[0].outcomes
    recorded = len({s.memory_id for s in shown.served if s.memory_id})
    assert (counts.sessions, counts.served, counts.pending) == (1, recorded, 0)
    assert counts.used >= 1 and counts.contradicted == 0 and counts.stale == 0
    later = await stack.start("third")
    assert set(served_ids(shown, "recipe")) <= set(served_ids(later, "recipe"))


async def test_a_pitfall_left_unused_twice_rests_until_its_trap_is_met_again(
    stack: Stack,
) -> None:
    await stack.learn(session("first", 1).events)
    pitfalls = served_ids(await stack.start("second"), "pitfall")
    assert pitfalls
    await stack.learn(Transcript("second", 2).say("What does the README say?").reply("X").events)
    assert pitfalls[0] in served_ids(await stack.start("third"), "pitfall")  # once: still live
    await stack.learn(Transcript("third", 3).say("Summarise the design.").reply("Y").events)

    assert pitfalls[0] not in served_ids(await stack.start("fourth"), "pitfall")
    everything = await stack.client.call(
        stack.client.stub.GetPitfallsView, pb.GetPitfallsViewRequest(project_id=stack.root)
    )
    assert pitfalls[0] in [i.memory_id for i in everything.view.items]
    # Its error met again in a session it was not served to: the occurrence rewrites it, and
    # the next session starts with it.
    await stack.learn(run_activated_after_not_found("fourth", 4).events)
    assert len((await stack.history(pitfalls[0])).versions) == 2
    assert pitfalls[0] in served_ids(await stack.start("fifth"), "pitfall")


async def test_a_brief_line_served_at_the_start_is_judged_by_its_session(stack: Stack) -> None:
    """A project fact the start shows names its memory: the session that ran what it says
    uses it, the session that did not leaves it unused."""
    remembered = await stack.client.call(
        stack.client.stub.Remember,
        pb.RememberRequest(
            project_id=stack.root,
            type=memory_pb2.MEMORY_TYPE_PROJECT_FACT,
            key="build",
            content="The docs site is built with `make docs`.",
        ),
    )
    fact = remembered.memory.memory_id
    assert fact in served_ids(await stack.start("first"), "project_fact")
    await stack.learn(Transcript("first", 1).say("What is in the README?").reply("X").events)
    assert fact in served_ids(await stack.start("second"), "project_fact")
    await stack.learn(
        Transcript("second", 2)
        .say("Build the docs.")
        .run("make docs", 0, "built")
        .reply("Done.")
        .events
    )
    history = await stack.history(fact)
    assert [(o.session_id, o.outcome) for o in history.outcomes] == [
        ("first", "unused"),
        ("second", "used"),
    ]
