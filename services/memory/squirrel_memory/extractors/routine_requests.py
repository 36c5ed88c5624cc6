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

A step asked inside a longer request counts too, when it is asked as a request of its own
(`steps_asked`): "commit and update changelog", "commit all your recent changes", "update the
changelog and commit", "plan.md,README更新後にcommit,push,publishしてください". In English the step
opens its clause (after leads such as "ok", "please", "now", "and", "then", "create a") and what
follows it in the clause only points at the change at hand or where it goes ("all your recent
changes", "to main"): "commit the new test files", "release the lock", "the commit failed",
"don't push yet", "I committed it" and "commit messages are short" ask for no step. In a script
written without spaces the sentence carries a request's ending ("お願いします", "してください",
"请") and no negation or report of what was done. A step asked in two sessions or more, however
the requests were worded, is one routine: such a request joins the routine of the most of its
steps ("commit and update changelog" joins "commit"; "commit and push" never joins "push and
create a PR").

A routine is a habit when the user asked for it in two sessions or more: asked twice in one
session ("commit this" after each of two steps) it is how that session's work went, a request
of the moment, as `repeated_requests` holds for longer requests; `session_routines` keeps it,
below such a habit, when other work lay between the two (asked again right away, it is one
task asked twice). What is never a routine: a
question ("should I push?"), a request naming anything besides its steps ("commit the fix for
the login bug"), a slash command, the host's or a hook's text, a message of a subagent. The
memory quotes the user's shortest wording (the steps with the fewest fillers), then up to
`MAX_MORE_WORDINGS` wordings that ask more along with the steps ("commit and update
changelog"), and says in how many sessions it was asked and, when each time was the last
request of its session, that it closes the work; in the project where it was asked
(`recurrence` makes it the user's when another project asks it too), as important as an
instruction said in that many sessions.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from squirrel_memory.extractors.activity import user_requests
from squirrel_memory.extractors.command_bodies import reads_as_command_body
from squirrel_memory.extractors.repeated_requests import ORIGINS
from squirrel_memory.extractors.wording import strip_markdown, word_set
from squirrel_memory.models import StoredEvent

PREFIX = "pref:routine:"
#: The memory's words before the user's quote.
LEAD = "In {n} sessions the user asked"
#: Said after the lead when every time was the last request of its session.
CLOSING = " to close the work"
#: Sessions a routine must be asked in to be a habit.
MIN_SESSIONS = 2
#: Words a routine request may have besides its steps (more is a task with an object).
MAX_OTHER_WORDS = 2
#: A filler of a spaced script is at most this long; a run of an unspaced one, at most this.
MAX_FILLER_CHARS = 4
MAX_UNSPACED_FILLER_CHARS = 6
MAX_SENTENCE_CHARS = 80
MAX_ROUTINES = 3
#: Wordings quoted beside the shortest one, and the longest request a step is read in.
MAX_MORE_WORDINGS = 2
MAX_ASKED_CHARS = 200

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
#: A step's word as a request says it (not "commits", "committed", "pushed").
_BASE_STEP = re.compile(
    r"commit|push|prs?|pullrequests?|mrs?|mergerequests?|merge|rebase|tag|release|deploy|publish",
    re.IGNORECASE,
)
#: Words that may open a clause before the step it asks for ("ok, now please commit", "and then
#: push", "go ahead and create a PR", "let's commit").
_ASK_LEADS = word_set(
    "ok okay yes yeah yep great good fine cool nice now please pls then also just so and ",
    "go ahead let lets s us can could would you create open make cut draft a an new",
)
#: Words that may follow the step in its clause: the change at hand, where it goes, fillers.
_AT_HAND = word_set(
    "it this that them these those all everything the your my our recent changes change work ",
    "files stuff now please again current staged outstanding remaining to origin main master ",
    "upstream remote branch with up too as well of prod production staging",
)
#: Where a clause ends and the next may ask a step ("…, commit", "… and push", "… then push").
_CLAUSE_WORDS = frozenset({"and", "then", "also"})
_CLAUSE_MARKS = re.compile(r"[,;:&+/]|\s[-–—]+\s")
#: In a script written without spaces: a request's ending, and a negation, a question or a
#: report of what was done.
_ASKING = re.compile(
    r"お願い|ください|下さい|して(?:ね|よ)?\s*$|しよう|しましょう|请|請|吧|一下|把"
)
_NOT_ASKING = re.compile(r"ない|なく|禁止|不|别|別|没|沒|未|已|しました|した\s*$|か\s*$")


@dataclass(frozen=True, slots=True)
class Routine:
    """Delivery steps the user asked for in `messages` messages of `sessions` sessions."""

    key: str
    wording: str
    sessions: int
    messages: int
    event_ids: tuple[str, ...]
    #: Wordings that ask more along with the steps ("commit and update changelog").
    more: tuple[str, ...] = ()
    #: Every time was the last request of its session.
    closing: bool = False

    @property
    def content(self) -> str:
        when = CLOSING if self.closing else ""
        also = "; also " + ", ".join(f"“{w}”" for w in self.more) if self.more else ""
        return f"{LEAD.format(n=self.sessions)}{when}: “{self.wording}”{also}."


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


def steps_asked(sentence: str) -> frozenset[str]:
    """The delivery steps `sentence` asks for, alone or along with other work (see the module's
    rules): "commit and update changelog" → commit; "commit the new test files", "don't push",
    "did you commit?" → none."""
    flat = _JOINED.sub(r"\1\2", " ".join(unicodedata.normalize("NFKC", sentence).split()))
    if not flat or len(flat) > MAX_ASKED_CHARS or _QUESTION.search(flat):
        return frozenset()
    if _UNSPACED.search(flat):
        if _NOT_ASKING.search(flat):
            return frozenset()  # "コミットしないで", "コミットしました"
        if steps := routine_steps(sentence):
            return steps
        if not _ASKING.search(flat):
            return frozenset()
        return frozenset(n for n, p in _STEP.items() if p.search(flat))
    if steps := routine_steps(sentence):
        return steps
    found: set[str] = set()
    for clause in _CLAUSE_MARKS.split(flat):
        words = [w.lower() for w in _LATIN.findall(clause)]
        start = 0  # where the step's clause opens: after the last "and", "then" before it
        for i, word in enumerate(words):
            if word in _CLAUSE_WORDS:
                start = i + 1
            if not _BASE_STEP.fullmatch(word):
                continue
            rest = words[i + 1 :]
            end = next((k for k, w in enumerate(rest) if w in _CLAUSE_WORDS), len(rest))
            if not (
                all(w in _ASK_LEADS for w in words[start:i])
                and all(w in _AT_HAND for w in rest[:end])
            ):
                return frozenset()  # "don't push and …", "commit the new test files and …"
            found.update(n for n, p in _STEP.items() if p.fullmatch(word))
    return frozenset(found)


def routine_key(steps: frozenset[str]) -> str:
    """The key of the routine of `steps`, in one session or several."""
    return PREFIX + "_".join(sorted(s.replace(" ", "_") for s in steps))


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
    """Delivery steps the user asked for again (see the module's rules), the most asked first.

    Requests of nothing but the same steps are one routine ("commit and push", "Yes, commit and
    push."); a request that asks more along with its steps ("commit and update changelog")
    joins the routine of the most of its steps, or makes one of its own steps with others like
    it."""
    typed = typed_requests(events)
    last = {event.session_id: index for index, (event, _) in enumerate(typed)}
    asked: dict[frozenset[str], list[tuple[int, StoredEvent, str]]] = {}
    along: list[tuple[frozenset[str], tuple[int, StoredEvent, str]]] = []
    for index, (event, text) in enumerate(typed):
        for sentence in sentences(text):
            if steps := steps_asked(sentence):
                if routine_steps(sentence):
                    asked.setdefault(steps, []).append((index, event, sentence))
                else:
                    along.append((steps, (index, event, sentence)))
                break
    bare = {steps: {w for _, _, w in said} for steps, said in asked.items()}
    for steps, item in along:
        within = [g for g in bare if g <= steps]
        home = max(within, key=lambda g: (len(g), len(asked[g]))) if within else steps
        asked.setdefault(home, []).append(item)
    found: list[Routine] = []
    for steps, said in asked.items():
        said.sort(key=lambda item: item[0])
        sessions = {event.session_id for _, event, _ in said}
        if len(sessions) < MIN_SESSIONS:
            continue
        wordings = list(dict.fromkeys(w.rstrip(".!;。！；") for _, _, w in said))
        plain = [w for w in wordings if routine_steps(w)]
        wording = min(plain or wordings, key=len)
        more = sorted((w for w in wordings if not routine_steps(w) and w != wording), key=len)
        found.append(
            Routine(
                key=routine_key(steps),
                wording=wording,
                sessions=len(sessions),
                messages=len(said),
                event_ids=tuple(dict.fromkeys(event.id for _, event, _ in said)),
                more=tuple(more[:MAX_MORE_WORDINGS]),
                closing=all(last[event.session_id] == index for index, event, _ in said),
            )
        )
    found.sort(key=lambda r: (-r.sessions, -r.messages))
    return found[:MAX_ROUTINES]
