"""A ban over a kind of code: "no unwrap or panic in production code", "no `any` in non-test code".

A thing ruled out "in production code" (or prod, non-test, shipping, release code) holds for
every later piece of that code, not for a spot of the task: it is a standing rule, whether the
user says it in a message or wrote it as a line of a custom command's text, such as a quality
gate of the command they commit with ("- Safety scan (no unwrap/panic in production code)").
The clause opens with the ban itself ("no", "zero", "never any"); a task about such things
("remove the unwrap calls in production code", "count the TODOs in production code"), a
statement of how the code is ("there is no logging in production code yet"), a question, a
line of a code block in the command's text or one under a section about failures is none.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from squirrel_memory.extractors.command_steps import FAILURE_SECTION, command_runs
from squirrel_memory.extractors.wording import key_slug, strip_markdown
from squirrel_memory.models import StoredEvent

#: The kinds of code a ban is scoped to: all later code of that kind.
_KIND = r"(?:production|prod|non-test|shipping|release) code"
#: A word of what is ruled out: a code token too (`dbg!`, `print()`, `console.log`).
_WORD = r"(?:[^\s,;:()]|\(\))+"
#: The ban: what is ruled out (a few words, code tokens included: `dbg!`, `!!`, `print()`),
#: then the kind of code; a short tail after a comma ("…, please", "…, use the logger").
_BAN = re.compile(
    rf"^(?:no|zero|never any)\s+(?P<x>{_WORD}(?:\s+{_WORD}){{0,5}}?)\s+"
    rf"(?P<where>in (?:any |the )?{_KIND})(?=$|[\s,;.!)])(?P<rest>.*)$",
    re.IGNORECASE,
)
#: A tail that ties the ban to the task at hand ("… for this PR", "… for now").
_MOMENT = re.compile(
    r"\b(?:this|that|these|for now|today|tonight|yet|later|for the time being|until)\b",
    re.IGNORECASE,
)
#: Words after "no" that are no thing ruled out ("no need to …", "no idea").
_NOT_A_THING = re.compile(
    r"^(?:need|problem|worries|way|idea|clue|rush|hurry|thanks|luck|changes?|one|longer|more)\b",
    re.IGNORECASE,
)
#: Where a ban may start inside a line of a command's text: its start, after an opening
#: parenthesis, a colon or a dash between words.
_PARTS = re.compile(r"(?:(?:^|\s)\(|:\s|\s[—–-]\s)\s*")
_LIST_MARK = re.compile(r"^\s*(?:[-*+]|\d{1,2}[.)])\s+")
_FENCE = re.compile(r"^\s*(?:```|~~~)")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(?P<title>.+?)\s*$")
#: Bans kept per session from command texts.
MAX_BANS = 3


def code_kind_ban(clause: str) -> str | None:
    """The ban a clause gives over a kind of code ("No unwrap or panic in production code."),
    or None when the clause does not open with one."""
    found = _BAN.match(strip_markdown(clause).strip())
    if found is None or _NOT_A_THING.match(found.group("x")) or _MOMENT.search(found.group("rest")):
        return None
    thing = found.group("x").strip().rstrip(".")
    return f"No {thing} {found.group('where').lower()}."


@dataclass(frozen=True, slots=True)
class CommandBan:
    """A ban written in the text of a custom command or a launched skill."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    #: The skill whose text holds it ("" for a command's).
    skill: str = ""


def _text_bans(text: str) -> Iterator[str]:
    """The bans of the lines of a command's text, outside code blocks and failure sections."""
    fence = failing = False
    for line in text.splitlines():
        if _FENCE.match(line):
            fence = not fence
            continue
        if fence:
            continue
        if heading := _HEADING.match(line):
            failing = bool(FAILURE_SECTION.search(heading.group("title")))
            continue
        if failing:
            continue
        for part in _PARTS.split(_LIST_MARK.sub("", line)):
            if ban := code_kind_ban(part):
                yield ban


def command_bans(events: list[StoredEvent]) -> list[CommandBan]:
    """The bans over a kind of code written in the texts of the custom commands the user ran
    and the skills the assistant launched, each said of its command or skill."""
    found: dict[str, CommandBan] = {}
    for run in command_runs(events):
        for ban in _text_bans(run.text):
            key = f"pref:{key_slug(ban) or 'ban'}"
            if key in found or len(found) >= MAX_BANS:
                continue
            where = f"the {run.what} `{run.name}`"
            content = f"{ban.rstrip('.')} (a rule written in {where})."
            skill = run.name if run.what == "skill" else ""
            found[key] = CommandBan(key, content, (run.event.id, run.expansion.id), skill)
    return list(found.values())
