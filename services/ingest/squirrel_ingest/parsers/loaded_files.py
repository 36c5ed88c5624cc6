"""An instruction file the host itself put into the transcript, as the file the session read.

Hosts load the project's instruction file into every session without a tool call:

- Codex CLI writes it as a user-role message, `# AGENTS.md instructions for <folder>` with the
  file's text inside `<INSTRUCTIONS>` … `</INSTRUCTIONS>` (current versions), or the text inside
  `<user_instructions>` … `</user_instructions>` (older ones). Codex joins the user's own
  `~/.codex/AGENTS.md` before the project's file with a `--- project-doc ---` line, and may
  append its list of skills (`## Skills`); neither is the project's file and both are cut off.
  The older shape names no folder: only a text with the `--- project-doc ---` line says which
  part is the project's, and it was loaded for the session's folder; without that line, a text
  whose title names the session's folder (`# Shop Development Guidelines` in `…/shop`) is the
  project's own file too (a user's own file does not name one project's folder). Only the
  host's own message counts: one the user typed (a block pasted from elsewhere) is followed by its
  `user_message` record of the same text, so the parser holds such a message until the next
  record says which it was.
- Claude Code (2.1) writes an `attachment` record `nested_memory` with the file's `path` and its
  `content` (`{"path", "type", "content"}`) when it loads the `CLAUDE.md` of a sub-folder the
  session works in; newer versions write the files loaded at the start (and again after a
  compaction) as one `instructions` attachment, each of its `files` of that same shape. Only a
  project's file (`type` `Project` or `Local`) is one, never the user's own (`User`), a managed
  policy or an automatic memory.

Each becomes one host-spoken (`HARNESS`) user message whose `text` is the file's text and whose
`loaded_file` (also its file path) names the file: the memory side reads it as a whole read of
that file. Whether the file is this project's (at its root, in a sub-folder, or of another
folder) is decided there, from the path, as for a file read with a tool.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from typing import Any

from squirrel_core.events import LOADED_FILE, Event, EventType, Origin, SourcePosition
from squirrel_ingest.parsers.base import RecordContext, relative_path, text_of

CODEX_FILE = "AGENTS.md"
#: Longest instruction file text kept (characters): more than other texts, the file is the point.
LOADED_TEXT_LIMIT = 32_000

_CODEX_CURRENT = re.compile(
    r"# AGENTS\.md instructions for (?P<folder>[^\n]+)\n+<INSTRUCTIONS>\n?(?P<body>.*?)"
    r"(?:\n?</INSTRUCTIONS>\s*)?\Z",
    re.DOTALL,
)
_CODEX_OLDER = re.compile(
    r"<user_instructions>\n?(?P<body>.*?)(?:\n?</user_instructions>\s*)?\Z", re.DOTALL
)
#: Codex's line between the user's own AGENTS.md and the project's.
_PROJECT_DOC = re.compile(r"^--- project-doc ---\s*$", re.MULTILINE)
#: The skills list Codex appends after the instruction files.
_SKILLS = re.compile(
    r"^## Skills\n+(?:These skills are discovered|A skill is a set of local instructions)",
    re.MULTILINE,
)
#: Claude Code memory types that are a project's file (not the user's, a policy, automatic).
_PROJECT_MEMORY = frozenset({"Project", "Local"})
#: Files of one `instructions` attachment read (a session loads a handful; the rest is noise).
MAX_LISTED_FILES = 50

#: A Codex message carrying AGENTS.md held until the next record: its text, line and place.
Held = tuple[str, bytes, SourcePosition]


@dataclass(frozen=True, slots=True)
class LoadedFile:
    """An instruction file the host loaded: its path (absolute, as the host named it), text."""

    path: str
    text: str

    def event(self, ctx: RecordContext) -> Event:
        """The host-spoken message carrying the file, its path relative to the session."""
        path = relative_path(self.path, ctx.cwd)
        content: dict[str, Any] = {"text": self.text[:LOADED_TEXT_LIMIT], LOADED_FILE: path}
        if len(self.text) > LOADED_TEXT_LIMIT:
            content["partial"] = True  # what follows its last blank line may be cut short
        return ctx.event(EventType.USER_MESSAGE, content, (path,), origin=Origin.HARNESS)


def _project_part(body: str) -> str:
    """The project's file in what Codex loaded: after the user's own file, before the skills."""
    parts = _PROJECT_DOC.split(body, maxsplit=1)
    text = parts[-1]
    skills = _SKILLS.search(text)
    return (text[: skills.start()] if skills else text).strip()


def codex_loaded(content: object, cwd: str | None) -> tuple[list[LoadedFile], str]:
    """The project instruction files of one Codex user-role message (each a whole part of its
    `content`), and the text of its other parts (the environment, plugins, a block that holds
    no project file) for the host's other words."""
    parts = content if isinstance(content, list) else [content]
    found: list[LoadedFile] = []
    rest: list[str] = []
    for part in parts:
        text = text_of(part).strip()
        if loaded := _codex_file(text, cwd):
            found.append(loaded)
        elif text:
            rest.append(text)
    return found, "\n".join(rest)


