"""A command the user declined, then the same job done with another tool: the user's choice."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.declined_tools import declined_tools
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 4, 6, 9, 0, tzinfo=UTC)
NOW = datetime(2026, 4, 8, tzinfo=UTC)
PROJECT = "/home/dev/ledger"
DECLINED = (
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it "
    "was a file edit, the new_string was NOT written to the file). STOP what you are doing and "
    "wait for the user to tell you how to proceed."
)


def _decline(session: Session, command: str) -> None:
    """`command` asked for and declined by the user: it never ran."""
    session.run(command, None, DECLINED, call=False)


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
    session = Session(PROJECT, "s1", T0)
    _decline(session, declined)
    session.run(ran, 0, "done\n", call=False)
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
    session = Session(PROJECT, "s1", T0)
    for step, command in steps:
        if step == "decline":
            _decline(session, command)
        else:
            session.run(command, 0 if step == "ok" else 1, "output\n", call=False)

    assert declined_tools(session.events) == [], why
