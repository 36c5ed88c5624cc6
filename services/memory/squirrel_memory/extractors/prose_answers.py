"""Design decisions the user made by answering a yes-or-no question the assistant asked in its
reply.

Without a question tool, the assistant asks in prose: it reads the code, then stops on one
question the plan depends on ("**Should NPCs react to combat through the dialogue system?**"),
and the user answers in a few words ("great idea, yes"). The answer settles the design as
surely as a choice between options (`answered_questions`), and a later session that does not
know it asks again or builds the other way. The rule is the same in every project:

- the assistant's reply (the main agent's, outside code blocks) asks exactly one question; a
  sentence that only elaborates it ("For example — …?", "Or …?", "e.g. …?") is part of it;
- the question is about the thing being built, not the assistant's next step: it opens with a
  modal of choice (should, must, shall, will, would; "Is the server up?" asks a fact, not a
  choice) whose subject is neither the
  assistant, the user nor a bare "this"/"that"/"it" ("Should I commit?", "Want me to …?",
  "Does this look right?" ask for a go-ahead or an approval, not a decision), and it has five
  words at least;
- the user's next message, in their own voice, is a plain yes or no in eight words at most
  ("yes", "great idea, yes", "no, keep it code-only"): a qualified answer ("yes but …", "only
  if …"), a question back or a longer message is not kept, and neither is an answer the user's
  next message takes back ("actually …").

It becomes one decision, on the key `answered_questions` gives the same question: "The user
decided, answering the assistant: "<question>" → yes ("great idea, yes")."
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from squirrel_core.events import EventType, is_user_voice
from squirrel_memory.extractors.activity import user_words
from squirrel_memory.extractors.answered_questions import KEY_PREFIX, MAX_QUESTION_CHARS
from squirrel_memory.extractors.wording import key_slug, without_bold
from squirrel_memory.models import StoredEvent

T = TypeVar("T")

#: A decision in prose: a little below one chosen with a question tool (0.7).
IMPORTANCE = 0.6
MIN_QUESTION_WORDS = 5
MAX_ANSWER_WORDS = 8

_SENTENCE = re.compile(r"(?<=[.!?])\s+")
#: A question about the thing built: a modal, then a subject that is not a pronoun of the two
#: speakers nor a bare demonstrative.
_DESIGN_QUESTION = re.compile(
    r"^(?:should|must|shall|will|would)\s+"
    r"(?!(?:i|we|you|me|us|it|this|that|these|those|there|everything|anything|something)\b)"
    r"\w",
    re.IGNORECASE,
)
#: A sentence that elaborates the question before it.
_ELABORATION = re.compile(
    r"^(?:for example|for instance|e\.g\.|i\.e\.|or|that is)\b", re.IGNORECASE
)
_YES = re.compile(
    r"\b(?:yes|yeah|yep|yup|sure|definitely|absolutely|correct|please do|sounds good)\b",
    re.IGNORECASE,
)
_NO = re.compile(r"^\W*(?:no|nope|nah|not really|don'?t|never)\b", re.IGNORECASE)
#: Words that qualify or take back an answer.
_QUALIFIED = re.compile(
    r"\b(?:but|only|unless|except|if|maybe|perhaps|not sure|wait|actually|instead)\b|\?",
    re.IGNORECASE,
)
_TAKEN_BACK = re.compile(
    r"^\s*(?:no\b|wait\b|actually\b|scratch that\b|never ?mind\b|on second thought\b)",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class ProseDecision:
    """One answered question: key, statement and the question's and answer's events."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def _question(text: str) -> str | None:
    """The one design question a reply asks (module docstring), or None."""
    prose = re.sub(r"```.*?(?:```|$)", " ", text, flags=re.DOTALL)
    asked: list[str] = []
    for line in prose.split("\n"):
        flat = " ".join(without_bold(line).replace("__", "").split())
        for raw in _SENTENCE.split(flat):
            sentence = raw.strip().lstrip("-*•> ").strip()
            if sentence.endswith("?") and not (asked and _ELABORATION.match(sentence)):
                asked.append(sentence)
    if len(asked) != 1:
        return None
    (question,) = asked
    if not _DESIGN_QUESTION.match(question) or len(question.split()) < MIN_QUESTION_WORDS:
        return None
    return question if len(question) <= MAX_QUESTION_CHARS else None


def _answer(text: str) -> str | None:
    """ "yes" or "no" for a plain answer (module docstring), or None."""
    words = text.split()
    if not words or len(words) > MAX_ANSWER_WORDS or _QUALIFIED.search(text):
        return None
    if _NO.match(text):
        return "no"
    return "yes" if _YES.search(text) else None


def answered_replies(
    events: list[StoredEvent], read: Callable[[str], T | None]
) -> Iterator[tuple[StoredEvent, T, list[StoredEvent]]]:
    """Each reply of the main agent that `read` finds something in (a question, options) and
    that the user answered before the assistant spoke again: the reply, what `read` found, and
    the user's messages after it in order (the first is the answer)."""
    main = [e for e in events if not e.sidechain]
    for i, event in enumerate(main):
        text = event.content.get("text")
        if event.event_type != EventType.ASSISTANT_RESPONSE or not isinstance(text, str):
            continue
        found = read(text)
        if found is None:
            continue
        later = [
            e
            for e in main[i + 1 :]
            if e.event_type == EventType.USER_MESSAGE and is_user_voice(e.origin)
        ]
        replies = [e for e in main[i + 1 :] if e.event_type == EventType.ASSISTANT_RESPONSE]
        if later and not (replies and replies[0].timestamp < later[0].timestamp):
            yield event, found, later


def prose_answers(events: list[StoredEvent]) -> list[ProseDecision]:
    """The decisions the user's plain answers to the assistant's one question record."""
    found: dict[str, ProseDecision] = {}
    for event, question, later in answered_replies(events, _question):
        said = user_words(later[0])
        answer = _answer(said)
        if answer is None or (len(later) > 1 and _TAKEN_BACK.search(user_words(later[1]))):
            continue
        quoted = " ".join(said.replace('"', "'").split())
        key = KEY_PREFIX + (key_slug(question) or event.id)
        content = (
            f'The user decided, answering the assistant: "{question}" → {answer} ("{quoted}").'
        )
        found[key] = ProseDecision(key, content, (event.id, later[0].id))
    return list(found.values())
