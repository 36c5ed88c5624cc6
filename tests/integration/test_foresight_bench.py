"""The foresight replay end to end on a made-up two-session project: the real memory service
(rules extraction, views, task context) and the gateway's hook service over gRPC."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench import foresight, foresight_fixtures, foresight_table
from squirrel_core.events import Event, EventType, Origin, SourceTool

ORIGINAL = "/home/dev/app"
NOT_FOUND = "/bin/bash: line 1: pytest: command not found"
ACTIVATED = "source .venv/bin/activate && pytest"


class Transcript:
    def __init__(self, session_id: str, day: int) -> None:
        self.session_id = session_id
        self.start = datetime(2026, 3, day, 9, 0, tzinfo=UTC)
        self.events: list[Event] = []

    def _add(self, kind: EventType, content: dict[str, Any], origin: Origin) -> Transcript:
        self.events.append(
            Event(
                source_tool=SourceTool.CLAUDE_CODE,
                event_type=kind,
                timestamp=self.start + timedelta(minutes=len(self.events)),
                content=content,
                session_id=self.session_id,
                cwd=ORIGINAL,
                origin=origin,
            )
        )
        return self

    def say(self, text: str) -> Transcript:
        return self._add(EventType.USER_MESSAGE, {"text": text}, Origin.TYPED)

    def reply(self, text: str) -> Transcript:
        return self._add(EventType.ASSISTANT_RESPONSE, {"text": text}, Origin.ASSISTANT)

    def run(self, command: str, code: int = 0, output: str = "ok") -> Transcript:
        content = {"command": command, "exit_code": code, "is_error": code != 0, "output": output}
        return self._add(EventType.COMMAND_RUN, content, Origin.ASSISTANT)


def session(session_id: str, day: int) -> Transcript:
    return (
        Transcript(session_id, day)
        .say("Please run the tests and the linter.")
        .run("pytest", 127, NOT_FOUND)
        .run(ACTIVATED, 0, "3 passed in 0.1s")
        .run(f"ruff check {ORIGINAL}/src", 0, "All checks passed!")
        .reply("The tests pass and the linter is clean.")
        .say("Always use uv instead of pip.")
        .run("ruff check src", 0, "All checks passed!")
        .reply("Noted.")
    )


async def test_the_second_session_is_scored_against_what_the_first_taught(
    tmp_path: Path,
) -> None:
    events = (*session("first", 1).events, *session("second", 2).events)

    result = await foresight.replay(foresight_fixtures.Project("made-up", events), tmp_path)

    assert (result.name, result.sessions, result.events) == ("made-up", 2, len(events))
    assert result.memories > 0
    tally = result.tally
    assert tally.sessions == 1  # the first session has nothing before it
    assert (tally.failures, tally.warned, tally.fix_right) == (1, 1, 1), tally.misses
    assert tally.recipes == 2  # the activated `pytest` run and `ruff check`
    assert tally.recipes_served == 2, tally.misses
    assert (tally.instructions, tally.instructions_served) == (1, 1), tally.misses
    assert tally.start_tokens > 0 and tally.prompts == 2
    # The pitfall's error and the instruction came back anyway (missed); the test command and the
    # lint recipe were followed (used). The test command is served as its memory, at the session
    # start and again for a prompt: one item, not a brief line beside the memory. No "Tests are
    # written with pytest." beside it: known only from running it, it would say nothing more. The
    # language is not served at the start: the repository shows it at a glance.
    outcomes = (tally.used, tally.missed, tally.contradicted, tally.unused)
    assert (tally.served, outcomes) == (4, (2, 2, 0, 0))
    table = foresight_table.table([result])
    assert "all (pooled)" in table and "made-up" in table


async def test_a_subagents_transcript_alone_is_learnt_from_but_not_scored(
    tmp_path: Path,
) -> None:
    # A subagent's transcript whose own session is not there (the host's warm-up of its search
    # agent): no hook runs for a subagent, so nothing is asked for it; what it ran is learnt.
    helper = Transcript("helper", 2).reply("I'm ready to help you search the code.")
    helper.run(ACTIVATED, 0, "3 passed in 0.1s")
    helper.events = [dataclasses.replace(e, sidechain=True) for e in helper.events]
    events = (*session("first", 1).events, *helper.events, *session("second", 3).events)

    result = await foresight.replay(foresight_fixtures.Project("made-up", events), tmp_path)

    assert result.sessions == 3
    assert result.tally.sessions == 1  # the second only: the first has nothing before it
    assert result.tally.prompts == 2
    # With a prompt of its own, the same transcript is the main thread's: it is scored.
    mixed = Transcript("helper", 2).say("Run the tests.").run(ACTIVATED, 0, "3 passed in 0.1s")
    mixed.events[1:] = [dataclasses.replace(e, sidechain=True) for e in mixed.events[1:]]
    events = (*session("first", 1).events, *mixed.events, *session("second", 3).events)

    again = await foresight.replay(foresight_fixtures.Project("made-up", events), tmp_path / "b")
    assert again.tally.sessions == 2
