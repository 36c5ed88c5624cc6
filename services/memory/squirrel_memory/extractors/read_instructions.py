"""The user's standing rules in the instruction files a session read: `CLAUDE.md`, CONTRIBUTING.

A user who wrote their rules down rarely says them again in a prompt: they are in the project's
assistant-instructions file (`CLAUDE.md`, `AGENTS.md`, `GEMINI.md` …) or its CONTRIBUTING
guide, and the session shows them when the assistant reads the file. The file's text (the Read
tool's output, line numbers stripped) is read in two shapes:

- a rule line of an assistant-instructions file, found by the same reader a repository scan
  uses (`read_instruction_file`): "Be careful with path handling - use Path objects
  consistently", "Always run the linter before committing";
- a numbered procedure under a heading about how changes are made ("Adding New Features",
  "Fixing Bugs", "Before Committing", "Pull Requests"), in either kind of file: its steps in
  their order, as one rule ("update the specification; write tests first; implement …").

Only files at the project root count (a dependency's or a sub-folder's file is not this
project's rulebook), but for a sub-folder's file the host loaded itself for work in that folder
(Claude Code's nested `CLAUDE.md`): its rules hold there and cite it (`web/CLAUDE.md`); the
last read of each file is the one read; a rule line a later edit of
the session replaced is not kept. The rule lines of a skill the assistant launched (the text
the host loaded for it) are read the same way and said of the skill ("While running the skill
`pkg-check`: Never modify a file without the user's approval."): they hold while it runs.
A ban over a kind of code written as a line of a custom command's or a skill's text ("- Safety
scan (no unwrap/panic in production code)", `code_bans`) is kept too, said of its command.
The rules are project-scoped standing instructions, tagged
`written`: they rank with what the user said, but a session's opening leaves them to the file
itself (the host of that file loads it) unless the user said nothing else (`core_style`).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from squirrel_memory.extractors.about import current_root_reads
from squirrel_memory.extractors.code_bans import command_bans
from squirrel_memory.extractors.command_steps import launched_skill
from squirrel_memory.extractors.differences import edits
from squirrel_memory.extractors.wording import key_slug
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.findings import Readings
from squirrel_memory.repository.instructions import (
    first_sentence,
    instruction_kind,
    read_instruction_file,
    with_continuation,
)
from squirrel_memory.repository.markdown_prose import ANY_FENCE, clean_markdown
from squirrel_memory.repository.snapshot import TextFile

#: Importance of a rule read from a file: below a rule the user said in a prompt (0.7), above a
#: one-off said once.
IMPORTANCE = 0.5
#: Rules and procedures kept per episode, steps per procedure, characters per memory.
MAX_RULES = 6
MAX_PROCEDURES = 3
MAX_STEPS = 6
MAX_CHARS = 360
MIN_STEPS = 2

_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(?P<title>.+?)\s*#*\s*$")
_STEP = re.compile(r"^\s{0,3}\d+[.)]\s+(?P<step>.+)$")
#: Headings of a procedure for changing the project (not setting it up or using it).
_CHANGE_HEADING = re.compile(
    r"\b(?:features?|bugs?|fix(?:es|ing)?|changes?|commit(?:s|ting)?|pull requests?|prs?|"
    r"reviews?|releas(?:e|es|ing)|workflow|contribut\w*|tdd|test-driven|refactor\w*|"
    r"patch(?:es)?)\b",
    re.IGNORECASE,
)
#: A step that does not start as an instruction (a description, a question).
_NOT_A_STEP = re.compile(r"^(?:the|a|an|this|that|it|we|you|i|our|my|your|there|if)\b", re.I)


@dataclass(frozen=True, slots=True)
class ReadRule:
    """A rule from a file read: key, statement, the file and line it is on, and the read."""

    key: str
    content: str
    ref: str
    event_ids: tuple[str, ...]
    #: The skill whose launched text holds the rule ("" for a file's rule).
    skill: str = ""


def _rule_file(path: str) -> bool:
    return instruction_kind(path) in ("instructions", "contributing")


def _procedures(text: TextFile) -> list[tuple[str, list[str], int]]:
    """(heading, steps, line of the first step) of each numbered list under a heading about
    changing the project, in the file's order."""
    found: list[tuple[str, list[str], int]] = []
    title, first, fence = "", 0, False
    steps: list[str] = []

    def close() -> None:
        if title and len(steps) >= MIN_STEPS and _CHANGE_HEADING.search(title):
            found.append((title, steps[:MAX_STEPS], first))

    for number, line in enumerate(text.lines, 1):
        if ANY_FENCE.match(line):
            fence = not fence
            continue
        if fence:
            continue
        if heading := _HEADING.match(line):
            close()
            title, steps, first = clean_markdown(heading.group("title")), [], 0
        elif _STEP.match(line):
            # A step hard-wrapped over several lines is read whole, and said by its first
            # sentence: never cut at the end of its first line.
            whole = _STEP.sub(r"\g<step>", with_continuation(text.lines, number - 1))
            said = clean_markdown(first_sentence(whole)).rstrip(".;:")
            if said and not _NOT_A_STEP.match(said):
                steps.append(said)
                first = first or number
    close()
    return found


