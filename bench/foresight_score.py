"""Scoring for the foresight replay: what one session did, and what the memory served it foresaw.

Everything here is pure: a session's events (as the memory service stores them) are read with the
extractors' own readers (`activity.commands`, `evidence.attempts`, `fixes.find_pitfalls`,
`preferences.stated_preferences`), so a failure, a command and an instruction are recognised
exactly as extraction recognises them:

- a **failure** is a `find_pitfalls` pitfall of the session; its identity is the memory key its
  error signature gets (`fingerprint_key`), the key a pitfall memory of it carries;
- a **recipe use** is a command with a known purpose (`classify_command`: test, lint, format,
  typecheck, build, migrate, run, install) that succeeded; its identity is `command_base`;
- an **instruction** is a preference `stated_preferences` reads in a user message (a correction
  or a rule); its identity is its `pref:` key.

A session is scored against the sessions before it (`History`) and the injections it received
(`Injected`: the session-start answer, then one per prompt, each with the items it showed).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import PurePosixPath

from squirrel_core.commands import TypedCommand, typed_commands
from squirrel_core.events import EventType
from squirrel_gateway.hook_context import Served
from squirrel_memory.extractors.activity import (
    commands,
    relative_path,
    touched_files,
    user_requests,
)
from squirrel_memory.extractors.evidence import Attempt, attempts, command_base
from squirrel_memory.extractors.fixes import FOLDER_KEY_PREFIX, Change, find_pitfalls
from squirrel_memory.extractors.pitfalls import fingerprint_key
from squirrel_memory.extractors.preferences import stated_preferences
from squirrel_memory.models import StoredEvent

#: Events after which a user message answers something the assistant did (as the rules
#: extractor reads it: only then can "no, …" be a correction).
_ASSISTANT_ACTIONS = frozenset(
    {
        EventType.ASSISTANT_RESPONSE,
        EventType.TOOL_CALL,
        EventType.TOOL_RESULT,
        EventType.CODE_CHANGE,
        EventType.COMMAND_RUN,
        EventType.TEST_RUN,
    }
)
_BACKTICKED = re.compile(r"`([^`\n]{1,400})`")
#: How much of a fix command must be found in a pitfall's text (memories clip long commands).
_FIX_CHARS = 60


# -- what a session did --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Failure:
    """A failed command of the session, its pitfall key(s), and the fix that worked (if seen)."""

    at: datetime
    key: str
    command: str
    fix: str | None = None  # "edit", "setup", "variant", "folder" or None
    fix_command: str = ""
    files: tuple[str, ...] = ()

    @property
    def keys(self) -> frozenset[str]:
        """The memory keys a pitfall warning of this failure may carry."""
        keys = {self.key}
        if self.fix == "folder":
            keys.add(FOLDER_KEY_PREFIX + re.sub(r"[^a-z0-9]+", "-", self.fix_command.lower())[:40])
        return frozenset(keys)


@dataclass(frozen=True, slots=True)
class CommandUse:
    """The first successful run in the session of a command with a known purpose."""

    at: datetime
    base: str
    purpose: str
    text: str


@dataclass(frozen=True, slots=True)
class Instruction:
    """A standing rule or correction the user stated in a message."""

    at: datetime
    key: str
    content: str


@dataclass(frozen=True, slots=True)
class SessionFacts:
    """What a session did, read from its events."""

    session_id: str
    prompts: tuple[tuple[datetime, str], ...]
    failures: tuple[Failure, ...]
    uses: tuple[CommandUse, ...]
    instructions: tuple[Instruction, ...]
    bases_run: frozenset[str]
    touched: frozenset[str]
    #: (tool, purpose) of every recognised command run, whatever its runner (`uv run`, `npx`).
    tools_run: frozenset[tuple[str, str]] = frozenset()


def session_facts(session_id: str, events: Sequence[StoredEvent], root: str) -> SessionFacts:
    """The prompts, failures, successful commands and instructions of one session."""
    ordered = sorted(events, key=lambda e: (e.timestamp, e.id))
    found = attempts(commands(ordered), root)
    changes = [
        Change(e.id, e.timestamp, e.session_id, relative_path(path, e.project_id))
        for e in ordered
        if e.event_type == EventType.CODE_CHANGE
        for path in _change_paths(e)
    ]
    failures = tuple(
        Failure(
            p.failed.run.timestamp,
            fingerprint_key(p.fingerprint),
            p.failed.text,
            p.fix,
            _relative(p.fix_command, root),
            p.files,
        )
        for p in find_pitfalls(found, changes)
    )
    uses: dict[str, CommandUse] = {}
    for attempt in found:
        if attempt.run.ok and attempt.use is not None and attempt.base:
            uses.setdefault(
                attempt.base,
                CommandUse(attempt.run.timestamp, attempt.base, attempt.use.purpose, attempt.text),
            )
    requests = user_requests(ordered)
    position = {e.id: i for i, e in enumerate(ordered)}
    instructions: list[Instruction] = []
    for event, text in requests:
        index = position[event.id]
        after = index > 0 and ordered[index - 1].event_type in _ASSISTANT_ACTIONS
        for pref in stated_preferences(text, after_assistant_action=after):
            instructions.append(Instruction(event.timestamp, pref.key, pref.content))
    touched = {*touched_files(ordered), *(c.path for c in changes)}
    return SessionFacts(
        session_id=session_id,
        prompts=tuple((event.timestamp, text) for event, text in requests),
        failures=failures,
        uses=tuple(uses.values()),
        instructions=tuple(instructions),
        bases_run=frozenset(_bases(found)),
        touched=frozenset(touched),
        tools_run=frozenset((a.use.tool, a.use.purpose) for a in found if a.use is not None),
    )


def _change_paths(event: StoredEvent) -> list[str]:
    path = event.content.get("path")
    return [path] if isinstance(path, str) and path else [p for p in event.file_paths if p]


def _bases(found: Iterable[Attempt]) -> set[str]:
    return {a.base for a in found if a.base}


def _relative(text: str, root: str) -> str:
    root = root.rstrip("/")
    return text.replace(root + "/", "") if len(root) > 1 else text


# -- what earlier sessions did -------------------------------------------------------------------


@dataclass(slots=True)
class History:
    """What the sessions before the scored one did: error keys, commands, instruction keys."""

    failure_keys: set[str] = field(default_factory=set)
    command_bases: set[str] = field(default_factory=set)
    instruction_keys: set[str] = field(default_factory=set)

    def add(self, facts: SessionFacts) -> None:
        self.failure_keys.update(f.key for f in facts.failures)
        self.command_bases.update(u.base for u in facts.uses)
        self.instruction_keys.update(i.key for i in facts.instructions)


# -- what the session was served -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Injected:
    """One hook answer: at session start (`at` None) or for the prompt sent at `at`."""

    at: datetime | None
    tokens: int
    served: tuple[Served, ...]

    def before(self, moment: datetime, *, strictly: bool = False) -> bool:
        """Whether the session had this answer by `moment`."""
        if self.at is None:
            return True
        return self.at < moment if strictly else self.at <= moment


def served_commands(item: Served, root: str = "") -> set[str]:
    """The command bases a served item states (its backticked commands)."""
    return {command_base(typed.text) for typed in _typed(item, root)} - {""}


def served_tools(item: Served, root: str = "") -> set[tuple[str, str]]:
    """(tool, purpose) of the recognised commands a served item states."""
    return {(t.use.tool, t.use.purpose) for t in _typed(item, root) if t.use is not None}


def _typed(item: Served, root: str) -> list[TypedCommand]:
    return [
        typed
        for span in _BACKTICKED.findall(item.content)
        for typed in typed_commands(span, cwd=root or None, project_root=root or None)
    ]


def fix_stated(item: Served, failure: Failure) -> bool:
    """Whether a pitfall's text states the fix that worked for `failure` this time."""
    if failure.fix is None:
        return False
    text = " ".join(item.content.split())
    if failure.fix in ("variant", "setup"):
        wanted = " ".join(failure.fix_command.split())[:_FIX_CHARS]
        return bool(wanted) and wanted in text
    if failure.fix == "folder":
        return bool(failure.fix_command) and f"`{failure.fix_command[:_FIX_CHARS]}" in text
    return any(path in text for path in failure.files)


