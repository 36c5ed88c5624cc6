"""The project's language from the files the user `@`-mentioned: every ecosystem alike, counted
as files the session touched, with what must not be counted."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.mentioned_files import mentioned_paths
from tests.unit.memory.session_builder import Session
from tests.unit.memory.test_touched_languages import (
    ECOS,
    IDS,
    PREFIX,
    ROOT,
    T0,
    Eco,
    _extract,
    _said,
)


def _asked(*texts: str, origin: str = "typed") -> Session:
    session = Session(ROOT, "s0", T0)
    for text in texts:
        session.add("user_message", {"text": text}, origin=origin)
        session.say("Done.")
    return session


@pytest.mark.parametrize("eco", ECOS, ids=IDS)
async def test_two_mentioned_code_files_name_their_language(eco: Eco) -> None:
    session = _asked(f"@{eco.first} - use the new format here", f"@{eco.second} same here")

    found = await _extract(session)

    assert _said(found, "language") == [
        f"{PREFIX}{eco.language} (2 files: `{eco.first}`, `{eco.second}`)."
    ]


def test_mentions_inside_a_sentence_and_absolute_paths_in_the_project_count() -> None:
    session = _asked(
        f"compare (@src/a.rb) with @{ROOT}/lib/b.rb, then look at '@./c.rb'.",
    )

    assert [path for path, _ in mentioned_paths(session.events)] == [
        "src/a.rb",
        "lib/b.rb",
        "c.rb",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "mail dev@ledger.py about it",  # an e-mail-like word, no mention
        "ask @alice and @bob",  # people, no file suffix
        "install @types/node and @scope/pkg",  # packages, no file suffix
        "see @../other/books.py and @~/notes/post.py",  # outside the project
        "see @/srv/other/books.py",  # an absolute path elsewhere
        "see @node_modules/x/index.js and @.venv/lib/site.py",  # dependencies
    ],
)
def test_what_is_no_mention_of_a_project_file_is_not_counted(text: str) -> None:
    assert mentioned_paths(_asked(text).events) == []


async def test_mentions_in_text_that_is_not_the_users_count_for_nothing() -> None:
    session = _asked("@lib/books.rb and @lib/post.rb", origin="harness")
    session.say("See @lib/ledger.rb and @lib/entry.rb.")

    found = await _extract(session)

    assert mentioned_paths(session.events) == []
    assert _said(found, "language") == []


async def test_one_mentioned_file_is_not_enough_for_a_language() -> None:
    found = await _extract(_asked("@lib/books.rb fix the rounding"))

    assert _said(found, "language") == []
