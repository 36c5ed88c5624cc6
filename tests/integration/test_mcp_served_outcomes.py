"""Memories a session read through Squirrel's MCP tools get outcomes too: the answer is found in
the session's transcript when it is processed (the real MCP server and SDK client, the gateway's
gRPC backend, the real memory service)."""

from __future__ import annotations

from typing import Any

import test_served_outcomes
from mcp import Client
from test_foresight_bench import ACTIVATED, Transcript, session
from test_served_outcomes import Stack

from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.events import EventType, Origin
from squirrel_gateway.memory_backend import GrpcMemoryBackend
from squirrel_gateway.tools import build_mcp_server

served_stack = test_served_outcomes.stack
"""The `stack` fixture of those tests, under this name: a memory service with one project."""


async def mcp_answer(stack: Stack, tool: str, args: dict[str, Any]) -> str:
    backend = GrpcMemoryBackend(stack.client, lambda: [stack.root])
    server = build_mcp_server(backend, allow_writes=False)
    async with Client(server) as client:
        result = await client.call_tool(tool, {"project_root": stack.root, **args})
    block = result.content[0]
    assert not result.is_error and block.type == "text"
    return block.text


def tool_result(transcript: Transcript, tool: str, output: str, *, error: bool = False) -> None:
    content = {"tool": tool, "tool_use_id": f"t{len(transcript.events)}", "output": output}
    transcript._add(EventType.TOOL_RESULT, {**content, "is_error": error}, Origin.TOOL_RESULT)


async def outcomes_of(stack: Stack, session_id: str) -> dict[str, str]:
    listed = await stack.client.call(
        stack.client.stub.ListMemories, pb.ListMemoriesRequest(project_id=stack.root, page_size=500)
    )
    found: dict[str, str] = {}
    for item in listed.memories:
        for outcome in (await stack.history(item.memory_id)).outcomes:
            if outcome.session_id == session_id:
                found[item.memory_id] = outcome.outcome
    return found


async def test_what_a_view_and_a_task_context_showed_is_judged_with_the_session(
    served_stack: Stack,
) -> None:
    stack = served_stack
    await stack.learn(session("first", 1).events)
    pitfalls = await mcp_answer(stack, "get_pitfalls_view", {})
    task = await mcp_answer(stack, "get_task_context", {"task_description": "Run the tests"})
    second = Transcript("second", 2).say("Run the tests please.")
    tool_result(second, "mcp__squirrel__get_pitfalls_view", pitfalls)
    tool_result(second, "mcp__squirrel__get_task_context", task)
    second.run(ACTIVATED, 0, "3 passed in 0.1s").reply("Done.")
    await stack.learn(second.events)

    listed = await stack.client.call(
        stack.client.stub.ListMemories, pb.ListMemoriesRequest(project_id=stack.root)
    )
    pitfall = next(m for m in listed.memories if m.type == memory_pb2.MEMORY_TYPE_PITFALL)
    assert pitfall.content.split("`")[1] in pitfalls  # the view showed it
    judged = await outcomes_of(stack, "second")
    assert judged[pitfall.memory_id] == "used", (pitfalls, judged)
    shown = {line for answer in (pitfalls, task) for line in answer.splitlines()}
    status = await stack.client.call(
        stack.client.stub.GetProcessingStatus,
        pb.GetProcessingStatusRequest(project_id=stack.root),
    )
    counts = status.projects[0].outcomes
    assert (counts.sessions, counts.pending) == (1, 0)
    assert counts.served == len([line for line in shown if line.startswith("- ")]), shown


async def test_search_results_are_judged_and_other_tools_output_is_not(served_stack: Stack) -> None:
    stack = served_stack
    await stack.learn(session("first", 1).events)
    found = await mcp_answer(stack, "search_project_memory", {"query": "pytest"})
    second = Transcript("second", 2).say("What do we know about the tests?")
    tool_result(second, "Bash", found)  # the same text, printed by another tool
    tool_result(second, "mcp__squirrel__search_project_memory", found, error=True)
    second.reply("Nothing.")
    await stack.learn(second.events)
    assert await outcomes_of(stack, "second") == {}

    third = Transcript("third", 3).say("What do we know about the tests?")
    tool_result(third, "mcp__squirrel__search_project_memory", found)
    third.reply("That they run with pytest.")
    await stack.learn(third.events)
    judged = await outcomes_of(stack, "third")
    shown = [line for line in found.splitlines() if line.startswith("- [")]
    assert shown and len(judged) == len(shown), found
