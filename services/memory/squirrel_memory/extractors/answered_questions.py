"""Decisions the user made by answering the assistant's questions.

When the assistant stops to ask (Claude Code's `AskUserQuestion`, Cursor's questions: ingest
gives the answer the `answer` origin, with the questions asked beside the answers), the user's
choice settles something the code and the files left open: which dependencies stay required,
which of two designs to build, what a release carries. A later session that does not know the
choice asks again or, worse, undoes it. Each asking becomes one memory in the user's voice:
"The user decided, answering the assistant: "<question>" → <answer>; …". The question is
quoted as asked (a question states nothing), the answer as chosen, without the assistant's own
marker on the option it recommended (a trailing one-word parenthesis: "(Recommended)").

Nothing is kept when the answers cannot be told apart (more or fewer answers than questions),
for an answer that decides nothing ("skip", "you decide", "not sure", "either"), for a bare
yes or no (a go-ahead for the next step, not a choice between options), for a subagent's
question, or when the user's next message takes the answer back ("no, wait", "actually …").
A bare go-ahead is told by its shape, in any language: one word of at most
`MAX_GO_AHEAD_CHARS` letters ("Yes", "Ja", "Sí", "Oui", "Да", "はい") that the question does
not name ("uv" answering "uv or pip?" picks one of the named).
A question asked again keeps its latest answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.events import EventType, Origin, is_user_voice
from squirrel_memory.extractors.activity import user_words
from squirrel_memory.extractors.wording import key_slug
from squirrel_memory.models import StoredEvent

#: The user's own decision: beside the standing rules they state.
IMPORTANCE = 0.7
KEY_PREFIX = "decision:"
#: Longest question and answer quoted (characters), and questions kept per asking.
MAX_QUESTION_CHARS = 220
MAX_ANSWER_CHARS = 160
MAX_QUESTIONS = 4
#: Longest one-word answer read as a go-ahead when the question does not name it.
MAX_GO_AHEAD_CHARS = 4

#: The assistant's marker on the option it recommended: "Mandatory (Recommended)".
_MARKER = re.compile(r"(?<!\s)\s*\([^\W\d_]+\)\s*$")
#: An answer that leaves the choice open.
_UNDECIDED = re.compile(
    r"^(?:skip(?:\s+(?:it|this|for now))?|n/?a|none|no idea|not sure|unsure|(?:i\s+)?don'?t know|"
    r"no preference|either(?:\s+(?:one|is fine))?|whatever|any|doesn'?t matter|"
    r"(?:you|u)\s+(?:decide|choose|pick)|your call|up to you|later|tbd|\?+)\W*$",
    re.IGNORECASE,
)
#: A go-ahead or refusal longer than a bare word's shape: it answers "shall I?", not "which?".
_YES_NO = re.compile(
    r"^(?:go ahead|proceed|do it|continue|approve[ds]?|confirm(?:ed)?)\W*$",
    re.IGNORECASE,
)
#: One word of letters, with trailing punctuation at most ("Sí.", "OK!").
_ONE_WORD = re.compile(r"^[¡¿]?([^\W\d_]+)[.!?¡¿。！]*$")
#: The user's next words taking the answer back.
_TAKEN_BACK = re.compile(
    r"^\s*(?:no\b|nope\b|wait\b|actually\b|scratch that\b|never ?mind\b|on second thought\b|"
    r"i changed my mind\b|sorry,? i meant\b)",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Decision:
    """One asking's answers: key, statement and the answer event."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def answered_questions(events: list[StoredEvent]) -> list[Decision]:
    """The decisions the user's answers to the assistant's questions in `events` record, one
    per asking, in order (a question asked again keeps the latest)."""
    ordered = sorted(events, key=lambda e: (e.timestamp, e.id))
    said = [
        e
        for e in ordered
        if e.event_type == EventType.USER_MESSAGE and is_user_voice(e.origin) and not e.sidechain
    ]
    found: dict[str, Decision] = {}
    for index, event in enumerate(said):
        if event.origin != str(Origin.ANSWER):
            continue
        following = said[index + 1] if index + 1 < len(said) else None
        if following is not None and _TAKEN_BACK.search(user_words(following)):
            continue
        pairs = _pairs(event)
        if not pairs:
            continue
        key = KEY_PREFIX + (key_slug(pairs[0][0]) or event.id)
        shown = "; ".join(f'"{question}" → {answer}' for question, answer in pairs)
        content = f"The user decided, answering the assistant: {shown}."
        found.pop(key, None)
        found[key] = Decision(key, content, (event.id,))
    return list(found.values())


def _pairs(event: StoredEvent) -> list[tuple[str, str]]:
    """(question, answer) pairs of one answer event that decide something; [] when the answers
    do not line up with the questions."""
    questions = event.content.get("questions")
    text = event.content.get("text")
    if not isinstance(questions, list) or not isinstance(text, str) or not questions:
        return []
    asked = [q.strip() for q in questions if isinstance(q, str) and q.strip()]
    answers = [a.strip() for a in text.strip().split("\n")] if len(asked) > 1 else [text.strip()]
    if len(asked) != len(questions) or len(answers) != len(asked):
        return []
    pairs: list[tuple[str, str]] = []
    for question, answer in zip(asked, answers, strict=True):
        chosen = _MARKER.sub("", answer).strip()
        if not chosen or _UNDECIDED.match(chosen) or _go_ahead(chosen, question):
            continue
        pairs.append((_quoted(question, MAX_QUESTION_CHARS), _quoted(chosen, MAX_ANSWER_CHARS)))
    return pairs[:MAX_QUESTIONS]


def _go_ahead(answer: str, question: str) -> bool:
    """Whether `answer` is a bare go-ahead or refusal to `question` (module docstring)."""
    if _YES_NO.match(answer):
        return True
    word = _ONE_WORD.match(answer)
    if word is None or len(word.group(1)) > MAX_GO_AHEAD_CHARS:
        return False
    named = re.search(rf"(?<!\w){re.escape(word.group(1))}(?!\w)", question, re.IGNORECASE)
    return named is None


def _quoted(text: str, limit: int) -> str:
    """`text` on one line, cut at a word within `limit`, with no quote or backtick left
    unpaired (a cut code span would be garbled)."""
    flat = " ".join(text.replace('"', "'").split())
    if len(flat) > limit:
        flat = flat[:limit].rsplit(" ", 1)[0].rstrip(",;:") + " …"
    if flat.count("`") % 2:
        flat = flat.replace("`", "")
    return flat
