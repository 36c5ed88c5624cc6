"""The project's files as its root README or instruction file draws them in a layout block.

A session that only reads a project's documents (writing a spec, answering a question) touches
no code file, yet the README it read often draws the code: a fenced block of the files and
folders, each with what it does,

    re_kriate.lua            entry point (thin global hooks)
    lib/
      app.lua                init, params, grid
      sequencer.lua          clock-driven step advancement

or the same with tree lines (`├── main.rs`, `└── handlers/`). Those names are the project's
files as its own authors list them, and say what it is written in as a listing does (weaker
than files touched, listed by git or printed by a search: a README can be behind the code). The
same reading for every ecosystem:

- only a root README or assistant instruction file counts (a template's or a dependency's
  README draws some other project);
- only a block that is not code: no language on its fence, or a plain-text one (`text`,
  `tree`); a shell block's `./build.sh` or a Lua block's `require("lib/app")` are no entries;
- a line is an entry when it is one path and nothing else but its explanation, set apart by
  two spaces or a comment sign (`#`, `--`, `//`); a file entry counts when the block draws it
  as a layout: behind a tree line, with an explanation, or under a folder the block drew;
- a folder line (`lib/`) holds the entries indented under it; a first line naming the project
  itself or `./` is the root.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from squirrel_memory.extractors.about import root_file_read
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.instructions import instruction_kind
from squirrel_memory.repository.markdown_prose import ANY_FENCE

#: The root files whose layout blocks are read: the README and the instruction files.
_DRAWING = frozenset({"readme", "instructions"})
#: Fence words of a block that is not code.
_PLAIN_FENCES = frozenset({"", "text", "txt", "plain", "plaintext", "tree", "none"})
#: The tree glyphs and guide bars before an entry.
_GLYPHS = re.compile(r"^(?P<lead>(?:├──|└──|\|--|`--|\+--|[\s│|])*)")
_ENTRY = re.compile(
    r"^(?P<name>[\w@][\w.@-]*(?:/[\w.@-]+)*/?)"
    r"(?:(?P<says>\s{2,}\S.*|\s+(?:#|--|//)\s.*)|\s*)$"
)

#: The comment sign an explanation may open with.
_SAYS_MARK = re.compile(r"^\s*(?:#|--|//)?\s*")


def _letters(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def drawn_files(text: str, project: str = "") -> list[str]:
    """The project-relative files a document's plain layout blocks draw (see the module's
    docstring); `project` is the project's folder name, a block's root when it names it."""
    return [path for path, _ in drawn_entries(text, project)]


def drawn_entries(text: str, project: str = "") -> list[tuple[str, str]]:
    """(file, what the block says it does, "" when nothing) for each file `drawn_files` gives."""
    found: dict[str, str] = {}
    fence: str | None = None
    folders: list[tuple[int, str]] = []
    first = -1
    for number, line in enumerate(text.splitlines()):
        if ANY_FENCE.match(line):
            fence = None if fence is not None else line.strip()[3:].strip().lower()
            folders = []
            first = number + 1
            continue
        if fence is None or fence not in _PLAIN_FENCES or not line.strip():
            continue
        lead = _GLYPHS.match(line)
        glyphs = lead.group("lead") if lead else ""
        match = _ENTRY.match(line[len(glyphs) :])
        if match is None:
            continue
        indent = len(glyphs)
        name = match.group("name")
        folders = [(depth, folder) for depth, folder in folders if depth < indent]
        if name.endswith("/"):
            root = number == first and _letters(name) in {"", _letters(project)}
            if not root:
                folders.append((indent, name))
            continue
        if not re.search(r"[A-Za-z]", name):
            continue  # a key or row number of a controls table (`1-4   select track`)
        treed = any(mark in glyphs for mark in ("├", "└", "|--", "`--", "+--"))
        if not (treed or match.group("says") or folders):
            continue
        says = _SAYS_MARK.sub("", match.group("says") or "").strip()
        found.setdefault("".join(folder for _, folder in folders) + name, says)
    return list(found.items())


def drawn_paths(events: list[StoredEvent]) -> list[tuple[str, str]]:
    """(path, event id) for each file the root README or instruction files read in `events`
    draw in a layout block."""
    found: list[tuple[str, str]] = []
    for event in events:
        read = root_file_read(event, lambda p: instruction_kind(p) in _DRAWING)
        if read is None:
            continue
        project = PurePosixPath(event.project_id).name
        found.extend((path, event.id) for path in drawn_files(read[1], project))
    return found
