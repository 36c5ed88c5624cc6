"""What the project is, from a project document's labelled lines: an onboarding or context note,
a brief or a PRD the assistant read in a session, not the README.

Such documents often open on fields rather than prose: "**Project Name**: Tidewater" and
"**Vision**: A self-hosted status page for small teams …", "Project: Fernleaf" and
"Description: A command-line tool that …". They say what the project is as plainly as a
README when two things hold, the same in every ecosystem:

- a name line ("Project Name", "Project", "Name", "Product Name", "App Name") names this
  project: the name, or its first word, is the project folder's name (letters and digits
  alone, case aside: "Tidewater Status Page" in `tidewater`, "Fernleaf CLI" in
  `fernleaf-cli`). A document of a partner's or another project's, a template's
  placeholder ("[Your project name]") or a feature's brief ("Feature Name: Dark mode") names
  no such thing and says nothing;
- a description line of the same document ("Vision", "Description", "Purpose", "Summary",
  "What", "About", "Mission", "Tagline", "Overview") opens on "a"/"an" and has at least
  `MIN_WORDS` words; a placeholder in brackets, a past or former description ("Originally …",
  "no longer", "used to", "it was"), or one that asks something of the reader ("must",
  "always") is none.

The document is read from its first line (a Read tool's output or a command that printed it
whole or from its top), inside the project and outside any dependency's or build output's
folder and any hidden folder (`.claude/agents/x.md` defines a subagent by its own `name:` and
`description:`), and is a text document (Markdown, reStructuredText, plain text). The
statement is the README's ("What this project (<name>) is and does, per its <path>:
<description>"); a README, manifest or root instruction file read in the same session says it
first (`about.py`).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.file_reads import head_read_text, shown_file_texts
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.languages import is_excluded
from squirrel_memory.repository.wording import about_text

MIN_WORDS = 5
#: The first lines of a document that its fields are looked for in.
HEAD_LINES = 40
_TEXT_DOC = re.compile(r"\.(?:md|markdown|mdx|rst|txt)$", re.IGNORECASE)
#: A hidden folder holds a tool's files (a skill's or a subagent's definition, whose `name:`
#: and `description:` are the skill's), not the project's documents.
_HIDDEN = re.compile(r"(?:^|/)\.")
_FIELD = re.compile(
    r"^[ \t]*(?:[-*+][ \t]+)?\*{0,2}(?P<label>[A-Za-z][A-Za-z ]{1,20}?)[ \t]*"
    r"(?::\*{2}|\*{2}[ \t]*:|:)[ \t]*\*{0,2}[ \t]*(?P<text>\S.*?)[ \t]*$"
)
_NAME_LABELS = frozenset({"project name", "project", "name", "product name", "app name"})
_WHAT_LABELS = frozenset(
    {"vision", "description", "purpose", "summary", "what", "about", "mission", "tagline"}
    | {"overview", "what it is"}
)
_ARTICLE = re.compile(r"^an?\s", re.IGNORECASE)
_NOT_NOW = re.compile(
    r"[\[\]<>{}]|\b(?:originally|formerly|previously|no longer|used to)\b|"
    r"\b(?:it|this|that)\s+(?:was|were)\b|"
    r"\b(?:must|always|never|do not|don't)\b|\?",
    re.IGNORECASE,
)


def _plain(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def names_project(name: str, folder: str) -> bool:
    """Whether a labelled name is the project folder's: the name, or its first word, as
    letters and digits alone."""
    own = _plain(folder)
    words = name.split()
    return bool(own) and bool(words) and own in (_plain(name), _plain(words[0]))


def labelled_about(text: str, folder: str) -> tuple[str, str] | None:
    """(name, description) a document's labelled lines give of the project in `folder`, or
    None (module docstring)."""
    name = what = ""
    for line in text.splitlines()[:HEAD_LINES]:
        field = _FIELD.match(line)
        if field is None:
            continue
        label = " ".join(field["label"].lower().split())
        value = " ".join(field["text"].replace("**", "").split())
        if label in _NAME_LABELS and not name:
            name = value
        elif label in _WHAT_LABELS and not what:
            what = value
    if not name or not what or not names_project(name, folder):
        return None
    if not _ARTICLE.match(what) or len(what.split()) < MIN_WORDS or _NOT_NOW.search(what):
        return None
    return name, what.rstrip(".") + "."


def _doc_reads(event: StoredEvent) -> list[tuple[str, str]]:
    """(path in the project, text from its first line) of each text document `event` read."""
    text = head_read_text(event)
    reads = [(raw, text) for raw in event.file_paths] if text is not None else []
    reads = reads or shown_file_texts(event)
    found = []
    for raw, shown in reads:
        path = relative_path(raw, event.project_id).removeprefix("./")
        outside = not path or path.startswith(("~", "/", "..")) or "/../" in path
        if outside or is_excluded(path) or _HIDDEN.search(path) or not _TEXT_DOC.search(path):
            continue
        found.append((path, shown))
    return found


def doc_about(events: list[StoredEvent]) -> tuple[str, str, tuple[str, ...]] | None:
    """(statement, document, event ids) of the first project document whose labelled lines
    say what the project is, or None."""
    for event in events:
        folder = PurePosixPath(event.project_id).name
        for path, text in _doc_reads(event):
            said = labelled_about(text, folder)
            if said is not None:
                return about_text(said[0], said[1], path), path, (event.id,)
    return None
