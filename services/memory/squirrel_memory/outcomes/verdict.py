"""What became of a memory a session was served: used, missed, contradicted or unused.

A session is read with the extractors' own readers (`activity.commands`, `evidence.attempts`,
`fixes.find_pitfalls`, `working_habits.user_instructions`), so its failures, commands and
instructions are what extraction sees (`session_activity`). Then each memory served to it gets
one outcome (`outcome_of`), from what happened after it was served:

- **missed**: it warned of an error (a pitfall with that error's key) and the error happened
  anyway; or it stated an instruction and the user had to state it again;
- **contradicted**: the command it states ran and failed every time; or the user stated the
  opposite of its instruction (never ↔ always);
- **used**: the command it states ran and worked (for a pitfall, the remedy it states after
  its failed command: that command is often the everyday test or type-check command, which a
  session runs anyway; a command it shows with the error it printed, `` `X` → `E` ``, is a
  failure, not advice), or a file it names (or a file in a folder it names, `tests/`) was read
  or written. A name counts whole (`cache.py` is not named by `test_cache.py`, nor a folder
  `test` by "pytest"), a folder a session searched is named only as itself (`src` is not named
  by `src/app.py`: every memory quoting a path under it would be "used"), and the source a
  memory cites ("per its README.md:", "per `tool --help`:") is where it was read, not advice;
  a module memory (`module:` key) is about the files it holds, which its lines show beside
  what it says (the session start's and the search's) though its text, the docstring of the
  file that speaks for the module, names none of them: one of those files read or written
  after it was served uses it;
- **unused**: none of these.

Nothing here writes: the caller decides where an outcome is recorded.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from pathlib import PurePosixPath

from squirrel_core.commands import typed_commands
from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import commands, relative_path, user_requests
from squirrel_memory.extractors.evidence import attempts, command_base
from squirrel_memory.extractors.fixes import find_pitfalls
from squirrel_memory.extractors.pitfall_memories import FOLDER_KEY_PREFIX
from squirrel_memory.extractors.pitfall_record import Change
from squirrel_memory.extractors.pitfalls import fingerprint_key
from squirrel_memory.extractors.working_habits import user_instructions
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
#: A folder a memory names in backticks, with its trailing slash (`test/`, `src/components/`).
_FOLDER = re.compile(r"`((?:[\w.-]+/)+)`")
_NEGATIVE = re.compile(r"^\s*(?:never|don'?t|do not|avoid|no)\b", re.IGNORECASE)
#: A command a pitfall shows with the error it printed (`` `ruff check a.py` → `E902 …` ``).
_SHOWN_FAILURE = re.compile(r"`[^`\n]{1,400}`\s*(?:→|->)\s*`[^`\n]{0,400}`")
#: The source a memory cites for what it says ("per its pyproject.toml:", "per `x --help`:",
#: "per docs/README.md:"): where its text was read, not a file or command it advises.
_CITED = re.compile(r"\bper (?:its )?(?:`[^`\n]{1,200}`|[^\s:]{1,200}):")
#: The key of a module memory (`extractors.module_facts`): its files are what it is about.
_MODULE_KEY = "module:"
#: A module memory's files that count: as many as its line in the brief shows
#: (`views.blocks.brief_modules`), its first (the file that speaks for it) first.
_MODULE_FILES = 5


class Outcome(StrEnum):
    """What became of a served memory in one session."""

    USED = "used"
    MISSED = "missed"
    CONTRADICTED = "contradicted"
    UNUSED = "unused"


# -- what a session did --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Failure:
    """A failed command of the session, its pitfall key, and the fix that worked (if seen)."""

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
class Run:
    """One simple command of the session: its stable head, tool and purpose, and its outcome."""

    at: datetime
    base: str
    text: str
    ok: bool | None
    tool: str = ""
    purpose: str = ""


@dataclass(frozen=True, slots=True)
class Instruction:
    """A standing rule or correction the user stated in a message."""

    at: datetime
    key: str
    content: str


@dataclass(frozen=True, slots=True)
class SessionActivity:
    """What a session did, read from its events, each thing with its time."""

    session_id: str
    prompts: tuple[tuple[datetime, str], ...]
    failures: tuple[Failure, ...]
    runs: tuple[Run, ...]
    instructions: tuple[Instruction, ...]
    #: (time, project-relative path) of every file read, searched or written.
    files: tuple[tuple[datetime, str], ...]

    @property
    def bases_run(self) -> frozenset[str]:
        return frozenset(r.base for r in self.runs if r.base)

    @property
    def tools_run(self) -> frozenset[tuple[str, str]]:
        """(tool, purpose) of every recognised command run, whatever its runner."""
        return frozenset((r.tool, r.purpose) for r in self.runs if r.tool)

    @property
    def touched(self) -> frozenset[str]:
        return frozenset(path for _, path in self.files)


def session_activity(session_id: str, events: Sequence[StoredEvent], root: str) -> SessionActivity:
    """The prompts, failures, commands, instructions and files of one session."""
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
    runs = tuple(
        Run(
            a.run.timestamp,
            a.base,
            a.text,
            a.run.ok,
            a.use.tool if a.use else "",
            a.use.purpose if a.use else "",
        )
        for a in found
    )
    requests = user_requests(ordered)
    position = {e.id: i for i, e in enumerate(ordered)}
    instructions: list[Instruction] = []
    for event, text in requests:
        index = position[event.id]
        after = index > 0 and ordered[index - 1].event_type in _ASSISTANT_ACTIONS
        for pref in user_instructions(text, after_assistant_action=after):
            instructions.append(Instruction(event.timestamp, pref.key, pref.content))
    files = [
        (e.timestamp, relative_path(path, e.project_id))
        for e in ordered
        for path in dict.fromkeys((*e.file_paths, *_change_paths(e)))
        if path
    ]
    return SessionActivity(
        session_id=session_id,
        prompts=tuple((event.timestamp, text) for event, text in requests),
        failures=failures,
        runs=runs,
        instructions=tuple(instructions),
        files=tuple(dict.fromkeys(files)),
    )


def _change_paths(event: StoredEvent) -> list[str]:
    if event.event_type != EventType.CODE_CHANGE:
        return []
    path = event.content.get("path")
    return [path] if isinstance(path, str) and path else [p for p in event.file_paths if p]


def _relative(text: str, root: str) -> str:
    root = root.rstrip("/")
    return text.replace(root + "/", "") if len(root) > 1 else text


# -- what a memory states ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Stated:
    """A command a memory states in backticks: its stable head, and its tool and purpose."""

    base: str
    tool: str = ""
    purpose: str = ""


def stated_commands(text: str, root: str = "") -> list[Stated]:
    """The commands a memory's text states in backticks, in order."""
    found: list[Stated] = []
    for span in _BACKTICKED.findall(text):
        for typed in typed_commands(span, cwd=root or None, project_root=root or None):
            base = command_base(typed.bare)
            if base:
                use = typed.use
                found.append(Stated(base, use.tool if use else "", use.purpose if use else ""))
    return found


