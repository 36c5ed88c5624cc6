"""How the tests are run, as the assistant told the user in a reply, when the session never
ran that command.

An ordinary session often ends with the assistant saying how to check the change ("You can run
the tests with `busted spec/`.", "- Tests: `composer test`") without running it: the
command came from a file it read, a build it set up, or what it knows of the project. The rule,
the same in every ecosystem:

- the text is a reply of the session's own assistant (a subagent's report has its own rule,
  `delegated_commands`);
- a sentence of it says how the tests are run ("run the tests with", "to run the tests:",
  "tests run via", "you can test it with") and holds a code span that is a whole command whose
  own words make it a test command (`busted spec/`, `mvn test`, `ctest`), not negated before it;
  or a line labels one such command with the role ("- Tests: `composer test`");
- the sentence asks nothing (a question, "should I…"), announces nothing the assistant is
  about to do ("Let me run…", "I'll run…": its run says more), is no step of a plan's task
  list ("- [ ] Run all unit tests: `npm run test`") or row of a table, names no failure, and
  names no other repository ("upstream", another project's folder, a web address), and
  follows no look at another place in its turn without a read of the project's own
  (`elsewhere.replies_elsewhere`: "The SDK runs `pnpm test`" after `cd ../sdk && cat …`);
- the session never ran the command, alone or as one step of a line (`cd app && npm test`):
  a command that ran and passed has its own recipe, and one that only failed is no way to run
  the tests.

One recipe per session, the last such statement: "The assistant said to run the tests with
`busted spec/`."
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.commands import is_test_command
from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import commands, split_segments
from squirrel_memory.extractors.delegated_commands import (
    FAILED,
    labelled_commands,
    named_commands,
    names_elsewhere,
)
from squirrel_memory.extractors.elsewhere import replies_elsewhere
from squirrel_memory.models import StoredEvent

KEY = "recipe:replied"
#: Below a subagent's word for a command (0.45): the assistant's own word, never seen to run.
IMPORTANCE = 0.4
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
#: A sentence that says how the tests are run.
_HOW = re.compile(
    r"\b(?:run|running|execute|executing)\b[^.!?\n]{0,30}?\b(?:tests?|test suite|specs?)\b"
    r"|\b(?:tests?|test suite|specs?)\b[^.!?\n]{0,20}?\b(?:with|via|using|by running)\b"
    r"|\btest (?:it|this|the change|your change)\b[^.!?\n]{0,15}?\b(?:with|via|using|by)\b",
    re.IGNORECASE,
)
#: Something asked or announced rather than stated: a question, the assistant's next step, a
#: step of a plan's task list ("- [ ] Run all unit tests: `npm run test`"), a table's row.
_NOT_STATED = re.compile(
    r"\?\s*$|^\W*(?:should|shall|do you|would you|want me|can i)\b|^[-*+]\s+\[[ xX]?\]|^\|"
    r"|\b(?:let me|let's|i'll|i will|i'm going to|i am going to|next,? i)\b",
    re.IGNORECASE,
)
#: Another repository the sentence is about.
_OTHER = re.compile(
    r"\b(?:upstream|third[- ]party|another (?:repo|repository|project)|their (?:repo|repository))\b"
    r"|\bhttps?://",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class RepliedCommand:
    """The session's recipe from the assistant's word: its key, statement and event."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def _said_tests(text: str, project_id: str) -> list[str]:
    """The test commands `text` (one reply) says how to run the tests with, in order."""
    found: list[str] = []
    for sentence in _SENTENCE.split(text):
        if not _HOW.search(sentence) or _NOT_STATED.search(sentence.strip()):
            continue
        if FAILED.search(sentence) or _OTHER.search(sentence):
            continue
        if names_elsewhere(sentence, project_id):
            continue
        found += [c for p, c in named_commands(sentence, passed=False) if p == "test"]
    if not _OTHER.search(text):
        found += [c for p, c in labelled_commands(text, project_id) if p == "test"]
    return [c for c in found if _runs_tests(c)]


def _runs_tests(command: str) -> bool:
    """Whether `command` is one a user runs to test, not a folder or file named in passing
    (`test/` in a table of the layout)."""
    return not command.split(maxsplit=1)[0].endswith("/") and is_test_command(command)


def replied_commands(events: list[StoredEvent]) -> RepliedCommand | None:
    """The last test command the session's assistant told the user to run the tests with and
    the session never ran; None when there is none."""
    # A run counts by its whole line and by each command of it: `cd app && npm test` ran
    # `npm test` (a host may say where a command runs in its own line or beside it).
    ran = {
        " ".join(part.split())
        for run in commands(events)
        for part in (run.command, *split_segments(run.command))
    }
    elsewhere = replies_elsewhere(events)
    chosen: tuple[str, str] | None = None
    for event in events:
        if event.event_type != EventType.ASSISTANT_RESPONSE or event.sidechain:
            continue
        if event.id in elsewhere:
            continue  # a reply about what the session looked at in another place
        text = event.content.get("text")
        if not isinstance(text, str):
            continue
        said = [c for c in _said_tests(text, event.project_id) if c not in ran]
        if said:
            chosen = (said[-1], event.id)
    if chosen is None:
        return None
    command, event_id = chosen
    return RepliedCommand(
        KEY, f"The assistant said to run the tests with `{command}`.", (event_id,)
    )
