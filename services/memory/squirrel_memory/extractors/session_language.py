"""The project's language from one session that edited its code and ran that language's tools.

The language fact of a session (`facts.py`) wants a root manifest touched, two code files of
one language or a script the session wrote and ran (`touched_languages.py`): a short session
often edits a single file and runs the tests. One edited file
says little by itself (a Python helper script in a JavaScript app), but an edit corroborated by
a command of the same language's tools (`uv run pytest` after editing `renderer.py`,
`Rscript -e "devtools::test()"` after editing `R/books.R`) is the session's own work in that
language. Every code file the session edited must be in that one language, and a command of
that ecosystem must have run in the session; otherwise the rule says nothing.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from squirrel_core.events import EventType
from squirrel_memory.code_files import path_ecosystem
from squirrel_memory.extractors.activity import CommandRun, relative_path
from squirrel_memory.extractors.evidence.attempts import attempts
from squirrel_memory.extractors.manifests import extension_language
from squirrel_memory.extractors.project_fact import Fact
from squirrel_memory.models import StoredEvent

KEY = "language"
IMPORTANCE = 0.6


def _edited(events: list[StoredEvent]) -> dict[str, str]:
    """In-project files the session wrote: path → the event that wrote it."""
    found: dict[str, str] = {}
    for event in events:
        if event.event_type != EventType.CODE_CHANGE:
            continue
        path = event.content.get("path")
        for raw in [path] if isinstance(path, str) else list(event.file_paths):
            rel = relative_path(raw, event.project_id)
            if rel and not rel.startswith(("/", "~", "..", ".")):
                found.setdefault(rel, event.id)
    return found


def session_language(events: list[StoredEvent], runs: list[CommandRun]) -> Fact | None:
    """The language fact when every edited code file is in one language and a command of that
    language's ecosystem ran in the session."""
    if not events:
        return None
    edited = _edited(events)
    languages = {
        language: path
        for path in edited
        if (language := extension_language(PurePosixPath(path).suffix))
    }
    if len(languages) != 1:
        return None
    ((language, path),) = languages.items()
    ecosystem = path_ecosystem(path) or language.lower()
    ran = [
        a.run.event_id
        for a in attempts(runs, events[0].project_id)
        if a.use is not None and a.use.ecosystem == ecosystem and a.run.ok is not False
    ]
    if not ran:
        return None
    return Fact(
        KEY,
        f"{language} project.",
        ("language", language.lower()),
        IMPORTANCE,
        (edited[path], ran[0]),
    )
