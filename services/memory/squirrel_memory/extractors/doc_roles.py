"""How to build, test, lint, format, generate or release, as an instruction file or README the
session read says it where the command's own words do not name the role.

A project's docs often give a command under a heading that names what it is for (`## Building`,
`### Testing LLVM-related changes`) or in a sentence that does ("Run `make -j` to rebuild",
"For testing without rebuilding, you can run:" above a shell block), and tie a check to a change
("After modifying any C file under `src/`, also run the static analysis checks"). The rules that
read commands by their own words (`instruction_commands`, `readme_commands`) miss `make -j` or
`./tool -e '…'`: nothing in them says build or test. When the session read such a file (with a
tool, or because its host loaded it), each section whose heading or sentence names a role gives
one recipe in the file's own words, the sentences kept whole:

- a sentence (or bullet) holding a command in a code span, its role named by the sentence or by
  the nearest heading above it that names one;
- a sentence that ties running or rebuilding to a change ("After …", "Before …", "When …",
  "If …"), under a heading that names a role;
- an instruction file's shell block, after the sentence that leads into it (a README's blocks
  are `readme_sections`' own);
- a README sentence that runs commands each an everyday check by its own words, when no word
  names the role or one names another ("Before sending a pull request, run `go vet ./...` and
  `go test ./...`": lint and test).

A negated sentence ("do not run …"), one about how the project was worked on before it moved
on ("Until 2023 you had to run `grunt test`", "we used to run …"), a command that only shows or
moves text (`echo`, `cat`, `git`), a code span that reads as a printed line (`Starting step for
...`, `INFO Pipeline complete`: `printed_line`), a role word that only names a step, stage or
job ("for the fetch and publish steps"), a command whose own words already name the role in an
instruction file (the everyday commands recipe says it), and a file outside the project root or
a sub-folder its host loaded (a dependency's README, a template) say nothing.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from squirrel_core.command_table import command_table
from squirrel_memory.extractors.about import current_root_reads
from squirrel_memory.extractors.never_passed import failed_in_session, never_passed
from squirrel_memory.extractors.readme_commands import shell_command
from squirrel_memory.extractors.role_words import CHECKS, ROLES
from squirrel_memory.extractors.wording import key_slug
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.instructions import instruction_kind
from squirrel_memory.repository.markdown_prose import ANY_FENCE, clean_markdown
from squirrel_memory.repository.task_records import purpose_of

KEY_PREFIX = "docs:roles:"
#: Importance of a section's recipe: the project's own documentation, not a command seen to pass.
IMPORTANCE = 0.55
#: Sections kept per file, sentences per section, and the longest sentence kept (characters).
MAX_SECTIONS = 4
MAX_ENTRIES = 4
MAX_ENTRY_CHARS = 260
#: Roles in the order a sentence or heading is read for them, named as a sentence says them.
_ROLES: tuple[tuple[str, re.Pattern[str]], ...] = tuple((r.said, r.words) for r in ROLES)
_HEADING = re.compile(r"^(#{1,6})\s+(?P<title>.+?)\s*#*\s*$")
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_CODE_SPAN = re.compile(r"`([^`\n]{2,200})`")
_SHELL_FENCES = frozenset({"", "sh", "bash", "shell", "console", "zsh", "fish", "terminal"})
_PROMPT = re.compile(r"^\s*[$%>]\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`])")
_NEGATED = re.compile(
    r"\b(?:do not|don't|never|avoid|must not|should not|shouldn't|no need to)\b", re.IGNORECASE
)
#: A sentence about how the project was worked on before it moved on ("Until 2023 you had to
#: run `grunt test`", "we used to run …"): not how it is done now.
_BYGONE = re.compile(
    r"\b(?:until (?:\d{4}|recently|last)|used to|previously|formerly|no longer|in the past|"
    r"originally|back when|the old)\b",
    re.IGNORECASE,
)
#: The everyday checks' command-table purposes, as a sentence says each role.
_CHECK_SAID = {r.purpose: r.said for r in reversed(CHECKS)}
#: A sentence that ties running something to a change: "After modifying …, also run …".
_CONDITION = re.compile(r"^(?:after|before|when|whenever|once|if)\b", re.IGNORECASE)
_RUN_VERB = re.compile(r"\b(?:run|re-?run|rebuild|execute)\b", re.IGNORECASE)
#: Leading environment assignments (`FAILFAST=1 ./tool …`), kept in the command, not read as it.
_ENVIRONMENT = re.compile(r"^(?:[A-Za-z_]\w*=\S*\s+)+")
#: A file's name: something a command reads, never the command.
_FILE_NAME = re.compile(r"\.[A-Za-z]{1,5}$")
#: A placeholder the reader fills in (`<testname>`): docs give one, a run never does.
_PLACEHOLDER = re.compile(r"<[\w .:/-]{1,30}>")
#: What reads as a line a program printed, not one a reader types: cut short (`Starting step
#: for ...`), opened by a timestamp (`12:00:01 ready`, `[2024-05-01 …]`) or a level word
#: (`INFO Pipeline complete`, `[ERROR] …`). An ellipsis right after a slash is a package
#: pattern, not a cut (`go test ./...`, `go vet ./internal/...`: every package below).
_CUT_SHORT = re.compile(r"(?<!/)(?:\.\.\.|…)$")
_TIMESTAMP = re.compile(r"^\[?\d{1,4}[-:/.]\d")
_LEVEL = re.compile(
    r"^\[?(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|ERR|FATAL|CRITICAL)\b[\]:]?(?:\s|$)"
)
#: A sentence's opening: a capitalised word and plain lowercase words, nothing a command
#: carries (an option, a path, an assignment): `Finished stage in`, `Pipeline complete`.
_PROSE = re.compile(r"^[A-Z][a-z]+(?:\s+[a-z]+)+$")
#: A role word inside a name: the step, stage, job or phase of that name, or a list of them
#: ("for the fetch, transform, and publish steps"): it names a part of a pipeline, it asks
#: the reader to do nothing.
_NAMED_PARTS = re.compile(
    r"\b[\w-]+(?:(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)[\w-]+)*"
    r"\s+(?:steps?|stages?|jobs?|phases?)\b",
    re.IGNORECASE,
)


def printed_line(text: str) -> bool:
    """Whether a code span reads as output a program printed (a log line, a status line), not
    as a command: cut short with an ellipsis, opened by a timestamp or a level word, or a
    capitalised sentence of plain words whose first word no table knows as a program."""
    text = text.strip()
    if _CUT_SHORT.search(text) or _TIMESTAMP.match(text) or _LEVEL.match(text):
        return True
    if not _PROSE.match(text):
        return False
    program = text.split()[0]
    table = command_table()
    return program.lower() not in table.task_runners and purpose_of(text) is None


@dataclass(frozen=True, slots=True)
class RoleSection:
    """One section's recipe: its key, sentence, the file read and the event behind it."""

    key: str
    content: str
    path: str
    event_ids: tuple[str, ...]


