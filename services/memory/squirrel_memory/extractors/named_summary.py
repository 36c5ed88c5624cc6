"""What the project is, as the assistant said it calling the project by its name.

An assistant that delegates work describes the project to the subagent in the prompt it
writes ("Repo: … — Tallyword, a .NET library that converts numbers to words across locales"),
and a subagent's report often sums it up the same way ("Ledger is a double-entry bookkeeping
service for small shops."). Neither says "this project", so `summaries` passes them by. Such a
sentence becomes the project's overview when a rule can tell it is about the project itself,
the same for every ecosystem:

- its subject is the project's own name: the name's letters are the project folder's name's,
  or the name has two words, its first (four letters at least) is the folder name's first
  part and the second says what kind of product it is ("Quillmark CLI" in `quillmark-code`); one
  word that is only part of the folder's name, or that part with another word ("Ocean Sound"
  in `ocean-sound-log`), may be another project's, and another repository, a dependency or a
  tool is not the project;
- it says what the project is: "<Name> is a …" at the start of a sentence, or "<Name>, a …" /
  "<Name> — a …" after the start of a line or a colon or dash; what follows passes the test of
  `summaries.summary_of` (a kind of software at the end of its head noun phrase, no question,
  no negation); a hedge ("might be", "seems to become") or a plan ("will be") never matches;
- a short label may stand before the name ("Context: Marginal is a …"); when what follows
  speaks of someone ("… that lets me mark it up"), only its head phrase is kept ("a native
  desktop app (Tauri + Svelte)");
- it is the assistant's own text: a reply, the prompt it gave a subagent, a subagent's report
  (its reply, its hand-back message, or the launcher's result in the parent), never the
  user's words (`user_about` reads those) nor a file's text; a reply or report about another
  place (`elsewhere`) does not count.

One statement per episode, the first; it is kept as the assistant's summary with the name it
used ("What this project (Tallyword) is, as the assistant summarised it: a .NET library …"),
and a README or manifest read in the episode says it better and wins (`facts.py`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import PurePosixPath

from squirrel_core.events import EventType
from squirrel_core.subagent_tools import SUBAGENT_TOOLS
from squirrel_memory.extractors.elsewhere import replies_elsewhere, seen_elsewhere
from squirrel_memory.extractors.summaries import Summary, summary_of
from squirrel_memory.extractors.wording import sentence, without_bold
from squirrel_memory.models import StoredEvent

#: Shortest first word of a name that may stand for the folder's name.
MIN_FIRST_WORD = 4
#: Words that, after the folder's first part, name the project's own product ("Quillmark CLI"):
#: any other word makes another thing of that name ("Ocean Sound" in `ocean-sound-log`,
#: "Django REST" in `django-app`).
_PRODUCT_WORDS = frozenset(
    str.split(
        "cli api sdk app apps server client library lib tool tools service bot plugin extension "
        "ui web desktop mobile"
    )
)
#: Inputs of a tool call written by the assistant for another agent: a subagent's prompt, a
#: report handed back.
_WRITTEN_INPUTS = ("prompt", "message")

_NAME = r"(?P<name>[A-Za-z][\w.+-]*(?:\s[A-Z][\w.+-]*){0,2})"
#: "<Name> is a …" opening a sentence, or behind a short label ("Context: <Name> is a …").
_IS = re.compile(rf"^(?:[A-Z][a-z]+(?:\s[a-z]+)?:\s+)?{_NAME}\s+is\s+(?P<what>an?\s.+)$")
#: Someone's own words in what the project is ("… that lets me mark it up"): the head phrase
#: says it without them.
_SOMEONE = re.compile(r"\b(?:i|me|my|we|us|our|you|your)\b", re.IGNORECASE)
#: Where the head phrase of what the project is ends (its parentheses stay).
_CLAUSE = re.compile(
    r"(?<!\s)\s+(?:that|which|who|where|with|for|from|to|using|built|written|designed|and)\b"
    r"|[;:—–,]",
    re.IGNORECASE,
)
#: "<Name>, a …" or "<Name> — a …" at the start of a line or after a colon or dash.
_APPOSITION = re.compile(rf"(?:^|[:—–]\s+|\s-\s+){_NAME}(?:,|\s+[—–-])\s+(?P<what>an?\s.+)$")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*])")
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d+[.)]|#+)\s+")
#: A preposition left dangling where the sentence opened a list ("… CLI tool with:").
_DANGLING = re.compile(r"(?<!\s)\s+(?:with|including|featuring|that|which|for|of)\s*(?::\s*)?$")


def _letters(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def names_project(name: str, project_id: str) -> bool:
    """Whether `name` is the project's own: its letters are the folder's name's, or it has
    two words or more, its first word is the first part of the folder's name and the others say
    what kind of product it is ("Quillmark CLI" in `quillmark-code`). One word that is only part of
    the folder's name ("Brewer" in `brewer-lang`), or that part with another word ("Ocean
    Sound" in `ocean-sound-log`), may well be another project's, a library's or a tool's."""
    folder_name = PurePosixPath(project_id.rstrip("/")).name
    folder = _letters(folder_name)
    whole = _letters(name)
    words = name.split()
    if not folder or not whole:
        return False
    if whole == folder:
        return True
    first_part = next((_letters(p) for p in re.split(r"[^A-Za-z0-9]+", folder_name) if p), "")
    first = _letters(words[0])
    return (
        len(words) >= 2
        and len(first) >= MIN_FIRST_WORD
        and first == first_part
        and all(_letters(word) in _PRODUCT_WORDS for word in words[1:])
    )


