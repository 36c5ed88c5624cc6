"""The commands a README or CONTRIBUTING page the session read gives under its set-up, usage and
development headings.

A README says how the project is installed, used and developed in shell blocks under headings
(`## Installation`, `### Local Development Setup`, `## Usage`, `### Running Tests`). When the
assistant read that page, each such section's commands make one recipe in the page's words,
each with the comment above it or beside it ("README.md, under Installation, gives: `uv venv`
(create virtual environment with uv); `uv pip install -e .` (install the package)."). The
recipe says what the page documents, never that a command ran. A section counts when its own
heading or one above it names setting up, installing, starting, usage, development, testing,
building or commands; commands already in the page's everyday recipe (`readme_commands`),
a bare `cd` (`cd build && ctest` is kept whole) and placeholders (`<repository-url>`) are left
out, and a section with none left says nothing. A block written without a fence (indented four
spaces, as many C, make and Lua READMEs write theirs) counts as a shell block, but only its
lines with a prompt (`$ make check`) or a program the command table knows (`make`,
`luarocks`): it may hold code of any language. A read by lines that stopped inside a shell
block keeps the whole lines it showed of that block, and the recipe says the read stopped
there. Sub-folder pages and the instruction files a host loads itself are not read here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.commands import classify_command
from squirrel_memory.extractors.about import root_file_read
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.file_reads import (
    cut_at_ingest,
    file_text,
    head_read_text,
    partial_read,
    read_output,
)
from squirrel_memory.extractors.readme_commands import (
    SHELL_FENCE,
    documented_commands,
    shell_command,
)
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.instructions import indented_code_lines, instruction_kind
from squirrel_memory.repository.markdown_prose import ANY_FENCE

#: Importance of a section's recipe: the project's documentation, not a command seen to pass.
IMPORTANCE = 0.5
KEY_PREFIX = "readme:section:"
#: Sections kept per page, and commands per section.
MAX_SECTIONS = 5
MAX_COMMANDS = 10
MAX_LABEL_CHARS = 70

_HEADING = re.compile(r"^(#{1,6})\s+(?P<title>.+?)\s*#*\s*$")
_COMMENT = re.compile(r"^\s*#\s*(?P<says>[A-Za-z][^#]*?)\s*:?\s*$")
_INLINE_COMMENT = re.compile(r"(?<!\s)\s+#\s+(?P<says>.+)$")
_PROMPTED = re.compile(r"^\s*\$\s+\S")
#: Headings of the sections whose commands say how the project is run.
_RUN_HEADINGS = re.compile(
    r"\b(?:set ?up|setup|install\w*|getting started|quick ?start|usage|use|using|develop\w*|"
    r"test\w*|running|run|build\w*|commands?|contribut\w*|local|tasks?|scripts?)\b",
    re.IGNORECASE,
)
#: A numbered or bulleted step right above a block names what its first command does.
_STEP = re.compile(r"^\s*(?:\d+[.)]|[-*+])\s+(?P<says>.+?)\s*:?\s*$")
#: A docs page about developing the project (`docs/development.md`, `doc/getting-started.md`).
_DOCS_PAGE = re.compile(
    r"^docs?/(?:[\w-]*[-_])?(?:develop\w*|contribut\w*|setup|set-up|install\w*|getting[-_]started|"
    r"quick[-_]?start|testing|hacking|building)\.(?:md|markdown|rst|txt)$",
    re.IGNORECASE,
)
#: Kinds of section, in the order a heading is recognised by.
_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("setup", re.compile(r"\b(?:set ?up|install\w*|getting started|quick ?start)\b", re.I)),
    ("usage", re.compile(r"\b(?:usage|use|using|running|run)\b", re.I)),
    ("test", re.compile(r"\btest\w*", re.I)),
    ("develop", re.compile(r"\b(?:develop\w*|contribut\w*|commands?|tasks?|scripts?)\b", re.I)),
)
#: The mark ingest leaves where it cut a long output (`file_reads.cut_at_ingest`).
_INGEST_MARK = re.compile(r"^…\[truncated \d+ chars\]\s*$")
_MARKUP = re.compile(r"[*_`\[\]]|\(http[^)]*\)")
#: Commands no reader needs told: moving into the clone, cloning it. (A first word ending in `/`
#: is a folder of a tree, not a command.) A move that runs a command there (`cd build && ctest`)
#: is how that command is run, and is kept whole.
_SKIPPED = re.compile(r"^(?:(?:cd|pushd)(?:\s+\S+)?\s*$|popd\b|git clone\b)")


@dataclass(frozen=True, slots=True)
class ReadmeSection:
    """One section's commands recipe: its key, sentence, the page and the event behind it."""

    key: str
    content: str
    path: str
    event_ids: tuple[str, ...]


