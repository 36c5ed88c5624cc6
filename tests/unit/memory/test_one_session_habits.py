"""A way of working said in one session with the shape of a standing rule: a request about how
work is done made again along other work, a routine asked after each of three pieces of work,
a correction or stressed rule about the work's process, an ideal way of working, a "we didn't …?" after the
assistant moved on. Each in made-up projects of two ecosystems (a Rust crate, a TypeScript web
app), and the traps: one task asked again, two tasks of one form, a question, a quoted or
pasted line, one file or id, the host's text, the assistant's words, a wish about the product."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel_memory.extractors import session_requests as requests
from squirrel_memory.extractors.firmness import (
    CORRECTION_TAG,
    EMPHASIS_TAG,
    REPEATED_TAG,
    TENTATIVE_IMPORTANCE,
    TENTATIVE_TAG,
    StatedPreference,
)
from squirrel_memory.extractors.preferences import stated_preferences
from squirrel_memory.extractors.session_habits import (
    IMPORTANCE,
    TAG,
    as_session_habit,
    preferred_ways,
)
from squirrel_memory.extractors.session_requests import PREFIX, session_requests
from squirrel_memory.extractors.session_routines import session_routines
from squirrel_memory.models import MemoryType, Scope, StoredEvent
from squirrel_memory.views.core_style import core_style
from tests.unit.memory.session_builder import Session, clocked_stores, rules_processor, turn_events

START = datetime(2026, 11, 3, 9, 0, tzinfo=UTC)
NOW = START + timedelta(days=10)


def _session(
    root: str, turns: list[tuple[str, str]], *, session: str = "s0", origin: str = "typed"
) -> list[StoredEvent]:
    built = Session(root, session, START)
    for message, reply in turns:
        built.add("user_message", {"text": message}, origin=origin)
        built.say(reply)
    return built.events


#: A request about how work is done, said again along other pieces of work.
REPLIES = {
    "rust": [
        ("Work through the review on the parser crate, highest severity first.", "Started."),
        ("fix the lifetime one, then reply to the review comments citing the fix commits", "Ok."),
        ("Now the borrow checker complaint in the lexer module.", "Fixed."),
        ("check the open comments too, and reply to them citing the fix commits as well", "Ok."),
        ("What else is open on the pull request?", "Two nits."),
        ("can you also update the review comment replies?", "Updated."),
    ],
    "typescript": [
        ("Add a loading state to the checkout form.", "Added."),
        ("run the type checker and the unit tests before you push the branch", "Both pass."),
        ("Now wire the coupon field into the cart summary.", "Wired."),
        ("ok, run the unit tests and the type checker again before pushing", "Both pass."),
    ],
}


@pytest.mark.parametrize("ecosystem", sorted(REPLIES))
def test_a_request_about_the_work_made_again_along_other_work_is_a_habit_so_far(
    ecosystem: str,
) -> None:
    [found] = session_requests(_session(f"/work/{ecosystem}", REPLIES[ecosystem]))

    assert found.key.startswith(PREFIX) and found.messages >= 2
    assert found.content.startswith("In one session so far the user asked")
    quoted = found.wording.lower()
    assert ("reply" in quoted and "commit" in quoted) or ("test" in quoted and "push" in quoted)


@pytest.mark.parametrize(
    "turns",
    [
        # one task asked again: the second message says nothing the first does not
        [
            ("reply to the review comments citing the fix commits", "Ok."),
            ("Rename the tokenizer struct.", "Renamed."),
            ("reply to the review comments citing the fix commits", "Done now."),
        ],
        # sent again with nothing of the user's between (after an interrupt)
        [
            ("check the open comments, and reply to them citing the fix commits", "…"),
            ("check the open comments too, and reply to all of them citing the fix commits", "Ok."),
        ],
        # two tasks of one form: fixing is the task itself
        [
            ("fix the failing login test in the auth suite", "Fixed."),
            ("Now add the coupon field to the cart.", "Added."),
            ("fix the failing signup test in the auth suite", "Fixed."),
        ],
        # questions ask, they request nothing
        [
            ("did you reply to the review comments citing the fix commits?", "Yes."),
            ("Now the borrow checker complaint in the lexer module.", "Fixed."),
            ("should we reply to the open review comments citing the fix commits?", "Yes."),
        ],
        # one thing each time: a file, an id
        [
            ("run the unit tests in src/cart/summary.test.ts before pushing", "Pass."),
            ("Now wire the coupon field into the cart summary.", "Wired."),
            ("run the unit tests in src/cart/summary.test.ts again before pushing", "Pass."),
        ],
        # quoted and pasted text is someone else's
        [
            ("> reply to the review comments citing the fix commits\nwhat does this mean", "…"),
            ("Now the borrow checker complaint in the lexer module.", "Fixed."),
            ("```\nreply to the review comments citing the fix commits\n```\nsame here", "…"),
        ],
        # about the product, not how work is done
        [
            ("the checkout page shows the coupon total under the cart summary", "Ok."),
            ("Now add a loading state to the form.", "Added."),
            ("the order page shows the coupon total under the cart summary too", "Ok."),
        ],
    ],
)
def test_what_is_not_a_request_about_the_work_said_again(turns: list[tuple[str, str]]) -> None:
    assert session_requests(_session("/work/app", turns)) == []


@pytest.mark.parametrize("origin", ["harness", "slash_command", "parent_agent", "hook"])
def test_the_hosts_text_and_a_subagents_prompt_are_no_request(origin: str) -> None:
    assert session_requests(_session("/work/rust", REPLIES["rust"], origin=origin)) == []


def test_a_long_session_of_other_requests_weighs_no_word(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every two requests of a session are compared: in a long session most share fewer than
    `MIN_SHARED_WORDS` words and end there, before any word is weighed (a session of 1,200 short
    requests took seconds of extraction when each pair weighed its shared words first)."""
    weighed: list[str] = []
    monkeypatch.setattr(requests, "common_word", lambda w: weighed.append(w) or False)
    names = ["".join(chr(ord("a") + int(d)) for d in f"{i:03d}") for i in range(300)]
    turns = [(f"Tidy the {name}zor panel.", "Ok.") for name in names]
    assert session_requests(_session("/work/app", turns)) == []
    assert weighed == []