def _said(text: str, project_id: str) -> tuple[str, str] | None:
    """(name, what the project is) of the first sentence of `text` that says it, or None."""
    prose = re.sub(r"```.*?(?:```|$)", " ", text, flags=re.DOTALL)
    for line in prose.split("\n"):
        flat = " ".join(without_bold(_BULLET.sub("", line)).split())
        for raw in _SENTENCE.split(flat):
            for pattern in (_IS, _APPOSITION):
                match = pattern.match(raw) if pattern is _IS else pattern.search(raw)
                if match is None or not names_project(match.group("name"), project_id):
                    continue
                said = _DANGLING.sub("", match.group("what"))
                if _SOMEONE.search(said) and (end := _CLAUSE.search(said)):
                    said = said[: end.start()]
                what = summary_of(f"This project is {said}")
                if what:
                    return match.group("name"), what
    return None


def assistant_texts(events: list[StoredEvent]) -> Iterator[tuple[StoredEvent, str]]:
    """The assistant's own texts of `events`: replies, prompts and reports it wrote for other
    agents, and the reports launched subagents returned; none about another place."""
    away = replies_elsewhere(events) | seen_elsewhere(events)
    for event in events:
        if event.id in away:
            continue
        content = event.content
        if event.event_type == EventType.ASSISTANT_RESPONSE:
            text = content.get("text")
            if isinstance(text, str):
                yield event, text
        elif event.event_type == EventType.TOOL_CALL:
            given = content.get("input")
            if isinstance(given, dict):
                for field in _WRITTEN_INPUTS:
                    value = given.get(field)
                    if isinstance(value, str):
                        yield event, value
        elif (
            event.event_type == EventType.TOOL_RESULT
            and content.get("tool") in SUBAGENT_TOOLS
            and not content.get("is_error")
            and isinstance(output := content.get("output"), str)
        ):
            yield event, output


def named_summary(events: list[StoredEvent]) -> Summary | None:
    """The first statement of what the project is that calls it by its name, or None."""
    for event, text in assistant_texts(events):
        said = _said(text, event.project_id)
        if said is None:
            continue
        name, what = said
        content = sentence(f"What this project ({name}) is, as the assistant summarised it: {what}")
        if content:
            return Summary(content, (event.id,))
    return None
