"""A project's release document as a session showed it, and its line on what a tag sets off.

A release document is a `RELEASE.md` or `RELEASING.md` anywhere, or a `docs/release*` page,
its text shown by a file read or a command that printed it; release notes (`RELEASE_NOTES.md`,
`RELEASES.md`) are not one. A release recipe (`release_steps`) names the document the session
read before the tag, and quotes, as the document writes it, its line that says what a tag sets
off: one naming a tag and a CI workflow file (`.github/workflows/release.yml`,
`.gitlab-ci.yml`), what publishes the release, which the session's commands do not show. A
document the session only listed, or read after the tag, is not named; a line naming a tag but
no workflow file, or longer than a step, is not quoted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.file_reads import file_text, read_output, shown_file_texts
from squirrel_memory.models import StoredEvent

#: The project's release document, by its name (`RELEASE.md`, `RELEASING.md`,
#: `docs/release-process.md`); release notes (`RELEASE_NOTES.md`, `RELEASES.md`) are not one.
_RELEASE_DOC = re.compile(
    r"(?:^|/)releas(?:e|ing)(?:[-_](?:process|procedure|checklist|guide|howto|steps))?"
    r"\.(?:md|markdown|rst|txt)$",
    re.IGNORECASE,
)
#: A CI workflow file a release document names.
_WORKFLOW_FILE = re.compile(
    r"(?:\.github/workflows/[\w.-]+|\.gitlab-ci|\.circleci/[\w.-]+|azure-pipelines|"
    r"\.woodpecker/[\w.-]+|\.forgejo/workflows/[\w.-]+|\.gitea/workflows/[\w.-]+)"
    r"\.ya?ml\b"
)
_TAG_WORD = re.compile(r"\btag(?:s|ged|ging)?\b", re.IGNORECASE)
_LIST_MARK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?")


@dataclass(frozen=True, slots=True)
class ReleaseDoc:
    """A release document a session showed: its path, text and the event that showed it."""

    path: str
    text: str
    event_id: str
    session_id: str | None
    timestamp: datetime


def release_docs(events: list[StoredEvent]) -> list[ReleaseDoc]:
    """The release documents `events` showed whole or from their first line, in order: a file
    read's output, or the text a command printed (`cat docs/RELEASE.md | head -80`)."""
    found: list[ReleaseDoc] = []
    for event in events:
        shown: list[tuple[str, str]] = []
        output = read_output(event)
        if output is not None:
            shown = [(raw, file_text(output)) for raw in event.file_paths]
        else:
            shown = shown_file_texts(event)
        for raw, text in shown:
            path = relative_path(raw, event.project_id).removeprefix("./")
            if _RELEASE_DOC.search(path) and not path.startswith(("/", "../")) and text.strip():
                found.append(ReleaseDoc(path, text, event.id, event.session_id, event.timestamp))
    return found


def tag_line(text: str, max_chars: int) -> str:
    """The line of a release document that says what a tag sets off, as written (its list mark
    left off): the first, outside code blocks, naming a tag and a CI workflow file; "" when
    none does or that line is longer than `max_chars`."""
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced or line.lstrip().startswith("#"):
            continue
        said = _LIST_MARK.sub("", line).strip()
        if _TAG_WORD.search(said) and _WORKFLOW_FILE.search(said):
            return said if len(said) <= max_chars else ""
    return ""
