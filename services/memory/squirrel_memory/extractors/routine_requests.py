"""Short requests for the same delivery steps, said again: how the user closes a piece of work.

`repeated_requests` finds a request said again in another session by its content words, and a
sentence with fewer than five of them is never one: "commit and push", "Push and create PR",
"ok, commit" carry no content beside their verbs. Yet a user who ends piece after piece of work
with "commit and push" shows a habit of how work is delivered, in any project and language.
Such a request is recognised by what it names, not by its wording: every word of it is a
delivery step of version control (commit, push, a pull request, merge, rebase, tag, release,
deploy, publish) or a short filler ("ok", "and", "this", "now", "create", a short run of a
script written without spaces, as in "まずはcommit"). Requests naming the same steps are one
routine, whatever else they say.

A routine is a habit when the user asked for it in two sessions or more: asked twice in one
session ("commit this" after each of two steps) it is how that session's work went, a request
of the moment, as `repeated_requests` holds for longer requests; `session_routines` keeps it,
below such a habit, when other work lay between the two (asked again right away, it is one
task asked twice). What is never a routine: a
question ("should I push?"), a request naming anything besides its steps ("commit the fix for
the login bug"), a slash command, the host's or a hook's text, a message of a subagent. The
memory quotes the user's shortest wording (the steps with the fewest fillers) and says in how
many sessions it was asked, in the project where it was asked (`recurrence` makes it the
user's when another project asks it too).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from squirrel_memory.extractors.activity import user_requests
from squirrel_memory.extractors.command_bodies import reads_as_command_body
from squirrel_memory.extractors.repeated_requests import ORIGINS
from squirrel_memory.extractors.wording import strip_markdown
from squirrel_memory.models import StoredEvent

PREFIX = "pref:routine:"
#: The memory's words before the user's quote.
LEAD = "In {n} sessions the user asked"
#: Sessions a routine must be asked in to be a habit.
MIN_SESSIONS = 2
#: Words a routine request may have besides its steps (more is a task with an object).
MAX_OTHER_WORDS = 2
#: A filler of a spaced script is at most this long; a run of an unspaced one, at most this.
MAX_FILLER_CHARS = 4
MAX_UNSPACED_FILLER_CHARS = 6
MAX_SENTENCE_CHARS = 80
MAX_ROUTINES = 3

#: Delivery steps of version control, each with its words (English as developers write it in
#: any language, and the loanwords of scripts written without spaces).
_STEPS = {
    "commit": r"commit(?:s|ted)?|コミット|提交",
    "push": r"push(?:ed)?|プッシュ|推送",
    "pull request": r"prs?|pullrequests?|mrs?|mergerequests?|プルリク(?:エスト)?",
    "merge": r"merge|マージ|合并",
    "rebase": r"rebase|リベース",
    "tag": r"tag",
    "release": r"release|リリース",
    "deploy": r"deploy|デプロイ|部署",
    "publish": r"publish",
}
_STEP = {name: re.compile(rf"(?:{words})", re.IGNORECASE) for name, words in _STEPS.items()}
#: Verbs that only frame a step ("create a PR", "open the PR", "go ahead and push").
_FRAMING = frozenset({"create", "open", "make", "please", "then", "also", "ahead"})
#: Two-word names of a step, read as one word.
_JOINED = re.compile(r"\b(pull|merge)[- ](requests?)\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!;])\s+|[。！；]+|\n+")
_QUESTION = re.compile(r"[?？]")
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_LATIN = re.compile(r"[^\W\d_]+")


@dataclass(frozen=True, slots=True)
class Routine:
    """Delivery steps the user asked for in `messages` messages of `sessions` sessions."""

    key: str
    wording: str
    sessions: int
    messages: int
    event_ids: tuple[str, ...]

    @property
    def content(self) -> str:
        return f"{LEAD.format(n=self.sessions)}: “{self.wording}”."


def routine_steps(sentence: str) -> frozenset[str]:
    """The delivery steps `sentence` asks for when it asks for nothing else (else empty)."""
    flat = _JOINED.sub(r"\1\2", " ".join(unicodedata.normalize("NFKC", sentence).split()))
    if not flat or len(flat) > MAX_SENTENCE_CHARS or _QUESTION.search(flat):
        return frozenset()
    tokens = [m.group(0) for m in _UNSPACED.finditer(flat)]
    tokens += _LATIN.findall(_UNSPACED.sub(" ", flat))
    steps: set[str] = set()
    others = 0
    for token in tokens:
        step = next((n for n, p in _STEP.items() if p.fullmatch(token)), None)
        if step is None and _UNSPACED.match(token):
            # an unspaced run may hold a step's loanword among its particles
            step = next((n for n, p in _STEP.items() if p.search(token)), None)
            if step is not None and len(_strip_steps(token)) > MAX_UNSPACED_FILLER_CHARS:
                return frozenset()
        if step is not None:
            steps.add(step)
        elif token.lower() in _FRAMING:
            continue
        elif not _filler(token):
            return frozenset()
        else:
            others += 1
    return frozenset(steps) if steps and others <= MAX_OTHER_WORDS else frozenset()


def _strip_steps(token: str) -> str:
    for pattern in _STEP.values():
        token = pattern.sub("", token)
    return token


def _filler(token: str) -> bool:
    if _UNSPACED.fullmatch(token):
        return len(token) <= MAX_UNSPACED_FILLER_CHARS
    return len(token) <= MAX_FILLER_CHARS


def sentences(text: str) -> list[str]:
    """The sentences of a user message, markdown stripped."""
    plain = strip_markdown(text)
    return [s.strip() for s in _SENTENCE_END.split(plain) if s.strip()]


def typed_requests(events: list[StoredEvent]) -> list[tuple[StoredEvent, str]]:
    """What the user typed in a session, in order: not a slash command's, the host's, a hook's
    or a subagent's text, nor a command body the host expanded."""
    ordered = sorted(events, key=lambda e: (e.timestamp, e.id))
    return [
        (event, text)
        for event, text in user_requests(ordered)
        if event.origin in ORIGINS
        and not event.sidechain
        and event.session_id
        and not text.lstrip().startswith("<")
        and not reads_as_command_body(text)
    ]


def routine_requests(events: list[StoredEvent]) -> list[Routine]:
    """Delivery steps the user asked for again (see the module's rules), the most asked first."""
    typed = typed_requests(events)
    asked: dict[frozenset[str], list[tuple[int, StoredEvent, str]]] = {}
    for index, (event, text) in enumerate(typed):
        for sentence in sentences(text):
            if steps := routine_steps(sentence):
                asked.setdefault(steps, []).append((index, event, sentence))
                break
    found: list[Routine] = []
    for steps, said in asked.items():
        sessions = {event.session_id for _, event, _ in said}
        if len(sessions) < MIN_SESSIONS:
            continue
        kept = said
        found.append(
            Routine(
                key=PREFIX + "_".join(sorted(s.replace(" ", "_") for s in steps)),
                wording=min((w for _, _, w in kept), key=len).rstrip(".!;。！；"),
                sessions=len(sessions),
                messages=len(kept),
                event_ids=tuple(dict.fromkeys(event.id for _, event, _ in kept)),
            )
        )
    found.sort(key=lambda r: (-r.sessions, -r.messages))
    return found[:MAX_ROUTINES]
