"""Design decisions the user stated for later work, kept once the session carried them out."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.decisions import decision_words, decisions
from squirrel_memory.models import MemoryType
from tests.unit.memory.test_rules_extractor import PROJECT, Stream, by_key, extract

STATED = (
    "lets create a fetch_url helper just in case a job needs remote data so we use that "
    "helper exclusively, makes sense?"
)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (
            STATED,
            "lets create a fetch_url helper just in case a job needs remote data so we use that helper exclusively",
        ),
        ("From now on we will write every migration as plain SQL in db/migrations.", None),
        ("Going forward, let's keep all feature flags in config/flags.toml.", None),
        ("Going forward, let’s keep all feature flags in config/flags.toml.", None),
    ],
)
def test_a_proposal_tied_to_later_work_is_a_decision(text: str, kept: str | None) -> None:
    assert decision_words(text) == (kept or text.rstrip("."))


@pytest.mark.parametrize(
    "text",
    [
        "lets create a fetch_url helper for this job",  # no lasting scope: a task
        "maybe we should use that helper exclusively from now on",  # a hedge
        "should we use that helper exclusively from now on?",  # a question
        "do we use the fetch_url helper exclusively in jobs?",  # a question
        "Running the jobs exclusively on the worker pool now (3 of 7 done)",  # progress, no proposal
        "Plan: 1. add the helper 2. use it exclusively\nfrom now on in every job",  # a plan list
        "we will use it exclusively",  # too short to say what
    ],
)
def test_no_decision_where_none_is_stated(text: str) -> None:
    assert decision_words(text) is None


def _session(reply: str, *, change: bool = False) -> Stream:
    stream = Stream()
    stream.user(STATED)
    stream.say(reply)
    if change:
        stream.write(f"{PROJECT}/lib/fetch_url.rb", "def fetch_url(url)\nend\n")
    return stream


def test_kept_when_the_assistant_agrees_or_changes_a_file() -> None:
    (agreed,) = decisions(
        _session("Makes sense - a dedicated helper keeps jobs consistent.").events
    )
    assert agreed.content.startswith("A decision the user stated for later work: “lets create")
    (acted,) = decisions(_session("Let me look at the existing helpers.", change=True).events)
    assert acted.key == agreed.key


def test_not_kept_when_the_session_does_not_take_it_up() -> None:
    assert decisions(_session("I would rather not: the jobs already share a client.").events) == []
    stream = _session("Let me think about it.")
    stream.user("never mind, let us look at the failing job")
    stream.write(f"{PROJECT}/lib/job.rb", "x = 1\n")
    assert decisions(stream.events) == []


def test_words_that_are_not_the_users_are_never_a_decision() -> None:
    stream = Stream()
    stream.add("user_message", {"text": STATED}, origin="parent_agent")
    stream.say("Makes sense.")
    assert decisions(stream.events) == []


async def test_the_rules_extractor_keeps_it_as_a_project_fact() -> None:
    found = [c for c in await extract(_session("Makes sense.")) if c.key.startswith("decision:")]
    (fact,) = found
    assert fact.type is MemoryType.PROJECT_FACT
    assert by_key(found)[fact.key].importance == 0.6
