"""What a custom slash command or skill does, from the steps its prompt lists.

A project's own assistant commands (`/q-status`, `/deploy-check` …) and skills are workflows
written down once and run by name: the prompt the command expands to, or the skill's text the
host loads when the assistant launches it, says step by step what it does. When the user runs
one, or the assistant launches a skill, and its text lists at least two numbered steps, the
command and its steps are kept as a recipe ("`/q-status` (Status Check) runs, in order: call
`quint_status` to get the current phase; …"). A step that ends with a colon and is followed by
one command in a code block is stated with that command ("format code: `air format .`"). The
assistant tool's own built-in commands and a plugin's namespaced commands and skills
(`/plugin:cmd`, `plugin:skill`; Claude Code's older `/project:name` is the project's own) are
not the project's and are skipped, as are texts without numbered steps (a bare prompt says
nothing about the order of work) and lists with a placeholder for a step (`[Step 1 — what it
produces]`, `<your step>`: a template the prompt shows, not the command's own steps).

A numbered list under a section heading that names a failure or an error ("## Failure
Handling", "### If tests fail", "## Troubleshooting") says what to do when something goes wrong,
not what the command does, and is never its steps. A text with no steps of its own that names
at least two commands whose purpose the shared command table knows, each in a list item of its
own ("- Zero clippy warnings check: `cargo clippy -- -D warnings`"), is kept with those commands
in the order it lists them ("`/commit` runs: `cargo fmt --all` (format); …"); an item that says
not to run its command ("never `npm install`", "instead of `pip`") names none, and neither does
a section about failures.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from squirrel_core.commands import typed_commands
from squirrel_core.events import EventType, Origin
from squirrel_memory.extractors.wording import key_slug, strip_markdown
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.task_records import purpose_of

#: Importance of a command's steps: a workflow of the project, run by name.
IMPORTANCE = 0.45
MIN_STEPS = 2
#: A statement longer than this is a prompt for the assistant, not a workflow to remember.
MAX_CHARS = 360
MAX_STEPS = 6
MAX_STEP_CHARS = 160
MAX_COMMANDS = 4
#: A step that is only a placeholder to fill in: the list is a template, not steps.
_PLACEHOLDER = re.compile(r"^(?:\[[^\]]*\]|<[^>]*>|\{[^}]*\})(?:\s*[:.,;-].*)?$")

#: Commands of the assistant tools themselves, which expand to the tool's own prompts.
_BUILT_IN = frozenset(
    {"init", "review", "pr-comments", "security-review", "compact", "statusline", "memory"}
    | {"install-github-app", "clear", "help", "config", "cost", "doctor", "login", "logout"}
    | {"model", "permissions", "resume", "status", "terminal-setup", "vim", "exit", "agents"}
    | {"context", "export", "hooks", "ide", "mcp", "plugin", "rewind", "todos", "usage"}
)
#: A custom command: its own name, or Claude Code's older project form `/project:name` (the
#: project's own `.claude/commands/name.md`); not a plugin's namespaced one (`/plugin:cmd`).
_COMMAND = re.compile(r"^/(?:project:)?[\w.-]{2,60}$")
_STEP = re.compile(r"^(\d{1,2})[.)]\s+(\S.*)$")
_TITLE = re.compile(r"^#{1,3}\s+(.+?)\s*$")
_SECTION = re.compile(r"^#{4,6}\s+(.+?)\s*$")
#: A skill the assistant launched: its own name, not a plugin's namespaced one.
_SKILL = re.compile(r"^[\w.-]{2,60}$")
_FENCE = "```"
#: Headings that name the list rather than the workflow.
_GENERIC_TITLES = frozenset({"steps", "instructions", "workflow", "procedure", "usage", "process"})
#: A section heading that names what goes wrong: its list says what to do then.
FAILURE_SECTION = re.compile(
    r"\b(?:fail(?:s|ed|ing|ures?)?|errors?|troubleshoot\w*|rollbacks?|roll back|recover(?:y|ing)?"
    r"|problems?|issues? found)\b",
    re.IGNORECASE,
)
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,2}[.)])\s+\S")
_INLINE_CODE = re.compile(r"`([^`\n]{2,200})`")
#: An item that says not to run what it names.
_NOT_RUN = re.compile(
    r"\b(?:never|don'?t|do not|avoid|instead of|rather than|not)\b", re.IGNORECASE
)
#: How a command's purpose is shown after it.
_PURPOSE_WORDS = {
    "test": "tests",
    "lint": "lint",
    "format": "format",
    "typecheck": "type-check",
    "build": "build",
}


@dataclass(frozen=True, slots=True)
class CommandSteps:
    """One command's steps: key, statement and the events that ran it."""

    key: str
    content: str
    command: str
    event_ids: tuple[str, ...]
    #: A skill's steps (the host loads its text again whenever it runs), not a command's.
    skill: bool = False


