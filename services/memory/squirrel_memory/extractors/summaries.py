"""What the project is, as the assistant summarised it in a session.

A session that reads no README often still says what the project is: having read the
project's notes or looked around, the assistant restates it ("I understand this is a Python
CLI tool that converts transcript files into HTML.", "I can see this is a Next.js blog
project with several posts."). Such a sentence becomes the project's overview when a rule can
tell it describes the project itself, the same for every ecosystem:

- its subject is the project: "this project", "the project", "the codebase", "the
  repository", "the app", or "this" after "I understand", "I can see", "it looks like" or
  after the reply spoke of the project ("… the `ledger` project. This is a …");
- it says the project *is* something (`is`, `appears to be`, `seems to be`) and what it is
  is a kind of software: the noun phrase after "a"/"an" ends, before any "that", "with",
  "for" or clause break, on a noun such as tool, app, library, framework, service, site,
  blog, project ("a known issue with the library" is not: its phrase ends on "issue"; nor
  is "a helper script that …" or "a module that …", parts of a project);
- it is not a question, not negated, and can be quoted whole (a trailing ", with features
  including:" that opens a list is left off).

An overview written under a heading that asks what the project is ("## What is Ledger?")
answers it in the paragraph below ("A double-entry bookkeeping service for small shops."):
the same test applies to that answer, when the name asked about is the project's own (its
first word is in the project folder's name; "What is Turbo?" asks about something else).

Having read or explored the project's files in the same session, the assistant may also give
its overview a label or a heading of its own: a "Purpose: a … that …" line, or the paragraph
under a "Project overview" (or "Repository overview", "Project purpose") heading; a bare
"Overview" or "Summary" heading may head an overview of anything (a change, a pull request,
another repository) and says nothing. Its first sentence must pass the
same test ("a/an" and a kind of software, or "This project is …"); before any file was read
such a label is a guess and says nothing, and a subagent's report (which may describe another
repository it was sent to explore) is no overview of this project.

Asked what the project is ("what's in this repo?", "what does this codebase do?"), the
assistant's first reply after looking at the files answers it, often as "It's a Vue 3
single-page app that …": its first sentence says what the project is when it passes the same
test with "it" or "this" as its subject; a hedge ("probably", "might be", "looks like") says
nothing, and a later reply answers something else.

The statement is kept as the assistant's summary ("What this project is, as the assistant
summarised it: …"); a README or manifest read in the same episode says it better and wins
(`about.py`). One summary per episode: the first; none when a later message of the session,
the user's or the assistant's own, says the project is not a kind of software ("it's not an
app, it's our component library", "so it is not a CLI") or corrects it ("it's actually a
library"): the summary was denied or taken back, and what replaced it is left to the rules
that read it whole.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from squirrel_core.events import EventType, is_user_voice
from squirrel_memory.extractors.activity import user_words
from squirrel_memory.extractors.elsewhere import (
    read_in_project,
    replies_elsewhere,
)
from squirrel_memory.extractors.software_kinds import is_software_kind
from squirrel_memory.extractors.wording import sentence, without_bold
from squirrel_memory.models import StoredEvent

MIN_WORDS = 4
MAX_CHARS = 220
#: Below a README's overview (0.7): the assistant's own words, not the project's.
IMPORTANCE = 0.6
SUMMARY_PREFIX = "What this project is, as the assistant summarised it: "
#: The tag of a summary's memory: the project's own description replaces it (`updates`).
SUMMARY_TAG = "summary"

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*])")
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d+[.)]|#+)\s+")
_STATEMENT = re.compile(
    r"^(?P<seen>(?:i understand|i can see|i see|it looks like)\s+(?:that\s+)?)?"
    r"(?P<subject>this|this project|the project|this codebase|the codebase|this repo(?:sitory)?|"
    r"the repo(?:sitory)?|this app(?:lication)?|the app(?:lication)?)\s+"
    r"(?:is|appears to be|seems to be)\s+(?P<what>an?\s+.+)$",
    re.IGNORECASE,
)
#: What ends a summary's head noun phrase: a relative clause, a preposition, punctuation
#: (a comma between adjectives does not: "a professional, unified CLI tool").
_HEAD_END = re.compile(
    r"(?<!\s)\s+(?:that|which|who|with|for|from|of|in|on|to|using|built|written|where|and|or|"
    r"made|based|designed|used|providing|running)\b|[;:(—–]|,\s+(?:and|or|but|with|which)\b",
    re.IGNORECASE,
)
#: A heading that asks what the project is ("## 🏗️ **What is Ledger?**"), answered by the
#: paragraph under it ("A double-entry bookkeeping service for small shops.").
_ASKED = re.compile(
    r"^\W*what is (?!(?:this|the|it|that)\b)(?P<name>[\w .@/+-]{1,40}?)[^\w?]*\?\W*$", re.IGNORECASE
)
_ANSWER = re.compile(r"^an?\s", re.IGNORECASE)
#: A heading over the assistant's own overview of the project ("## Project overview"); it must
#: name the project: a bare "Overview" or "Summary" heads overviews of anything.
_OVERVIEW_HEADING = re.compile(
    r"^\W*(?:project|repository|repo|codebase)(?:'s)?\s+(?:overview|purpose)\W*$",
    re.IGNORECASE,
)
#: A labelled overview line ("**Purpose**: A CLI tool that …").
_LABELLED = re.compile(
    r"^(?:project\s+)?(?:purpose|overview|what it is)\s*[:—–-]\s+(?P<what>.+)$", re.IGNORECASE
)
#: A reply that speaks of the project: a bare "This is …" after it is about the project.
_PROJECT_WORD = re.compile(r"\b(?:project|codebase|repo(?:sitory)?)\b", re.IGNORECASE)
_NEGATED = re.compile(r"\b(?:not|no longer|never)\b", re.IGNORECASE)
_PARENTHESES = re.compile(r"\s*\([^()]*\)")
#: The user asking what the project is ("what's in this repo?", "What does this codebase
#: do?", "what is this project about?"), not about a part of it ("what does the repo's CI
#: do?").
_ASKS_WHAT = re.compile(
    r"\bwhat(?:['’]s|\s+is|\s+does)\s+(?:in\s+)?(?:this|the)\s+"
    r"(?:repo(?:sitory)?|project|codebase|code\s+base|app)"
    r"(?:\s+(?:do|about|for|contain|hold))?\s*\?",
    re.IGNORECASE,
)
#: The answer's opening: "It's a …", "It is a …", "This is a …".
_IT_IS = re.compile(r"^(?:it['’]s|it\s+is|this\s+is)\s+(?P<what>an?\s.+)$", re.IGNORECASE)
#: A hedge in the answer: a guess says nothing.
_HEDGE = re.compile(
    r"\b(?:probably|maybe|perhaps|might|likely|possibly|seems?|appears?|looks?\s+like|"
    r"guess|unclear|not sure|i\s+think|i\s+believe)\b",
    re.IGNORECASE,
)
#: A clause opening a list (", with features including:"): left off a summary.
_LIST_OPENING = re.compile(r",\s+(?:with|including|featuring|such as|like)\b[^,]*:\s*$")


@dataclass(frozen=True, slots=True)
class Summary:
    """The assistant's statement of what the project is, and the reply it was said in."""

    content: str
    event_ids: tuple[str, ...]


