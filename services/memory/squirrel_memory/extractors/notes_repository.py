"""A project that is notes, not code: a session that worked only on Markdown files.

A notes vault, a folder of plans or a documentation repository kept in git has no manifest and
no source file, so no language rule says what it is, and a later session would gladly look for
a test command. One session shows it when everything it touched is Markdown (two files at
least, one of them written or read whole), and nothing it saw says otherwise: no file or
pattern of another kind named in a path, a command or a listing (`ls`, `find`, `tree`, `git
status`, a Glob; behind a prefix program too, `<wrapper> ls -la`), no code file or manifest
named in any command's output (a script's inventory), and no command of a language's tools.
Hidden folders (`.claude/`, `.github/`) are the host's and the forge's, not the project's
content. Any doubt and the rule says nothing:
a code repository's README edited in a session is not a notes repository, nor are Markdown
files all under a documentation folder (`docs/`, `doc/`): a code project's documentation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import commands, relative_path
from squirrel_memory.extractors.evidence.attempts import NEUTRAL_ECOSYSTEMS, attempts
from squirrel_memory.extractors.file_reads import listing_output
from squirrel_memory.extractors.manifests import code_language, is_manifest
from squirrel_memory.models import StoredEvent

#: Importance of the fact (as a language fact's: it answers "what is this project"; its own key,
#: since it names no language).
IMPORTANCE = 0.6
KEY = "repository_kind"
CONTENT = "The project is a notes repository in Markdown, with no code."
MIN_FILES = 2
#: How much of a command's output is looked through for a code file's or a manifest's name.
MAX_OUTPUT_CHARS = 20_000
#: Folders a code project keeps its documentation in: Markdown only there is that project's
#: documentation, not a notes repository.
DOCS_FOLDERS = frozenset({"docs", "doc", "documentation"})
NOTES_SUFFIXES = frozenset({".md", ".markdown", ".mdown", ".txt"})
#: A file name or pattern with an extension (`main.tf`, `*.yaml`, `src/app.py`).
_NAMED_FILE = re.compile(r"(?<![\w*?/.-])([\w*?/.-]*[\w*?-]\.([A-Za-z][A-Za-z0-9]{0,9}))(?![\w-])")
_URLISH = re.compile(r"https?://\S+|(?<![\w-])[\w-]+@[\w.-]+")


@dataclass(frozen=True, slots=True)
class NotesRepository:
    key: str
    content: str
    event_ids: tuple[str, ...]


def _hidden(path: str) -> bool:
    return any(part.startswith(".") and part not in (".", "..") for part in path.split("/")[:-1])


def _foreign_names(text: str) -> bool:
    """Whether `text` names a file (or pattern) of a kind other than notes, outside hidden
    folders."""
    for match in _NAMED_FILE.finditer(_URLISH.sub(" ", text)):
        name, suffix = match.group(1), "." + match.group(2).lower()
        if suffix in NOTES_SUFFIXES or _hidden(name) or PurePosixPath(name).name.startswith("."):
            continue
        return True
    return False


def _lists_files(event: StoredEvent) -> str:
    """The text of a listing the event holds: a lister's command and output, a Glob's result."""
    command = event.content.get("command")
    if event.event_type in (EventType.COMMAND_RUN, EventType.TEST_RUN):
        return f"{command}\n{listing_output(event) or ''}" if isinstance(command, str) else ""
    return listing_output(event) or ""


def _shows_code(event: StoredEvent) -> bool:
    """Whether a command's output names a code file or a manifest (`src/app.py`, `go.mod`)
    outside hidden folders, whatever the command (a script's inventory, a listing behind a
    program no rule knows)."""
    if event.event_type not in (EventType.COMMAND_RUN, EventType.TEST_RUN):
        return False
    output = event.content.get("output")
    if not isinstance(output, str):
        return False
    for match in _NAMED_FILE.finditer(_URLISH.sub(" ", output[:MAX_OUTPUT_CHARS])):
        name = match.group(1)
        if _hidden(name) or PurePosixPath(name).name.startswith("."):
            continue
        if is_manifest(name) or code_language(name) is not None:
            return True
    return False


def notes_repository(events: list[StoredEvent]) -> NotesRepository | None:
    """The notes-repository fact when everything the session touched and saw is Markdown."""
    if not events:
        return None
    notes: dict[str, str] = {}
    for event in events:
        for raw in event.file_paths:
            path = relative_path(raw, event.project_id)
            if not path or path.startswith(("/", "~", "..")) or _hidden(path):
                continue  # outside the project, or the host's own files
            name = PurePosixPath(path).name
            if name.startswith("."):
                continue
            if PurePosixPath(path).suffix.lower() not in NOTES_SUFFIXES:
                return None
            notes.setdefault(path, event.id)
        if _foreign_names(_lists_files(event)) or _shows_code(event):
            return None
    if len(notes) < MIN_FILES:
        return None
    if all(PurePosixPath(p).parts[0].lower() in DOCS_FOLDERS for p in notes):
        return None  # a code project's documentation folder, the rest of it unseen
    found = attempts(commands(events), events[0].project_id)
    if any(a.use is not None and a.use.ecosystem not in NEUTRAL_ECOSYSTEMS for a in found):
        return None
    return NotesRepository(KEY, CONTENT, tuple(dict.fromkeys(notes.values())))
