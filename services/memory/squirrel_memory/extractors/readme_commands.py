"""The everyday commands a root README read in a session documents, under the comments that
say what each one does.

A README's development section is often a shell block of commented commands:

    # Run all tests
    make test

When the assistant read that README, the commands whose comment names an everyday purpose
(running the tests, linting, formatting, type-checking, building) make one recipe, the first
command per purpose, in the README's words ("to run all tests, `make test`"). A command
without a comment, a comment of another purpose (starting services, cloning, installing the
tool itself), a placeholder (`<repository-url>`) or a continued line is no entry, and a README
that documents fewer than two purposes makes no recipe: one lone command is as often how a
reader installs the tool as how its developers work. The instruction files a host loads
itself (`CLAUDE.md`) are not read here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_memory.extractors.about import root_file_read
from squirrel_memory.extractors.role_words import CHECKS
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.instructions import instruction_kind
from squirrel_memory.repository.markdown_prose import ANY_FENCE

#: Importance of the recipe: the project's own documentation, not a command seen to pass.
IMPORTANCE = 0.6
KEY_PREFIX = "readme:commands:"
#: Fewest purposes a README must document for its commands to be a recipe.
MIN_PURPOSES = 2
#: A comment's and a command's longest length (characters).
MAX_COMMENT_CHARS = 60
MAX_COMMAND_CHARS = 100

#: A fence that opens a shell block (or a block without a language); any fence is `ANY_FENCE`.
SHELL_FENCE = re.compile(
    r"^\s*(```|~~~)\s*(?:bash|sh|shell|zsh|console|shell-session|powershell|pwsh|ps1)?\s*$",
    re.IGNORECASE,
)
_COMMENT = re.compile(r"^\s*#\s*(?P<says>[A-Za-z][^`#]*?)\s*:?\s*$")
_PROMPT = re.compile(r"^\s*[$>]\s+")
_COMMAND = re.compile(r"^[A-Za-z.][\w./:+-]*(?:\s+\S+)*$")
#: A line of code or configuration rather than a command: an assignment (`model = build()`), a
#: key (`build: true`), a call (`run()`).
_NOT_A_PROGRAM = re.compile(r"^\S*(?:[=(]|:(?:\s|$))|^\S+\s+[=:]")
#: Purposes in the order the recipe lists them, each with the words a comment names it by.
_PURPOSES: tuple[tuple[str, re.Pattern[str]], ...] = tuple((r.purpose, r.words) for r in CHECKS)
#: A comment about setting up, installing or data is never an everyday check, whatever else
#: it names ("Install test dependencies", "Build the Docker image for the test data").
_NOT_A_CHECK = re.compile(
    r"\b(?:install\w*|dependenc\w*|set ?up|setup|fixtures?|data|docker|image|release|deploy\w*)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class ReadmeCommands:
    """The README's commands recipe: its key, sentence, the README and the event behind it."""

    key: str
    content: str
    path: str
    event_ids: tuple[str, ...]


def _purpose(comment: str) -> str | None:
    if _NOT_A_CHECK.search(comment):
        return None
    for name, words in _PURPOSES:
        if words.search(comment):
            return name
    return None


def shell_command(line: str) -> str | None:
    """The command a shell block's line gives (its prompt removed), or None for a line that is
    no whole command: a placeholder, a continued line, code or configuration."""
    text = _PROMPT.sub("", line).strip()
    if (
        not text
        or len(text) > MAX_COMMAND_CHARS
        or text.endswith("\\")
        or "<" in text
        or "`" in text
        or not _COMMAND.match(text)
        or _NOT_A_PROGRAM.match(text)
    ):
        return None
    return text


def documented_commands(text: str) -> list[tuple[str, str, str]]:
    """(purpose, comment, command) for the first commented command of each everyday purpose
    the README's shell blocks document, in the order of the purposes."""
    first: dict[str, tuple[str, str]] = {}
    in_shell = in_other = False
    comment: str | None = None
    for line in text.splitlines():
        if not in_shell and not in_other and ANY_FENCE.match(line):
            in_shell = bool(SHELL_FENCE.match(line))
            in_other = not in_shell
            comment = None
            continue
        if (in_shell or in_other) and ANY_FENCE.match(line):
            in_shell = in_other = False
            continue
        if not in_shell or not line.strip():
            continue
        said = _COMMENT.match(line)
        if said:
            comment = said.group("says").strip().rstrip(".:")
            continue
        command = shell_command(line)
        if comment and command and len(comment) <= MAX_COMMENT_CHARS:
            purpose = _purpose(comment)
            if purpose and purpose not in first:
                first[purpose] = (comment, command)
        comment = None
    return [(name, *first[name]) for name, _ in _PURPOSES if name in first]


def readme_commands(events: list[StoredEvent]) -> ReadmeCommands | None:
    """The everyday commands the root README read in `events` documents, or None."""
    for event in events:
        read = root_file_read(event, lambda p: instruction_kind(p) == "readme")
        if read is None:
            continue
        path, text = read
        found = documented_commands(text)
        if len(found) < MIN_PURPOSES:
            continue
        listed = "; ".join(
            f"to {comment[:1].lower()}{comment[1:]}, `{command}`" for _, comment, command in found
        )
        return ReadmeCommands(
            KEY_PREFIX + path,
            f"Everyday commands {path} documents: {listed}.",
            path,
            (event.id,),
        )
    return None
