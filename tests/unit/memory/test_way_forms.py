"""Short preferences about how the work is done, said without a rule word ("no emojis please",
"be concise", "respond in Chinese", "I don't want any new dependencies", "we don't use classes
here", "can you stop adding comments"): kept when their object is a way of working, never when
it is the task at hand ("no tests for now", "can you stop running the tests")."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.firmness import STANDING_TAG
from squirrel_memory.extractors.preferences import stated_preferences
from squirrel_memory.extractors.way_forms import way_statement
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "content", "standing"),
    [
        # what no answer should have holds for every answer, as their length does
        ("no emojis please", "No emojis.", True),
        ("no filler", "No filler.", True),
        ("no comments in the code please", "No comments in the code.", False),
        ("be more concise in your answers", "Be more concise in your answers.", False),
        ("shorter answers please", "Shorter answers.", False),
        ("less comments", "Less comments.", False),
        ("please respond in Chinese", "Answer in Chinese.", True),
        ("answer in English", "Answer in English.", True),
        ("I don't want any new dependencies", "Avoid new dependencies.", False),
        ("I don't like long functions", "Avoid long functions.", False),
        ("we don't use classes here", "Don't use classes.", True),
        # a kind of thing the project does without, whatever the kind
        ("we don't use ORMs here", "Don't use ORMs.", True),
        ("can you stop adding comments", "Avoid adding comments.", False),
        ("could you please stop apologising", "Avoid apologising.", False),
        ("no need to explain", "Don't explain.", False),
        ("don't explain, just do it", "Don't explain.", False),
        ("Answer me in French.", "Answer in French.", True),
        ("Write commit messages in English.", "Write commit messages in English.", True),
        ("commit messages in English, please", "Write commit messages in English.", True),
        ("always write code comments in German", "Write code comments in German.", True),
        ("Keep your answers short.", "Keep your answers short.", True),
        ("please keep your replies brief", "Keep your replies brief.", True),
        ("no co-authored-by trailers", "No co-authored-by trailers.", False),
        # the language to answer in, asked in that language
        ("用中文回答", "Answer in Chinese.", True),
        ("请用中文回复我", "Answer in Chinese.", True),
        ("以后都用中文回答我", "Answer in Chinese.", True),
        ("日本語で答えてください", "Answer in Japanese.", True),
        ("한국어로 답변해 주세요", "Answer in Korean.", True),
    ],
)
def test_a_way_of_working_said_in_a_few_words_is_a_preference(
    text: str, content: str, standing: bool
) -> None:
    (found,) = stated_preferences(text, after_assistant_action=True)
    assert (found.content, STANDING_TAG in found.tags) == (content, standing)


@pytest.mark.parametrize(
    "text",
    [
        "no worries",
        "no problem",
        "no tests for now",  # the task of the moment
        "no more changes to this file",  # one file
        "can you stop running the tests",  # the run of the moment
        "we don't use it",  # "it"
        "I don't want this function",  # one function of the task
        "no need to update the readme",  # a step of this task
        "be careful",  # not how to answer
        "respond in the PR thread",  # where, not which language
        "Answer in Python",  # code asked for, not the language of the answers
        "write the docs in Rust",  # a programming language, no language of prose
        "Write the README in Spanish.",  # one document of the task
        "keep it short",  # this answer
        "keep the function short",  # code, not the answers
        "用中文回答这个问题",  # this question, in Chinese
        "日本語で答えてください、このバグについて",  # about this bug
        "no trailers on this commit",  # one commit
    ],
)
def test_the_task_at_hand_is_no_way_of_working(text: str) -> None:
    assert way_statement(text) is None
    assert not [
        p for p in stated_preferences(text, after_assistant_action=True) if STANDING_TAG in p.tags
    ]


def test_no_emojis_after_the_assistant_acted_keeps_its_no() -> None:
    # "no" opens both a correction ("no, use the other one") and a refusal of a kind of thing
    (found,) = stated_preferences("no emojis please", after_assistant_action=True)
    assert found.content == "No emojis."


@pytest.mark.parametrize(
    ("root", "said", "language"),
    [
        ("/home/dev/api", "please respond in Chinese", "Chinese"),  # a Go service
        ("/home/dev/notebooks", "answer in German please", "German"),  # a Python analysis
    ],
)
def test_the_language_to_answer_in_holds_for_every_later_answer(
    root: str, said: str, language: str
) -> None:
    session = Session(root, "s1", T0)
    session.add("user_message", {"text": "look at the failing job"}, origin="typed")
    session.say("The job fails on a missing variable.")
    session.add("user_message", {"text": said}, origin="typed")
    styles = [c for c in session.extracted() if c.type is MemoryType.USER_STYLE]
    assert [c.content for c in styles] == [f"Answer in {language}."]
    assert STANDING_TAG in styles[0].tags


@pytest.mark.parametrize(
    ("text", "content"),
    [
        (
            "Keep your answers short, bullet points please.",
            "Keep your answers short, bullet points.",
        ),
        ("Again: shorter replies, I don't need the long explanations.", None),
        ("Keep answers short.", "Keep answers short."),
        ("Shorter answers please.", "Shorter answers."),
        ("Keep your answers short, and fix the bug in parser.py.", "Keep your answers short."),
    ],
)
def test_every_wording_of_the_answers_length_shares_one_key(text: str, content: str | None) -> None:
    (found,) = stated_preferences(text, after_assistant_action=False)
    assert found.key == "pref:answer_length"
    if content is not None:
        assert found.content == content


def test_fewer_of_a_kind_of_code_keeps_its_own_key() -> None:
    (found,) = stated_preferences("Fewer comments please.", after_assistant_action=False)
    assert found.key == "pref:comment"