def summary_of(text: str, *, about_project: bool = True) -> str:
    """What one sentence says the project is ("a Python CLI tool that …"), or "". A bare
    "This is …" counts only `about_project`: when the reply spoke of the project before it
    ("This is a helper that …" after reading one file is about that file)."""
    flat = " ".join(without_bold(text).split())
    if flat.endswith("?"):
        return ""
    flat = _LIST_OPENING.sub("", flat).rstrip(" .:")
    match = _STATEMENT.match(flat)
    if match is None:
        return ""
    if match.group("subject").lower() == "this" and not match.group("seen") and not about_project:
        return ""
    what = match.group("what")
    if _NEGATED.search(what) or len(what) > MAX_CHARS or what.count("`") % 2:
        return ""
    head = _HEAD_END.split(_PARENTHESES.sub("", what), maxsplit=1)[0]
    words = head.replace(",", " ").split()
    if len(words) < 2 or not is_software_kind(words[-1].strip(".")):
        return ""
    if len(what.split()) < MIN_WORDS:
        return ""
    return what[0].lower() + what[1:]  # "a …", run on after a colon


def _names_project(name: str, project_id: str) -> bool:
    """Whether `name` is the project's own (its first word is in the project folder's name):
    "What is Turbo?" under a project `ledger` asks about something else."""
    first = re.sub(r"[^a-z0-9]", "", name.split(maxsplit=1)[0].lower()) if name.split() else ""
    folder = re.sub(r"[^a-z0-9]", "", PurePosixPath(project_id).name.lower())
    return len(first) >= 3 and first in folder


def _overview_of(flat: str) -> str:
    """What a labelled or headed overview paragraph says the project is, or ""."""
    first = _SENTENCE.split(flat)[0]
    what = summary_of(first) or (summary_of(f"This is {first}") if _ANSWER.match(first) else "")
    return (sentence(f"{SUMMARY_PREFIX}{what}") or "") if what else ""


