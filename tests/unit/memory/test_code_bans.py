"""A ban over a kind of code ("no unwrap or panic in production code"), said in a message or
written as a line of a custom command's text, is a standing rule; a task about such code, a
statement of how it is, a question, a code block's line or the assistant's words are none."""

from __future__ import annotations

from datetime import timedelta

import pytest

from squirrel_core.host_files import SKILL_TAG, WRITTEN_TAG
from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.code_bans import code_kind_ban, command_bans
from squirrel_memory.extractors.firmness import STANDING_TAG
from squirrel_memory.extractors.preferences import stated_preferences
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import MemoryType
from tests.unit.memory.test_command_steps import _ran
from tests.unit.memory.test_read_instructions import _skill
from tests.unit.memory.test_rules_extractor import T0


@pytest.mark.parametrize(
    ("clause", "ban"),
    [
        ("No unwrap or panic in production code.", "No unwrap or panic in production code."),
        ("no console.log in prod code", "No console.log in prod code."),
        ("Zero print() calls in production code, please", "No print() calls in production code."),
        ("no `any` types in non-test code", "No `any` types in non-test code."),
        ("**no `!!`** in production code", "No `!!` in production code."),
    ],
)
def test_a_ban_over_a_kind_of_code_is_read(clause: str, ban: str) -> None:
    assert code_kind_ban(clause) == ban


@pytest.mark.parametrize(
    "clause",
    [
        "remove the unwrap calls in production code",
        "there is no logging in production code yet",
        "no unwrap in production code for this PR",
        "no need to touch production code",
        "no changes in production code",
        "no downtime in production",
        "count the TODOs in production code",
    ],
)
def test_a_task_a_statement_or_a_ban_of_the_moment_is_none(clause: str) -> None:
    assert code_kind_ban(clause) is None


@pytest.mark.parametrize(
    "message",
    ["no console.log in production code", "No unwrap or panic in production code."],
)
@pytest.mark.parametrize("after", [False, True])
def test_said_in_a_message_it_is_standing(message: str, after: bool) -> None:
    # answering the assistant's work, its "No" opens the ban, not a correction
    (found,) = stated_preferences(message, after_assistant_action=after)
    assert found.standing
    assert found.content == message[:1].upper() + message[1:].rstrip(".") + "."


@pytest.mark.parametrize(
    "message",
    [
        "replace the print statements in production code with the logger",
        "Is there any console.log left in production code?",
        "no unwrap in production code for this PR, we'll relax it later",
        "> no unwrap or panic in production code",
    ],
)
def test_a_one_off_about_production_code_is_no_standing_rule(message: str) -> None:
    found = stated_preferences(message, after_assistant_action=False)
    assert not any(p.standing for p in found)


GATES = """# Smart Commit

## Quality Gates
- Formatting: `cargo fmt --all`
- Production code safety scan (no unwrap/panic in production code)
- **Null safety**: no `!!` in production code

## Failure Handling
- no TODO in production code is fixed by the todo-fixer agent

```
FAIL: no dbg! in production code (src/io.rs:12)
```
"""


def test_a_commands_text_gives_its_bans_said_of_the_command() -> None:
    bans = command_bans(_ran("/commit", GATES).events)
    assert [b.content for b in bans] == [
        "No unwrap/panic in production code (a rule written in the command `/commit`).",
        "No `!!` in production code (a rule written in the command `/commit`).",
    ]
    assert all(b.skill == "" for b in bans)


def test_a_skills_text_gives_its_bans_said_of_the_skill() -> None:
    (ban,) = command_bans(_skill("ship-check", "- no console.log in production code\n").events)
    assert ban.content == (
        "No console.log in production code (a rule written in the skill `ship-check`)."
    )
    assert ban.skill == "ship-check"


def test_a_text_the_user_typed_or_one_without_a_ban_gives_none() -> None:
    assert command_bans(_ran("/commit", GATES, expanded=False).events) == []
    text = "There is no logging in production code yet.\n1. Find every TODO in production code\n"
    assert command_bans(_ran("/audit", text).events) == []


async def test_a_commands_ban_is_a_standing_written_instruction() -> None:
    stream = _ran("/commit", GATES)
    (episode,) = segment_episodes(stream.events, now=T0 + timedelta(days=1))
    found = [
        c
        for c in await RulesExtractor().extract(episode, stream.events)
        if "unwrap" in c.content and c.type is MemoryType.USER_STYLE
    ]
    (ban,) = found
    assert STANDING_TAG in ban.tags and WRITTEN_TAG in ban.tags
    assert SKILL_TAG not in ban.tags
