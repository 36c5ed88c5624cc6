"""A command whose failure the shell hid: `tool run 2>&1 | head -50` exits 0 when `head` does.

Assistants often cut a command's output short with a pipe (`| head`, `| tail`, `| cat`), and
a shell reports the exit status of the pipe's last command, so a tool that refused to run
still reads as passed; so does a command followed by a fallback that always succeeds (`||
true`, `|| :`, `|| echo …`, `|| exit 0`). Its output says otherwise: an error line of the
tool's own (`Error: can't load config …`, `error[E0425]: …`, `fatal: …`, `panic: …`, a
traceback, `command not found`) or a test summary that counts failures (`1 failed, 4
passed`), or a runner's report of failed tests without counts (Go's `--- FAIL: TestPost
(0.00s)` and `FAIL <package> 0.01s`, `reported_tests.failed_tests`). Such a run counts as
failed, so the rules that learn from a failure and the change
that fixed it read it as the failure it was. Nothing else changes: a run without such a pipe
or fallback keeps its exit status (a tool that printed an error and exited 0 chose to pass),
a pipe into a filter that decides the status itself (`grep`) keeps it, and an output that
ends with a passing test summary is a pass whatever it logged on the way. Nor does a command
that only shows data (`cat app.log | tail`, `docker logs api | head`, `git log | cat`, `curl …
| head`): an error line in what it printed is the data's, not its own failure.

Nor does a shell hide a program it could not start: `java -version; gradle --version; ls`
exits 0 when `ls` does, but the shell's own "not found" line for a program one of the
command's simple commands starts (`bash: line 1: java: command not found`) says that step never
ran, so the run counts as failed whatever came after it (`not_found`).

Nor does a run whose cut output kept no error line, when the assistant's next reply says the
program failed (`pip3 install esptool 2>&1 | tail -5`, then "pip3 is blocked by macOS PEP
668"): the reply names the program the run started and says it was blocked, refused or
failed, in a sentence that is no condition or guess ("if pip3 fails, …").
"""

from __future__ import annotations

import dataclasses
import re

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import CommandRun
from squirrel_memory.extractors.evidence.not_found import not_found_lines
from squirrel_memory.extractors.evidence.reported_tests import failed_tests
from squirrel_memory.extractors.evidence.typed_runs import failed, passed
from squirrel_memory.models import StoredEvent

#: Programs that only show or cut what they are given: their exit status says nothing of the
#: command before them.
_VIEWERS = frozenset({"head", "tail", "cat", "less", "more", "tee", "column", "fold", "nl"})
#: A pipe (`|`, not `||`): the stages of a simple command are split on it.
_PIPE = re.compile(r"(?<!\|)\|(?!\|)")
#: Programs whose output is data they show (a file, a log, a listing, a reply): an error line
#: in it is not theirs.
_READERS = _VIEWERS | frozenset(
    {"grep", "egrep", "rg", "sed", "awk", "jq", "yq", "echo", "printf", "ls", "find", "tree"}
    | {"curl", "wget", "journalctl", "strings", "sort", "uniq", "wc", "cut", "diff", "xxd"}
)
#: `git` subcommands that show history or changes.
_GIT_SHOWS = frozenset({"log", "show", "diff", "blame", "reflog", "grep"})
#: A word that asks a tool for a log it keeps (`docker logs`, `kubectl logs`, `gh run view --log`).
_LOG_WORDS = frozenset({"logs", "--log", "--log-failed"})
#: A line in which the tool reports that it failed, at the start of the line.
_ERROR_LINE = re.compile(
    r"^\s*(?:(?:error|fatal|panic)(?:\[[\w-]+\])?\s*:"
    r"|(?-i:[A-Z]\w*(?:Error|Exception)):\s"
    r"|traceback \(most recent call last\)"
    r"|npm err!)"
    r"|: command not found\s*$",
    re.IGNORECASE,
)
#: A fallback at the end of the command that makes any failure exit 0.
_FALLBACK = re.compile(r"\|\|\s*(?:true|:|echo\b[^|&;]*|exit\s+0)\s*$")
#: Output lines read for an error line (the shown part of a cut output is short).
MAX_LINES = 200


def status_hidden(command: str) -> bool:
    """Whether the shell's exit status says nothing of the command's tool: its last simple
    command pipes into a viewer, or the line ends in a fallback that always succeeds."""
    return piped_to_viewer(command) or bool(_FALLBACK.search(command.strip()))


