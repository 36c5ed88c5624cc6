"""What a folder of a workspace is, as the assistant said it by the folder's name after listing
it: every ecosystem alike, scoped to the folder, with the sentences that must say nothing."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.folder_summary import folder_summary
from tests.unit.memory.session_builder import Session
from tests.unit.memory.test_touched_languages import _extract, _said, _session

#: (folder listing, the assistant's sentence, what the memory must say of the folder)
FIRES = [
    (
        "ledger-api/go.mod\nledger-api/cmd/main.go\nledger-web/package.json\n",
        "Good. This is the `ledger-api` service — a REST backend that books the postings.",
        "What `ledger-api/` (a folder of this project) is, as the assistant summarised it: a"
        " service: a REST backend that books the postings.",
    ),
    (
        "apps/books_web/mix.exs\nbooks_cli/mix.exs\nbooks_cli/lib/books_cli.ex\n",
        "I read the code. This is `books_cli`, a command-line tool that posts entries to the"
        " ledger.",
        "What `books_cli/` (a folder of this project) is, as the assistant summarised it: a"
        " command-line tool that posts entries to the ledger.",
    ),
    (
        "city_game/CMakeLists.txt\ncity_game/src/core/World.hpp\nracing_game/CMakeLists.txt\n",
        "This is the `city_game` game — a 3D city with LLM-powered pedestrian NPCs.",
        "What `city_game/` (a folder of this project) is, as the assistant summarised it: a"
        " game: a 3D city with LLM-powered pedestrian NPCs.",
    ),
]


def _listed(listing: str) -> Session:
    session = _session()
    session.run("find . -type f | head -50", 0, listing)
    return session


@pytest.mark.parametrize(("listing", "reply", "said"), FIRES, ids=["go", "elixir", "cmake"])
async def test_a_listed_folder_the_assistant_named_and_described_is_summarised(
    listing: str, reply: str, said: str
) -> None:
    session = _listed(listing)
    session.say(reply)

    assert _said(await _extract(session), "about") == [said]


async def test_the_project_s_own_folder_name_says_what_the_project_is() -> None:
    session = _listed("src/books.rs\nsrc/post.rs\n")
    session.say("This is the `ledger` crate — a double-entry bookkeeping library for small shops.")

    assert _said(await _extract(session), "about") == [
        "What this project is, as the assistant summarised it: a crate: a double-entry"
        " bookkeeping library for small shops."
    ]


@pytest.mark.parametrize(
    "reply",
    [
        # a folder nobody listed: a library, a tool or another repository
        "This is the `ledger-core` service — a REST backend that books the postings.",
        # not a kind of software
        "This is the `ledger-api` folder — a place where the handlers of the REST API live.",
        "This is `ledger-api`, a known issue with the way postings are rounded.",
        # a question, a negation, a hedge, a plan
        "Is this the `ledger-api` service — a REST backend that books the postings?",
        "This is the `ledger-api` service — a backend that is not used by the web app anymore.",
        "This is the `ledger-api` service — a backend that probably books the postings.",
        "This is the `ledger-api` service — a backend that will book the postings.",
        # too short to say anything
        "This is the `ledger-api` service — a backend.",
    ],
)
async def test_sentences_that_do_not_say_what_a_listed_folder_is_say_nothing(reply: str) -> None:
    session = _listed("ledger-api/go.mod\nledger-api/cmd/main.go\nledger-web/package.json\n")
    session.say(reply)

    assert _said(await _extract(session), "about") == []


async def test_a_reply_before_the_session_looked_at_the_project_says_nothing() -> None:
    session = _session()
    session.say("This is the `ledger-api` service — a REST backend that books the postings.")
    session.run("find . -type f | head -50", 0, "ledger-api/go.mod\nledger-api/cmd/main.go\n")

    assert folder_summary(session.events) is None


async def test_a_subagent_s_report_is_no_summary_of_the_folder() -> None:
    session = _listed("ledger-api/go.mod\nledger-api/cmd/main.go\n")
    session.add(
        "assistant_response",
        {"text": "This is the `ledger-api` service — a REST backend that books the postings."},
        sidechain=True,
    )

    assert folder_summary(session.events) is None


async def test_a_readme_read_in_the_episode_says_what_the_project_is_instead() -> None:
    session = _listed("ledger-api/go.mod\nledger-api/cmd/main.go\n")
    session.read("README.md", "# Ledger\n\nLedger is a bookkeeping suite for small shops.\n")
    session.say("This is the `ledger-api` service — a REST backend that books the postings.")

    said = _said(await _extract(session), "about")

    assert len(said) == 1 and "ledger-api" not in said[0]
