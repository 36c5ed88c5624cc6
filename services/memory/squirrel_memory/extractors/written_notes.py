"""What an assistant-instructions file written in a session says of the project.

Short sessions often end with the assistant writing or revising the project's own notes
(`CLAUDE.md`, `AGENTS.md` …) after reading the code: what the project is, how it is laid out,
its constraints and the commands to run. Those notes are the session's own summary of what it
read, kept in the repository, so they are worth remembering even when the repository itself is
never scanned. Only the file's *final* text counts: a command or claim that a later edit in the
session replaced is never kept (a first draft saying `npm install` and a revision saying
`pnpm install` leave only `pnpm install`). An edit the user rejected (no change recorded) is
skipped. Tool inputs arrive cut at a length limit, so the text is rebuilt as known pieces:
the written text up to its cut, edits applied where their old text is found, and the new text
of an edit whose old text lies in the unknown part as a piece of its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from squirrel_core.commands import typed_commands
from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.file_writes import applied_calls
from squirrel_memory.extractors.wording import key_slug, outside_code, strip_markdown
from squirrel_memory.markdown_links import MARKDOWN_LINK
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.instructions import instruction_kind
from squirrel_memory.repository.markdown_prose import ANY_FENCE
from squirrel_memory.repository.task_records import purpose_of

#: Importance of a section of the notes, and of the commands they give.
IMPORTANCE = 0.5
COMMANDS_IMPORTANCE = 0.55
#: Sections kept per file, items per section, characters per item and per memory.
MAX_SECTIONS = 8
MAX_ITEMS = 4
MAX_ITEM_CHARS = 220
MAX_CHARS = 480
MIN_ITEM_WORDS = 4
MAX_COMMANDS = 6

_CUT = re.compile(r"\n?…\[truncated \d+ chars\]\s*$")
_SHELL_FENCES = {"", "sh", "bash", "shell", "console", "zsh", "fish", "terminal", "cmd", "pwsh"}
_PROMPT = re.compile(r"^\s*(?:\$|%|>)\s+")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_ITEM = re.compile(r"^(?:[-*+]|\d{1,3}[.)])\s+")
#: A paragraph led by a bold label: `**No build process** - …`, `**Workers**: …`.
_LABELLED = re.compile(r"^\*\*[^*]{2,60}\*\*\s*(?::|-|–|—)?\s*\S")
#: Lines about the notes file itself or its reader, not about the project.
_ABOUT_FILE = re.compile(
    r"\bthis (?:file|document)\b|\bclaude(?:\.ai| code)\b|\bcodex\b|\bgemini\b|\bcopilot\b|"
    r"\bcursor\b|\bai assistants?\b|\bagents?\b.*\bwhen working\b",
    re.IGNORECASE,
)
#: Sections of intentions rather than of what the project is (plans, open questions).
_PLAN_TITLE = re.compile(
    r"\b(?:plans?|todos?|to-do|next steps?|roadmap|ideas?|open questions?|questions|"
    r"future|wish ?list|backlog|known issues)\b",
    re.IGNORECASE,
)
#: A hedge or an open point: not a statement of how things are.
_HEDGE = re.compile(r"\b(?:maybe|might|perhaps|possibly|tbd|todo|not sure|consider)\b", re.I)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_CODE = re.compile(r"`[^`\n]+`")


def _clean(line: str) -> str:
    """A line of markdown as plain prose; code spans are kept exactly as written."""
    return " ".join(outside_code(strip_markdown(line), MARKDOWN_LINK, r"\1").split()).strip()


@dataclass(frozen=True, slots=True)
class WrittenNote:
    """One memory from a notes file: `kind` is `fact` or `recipe`."""

    kind: str
    key: str
    content: str
    path: str
    event_ids: tuple[str, ...]


@dataclass(slots=True)
class _Notes:
    """The known pieces of one notes file's final text and the events that wrote them."""

    pieces: list[str] = field(default_factory=list)
    event_ids: list[str] = field(default_factory=list)


def _known(text: str) -> tuple[str, bool]:
    """The part of a tool input kept before its cut, ending at a whole line, and whether it
    was cut."""
    match = _CUT.search(text)
    if match is None:
        return text, False
    head = text[: match.start()]
    return head[: head.rfind("\n") + 1] if "\n" in head else "", True


def _apply(notes: _Notes, old: str, new: str) -> None:
    """One edit of the file: replaced in the piece holding its old text, else kept apart."""
    old_known, old_cut = _known(old)
    new_known, new_cut = _known(new)
    if old_known.strip():
        for i, piece in enumerate(notes.pieces):
            at = piece.find(old_known)
            if at < 0:
                continue
            rest = "" if old_cut or new_cut else piece[at + len(old_known) :]
            notes.pieces[i] = piece[:at] + new_known + rest
            return
        # The old text is (partly) in the unknown part: a piece that starts it is stale from
        # there on.
        first = next((line for line in old_known.splitlines() if len(line.strip()) >= 8), "")
        for i, piece in enumerate(notes.pieces):
            at = piece.find(first) if first else -1
            if at >= 0:
                notes.pieces[i] = piece[: piece.rfind("\n", 0, at) + 1]
    if new_known.strip():
        notes.pieces.append(new_known)


