"""What the project is, from the README or manifest the assistant read in a session.

Sessions of a project whose repository is not registered still show what it is: the assistant
reads the root README, `pyproject.toml` or `package.json` early on. The file's text (the Read
tool's output, its line numbers stripped) goes through the same readers as a repository scan,
so a session says what a scan would: the README's first paragraph that describes the project,
else a manifest's one-line `description` (of any ecosystem: `package_descriptions` reads the
formats a scan has no reader for) or a docs site's (`mkdocs.yml`, `book.toml`). Files
in sub-folders or outside the project (a dependency's README) say nothing about this project.
A root file the user attached to a message (`@AGENTS.md`, written into the message as the
host's read of it) is read for this too, never for the rules it holds; so is a root file a
hook printed under a line naming it (`hook_files`: `--- Content from CLAUDE.md ---`, up to its
last blank line), unless the session changed that file after.

Without a README or manifest, an instruction file at the root (`CLAUDE.md`, `AGENTS.md`,
`GEMINI.md`, `.claude/CLAUDE.md`, `.github/copilot-instructions.md`) often opens with what the
project is: the first descriptive paragraph under its overview heading ("## Project
overview", "## About"), or else its first descriptive paragraph,
is read the same way; an overview written as a labelled list ("- **Name**: ParcelPal", "-
**What**: Android app that tracks parcels …", "- **Stack**: Kotlin, Jetpack Compose") says it
by its "What" (or "Purpose", "Description") item, with its name and stack items. Without any
of these, a project document read in the session whose labelled lines name this project and
say what it is ("**Project Name**: Tidewater", "**Vision**: A self-hosted status page …";
`labelled_docs`) says it.
Lines about the file itself ("This file provides guidance to …", a
`# CLAUDE.md` title) are left out; what the file asks of the assistant is no description (a
paragraph that says "always", "never", "must" … is not read as one).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from pathlib import PurePosixPath

import structlog

from squirrel_core.events import LOADED_FILE
from squirrel_memory.extractors.activity import changed_files, relative_path
from squirrel_memory.extractors.file_reads import (
    attached_file_texts,
    head_read_text,
    loaded_text,
    shown_file_texts,
)
from squirrel_memory.extractors.hook_files import hook_file_texts
from squirrel_memory.extractors.labelled_docs import doc_about
from squirrel_memory.extractors.latest_reads import latest_reads
from squirrel_memory.extractors.package_doc import package_about
from squirrel_memory.extractors.printed_manifests import printed_about
from squirrel_memory.extractors.readme_intro import stack_sentence
from squirrel_memory.extractors.shell_changes import changed_unseen
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.findings import Readings
from squirrel_memory.repository.instructions import instruction_kind, read_instruction_file
from squirrel_memory.repository.languages import is_excluded
from squirrel_memory.repository.manifest_formats import read_marker
from squirrel_memory.repository.manifests import Reader, manifest_reader
from squirrel_memory.repository.package_descriptions import PLACED_MANIFESTS, description_reader
from squirrel_memory.repository.scan import PARSE_ERRORS
from squirrel_memory.repository.site_configs import site_config_reader
from squirrel_memory.repository.snapshot import TextFile
from squirrel_memory.repository.wording import about_text

log = structlog.get_logger()

ABOUT_KEY = "about"


def root_file_read(
    event: StoredEvent,
    wanted: Callable[[str], bool],
    *,
    attached: bool = False,
    changed: Collection[str] = (),
) -> tuple[str, str] | None:
    """(path, text) of the project-root file a successful read returned from its first line,
    or a command printed from its first line (`shown_file_texts`), or, with `attached`, one the
    user attached to a message (`attached_file_texts`) or a hook printed (`hook_file_texts`,
    unless its path is among those `changed` after it): read for what the project is; when
    `wanted(path)` accepts it (a partial read gives only the text it shows in full)."""
    text = head_read_text(event)
    shown = [] if text is not None else shown_file_texts(event)
    if attached and text is None and not shown:
        shown = attached_file_texts(event) or [
            (raw, printed)
            for raw, printed in hook_file_texts(event)
            if relative_path(raw, event.project_id).removeprefix("./") not in changed
        ]
    reads = [(raw, text) for raw in event.file_paths] if text is not None else shown
    for raw, text in reads:
        path = relative_path(raw, event.project_id).removeprefix("./")
        # A root file, or one whose place is fixed from the root (`.claude/CLAUDE.md`,
        # `.github/CONTRIBUTING.md`, `.claude-plugin/plugin.json`): never the same name in a
        # sub-folder or a dependency.
        nested = "/" in path and instruction_kind(path) is None and path not in PLACED_MANIFESTS
        if not path or nested or path.startswith(("~", "/", "..")):
            continue
        if wanted(path):
            return path, text
    return None


def loaded_folder_file(event: StoredEvent, wanted: Callable[[str], bool]) -> tuple[str, str] | None:
    """(path, text) of the instruction file of a project sub-folder its host loaded into the
    session itself (Claude Code's sub-folder `CLAUDE.md`), when `wanted(its name)` accepts it:
    the host loads it for work in that folder, so it holds there (a file read with a tool in a
    sub-folder may be a dependency's; a dependency's or build output's folder never counts)."""
    text = loaded_text(event)
    if text is None:
        return None
    path = relative_path(str(event.content[LOADED_FILE]), event.project_id)
    folder, _, name = path.rpartition("/")
    outside = path.startswith(("/", "~", "../")) or "/../" in path
    if not folder or outside or is_excluded(path) or not wanted(name):
        return None  # a root file, another folder's or repository's, a dependency's
    return path, text


def last_root_reads(
    events: list[StoredEvent], wanted: Callable[[str], bool], *, loaded_folders: bool = False
) -> dict[str, tuple[StoredEvent, str]]:
    """Each project-root file `wanted` accepts → (its last successful read, the text shown);
    with `loaded_folders`, also each sub-folder's file its host loaded (`loaded_folder_file`)."""
    last: dict[str, tuple[StoredEvent, str]] = {}
    for event in events:
        read = root_file_read(event, wanted)
        if read is None and loaded_folders:
            read = loaded_folder_file(event, wanted)
        if read is not None:
            last[read[0]] = (event, read[1])
    return last


def current_root_reads(
    events: list[StoredEvent], wanted: Callable[[str], bool], *, loaded_folders: bool = False
) -> dict[str, tuple[StoredEvent, str]]:
    """`last_root_reads`, each text as the file stands after the session's own later edits
    (`latest_reads`): an instruction file the session rewrote and committed says what it says
    now, not what it said before."""
    return last_root_reads(latest_reads(events), wanted, loaded_folders=loaded_folders)


def _describes(path: str) -> bool:
    return (
        instruction_kind(path) == "readme"
        or manifest_reader(path) is not None
        or site_config_reader(path) is not None
        or description_reader(path) is not None
    )


def _reader(path: str) -> Reader | None:
    """The reader that says what a file describes: a manifest that only marks its ecosystem
    (`build.sbt`, `Package.swift`) is read for its name and description instead."""
    manifest = manifest_reader(path)
    if manifest is not None and manifest is not read_marker:
        return manifest
    return site_config_reader(path) or description_reader(path) or manifest


def _read(path: str, text: TextFile, out: Readings) -> None:
    reader = _reader(path)
    try:
        if reader is not None:
            reader(text, out)
        else:
            read_instruction_file(text, out, "readme")
    except PARSE_ERRORS as exc:  # a partial or malformed read: this file says nothing
        log.debug("session_file_unreadable", path=path, reason=type(exc).__name__)


#: The instruction files whose overview may say what the project is.
_INSTRUCTION_FILES = frozenset(
    {"CLAUDE.md", "AGENTS.md", "GEMINI.md", "CLAUDE.local.md", ".claude/CLAUDE.md"}
    | {".github/copilot-instructions.md"}
)
#: A heading over an instruction file's description of the project.
_OVERVIEW_HEADING = re.compile(
    r"^#{1,4}\s*(?:project\s+|repository\s+)?(?:overview|about(?:\s+this\s+\w+)?|"
    r"description|purpose|what\s+(?:this|it)\s+is)\s*$",
    re.IGNORECASE,
)
#: A line about the instruction file itself, not the project.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*\"'(])")
_ABOUT_THE_FILE = re.compile(
    r"\bthis file\b|\b(?:CLAUDE|AGENTS|GEMINI)(?:\.local)?\.md\b|claude\.ai/code|"
    r"\bguidance\b|\binstructions? for\b|"
    # a generated file's stamp: "Auto-generated from the plans. Last updated: …"
    r"^\W*(?:auto-?)?generated (?:from|by)\b|\blast updated:",
    re.IGNORECASE,
)


#: A paragraph that asks something of the assistant ("ALWAYS prefer the MCP graph tools …")
#: is an instruction, however it opens, not what the project is. "always" or "never" before a
#: verb that has a subject ("never allocates", "always returns") or after a form of "be" ("is
#: never mutated") states a property of the project instead.
_ASKS = re.compile(
    r"\b(?:must|do not|don't|prefer)\b"
    r"|(?<!\bis )(?<!\bare )(?<!\bwas )(?<!\bwere )(?<!\bbe )\b(?:always|never)\b"
    r"(?!\s+[a-z]+[^\Wsu]s\b)",
    re.IGNORECASE,
)


def _overview_text(text: str) -> str:
    """The part of an instruction file that may describe the project: the section under its
    overview heading, else the file without its title and lines about the file itself."""
    lines = text.splitlines()
    for number, line in enumerate(lines):
        if _OVERVIEW_HEADING.match(line.strip()):
            return "\n".join(lines[number + 1 :])
    kept: list[str] = []
    for paragraph in re.split(r"\n\s*\n", "\n".join(lines)):
        body = [line for line in paragraph.splitlines() if not re.match(r"^#\s", line)]
        if any(re.match(r"^\s*(?:[-*+]|\d+[.)]|#|\|)", line) for line in body):
            # a list, a table or headings: line by line
            kept.append("\n".join(line for line in body if not _ABOUT_THE_FILE.search(line)))
            continue
        # prose: a sentence about the file goes, not the part of it on the same line as the
        # file's name (a wrapped line would leave a fragment: "templates — everything …")
        said = _SENTENCE_END.split(" ".join(line.strip() for line in body))
        kept.append(" ".join(part for part in said if not _ABOUT_THE_FILE.search(part)))
    return "\n\n".join(part for part in kept if part.strip())


def is_instruction_file(path: str) -> bool:
    """Whether `path` is a root instruction file whose overview may describe the project."""
    return path in _INSTRUCTION_FILES


def session_about(events: list[StoredEvent]) -> tuple[str, str, tuple[str, ...]] | None:
    """(statement, file it came from, event ids) saying what the project is, or None: a root
    README, manifest or docs site config first, else a root instruction file's overview."""
    readings = Readings()
    sources: dict[str, str] = {}
    texts: dict[str, str] = {}
    changed = changed_after(events)
    for event in events:
        read = root_file_read(event, _describes, attached=True, changed=changed.get(event.id, ()))
        if read is None:
            continue
        path, text = read
        texts[path] = text
        _read(path, TextFile.of(path, text), readings)
        sources[path] = event.id
    readings.prefer_own(PurePosixPath(events[0].project_id).name if events else "")
    if readings.description:
        source = readings.description_ref.split(":", 1)[0]
        # A manifest that names no package (a workspace's root): the folder names the project.
        name = readings.name or PurePosixPath(events[0].project_id).name or "unnamed"
        text = about_text(name, _with_stack(readings.description, source, texts), source)
        return text, source, (sources[source],)
    # A manifest's description printed among other output is still the manifest's own.
    return (
        printed_about(events)
        or package_about(events)
        or _instruction_about(events, changed)
        or doc_about(events)
    )


def changed_after(events: list[StoredEvent]) -> dict[str, set[str]]:
    """The id of each event that shows files a hook printed → the project files the session
    changed after it (edited, written, or changed by a command unseen): what the hook showed of
    those no longer says what they hold."""
    out: dict[str, set[str]] = {}
    later: set[str] = set()
    for event in reversed(events):
        if hook_file_texts(event):
            out[event.id] = set(later)
        later.update(changed_files([event]))
        later.update(changed_unseen(event))
    return out


def _with_stack(description: str, source: str, texts: dict[str, str]) -> str:
    """A README's description with its introduction's sentence on what the project is built
    with, when the description does not hold it (`readme_intro.stack_sentence`): both are the
    README's own words, so the stack is quoted, never inferred."""
    if instruction_kind(source) != "readme" or source not in texts:
        return description
    sentence = stack_sentence(texts[source])
    if sentence is None or sentence.rstrip(".!").lower() in description.lower():
        return description
    return f"{description} {sentence}"


#: An overview written as a labelled list ("- **What**: Android app that tracks parcels"):
#: the item that says what the project is, the one that names it, the one that gives its stack.
_LISTED = re.compile(
    r"^[ \t]*[-*+][ \t]+\*{0,2}(?P<label>what(?: it is)?|purpose|description|about|summary|"
    r"name|stack|tech(?:nology)? stack)\*{0,2}[ \t]*:[ \t]*\*{0,2}[ \t]*(?P<text>\S.*)$",
    re.IGNORECASE | re.MULTILINE,
)
#: Fewest words a listed description has: fewer names rather than describes.
MIN_LISTED_WORDS = 4


def _listed_overview(text: str) -> tuple[str, str] | None:
    """(name or "", description) of an overview written as a labelled list, with its stack
    item when it has one ("Android app that tracks parcels. Stack: Kotlin, Jetpack Compose.");
    None when no item says what the project is."""
    items: dict[str, str] = {}
    for found in _LISTED.finditer(text):
        label = found["label"].lower()
        key = "name" if label == "name" else "stack" if "stack" in label else "what"
        items.setdefault(key, " ".join(found["text"].replace("**", "").split()).rstrip("."))
    what = items.get("what", "")
    if len(what.split()) < MIN_LISTED_WORDS or _ASKS.search(what):
        return None
    stack = f" Stack: {items['stack']}." if items.get("stack") else ""
    return items.get("name", ""), f"{what}.{stack}"


def _instruction_about(
    events: list[StoredEvent], changed: dict[str, set[str]]
) -> tuple[str, str, tuple[str, ...]] | None:
    for event in events:
        read = root_file_read(
            event, is_instruction_file, attached=True, changed=changed.get(event.id, ())
        )
        if read is None:
            continue
        path, text = read
        overview = Readings()
        section = _overview_text(text)
        _read(path, TextFile.of(path, section), overview)
        name = PurePosixPath(event.project_id).name or "unnamed"
        if overview.description and not _ASKS.search(overview.description):
            return about_text(name, overview.description, path), path, (event.id,)
        listed = _listed_overview(section)
        if listed is not None:
            said = about_text(listed[0] or name, listed[1], path)
            return said, path, (event.id,)
    return None
