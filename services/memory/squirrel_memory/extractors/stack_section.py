"""The stack a root instruction file or README lists under its own technology heading.

Many projects keep a section that says what they are built with: "## Tech Stack", "## Active
Technologies", "## Technologies" in `AGENTS.md`, `CLAUDE.md` or the README. It is the
project's own word on its stack, often the only one a session that reads no code shows (a
planning or design conversation). The statement quotes it, the same in every ecosystem:

- only a root instruction file or README (`about.is_instruction_file`, a root README) the
  session read or its host loaded; a sub-folder's or a dependency's file says nothing of the
  project;
- only the section under a heading that names the stack itself, never one that only mentions
  technologies ("## Technologies to avoid", "## Stack traces");
- its list items, else the rows of its two-column table ("Streaming: Kafka, Flink"), else its
  first paragraph; at most `MAX_ITEMS`, markdown emphasis dropped and a trailing feature tag
  in brackets (`(001-login)`) left out; a table of more columns, or a section that holds a
  template's unfilled placeholder ("[e.g. Python 3.11]", "NEEDS CLARIFICATION"), is no list;
- two files whose sections differ leave it unsaid: which one is current is not known;
- a framework or main store the list names that the session's own evidence contradicts (the
  code imports another, nothing shows it) drops the statement (`contradicted_about`).
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.about import is_instruction_file, last_root_reads
from squirrel_memory.extractors.contradicted_about import known_stack_named, without_contradicted
from squirrel_memory.extractors.project_fact import Fact
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.instructions import instruction_kind

KEY = "stack_section"
IMPORTANCE = 0.6
#: List items quoted at most, and characters of the whole list.
MAX_ITEMS = 8
MAX_CHARS = 400

_HEADING = re.compile(r"^(?P<level>#{1,6})\s+(?P<title>.+?)\s*#*\s*$")
_STACK_TITLE = re.compile(
    r"^(?:(?:active|key|core|main|current|our)\s+)?"
    r"(?:tech(?:nology|nologies)?\s+stack|technologies(?:\s+used)?|stack|tech)\s*:?$",
    re.IGNORECASE,
)
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?P<text>.+)$")
_FENCE = re.compile(r"^\s*(?:```|~~~)")
_TABLE_ROW = re.compile(r"^\s*\|(?P<cells>.*)\|\s*$")
_TABLE_RULE = re.compile(r"^[\s|:-]+$")
_EMPHASIS = re.compile(r"\*\*|__")
#: A trailing tag in brackets with no space in it: a feature or plan's name (`(001-login)`).
_TAG = re.compile(r"\s*\([\w.-]+\)\s*$")
#: A template's unfilled placeholder.
_PLACEHOLDER = re.compile(
    r"\[(?:e\.g\.|[A-Z][A-Z0-9_/-]*(?: [A-Z0-9_/-]+)+)[^\]]*\]|NEEDS CLARIFICATION", re.IGNORECASE
)


def _wanted(path: str) -> bool:
    return is_instruction_file(path) or (instruction_kind(path) == "readme" and "/" not in path)


def _table_items(rows: list[str]) -> list[str] | None:
    """ "Name: value" of each row of a two-column table under its header; None for another
    shape (a table of more columns reads as no list)."""
    cells = [[cell.strip() for cell in row.split("|")] for row in rows]
    if any(len(row) != 2 for row in cells) or len(cells) < 3 or not _TABLE_RULE.match(rows[1]):
        return None
    return [f"{name}: {value}" for name, value in cells[2:] if name and value]


def section_items(text: str) -> tuple[str, list[str]] | None:
    """(heading, items) of the first stack section of a markdown file's text, or None."""
    lines = text.splitlines()
    for number, line in enumerate(lines):
        heading = _HEADING.match(line.strip())
        if heading is None or not _STACK_TITLE.match(heading.group("title")):
            continue
        body: list[str] = []
        fenced = False
        for following in lines[number + 1 :]:
            if _FENCE.match(following):
                fenced = not fenced
                continue
            if fenced:
                continue
            if _HEADING.match(following.strip()):
                break
            body.append(following)
        items: list[str] = [m.group("text").strip() for b in body if (m := _ITEM.match(b))]
        rows = [m.group("cells") for b in body if (m := _TABLE_ROW.match(b))]
        if not items and rows:
            table = _table_items(rows)
            if table is None:
                return None
            items = table
        if not items:
            paragraphs = "\n".join(body).strip().split("\n\n")
            items = [" ".join(paragraphs[0].split())] if paragraphs and paragraphs[0] else []
        if not items or any(_PLACEHOLDER.search(item) for item in items):
            return None
        kept = [_TAG.sub("", _EMPHASIS.sub("", item)).strip() for item in items[:MAX_ITEMS]]
        return heading.group("title").rstrip(":"), [item for item in kept if item]
    return None


def stack_section(events: list[StoredEvent], seen: dict[str, set[str]]) -> Fact | None:
    """The stack the project's root instruction file or README lists (module docstring), or
    None; `seen` is what the session's evidence shows per stack kind (`stack_seen`)."""
    found: list[tuple[str, str, list[str], str]] = []
    for path, (event, text) in sorted(last_root_reads(events, _wanted).items()):
        section = section_items(text)
        if section is not None and section[1]:
            found.append((path, section[0], section[1], event.id))
    if not found or len({tuple(items) for _, _, items, _ in found}) != 1:
        return None
    path, title, items, event_id = found[0]
    listed = "; ".join(item.rstrip(".;") for item in items)
    if len(listed) > MAX_CHARS:
        return None
    # Each item is weighed alone: a confirmed framework in one does not vouch for another's.
    for item in items:
        claim = f"{path}: {item}"
        if known_stack_named(claim) and without_contradicted(claim, seen) is None:
            return None
    text = f'The stack, as the "{title}" section of {path} lists it: {listed}.'
    return Fact(KEY, text, ("stack", "overview"), IMPORTANCE, (event_id,), (path,))
