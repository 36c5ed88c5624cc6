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

import bisect
import heapq
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from squirrel_memory.extractors.instruction_keys import topic
from squirrel_memory.extractors.instruction_parts import VERBS
from squirrel_memory.extractors.instruction_words import common_word, instruction_words
from squirrel_memory.extractors.own_words import own_words
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
    plain = own_words(text)
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
    another request of the user's between each two of them, the most asked first.

    Each sentence, in order, gathers the later ones that make the same request as one of its
    group so far (`same_request`, not two tasks of one form) with other work between. Only a
    sentence sharing a verb of carrying work out and a word with a topic with a member can make
    the same request (`same_request` needs both in the words they share), so a group looks at
    those alone (`_Candidates`), and whether other work lies between two messages is read from
    a running count: the time grows with the sentences that could pair, not with the square of
    the session's length."""
    typed = typed_requests(events)
    said: list[_Said] = [
        _Said(index, event, sentence, instruction_words(sentence))
        for index, (event, text) in enumerate(typed)
        for sentence in request_sentences(text)
    ]
    work_before = [0]  # work_before[k]: messages before the k-th that are other work
    for _, text in typed:
        work_before.append(work_before[-1] + _other_work(text))
    candidates = _Candidates(said)
    same = _SameRequest()
    found: list[SessionRequest] = []
    used: set[int] = set()
    for i, first in enumerate(said):
        if i in used or not candidates.keys[i]:
            continue
        group = [first]
        for j in candidates.after(i, used):
            other = said[j]
            if other.index == group[-1].index or not any(
                same(member.words, other.words) and not _one_form(member, other) for member in group
            ):
                continue
            if work_before[other.index] - work_before[group[-1].index + 1] > 0:
                group.append(other)
                used.add(j)
                candidates.joined(j)
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


class _SameRequest:
    """`same_request`, remembered per pair of word sets (a wording said again is asked once)."""

    def __init__(self) -> None:
        self._seen: dict[tuple[frozenset[str], frozenset[str]], bool] = {}

    def __call__(self, first: frozenset[str], second: frozenset[str]) -> bool:
        pair = (first, second)
        known = self._seen.get(pair)
        if known is None:
            known = self._seen[pair] = same_request(first, second)
        return known


class _Candidates:
    """The sentences that could make the same request as a group's members: of the same
    session, sharing with one of them a verb of carrying work out and a word with a topic (a
    pair sharing neither fails `same_request` whatever else they share). A sentence with no
    such pair of words (`keys` empty) pairs with none."""

    def __init__(self, said: list[_Said]) -> None:
        self._said = said
        self.keys: list[tuple[tuple[str | None, str, str], ...]] = []
        self._postings: dict[tuple[str | None, str, str], list[int]] = {}
        for n, item in enumerate(said):
            verbs = sorted(item.words & _PROCESS_VERBS)
            topical = sorted(w for w in item.words if _topical(w)) if verbs else []
            keys = tuple((item.event.session_id, v, t) for v in verbs for t in topical)
            self.keys.append(keys)
            for key in keys:
                self._postings.setdefault(key, []).append(n)
        self._heap: list[int] = []
        self._queued: set[int] = set()
        self._keys_seen: set[tuple[str | None, str, str]] = set()
        self._at = 0

    def after(self, i: int, used: set[int]) -> Iterator[int]:
        """The candidates after sentence `i` for the group it opens, in order, not yet used;
        members that join (`joined`) add theirs as the walk goes on."""
        self._heap, self._queued, self._keys_seen, self._at = [], set(), set(), i
        self._add(i)
        while self._heap:
            j = heapq.heappop(self._heap)
            self._at = j
            if j not in used:
                yield j

    def joined(self, j: int) -> None:
        """Sentence `j` joined the group: the later sentences it could pair with are candidates."""
        self._add(j)

    def _add(self, n: int) -> None:
        for key in self.keys[n]:
            if key in self._keys_seen:
                continue
            self._keys_seen.add(key)
            postings = self._postings[key]
            for j in postings[bisect.bisect_right(postings, self._at) :]:
                if j not in self._queued:
                    self._queued.add(j)
                    heapq.heappush(self._heap, j)


def _topical(word: str) -> bool:
    """Whether `topic` finds a topic in this word (so in any words it is among)."""
    return topic(word) is not None


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


def _other_work(text: str) -> int:
    """A message that asks or says something (not a bare "ok" or "yes")."""
    return int(len(_WORD.findall(text)) >= MIN_OTHER_WORDS)
