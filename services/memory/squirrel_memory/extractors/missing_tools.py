"""A program the shell could not find, and no run of it passed in the session: kept as a pitfall
of the environment the project is worked in.

A command whose shell says the program is not there (`bash: nvcc: command not found`, `zsh:
command not found: tree`, `sh: 1: protoc: not found`, `fish: Unknown command: just`, `'make'
is not recognized as an internal or external command`, `The term 'dotnet' is not recognized`)
teaches the next session something whatever the language: that program is not installed, or
not on `PATH`, where the work happens, so a step that needs it fails until it is. The pairing of
failures with fixes (`fixes`) keeps such a failure only when a run of the same intent passed
after it (`pytest` after activating the environment); a program that stayed missing has no
pass, and before this rule left no trace. A failure counts when all of these hold:

- the assistant's command failed (or a tool that ran one for it, a skill or a slash command,
  failed and quotes the command in a code span), and one of its output's lines is the shell's
  own "not found" line for a program (the line's whole shape, not a word in a log);
- that program is the first word of one of the command's simple commands (wrappers and
  environment assignments off): a program missing on a remote host or in a container the
  command reached (`ssh host nvcc`, `docker exec app tree`) or inside a script the command ran
  is not this environment's;
- no run in the session started that program and passed, before or after: a program found
  once is installed, and a later pass means a fix (`fixes` says which); and no later passing
  command names it as an argument (`cargo install just`): the session may have installed it;
  nor is the same command passing later with the program's name spelled a letter or two
  otherwise (`bundle exec rpsec`, then `bundle exec rspec`): a typo, not a missing program.

The pitfall reads "`<program>` was not found on `PATH` where the session ran: `<command>`
failed with `<line>`, and no run of it passed in the session." — or, when the command started
the program through the project's own environment (`bundle exec`, `uv run`, `poetry run`),
"`<program>` is not in the project's environment that `<runner>` runs in: …" (bundler's
`command not found: rspec` says the bundle lacks it, not the machine) — then, when a later
passing command of the session served the same purpose with another program (the tests run
with `bin/rails test` after `bundle exec rspec`), "The same step passed as `<command>`.", with
the first sentence of the assistant's next reply that names the program and states something
(`lessons.stated_sentences`) after "The assistant's reading:". The sentence is the
assistant's; the failure is what the memory claims.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.commands import classify_command
from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import CommandRun, commands
from squirrel_memory.extractors.evidence.not_found import missing_program
from squirrel_memory.extractors.lessons import clipped, replies, stated_sentences
from squirrel_memory.models import StoredEvent

#: A fact of the machine from one session's failure, below a pitfall a fix showed (0.5).
IMPORTANCE = 0.45
MAX_MISSING = 2
MAX_COMMAND_CHARS = 120
MAX_LINE_CHARS = 160
MAX_READING_CHARS = 200

_SPAN = re.compile(r"`([^`\n]{1,200})`")
#: Status marks ("✅", "❌") a reply's table puts beside a finding.
_PICTOGRAPH = re.compile("[\u2600-\u27bf\U0001f300-\U0001faff\ufe0f]")


@dataclass(frozen=True, slots=True)
class MissingTool:
    """A program the shell could not find: key, statement, the failure and reply events."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    files: tuple[str, ...] = ()


def _started(run: CommandRun, program: str) -> bool:
    """Whether `program` is the first word of one of `run`'s simple commands."""
    return any(tokens[0].rsplit("/", 1)[-1] == program for tokens in run.segments)


def missing_tools(events: list[StoredEvent]) -> list[MissingTool]:
    """The programs the shell could not find in `events` and that no run of the session found."""
    runs = [run for run in commands(events) if not run.by_user]
    found: list[MissingTool] = []
    seen: set[str] = set()
    for run in sorted([*runs, *_quoted_runs(events, runs)], key=lambda r: r.timestamp):
        if run.ok is not False:
            continue
        program, line = missing_program(run.output)
        if not program or program in seen or not _started(run, program):
            continue
        if (
            any(
                other.ok and other.session_id == run.session_id and _started(other, program)
                for other in runs
            )
            or _installed_after(runs, run, program)
            or _retyped(runs, run, program)
        ):
            continue
        seen.add(program)
        command = clipped(" ".join(run.command.split()), MAX_COMMAND_CHARS)
        shown = clipped(line, MAX_LINE_CHARS)
        where = _environment(run)
        missing = (
            f"is not in the project's environment that `{where}` runs in"
            if where
            else "was not found on `PATH` where the session ran"
        )
        content = (
            f"`{program}` {missing}: `{command}` failed with `{shown}`, and no run of it passed "
            "in the session."
        )
        instead = _passed_instead(runs, run, program)
        if instead:
            content += f" The same step passed as `{clipped(instead, MAX_COMMAND_CHARS)}`."
        reading, reply_id = _reading(events, run, program)
        if reading:
            content += f" The assistant's reading: {reading}."
        ids = (run.event_id, reply_id) if reply_id else (run.event_id,)
        found.append(MissingTool(f"pitfall:missing:{program.lower()}", content, ids))
        if len(found) == MAX_MISSING:
            break
    return found


