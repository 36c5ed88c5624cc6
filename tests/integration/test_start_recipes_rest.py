"""A recipe the last session starts served unused rests at the start; the test command never does.

The real memory service, the gateway's hook service and its served log, over gRPC: made-up
projects in two ecosystems (a Python package linted with ruff, a Node package linted through
npm, where the session's checks make a routine that gives the lint command, so the start shows
no lint line of its own to rest). The first session runs the tests and the linter; the next
sessions start, touch nothing and end. Each start's lines are judged at the session start's channel, and once the lint recipe
was served unused at `UNUSED_STARTS` starts in a row, the next start leaves it out (it stays in
search) while the test command still opens it. A session that runs the linter again rewrites the
recipe, and the start after it shows it again.
"""

from __future__ import annotations

import pytest
from test_foresight_bench import ORIGINAL, Transcript
from test_served_outcomes import Stack, served_ids, stack

from squirrel.v1 import memory_service_pb2 as pb
from squirrel_gateway.hook_context import Injection
from squirrel_memory.outcomes.book import UNUSED_STARTS

__all__ = ["stack"]

# (test command, its output, lint command) of each ecosystem.
PYTHON = ("pytest -q", "3 passed in 0.1s", "ruff check src")
NODE = ("npm test", "Tests: 3 passed, 3 total", "npm run lint")
#: In the Node package the session's checks also make a routine (`npm test` → `npm run lint`)
#: that gives the lint command as it stands: the start shows it there, not on a line of its own
#: (`test_a_routine_gives_the_lint_command_the_start_does_not_repeat`), so the lint recipe that
#: rests is the Python package's.
ECOSYSTEMS = pytest.mark.parametrize("commands", [PYTHON], ids=["python"])


def working(session_id: str, day: int, commands: tuple[str, str, str]) -> Transcript:
    """A session that runs the tests and the linter, each twice, cleanly."""
    test, passed, lint = commands
    return (
        Transcript(session_id, day)
        .say("Run the tests and the linter.")
        .run(test, 0, passed)
        .run(f"{lint.replace('src', ORIGINAL + '/src')}", 0, "All checks passed!")
        .reply("The tests pass and the linter is clean.")
        .say("Once more before I commit.")
        .run(test, 0, passed)
        .run(lint, 0, "All checks passed!")
        .reply("Still clean.")
    )


def idle(session_id: str, day: int) -> Transcript:
    """A session that asks a question and runs nothing."""
    return Transcript(session_id, day).say("What does this project do?").reply("It serves.")


def recipes(shown: Injection) -> dict[str, str]:
    """The recipes a start showed: memory id → text."""
    return {s.memory_id: s.content for s in shown.served if s.type == "recipe" and s.memory_id}


def lint_only(shown: Injection, lint: str) -> list[str]:
    """The recipes a start showed that quote the lint command and no test command."""
    return [i for i, text in recipes(shown).items() if lint in text and "test" not in text]


@ECOSYSTEMS
async def test_a_recipe_served_unused_at_four_starts_rests_until_its_command_runs_again(
    stack: Stack, commands: tuple[str, str, str]
) -> None:
    await stack.learn(working("s1", 1, commands).events)
    first = await stack.start("s2")
    lint = lint_only(first, commands[2])
    tests = [i for i, text in recipes(first).items() if commands[0] in text]
    assert lint and tests, first.served
    await stack.learn(idle("s2", 2).events)
    for n in range(3, UNUSED_STARTS + 2):
        shown = await stack.start(f"s{n}")
        assert lint[0] in served_ids(shown, "recipe")
        await stack.learn(idle(f"s{n}", n).events)

    history = await stack.history(lint[0])
    assert [(o.outcome, o.channel) for o in history.outcomes] == [
        ("unused", "session_start")
    ] * UNUSED_STARTS
    rested = await stack.start(f"s{UNUSED_STARTS + 2}")
    assert lint[0] not in served_ids(rested, "recipe")
    assert tests[0] in served_ids(rested, "recipe")  # the test command never rests
    found = await stack.client.call(
        stack.client.stub.SearchMemory,
        pb.SearchMemoryRequest(project_id=stack.root, query="lint", top_k=5),
    )
    assert lint[0] in [r.memory_id for r in found.results]  # search still gives it

    # The linter runs again: the recipe is rewritten with that evidence and opens a start again.
    await stack.learn(working(f"s{UNUSED_STARTS + 2}", UNUSED_STARTS + 2, commands).events)
    again = await stack.start(f"s{UNUSED_STARTS + 3}")
    assert lint_only(again, commands[2]), again.served


async def test_a_routine_gives_the_lint_command_the_start_does_not_repeat(stack: Stack) -> None:
    await stack.learn(working("s1", 1, NODE).events)
    first = await stack.start("s2")
    shown = list(recipes(first).values())
    assert any("`npm test` → `npm run lint`" in text for text in shown), shown
    assert not lint_only(first, NODE[2]), "the routine's line already says how to lint"
    assert NODE[0] in shown[0]  # the test command still opens the commands