def _fenced_command(lines: list[str], start: int) -> str | None:
    """The one command of the code block that opens at `lines[start]` (blank lines before it
    skipped), or None when there is no block there or it holds more than one line."""
    i = start
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i >= len(lines) or not lines[i].strip().startswith(_FENCE):
        return None
    body: list[str] = []
    for line in lines[i + 1 :]:
        if line.strip().startswith(_FENCE):
            return body[0] if len(body) == 1 and "`" not in body[0] else None
        if line.strip():
            body.append(line.strip())
    return None  # the block is not closed: cut


def _steps(prompt: str) -> tuple[str, list[str]]:
    """(the prompt's title, its top-level numbered steps as clauses)."""
    title = ""
    steps: list[str] = []
    lines = prompt.splitlines()
    failure_section = False
    fenced = _fenced_lines(lines)
    for n, line in enumerate(lines):
        heading = None if n in fenced else _TITLE.match(line) or _SECTION.match(line)
        if heading and not title and not steps:
            named = " ".join(strip_markdown(heading.group(1)).split())
            title = "" if named.lower() in _GENERIC_TITLES else named
            continue
        if heading:
            failure_section = FAILURE_SECTION.search(heading.group(1)) is not None
            continue
        if failure_section:
            continue
        match = _STEP.match(line)
        if match is None or int(match.group(1)) != len(steps) + 1:
            continue
        text = " ".join(strip_markdown(match.group(2)).split())
        command = _fenced_command(lines, n + 1) if text.endswith(":") else None
        text = text.rstrip(":;,. ")
        if command is not None:
            text = f"{text}: `{command}`"
        if not text or text.count("`") % 2 or len(text) > MAX_STEP_CHARS:
            return title, []  # a step cut or too long to state: the list is not kept
        if _PLACEHOLDER.match(text):
            return title, []  # a template's slot: the list shows how to write steps
        steps.append(text[:1].lower() + text[1:] if text[1:2].islower() else text)
    return title, steps


def _fenced_lines(lines: list[str]) -> frozenset[int]:
    """The indexes of the lines inside code blocks and of their fences."""
    inside: set[int] = set()
    open_fence = False
    for n, line in enumerate(lines):
        if line.strip().startswith(_FENCE):
            open_fence = not open_fence
            inside.add(n)
        elif open_fence:
            inside.add(n)
    return frozenset(inside)


def _listed_commands(prompt: str) -> list[str]:
    """The commands the text's list items name, whose purpose the shared table knows, in the
    order listed and each once, shown with that purpose ("`cargo test --all` (tests)"); none
    from an item that says not to run them, from a code block or from a section about
    failures."""
    lines = prompt.splitlines()
    fenced = _fenced_lines(lines)
    shown: list[str] = []
    seen: set[str] = set()
    failure_section = False
    first_heading = True
    for n, line in enumerate(lines):
        if n in fenced:
            continue
        heading = _TITLE.match(line) or _SECTION.match(line)
        if heading:
            if not first_heading:
                failure_section = FAILURE_SECTION.search(heading.group(1)) is not None
            first_heading = False
            continue
        if failure_section or not _LIST_ITEM.match(line) or _NOT_RUN.search(line):
            continue
        for code in _INLINE_CODE.findall(line):
            typed = [t.text for t in typed_commands(code) if t.use is not None]
            if len(typed) != 1 or typed[0] != code.strip() or typed[0] in seen:
                continue
            found = purpose_of(typed[0])
            if found is None or found[0] not in _PURPOSE_WORDS:
                continue
            seen.add(typed[0])
            shown.append(f"`{typed[0]}` ({_PURPOSE_WORDS[found[0]]})")
    return shown


