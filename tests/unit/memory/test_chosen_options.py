"""Decisions from the user's pick among the options the assistant laid out in its reply: every
kind of project alike, with the questions back, next steps, lone choices and pasted lists that
must say nothing."""

from __future__ import annotations

from dataclasses import replace

import pytest

from squirrel_memory.extractors.chosen_options import chosen_options
from squirrel_memory.models import MemoryType
from tests.unit.memory.test_rules_extractor import Stream, extract


def _offered(reply: str, answer: str) -> Stream:
    stream = Stream()
    stream.user("The exports are slow. What can we do?")
    stream.run("ls src", 0, "export.rs\nbooks.rs\n")
    stream.say(reply)
    stream.user(answer)
    stream.say("Understood. Starting on it.")
    return stream


_LETTERED = (
    "**Option A:** cache the rendered pages in Redis for an hour.\n\n"
    "**Option B:** render the exports in a nightly job and serve the files.\n\nWhich one?"
)


@pytest.mark.parametrize(
    ("reply", "answer", "said"),
    [
        (
            _LETTERED,
            "B",
            '"render the exports in a nightly job and serve the files" over'
            ' "cache the rendered pages in Redis for an hour"',
        ),
        (
            "Two ways:\n\n1. Stream rows with a server-side cursor.\n2. Paginate the export in"
            " pages of 1000 rows.\n\nWhich way should I go?",
            "go with option 2, the replica times out on long cursors",
            '"Paginate the export in pages of 1000 rows" over "Stream rows with a server-side'
            ' cursor" (the user: "go with option 2, the replica times out on long cursors")',
        ),
        (
            "Hay dos opciones:\n\nOpción A: usar Oban con una cola.\nOpción B: un GenServer"
            " propio.\n\n¿Cuál prefieres?",
            "vamos con la opción A",
            '"usar Oban con una cola" over "un GenServer propio"',
        ),
        (
            "Es gibt zwei Varianten:\n\nVariante 1: den Cache vergrößern.\nVariante 2: die"
            " Vorschaubilder beim Import erzeugen.\n\nWelche soll ich umsetzen?",
            "nimm Variante 2",
            '"die Vorschaubilder beim Import erzeugen" over "den Cache vergrößern"',
        ),
        (
            "I see two ways: keep the trails as JSON files in Documents, or move them into"
            " SwiftData models.",
            "the second",
            '"move them into SwiftData models" over "keep the trails as JSON files in Documents"',
        ),
        (
            "Two possibilities: (a) a database sequence for the numbers, or (b) a Hi/Lo"
            " allocator in the app.",
            "(a)",
            '"a database sequence for the numbers" over "a Hi/Lo allocator in the app"',
        ),
        (
            "There are two approaches:\n\n- **Simpler approach:** a rake task run by cron.\n"
            "- **More robust approach:** a Sidekiq scheduled job.",
            "let's do the simpler approach",
            '"a rake task run by cron" over "a Sidekiq scheduled job"',
        ),
    ],
    ids=["lettered", "numbered", "spanish", "german", "two-ways", "inline", "named"],
)
async def test_a_pick_among_the_options_is_a_decision(reply: str, answer: str, said: str) -> None:
    (found,) = [c for c in await extract(_offered(reply, answer)) if "dialogue" in c.tags]

    assert found.type == MemoryType.PROJECT_FACT
    assert found.content == f"The user chose {said}."


async def test_the_verb_that_opens_one_side_of_an_or_question_picks_it() -> None:
    reply = (
        "Scoring now lives in one place. Should we keep that tiebreaker, or drop it and let"
        " equal scores share a rank?"
    )

    (found,) = chosen_options(_offered(reply, "drop the tiebreaker, no data changes").events)

    assert found.content == (
        "The user chose to drop it and let equal scores share a rank"
        ' (the user: "drop the tiebreaker, no data changes").'
    )


async def test_a_pick_taken_back_for_another_keeps_the_other() -> None:
    stream = _offered(_LETTERED, "B")
    stream.user("actually, A")

    (found,) = chosen_options(stream.events)

    assert found.content.startswith('The user chose "cache the rendered pages in Redis')


@pytest.mark.parametrize(
    ("reply", "answer"),
    [
        # a question back, a hesitant pick, neither option
        (_LETTERED, "what's the memory cost of A compared to B?"),
        (_LETTERED, "B? wouldn't that leave the exports a day old?"),
        (_LETTERED, "neither, leave it as is for now"),
        # the assistant's next step
        ("Should I run the tests now or after the refactor is finished?", "now"),
        ("The limiter is in. What next?\n\n1. Commit this now.\n2. Add it to signup first.", "1"),
        ("Which first?\n\n1. Commit the fix.\n2. Push the branch.", "1"),
        # a numbered list that offers no choice, an order of work, the assistant's questions
        ("I changed:\n\n1. the exporter.\n2. the tests.", "2"),
        (
            "Two bugs:\n\n1. A race in the pool.\n2. A leaked handle.\n\nWhich should I fix first?",
            "2",
        ),
        ("Which of these apply?\n\n1. Which database do you run?\n2. Do you need auth?", "1. pg"),
        ("Two options. Want me to:\n\nA) show the full diff.\nB) explain it line by line.", "A"),
        # a letter for numbered options: an answer to something else
        ("Options:\n\n1. Stream the rows.\n2. Paginate the rows.", "a - run the export first"),
        # an English article, not a label
        (_LETTERED, "a nightly job sounds heavy, cache it"),
    ],
    ids=[
        *("ask-back", "hesitant", "neither", "now-or-later", "what-next", "step", "list"),
        *("fix-first", "questions", "want-me-to", "other-kind", "a"),
    ],
)
def test_questions_back_and_next_steps_decide_nothing(reply: str, answer: str) -> None:
    assert chosen_options(_offered(reply, answer).events) == []


def test_the_assistants_own_choice_is_not_the_users() -> None:
    stream = Stream()
    stream.user("Add caching to the leaderboard.")
    stream.say(
        "Option A: Caffeine in-process.\nOption B: Redis shared.\n\nOne instance, so I'll go"
        " with A."
    )
    stream.say("Caffeine added.")
    stream.user("B")

    assert chosen_options(stream.events) == []


def test_options_the_user_pasted_are_not_the_assistants() -> None:
    stream = Stream()
    stream.user("My colleague wrote:\n\nOption 1: Celery.\nOption 2: RQ.\n\nTrade-offs?")
    stream.say("Celery is heavier; RQ reuses Redis.")
    stream.user("ok thanks")

    assert chosen_options(stream.events) == []


def test_a_pick_taken_back_with_no_new_pick_decides_nothing() -> None:
    stream = _offered(_LETTERED, "B")
    stream.user("wait, let me check with the team first")

    assert chosen_options(stream.events) == []


def test_options_of_a_subagent_are_not_the_assistants() -> None:
    stream = _offered(_LETTERED, "B")
    stream.events = [
        replace(e, sidechain=True) if e.event_type == "assistant_response" else e
        for e in stream.events
    ]

    assert chosen_options(stream.events) == []


def test_options_in_a_code_block_are_no_options() -> None:
    reply = f"The template says:\n```\n{_LETTERED}\n```\nDone."

    assert chosen_options(_offered(reply, "B").events) == []