def touched(item: Served, facts: SessionFacts, root: str = "") -> bool:
    """Whether the session did something the item is about: its error happened, its command
    ran (the same base, or the same tool for the same purpose through another runner), its
    instruction was stated again, or a file it names was read or written."""
    if item.key and (
        item.key in {k for f in facts.failures for k in f.keys}
        or item.key in {i.key for i in facts.instructions}
    ):
        return True
    if served_commands(item, root) & facts.bases_run or served_tools(item, root) & facts.tools_run:
        return True
    text = item.content
    for path in facts.touched:
        name = PurePosixPath(path).name
        if path in text or ("." in name.strip(".") and len(name) >= 4 and name in text):
            return True
    return False


# -- the score -----------------------------------------------------------------------------------


@dataclass(slots=True)
class Tally:
    """Counts for one session or many (added up)."""

    sessions: int = 0
    failures: int = 0
    warned: int = 0
    fix_right: int = 0
    recipes: int = 0
    recipes_served: int = 0
    instructions: int = 0
    instructions_served: int = 0
    start_tokens: int = 0
    prompts: int = 0
    prompt_tokens: int = 0
    prompt_answers: int = 0
    served: int = 0
    untouched: int = 0
    misses: list[str] = field(default_factory=list)
    noise: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name in self.__dataclass_fields__:
            if name in ("misses", "noise"):
                getattr(self, name).extend(getattr(other, name))
            else:
                setattr(self, name, getattr(self, name) + getattr(other, name))


