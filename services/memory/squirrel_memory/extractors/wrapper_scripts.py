"""A shell script the session wrote that wraps one known command of the project.

Asked for "a script that runs the tests", a session writes a short shell file whose one command
line is the project's own command, often handing the script's arguments on (`"$@"`, `$1`).
Nobody need run it in the session, yet from then on it is how that command is run. The rule,
the same in every ecosystem and host:

- the final text of a file the session wrote (a write whose change was recorded; a later edit
  applied when its old text is found, else the file is left alone) is a shell script: a `#!`
  line naming a POSIX shell, or a `.sh` file;
- left once blank lines, comments, `set …` options and a `cd` into the script's own folder are
  set aside, exactly one command line remains, and the command table knows its program (a test
  runner, a build, a linter, a task runner's task): an arbitrary line says nothing;
- the statement names the file, what the command is for, the command as written, whether the
  script's arguments are passed on, where the file sits when at the root, and that it was made
  executable when a later `chmod +x` of it succeeded.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import PurePosixPath

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import CommandRun, relative_path
from squirrel_memory.extractors.file_writes import applied_calls
from squirrel_memory.extractors.manifests import in_project
from squirrel_memory.extractors.project_fact import Fact
from squirrel_memory.extractors.toolchain import classify
from squirrel_memory.models import StoredEvent

KEY_PREFIX = "wrapper_script:"
IMPORTANCE = 0.6
#: Scripts noted from one session at most, and the longest command line kept.
MAX_SCRIPTS = 2
MAX_COMMAND_CHARS = 160

_SHEBANG = re.compile(r"^#!\s*\S*?(?:/env\s+)?\b(?:ba|z|da|k)?sh\b")
#: Lines that prepare the run rather than being it: options, a `cd` to the script's folder.
_PREPARATION = re.compile(
    r"^(?:set\s+[-+]\w+.*|cd\s+[\"']?\$\(\s*dirname\b.*|cd\s+[\"']?\$\{?0.*)$"
)
_ARGUMENTS = re.compile(r"\$(?:@|\*|\{?[1-9]\}?)|\"\$@\"")
_CUT = re.compile(r"…\[truncated \d+ chars\]")
_PURPOSES = {"test": "runs the tests", "lint": "runs the linter", "build": "builds the project"}


@dataclass(frozen=True, slots=True)
class WrittenFile:
    """The final text of a file the session wrote, and the events that wrote it."""

    path: str
    text: str
    event_ids: tuple[str, ...]


def written_files(events: list[StoredEvent]) -> list[WrittenFile]:
    """The final text of each project file the session wrote whole, in order of first write."""
    recorded = applied_calls(events)
    files: dict[str, WrittenFile | None] = {}
    for event in events:
        if event.event_type != EventType.TOOL_CALL or not event.file_paths:
            continue
        if event.content.get("tool_use_id") not in recorded:
            continue  # rejected or failed: nothing was written
        tool_input = event.content.get("input")
        if not isinstance(tool_input, dict):
            continue
        path = relative_path(event.file_paths[0], event.project_id)
        if not in_project(path):
            continue
        content, old, new = (tool_input.get(k) for k in ("content", "old_string", "new_string"))
        if isinstance(content, str):
            files[path] = None if _CUT.search(content) else WrittenFile(path, content, (event.id,))
        elif (known := files.get(path)) and isinstance(old, str) and isinstance(new, str):
            found = old in known.text and not _CUT.search(new)
            text = known.text.replace(old, new, 1)
            files[path] = WrittenFile(path, text, (*known.event_ids, event.id)) if found else None
        elif path in files:
            files[path] = None  # changed in a way not followed: its final text is unknown
    return [f for f in files.values() if f is not None]


def wrapped_command(path: str, text: str) -> str | None:
    """The one command line of a shell script that runs a known command, or None."""
    lines = text.splitlines()
    if not lines:
        return None
    if lines[0].startswith("#!"):
        if not _SHEBANG.match(lines[0]):
            return None
    elif PurePosixPath(path).suffix != ".sh":
        return None
    stripped = (line.strip() for line in lines)
    body = [s for s in stripped if s and not s.startswith("#") and not _PREPARATION.match(s)]
    if len(body) != 1 or len(body[0]) > MAX_COMMAND_CHARS:
        return None
    command = re.sub(r"^exec\s+", "", body[0])
    if re.search(r"[|;&<>`]|\$\(", command):
        return None  # a pipeline or a list: more than one command
    try:
        tokens = shlex.split(command)
    except ValueError:
        return None
    return command if tokens and classify(tokens) is not None else None


#: A chmod mode that lets the file's owner run it: `+x`, `u+x`, `a+rx`, `755`, `0700`.
_OWNER_RUNS = re.compile(r"^(?:[ua]*\+[rwX]*x[rwX]*|0?[1357][0-7]{2})$")


def made_executable(path: str, runs: list[CommandRun]) -> tuple[str, ...]:
    """The event of a later successful `chmod` that lets the script's owner run it, if any."""
    for run in runs:
        tokens = run.command.split()
        modes = [t for t in tokens[1:] if _OWNER_RUNS.match(t)]
        if (
            run.ok is True
            and tokens[:1] == ["chmod"]
            and modes
            and any(t.rstrip("/").endswith(path) for t in tokens[1:] if t not in modes)
        ):
            return (run.event_id,)
    return ()


def wrapper_scripts(events: list[StoredEvent], runs: list[CommandRun]) -> list[Fact]:
    """Facts naming the scripts the session wrote around one known command of the project."""
    facts: list[Fact] = []
    for written in written_files(events):
        command = wrapped_command(written.path, written.text)
        if command is None:
            continue
        use = classify(shlex.split(command))
        does = _PURPOSES.get(use.purpose or "", "runs") if use else "runs"
        passed = ", passing its arguments on" if _ARGUMENTS.search(command) else ""
        chmod = made_executable(written.path, runs)
        where = []
        if "/" not in written.path:
            where.append("at the project root")
        if chmod:
            where.append("made executable with `chmod +x`")
        place = f" ({', '.join(where)})" if where else ""
        how = f"`{command}`"
        text = f"`{written.path}`{place} {does} with {how}{passed}."
        if does == "runs":
            text = f"`{written.path}`{place} runs {how}{passed}."
        facts.append(
            Fact(
                KEY_PREFIX + written.path,
                text,
                ("run", "script", *((use.purpose,) if use and use.purpose else ())),
                IMPORTANCE,
                (*written.event_ids, *chmod),
                (written.path,),
            )
        )
        if len(facts) >= MAX_SCRIPTS:
            break
    return facts
