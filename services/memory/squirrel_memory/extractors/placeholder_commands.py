"""A command a project's document gives as one shape run once per thing: a placeholder in it
and, in the same shell block, examples of it with one word in the placeholder's place.

Instruction files and READMEs often say how a command is run per package, module or service
with a placeholder ("# Run with: cargo test -p <package-name>", `make test SUITE=<suite>`) and
list a few of its runs below it in the same block (`cargo test -p core-test`, `cargo test -p
api-test`). The placeholder alone is a template with nothing filled in; the examples alone are
a list of commands. Together they say the command's shape and what goes into it, and the
recipe gives both in the document's words: "`CLAUDE.md` gives `cargo test -p <package-name>`,
run once per `<package-name>`: `cargo test -p core-test` and `cargo test -p api-test`."

The shape counts when, in one shell block, a command line or a comment after its label ("Run
with:") holds exactly one placeholder (`<name>`), and at least two other lines of the block are
that command word for word with one value (no option, no placeholder) in the placeholder's
place. Blocks of any document the session saw count: a read of an instruction file, README or
CONTRIBUTING page (at the root or in a sub-folder), or the text an edit of one replaced and
kept (the file held it, and still does). Text an edit wrote and the file did not hold before
is the assistant's, not the project's, and says nothing; so does a placeholder with fewer than
two examples, and examples that differ in more than the placeholder's word.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from dataclasses import dataclass

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.differences import edits
from squirrel_memory.extractors.file_reads import file_text, read_output
from squirrel_memory.extractors.readme_commands import SHELL_FENCE
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.instructions import instruction_kind
from squirrel_memory.repository.markdown_prose import ANY_FENCE

#: A document's own words on a command it runs, not a command seen to pass.
IMPORTANCE = 0.5
KEY_PREFIX = "document:shape:"
MAX_EXAMPLES = 4
MAX_COMMAND_CHARS = 120
#: A placeholder, alone or in a word (`<package>`, `PKG=<package>`, `--name=<name>`).
_PLACEHOLDER = re.compile(r"<[A-Za-z][\w.-]*>")
_PROMPT = re.compile(r"^\s*\$\s+")
#: A comment's label before its command: `# Run with: …`, `# usage: …`.
_LABEL = re.compile(r"^\s*#\s*(?:[A-Za-z][\w ]{0,30}:\s+)?")


@dataclass(frozen=True, slots=True)
class PlaceholderCommand:
    """One command shape a document gives: key, sentence, the document and the event."""

    key: str
    content: str
    path: str
    event_ids: tuple[str, ...]
    files: tuple[str, ...]


def _tokens(text: str) -> list[str]:
    try:
        return shlex.split(text, comments=False)
    except ValueError:
        return []


def _template(line: str) -> tuple[str, list[str], int] | None:
    """(the command as written, its words, where its one placeholder is) for a block line or
    comment holding exactly one placeholder; None otherwise."""
    text = _LABEL.sub("", line) if line.lstrip().startswith("#") else _PROMPT.sub("", line)
    text = text.strip()
    words = _tokens(text)
    at = [i for i, word in enumerate(words) if "<" in word or ">" in word]
    if len(at) != 1 or at[0] == 0 or len(text) > MAX_COMMAND_CHARS:
        return None
    if len(_PLACEHOLDER.findall(words[at[0]])) != 1 or re.search(
        r"[<>]", _PLACEHOLDER.sub("", words[at[0]])
    ):
        return None
    return text, words, at[0]


def _filled(words: list[str], at: int, line: str) -> str | None:
    """The value a block line puts in the template's placeholder, or None when it is not that
    command with one value there."""
    if line.lstrip().startswith("#"):
        return None
    text = _PROMPT.sub("", line).strip()
    other = _tokens(text)
    if len(other) != len(words) or any(
        a != b for i, (a, b) in enumerate(zip(other, words, strict=True)) if i != at
    ):
        return None
    found = _PLACEHOLDER.search(words[at])
    if found is None:
        return None
    start, end = found.span()
    word, suffix = other[at], words[at][end:]
    if not word.startswith(words[at][:start]) or not word.endswith(suffix):
        return None
    value = word[start : len(word) - len(suffix)]
    if not value or value.startswith(("-", "$")) or re.search(r"[<>\s]", value):
        return None
    return text


def _blocks(text: str) -> list[list[str]]:
    """The lines of each shell block of a Markdown text."""
    blocks: list[list[str]] = []
    current: list[str] | None = None
    other = False
    for line in text.splitlines():
        if current is None and not other:
            if SHELL_FENCE.match(line):
                current = []
            elif ANY_FENCE.match(line):
                other = True
            continue
        if ANY_FENCE.match(line):
            if current is not None:
                blocks.append(current)
            current, other = None, False
            continue
        if current is not None:
            current.append(line)
    return blocks


def shapes(text: str, kept: str | None = None) -> list[tuple[str, list[str]]]:
    """(template, its examples) for each command shape the shell blocks of `text` give; with
    `kept`, only lines that are also lines of `kept` count (an edit's text that it kept)."""
    still = None if kept is None else {line.strip() for line in kept.splitlines()}
    found: list[tuple[str, list[str]]] = []
    for block in _blocks(text):
        lines = [line for line in block if still is None or line.strip() in still]
        for line in lines:
            template = _template(line)
            if template is None:
                continue
            shown, words, at = template
            examples = list(
                dict.fromkeys(
                    filled for other in lines if (filled := _filled(words, at, other)) is not None
                )
            )
            if len(examples) >= 2:
                found.append((shown, examples))
    return found


def _document(raw: str, project_id: str) -> str | None:
    path = relative_path(raw, project_id).removeprefix("./")
    if path.startswith(("/", "../")) or ".." in path.split("/"):
        return None
    named = instruction_kind(path) or instruction_kind(posixpath.basename(path))
    return path if named is not None else None


def placeholder_commands(events: list[StoredEvent]) -> list[PlaceholderCommand]:
    """One recipe per command shape the documents seen in `events` give (the last sight of
    each shape counts)."""
    failed = {
        e.content.get("tool_use_id")
        for e in events
        if e.event_type == EventType.TOOL_RESULT and e.content.get("is_error") is True
    }
    calls = {
        e.id: e.content.get("tool_use_id") for e in events if e.event_type == EventType.TOOL_CALL
    }
    seen: list[tuple[str, str, str | None, str]] = []  # (path, text, kept text, event id)
    for event in events:
        output = read_output(event)
        if output is None:
            continue
        for raw in event.file_paths:
            path = _document(raw, event.project_id)
            if path is not None:
                seen.append((path, file_text(output), None, event.id))
    project = next((e.project_id for e in events), "")
    for edit in edits(events):
        if calls.get(edit.event_id) in failed or not edit.before:
            continue
        path = _document(edit.path, project)
        if path is not None:
            seen.append((path, edit.before, edit.after, edit.event_id))
    found: dict[str, PlaceholderCommand] = {}
    for path, text, kept, event_id in seen:
        for template, examples in shapes(text, kept):
            placeholder = _PLACEHOLDER.findall(template)[0]
            listed = [f"`{example}`" for example in examples[:MAX_EXAMPLES]]
            joined = ", ".join(listed[:-1]) + " and " + listed[-1]
            key = f"{KEY_PREFIX}{path}#{re.sub(r'[^a-z0-9]+', '-', template.lower()).strip('-')}"
            content = f"`{path}` gives `{template}`, run once per `{placeholder}`: {joined}" + (
                " (among others)." if len(examples) > MAX_EXAMPLES else "."
            )
            found[key] = PlaceholderCommand(key, content, path, (event_id,), (path,))
    return list(found.values())
