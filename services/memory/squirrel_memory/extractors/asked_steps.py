"""The steps the assistant gave, in order, when the user asked how to do something.

A user who wants to do a thing themselves asks for it ("give me the instructions on how to test
it myself live", "how do I run this locally?", "what's the command to seed the database?"), and
the assistant answers with the commands in shell blocks, one after another: set up, check,
then run. That answer is a procedure of the project the user will repeat, with its steps in the
order given. The rule reads that shape, never the words of one tool:

- the request is the user's own message and asks how something is done (how do/can/should I,
  how to, the instructions or steps for, walk me through, the command to), not a question
  about why or whether;
- the answer is the assistant's own replies (not a subagent's) up to the user's next message;
- a step is a shell block (or a block with no language) whose every line, continuation lines
  joined, is a whole command a known program starts (`lead_in_commands._command`): a block
  holding anything else (output, a config file, prose) is left out whole, as is a block under
  a lead-in that asks, announces the assistant's own next step, names a failure or is negated;
  or a numbered list with two items at least that open with a code span holding such a
  command ("1. `cabal build all`", "2. `cabal test golden --test-options=--accept` — …"),
  its items of prose left out;
- the answer names no other repository ("upstream", a folder outside the project), and no
  command names a path of one machine.

One recipe per request, its commands in order (the first few, each once), each block after its
lead-in when that is a short label ("Install globally:"), attributed to the assistant's answer:
'Asked "how do I run it locally?", the assistant's answer gave, in order: install: `pnpm
install`; start the dev server: `pnpm dev`.'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.events import EventType, is_user_voice
from squirrel_memory.extractors.delegated_commands import FAILED, names_elsewhere
from squirrel_memory.extractors.lead_in_commands import _NEGATED, _NOT_STATED, _command
from squirrel_memory.extractors.user_turns import user_turns
from squirrel_memory.extractors.wording import key_slug
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.markdown_prose import clean_markdown

KEY_PREFIX = "recipe:asked:"
#: The user asked for these steps: above a command handed over unasked (0.45).
IMPORTANCE = 0.5
#: Commands kept per answer, and the longest request quoted (characters).
MAX_STEPS = 6
MAX_REQUEST_CHARS = 140
#: The longest lead-in kept as a step's label (characters).
MAX_LABEL_CHARS = 80
#: A request for how a thing is done (English only: in another language the rule says nothing).
_ASKS_HOW = re.compile(
    r"\bhow (?:do|can|could|should|would) (?:i|we)\b|\bhow to\b"
    r"|\b(?:instructions|steps) (?:on|for|to)\b|\bwalk me through\b"
    r"|\bwhat(?:'s| is| are) the commands? (?:to|for)\b",
    re.IGNORECASE,
)
#: A question about a reason or a fact, not about doing: why, whether.
_NOT_HOW = re.compile(r"\b(?:why|whether)\b", re.IGNORECASE)
_FENCE = re.compile(r"^\s*(```+|~~~+)\s*([\w+-]*)")
_SHELL = frozenset({"", "sh", "bash", "shell", "console", "zsh", "fish", "terminal"})
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
#: A numbered list's item, from its first word (a code span for a step).
_ITEM = re.compile(r"^\s*\d+[.)]\s+(?:`([^`\n]+)`)?")
#: Another repository the answer is about.
_OTHER = re.compile(
    r"\b(?:upstream|third[- ]party|another (?:repo|repository|project)"
    r"|their (?:repo|repository))\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class AskedSteps:
    """One request's steps: its key, statement and the events that hold them."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def _request(text: str) -> str | None:
    """The sentence of the user's message that asks how something is done, or `None`."""
    for raw in _SENTENCE.split(text.strip()):
        part = " ".join(raw.split())
        if _ASKS_HOW.search(part) and not _NOT_HOW.search(part):
            return part if len(part) <= MAX_REQUEST_CHARS else None
    return None


def _lines(body: list[str]) -> list[str]:
    """The block's lines with continuation lines (`\\` at the end) joined, blanks left out."""
    joined: list[str] = []
    pending = ""
    for raw in body:
        line = raw.strip()
        if line.endswith("\\"):
            pending += line[:-1].strip() + " "
            continue
        line = (pending + line).strip()
        pending = ""
        if line:
            joined.append(line)
    if pending.strip():
        joined.append(pending.strip())
    return joined