def launched_skill(events: list[StoredEvent], i: int) -> tuple[str, StoredEvent] | None:
    """(`/name`, the skill's text) when `events[i]` launches a skill the host then loaded."""
    event = events[i]
    tool_input = event.content.get("input")
    if event.event_type != EventType.TOOL_CALL or event.content.get("tool") != "Skill":
        return None
    name = str(tool_input.get("skill") or "") if isinstance(tool_input, dict) else ""
    if not _SKILL.match(name):
        return None
    for later in events[i + 1 : i + 3]:
        if later.event_type == EventType.TOOL_RESULT and later.content.get("is_error"):
            return None
        if later.event_type == EventType.USER_MESSAGE:
            return (f"/{name}", later) if later.origin == Origin.HARNESS else None
    return None


def ran_command(events: list[StoredEvent], i: int) -> tuple[str, StoredEvent] | None:
    """(`/name`, its expansion) when `events[i]` is a custom slash command the user ran."""
    event = events[i]
    command = str(event.content.get("command") or "").strip()
    if (
        event.event_type != EventType.USER_MESSAGE
        or event.origin != Origin.SLASH_COMMAND
        or not _COMMAND.match(command)
        or command.lstrip("/") in _BUILT_IN
    ):
        return None
    expansion = events[i + 1]
    if expansion.event_type != EventType.USER_MESSAGE or expansion.origin != Origin.HARNESS:
        return None
    return command, expansion


@dataclass(frozen=True)
class CommandRun:
    """A custom command the user ran, or a skill the assistant launched, with its text."""

    index: int
    event: StoredEvent
    command: str  # `/name`
    expansion: StoredEvent
    text: str

    @property
    def what(self) -> str:
        return "command" if self.event.event_type == EventType.USER_MESSAGE else "skill"

    @property
    def name(self) -> str:
        """The name as the memory shows it: `/name` for a command, `name` for a skill."""
        return self.command if self.what == "command" else self.command.lstrip("/")


def command_runs(events: list[StoredEvent]) -> Iterator[CommandRun]:
    """Each custom command run and skill launched in `events` whose text the host loaded."""
    for i in range(len(events) - 1):
        ran = ran_command(events, i) or launched_skill(events, i)
        if ran is None:
            continue
        command, expansion = ran
        text = expansion.content.get("text")
        if isinstance(text, str):
            yield CommandRun(i, events[i], command, expansion, text)


def command_steps(events: list[StoredEvent]) -> list[CommandSteps]:
    """The custom commands the user ran and the skills the assistant launched in `events`
    whose texts list their steps."""
    found: dict[str, CommandSteps] = {}
    for run in command_runs(events):
        event, command, expansion = run.event, run.command, run.expansion
        if command in found:
            continue
        title, steps = _steps(run.text)
        listed = [] if len(steps) >= MIN_STEPS else _listed_commands(run.text)
        if len(steps) < MIN_STEPS and len(listed) < MIN_STEPS:
            continue
        what, shown_name = run.what, run.name
        named = f"`{shown_name}` ({title})" if title else f"`{shown_name}`"
        if listed:
            statement = f"The {what} {named} runs: {'; '.join(listed[:MAX_STEPS])}."
        else:
            statement = f"The {what} {named} runs, in order: {'; '.join(steps[:MAX_STEPS])}."
        if len(statement) > MAX_CHARS:
            continue
        key = f"command:{key_slug(command) or 'custom'}"
        found[command] = CommandSteps(
            key, statement, command, (event.id, expansion.id), skill=what == "skill"
        )
        if len(found) >= MAX_COMMANDS:
            break
    return list(found.values())
