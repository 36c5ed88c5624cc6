"""Habits of every reply said after the task in the same message (short replies, no closing
summary, no explanation unasked, the reply's form), and the one-off tasks in the same words
that none of them may take."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.paraphrases import same_instruction
from squirrel_memory.extractors.preferences import stated_preferences
from squirrel_memory.extractors.reply_habits import (
    BULLETS_KEY,
    CHANGED_LINES_KEY,
    EXPLAIN_KEY,
    FENCED_KEY,
    LENGTH_KEY,
    PLAIN_KEY,
    SUMMARY_KEY,
)
from squirrel_memory.extractors.workflow_habits import (
    with_workflow_habits,
    workflow_habits,
)
from squirrel_memory.models import MemoryCandidate, MemoryType, Scope
from squirrel_memory.recurrence import unify_keys


def _keys(text: str) -> dict[str, str]:
    stated = stated_preferences(text, after_assistant_action=False)
    return {
        p.key: p.content for p in with_workflow_habits(stated, text, after_assistant_action=False)
    }


@pytest.mark.parametrize(
    ("text", "key", "quote"),
    [
        (
            "The /track endpoint 500s when the carrier code is lowercase. Fix it. Keep your "
            "answers short and skip the summary at the end, please.",
            SUMMARY_KEY,
            "Skip the summary at the end, please",
        ),
        ("Bump the timeout to 30s. Also no recap please.", SUMMARY_KEY, "Also no recap please"),
        ("Change the text. Skip the final summary.", SUMMARY_KEY, "Skip the final summary"),
        (
            "Add the parser, and don't summarise what you did, I'll read the diff.",
            SUMMARY_KEY,
            "Don't summarise what you did, I'll read the diff",
        ),
        (
            "Add the scheduler. No need for a summary when you're done.",
            SUMMARY_KEY,
            "No need for a summary when you're done",
        ),
        (
            "You don't need to summarize your changes at the end.",
            SUMMARY_KEY,
            "You don't need to summarize your changes at the end",
        ),
        ("Add the mailer. Short replies please.", LENGTH_KEY, "Short replies please"),
        ("Add the search page. Answers should be brief.", LENGTH_KEY, "Answers should be brief"),
        ("Add a flag. Be brief and to the point.", LENGTH_KEY, "Be brief and to the point"),
        ("Inline the helper. Don't bother explaining.", EXPLAIN_KEY, "Don't bother explaining"),
        (
            "Rename the context. Just give me the code, no explanation.",
            EXPLAIN_KEY,
            "No explanation",
        ),
        (
            "Skip the explanations, I know the codebase.",
            EXPLAIN_KEY,
            "Skip the explanations, I know the codebase",
        ),
        (
            "You don't have to explain what each line does.",
            EXPLAIN_KEY,
            "You don't have to explain what each line does",
        ),
        ("No need to explain your changes.", EXPLAIN_KEY, "No need to explain your changes"),
        (
            "Add a retry to the fetcher and answer in bullet points.",
            BULLETS_KEY,
            "Answer in bullet points",
        ),
        (
            "Use bullet points when you list things.",
            BULLETS_KEY,
            "Use bullet points when you list things",
        ),
        (
            "Rewrite eval with a fold, and write your replies in plain text, no markdown.",
            PLAIN_KEY,
            "Write your replies in plain text, no markdown",
        ),
        (
            "Put code in fenced blocks with the language tag.",
            FENCED_KEY,
            "Put code in fenced blocks with the language tag",
        ),
        (
            "Fix the off-by-one. Show only the changed lines, not the whole file.",
            CHANGED_LINES_KEY,
            "Show only the changed lines, not the whole file",
        ),
    ],
)
def test_a_reply_habit_after_the_task_is_read(text: str, key: str, quote: str) -> None:
    [habit] = [h for h in workflow_habits(text, after_assistant_action=False) if h.key == key]

    assert f"“{quote}”" in habit.content


def test_short_answers_and_no_summary_in_one_sentence_are_two_habits() -> None:
    keys = _keys("Fix it. Keep your answers short and skip the summary at the end, please.")

    assert set(keys) == {LENGTH_KEY, SUMMARY_KEY}


@pytest.mark.parametrize(
    "text",
    [
        "Give me a short summary of this file.",
        "Summarise the PR.",
        "Explain this function.",
        "Explain why the test fails.",
        "Can you explain what this regex does?",
        "Explain the difference between these two approaches.",
        "Keep this function short.",
        "Write a short README section about installation.",
        "Give me a recap of what we changed today.",
        "Write the commit message in bullet points.",
        "Add bullet points to the release notes.",
        "Make the error message shorter.",
        "Add a summary field to the Report record.",
        "Write a concise docstring for parse_date.",
        "Summarize the failing tests for me.",
        "Make the log output less verbose.",
        "Answer this one briefly: does the cache expire?",
        "Write a short summary at the top of the design doc.",
        "Keep the changelog entry brief.",
        "Shorten the variable names in utils.py.",
        "The parser skips the summary line and returns no summary, please check.",
        "The worker retries and answers in bullet points when it fails.",
        "The docs explain the code and no explanation is needed in the PR description.",
    ],
)
def test_one_off_tasks_in_reply_words_are_no_habits(text: str) -> None:
    assert _keys(text) == {}


def test_stop_summarizing_at_the_end_is_one_habit() -> None:
    keys = _keys("Update the schema. Please stop summarizing your work at the end.")

    assert list(keys) == [SUMMARY_KEY]


@pytest.mark.parametrize(
    "text",
    ["Keep the responses short in the API docs.", "Make the replies brief in this template."],
)
def test_short_replies_of_a_thing_are_not_every_reply(text: str) -> None:
    assert [h.key for h in workflow_habits(text, after_assistant_action=False)] == []


def test_a_reply_habit_another_rule_reads_stays_in_its_words() -> None:
    keys = _keys("Add the tokenizer. Be concise.")

    assert keys == {LENGTH_KEY: "Be concise."}


def test_two_reply_habits_with_a_shared_lead_stay_two() -> None:
    short = "The user wants short replies, in their words: “Short replies please”."
    bullets = "The user wants replies in bullet points, in their words: “Answer in bullet points”."
    # the lead's words alone would join them: the quotes are compared, and the keys kept apart
    assert not same_instruction(short, bullets)
    first = _style(LENGTH_KEY, short)
    second = _style(BULLETS_KEY, bullets)

    assert [c.key for c in unify_keys([first, second])] == [LENGTH_KEY, BULLETS_KEY]


def _style(key: str, content: str) -> MemoryCandidate:
    return MemoryCandidate(
        type=MemoryType.USER_STYLE,
        key=key,
        content=content,
        tags=("preference", "workflow", "tentative"),
        scope=Scope.USER,
        importance=0.4,
        source_event_ids=("e1",),
    )


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        ("Why does the handler return 502 on a timeout? Keep it short.", "Keep it short"),
        (
            "Explain the retry loop in the sync, briefly.",
            "Explain the retry loop in the sync, briefly",
        ),
        ("为什么登录接口返回 500？简短回答。", "简短回答"),
    ],
)
def test_the_answers_length_asked_in_a_message_that_asks_for_an_answer(
    text: str, quote: str
) -> None:
    [habit] = workflow_habits(text, after_assistant_action=False)
    assert habit.key == LENGTH_KEY and f"“{quote}”" in habit.content


@pytest.mark.parametrize(
    "text",
    [
        "Rewrite the README intro. Keep it short, two sentences.",
        "Rewrite the README intro. Keep it short.",
        "Keep it short.",
        "Add a summary field to the form, briefly described in the docs.",
    ],
)
def test_keep_it_short_of_a_text_to_write_is_not_the_answers_length(text: str) -> None:
    assert LENGTH_KEY not in {h.key for h in workflow_habits(text, after_assistant_action=False)}
