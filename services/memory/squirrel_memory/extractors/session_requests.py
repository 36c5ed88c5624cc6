"""A request about how the work is done, made again in one session for other pieces of work.

`session_routines` keeps the bare delivery steps a user asks for after each piece of work
("commit and push"). Many one-session habits carry an object, though, and ride along a different
request each time: "commit, and reply to the PR comments referencing the fix commits", later
"check the outstanding comments, and reply to them with the fix commits as well", later still
"can you update the PR comment reply?". Each message asks for other work; what comes back is
the same request about how the work is done. Its shape, not its words, tells it apart:

- **the user's own request**: a sentence the user typed (`typed_requests`: not the host's,
  a hook's, a skill's body or a subagent's text), not quoted (`>`) or in a code block, no
  question unless it asks the assistant to do something ("can you …", "could we …");
- **about how work is done**: the words two messages share name a topic of the work's
  process (tests, version control, review comments, formatting, linting, typing: `topic`)
  and a verb of carrying work out that is not building the task's object itself (a fix, an
  addition, a removal or a rename is the task: "fix the failing login test" and "fix the
  failing signup test", both opening with it, are two tasks of one form, `_TASK_VERBS`);
- **the same request**: at least `MIN_SHARED_WORDS` content words shared, `MIN_TELLING_WORDS`
  of them more than a common verb ("make", "change", "after"), and at least `MIN_SHARED_SHARE`
  of the shorter sentence's;
- **for other pieces of work**: each message says something the other does not (a word of
  its own), and another message of the user's that asks something else lies between
  the two (sent again after an interrupt, or because it was not done yet, it is one task);
- **about no one thing**: no path, URL, long number or id in it.

Said in `MIN_MESSAGES` messages of one session so far, it is kept as a tentative habit, quoting
the wording that shares most with the others, at the weight of a routine asked in one session
(`session_routines.IMPORTANCE`): above a one-off instruction, below what several sessions give.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from squirrel_memory.extractors.instruction_forms import VERBS
from squirrel_memory.extractors.instruction_keys import topic
from squirrel_memory.extractors.instruction_words import common_word, instruction_words
from squirrel_memory.extractors.routine_requests import sentences, typed_requests
from squirrel_memory.extractors.session_routines import SessionRoutine
from squirrel_memory.extractors.wording import key_slug, stem, word_set
from squirrel_memory.extractors.working_habits import around
from squirrel_memory.models import StoredEvent

PREFIX = "pref:session_request:"
LEAD = "In one session so far the user asked {n} times, each along other work"
MIN_MESSAGES = 2
MIN_SHARED_WORDS = 3
#: Of them, words that tell requests apart (not only "run", "make", "change", "after").
MIN_TELLING_WORDS = 2
MIN_SHARED_SHARE = 0.5
#: Words a message between two of them needs to be other work ("ok", "yes" are not).
MIN_OTHER_WORDS = 3
MAX_SENTENCE_CHARS = 300
MAX_REQUESTS = 3

#: Verbs that build the task's object itself: a request made of them is the task.
_TASK_VERBS = frozenset(
    stem(w)
    for w in word_set(
        "fix add create remove delete rename move edit make build implement change write ",
        "refactor debug investigate look find try go let keep start",
    )
)
_PROCESS_VERBS = frozenset(stem(v) for v in VERBS) - _TASK_VERBS
_CODE_BLOCK = re.compile(r"```.*?```", re.DOTALL)
_QUOTED_LINE = re.compile(r"^[ \t]*>.*$", re.MULTILINE)
#: One particular thing: a URL, a path, a file name, a long number or hash.
_PARTICULAR = re.compile(
    r"https?://|\w/\w|\b\w+\.(?:[a-z]{1,4})\b(?!\s*$)|\b\d{4,}\b|\b[0-9a-f]{7,40}\b", re.I
)
#: A question that asks the assistant to do something: "(before we go on,) can you also …".
_ASKS_TO_DO = re.compile(
    r"^(?:[^,?]{0,40},\s*)?(?:(?:so|and|also|ok(?:ay)?|now|then)\s+)*"
    r"(?:can|could|would|will)\s+(?:you|we)\b",
    re.IGNORECASE,
)
_WORD = re.compile(r"[^\W\d_]+")
_LEADS = re.compile(
    r"^(?:\W*(?:ok(?:ay)?|so|and|also|now|then|please|pls|can you|could you|can we|could we|"
    r"would you|let'?s|just)\b)*\W*"
)


@dataclass(frozen=True, slots=True)
class SessionRequest(SessionRoutine):
    """A request about how work is done, asked in `messages` messages of one session (weighed and
    worded as a routine, with its own lead-in)."""

    lead: ClassVar[str] = LEAD


@dataclass(frozen=True, slots=True)
class _Said:
    index: int
    event: StoredEvent
    sentence: str
    words: frozenset[str]


def request_sentences(text: str) -> list[str]:
    """The sentences of a user message that can be a request: not quoted or in a code block,
    not a question unless it asks the assistant to do something, about no one thing."""
    plain = _QUOTED_LINE.sub(" ", _CODE_BLOCK.sub(" ", text))
    found: list[str] = []
    for sentence in sentences(plain):
        flat = " ".join(sentence.split())
        if len(flat) > MAX_SENTENCE_CHARS or _PARTICULAR.search(flat):
            continue
        if "?" in flat and not _ASKS_TO_DO.match(flat):
            continue
        found.append(flat)
    return found


def _opening_verb(sentence: str) -> str:
    """The stem of the word a request opens with, after its leads ("ok, ", "can you also")."""
    words = _WORD.findall(_LEADS.sub("", sentence.lower()))
    return stem(words[0]) if words else ""


def same_request(first: frozenset[str], second: frozenset[str]) -> bool:
    """Whether two sentences' content words make one request about how the work is done, each
    along other work (see the module's rules)."""
    shared = first & second
    if len(shared) < MIN_SHARED_WORDS:
        return False  # most pairs of a long session end here, before any word is weighed
    if sum(1 for w in shared if not common_word(w)) < MIN_TELLING_WORDS:
        return False
    if len(shared) / min(len(first), len(second)) < MIN_SHARED_SHARE:
        return False
    if not (first - second and second - first):
        return False  # one says nothing the other does not: one task, asked again
    return bool(shared & _PROCESS_VERBS) and topic(" ".join(sorted(shared))) is not None


def session_requests(events: list[StoredEvent]) -> list[SessionRequest]:
    """Requests about how work is done asked in `MIN_MESSAGES` or more messages of one session,
    another request of the user's between each two of them, the most asked first."""
    typed = typed_requests(events)
    said: list[_Said] = [
        _Said(index, event, sentence, instruction_words(sentence))
        for index, (event, text) in enumerate(typed)
        for sentence in request_sentences(text)
    ]
    found: list[SessionRequest] = []
    used: set[int] = set()
    for i, first in enumerate(said):
        if i in used:
            continue
        group = [first]
        for j in range(i + 1, len(said)):
            other = said[j]
            if j in used or other.event.session_id != first.event.session_id:
                continue
            if other.index == group[-1].index or not any(
                same_request(member.words, other.words) and not _one_form(member, other)
                for member in group
            ):
                continue
            between = typed[group[-1].index + 1 : other.index]
            if any(_other_work(text) for _, text in between):
                group.append(other)
                used.add(j)
        if len(group) < MIN_MESSAGES:
            continue
        used.add(i)
        central = max(group, key=lambda s: sum(len(s.words & o.words) for o in group if o is not s))
        shared = set.intersection(*(set(s.words) for s in group)) or set(central.words)
        found.append(
            SessionRequest(
                key=PREFIX + key_slug(" ".join(sorted(shared))),
                wording=_quote(central.sentence, frozenset(shared)).rstrip(".!;"),
                messages=len(group),
                event_ids=tuple(dict.fromkeys(s.event.id for s in group)),
            )
        )
    found.sort(key=lambda r: -r.messages)
    return found[:MAX_REQUESTS]


def _quote(sentence: str, shared: frozenset[str]) -> str:
    """`sentence`, cut when long to the words around those the request's messages share."""
    spans = [m.span() for m in _WORD.finditer(sentence) if instruction_words(m.group()) & shared]
    if not spans:
        return around(sentence, 0, 0)
    return around(sentence, spans[0][0], spans[-1][1])


def _one_form(first: _Said, second: _Said) -> bool:
    """Two tasks of one form: both open with the same verb that builds the task's object
    ("fix the failing login test" / "fix the failing signup test")."""
    verb = _opening_verb(first.sentence)
    return verb in _TASK_VERBS and verb == _opening_verb(second.sentence)


def _other_work(text: str) -> bool:
    """A message that asks or says something (not a bare "ok" or "yes")."""
    return len(_WORD.findall(text)) >= MIN_OTHER_WORDS
