"""What the project is for, from a brief the user pasted and called the task.

A project started for a challenge, a course or a client often opens with the user pasting its
brief (a title, a "Mission" or "Goal" section, steps, what to submit) and then saying so:
"this is the task", "here is the challenge". No README or manifest exists yet, and the brief's
own statement of the goal is the best account of what the project is for. The rule, the same
for every ecosystem:

- the message is the user's own (typed, not a subagent prompt or injected context) and is a
  paste: several lines and some hundreds of characters, with no fenced code;
- the user says the paste is the work: "this/that/above is the/our/my task|challenge|brief|
  assignment|problem statement", or "here is the …"; a paste with no such words may be a log,
  a spec of another system or an example, and says nothing;
- the brief has a short heading line naming its purpose (Mission, Objective, Challenge, at
  most five words, emoji and markup aside), and the first sentence of the next non-empty line
  is kept when it reads as a statement (not a question, 30 to 300 characters). An issue or a
  ticket pasted as the task heads its text "Problem", "Goal", "Task" or "Overview": those are
  one change's, not the project's, and say nothing.

The memory says what the user did and quotes the brief ("The user pasted a brief and called it
"the task"; its mission: …"), tagged as a summary: the project's own README replaces it.
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.activity import user_requests
from squirrel_memory.extractors.user_about import UserAbout
from squirrel_memory.models import StoredEvent

MIN_PASTE_CHARS = 300
MIN_PASTE_LINES = 5
MIN_GOAL_CHARS = 30
MAX_GOAL_CHARS = 300
MAX_HEADING_WORDS = 5

_CALLED = re.compile(
    r"\b(?:(?:this|that|above|the\s+above)\s+is|here\s+is|here's)\s+"
    r"(?P<what>(?:the|our|my)\s+(?:task|challenge|brief|assignment|problem\s+statement))\b",
    re.IGNORECASE,
)
_GOAL_WORDS = re.compile(r"\b(?P<word>mission|objectives?|challenge)\b", re.IGNORECASE)
#: Emoji, markup and punctuation around a heading's words.
_NOT_WORD = re.compile(r"[^\w\s'&+-]+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")


def _heading_words(line: str) -> list[str]:
    return _NOT_WORD.sub(" ", line).split()


def _is_goal_heading(line: str) -> bool:
    words = _heading_words(line)
    text = line.strip()
    return (
        0 < len(words) <= MAX_HEADING_WORDS
        and not text.endswith((".", "?", ",", ";"))
        and bool(_GOAL_WORDS.search(" ".join(words)))
    )


def brief_goal(text: str) -> tuple[str, str] | None:
    """(the heading's word, lower case; the first sentence under it) for a pasted brief's
    purpose heading, or None (module docstring)."""
    lines = text.splitlines()
    for at, line in enumerate(lines):
        if not _is_goal_heading(line):
            continue
        following = next((later.strip() for later in lines[at + 1 :] if later.strip()), "")
        if not following or _is_goal_heading(following):
            return None
        sentence = " ".join(_SENTENCE_END.split(following, maxsplit=1)[0].split())
        if (
            MIN_GOAL_CHARS <= len(sentence) <= MAX_GOAL_CHARS
            and not sentence.endswith("?")
            and '"' not in sentence
        ):
            word = _GOAL_WORDS.search(" ".join(_heading_words(line)))
            return (word.group("word").lower() if word else "goal"), sentence
        return None
    return None


def pasted_brief(events: list[StoredEvent]) -> UserAbout | None:
    """What the project is for, from the first brief the user pasted and called the work in
    `events`, or None."""
    for event, text in user_requests(events):
        if "```" in text or len(text) < MIN_PASTE_CHARS:
            continue
        if len([line for line in text.splitlines() if line.strip()]) < MIN_PASTE_LINES:
            continue
        called = _CALLED.search(text)
        if called is None:
            continue
        goal = brief_goal(text[: called.start()]) or brief_goal(text)
        if goal:
            what = " ".join(called.group("what").lower().split())
            heading, sentence = goal
            content = f'The user pasted a brief and called it "{what}"; its {heading}: {sentence}'
            return UserAbout(content, (event.id,))
    return None
