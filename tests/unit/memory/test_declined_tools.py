"""A command the user declined, then the same job done with another tool: the user's choice."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.declined_tools import declined_tools
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import MemoryType, StoredEvent

T0 = datetime(2026, 4, 6, 9, 0, tzinfo=UTC)
NOW = datetime(2026, 4, 8, tzinfo=UTC)
PROJECT = "/home/dev/ledger"
DECLINED = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it "
    "was a file edit, the new_string was NOT written to the file). STOP what you are doing and "
    "wait for the user to tell you how to proceed."
)


class Session:
    def __init__(self) -> None:
        self.events: list[StoredEvent] = []

    def run(self, command: str, exit_code: int | None = 0, output: str = "") -> None:
        n = len(self.events) + 1
        self.events.append(
            StoredEvent(
                id=f"e{n:04d}",
                project_id=PROJECT,
                user_id="dev",
                source_tool="claude_code",
                session_id="s1",
                timestamp=T0 + timedelta(seconds=20 * n),
                event_type="command_run",
                content={
                    "command": command,
                    "tool_use_id": f"t{n}",
                    "exit_code": exit_code,
                    "is_error": exit_code != 0,
                    "output": output,
                },
                file_paths=(),
                hash=f"h{n}",
            )
        )

    def decline(self, command: str) -> None:
        self.run(command, None, DECLINED)


#: (ecosystem, declined command, the command that did the job instead, tools named)
SWAPS = [
    ("javascript-install", "npm install", "pnpm install", ("npm", "pnpm")),
    ("javascript-test", "npx jest", "npx vitest run", ("jest", "vitest")),
    ("python-install", "pip install -r requirements.txt", "uv sync", ("pip", "uv")),
    ("jvm-test", "mvn test", "./gradlew test", ("maven", "gradle")),
    ("javascript-package-manager-test", "npm test", "pnpm test", ("npm test", "pnpm test")),
]


@pytest.mark.parametrize(("name", "declined", "ran", "tools"), SWAPS, ids=[s[0] for s in SWAPS])
async def test_a_declined_tool_then_another_doing_the_job_is_a_style_note(
    name: str, declined: str, ran: str, tools: tuple[str, str]
) -> None:
    session = Session()
    session.decline(declined)
    session.run(ran, 0, "done\n")
    (episode,) = segment_episodes(session.events, now=NOW)

    found = await RulesExtractor().extract(episode, session.events)

    (style,) = [c for c in found if c.key.startswith("tool:instead-of:")]
    assert style.type == MemoryType.USER_STYLE and style.importance == 0.7
    assert f"`{ran}`" in style.content and f"`{declined}`" in style.content, name
    assert f"declined `{tools[0]}` and `{tools[1]}` did the job" in style.content


@pytest.mark.parametrize(
    ("steps", "why"),
    [
        ([("fail", "npm install"), ("ok", "pnpm install")], "a failure is no decline"),
        ([("decline", "npm install"), ("ok", "npm install --legacy-peer-deps")], "same tool"),
        ([("decline", "rspec"), ("ok", "bundle exec rspec")], "same tool through a wrapper"),
        ([("decline", "npm install"), ("ok", "npx vitest run")], "another purpose"),
        ([("decline", "npm install"), ("fail", "pnpm install")], "the other tool failed"),
        ([("decline", "npm install")], "nothing followed"),
        (
            [("decline", "npm install"), ("fail", "yarn install"), ("ok", "pnpm install")],
            "only the very next command of the purpose",
        ),
    ],
)
def test_no_choice_is_read_without_a_decline_and_a_different_tool_that_worked(
    steps: list[tuple[str, str]], why: str
) -> None:
    session = Session()
    for step, command in steps:
        if step == "decline":
            session.decline(command)
        else:
            session.run(command, 0 if step == "ok" else 1, "output\n")

    assert declined_tools(session.events) == [], why
