"""What a folder of the project is, as the assistant said it after looking at it.

A project may be a workspace of several programs side by side (a folder of games, of services,
of packages), and a session works on one of them. Having listed or read it, the assistant says
what that one is by its folder's name: "This is the `ledger-api` service — a REST backend for
the bookkeeping app.", "This is `books_cli`, a command-line tool that posts entries." Such a
sentence says what the session worked on when no README, manifest or summary of the whole
project does; it is kept scoped to the folder it names. The same rule for every ecosystem:

- the name is quoted as code (`` `name` ``) and is the project's own folder name or a folder
  of the project the session showed (a listing printed a path in it, a command read a file
  in it): a name nobody listed may be a library, a tool or another repository;
- the sentence opens with "This is", names the folder, says what kind of software it is
  ("the `x` game", "the `x` service", or "`x`, a game …") and then what it is, after a dash,
  a colon or a comma ("— a 3D city with …"): "a"/"an" and at least four words, with no
  question, no negation, no hedge ("might", "probably") and no plan ("will be");
- it is the assistant's own reply, after the session looked at the project's files, in a
  reply that does not speak of another place (`elsewhere`); a subagent's report may describe
  another repository, and the user's words are `user_about`'s.

One statement per episode, the first; a README, a manifest or a summary of the whole project
says more and comes first (`facts.py`).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from squirrel_core.events import EventType
from squirrel_memory.extractors.elsewhere import read_in_project, replies_elsewhere
from squirrel_memory.extractors.file_reads import shown_paths
from squirrel_memory.extractors.named_summary import names_project
from squirrel_memory.extractors.software_kinds import is_software_kind
from squirrel_memory.extractors.summaries import Summary, summary_of
from squirrel_memory.extractors.wording import sentence, without_bold
from squirrel_memory.models import StoredEvent

#: Fewest words of what the folder is ("a 3D city with NPCs").
MIN_WORDS = 4
#: Longest statement kept (characters of what the folder is).
MAX_CHARS = 220
_NAME = r"`(?P<name>[\w.@+-]+)/?`"
#: "This is the `name` game — a …" / "This is `name`, a game …".
_KIND_FIRST = re.compile(
    rf"^this is (?:the )?{_NAME} (?P<kind>[a-z][\w-]*)\s*(?:[—–:]|\s-|,)\s+(?P<what>an?\s.+)$",
    re.IGNORECASE,
)
#: "This is `name`, a …" / "This is `name` — a …": what follows must say the kind itself.
_KIND_AFTER = re.compile(
    rf"^this is (?:the )?{_NAME}(?:,|\s+[—–-])\s+(?P<what>an?\s.+)$", re.IGNORECASE
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*])")
_DOUBTFUL = re.compile(
    r"\b(?:not|no longer|never|might|may|maybe|probably|perhaps|seems?|will|would|could)\b",
    re.IGNORECASE,
)


def _folders(events: list[StoredEvent]) -> set[str]:
    """The project's folders the session showed: every parent folder of a path it printed."""
    found: set[str] = set()
    for path in shown_paths(events):
        found.update(str(parent) for parent in PurePosixPath(path).parents if str(parent) != ".")
    return found


def _said(text: str, folders: set[str], project_id: str) -> tuple[str, str] | None:
    """(folder name, "" for the project's own, and what it is) of the first sentence of `text`
    that says it, or None."""
    prose = re.sub(r"```.*?(?:```|$)", " ", text, flags=re.DOTALL)
    for line in prose.split("\n"):
        flat = " ".join(without_bold(line).split())
        for said in _SENTENCE.split(flat):
            raw = said.rstrip()
            if raw.endswith("?"):
                continue
            first = _KIND_FIRST.match(raw)
            match = first or _KIND_AFTER.match(raw)
            if match is None:
                continue
            name, what = match.group("name"), match.group("what").rstrip(" .")
            own = names_project(name, project_id)
            if not own and name not in folders:
                continue
            if (
                _DOUBTFUL.search(what)
                or len(what.split()) < MIN_WORDS
                or len(what) > MAX_CHARS
                or what.count("`") % 2
            ):
                continue
            what = what[0].lower() + what[1:]
            if first is not None and is_software_kind(kind := first.group("kind")):
                return ("" if own else name), f"a {kind.lower()}: {what}"
            if first is None and summary_of(f"This project is {what}"):
                return ("" if own else name), what
    return None


def folder_summary(events: list[StoredEvent]) -> Summary | None:
    """The first statement of what a folder of the project is that the assistant made by its
    name after looking at the project (module docstring), or None."""
    if not events:
        return None
    folders = _folders(events)
    elsewhere = replies_elsewhere(events)
    explored = False
    for event in events:
        if event.sidechain:
            continue
        if event.event_type == EventType.COMMAND_RUN or read_in_project(event):
            explored = True
        text = event.content.get("text")
        if (
            not explored
            or event.event_type != EventType.ASSISTANT_RESPONSE
            or not isinstance(text, str)
            or event.id in elsewhere
        ):
            continue
        said = _said(text, folders, event.project_id)
        if said is None:
            continue
        name, what = said
        subject = f"`{name}/` (a folder of this project)" if name else "this project"
        content = sentence(f"What {subject} is, as the assistant summarised it: {what}")
        if content:
            return Summary(content, (event.id,))
    return None