def advice_of(memory_type: str, content: str) -> str:
    """The part of a memory's text that says what to do: a pitfall's remedy after its failed
    command and error (`X` failed with `E`; re-running it as `Y` worked), a whole other memory.
    A pitfall's failed command is often the project's everyday one (the test or type-check
    command), which a session runs whether or not it read the warning."""
    if memory_type == "pitfall":
        return _SHOWN_FAILURE.sub(" ", content.partition(";")[2])
    return content


def uncited(content: str) -> str:
    """`content` without the source it cites ("per its README.md:"): reading that source again
    is no use of the memory, which only repeats it."""
    return _CITED.sub(" ", content)


def names(content: str, text: str, *, folder: bool = False) -> bool:
    """Whether `content` names `text` (a path or a file name) whole: not inside a longer name
    (`cache.py` in `test_cache.py`, `test` in "pytest"); a `folder` only as itself, not as the
    start of a path through it (`src` in `src/app.py`)."""
    after = r"(?![\w/-])" if folder else r"(?![\w-])"
    return re.search(rf"(?<![\w.-]){re.escape(text)}{after}", content) is not None


def _matches(run: Run, stated: Sequence[Stated]) -> bool:
    return any(
        run.base == s.base or (bool(s.tool) and (run.tool, run.purpose) == (s.tool, s.purpose))
        for s in stated
    )


def negative(text: str) -> bool:
    """Whether an instruction forbids (never, don't, avoid) rather than asks."""
    return bool(_NEGATIVE.match(text))


# -- the outcome ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ServedMemory:
    """A memory as a session was served it: `served_at` None means at the session's start."""

    type: str
    key: str
    content: str
    served_at: datetime | None = None
    #: The files the memory holds (`MemoryItem.file_paths`); only a module memory's count, as
    #: what it is about (a recipe's or a fact's are where it was read, no advice).
    files: tuple[str, ...] = ()


def outcome_of(memory: ServedMemory, activity: SessionActivity, root: str = "") -> Outcome:
    """What became of `memory` in the session, from what happened after it was served."""

    def after(at: datetime, *, strictly: bool = False) -> bool:
        if memory.served_at is None:
            return True
        return at > memory.served_at if strictly else at >= memory.served_at

    if memory.key and any(
        memory.key in f.keys for f in activity.failures if after(f.at)
    ):  # its error happened anyway
        return Outcome.MISSED
    again = [i for i in activity.instructions if i.key == memory.key and after(i.at, strictly=True)]
    if again:
        if any(negative(i.content) != negative(memory.content) for i in again):
            return Outcome.CONTRADICTED
        return Outcome.MISSED
    content = uncited(memory.content)
    stated = stated_commands(advice_of(memory.type, content), root)
    ran = [r for r in activity.runs if r.ok is not None and after(r.at) and _matches(r, stated)]
    if ran:
        if any(r.ok for r in ran) or memory.type == "pitfall":
            # A pitfall's remedy that ran (its error, had it come, would make it missed) was
            # heeded; its failed command running again says nothing of the warning.
            return Outcome.USED
        return Outcome.CONTRADICTED
    folders = [f for f in (m.rstrip("/") for m in _FOLDER.findall(content)) if f not in (".", "..")]
    about = (
        {relative_path(f, root) for f in memory.files[:_MODULE_FILES]}
        if memory.key.startswith(_MODULE_KEY)
        else set()
    )
    for at, path in activity.files:
        name = PurePosixPath(path).name
        if name in ("", ".", ".."):
            # The project root or a parent (a search run from `.`) names no file: the text of
            # every memory holds a "." and would count as used.
            continue
        is_file = "." in name.strip(".")
        named = (
            names(content, path, folder=not is_file)
            or (is_file and len(name) >= 4 and names(content, name))
            or path in folders
            or any(path.startswith(folder + "/") for folder in folders)
            or path in about
        )
        if named and after(at):
            return Outcome.USED
    return Outcome.UNUSED
