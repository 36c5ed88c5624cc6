"""Where the assistant's closing reports stand in a session, with what backs each.

A closing report is the main agent's last reply of a turn that ran at least one tool (a reply
with no work behind it reports nothing) or whose user message attached a file the host read in
(`file_reads.attached_file_texts`), about this project (`elsewhere`); or the body the assistant
wrote for a pull request or a commit (a here-document on the line of a `gh pr create`, `glab mr
create` or `git commit` command that succeeded). Each comes with what the session's tools saw
before it (`tool_texts`), what the user said in the turn, and whether the turn changed anything:
a file written or edited, or a command that did something (not a look, nor a report of state)
and passed. A report the user's next message says did not hold ("no, …", "it still hangs",
"revert it") is left out. `closing_reports` reads what they state.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.events import EventType, is_user_voice
from squirrel_memory.extractors.activity import commands
from squirrel_memory.extractors.elsewhere import replies_elsewhere
from squirrel_memory.extractors.evidence import attempts
from squirrel_memory.extractors.evidence.state_looks import only_reports
from squirrel_memory.extractors.evidence.workflows import looks_around
from squirrel_memory.extractors.file_reads import attached_file_texts
from squirrel_memory.extractors.tool_texts import TOOL_EVENTS, seen_by_tools
from squirrel_memory.models import StoredEvent

#: The user's next message says the work did not hold: a report of work that later failed.
_FAILED_AFTER = re.compile(
    r"^\s*(?:no\b|nope\b)|\b(?:still (?:\w+s|\w+ing|fail|broken|doesn'?t|does not|not)|"
    r"does ?n[o']t work|did ?n[o']t work|not working|broke|broken|revert|undo|roll back)\b",
    re.IGNORECASE,
)
#: A command that creates a pull request or a commit, whose here-document is its body.
_CREATES = re.compile(r"\b(?:gh pr create|glab mr create|git commit)\b")
_HEREDOC = re.compile(r"<<-?\s*['\"]?(\w+)['\"]?[^\n]*\n(.*?)\n\s*\1\s*(?:\n|\)|$)", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Report:
    """A closing report: its event's index, and what the session's tools saw before it."""

    index: int
    seen: str
    #: What the user said in the turn: a report restating it is not the session's finding.
    said: str
    #: The report's text when it is not the reply's own (a pull request's or commit's body).
    body: str = ""
    #: Whether the turn changed anything: a file written or edited, or a command that did
    #: something (not a look) and passed.
    changed: bool = True


def closing_replies(events: list[StoredEvent]) -> list[Report]:
    """The closing reports of `events`: each turn's last main reply, after a tool ran."""
    elsewhere = replies_elsewhere(events)
    found: list[Report] = []
    seen: list[str] = []
    said = ""
    last = -1
    tools = False
    turn: list[StoredEvent] = []
    for index, event in enumerate(events):
        if event.event_type == EventType.USER_MESSAGE and is_user_voice(event.origin):
            if last >= 0 and tools:
                found.append(Report(last, "\n".join(seen), said, changed=_changed(turn)))
            turn = []
            text = event.content.get("text")
            if last >= 0 and tools and isinstance(text, str) and _FAILED_AFTER.search(text):
                found.pop()  # the user says the work did not hold
            said = text if isinstance(text, str) else ""
            # A file the user attached was read by the host: the reply may sum it up.
            attached = attached_file_texts(event)
            seen.extend(part for path, text in attached for part in (path, text))
            last, tools = -1, bool(attached)
            continue
        if event.sidechain:
            continue
        if event.event_type in TOOL_EVENTS:
            seen.extend(seen_by_tools(event))
            tools = tools or event.event_type == EventType.TOOL_CALL
            turn.append(event)
        elif event.event_type == EventType.ASSISTANT_RESPONSE and event.id not in elsewhere:
            last = index
    if last >= 0 and tools:
        found.append(Report(last, "\n".join(seen), said, changed=_changed(turn)))
    return found


#: An option that edits a file in place (`sed -i`, `perl -pi -e`): a change, whatever program.
_IN_PLACE = re.compile(r"^(?:-[a-z]*i\S*|--in-place\S*)$")


def _changed(turn: list[StoredEvent]) -> bool:
    """Whether a turn's tools changed anything: a file written or edited, or a command that did
    something (not a look nor a report of state) and passed. A failed or refused edit, and a
    check that only lists what it would change, change nothing."""
    if any(e.event_type == EventType.CODE_CHANGE for e in turn):
        return True
    if not turn:
        return False
    for attempt in attempts(commands(turn), turn[0].project_id):
        if not attempt.run.ok:
            continue
        words = attempt.tokens[1:]
        look = looks_around(attempt) or only_reports(attempt.program, words)
        if not look or any(_IN_PLACE.match(w) for w in words):
            return True
    return False


def _body(event: StoredEvent) -> str:
    """The body a shell command of `event` writes for a pull request or a commit it creates
    (a here-document on the same line as `gh pr create`, `glab mr create` or `git commit`),
    or ""."""
    given = event.content.get("input")
    command = given.get("command") if isinstance(given, dict) else None
    if not isinstance(command, str) or not _CREATES.search(command):
        return ""
    heredoc = _HEREDOC.search(command)
    return heredoc.group(2) if heredoc else ""


def _failed(event: StoredEvent) -> bool:
    code = event.content.get("exit_code")
    return event.content.get("is_error") is True or (isinstance(code, int) and code != 0)


def written_bodies(events: list[StoredEvent]) -> list[Report]:
    """The pull request and commit bodies the main agent wrote in `events` with a command that
    succeeded, each with what the session's tools saw before it."""
    found: list[Report] = []
    seen: list[str] = []
    said = ""
    pending: Report | None = None
    for index, event in enumerate(events):
        if event.event_type == EventType.USER_MESSAGE and is_user_voice(event.origin):
            text = event.content.get("text")
            said = text if isinstance(text, str) else ""
            if found and _FAILED_AFTER.search(said) and found[-1].said != said:
                found.pop()  # the user says the work did not hold
            continue
        if event.sidechain:
            continue
        if pending is not None and event.event_type == EventType.TOOL_RESULT:
            if not _failed(event):
                found.append(pending)
            pending = None
        if event.event_type == EventType.TOOL_CALL and (body := _body(event)):
            pending = Report(index, "\n".join(seen), said, body)
        seen.extend(seen_by_tools(event))
    return found
