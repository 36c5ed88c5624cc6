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

Such a brief also sets the work's terms, which the next session needs as much as its goal
(`brief_parts`, one memory each, quoting the brief):

- **its steps**: lines numbered 1, 2, 3 … in order (`1.`, `1)`, a keycap digit, "Step 1:"),
  blank lines between them allowed and nothing else, at least `MIN_STEPS` of them, each at most
  `MAX_STEP_CHARS` and all together at most `MAX_PART_CHARS` (a longer list is not cut: say
  less);
- **what to submit**: a short heading line that names it ("You Submit", "Deliverables", "What
  to hand in"), then at least two list lines right under it (a bullet, a check mark or a
  number), under the same limits.

A step or an item is quoted as the brief words it, never as done.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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
MIN_STEPS = 3
MAX_STEP_CHARS = 200
MAX_PART_CHARS = 700
PART_IMPORTANCE = 0.5
#: A numbered step: "1.", "1)", a keycap digit ("1️⃣") or "Step 1:", then its words.
_STEP = re.compile(
    r"^\s*(?:step\s+)?(?P<number>\d{1,2})(?:\ufe0f?\u20e3|[.):]|\s*[—–-])\s*(?P<text>\S.*)$",
    re.IGNORECASE,
)
#: A heading that names what is to be submitted.
_SUBMIT_WORDS = re.compile(
    r"\b(?:submit|submission|submissions|deliverables?|hand in|to deliver)\b", re.IGNORECASE
)
#: A list line: a bullet, a check mark or box, or a number, then its words.
_LIST_LINE = re.compile(r"^\s*(?:[-*•·✅✔☐☑▪]|\d{1,2}[.)])\ufe0f?\s*(?P<text>\S.*)$")


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


@dataclass(frozen=True, slots=True)
class BriefPart:
    """One part of a pasted brief's terms (its steps, what to submit), quoted."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def _clean(text: str) -> str:
    return " ".join(text.split()).rstrip(" ;,")


def brief_steps(text: str) -> list[str] | None:
    """The brief's numbered steps, in order, when it has one run of them (module docstring)."""
    steps: list[str] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        step = _STEP.match(line)
        if step is not None and int(step.group("number")) == len(steps) + 1:
            steps.append(_clean(step.group("text")))
            continue
        if len(steps) >= MIN_STEPS:
            break
        steps = []
    if len(steps) < MIN_STEPS or any(len(step) > MAX_STEP_CHARS for step in steps):
        return None
    return steps


def brief_submissions(text: str) -> list[str] | None:
    """What the brief asks to submit: the list right under a heading that names it."""
    lines = text.splitlines()
    for at, line in enumerate(lines):
        words = _heading_words(line)
        if not 0 < len(words) <= MAX_HEADING_WORDS or not _SUBMIT_WORDS.search(" ".join(words)):
            continue
        if line.strip().endswith((".", "?", ",", ";")):
            continue
        items: list[str] = []
        for later in lines[at + 1 :]:
            item = _LIST_LINE.match(later)
            if item is None:
                break
            items.append(_clean(item.group("text")))
        if len(items) >= 2 and all(len(item) <= MAX_STEP_CHARS for item in items):
            return items
    return None


def _called_brief(events: list[StoredEvent]) -> tuple[StoredEvent, str, str] | None:
    """(the message, the brief's text before the user's words, what the user called it) of the
    first brief the user pasted and called the work (module docstring)."""
    for event, text in user_requests(events):
        if "```" in text or len(text) < MIN_PASTE_CHARS:
            continue
        if len([line for line in text.splitlines() if line.strip()]) < MIN_PASTE_LINES:
            continue
        called = _CALLED.search(text)
        if called is not None:
            return event, text, " ".join(called.group("what").lower().split())
    return None


def brief_parts(events: list[StoredEvent]) -> list[BriefPart]:
    """The steps and the things to submit of the first brief the user pasted and called the
    work (module docstring)."""
    found = _called_brief(events)
    if found is None:
        return []
    event, text, what = found
    parts: list[BriefPart] = []
    steps = brief_steps(text)
    if steps:
        listed = "; ".join(f"{number}. {step}" for number, step in enumerate(steps, 1))
        said = f'The brief the user called "{what}" sets out its steps: {listed}.'
        if len(said) <= MAX_PART_CHARS:
            parts.append(BriefPart("brief:steps", said, (event.id,)))
    items = brief_submissions(text)
    if items:
        said = f'The brief the user called "{what}" asks them to submit: {"; ".join(items)}.'
        if len(said) <= MAX_PART_CHARS:
            parts.append(BriefPart("brief:submit", said, (event.id,)))
    return parts


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