def _label(lead: str) -> str:
    """A block's lead-in as the label of its step ("Install globally"), or "" when it is too
    long to be one or there is none."""
    label = lead.rstrip(":").strip()
    return label if label and lead.endswith(":") and len(label) <= MAX_LABEL_CHARS else ""


def steps(text: str) -> list[tuple[str, list[str]]]:
    """(label, commands) of each of `text`'s shell blocks whose every line is a command, in
    order; the label is the block's lead-in when it is a short one ending with a colon."""
    found: list[tuple[str, list[str]]] = []
    lead = ""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        fence = _FENCE.match(lines[i])
        listed, after = _numbered(lines, i)
        if fence is None and listed:
            if not (_NOT_STATED.search(lead) or FAILED.search(lead) or _NEGATED.search(lead)):
                found.append((_label(lead), listed))
            lead, i = "", after
            continue
        if fence is None:
            if lines[i].strip():
                lead = clean_markdown(lines[i]).strip()
            i += 1
            continue
        end = next((j for j in range(i + 1, len(lines)) if _FENCE.match(lines[j])), len(lines))
        language = fence.group(2).lower()
        said = _NOT_STATED.search(lead) or FAILED.search(lead) or _NEGATED.search(lead)
        if language in _SHELL and not said:
            body = [line.lstrip("$% ").strip() for line in _lines(lines[i + 1 : end])]
            given = [c for c in map(_command, body) if c is not None]
            if body and len(given) == len(body):
                found.append((_label(lead), given))
        lead = ""
        i = end + 1
    return found


def _numbered(lines: list[str], start: int) -> tuple[list[str], int]:
    """The commands of a numbered list starting at `lines[start]` whose items open with a code
    span holding a whole command ("1. `cabal build all`", "2. `make test` — runs …"), and the
    index after the list; ([], start) when fewer than two items open so. An item of prose
    ("3. Review the diff …") is no step; a failure named in an item leaves it out."""
    given: list[str] = []
    i = start
    while i < len(lines) and (_ITEM.match(lines[i]) or (not lines[i].strip() and given)):
        item = _ITEM.match(lines[i])
        command = _command(item.group(1)) if item and item.group(1) else None
        if item and command is not None and not FAILED.search(lines[i]):
            given.append(command)
        i += 1
    return (given, i) if len(given) >= 2 else ([], start)


def _shown(given: list[tuple[str, list[str]]]) -> str:
    """The steps as one clause: each block's commands, after its label when it has one."""
    parts = []
    for label, commands in given:
        shown = ", then ".join(f"`{c}`" for c in commands)
        parts.append(f"{label[0].lower()}{label[1:]}: {shown}" if label else shown)
    return "; ".join(parts)


def asked_steps(events: list[StoredEvent]) -> list[AskedSteps]:
    """One recipe per request of the user's for how to do something that the assistant
    answered with commands."""
    out: list[AskedSteps] = []
    for first, end in user_turns(events):
        opener = events[first]
        if opener.event_type != EventType.USER_MESSAGE or not is_user_voice(opener.origin):
            continue
        text = opener.content.get("text")
        request = _request(text) if isinstance(text, str) else None
        if request is None:
            continue
        given: list[tuple[str, list[str]]] = []
        seen: set[str] = set()
        ids: list[str] = []
        for event in events[first + 1 : end]:
            if event.event_type != EventType.ASSISTANT_RESPONSE or event.sidechain:
                continue
            reply = event.content.get("text")
            if not isinstance(reply, str) or _OTHER.search(reply):
                continue
            if names_elsewhere(reply, event.project_id):
                continue
            for label, commands in steps(reply):
                fresh = [c for c in commands if c not in seen][: MAX_STEPS - len(seen)]
                if fresh:
                    seen.update(fresh)
                    given.append((label, fresh))
                    if event.id not in ids:
                        ids.append(event.id)
        if not given:
            continue
        order = ", in order" if len(seen) > 1 else ""
        content = f'Asked "{request}", the assistant\'s answer gave{order}: {_shown(given)}.'
        asked = _ASKS_HOW.search(request)
        subject = request[asked.start() :] if asked else request
        key = f"{KEY_PREFIX}{key_slug(subject) or opener.id}"
        out.append(AskedSteps(key, content, (opener.id, *ids)))
    return out