def _reply_summary(text: str, project_id: str, *, explored: bool = False) -> str:
    """The first summary of the project one reply states, as the memory says it, or "";
    an overview under a label or heading of the reply's own counts once the session
    `explored` the project's files."""
    prose = re.sub(r"```.*?(?:```|$)", " ", text, flags=re.DOTALL)
    asked = ""
    overview = False
    about_project = False
    for paragraph in prose.split("\n"):
        flat = " ".join(without_bold(_BULLET.sub("", paragraph)).split())
        if not flat:
            continue
        if explored and overview and (headed := _overview_of(flat)):
            return headed
        overview = bool(_OVERVIEW_HEADING.match(flat)) and paragraph.lstrip().startswith("#")
        labelled = _LABELLED.match(flat)
        if explored and labelled and (label := _overview_of(labelled.group("what"))):
            return label
        if asked and _ANSWER.match(flat):
            # The answer to "What is <name>?": its first sentence says what the project is.
            what = summary_of(f"This is {_SENTENCE.split(flat)[0]}")
            said = sentence(
                f"What this project ({asked}) is, as the assistant summarised it: {what}"
            )
            if what and said:
                return said
        question = _ASKED.match(flat)
        named = question.group("name").strip() if question else ""
        asked = named if named and _names_project(named, project_id) else ""
        for raw in _SENTENCE.split(flat):
            what = summary_of(raw, about_project=about_project)
            said = sentence(f"{SUMMARY_PREFIX}{what}") if what else None
            if said:
                return said
            about_project = about_project or bool(_PROJECT_WORD.search(raw))
    return ""


def answered_summary(text: str) -> str:
    """What the first sentence of a reply to "what's in this repo?" says the project is
    ("It's a Vue 3 single-page app that …"), as the memory says it, or "" (module docstring)."""
    prose = re.sub(r"```.*?(?:```|$)", " ", text, flags=re.DOTALL).strip()
    first = _SENTENCE.split(" ".join(without_bold(prose.split("\n", 1)[0]).split()))[0]
    opening = _IT_IS.match(first)
    if opening is None or _HEDGE.search(first):
        return ""
    what = summary_of(f"This project is {opening.group('what')}")
    return (sentence(f"{SUMMARY_PREFIX}{what}") or "") if what else ""


def project_summary(events: list[StoredEvent]) -> Summary | None:
    """The first summary of the project an assistant reply of `events` states, or None."""
    asked = False  # the user asked what the project is, and no reply has answered yet
    explored = False
    # The subagents that explored the project themselves: only their own reports say what
    # they saw (one sent elsewhere, or told what to say, has seen nothing of it).
    subagents: set[str] = set()
    elsewhere = replies_elsewhere(events)
    for event in events:
        # What shows the project's files: a command run, a tool's result inside the root.
        if event.event_type == EventType.COMMAND_RUN or read_in_project(event):
            explored = True
            if event.sidechain:
                subagents.add(event.agent_id or "")
        text = event.content.get("text")
        if event.event_type == EventType.USER_MESSAGE and is_user_voice(event.origin):
            asked = bool(_ASKS_WHAT.search(user_words(event)))
        if event.event_type != EventType.ASSISTANT_RESPONSE or not isinstance(text, str):
            continue
        if event.id in elsewhere:
            continue  # a subagent's report on another folder it read, or its relay
        seen = (event.agent_id or "") in subagents if event.sidechain else explored
        answer = asked and explored and not event.sidechain
        asked = asked and event.sidechain
        said = (answer and answered_summary(text)) or _reply_summary(
            text, event.project_id, explored=seen
        )
        if said:
            if _denied_after(events, event):
                return None
            return Summary(said, (event.id,))
    return None


#: "not a CLI", "isn't an app", "no longer a monorepo", "it's actually a library": a kind of
#: project denied, or said again as a correction, its noun within the next few words.
_NOT_A = re.compile(
    r"\b(?:(?:not|isn['’]t|no\s+longer)\s+(?:really\s+|actually\s+|just\s+)?|"
    r"(?:it|this)(?:['’]s|\s+is)\s+(?:actually|in\s+fact|really)\s+)an?\s+"
    r"((?:[\w-]+\s+){0,3}[\w-]+)",
    re.IGNORECASE,
)


def _denied_after(events: list[StoredEvent], said: StoredEvent) -> bool:
    """Whether a later message of the session, the user's or the assistant's own, says the
    project is not a kind of software ("it's not an app, it's our component library",
    "Correction: … so it is not a CLI") or corrects what it is ("it's actually a library"):
    the summary was taken back or denied."""
    later = False
    for event in events:
        if event.id == said.id:
            later = True
            continue
        if not later or event.sidechain:
            continue
        text: object = None
        if event.event_type == EventType.USER_MESSAGE and is_user_voice(event.origin):
            text = user_words(event)
        elif event.event_type == EventType.ASSISTANT_RESPONSE:
            text = event.content.get("text")
        if not isinstance(text, str):
            continue
        for match in _NOT_A.finditer(text):
            if any(is_software_kind(w.strip(".,;:!?`'\"")) for w in match.group(1).split()):
                return True
    return False