def test_the_assistants_words_are_no_request() -> None:
    built = Session("/work/rust", "s0", START)
    for request in ("Fix the lexer.", "Rename the parser struct.", "Bump the MSRV."):
        built.add("user_message", {"text": request}, origin="typed")
        built.say("I'll reply to the review comments citing the fix commits.")
    assert session_requests(built.events) == []


# --- a routine that points at the change at hand, asked after each of three pieces ----------

POINTED = {
    "rust": [
        ("Split the lexer into its own module.", "Split."),
        ("commit this", "Committed."),
        ("Now make the parser errors carry spans.", "Done."),
        ("okay, let's commit", "Committed."),
        ("Then bump the MSRV in Cargo.toml and the CI matrix.", "Bumped."),
        ("commit, then let's look at the benchmarks", "Committed."),
    ],
    "typescript": [
        ("Add a loading state to the checkout form.", "Added."),
        ("commit it", "Committed."),
        ("Now wire the coupon field into the cart summary.", "Wired."),
        ("commit this - but keep the feature flag off", "Committed."),
        ("Then move the price helpers into lib/price.", "Moved."),
        ("commit this", "Committed."),
    ],
}


@pytest.mark.parametrize("ecosystem", sorted(POINTED))
def test_a_step_asked_after_each_of_three_pieces_is_a_habit_so_far(ecosystem: str) -> None:
    [routine] = session_routines(_session(f"/work/{ecosystem}", POINTED[ecosystem]))
    assert routine.messages == 3 and "commit" in routine.wording


@pytest.mark.parametrize("ecosystem", sorted(POINTED))
def test_a_pointed_step_asked_twice_is_still_the_moments(ecosystem: str) -> None:
    assert session_routines(_session(f"/work/{ecosystem}", POINTED[ecosystem][:4])) == []


def test_a_step_with_its_own_object_at_the_head_is_no_routine() -> None:
    turns = [
        ("Add a loading state to the checkout form.", "Added."),
        ("commit our changes in two commits please, the form first", "Committed."),
        ("Now wire the coupon field into the cart summary.", "Wired."),
        ("commit the coupon change - keep the flag off", "Committed."),
        ("Then move the price helpers into lib/price.", "Moved."),
        ("should we commit, then push?", "Yes."),
    ]
    assert session_routines(_session("/work/typescript", turns)) == []


# --- an instruction about the work's process, as the assistant worked ------------------------


