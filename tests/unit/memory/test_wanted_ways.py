"""A way of working the user asks for as a wish ("I want you to act as my reviewer, …") and a
state of the project the user says is deliberate ("`vendor/` is committed on purpose"): in
made-up projects of two ecosystems (a Go service, a TypeScript web app), and where neither may
fire: a task wished for, a name from the code, a path, a command, a question, the user's own
story, a pronoun for the deliberate thing, the assistant's words. Through the processor, the
wish said in two sessions leads the core style view."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel_memory.extractors.firmness import (
    CORRECTION_TAG,
    STANDING_TAG,
    TENTATIVE_IMPORTANCE,
    TENTATIVE_TAG,
)
from squirrel_memory.extractors.session_habits import TAG as HABIT_TAG
from squirrel_memory.extractors.wanted_ways import DELIBERATE_TAG, WISH_TAG, wanted_ways
from squirrel_memory.models import MemoryType, Scope
from squirrel_memory.promotion import RECURRING_TAG
from squirrel_memory.views.core_style import SAID_ONCE_PREFIX, core_style
from tests.unit.memory.session_builder import Session, clocked_stores, rules_processor, turn_events

START = datetime(2026, 11, 3, 9, 0, tzinfo=UTC)
NOW = START + timedelta(days=10)

#: Per ecosystem: a wish about the way of working (a role given to the assistant; a wish that
#: takes up the exchange before it), the words its memory must quote, and a state the user
#: says is deliberate, with the thing it names.
WISHES = {
    "go": (
        "OK, the handler compiles. I want you to act as my reviewer, pointing out risky "
        "changes before you make them.",
        "act as my reviewer",
        "vendor/ is committed on purpose, the build runs offline.",
        "`vendor/`",
    ),
    "typescript": (
        "I want to keep commits small and reuse the components we already have.",
        "keep commits small",
        "no, the lock file is deliberately not committed",
        "the lock file",
    ),
}
#: The user's previous message, and the assistant's reply to it, before the wish.
ASKED = "does this keep the commit small?"
REPLY = "No: the commit touches twelve files and adds components."
BEFORE = ASKED


@pytest.mark.parametrize("ecosystem", sorted(WISHES))
def test_a_wish_about_the_way_of_working_is_kept_in_the_users_words(ecosystem: str) -> None:
    message, quoted, _, _ = WISHES[ecosystem]

    [found] = wanted_ways(message, after_assistant_action=True, before=BEFORE)

    assert quoted in found.content and found.content.startswith("The user wants")
    # said right after the assistant acted: it redirects the work, one step above a one-off
    assert {WISH_TAG, TENTATIVE_TAG, CORRECTION_TAG} <= set(found.tags)
    assert found.importance > TENTATIVE_IMPORTANCE and found.scope is Scope.USER


@pytest.mark.parametrize("ecosystem", sorted(WISHES))
def test_a_wish_said_before_the_assistant_acted_is_tentative(ecosystem: str) -> None:
    message = WISHES[ecosystem][0]

    [found] = wanted_ways(message, after_assistant_action=False, before=BEFORE)

    assert CORRECTION_TAG not in found.tags and found.importance == TENTATIVE_IMPORTANCE


@pytest.mark.parametrize(
    "message",
    [
        "I want you to add pagination to the orders list and cache each page",
        "I want to migrate settings to environment variables across services",
    ],
)
def test_a_wish_for_a_new_piece_of_work_is_no_way_of_working(message: str) -> None:
    # no rule word, no role, no stress, and nothing of the exchange before it taken up
    assert wanted_ways(message, after_assistant_action=True, before=BEFORE) == []
    assert wanted_ways(message, after_assistant_action=False) == []


def test_a_standing_job_is_a_standing_rule() -> None:
    [found] = wanted_ways(
        "Your standing job will be to keep track of the loose threads and keep us organized.",
        after_assistant_action=True,
    )

    assert STANDING_TAG in found.tags and TENTATIVE_TAG not in found.tags and found.standing


def test_a_typographic_apostrophe_reads_as_a_plain_one() -> None:
    [stressed] = wanted_ways(
        "Sure. Here’s imperative that you protect your context from large log files.",
        after_assistant_action=True,
    )
    [refused] = wanted_ways("I don’t want to use Redux", after_assistant_action=False)

    assert "large log files" in stressed.content and "Redux" in refused.content


def test_a_negative_wish_says_what_the_user_does_not_want() -> None:
    [found] = wanted_ways(
        "I don't want you to push to the main branch without asking me",
        after_assistant_action=True,
    )

    assert found.content.startswith("The user does not want this") and "push" in found.content


#: Per ecosystem: a means named in a sentence, then refused by a pronoun; what the memory
#: names in its place (under the project's folder, relative to it; outside, by its name).
REFUSALS = {
    "python": (
        "The course gives us a list of data sets in /work/ml/data/catalog.md but I don't want "
        "to use any of these.",
        "use any of `data/catalog.md`",
    ),
    "php": (
        "The starter kit ships ~/templates/stack/docker-compose.yml but dont want to use it.",
        "use `docker-compose.yml`",
    ),
}


@pytest.mark.parametrize("ecosystem", sorted(REFUSALS))
def test_a_means_refused_by_a_pronoun_is_named_by_what_it_points_back_to(ecosystem: str) -> None:
    message, named = REFUSALS[ecosystem]
    root = "/work/ml" if ecosystem == "python" else "/work/shop"

    [found] = wanted_ways(message, after_assistant_action=False, root=root)

    assert found.content.startswith(f"The user does not want to {named}"), found.content
    assert found.scope is Scope.PROJECT and TENTATIVE_TAG in found.tags
    assert "/work/" not in found.content and "~" not in found.content


@pytest.mark.parametrize(
    "message",
    [
        "I don't want to do it",  # nothing named before the pronoun
        "I don't want you to touch them",
        "The tests in spec/models are slow, I don't need to run it again",  # no refusal form
    ],
)
def test_a_pronoun_with_nothing_named_before_it_refuses_nothing(message: str) -> None:
    assert wanted_ways(message, after_assistant_action=True, root="/work/app") == []


@pytest.mark.parametrize("ecosystem", sorted(WISHES))
def test_a_state_the_user_says_is_deliberate_is_kept_for_this_project(ecosystem: str) -> None:
    _, _, message, thing = WISHES[ecosystem]

    [found] = wanted_ways(message, after_assistant_action=True)

    assert thing in found.content and "on purpose" in found.content
    assert DELIBERATE_TAG in found.tags and found.scope is Scope.PROJECT


@pytest.mark.parametrize(
    "message",
    [
        # a task wished for: one definite or new thing, a name from the code, a path, a command
        "I want you to fix the login test.",
        "I want you to add a dark mode toggle to the settings page",
        "I want you to rename parseConfig everywhere",
        "I want you to look at internal/server/routes.go",
        "I need you to run go test -run TestHandler ./...",
        "I want you to update it",
        "I want you to see what changed",
        # a question, the user's own story, too few words
        "Do you want me to write failing tests first?",
        "I want to commit, realize I need to pull first, so I stash and pull again",
        "I want you to help",
        # the task's own time words
        "I want you to keep these changes for now",
        # deliberate, but no named thing: the user's own act, a pronoun
        "I did it on purpose",
        "It is intentionally slow",
        "That is deliberately left out",
    ],
)
def test_no_way_of_working_is_read_where_there_is_none(message: str) -> None:
    assert wanted_ways(message, after_assistant_action=True) == []


def test_a_wish_that_only_takes_up_the_assistants_proposal_is_no_way_of_working() -> None:
    built = Session("/work/shop", "s0", START)
    built.user("Add the coupon field to the cart summary.")
    built.say("Added. Shall I also cache the coupon lookups per cart session?")
    built.user("yes, I want you to cache coupon lookups per cart session")

    assert not [c for c in built.extracted() if WISH_TAG in c.tags]


def test_a_wish_that_returns_to_the_users_own_question_is_kept() -> None:
    built = Session("/work/parser", "s0", START)
    built.user("does this keep the commit small?")
    built.say(REPLY)
    built.user("I want to keep commits small and reuse the components we already have.")

    [wish] = [c for c in built.extracted() if WISH_TAG in c.tags]
    assert "keep commits small" in wish.content and CORRECTION_TAG in wish.tags


def test_the_assistants_words_are_never_the_users_wish() -> None:
    built = Session("/work/shop", "s0", START)
    built.user("Add the coupon field to the cart summary.")
    built.say("I want to write failing tests first and keep commits small, one change each.")

    assert not [c for c in built.extracted() if WISH_TAG in c.tags]


def test_a_wish_another_instruction_of_the_message_already_says_is_not_kept_twice() -> None:
    built = Session("/work/api", "s0", START)
    built.user("Add the health endpoint.")
    built.say("Added it.")
    built.user("From now on, I want you to keep your answers terse, to avoid a wall of text.")

    styles = [c for c in built.extracted() if c.type is MemoryType.USER_STYLE]

    assert len([c for c in styles if "answers terse" in c.content]) == 1, styles


# --- through the processor: a wish said in two sessions leads the session's opening ----------


@pytest.mark.parametrize("ecosystem", sorted(WISHES))
async def test_a_wish_said_in_two_sessions_leads_the_core_style(
    tmp_path: Path, ecosystem: str
) -> None:
    wish, quoted, _, _ = WISHES[ecosystem]
    asked, reply = ASKED, REPLY
    first = [
        ("Start on the next ticket.", "Started."),
        (asked, reply),
        (wish, "Understood."),
        ("no, never force-push a shared branch", "Noted."),
    ]
    second = [("Pick up the flaky test.", "Looking."), (asked, reply), (wish, "Will do.")]
    async with clocked_stores(tmp_path, NOW) as (store, users):
        processor = rules_processor(store, users, NOW)
        await store.append_events(
            store.project_id, "u", turn_events("s1", NOW - timedelta(days=3), first), []
        )
        await processor.drain(store)
        items, _ = await store.list_memories(store.project_id, types=[MemoryType.USER_STYLE])
        live = [m for m in items if not m.deleted]
        once = core_style(live)
        wished = next(m for m in live if quoted in m.content)
        said_once = [m for m in once if quoted in m.content]
        assert any(TENTATIVE_TAG not in m.tags for m in live), live  # "never force-push …"
        # beside that standing rule, a wish about commits is a habit so far and opens the
        # session, marked; a plain one-off ("act as my reviewer") waits to be asked for
        opens = ecosystem == "typescript"
        assert (HABIT_TAG in wished.tags) is opens, wished
        assert bool(said_once) is opens, once
        assert all(m.content.startswith(SAID_ONCE_PREFIX) for m in said_once), once

        await store.append_events(
            store.project_id, "u", turn_events("s2", NOW - timedelta(days=1), second), []
        )
        await processor.drain(store)
        items, _ = await store.list_memories(store.project_id, types=[MemoryType.USER_STYLE])
        order = core_style([m for m in items if not m.deleted])

    # said again in another session, the wish is a standing rule at the top of the view
    assert quoted in order[0].content and RECURRING_TAG in order[0].tags, order
    assert TENTATIVE_TAG not in order[0].tags


@pytest.mark.parametrize(
    ("message", "kept"),
    [
        (
            "My overall goal is to keep the public API backwards compatible across releases.",
            "keep the public API backwards compatible",
        ),
        ("Our long-term goal is to make sure the CLI runs offline.", "runs offline"),
        ("our high-level goals are to avoid new runtime dependencies", "avoid new runtime"),
    ],
)
def test_a_goal_for_the_whole_project_is_a_standing_rule(message: str, kept: str) -> None:
    [found] = wanted_ways(message, after_assistant_action=False)

    assert found.content.startswith("The user states a goal for the whole project")
    assert kept in found.content and found.standing and STANDING_TAG in found.tags


@pytest.mark.parametrize(
    "message",
    [
        "My goal is to get this test passing.",  # no word of the whole project: the task
        "My overall goal is to fix the login test.",  # a task, however it is called
        "Our long-term goal is to drop the Python 2 shims from every module.",
        "My end goal is to keep `v2.1` on the release branch.",  # one named thing
    ],
)
def test_a_goal_of_the_task_at_hand_is_no_rule(message: str) -> None:
    assert wanted_ways(message, after_assistant_action=False) == []


def test_wanna_is_want_to() -> None:
    [found] = wanted_ways(
        "I don't wanna force users to list every variable name in the config.",
        after_assistant_action=False,
    )

    assert (
        found.content.startswith("The user does not want this") and "force users" in found.content
    )
    assert (
        wanted_ways("I wanna add pagination to the list endpoint.", after_assistant_action=False)
        == []
    )


@pytest.mark.parametrize("joint", ["/", ", ", "; "])
def test_a_new_wish_after_a_slash_or_comma_is_a_clause_of_its_own(joint: str) -> None:
    message = (
        f"my high level goal is to keep the rules high level{joint}i don't wanna force users "
        "to supply long lists of variable names etc."
    )

    goal, refusal = wanted_ways(message, after_assistant_action=False)

    assert goal.content.endswith("“my high level goal is to keep the rules high level”.")
    assert refusal.content.startswith("The user does not want this")
    assert "force users to supply long lists" in refusal.content


@pytest.mark.parametrize(
    "message",
    [
        # the speaker's own acts after the slash: no wish of theirs
        "my overall goal is to keep the rules high level/i think that is enough.",
        # a folder name, not a clause
        "I want you to always keep docs/i18n in sync with the English pages.",
    ],
)
def test_a_slash_without_a_new_wish_splits_nothing(message: str) -> None:
    found = wanted_ways(message, after_assistant_action=False)

    assert all("“i " not in f.content.lower() for f in found)
    assert len(found) <= 1
