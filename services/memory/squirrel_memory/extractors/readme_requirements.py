"""What the project needs before it builds or runs, as the root README (or instruction file) read
in a session lists it.

A README often lists what a developer must have first under a heading or label of its own
("### Requirements", "## Prerequisites", "Build dependencies:", "**Requirements**"; what it
supports under "## Supported versions", "## Minimum versions"): a bullet
per tool, runtime or library ("- **GitHub CLI** (`gh`) installed and authenticated", "- CMake
3.16 or newer", "- Node.js with npm"). When the assistant read the project's root README (its
subagent too: the file is the project's), that list becomes one project fact in the README's
words, quoted and attributed to the file: it says what the page lists, never that it holds on
this machine. Without such a list in the README, a root instruction file's (`AGENTS.md`,
`CLAUDE.md`, read or loaded by its host) is read the same way; a fact from a file the host
loads itself is tagged so that host is not given it back (`loaded_sources`). A heading about
installing or updating them ("Installing dependencies"), the
list of a sub-folder's or a dependency's README, items that are links alone and a list of
more than a few words per item say nothing; one item is enough.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_memory.extractors.about import last_root_reads
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.instructions import instruction_kind
from squirrel_memory.repository.markdown_prose import ANY_FENCE, clean_markdown

#: Importance of the requirements fact: the project's documentation, not a checked setup.
IMPORTANCE = 0.5
KEY_PREFIX = "readme:requirements:"
#: Items quoted, and an item's longest length (characters) and most words.
MAX_ITEMS = 6
MAX_ITEM_CHARS = 100
MAX_ITEM_WORDS = 14

#: What the section is called: a heading (`## Prerequisites`), a label alone on its line
#: (`Requirements:`, `**Build dependencies**`).
_TITLE = (
    r"(?:(?:system|build|runtime|software|development|dev|hardware)\s+)?"
    r"(?:requirements|prerequisites|pre-requisites|dependencies)|"
    r"supported\s+versions|version\s+support|minimum\s+versions"
)
#: A title that lists what the project supports rather than what a developer must install.
_SUPPORT = re.compile(r"support|minimum", re.IGNORECASE)
_SECTION = re.compile(
    rf"^(?:#{{1,6}}\s+|(?:\*\*|__))?(?P<title>{_TITLE})(?:\*\*|__)?\s*:?\s*(?:\*\*|__)?\s*$",
    re.IGNORECASE,
)
_HEADING = re.compile(r"^#{1,6}\s+\S")
_ITEM = re.compile(r"^\s{0,3}(?P<mark>[-*+]|\d+[.)])\s+(?P<item>\S.*)$")
#: An item that is a link and nothing else says what a reader follows, not what they need.
_LINK_ONLY = re.compile(r"^\[[^\]]+\]\([^)]*\)\.?$")


@dataclass(frozen=True, slots=True)
class ReadmeRequirements:
    """The requirements fact: its key, sentence, the README and the read behind it."""

    key: str
    content: str
    path: str
    event_ids: tuple[str, ...]


def listed_requirements(text: str) -> tuple[str, list[str]] | None:
    """(the section's title, its items) of the first requirements list of a README, or None."""
    lines = text.splitlines()
    fenced = False
    for index, line in enumerate(lines):
        if ANY_FENCE.match(line):
            fenced = not fenced
            continue
        match = None if fenced else _SECTION.match(line.strip())
        if match is None:
            continue
        items = _items(lines[index + 1 :])
        if items:
            return match.group("title"), items
    return None


def _items(lines: list[str]) -> list[str]:
    """The list right under a section's title (blank lines aside), cleaned; a list of another
    kind after it (the numbered steps after a bullet list) or a step that introduces something
    ("Clone the repository:") ends it."""
    found: list[str] = []
    ordered: bool | None = None
    for line in lines:
        if not line.strip():
            continue
        item = _ITEM.match(line)
        if item is None:
            if ordered is not None or _HEADING.match(line) or ANY_FENCE.match(line):
                break
            continue  # a sentence before the list ("You will need:")
        text = item.group("item").strip()
        numbered = item.group("mark")[0].isdigit()
        if (ordered is not None and numbered != ordered) or text.endswith(":"):
            break
        ordered = numbered
        if _LINK_ONLY.match(text):
            continue
        cleaned = clean_markdown(text).rstrip(" .;,")
        if cleaned and len(cleaned) <= MAX_ITEM_CHARS and len(cleaned.split()) <= MAX_ITEM_WORDS:
            found.append(cleaned)
    return found[:MAX_ITEMS]


#: The pages read for the list, in the order they are tried.
_PAGES = ("readme", "instructions")


def _is_page(path: str) -> bool:
    return instruction_kind(path) in _PAGES


def readme_requirements(events: list[StoredEvent]) -> ReadmeRequirements | None:
    """What the root README (else a root instruction file) read in `events` (its last read)
    lists as needed first, or None."""
    reads = last_root_reads(events, _is_page)
    for path, (event, text) in sorted(
        reads.items(), key=lambda read: _PAGES.index(instruction_kind(read[0]) or "readme")
    ):
        listed = listed_requirements(text)
        if listed is None:
            continue
        title, items = listed
        need = "supports" if _SUPPORT.search(title) else "needs"
        content = f"What the project {need}, as {path} lists it ({title.lower()}): "
        return ReadmeRequirements(
            KEY_PREFIX + path, content + "; ".join(items) + ".", path, (event.id,)
        )
    return None