def _codex_file(text: str, cwd: str | None) -> LoadedFile | None:
    if current := _CODEX_CURRENT.match(text):
        folder, body = current.group("folder").strip(), current.group("body")
    elif (older := _CODEX_OLDER.match(text)) and cwd and _projects_own(older.group("body"), cwd):
        folder, body = cwd, older.group("body")
    else:
        return None
    project = _project_part(body)
    return LoadedFile(posixpath.join(folder, CODEX_FILE), project) if project else None


#: A Markdown file's title: its first line, one `#`.
_TITLE = re.compile(r"\A\s*#\s+(?P<title>[^\n]+)")
#: Shortest folder name a title is matched against (a shorter one is too common a word).
_MIN_FOLDER_NAME = 3
#: Most title words one folder name is spelt with ("Try 4th").
_MAX_NAME_WORDS = 4


def _squashed(text: str) -> str:
    return re.sub(r"[\W_]+", "", text).lower()


def _projects_own(body: str, cwd: str) -> bool:
    """Whether an older-shape Codex block holds the project's file: it has the project-doc line,
    or its title names the session's folder."""
    if _PROJECT_DOC.search(body):
        return True
    title = _TITLE.match(body)
    folder = _squashed(posixpath.basename(cwd.rstrip("/")))
    if title is None or len(folder) < _MIN_FOLDER_NAME:
        return False
    # Whole words of the title spell the folder's name ("Try 4th", "Try_4th"; not "Workshop").
    words = title.group("title").split()
    return any(
        _squashed(" ".join(words[start:end])) == folder
        for start in range(len(words))
        for end in range(start + 1, min(start + _MAX_NAME_WORDS, len(words)) + 1)
    )


def claude_loaded(attachment: dict[str, Any]) -> list[LoadedFile]:
    """The project instruction files a Claude Code attachment carries: a `nested_memory` one's
    file, or each project file of an `instructions` one; none for another attachment."""
    kind = attachment.get("type")
    if kind == "nested_memory":
        memory = attachment.get("content")
        loaded = _claude_file(memory, attachment.get("path")) if isinstance(memory, dict) else None
        return [loaded] if loaded else []
    files = attachment.get("files")
    if kind != "instructions" or not isinstance(files, list):
        return []
    found = (_claude_file(f, None) for f in files[:MAX_LISTED_FILES] if isinstance(f, dict))
    return [loaded for loaded in found if loaded is not None]


def _claude_file(memory: dict[str, Any], path: object) -> LoadedFile | None:
    """One file Claude Code loaded (`{"path", "type", "content"}`) when it is the project's."""
    kind = memory.get("type")
    if not isinstance(kind, str) or kind not in _PROJECT_MEMORY:
        return None
    path = memory.get("path", path)
    text = memory.get("content")
    if not isinstance(path, str) or not path or not isinstance(text, str) or not text.strip():
        return None
    return LoadedFile(path, text.strip())


def held_json(held: Held | None) -> dict[str, Any] | None:
    """A held message for a cursor's state (its line as text: a JSON record is UTF-8)."""
    if held is None:
        return None
    text, line, position = held
    return {
        "text": text,
        "line": line.decode("utf-8", errors="replace"),
        "place": [position.path, position.inode, position.end_offset],
    }


def held_from(value: object) -> Held | None:
    """What `held_json` wrote, or None for another shape."""
    if not isinstance(value, dict):
        return None
    text, line, place = value.get("text"), value.get("line"), value.get("place")
    if not isinstance(text, str) or not isinstance(line, str) or not isinstance(place, list):
        return None
    if (
        len(place) != 3
        or not isinstance(place[0], str)
        or not all(isinstance(n, int) for n in place[1:])
    ):
        return None
    return text, line.encode(), SourcePosition(place[0], place[1], place[2])