#: Runners that start a program from the project's own environment (its bundle, its virtual
#: environment, its packages): a program they cannot find is missing from the project's
#: dependencies, not from the machine.
_ENVIRONMENT_RUNNERS = (
    ("bundle", "exec"),
    ("poetry", "run"),
    ("pipenv", "run"),
    ("uv", "run"),
    ("pdm", "run"),
    ("hatch", "run"),
    ("pnpm", "exec"),
    ("yarn", "exec"),
    ("npm", "exec"),
)


def _environment(run: CommandRun) -> str:
    """The project-environment runner (`bundle exec`) the failed command started the program
    through, or ""."""
    words = run.command.split()
    while words and "=" in words[0] and not words[0].startswith("-"):
        words = words[1:]  # environment assignments before the runner
    for runner in _ENVIRONMENT_RUNNERS:
        if tuple(words[:2]) == runner:
            return " ".join(runner)
    return ""


def _passed_instead(runs: list[CommandRun], failed: CommandRun, program: str) -> str:
    """The first later passing command of the session with the failed one's purpose (the tests,
    a lint) that starts another program: what the session ran instead, or ""."""
    use = classify_command(failed.command)
    if use is None or not use.purpose:
        return ""
    for other in runs:
        if (
            not other.ok
            or other.session_id != failed.session_id
            or other.timestamp <= failed.timestamp
            or _started(other, program)
        ):
            continue
        again = classify_command(other.command)
        if again is not None and again.purpose == use.purpose:
            return " ".join(other.command.split())
    return ""


def _retyped(runs: list[CommandRun], failed: CommandRun, program: str) -> bool:
    """Whether a later passing command of the session is the failed one with the program's
    name spelled otherwise by a letter or two (`bundle exec rpsec`, then `bundle exec
    rspec`): a typo in the command, not a program missing from the environment."""
    words = failed.command.split()
    for other in runs:
        if not other.ok or other.session_id != failed.session_id:
            continue
        if other.timestamp <= failed.timestamp:
            continue
        again = other.command.split()
        if len(again) != len(words):
            continue
        differ = [(a, b) for a, b in zip(words, again, strict=True) if a != b]
        if len(differ) == 1 and differ[0][0] == program and _misspelt(program, differ[0][1]):
            return True
    return False


def _misspelt(typed: str, meant: str) -> bool:
    """Whether `typed` is `meant` with at most two letters swapped, missing, extra or wrong
    (and both are at least three letters long)."""
    if min(len(typed), len(meant)) < 3 or abs(len(typed) - len(meant)) > 2:
        return False
    # Damerau-Levenshtein distance (optimal string alignment), small strings only.
    rows = [list(range(len(meant) + 1))]
    for i, a in enumerate(typed, 1):
        row = [i]
        for j, b in enumerate(meant, 1):
            cost = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (a != b))
            if i > 1 and j > 1 and a == meant[j - 2] and typed[i - 2] == b:
                cost = min(cost, rows[-2][j - 2] + 1)
            row.append(cost)
        rows.append(row)
    return rows[-1][-1] <= 2


def _installed_after(runs: list[CommandRun], failed: CommandRun, program: str) -> bool:
    """Whether a later passing command of the session names `program` as an argument (`cargo
    install just`, `brew install protobuf protoc`): the session may have installed it."""
    return any(
        other.ok
        and other.session_id == failed.session_id
        and other.timestamp > failed.timestamp
        and any(program in tokens[1:] for tokens in other.segments)
        for other in runs
    )


def _quoted_runs(events: list[StoredEvent], runs: list[CommandRun]) -> list[CommandRun]:
    """The failed commands another tool ran for the assistant (a skill, a slash command), as
    its failed result quotes them in a code span (`` !`tree -L 2` ``) with the shell's line."""
    ran = {run.event_id for run in runs}
    uses = {e.content.get("tool_use_id") for e in events if e.id in ran}
    quoted: list[CommandRun] = []
    for event in events:
        output = event.content.get("output")
        if (
            event.event_type != EventType.TOOL_RESULT
            or event.sidechain
            or event.content.get("is_error") is not True
            or event.content.get("tool_use_id") in uses
            or not isinstance(output, str)
        ):
            continue
        program, _line = missing_program(output)
        if not program:
            continue
        for span in _SPAN.findall(output[:2_000]):
            command = span.lstrip("!").strip()
            if command.split(" ", 1)[0] == program:
                quoted.append(
                    CommandRun(
                        event.id,
                        event.timestamp,
                        command,
                        ok=False,
                        output=output,
                        session_id=event.session_id,
                    )
                )
                break
    return quoted


def _reading(events: list[StoredEvent], run: CommandRun, program: str) -> tuple[str, str]:
    """The first stated sentence naming `program` of the assistant's replies after `run` and
    before the user's next message, and its reply's id; ("", "") when none names it."""
    start = next((i for i, e in enumerate(events) if e.id == run.event_id), len(events))
    turn: list[StoredEvent] = []
    for event in events[start + 1 :]:
        if event.event_type == EventType.USER_MESSAGE and not event.sidechain:
            break
        turn.append(event)
    named = re.compile(rf"(?<![\w.-]){re.escape(program)}(?![\w-])")
    for reply in replies([e for e in turn if not e.sidechain]):
        for sentence in stated_sentences(reply.text):
            if named.search(sentence):
                plain = _PICTOGRAPH.sub("", sentence).strip().rstrip(".")
                said = clipped(" ".join(plain.split()), MAX_READING_CHARS)
                if said:
                    return said, reply.event_id
    return "", ""