def score_session(
    facts: SessionFacts,
    history: History,
    start: Injected,
    prompts: Sequence[Injected],
    root: str = "",
) -> Tally:
    """Scores one session against the sessions before it and what it was served."""
    answers = [start, *prompts]
    tally = Tally(
        sessions=1,
        start_tokens=start.tokens,
        prompts=len(prompts),
        prompt_tokens=sum(p.tokens for p in prompts),
        prompt_answers=sum(1 for p in prompts if p.served),
    )
    seen: set[str] = set()
    for failure in facts.failures:
        if failure.key not in history.failure_keys or failure.key in seen:
            continue
        seen.add(failure.key)
        tally.failures += 1
        warnings = [
            item
            for answer in answers
            if answer.before(failure.at)
            for item in answer.served
            if item.type == "pitfall" and item.key in failure.keys
        ]
        if warnings:
            tally.warned += 1
            if any(fix_stated(item, failure) for item in warnings):
                tally.fix_right += 1
        else:
            tally.misses.append(f"{facts.session_id} failure not warned: {failure.key}")
    for use in facts.uses:
        if use.base not in history.command_bases:
            continue
        tally.recipes += 1
        if any(
            use.base in served_commands(item, root)
            for answer in answers
            if answer.before(use.at)
            for item in answer.served
        ):
            tally.recipes_served += 1
        else:
            tally.misses.append(f"{facts.session_id} command not served: {use.base}")
    said: set[str] = set()
    for instruction in facts.instructions:
        if instruction.key not in history.instruction_keys or instruction.key in said:
            continue
        said.add(instruction.key)
        tally.instructions += 1
        if any(
            item.type == "user_style" and item.key == instruction.key
            for answer in answers
            if answer.before(instruction.at, strictly=True)
            for item in answer.served
        ):
            tally.instructions_served += 1
        else:
            tally.misses.append(f"{facts.session_id} instruction not served: {instruction.key}")
    items: dict[tuple[str, str, str], Served] = {}
    for answer in answers:
        for item in answer.served:
            items.setdefault((item.type, item.key, item.content), item)
    tally.served = len(items)
    untouched = [item for item in items.values() if not touched(item, facts, root)]
    tally.untouched = len(untouched)
    tally.noise = [
        f"{facts.session_id} [{i.type}] {' '.join(i.content.split())}" for i in untouched
    ]
    return tally


def share(part: int, whole: int) -> str:
    """`part/whole NN %`, or `0/0 n/a`."""
    if whole == 0:
        return "0/0 n/a"
    return f"{part}/{whole} {100 * part / whole:.0f} %"
