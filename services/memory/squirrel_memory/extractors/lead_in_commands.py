"""How a role is done (build, test, lint, format, type-check, generate, release, deploy), as a
text handed over in the session gives it: a line that names the role and ends with a colon,
then the command in a code block.

Agents and the people who brief them hand each other commands the same way in every
ecosystem: "Rebuild with:" above a shell block in the assistant's reply to the user, "1. Format
code:" above a block in a skill or a custom command's body, "To run the tests:" above a block
in a brief to a subagent. Where the text sits and how it is laid out say what the command is
for; the command itself may be one no table knows (`go build -ldflags … -o app ./cmd/app`,
`./tool -e '…'`). The rule reads that shape, never the words of one tool:

- the text is the assistant's own reply to the user (not a subagent's), a text the host put in
  the session for the agent (a skill, a command's body, a handed-back plan; not an instruction
  file the host loaded, which `doc_roles` reads), or a brief to a subagent;
- the lead-in is the last line of prose before the block, ends with a colon and names exactly
  one role; it asks nothing, announces nothing the agent is about to do ("Let me run:"), names
  no failure and is not negated ("Do not run:");
- each line of the block is a whole command (its prompt removed) whose own words give it no
  other role (`npm install` under "Build:" installs); a block in another language than the
  shell counts only when every line is a command of that role by its own words;
- the text names no place outside the project; a command the session ran (its runs say more)
  or one that names a path of one machine says nothing, and a recipe of another rule of the
  episode that already gives every command of it (a skill's steps) leaves it out
  (`without_restated`).

One recipe per role per episode, from the last text that gives it (later advice replaces
earlier): "The assistant's reply gives the command to build: `go build -o app ./cmd/app`."
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.command_table import command_table
from squirrel_core.events import LOADED_FILE, EventType, Origin
from squirrel_core.subagent_tools import SUBAGENT_TOOLS
from squirrel_memory.extractors.activity import commands
from squirrel_memory.extractors.delegated_commands import FAILED, names_elsewhere
from squirrel_memory.extractors.doc_roles import doc_command
from squirrel_memory.extractors.role_words import ROLES
from squirrel_memory.models import MemoryCandidate, MemoryType, StoredEvent
from squirrel_memory.repository.markdown_prose import clean_markdown
from squirrel_memory.repository.task_records import purpose_of

KEY_PREFIX = "recipe:lead-in:"
#: Below a command seen to pass (0.44 and up) and a project file's own word (0.55): the
#: command was handed over, not seen to work.
IMPORTANCE = 0.45
#: Commands kept per block, and the longest command kept (characters).
MAX_COMMANDS = 3
MAX_COMMAND_CHARS = 240
_FENCE = re.compile(r"^\s*(```+|~~~+)\s*([\w+-]*)")
_SHELL = frozenset({"", "sh", "bash", "shell", "console", "zsh", "fish", "terminal", "powershell"})
#: A lead-in that asks, announces the agent's own next step, or is a task-list box.
_NOT_STATED = re.compile(
    r"\?\s*:?\s*$|^\W*(?:should|shall|do you|would you|want me|can i)\b|^[-*+]\s+\[[ xX]?\]"
    r"|\b(?:let me|let's|i'll|i will|i'm going to|i am going to|next,? i)\b",
    re.IGNORECASE,
)
_NEGATED = re.compile(r"\b(?:do not|don't|never|avoid|must not|should not|no need to)\b", re.I)
#: A path of one machine (`/Users/…`, `/home/…`, `C:\…`, `~/…`) in a command.
_LOCAL_PATH = re.compile(r"(?:^|[\s='\"])(?:/(?:Users|home|root)/|[A-Za-z]:\\|~/)")
_GIVEN = {
    "reply": "The assistant's reply gives",
    "host": "Instructions the agent was given give",
    "brief": "A brief to a subagent gives",
}
_WORDING = {
    "test": "to run the tests",
    "type-check": "to type-check",
}


@dataclass(frozen=True, slots=True)
class LeadInCommand:
    """One role's recipe: its key, statement and the event that gave it."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def _text(event: StoredEvent) -> tuple[str, str] | None:
    """(kind, text) of an event that hands over commands, None for any other."""
    content = event.content
    if event.event_type == EventType.ASSISTANT_RESPONSE:
        text = content.get("text")
        return ("reply", text) if isinstance(text, str) and not event.sidechain else None
    if event.event_type == EventType.USER_MESSAGE:
        text = content.get("text")
        if not isinstance(text, str):
            return None
        if event.origin == str(Origin.HARNESS) and LOADED_FILE not in content:
            return ("host", text)
        return ("brief", text) if event.origin == str(Origin.PARENT_AGENT) else None
    if event.event_type == EventType.TOOL_CALL and content.get("tool") in SUBAGENT_TOOLS:
        given = content.get("input")
        prompt = given.get("prompt") if isinstance(given, dict) else None
        return ("brief", prompt) if isinstance(prompt, str) else None
    return None