def shows_data(command: str) -> bool:
    """Whether the last simple command's first program only shows data: a file, a log, a
    listing, history (`cat`, `docker logs`, `git log`, `curl`)."""
    parts = split_segments_raw(command)
    if not parts:
        return False
    words = re.split(r"\|\|?", parts[-1], maxsplit=1)[0].split()
    if not words:
        return False
    program = words[0].rsplit("/", 1)[-1]
    if program == "git":
        shown = [w for w in words[1:] if not w.startswith("-")]
        return bool(shown) and shown[0] in _GIT_SHOWS
    return program in _READERS or any(w in _LOG_WORDS for w in words[1:])


def piped_to_viewer(command: str) -> bool:
    """Whether the command's last simple command pipes into a program that only shows text."""
    parts = split_segments_raw(command)
    if not parts:
        return False
    stages = _PIPE.split(parts[-1])
    if len(stages) < 2:
        return False
    words = stages[-1].split()
    return bool(words) and words[0].rsplit("/", 1)[-1] in _VIEWERS


def split_segments_raw(command: str) -> list[str]:
    """The command's simple commands with their pipes kept (`split_segments` drops them)."""
    parts = (part.strip() for part in re.split(r"&&|;|\n", command))
    return [part for part in parts if part]


def error_line(output: str) -> str:
    """The first line of `output` in which a tool reports that it failed; "" when none does."""
    for line in output.splitlines()[:MAX_LINES]:
        if _ERROR_LINE.search(line):
            return line.strip()
    return ""


def hidden_failure(run: CommandRun) -> bool:
    """Whether `run` passed only because the shell hid the failure its output reports (an
    error line, or a test summary that counts failures)."""
    if run.ok is not True or not status_hidden(run.command) or shows_data(run.command):
        return False
    output = run.output
    return (
        failed(output) or failed_tests(output) or (bool(error_line(output)) and not passed(output))
    )


def unstarted_program(run: CommandRun) -> bool:
    """Whether `run` passed although the shell said it could not find a program one of its
    simple commands starts (`java -version; ls`: `ls` gave the status, `java` never ran)."""
    if run.ok is not True:
        return False
    started = {tokens[0].rsplit("/", 1)[-1] for tokens in run.segments}
    return any(program in started for program, _line in not_found_lines(run.output))


#: What a reply says of a program that did not do its work.
_SAID_FAILED = (
    r"\b(?:(?:is|was|were|are|got|gets)\s+(?:blocked|refused|rejected|denied|not allowed)"
    r"|failed|fails|errored|did ?n[o']t work|does ?n[o']t work|won'?t work)\b"
)
#: A sentence that only supposes a failure, or says something passed beside it ("npm test
#: passed; the earlier npm install failed").
_SUPPOSED = re.compile(
    r"\b(?:if|unless|whether|in case|might|may|could|would|passe[sd]|succeeded|works|worked)\b",
    re.IGNORECASE,
)


def said_failed(run: CommandRun, reply: str) -> bool:
    """Whether `reply` says the program `run` started (the last simple command's, before its
    pipe) was blocked or failed, in a sentence that neither only supposes it nor says something
    passed, of a run whose output ends in no passing summary."""
    parts = split_segments_raw(run.command)
    words = _PIPE.split(parts[-1])[0].split() if parts else []
    if not words or passed(run.output):
        return False
    program = re.escape(words[0].rsplit("/", 1)[-1])
    said = re.compile(rf"(?<![\w/.-]){program}\b[^.\n]{{0,60}}?{_SAID_FAILED}", re.IGNORECASE)
    return any(
        said.search(sentence) and not _SUPPOSED.search(sentence)
        for sentence in re.split(r"(?<=[.!?])\s+|\n", reply)
    )


def _next_replies(events: list[StoredEvent]) -> dict[str, str]:
    """Each command's event id → the text of the assistant's first reply after it in its
    session."""
    waiting: dict[str | None, list[str]] = {}
    replies: dict[str, str] = {}
    for event in events:
        if event.event_type == EventType.ASSISTANT_RESPONSE:
            text = event.content.get("text")
            if isinstance(text, str) and text.strip():
                for event_id in waiting.pop(event.session_id, []):
                    replies[event_id] = text
        elif event.event_type in (EventType.COMMAND_RUN, EventType.TEST_RUN):
            waiting.setdefault(event.session_id, []).append(event.id)
    return replies


def with_piped_outcomes(
    runs: list[CommandRun], events: list[StoredEvent] | None = None
) -> list[CommandRun]:
    """`runs` with each run whose failure the shell hid marked as failed; `events`, when
    given, hold the replies that may say so (`said_failed`)."""
    replies = _next_replies(events) if events else {}
    return [
        dataclasses.replace(run, ok=False)
        if hidden_failure(run)
        or unstarted_program(run)
        or (
            run.ok is True
            and status_hidden(run.command)
            and not shows_data(run.command)
            and said_failed(run, replies.get(run.event_id, ""))
        )
        else run
        for run in runs
    ]
