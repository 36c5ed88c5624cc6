"""The words a memory's framing says ("The user corrected the assistant", "Found in a session",
"Closing report", "in their words") pick no memory for the task context and name no reason;
the same words in what the memory says still do."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from squirrel_memory.models import (
    MemoryItem,
    MemorySource,
    MemoryType,
    Scope,
)
from squirrel_memory.retrieval.framing import framed_only
from tests.unit.memory.task_selection import selected_for

CORRECTION = (
    MemoryType.PITFALL,
    "pitfall:corrected:feed_parser",
    "The user corrected the assistant (working on lib/feeds/parser.ex): episode GUIDs are not "
    "unique across feeds; key episodes by feed and GUID.",
)
FINDING = (
    MemoryType.PITFALL,
    "pitfall:learned:ecto_reset",
    "Found in a session: `mix ecto.reset` drops the dev database; back it up first.",
)
REPORT = (
    MemoryType.PROJECT_FACT,
    "project:closing:player_resume",
    "Closing report (Player resume): playback now resumes from the last position.",
)
STYLE = (
    MemoryType.USER_STYLE,
    "pref:simplest_reuse_existing",
    "The user asks for the simplest way that builds on what exists, in their words: "
    "“reuse the hook”.",
)
SESSIONS = (
    MemoryType.PROJECT_FACT,
    "module:sessions",
    "Module `sessions`: the session store expires sessions after an hour of inactivity.",
)


@pytest.mark.parametrize(
    "task",
    [
        "write down in the changelog what the assistant corrected in the admin screen",
        "the user found a typo in the session list",
        "send the closing report to the team",
        "keep the words of the welcome screen short",
    ],
)
async def test_the_words_of_a_memory_s_frame_alone_select_nothing(
    tmp_path: Path, task: str
) -> None:
    assert await selected_for(tmp_path, [CORRECTION, FINDING, REPORT, STYLE], task) == []


@pytest.mark.parametrize(
    ("task", "key", "word"),
    [
        ("episode GUIDs collide between two feeds", "pitfall:corrected:feed_parser", "guids"),
        ("can I run mix ecto.reset safely?", "pitfall:learned:ecto_reset", "ecto"),
        ("does playback resume from the last position?", "project:closing:player_resume", "resume"),
    ],
)
async def test_what_a_framed_memory_says_still_selects_it(
    tmp_path: Path, task: str, key: str, word: str
) -> None:
    selected = dict(await selected_for(tmp_path, [CORRECTION, FINDING, REPORT, STYLE], task))

    assert key in selected
    assert word in selected[key].lower()
    assert not any(w in selected[key] for w in ("'user'", "'assistant'", "'session'", "'report'"))


async def test_a_frame_word_the_memory_also_says_in_its_text_still_counts(tmp_path: Path) -> None:
    selected = dict(await selected_for(tmp_path, [FINDING, SESSIONS], "sessions expire too early"))

    assert "module:sessions" in selected and "'session" in selected["module:sessions"]
    assert "pitfall:learned:ecto_reset" not in selected


def _item(key: str, content: str) -> MemoryItem:
    now = datetime.now(UTC)
    return MemoryItem(
        id="m1",
        project_id="/p",
        user_id=None,
        scope=Scope.PROJECT,
        type=MemoryType.PITFALL,
        key=key,
        content=content,
        tags=(),
        importance=0.5,
        created_at=now,
        updated_at=now,
        source=MemorySource.RULES,
    )


def test_framed_only_names_the_words_only_the_frame_says() -> None:
    item = _item(CORRECTION[1], CORRECTION[2])

    assert framed_only(["user", "assistant", "corrected", "feeds", "parser"], item) == {
        "user",
        "assistant",
        "corrected",
    }
    assert framed_only([], item) == frozenset()
