"""An executable a running program could not start: kept as a pitfall of the environment.

A program that starts another one by name reports, when that name is not on its `PATH`, an
error whose shape says exactly that, whatever the program is written in: Node's `spawn rg
ENOENT` (`spawnSync`, `Error: spawn …`), Go's `exec: "protoc": executable file not found in
$PATH`. The shell's own "command not found" lines are `missing_tools`'s; these come from
inside a program the session ran or whose log it read, so the next session learns that the
program needs that executable installed where it runs. A failure counts when either holds:

- a failed command's output holds the line (the error is the command's failure), and no run
  of the session started that executable and passed;
- an assistant reply quotes the error in a code span and, in the same reply, gives a command
  that checks or installs that executable (`command -v rg`, `which rg`, `rg --version`, a
  line with `install`): the reply read the error as the executable missing, not as an error
  the code handles or a test expects.

The pitfall reads "`<program>` could not be started where the project's program ran:
`<error>` (no executable of that name on its `PATH`)." then, from the reply, "Check with
`<check>`." and "The assistant's install step: `<install>`." when they were given.
"""

from __future__ import annotations

import re

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import commands
from squirrel_memory.extractors.lessons import clipped
from squirrel_memory.extractors.missing_tools import MissingTool
from squirrel_memory.models import StoredEvent

MAX_FAILURES = 2
MAX_COMMAND_CHARS = 120
MAX_STEP_CHARS = 100
#: Characters of a command's output looked through for the error.
MAX_OUTPUT_CHARS = 20_000

_NAME = r"[\w./+-]{1,80}"
#: The errors of a program that could not start another by name (Node, Go).
_SPAWN = (
    re.compile(rf"\bspawn(?:Sync)? (?P<name>{_NAME}) ENOENT\b"),
    re.compile(
        rf"\bexec: \"(?P<name>{_NAME})\": executable file not found in [$%]PATH%?",
    ),
)
_SPAN = re.compile(r"`([^`\n]{1,200})`")
#: A reply's code blocks and code spans, in the order it gives them.
_PARTS = re.compile(r"```[^\n]*\n(?P<block>.*?)```|`(?P<span>[^`\n]{1,200})`", re.DOTALL)
_INSTALL = re.compile(r"^(?!#)\S.*(?<![\w-])install(?![\w-])")


def spawn_error(text: str) -> tuple[str, str]:
    """(the executable's name, the error as quoted) for the first spawn error in `text`."""
    for shape in _SPAWN:
        found = shape.search(text)
        if found:
            return found.group("name").rsplit("/", 1)[-1], found.group(0)
    return "", ""


def spawn_failures(events: list[StoredEvent]) -> list[MissingTool]:
    """The executables a program could not start, from failed commands' outputs and from
    replies that quote the error and say how to check or install the executable."""
    runs = [run for run in commands(events) if not run.by_user]
    found: list[MissingTool] = []
    seen: set[str] = set()
    for run in runs:
        if run.ok is not False:
            continue
        program, error = spawn_error(run.output[:MAX_OUTPUT_CHARS])
        if not program or program.lower() in seen:
            continue
        if any(
            other.ok
            and other.session_id == run.session_id
            and any(tokens[0].rsplit("/", 1)[-1] == program for tokens in other.segments)
            for other in runs
        ):
            continue
        command = clipped(run.command, MAX_COMMAND_CHARS)
        if not command:
            continue
        seen.add(program.lower())
        content = (
            f"`{program}` could not be started where the project's program ran: `{command}` "
            f"failed with `{error}` (no executable of that name on its `PATH`)."
        )
        found.append(MissingTool(f"pitfall:missing:{program.lower()}", content, (run.event_id,)))
    for event in events:
        if len(found) >= MAX_FAILURES:
            break
        if event.event_type != EventType.ASSISTANT_RESPONSE or event.sidechain:
            continue
        text = event.content.get("text")
        if not isinstance(text, str):
            continue
        quoted = next(
            ((p, e) for span in _SPAN.findall(text) for p, e in [spawn_error(span)] if p),
            None,
        )
        if quoted is None or quoted[0].lower() in seen:
            continue
        program, error = quoted
        check, install = _steps(text, program)
        if not check and not install:
            continue
        seen.add(program.lower())
        content = (
            f"`{program}` could not be started where the project's program ran: `{error}` "
            "(no executable of that name on its `PATH`)."
        )
        if check:
            content += f" Check with `{check}`."
        if install:
            content += f" The assistant's install step: `{install}`."
        found.append(MissingTool(f"pitfall:missing:{program.lower()}", content, (event.id,)))
    return found[:MAX_FAILURES]


def _steps(text: str, program: str) -> tuple[str, str]:
    """(the command the reply gives to check `program`, the install command it gives for it)
    from the reply's code blocks and code spans, in order; "" for each not given. An install
    command counts when it names a package and either names `program` or comes after the
    check: an install elsewhere in the reply, or of the project's dependencies, is another
    step."""
    lines = [
        " ".join(line.split())
        for part in _PARTS.finditer(text)
        for line in (part.group("block") or part.group("span") or "").splitlines()
        if line.strip()
    ]
    named = re.escape(program)
    checks = (
        re.compile(rf"^(?:command -v|which|type|where|hash) {named}$"),
        re.compile(rf"^{named} (?:--version|-V|version)$"),
    )
    at = next((i for i, line in enumerate(lines) if any(c.match(line) for c in checks)), -1)
    word = re.compile(rf"(?<![\w./-]){named}(?![\w-])")
    install = next(
        (
            line
            for i, line in enumerate(lines)
            if _INSTALL.search(line)
            and _installs_a_package(line)
            and len(line) <= MAX_STEP_CHARS
            and (word.search(line) or (at >= 0 and i > at))
        ),
        "",
    )
    return (lines[at] if at >= 0 else ""), install


def _installs_a_package(line: str) -> bool:
    """Whether an install command names a package to install: `apt-get install ripgrep`, not
    the project's own dependencies (`pnpm install`, `pip install -r requirements.txt`)."""
    words = line.split()
    after = words[words.index("install") + 1 :] if "install" in words else []
    return any(
        not w.startswith("-") and "/" not in w and not re.search(r"\.\w{1,5}$", w) for w in after
    )