def _lower_first(step: str) -> str:
    return step[:1].lower() + step[1:] if step[1:2].islower() else step


def _procedure_rule(path: str, title: str, steps: list[str]) -> str:
    said = "; ".join(_lower_first(s) for s in steps)
    content = f"{title} ({path}): {said}."
    while len(content) > MAX_CHARS and len(steps) > MIN_STEPS:
        steps = steps[:-1]
        content = f"{title} ({path}): {'; '.join(_lower_first(s) for s in steps)}; …"
    return content if len(content) <= MAX_CHARS else ""


def _replaced(events: list[StoredEvent], path: str, after: StoredEvent, line: str) -> bool:
    """Whether an edit of `path` after the read `after` took `line` out of the file."""
    return any(
        e.path == path
        and e.timestamp >= after.timestamp
        and line in e.before
        and line not in e.after
        for e in edits(events)
    )


def read_rules(events: list[StoredEvent]) -> list[ReadRule]:
    """The rules and change procedures of the root instruction files read in `events`."""
    rules: list[ReadRule] = []
    procedures: list[ReadRule] = []
    for path, (event, shown) in current_root_reads(events, _rule_file, loaded_folders=True).items():
        text = TextFile.of(path, shown)
        in_procedure: set[str] = set()
        for title, steps, line in _procedures(text):
            content = _procedure_rule(path, title, steps)
            in_procedure.update(steps)
            if content and len(procedures) < MAX_PROCEDURES:
                key = f"pref:procedure:{key_slug(title) or 'steps'}"
                procedures.append(ReadRule(key, content, text.ref(line), (event.id,)))
        # A root file by its place (`.github/copilot-instructions.md`), a loaded sub-folder's
        # file by its name (`web/CLAUDE.md`).
        if "instructions" not in (
            instruction_kind(path),
            instruction_kind(posixpath.basename(path)),
        ):
            continue  # CONTRIBUTING's single bullets mostly describe; its procedures instruct
        readings = Readings()
        read_instruction_file(text, readings, "instructions")
        for found in readings.instructions:
            said = found.text.rstrip(".")
            if said in in_procedure or _replaced(events, path, event, said):
                continue
            if len(rules) < MAX_RULES:
                key = f"pref:{key_slug(said) or 'rule'}"
                rules.append(ReadRule(key, f"{said} ({path}).", found.ref, (event.id,)))
    bans = [ReadRule(b.key, b.content, "", b.event_ids, b.skill) for b in command_bans(events)]
    return [*procedures, *rules, *skill_rules(events), *bans]


def skill_rules(events: list[StoredEvent]) -> list[ReadRule]:
    """The rule lines of the skills the assistant launched (the text its host loaded at the
    launch), each said of its skill: they hold while the skill runs. No file to cite."""
    rules: dict[str, ReadRule] = {}
    for i in range(len(events) - 1):
        launched = launched_skill(events, i)
        text = launched[1].content.get("text") if launched is not None else None
        if launched is None or not isinstance(text, str):
            continue
        name = launched[0].lstrip("/")
        readings = Readings()
        read_instruction_file(TextFile.of(f"{name}/SKILL.md", text), readings, "instructions")
        for found in readings.instructions:
            said = found.text.rstrip(".")
            key = f"pref:{key_slug(said) or 'rule'}"
            if key not in rules and len(rules) < MAX_RULES:
                content = f"While running the skill `{name}`: {said}."
                rules[key] = ReadRule(key, content, "", (events[i].id, launched[1].id), name)
    return list(rules.values())