@dataclass(slots=True)
class _Section:
    heading: str
    role: str | None
    entries: list[str]
    roles: list[str]


def _role(text: str) -> str | None:
    """The first role `text` names, leaving out role words that are only part of a step's,
    a stage's or a job's name (`_NAMED_PARTS`)."""
    text = _NAMED_PARTS.sub(" ", text)
    for name, words in _ROLES:
        if words.search(text):
            return name
    return None


def _heading_role(title: str) -> str | None:
    """The one role a heading names; a heading that names several ("Build & Test Commands")
    lists commands of many kinds, and gives none of them a role."""
    named = [name for name, words in _ROLES if words.search(title)]
    return named[0] if len(named) == 1 else None


def doc_command(text: str) -> str | None:
    """`text` when it is a whole command a reader would type (its prompt removed; leading
    environment assignments and placeholders allowed), None for a path, a name, code or a
    command that only shows or moves text."""
    text = _PROMPT.sub("", text).strip()
    bare = _PLACEHOLDER.sub("x", _ENVIRONMENT.sub("", text))
    if printed_line(bare) or shell_command(bare) is None:
        return None
    words = bare.split()
    program = posixpath.basename(words[0])
    if program in command_table().plain_programs or program in ("cd", "export", "source", "set"):
        return None
    known = program in command_table().task_runners or bool(purpose_of(bare))
    # One word alone is a name (`Revise`, `Make.user`, `parser.test.ts`) unless it is a
    # program run by path or one the command table knows by name.
    if len(words) < 2 and not (
        words[0].startswith("./") or (known and not _FILE_NAME.search(words[0]))
    ):
        return None
    return text


def _sentences(unit: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(clean_markdown(unit)) if s.strip()]


def _entry(sentence: str) -> str | None:
    """The sentence as the recipe quotes it: whole, code spans balanced, bounded."""
    text = sentence.rstrip(" .;:")
    if not text or text.count("`") % 2 or len(text) > MAX_ENTRY_CHARS:
        return None
    return text[:1].upper() + text[1:]


#: The command table's purposes each role may agree with (`go generate` is a build step).
_AGREES = {r.said: r.purpose for r in ROLES if r.said != r.purpose}


def _fits(command: str, role: str, kind: str) -> bool:
    """Whether a command belongs in the recipe of `role`: the command table gives it no other
    purpose (`composer install` under a "Build & Test" heading installs), and in an
    instruction file its own words do not already name the role (that file's everyday
    commands recipe gives it)."""
    bare = _ENVIRONMENT.sub("", command)
    found = purpose_of(bare)
    if found is None:
        return True
    if found[0] not in (role, _AGREES.get(role)):
        return False
    return not (kind == "instructions" and _role(bare) is not None)


def _own_checks(commands: list[str], sentence: str, kind: str) -> list[str]:
    """The roles, as a sentence says them, of a README sentence's commands when it runs them
    and each is an everyday check by its own words (`go vet ./...` lints, `go test ./...`
    tests), in their order; none in an instruction file (its everyday commands recipe says
    them) or when a command is no check."""
    if kind == "instructions" or not commands or not _RUN_VERB.search(sentence):
        return []
    roles: list[str] = []
    for command in commands:
        found = purpose_of(_ENVIRONMENT.sub("", command))
        said = _CHECK_SAID.get(found[0]) if found is not None else None
        if said is None:
            return []
        if said not in roles:
            roles.append(said)
    return roles


