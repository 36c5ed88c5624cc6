"""How the project's folders are organised, as its root README or instruction file explains them.

A notes vault, an analysis folder or a dotfiles repository often says in its README what each
top-level folder holds: a bullet per folder (`- `daily/` one note per day`, or the folder as a
link, `- [`base/`](base/) - core library`) or a tree with comments (`├── reviews/   # weekly
reviews`); a root instruction file (`AGENTS.md`, `CLAUDE.md`) often opens with the same list
under "Module organization". A README may draw its files instead, each with what it does, in a
plain layout block (`drawn_files`: `lib/sequencer.lua    clock-driven step advancement`). When
the assistant read that file in a session (or its host loaded it), the folders it explains
become one project fact (not in a code package's sessions, where the module facts say what
the folders do), or, when fewer than two folders are explained, the files it explains (three
at least). A folder named without a word about it is no entry
(a file list tells nobody anything), and fewer than two explained folders make no fact. A fact
read only from a file the host loads itself cites it and is tagged as such
(`loaded_sources`), so that host is not given its own lines back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from squirrel_memory.extractors.about import root_file_read
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.drawn_files import drawn_entries
from squirrel_memory.extractors.file_reads import listing_output
from squirrel_memory.extractors.manifests import manifest_language
from squirrel_memory.extractors.modules import CODE_SUFFIXES
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.instructions import instruction_kind
from squirrel_memory.repository.markdown_prose import ANY_FENCE, clean_markdown

#: Importance of the layout fact.
IMPORTANCE = 0.5
KEY = "layout"
#: Folders shown, and the explanation's longest length (characters) and fewest words.
MAX_FOLDERS = 6
#: Files of a layout block shown, and the fewest explained files that make a fact.
MAX_FILES, MIN_FILES = 8, 3
MAX_EXPLANATION_CHARS = 90
MIN_EXPLANATION_WORDS = 2

_FOLDER = r"(?P<folder>[A-Za-z0-9_.@-][\w.@-]*/)"
_BULLET_ENTRY = re.compile(
    r"^\s{0,3}(?:[-*+]|\d+[.)])\s+(?:\*\*|__)?\[?`?" + _FOLDER + r"`?\]?"
    r"(?:\([^()\s]*\))?(?:\*\*|__)?\s*(?:[:—–-]\s*|\s+)(?P<says>\S.*)$"
)
#: The folder a tree is drawn under (`src/`, `./`), on a line of its own.
_TREE_ROOT = re.compile(r"^(?P<root>\.?/|[A-Za-z0-9_@-][\w.@-]*/)\s*(?:#.*)?$")
#: Folders a tree may be drawn under that are the project's own by convention, not an old name.
_SOURCE_ROOTS = frozenset({"src", "lib", "app", "apps", "pkg", "packages", "cmd", "internal"})
#: The root files whose lists explain the folders: the README and the instruction files.
_EXPLAINING = frozenset({"readme", "instructions"})
_TREE_ENTRY = re.compile(r"^(?:├──|└──|\|--|`--)\s+" + _FOLDER + r"\s+#\s*(?P<says>\S.*)$")
#: Any list item's first line.
_ITEM = re.compile(r"^\s{0,3}(?:[-*+]|\d+[.)])\s")
#: A folder path a line names (a code span with a `/` in it, or a word ending in `/`): the
#: list under that line holds that folder's entries, not the project's top-level folders.
_NAMED_FOLDER = re.compile(
    r"`(?!\.?/`)[^`\s]*[\w.@-]/[^`\s]*`|(?<![\w/`])[\w.@-]+/(?:[\w.@-]+/)*(?=[\s:;,.)]|$)"
)
_URL = re.compile(r"\S+://\S*")
_LISTING_TOOLS = frozenset({"Glob", "LS"})
_LISTING_PROGRAMS = frozenset({"ls", "find", "fd", "tree"})
_LISTING_OPTIONS = frozenset({"--files", "ls-files"})
#: Fewest code files a listing shows that mark a code project when no manifest is shown.
MIN_LISTED_CODE = 2


@dataclass(frozen=True, slots=True)
class Layout:
    """The layout fact: its sentence, the README it came from and the event behind it."""

    key: str
    content: str
    path: str
    event_ids: tuple[str, ...]


def _letters(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _explanation(raw: str) -> str:
    text = clean_markdown(raw).rstrip(".;, ")
    if len(text.split()) < MIN_EXPLANATION_WORDS:
        return ""
    if len(text) > MAX_EXPLANATION_CHARS:
        cut = text[:MAX_EXPLANATION_CHARS].rsplit(" ", 1)[0].rstrip(",;:")
        text = cut + "…"
    return text


def explained_folders(
    text: str, project: str = "", touched: frozenset[str] = frozenset()
) -> list[tuple[str, str]]:
    """(folder, what it holds) for each top-level folder a README's bullets or tree explain. A
    tree drawn under the project's own folder (`project`, its name) or `./` names top-level
    folders; one drawn under a conventional source folder (`src/`) or a top-level folder the
    session touched (`touched`) names that folder's sub-folders, and says so (`src/Command/`);
    one drawn under any other root (the project's old name, another project's) names nothing:
    where its folders lie is not known."""
    found: dict[str, str] = {}
    fenced = False
    root: str | None = ""
    # The heading, or the line the list hangs under, names a folder: the list is that folder's.
    heading_nested = nested = False
    for line in text.splitlines():
        if ANY_FENCE.match(line):
            fenced = not fenced
            root = ""
            continue
        if not fenced and line.strip() and not _ITEM.match(line) and not line[:1].isspace():
            names = bool(_NAMED_FOLDER.search(_URL.sub(" ", line)))
            if line.startswith("#"):
                heading_nested = names
            nested = heading_nested or names
            continue
        if not fenced and nested:
            continue
        if fenced and (top := _TREE_ROOT.match(line)):
            named = top.group("root")
            if _letters(named) in {"", _letters(project)}:
                root = ""
            else:
                known = named.rstrip("/") in _SOURCE_ROOTS | touched
                root = named if known else None
            continue
        match = (_TREE_ENTRY if fenced else _BULLET_ENTRY).match(line)
        if match is None or (fenced and root is None):
            continue
        folder = ((root or "") if fenced else "") + match.group("folder")
        if folder.startswith(".") or folder in found or "://" in line:
            continue
        says = _explanation(match.group("says"))
        if says:
            found[folder] = says
    return list(found.items())


def _code_package(events: list[StoredEvent]) -> bool:
    """Whether `events` touched a package manifest, or a listing showed one (or code files):
    a code project's modules say more."""
    return any(
        manifest_language(PurePosixPath(raw).name) is not None
        for event in events
        for raw in event.file_paths
        if raw and not relative_path(raw, event.project_id).startswith(("/", "~"))
    ) or any(_lists_code(output) for e in events if (output := _folder_listing(e)) is not None)