def _plain(text: str) -> str:
    return " ".join(_MARKUP.sub("", text).split()).rstrip(".:;, ")


def _label(text: str) -> str:
    text = _plain(text)
    if len(text) > MAX_LABEL_CHARS:
        text = text[:MAX_LABEL_CHARS].rsplit(" ", 1)[0].rstrip(".:;,( ")
    return text[:1].lower() + text[1:] if text[1:2].islower() or len(text) < 2 else text


def _section(trail: list[tuple[int, str]]) -> str:
    """The section a block belongs to: the outermost heading below the page's title that names
    running the project, or the one under a title that does; "" when none does."""
    below = [title for level, title in trail if level > 1] or [trail[-1][1]]
    named = [title for title in below if _RUN_HEADINGS.search(title)]
    if named:
        return named[0]
    titled = any(_RUN_HEADINGS.search(title) for level, title in trail if level == 1)
    return below[0] if titled else ""


def documented_sections(text: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """(heading, [(command, what its comment says)]) for each set-up, usage or development
    section of a page, in the page's order."""
    sections: dict[str, list[tuple[str, str]]] = {}
    trail: list[tuple[int, str]] = []
    in_shell = in_other = False
    comment = step = ""
    lines = text.splitlines()
    indented = indented_code_lines(lines)
    for index, line in enumerate(lines):
        # A block without a fence may hold code of any language: only a line with a prompt
        # (`$ make`) or a program the command table knows (`make test`) is a command there.
        unfenced = index in indented
        if unfenced and not _PROMPTED.match(line) and not _COMMENT.match(line):
            typed = shell_command(line)
            if typed is None or classify_command(typed) is None:
                comment = ""
                continue
        if not in_shell and not in_other and not unfenced:
            heading = _HEADING.match(line)
            if heading:
                level = len(heading.group(1))
                trail = [(n, t) for n, t in trail if n < level]
                trail.append((level, _plain(heading.group("title"))))
                step = ""
            elif ANY_FENCE.match(line):
                in_shell = bool(SHELL_FENCE.match(line))
                in_other = not in_shell
                comment, step = step, ""
            elif line.strip():
                item = _STEP.match(line)
                step = item.group("says") if item else ""
            continue
        if not unfenced and ANY_FENCE.match(line):
            in_shell = in_other = False
            continue
        if not (in_shell or unfenced) or not line.strip() or not trail:
            continue
        said = _COMMENT.match(line)
        if said:
            comment = said.group("says")
            continue
        beside = _INLINE_COMMENT.search(line)
        command = shell_command(line[: beside.start()] if beside else line)
        if command is None or _SKIPPED.match(command) or command.split()[0].endswith("/"):
            comment = ""
            continue
        section = _section(trail)
        if section:
            label = beside.group("says") if beside else comment
            sections.setdefault(section, []).append((command, _label(label)))
        comment = ""
    return [(title, found) for title, found in sections.items() if title]


def _kind(title: str) -> str:
    """What a section is about (set-up, usage, tests, development): two pages often say the
    same set-up in other words, and the first one read is kept."""
    for kind, words in _KINDS:
        if words.search(title):
            return kind
    return title.lower()


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def _is_contributing(path: str) -> bool:
    return instruction_kind(path) == "contributing"


def _is_page(path: str) -> bool:
    return instruction_kind(path) in ("readme", "contributing")


def _docs_page(event: StoredEvent) -> str | None:
    """A page of the project's `docs/` folder about developing it, a successful Read returned."""
    if read_output(event) is None:
        return None
    for raw in event.file_paths:
        path = relative_path(raw, event.project_id)
        if _DOCS_PAGE.match(path):
            return path
    return None


def _cut_block(event: StoredEvent, shown: str) -> str | None:
    """The page's text up to the end of a partial read that stopped inside a shell block, or
    None. A partial read's text ends at its last blank line (`head_read_text`), so a recipe it
    cut short is not taken for the whole of it; but a read by lines returns whole lines, and
    the lines of a shell block it stopped inside are each a step as the page gives it, in
    order. They are kept (the memory says the read stopped there); a line ingest cut, or one
    continued on the next line, is not."""
    output = read_output(event)
    if output is None or not partial_read(event):
        return None
    lines = file_text(output).splitlines()
    if cut_at_ingest(event):
        # the mark, and the line before it: ingest may have cut that one in the middle
        lines = lines[:-2] if lines and _INGEST_MARK.search(lines[-1]) else lines[:-1]
    opened = -1  # the line of a shell fence left open; -1 when none is
    inside = False  # inside a fenced block of any language
    for index, line in enumerate(lines):
        if not ANY_FENCE.match(line):
            continue
        if inside:
            inside, opened = False, -1
        else:
            inside, opened = True, index if SHELL_FENCE.match(line) else -1
    if opened < 0 or any(not line.strip() for line in lines[opened + 1 :]):
        return None  # no shell block left open, or the read's own cut already ends it
    while lines and lines[-1].rstrip().endswith("\\"):
        lines = lines[:-1]
    text = "\n".join(lines)
    return text if len(text) > len(shown) else None


def readme_sections(events: list[StoredEvent]) -> list[ReadmeSection]:
    """One recipe per set-up, usage or development section of the pages read in `events` (the
    last read of each page counts); a command an earlier page or section gave is not repeated,
    nor a section of a kind an earlier page had, and the README comes before CONTRIBUTING."""
    pages: dict[str, tuple[str, str]] = {}
    #: Pages whose last read stopped inside a shell block (`_cut_block`).
    cut: set[str] = set()
    for event in events:
        read = root_file_read(event, _is_page)
        if read is None and (docs := _docs_page(event)) is not None:
            shown = head_read_text(event)
            read = (docs, shown) if shown is not None else None
        if read is not None:
            longer = _cut_block(event, read[1])
            pages[read[0]] = (longer or read[1], event.id)
            cut.discard(read[0])
            if longer is not None:
                cut.add(read[0])
    found: dict[str, ReadmeSection] = {}
    given: set[str] = set()
    kinds: set[str] = set()
    for path, (text, event_id) in sorted(
        pages.items(), key=lambda p: (not _is_page(p[0]), _is_contributing(p[0]))
    ):
        given.update(command for _, _, command in documented_commands(text))
        sections = documented_sections(text)[:MAX_SECTIONS]
        for number, (title, commands) in enumerate(sections):
            if _kind(title) in kinds:
                continue  # an earlier page's section of this kind says it already
            kept = list({c: (c, label) for c, label in commands if c not in given}.values())
            given.update(c for c, _ in kept)
            if not kept:
                continue
            listed = "; ".join(
                f"`{command}` ({label})" if label else f"`{command}`"
                for command, label in kept[:MAX_COMMANDS]
            )
            key = f"{KEY_PREFIX}{path}#{_slug(title)}"
            content = f"{path}, under {title}, gives: {listed}."
            if path in cut and number == len(sections) - 1:
                content = content[:-1] + " (the read stopped inside this block)."
            found[key] = ReadmeSection(key, content, path, (event_id,))
        kinds.update(_kind(title) for title, _ in sections)
    return list(found.values())