def _prose_entries(unit: str, section: _Section, kind: str) -> None:
    for sentence in _sentences(unit):
        if _NEGATED.search(sentence) or _BYGONE.search(sentence):
            continue
        commands = [c for c in map(doc_command, _CODE_SPAN.findall(sentence)) if c]
        role = _role(sentence) or section.role
        if role is None or (commands and not all(_fits(c, role, kind) for c in commands)):
            # "Before a pull request, run `go vet ./...` and `go test ./...`": no word names
            # the role, or one names another, but each command's own words name a check
            saids = _own_checks(commands, sentence, kind)
            if saids and _add(section, sentence, saids[0]):
                section.roles.extend(r for r in saids[1:] if r not in section.roles)
            continue
        tied = _CONDITION.match(sentence) and _RUN_VERB.search(sentence) and section.role
        if commands or tied:
            _add(section, sentence, role)


def _block_entries(lines: list[str], lead: str, section: _Section, kind: str) -> None:
    role = _role(lead) or section.role
    if role is None or _NEGATED.search(lead) or _BYGONE.search(lead):
        return
    commands = [c for c in map(doc_command, lines) if c and _fits(c, role, kind)]
    if not commands:
        return
    shown = ", ".join(f"`{c}`" for c in commands[:2])
    said = lead.rstrip(" :.")
    _add(section, f"{said}: {shown}" if said else shown, role)


def _add(section: _Section, sentence: str, role: str) -> bool:
    """Adds `sentence` to the section's entries under `role`; whether it was added."""
    entry = _entry(sentence)
    if entry is None or entry in section.entries or len(section.entries) >= MAX_ENTRIES:
        return False
    section.entries.append(entry)
    if role not in section.roles:
        section.roles.append(role)
    return True


def role_sections(text: str, kind: str) -> list[tuple[str, list[str], list[str]]]:
    """(heading, roles, sentences) of each section of `text` that says how to do a role."""
    sections: list[_Section] = [_Section("", None, [], [])]
    headings: list[tuple[int, str]] = []
    unit: list[str] = []
    lead = ""
    fence: str | None = None
    block: list[str] = []

    def flush() -> None:
        nonlocal lead
        if unit:
            joined = " ".join(line.strip() for line in unit)
            _prose_entries(joined, sections[-1], kind)
            lead = (_sentences(joined) or [""])[-1]
            unit.clear()

    for line in text.splitlines():
        if ANY_FENCE.match(line):
            if fence is None:
                flush()
                fence = line.strip()[3:].strip().lower()
                block = []
            else:
                if fence in _SHELL_FENCES and kind == "instructions":
                    _block_entries(block, lead, sections[-1], kind)
                fence, lead = None, ""
            continue
        if fence is not None:
            block.append(line)
            continue
        heading = _HEADING.match(line)
        if heading:
            flush()
            level, title = len(heading.group(1)), clean_markdown(heading.group("title"))
            headings = [h for h in headings if h[0] < level] + [(level, title)]
            role = next((r for _, t in reversed(headings) if (r := _heading_role(t))), None)
            sections.append(_Section(title, role, [], []))
            lead = ""
            continue
        if not line.strip() or _BULLET.match(line):
            flush()
            if not line.strip():
                continue
        unit.append(_BULLET.sub("", line))
    flush()
    return [(s.heading, s.roles, s.entries) for s in sections if s.entries]


def _listed(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _wanted(path: str) -> bool:
    return instruction_kind(path) is not None


def _failed_here(entry: str, failed: set[str]) -> bool:
    return any(
        failed_in_session(command, failed)
        for command in map(doc_command, _CODE_SPAN.findall(entry))
        if command
    )


def doc_roles(events: list[StoredEvent]) -> list[RoleSection]:
    """The role sections of each instruction file or README the session read (last read)."""
    found: list[RoleSection] = []
    failed = never_passed(events)
    for path, (event, text) in current_root_reads(events, _wanted, loaded_folders=True).items():
        # A sub-folder's file its host loaded holds for that folder (`web/CLAUDE.md`).
        kind = instruction_kind(path) or instruction_kind(posixpath.basename(path)) or ""
        folder = "" if instruction_kind(path) else posixpath.dirname(path)
        where = f" (run in `{folder}/`)" if folder else ""
        for heading, roles, said in role_sections(text, kind)[:MAX_SECTIONS]:
            # A command the session saw fail on every run is no way to do it, whatever the
            # file says (`never_passed`).
            entries = [e for e in said if not _failed_here(e, failed)]
            if not entries:
                continue
            named = _listed(roles[:3])
            under = f", under {heading}," if heading else ""
            content = f"{path}{under} says how to {named}{where}: {'; '.join(entries)}."
            slug = key_slug(heading) or "top"
            found.append(RoleSection(f"{KEY_PREFIX}{path}:{slug}", content, path, (event.id,)))
    return found
