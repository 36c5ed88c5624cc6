"""The same action opening request after request of one session: how this user has work done.

`session_requests` joins requests of one session that share most of their words, and
`session_routines` the bare delivery steps. A user who hands work on the same way each time
says the same action, and little else the same, in message after message: "spawn a worker to
update the wiki with the findings", then "please spawn a worker to do research on the retry
policies", later "spawn a worker to compare both frameworks"; or "use the Makefile target
to …", "update the docs for …". What comes back is the verb and its object at the head of
the request; what follows differs (each message asks for other work). Its shape tells it
apart, in any ecosystem:

- **the user's own request**: a sentence the user typed (`typed_requests`), not a question,
  not a label ("Selected files:"), nothing particular (path, URL, file name, name in code) at
  its head;
- **an action at its head**: after the leads ("ok", "also", "please", "can you"), an
  imperative verb (a plain word, not "fixed", "running", "tests", a pronoun or a question
  word) and its object, past the determiners ("spawn a worker", "update the docs");
- **not the task's object itself**: a verb that builds the task's object ("fix", "add",
  "remove", "rename", "implement" …: "fix the login test", "fix the signup test" are two tasks
  of one form) and a delivery step ("commit", "push": `session_routines`' own) are left out;
- **in `MIN_MESSAGES` messages of one session**, each a message of its own (the same message
  sent again is one task asked twice).

It is kept as a habit so far, worded and weighed as a request asked in one session
(`session_requests`): tentative, above a one-off instruction, below what several sessions give,
more important the more messages say it, quoting the shortest of its requests.
"""

from __future__ import annotations

import re
from collections import defaultdict

from squirrel_memory.extractors.repeated_requests import MAX_SAME_MESSAGE
from squirrel_memory.extractors.routine_requests import sentences, typed_requests
from squirrel_memory.extractors.said_requests import trigrams
from squirrel_memory.extractors.session_requests import PREFIX, SessionRequest
from squirrel_memory.extractors.wording import key_slug, stem, word_set
from squirrel_memory.extractors.working_habits import around
from squirrel_memory.models import StoredEvent

#: Messages of one session whose requests open with the action, for a habit so far.
MIN_MESSAGES = 3
MAX_MESSAGE_CHARS = 2_000
#: The head of a request: where its verb and object are looked for.
HEAD_CHARS = 60
MAX_QUOTE_CHARS = 120
MAX_ACTIONS = 2

_LEADS = re.compile(
    r"^(?:\W*(?:ok(?:ay)?|so|and|also|now|then|please|pls|just|great|good|cool|yes|yeah|"
    r"can you|could you|would you|let'?s|go ahead and|next|first|finally)\b)*\W*",
    re.IGNORECASE,
)
_WORD = re.compile(r"[A-Za-z][a-z'-]*")
#: Words that open a sentence without being an imperative verb, or sit where its object would.
_NOT_ACTION = word_set(
    "i we you he she they it this that there here what why how when where which who maybe ",
    "perhaps yes no ok okay thanks thank great good nice cool looks seems is are was were be do ",
    "does did dont can could would should will shall may might must have has had not never also ",
    "same still more less all any some one two the a an my your our their its if but or so as ",
    "at in on of to for with by from hmm wait sorry well actually sure right hey hi hello me us ",
    "them him her everything something anything nothing again too very really just only ",
)
#: Verbs that build the task's object itself, and delivery steps (`session_routines`' own).
_TASK_VERBS = frozenset(
    stem(w)
    for w in word_set(
        "fix add create remove delete rename move edit make build implement change write ",
        "refactor debug investigate look find try go let keep start get give put set see ",
        "commit push merge rebase tag release deploy publish",
    )
)
_DETERMINERS = word_set("the a an your my our this that these those some another new")
#: Something particular at a request's head: a path, a URL, a file name, a name in code.
_PARTICULAR = re.compile(
    r"https?://|\w[/\\]\w|\b\w+\.[a-z]{1,4}\b|\b[a-z]+[A-Z]\w*|\b\w+_\w+|\d{3,}|[:：]\s*$"
)
_QUESTION = re.compile(r"[?？]")


def action_of(sentence: str) -> tuple[str, str] | None:
    """The verb and object at the head of a request ("please spawn a worker to …" → spawn,
    worker), stemmed; None when it opens with no such action (see the module's rules)."""
    flat = " ".join(sentence.split())
    if not flat or _QUESTION.search(flat) or flat.endswith(":"):
        return None
    body = _LEADS.sub("", flat)
    head = body[:HEAD_CHARS]
    if _PARTICULAR.search(head):
        return None
    words = _WORD.findall(head)
    if len(words) < 2:
        return None
    verb = words[0].lower()
    if (
        verb in _NOT_ACTION
        or len(verb) < 3
        or "'" in verb
        or verb.endswith(("ed", "ing"))
        or (verb.endswith("s") and not verb.endswith("ss"))
        or stem(verb) in _TASK_VERBS
    ):
        return None
    rest = [w.lower() for w in words[1:]]
    while rest and rest[0] in _DETERMINERS:
        rest = rest[1:]
    if not rest:
        return None
    thing = rest[0]
    if thing in _NOT_ACTION or len(thing) < 3 or "'" in thing or thing in _DETERMINERS:
        return None
    return stem(verb), stem(thing)


def asked_actions(events: list[StoredEvent]) -> list[SessionRequest]:
    """Actions that open requests of `MIN_MESSAGES` or more messages of one session, the most
    asked first."""
    said: dict[tuple[str, tuple[str, str]], list[tuple[StoredEvent, str, str]]] = defaultdict(list)
    for event, text in typed_requests(events):
        if len(text) > MAX_MESSAGE_CHARS:
            continue
        seen: set[tuple[str, str]] = set()
        for sentence in sentences(text):
            action = action_of(sentence)
            if action is None or action in seen:
                continue
            seen.add(action)
            said[(event.session_id or "", action)].append((event, " ".join(sentence.split()), text))
    found: list[SessionRequest] = []
    for (_, action), items in said.items():
        kept: list[tuple[StoredEvent, str, str]] = []
        for item in items:
            grams = trigrams(item[2])
            if all(_dice(grams, trigrams(other[2])) < MAX_SAME_MESSAGE for other in kept):
                kept.append(item)  # the same message sent again is one task asked twice
        if len(kept) < MIN_MESSAGES:
            continue
        wording = min((s for _, s, _ in kept), key=len)
        found.append(
            SessionRequest(
                key=PREFIX + key_slug(" ".join(action)),
                wording=around(wording, 0, 0, MAX_QUOTE_CHARS).rstrip(".!;"),
                messages=len(kept),
                event_ids=tuple(dict.fromkeys(event.id for event, _, _ in kept)),
            )
        )
    found.sort(key=lambda r: -r.messages)
    return found[:MAX_ACTIONS]


def _dice(a: frozenset[str], b: frozenset[str]) -> float:
    return 2 * len(a & b) / (len(a) + len(b)) if a and b else 0.0