def _role(lead: str) -> str | None:
    """The one role a lead-in names (its `said` name), None for none or several."""
    named = {r.said for r in ROLES if r.words.search(lead)}
    return named.pop() if len(named) == 1 else None


#: Leading environment assignments (`FAILFAST=1 ./tool …`).
_ENVIRONMENT = re.compile(r"^(?:[A-Za-z_]\w*=\S*\s+)+")
#: Interpreters that run a file of the project (`python3 tools/gen.py`).
_INTERPRETERS = frozenset({"python", "python3", "node", "ruby", "perl", "php", "bash", "sh"})


def _programs() -> frozenset[str]:
    table = command_table()
    return frozenset(
        {words[0] for words in table.patterns}
        | set(table.task_runners)
        | set(table.package_managers)
    )


def _known_program(command: str) -> bool:
    """Whether the command starts a program the command table knows, a script of the project
    by its relative path, or an interpreter on such a script: never a line of output."""
    words = _ENVIRONMENT.sub("", command).split()
    if not words:
        return False
    first = words[0]
    if first in _programs():
        return True
    if "/" in first and not first.startswith(("/", "~")):
        return True
    return first in _INTERPRETERS and len(words) > 1 and "/" not in words[1][:1]


def _command(line: str) -> str | None:
    """The whole command a block's line gives, None for anything else; a long command is
    judged by its start (a table bounds the length of a typed command)."""
    text = " ".join(line.split())
    if not text or len(text) > MAX_COMMAND_CHARS or _LOCAL_PATH.search(text):
        return None
    if not _known_program(text.lstrip("$% ")):
        return None
    if doc_command(text) is not None:
        return text
    start = text[:100].rsplit(" ", 1)[0]
    return text if len(text) > 100 and doc_command(start) is not None else None


def _agrees(command: str, role: str, shell: bool) -> bool:
    """Whether the command's own words leave it in `role`'s recipe: no other purpose; outside
    a shell block, only a command its own words put in the role."""
    said = {r.said: r.purpose for r in ROLES}
    found = purpose_of(command)
    if found is None:
        return shell
    return found[0] in (role, said.get(role))


def blocks(text: str) -> list[tuple[str, list[str]]]:
    """(role, commands) of each code block of `text` under a lead-in that names one role."""
    found: list[tuple[str, list[str]]] = []
    lead = ""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        fence = _FENCE.match(lines[i])
        if fence is None:
            if lines[i].strip():
                lead = clean_markdown(lines[i]).strip()
            i += 1
            continue
        end = next((j for j in range(i + 1, len(lines)) if _FENCE.match(lines[j])), len(lines))
        body, language = lines[i + 1 : end], fence.group(2).lower()
        role = _role(lead) if _leads(lead) else None
        if role is not None:
            given = [c for c in map(_command, body) if c]
            shell = language in _SHELL
            if given and len(given) == len([b for b in body if b.strip()]):
                kept = [c for c in given if _agrees(c, role, shell)]
                if kept and len(kept) == len(given):
                    found.append((role, kept[:MAX_COMMANDS]))
        lead = ""
        i = end + 1
    return found


def _leads(lead: str) -> bool:
    return (
        lead.endswith(":")
        and not _NOT_STATED.search(lead)
        and not FAILED.search(lead)
        and not _NEGATED.search(lead)
    )


def lead_in_commands(events: list[StoredEvent]) -> list[LeadInCommand]:
    """The commands the episode's texts hand over for a role, one recipe per role (the last
    text that gives it)."""
    ran = {" ".join(run.command.split()) for run in commands(events)}
    chosen: dict[str, tuple[str, list[str], str]] = {}
    for event in events:
        given = _text(event)
        if given is None or names_elsewhere(given[1], event.project_id):
            continue
        kind, text = given
        for role, found in blocks(text):
            fresh = [c for c in found if c not in ran]
            if fresh and len(fresh) == len(found):
                chosen[role] = (kind, fresh, event.id)
    out = []
    for role, (kind, found, event_id) in chosen.items():
        shown = ", then ".join(f"`{c}`" for c in found)
        said = _WORDING.get(role, f"to {role}")
        content = f"{_GIVEN[kind]} the command {said}: {shown}."
        out.append(LeadInCommand(f"{KEY_PREFIX}{role}", content, (event_id,)))
    return out


def without_restated(found: list[MemoryCandidate]) -> list[MemoryCandidate]:
    """`found` less the lead-in recipes whose every command another recipe of the episode
    already gives (a skill's steps, a brief's commands): the same advice, said once."""
    others = [c.content for c in found if c.type is MemoryType.RECIPE]
    others = [c for c in others if not c.startswith(tuple(_GIVEN.values()))]

    def restated(cand: MemoryCandidate) -> bool:
        if not cand.key.startswith(KEY_PREFIX):
            return False
        given = re.findall(r"`([^`]+)`", cand.content)
        return bool(given) and all(any(f"`{c}`" in o for o in others) for c in given)

    return [c for c in found if not restated(c)]
