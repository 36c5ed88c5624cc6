"""A user turn shaped like an expanded command file makes no user_style, in any host; the user's
own words do, a heading or a long request included."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from squirrel_core.events import Origin, SourceTool
from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.command_bodies import MIN_BODY_CHARS, reads_as_command_body
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import MemoryType, StoredEvent

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
OWN = "Always run the linter before committing."
#: An expanded command file: role, headings, a numbered procedure, a style line of its own.
BODY = (
    "## Input\n\n```text\n\n```\n\n## Outline\n\nYou are updating the release notes file at "
    "`docs/notes.md`. Fill every placeholder from the repository's history.\n\n"
    + "".join(
        f"{n}. Step {n}: read the notes, collect the entries since the last tag and check each "
        "one against the history; keep the order of the sections as it is in the file.\n"
        for n in range(1, 9)
    )
    + "\n## Formatting\n\n- Avoid trailing whitespace.\n- Keep a single blank line between "
    "sections.\n\nDo not create a new file; always operate on the existing `docs/notes.md` "
    "file.\n"
)


def _found(
    text: str, tool: SourceTool, origin: Origin = Origin.TYPED
) -> list[tuple[MemoryType, str]]:
    event = StoredEvent(
        id="evt_1",
        project_id="/home/dev/app",
        user_id="dev",
        source_tool=str(tool),
        session_id="s",
        timestamp=T0,
        event_type="user_message",
        content={"text": text},
        file_paths=(),
        hash="h1",
        origin=str(origin),
    )
    (episode,) = segment_episodes([event], now=T0 + timedelta(days=1))
    return [(c.type, c.content) for c in RulesExtractor().extract_sync(episode, [event])]


def _styles(text: str, tool: SourceTool, origin: Origin = Origin.TYPED) -> list[str]:
    return [
        content for kind, content in _found(text, tool, origin) if kind is MemoryType.USER_STYLE
    ]


def test_the_body_is_long_enough_to_be_one() -> None:
    assert len(BODY) >= MIN_BODY_CHARS
    assert reads_as_command_body(BODY)


@pytest.mark.parametrize("tool", [SourceTool.CODEX, SourceTool.GEMINI_CLI, SourceTool.CLAUDE_CODE])
def test_an_unmarked_command_body_makes_no_style(tool: SourceTool) -> None:
    assert _styles(BODY, tool) == []


def test_a_body_line_naming_this_project_is_a_project_fact_not_style() -> None:
    facts = [c for kind, c in _found(BODY, SourceTool.CODEX) if kind is MemoryType.PROJECT_FACT]
    assert any("docs/notes.md" in fact for fact in facts)
    assert not any("whitespace" in fact for fact in facts)


@pytest.mark.parametrize("tool", [SourceTool.CODEX, SourceTool.GEMINI_CLI])
def test_the_users_own_style_line_still_counts(tool: SourceTool) -> None:
    assert _styles(OWN, tool) == [OWN]


@pytest.mark.parametrize(
    "text",
    [
        # One heading, typed: the user's.
        "## Lint\n\nAlways run the linter before committing.\n\nThen fix the login page.",
        # Long and laid out, with steps, but no role given to the assistant: a user's request.
        BODY.replace("You are updating", "Please update"),
        # Role and steps but one heading.
        BODY.replace("## Outline", "Outline").replace("## Formatting", "Formatting"),
    ],
)
def test_an_ordinary_prompt_keeps_its_preferences(text: str) -> None:
    assert not reads_as_command_body(text)
    assert _styles(text + "\n\n" + OWN, SourceTool.CODEX) != []


def test_a_commands_arguments_are_never_taken_for_its_body() -> None:
    assert "Avoid trailing whitespace." in _styles(
        BODY, SourceTool.CLAUDE_CODE, Origin.SLASH_COMMAND
    )