def _folder_listing(event: StoredEvent) -> str | None:
    """The output of a listing of folders' entries (`ls`, `find`, `tree`, `rg --files`,
    `git ls-files`, a Glob or LS result), or None: a search's hits or a diff name files some
    other way, and a session that only looks at a commit's files is no proof of a code
    package."""
    output = listing_output(event)
    command = event.content.get("command")
    if output is None or not isinstance(command, str):
        return output if event.content.get("tool") in _LISTING_TOOLS else None
    words = set(command.split())
    return output if words & _LISTING_PROGRAMS or words & _LISTING_OPTIONS else None


def _lists_code(output: str) -> bool:
    """Whether a listing's output shows a package manifest or code files (outside hidden
    folders): each line's last word is the name it lists."""
    code = 0
    for line in output.splitlines():
        words = line.split()
        if not words or words[-1].startswith(("/", "~", "http")):
            continue
        path = words[-1].split(":", 1)[0].removeprefix("./")
        parts = PurePosixPath(path).parts
        if not parts or any(p.startswith(".") for p in parts[:-1]):
            continue
        if manifest_language(parts[-1]) is not None:
            return True
        code += PurePosixPath(path).suffix.lower() in CODE_SUFFIXES
    return code >= MIN_LISTED_CODE


def _top_folders(events: list[StoredEvent]) -> frozenset[str]:
    """The project's top-level folders the session's events name a path in."""
    found: set[str] = set()
    for event in events:
        for raw in event.file_paths:
            inside = relative_path(raw, event.project_id) if raw else ""
            if "/" in inside and not inside.startswith(("/", "~", "../")):
                found.add(inside.split("/", 1)[0])
    return frozenset(found)


def readme_layout(events: list[StoredEvent]) -> Layout | None:
    """The layout the root README or instruction file read in `events` explains, or None (and
    None in a session that touched a package manifest: a code project's module facts say what
    its folders do)."""
    if _code_package(events):
        return None
    touched = _top_folders(events)
    for event in events:
        read = root_file_read(event, lambda p: instruction_kind(p) in _EXPLAINING)
        if read is None:
            continue
        path, text = read
        project = PurePosixPath(event.project_id).name
        folders = explained_folders(text, project, touched)
        if len(folders) >= 2:
            shown = "; ".join(f"`{folder}` {says}" for folder, says in folders[:MAX_FOLDERS])
            return Layout(
                KEY, f"How the folders are organised, per {path}: {shown}.", path, (event.id,)
            )
        files = [
            (f, says) for f, raw in drawn_entries(text, project) if (says := _explanation(raw))
        ]
        if len(files) >= MIN_FILES:
            shown = "; ".join(f"`{file}` {says}" for file, says in files[:MAX_FILES])
            return Layout(KEY, f"What the files do, per {path}: {shown}.", path, (event.id,))
    return None
