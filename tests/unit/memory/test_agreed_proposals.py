"""A rule put as a question and accepted by the other side is a standing instruction; a plain
question, a proposal about the task at hand, or a declined proposal is not."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.proposals import (
    accepted,
    accepted_proposals,
    proposed_rule,
    restated,
)
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import MemoryType, Scope, StoredEvent

NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def _events(*turns: tuple[str, str]) -> list[StoredEvent]:
    return [
        StoredEvent(
            id=f"evt_{n:03d}",
            project_id="/home/dev/app",
            user_id="dev",
            source_tool="claude_code",
            session_id="s",
            timestamp=NOW + timedelta(seconds=n),
            event_type="user_message" if who == "user" else "assistant_response",
            content={"text": text},
            file_paths=(),
            hash=f"h{n}",
        )
        for n, (who, text) in enumerate(turns)
    ]


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        # Ruby: a tool the skills must go through, closed with a tag question
        (
            "lets add an http_get tool in case a skill needs remote data so we use that tool "
            "exclusively, makes sense?",
            "add an http_get tool in case a skill needs remote data so we use that tool "
            "exclusively",
        ),
        # JavaScript
        ("Shall we use pnpm exclusively for installs?", "use pnpm exclusively for installs"),
        # Go
        ("Should I run go vet before every commit from now on?", "run go vet before every commit"),
        # Elixir
        ("How about we always run mix format before pushing?", "always run mix format before"),
        # Rust: a closing "right?" on a standing practice
        ("we never bump the crate version by hand, right?", "never bump the crate version"),
        # Java: a habit's condition ("when I'm …"), hedged, two tags, typed without "do"
        (
            "I should probably not have insight when I'm trying to solve right, what you think?",
            "should not have insight when I'm trying to solve",
        ),
        # Python
        (
            "we shouldn't run the whole suite while we're iterating on one test, wdyt?",
            "we shouldn't run the whole suite while we're iterating on one test",
        ),
    ],
)
def test_a_rule_put_as_a_question_is_a_proposal(text: str, rule: str) -> None:
    found = proposed_rule(text)

    assert found is not None and found.startswith(rule)


@pytest.mark.parametrize(
    "text",
    [
        "do we always run the migrations first?",  # a question about how things are, no proposal
        "shall we rename the handler?",  # a proposal about the task at hand
        "let's use a map here, makes sense?",  # no word of permanence
        "Can you explain why cargo always rebuilds?",
        "let's always squash before merging",  # a statement, not a question (other rules)
        "Should I go ahead?",
        "I think we should run it on all pushes?",  # "it": the rule names nothing on its own
        "should we run this before every commit?",
        "should I restart the server when I'm done?",  # a step of the task, no habit
        "what should I do when the build is failing?",  # a question for help
    ],
)
def test_questions_that_propose_no_rule(text: str) -> None:
    assert proposed_rule(text) is None


@pytest.mark.parametrize(
    ("reply", "yes"),
    [
        ("Makes sense — a dedicated tool gives every skill one interface.", True),
        ("Yes please.", True),
        ("Good idea. Let me look at the existing tools first.", True),
        ("Sounds good, go ahead", True),
        ("Agreed: one place for the HTTP code.", True),
        ("Makes sense, but I'd keep the old client for now.", False),
        ("Yes, but only for the API calls.", False),
        ("No — the skills need streaming, which the tool can't do.", False),
        ("I don't think that's needed.", False),
        ("Let me check the existing tools first.", False),
        ("Why exclusively?", False),
    ],
)
def test_only_a_plain_yes_accepts(reply: str, yes: bool) -> None:
    assert accepted(reply) is yes


def test_a_users_proposal_the_assistant_accepts_is_a_standing_rule() -> None:
    events = _events(
        ("user", "what tools would help you?"),
        ("assistant", "A fetch tool would let skills pull remote data."),
        ("user", "lets add a fetch tool so skills use that tool exclusively, makes sense?"),
        ("assistant", "Makes sense — one interface instead of raw HTTP in every skill."),
    )

    [(event, pref)] = accepted_proposals(events)

    assert event.id == "evt_002"
    assert pref.standing and "agreed" in pref.tags and pref.importance == 0.7
    assert pref.scope is Scope.PROJECT  # agreed about this project's tools
    assert pref.content == (
        "Add a fetch tool so skills use that tool exclusively (proposed by the user, agreed)."
    )


@pytest.mark.parametrize(
    ("reply", "said"),
    [
        (
            "Exactly right — you should only add the insight *after* you've solved it. The "
            "comment is a note for review.",
            "you should only add the insight after you've solved it",
        ),
        (
            "Agreed: run `mix format` before every push, CI checks it too.",
            "run `mix format` before every push, CI checks it too",
        ),
        ("Yes — but only on the main branch.", None),  # a reservation
        ("Makes sense. One interface for every skill.", None),  # nothing after a dash or colon
        ("Sounds good — done.", None),  # too little to say the rule
        ("Yes — shall I also add it to the README?", None),  # a question
        ("No — the suite is fast enough to run whole.", None),  # not a yes
    ],
)
def test_how_an_accepting_answer_restates_the_rule(reply: str, said: str | None) -> None:
    assert restated(reply) == said


def test_the_answers_restatement_of_a_users_proposal_is_quoted() -> None:
    events = _events(
        (
            "user",
            "I should probably not have insight when I'm trying to solve right, what you think?",
        ),
        (
            "assistant",
            "Exactly right — you should only add the insight *after* you've solved it (or "
            "reviewed the solution if stuck). The comment serves as your note for review.",
        ),
    )

    [(_event, pref)] = accepted_proposals(events)

    assert pref.content == (
        "Should not have insight when I'm trying to solve (proposed by the user, agreed: "
        "\u201cyou should only add the insight after you've solved it (or reviewed the "
        "solution if stuck)\u201d)."
    )


async def test_an_agreed_proposal_is_one_memory_not_two() -> None:
    # The message alone reads as an instruction too; the agreed wording replaces it.
    events = _events(
        ("user", "lets create a fetch tool so skills use that tool exclusively, makes sense?"),
        ("assistant", "Makes sense — one interface instead of raw HTTP in every skill."),
    )
    (episode,) = segment_episodes(events, now=NOW + timedelta(days=1))

    found = [
        c
        for c in await RulesExtractor().extract(episode, events)
        if c.type is MemoryType.USER_STYLE
    ]

    assert [c.content for c in found] == [
        "Create a fetch tool so skills use that tool exclusively (proposed by the user, agreed)."
    ]


def test_an_assistants_proposal_the_user_accepts_is_a_standing_rule() -> None:
    events = _events(
        ("user", "fix the failing build"),
        ("assistant", "Fixed: gofmt had not run. Should I run gofmt before every commit?"),
        ("user", "yes please"),
    )

    [(event, pref)] = accepted_proposals(events)

    assert event.id == "evt_002"  # the user's yes is the evidence
    assert pref.content == "Run gofmt before every commit (proposed by the assistant, accepted)."


@pytest.mark.parametrize(
    "turns",
    [
        # declined
        (
            ("user", "shall we use the fetch tool exclusively in skills?"),
            ("assistant", "No — skills that stream cannot go through it."),
        ),
        (
            ("assistant", "Should I always rebase before pushing?"),
            ("user", "no, merge is fine"),
        ),
        # accepted with a reservation
        (
            ("user", "shall we always run the full suite before a commit?"),
            ("assistant", "Makes sense, but the integration tests take ten minutes."),
        ),
        # the answer does not come next: another user message in between
        (
            ("assistant", "Should I always rebase before pushing?"),
            ("user", "fix the login bug first"),
            ("user", "yes"),
        ),
        # the user proposes and the user says yes: no one else agreed
        (
            ("user", "shall we always squash? yes"),
            ("user", "yes"),
        ),
    ],
)
def test_declined_or_unanswered_proposals_give_nothing(turns: tuple[tuple[str, str], ...]) -> None:
    assert accepted_proposals(_events(*turns)) == []


async def test_the_rules_extractor_keeps_an_agreed_rule_as_a_standing_style_memory() -> None:
    events = _events(
        ("user", "shall we use uv exclusively for installing packages?"),
        ("assistant", "Yes — uv keeps the lock file in step."),
    )
    (episode,) = segment_episodes(events, now=NOW + timedelta(days=1))

    found = await RulesExtractor().extract(episode, events)

    [style] = [c for c in found if c.type == MemoryType.USER_STYLE]
    assert "standing" in style.tags and "tentative" not in style.tags
    assert style.content.startswith("Use uv exclusively for installing packages")