def _edits(data: dict[str, Any]) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    if isinstance(data.get("old_string"), str) and isinstance(data.get("new_string"), str):
        pairs.append((data["old_string"], data["new_string"]))
    for item in data.get("edits") or []:
        if isinstance(item, dict):
            old, new = item.get("old_string"), item.get("new_string")
            if isinstance(old, str) and isinstance(new, str):
                pairs.append((old, new))
    return pairs


def final_texts(events: list[StoredEvent]) -> dict[str, _Notes]:
    """Each notes file written in `events` (project path → its known final pieces)."""
    applied = applied_calls(events)
    files: dict[str, _Notes] = {}
    for event in events:
        use_id = event.content.get("tool_use_id")
        data = event.content.get("input")
        if event.event_type != EventType.TOOL_CALL or use_id not in applied:
            continue
        if not isinstance(data, dict):
            continue
        raw = data.get("file_path") or data.get("path")
        paths = list(event.file_paths) or ([raw] if isinstance(raw, str) else [])
        for path in (relative_path(p, event.project_id) for p in paths if p):
            if instruction_kind(path) != "instructions":
                continue
            content = data.get("content")
            if isinstance(content, str) and not _edits(data):
                files[path] = _Notes([_known(content)[0]], [event.id])
                continue
            notes = files.setdefault(path, _Notes())
            for old, new in _edits(data):
                _apply(notes, old, new)
            notes.event_ids.append(event.id)
    return files


def _item_text(line: str) -> str | None:
    """One bullet or labelled paragraph as a clause: clean, whole sentences, not too long."""
    text = _clean(line)
    words = MIN_ITEM_WORDS if _CODE.search(text) is None else 2
    if text.endswith((":", "?")) or len(text.split()) < words:
        return None
    if _ABOUT_FILE.search(text) or _HEDGE.search(text):
        return None
    if text.count("`") % 2:
        return None
    if len(text) > MAX_ITEM_CHARS:
        kept = ""
        for part in _SENTENCE_END.split(text):
            if len(kept) + len(part) + 1 > MAX_ITEM_CHARS:
                break
            kept = f"{kept} {part}".strip()
        if not kept or kept.count("`") % 2:
            return None
        text = kept
    return text.rstrip(".;, ")


def _sections(text: str) -> tuple[list[tuple[str, list[str]]], list[str]]:
    """(section title, its items) in order, and the commands of its shell blocks."""
    sections: list[tuple[str, list[str]]] = []
    commands: list[str] = []
    title = ""
    fence: str | None = None
    for line in text.splitlines():
        if ANY_FENCE.match(line):
            fence = None if fence is not None else line.strip()[3:].strip().lower()
            continue
        if fence is not None:
            if fence in _SHELL_FENCES and not line.lstrip().startswith("#"):
                commands.append(_PROMPT.sub("", line).strip())
            continue
        heading = _HEADING.match(line)
        if heading:
            title = _clean(heading.group(2)).rstrip(":")
            continue
        if not title or _PLAN_TITLE.search(title):
            continue  # the preamble and sections of plans
        if line.startswith((" ", "\t")) or not line.strip():
            continue  # sub-items and blank lines
        stripped = line.strip()
        if stripped.startswith(("|", ">", "<", "!")):
            continue
        labelled = bool(_LABELLED.match(stripped))
        if not (_ITEM.match(stripped) or labelled or stripped.endswith(".")):
            continue
        item = _item_text(stripped)
        if item is None:
            continue
        if not sections or sections[-1][0] != title:
            sections.append((title, []))
        sections[-1][1].append(item)
    return sections, commands


def _section_note(path: str, title: str, items: list[str]) -> str | None:
    head = f"{title} (the project's {path}, written in a session): "
    kept: list[str] = []
    for item in items[:MAX_ITEMS]:
        if len(head) + sum(len(k) + 2 for k in kept) + len(item) > MAX_CHARS:
            break
        kept.append(item)
    return head + "; ".join(kept) + "." if kept else None


def _commands_note(path: str, commands: list[str]) -> str | None:
    named: dict[str, str] = {}
    for line in commands:
        for typed in typed_commands(line):
            found = purpose_of(typed.text)
            if found is not None and typed.use is not None and "`" not in typed.text:
                named.setdefault(typed.text, found[0])
    if not named:
        return None
    shown = [f"`{text}` ({purpose})" for text, purpose in list(named.items())[:MAX_COMMANDS]]
    return f"Commands the project's {path} (written in a session) gives: {', '.join(shown)}."


def written_notes(events: list[StoredEvent]) -> list[WrittenNote]:
    """Facts (one per section) and the commands of every notes file the session wrote."""
    found: list[WrittenNote] = []
    for path, notes in final_texts(events).items():
        ids = tuple(dict.fromkeys(notes.event_ids))
        commands: list[str] = []
        seen: set[str] = set()
        kept = 0
        for piece in reversed(notes.pieces):  # later pieces hold later text
            sections, piece_commands = _sections(piece)
            commands.extend(piece_commands)
            for title, items in sections:
                slug = key_slug(title) or "notes"
                text = _section_note(path, title, items)
                if text is None or slug in seen or kept >= MAX_SECTIONS:
                    continue
                seen.add(slug)
                kept += 1
                found.append(WrittenNote("fact", f"notes:{path}:{slug}", text, path, ids))
        text = _commands_note(path, commands)
        if text is not None:
            found.append(WrittenNote("recipe", f"notes:{path}:commands", text, path, ids))
    return found