def _tentative(content: str, *tags: str) -> StatedPreference:
    return StatedPreference(
        key="pref:x",
        content=content,
        tags=("preference", TENTATIVE_TAG, *tags),
        scope=Scope.PROJECT,
        importance=TENTATIVE_IMPORTANCE,
    )


@pytest.mark.parametrize(
    "content", ["Don't amend commits.", "Run cargo clippy before pushing.", "Don't mock the db."]
)
@pytest.mark.parametrize("mark", [CORRECTION_TAG, EMPHASIS_TAG, REPEATED_TAG])
def test_a_tentative_rule_of_the_process_corrected_or_stressed_is_a_habit_so_far(
    content: str, mark: str
) -> None:
    weighed = as_session_habit(_tentative(content, mark))
    assert (weighed.importance, TAG in weighed.tags) == (IMPORTANCE, True)


@pytest.mark.parametrize(
    "pref",
    [
        _tentative("Don't change the header layout.", CORRECTION_TAG),  # the task's object
        _tentative("Keep the button blue.", EMPHASIS_TAG),
        _tentative("Don't amend commits."),  # said plainly, once: still a one-off
    ],
)
def test_other_one_offs_keep_their_weight(pref: StatedPreference) -> None:
    assert as_session_habit(pref) == pref


def test_a_standing_rule_is_not_lowered() -> None:
    [rule] = stated_preferences("always run the tests before pushing", after_assistant_action=True)
    assert as_session_habit(rule) == rule


# --- the ideal way of working -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("there are conflicts with main now. ideally just rebase onto main", "rebase onto main"),
        ("if possible, squash the fixup commits before merging", "squash the fixup commits"),
        ("Ideally run cargo fmt and clippy before each push.", "run cargo fmt and clippy"),
    ],
)
def test_an_ideal_way_of_working_is_a_habit_so_far(text: str, said: str) -> None:
    [found] = preferred_ways(text)
    assert found.content.startswith("Ideally, ") and said in found.content
    assert TENTATIVE_TAG in found.tags and found.importance == IMPORTANCE


@pytest.mark.parametrize(
    "text",
    [
        "Ideally we would see all orders in the list, whatever the shop that made them",
        "ideally the checkout button is blue",
        "ideally just make the header sticky",  # the task's object: no process topic
        "ideally, should we rebase onto main?",
        "> ideally just rebase onto main",
    ],
)
def test_a_wish_about_the_product_or_a_question_is_no_ideal_way(text: str) -> None:
    assert preferred_ways(text) == []


# --- "we didn't …?" right after the assistant moved on -------------------------------------


def test_we_didnt_asked_after_the_assistant_acted_corrects_it() -> None:
    [found] = stated_preferences(
        "we didn't write or change any tests?", after_assistant_action=True
    )
    assert "tests" in found.content and CORRECTION_TAG in found.tags
    assert stated_preferences("we didn't write any tests?", after_assistant_action=False) == []


@pytest.mark.parametrize("text", ["we never push to main", "we didn't see that before?"])
def test_we_didnt_is_no_correction_unless_asked_about_a_step(text: str) -> None:
    found = stated_preferences(text, after_assistant_action=True)
    assert all("before calling a task done" not in p.content for p in found)


# --- through the processor: the session's opening ------------------------------------------


@pytest.mark.parametrize("ecosystem", sorted(REPLIES))
async def test_a_habit_so_far_reaches_the_core_style_below_a_standing_rule(
    tmp_path: Path, ecosystem: str
) -> None:
    turns = [("always keep commit messages to one line", "Noted."), *REPLIES[ecosystem]]
    async with clocked_stores(tmp_path, NOW) as (store, users):
        processor = rules_processor(store, users, NOW)
        await store.append_events(
            store.project_id, "u", turn_events("s0", NOW - timedelta(days=1), turns), []
        )
        await processor.drain(store)
        items, _ = await store.list_memories(store.project_id, types=[MemoryType.USER_STYLE])
        live = [m for m in items if not m.deleted]
        order = core_style(live)
        # the rule said as a rule leads; what was said in this session so far follows it
        assert "one line" in order[0].content and TENTATIVE_TAG not in order[0].tags, order
        assert any(
            TENTATIVE_TAG in m.tags and IMPORTANCE <= m.importance < order[0].importance
            for m in order[1:]
        ), order
