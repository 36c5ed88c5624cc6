"""On a laptop that shares with a team server, what the hooks served is recorded too: the local
memories get their outcomes, and a team memory's id (the local project holds no memory of it) is
never recorded, so it never waits for an outcome. The real memory service and the gateway's
served log over gRPC; the team's item is one a merged answer would show beside the local ones.
"""

from __future__ import annotations

from pathlib import Path

from test_foresight_bench import session
from test_served_outcomes import Stack, stack

from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.settings import load_settings
from squirrel_gateway.hook_context import Injection, Served
from squirrel_gateway.hook_hosts import HookInput, Host, Moment
from squirrel_gateway.served_log import ServedLog, served_log_for

__all__ = ["stack"]

#: An id of the team server's store: no memory of the laptop's project has it.
TEAM_ID = "mem_01TEAMSERVERMEMORY0000001"


def test_a_joined_laptop_keeps_a_served_log(tmp_path: Path) -> None:
    joined = load_settings({"SQRL_HOME": str(tmp_path), "SQRL_TEAM_SERVER": "team.example:7443"})
    assert joined.str_("team.server")
    assert isinstance(served_log_for(joined, lambda: None, tmp_path), ServedLog)  # type: ignore[arg-type, return-value]
    off = load_settings({"SQRL_HOME": str(tmp_path), "SQRL_HOOKS_RECORD_SERVED": "false"})
    assert served_log_for(off, lambda: None, tmp_path) is None  # type: ignore[arg-type, return-value]


async def _status(stack: Stack) -> pb.OutcomeSummary:
    status = await stack.client.call(
        stack.client.stub.GetProcessingStatus,
        pb.GetProcessingStatusRequest(project_id=stack.root),
    )
    return status.projects[0].outcomes


async def test_a_team_memorys_id_is_not_recorded_and_never_waits_for_an_outcome(
    stack: Stack,
) -> None:
    await stack.learn(session("first", 1).events)
    started = await stack.start("second")
    local = list(dict.fromkeys(s.memory_id for s in started.served if s.memory_id))
    assert local, started.served
    # A prompt's merged answer: a team pitfall beside a local memory the start already gave.
    team = Served("pitfall", "pitfall:cart", TEAM_ID, "The cart tests need `STRIPE_MOCK=1`.")
    mine = next(s for s in started.served if s.memory_id)
    hook = HookInput(
        Host.CLAUDE, "UserPromptSubmit", Moment.PROMPT, stack.root, "second", "", "", ""
    )
    stack.served.observe(hook, stack.root, Injection("notes", 20, 2, (team, mine)))
    assert await stack.served.flush()
    assert stack.served.pending == 0  # delivered: nothing left queued in the gateway

    alone = await stack.client.call(
        stack.client.stub.RecordServedMemories,
        pb.RecordServedMemoriesRequest(
            project_id=stack.root,
            session_id="second",
            memories=[pb.ServedMemory(memory_id=TEAM_ID, channel="prompt")],
        ),
    )
    assert alone.recorded == 0
    before = await _status(stack)
    assert (before.served, before.pending) == (len(local), len(local))

    await stack.learn(session("second", 2).events)
    after = await _status(stack)
    assert (after.served, after.pending) == (len(local), 0)
    history = await stack.history(local[0])
    assert [(o.session_id, o.channel) for o in history.outcomes] == [("second", "session_start")]
