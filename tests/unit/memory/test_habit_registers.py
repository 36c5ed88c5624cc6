"""Habits said in many registers: after a lead-in ("seriously,", "no no,", "how many times do I
have to say it,"), with a reason first, as the team's convention, as what done means, about how
to answer, with "Always." or "Ever." after them, or ruling out a kind of thing; and the one-offs
in the same words that stay one-offs."""

from __future__ import annotations

import pytest

from bench.habits_phrasebook import OPENING, REPLYING, session_verdict
from squirrel_memory.extractors.preferences import stated_preferences


def _standing(message: str) -> list[str]:
    return [
        p.content for p in stated_preferences(message, after_assistant_action=False) if p.standing
    ]


@pytest.mark.parametrize(
    ("message", "content"),
    [
        # a refusal set off by a comma, in a session's first message
        ("no, we use pytest here, not unittest", "Use pytest, not unittest."),
        (
            "no no, never amend a commit that's already pushed",
            "Never amend a commit that's already pushed.",
        ),
        ("how many times do I have to say it, use pnpm, not npm", "Prefers pnpm over npm."),
        # said again after the assistant did it again
        (
            "you did it again. no print statements in library code!",
            "No print statements in library code.",
        ),
        # usual misspellings of rule words
        ("pls use pathlib insted of os.path everywere", "Prefers pathlib over os.path everywhere."),
        ("alway use the virtualenv in .venv", "Always use the virtualenv in .venv."),
        # a reason first, then the directive read on its own
        (
            "since CI is slow, run the affected tests locally before every push",
            "Run the affected tests locally before every push.",
        ),
        (
            "because I review diffs on my phone, keep lines under 80 characters",
            "Keep lines under 80 characters.",
        ),
        # the team's convention
        (
            "the team prefers named exports over default exports",
            "Prefers named exports over default exports.",
        ),
        (
            "around here we write ADRs for any architectural decision",
            "Write ADRs for any architectural decision around here.",
        ),
        (
            "By convention, all timestamps in the API are ISO 8601 in UTC.",
            "All timestamps in the API are ISO 8601 in UTC.",
        ),
        # "Always." or "Ever." as a sentence of its own
        ("tests before commits. always.", "Tests before commits."),
        ("no force push. ever.", "No force push."),
        # any such thing made later
        (
            "don't rely on red and green alone in any UI you build",
            "Don't rely on red and green alone in any UI you build.",
        ),
        # a prohibition of a kind of thing, picked out
        ("stop reformatting unrelated files", "Avoid reformatting unrelated files."),
        ("pls dont leave commented out code behind", "Don't leave commented out code behind."),
        # every commit or PR, a state the work reaches again, every fix
        ("sign off every commit with -s", "Sign off every commit with -s."),
        (
            "when you're unsure, ask me instead of guessing",
            "When you're unsure, ask me instead of guessing.",
        ),
        ("every bug fix needs a regression test", "Every bug fix needs a regression test."),
        # how every answer is given
        ("be brief", "Be brief."),
        ("short answers pls", "Short answers."),
        (
            "keep each commit to a single logical change",
            "Keep each commit to a single logical change.",
        ),
    ],
)
def test_a_habit_in_another_register_is_standing(message: str, content: str) -> None:
    assert content in _standing(message)


@pytest.mark.parametrize(
    "message",
    [
        "no comments",
        "no, the other branch",
        "you did it again. fix the login bug",
        "because the API changed, update the client",
        "since the tests pass, go ahead and merge",
        "the team prefers not to decide that now",
        "the team prefers the second approach",
        "we always run into timeouts",
        "the build breaks. every time.",
        "the page reloads. every time.",
        "it crashes on start. always.",
        "keep this function under 40 lines",
        "be more concise",
        "be brief here, I'm in a meeting",
        "don't add tests",
        "stop making changes",
        "don't touch other files",
        "stop running tests",
        "reply to every message in the thread",
        "reword every commit since main",
        "squash every commit on this branch",
        "if you're stuck on this one, ask me",
        "rebase the branch before opening the PR",
        # a step before another, said once without a rule word: it waits to be said again
        "rebase on main before opening a PR",
    ],
)
def test_a_one_off_in_the_same_words_is_not_standing(message: str) -> None:
    assert _standing(message) == []


@pytest.mark.parametrize(
    ("message", "verdict"),
    [
        ("don't tell me something is fixed until you've actually run it", "kept"),
        ("before you say a change is finished, run the full build", "kept"),
        ("Done means: tests green, changelog updated, docs touched if behaviour changed.", "kept"),
        ("don't summarise at the end of every answer", "kept"),
        # said of "it" or of one task: it may be this task's, and waits to be said again
        ("it's not done until it's pushed", "tentative"),
        ("don't say it's done before the tests pass", "tentative"),
        ("before you say it's finished, run the full build", "tentative"),
        ("the task is only done when lint, types and tests all pass", "tentative"),
        # said of any task, "a task", as "a change" above
        ("a task is only done when lint, types and tests all pass", "kept"),
    ],
)
def test_what_done_means_for_any_work_is_a_standing_habit(message: str, verdict: str) -> None:
    assert session_verdict(message, OPENING) == verdict
    if verdict == "kept":
        assert session_verdict(message, REPLYING) == verdict
