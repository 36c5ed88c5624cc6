"""The checks the assistant's report says its work passed, when the session never ran them.

A long session often survives as its first prompt and its end: the closing report says how the
work was checked ("Verified with `mix test` (212 tests, 0 failures) and `mix credo --strict`
(no issues).", "`stack build --pedantic` passes"), while the runs themselves are gone. Those
commands are how the project is tested, linted or built, in every ecosystem. The rule:

- the text is a reply of the session's own main agent (a subagent's report has its own rule,
  `delegated_commands`), not taken back by a later reply or the user's next message ("no,
  the tests still fail");
- a sentence of it says the command passed ("passes", "green", "clean", a checker's "0
  offenses" or "no type errors", as `delegated_commands` reads a report) or that the work was
  verified, tested or checked with it ("Verified with `…`", "Checked by running `…`"), and
  names no failure that no word before it negates ("none failing", "no test failures" name
  none; "none failing in `src/`, but `e2e/x.spec.ts` fails" does); a sentence that says what
  to run or what must hold ("Run `x` and make sure …", "both must pass") reports nothing;
- the code span is a whole command whose own words give a role through the command table
  (test, lint, format, type-check, build), not negated before it, naming no path of one
  machine, and its paragraph names no place outside the project;
- the session never ran the command, nor another of the same program for the same role (`php
  -l a.php` ran, `php -l b.php` is reported): what ran has its own recipe.

One recipe per session, the roles in the order first said: "The assistant reported passing:
to run the tests, `mix test`; to lint, `mix credo --strict`."
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import commands, split_segments
from squirrel_memory.extractors.delegated_commands import (
    named_commands,
    names_elsewhere,
    names_failure,
)
from squirrel_memory.extractors.elsewhere import replies_elsewhere
from squirrel_memory.extractors.finder_rows import Finder, one
from squirrel_memory.extractors.subagent_findings import taken_back
from squirrel_memory.models import MemoryType, StoredEvent
from squirrel_memory.repository.task_records import purpose_of

KEY = "recipe:verified"
#: The assistant's own word that a check passed, never seen to run: as a subagent's (0.45).
IMPORTANCE = 0.45
MAX_COMMANDS = 4
_WORDING = {
    "test": "to run the tests",
    "lint": "to lint",
    "format": "to format",
    "typecheck": "to type-check",
    "build": "to build",
}
_FENCE = re.compile(r"```.*?(?:```|$)", re.DOTALL)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
#: "Verified with `x`", "tested by running `x`", "checked using `x`": the work passed `x`.
_VERIFIED = re.compile(
    r"\b(?:verified|tested|checked|validated|confirmed)\s+(?:it\s+|this\s+|the \w+\s+)?"
    r"(?:with|by running|by|using|via)\s+`",
    re.IGNORECASE,
)
#: A sentence about what is still to do or what someone could do: no report of a pass.
_NOT_DONE = re.compile(
    r"\b(?:let me|i'll|i will|next|should|could|would|can you|please|once|before you|todo|"
    r"not yet|haven'?t|didn'?t)\b|\?",
    re.IGNORECASE,
)


#: A sentence that tells what to run or what must hold ("Run `x` and make sure it reports no
#: offenses", "both must pass"): a thing to do, not a report that it passed.
_TO_DO = re.compile(
    r"^\W*(?:run|use|try|check|make sure|ensure)\b|\b(?:must|make sure|ensure|needs? to|"
    r"ha(?:ve|s) to)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class VerifiedCommands:
    """The session's recipe from its reports: key, statement and the replies that said it."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def verified(text: str, project_id: str = "") -> list[tuple[str, str]]:
    """(purpose, command) for each command of a role `text` (one reply) says the work passed,
    in a paragraph naming no place outside the project `project_id` (when given)."""
    found: list[tuple[str, str]] = []
    for paragraph in _FENCE.sub(" ", text).split("\n\n"):
        if project_id and names_elsewhere(paragraph, project_id):
            continue
        found += _passed(paragraph)
    return found


def _passed(paragraph: str) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for sentence in _SENTENCE.split(paragraph):
        if _NOT_DONE.search(sentence) or _TO_DO.search(sentence) or names_failure(sentence):
            continue
        if _VERIFIED.search(sentence):
            # "Verified with `a` (…) and `b` (…)": every command of the sentence was run
            found += named_commands(sentence.replace("erified", "erified, passed"), passed=True)
        else:
            found += named_commands(sentence, passed=True)
    return found


def verified_commands(events: list[StoredEvent]) -> VerifiedCommands | None:
    """The commands the main agent's replies say the work passed and the session did not run;
    None when there are none."""
    ran = {
        " ".join(part.split()) for run in commands(events) for part in split_segments(run.command)
    }
    # what ran, by role and program: `php -l a.php` ran, so `php -l b.php` is said by its runs
    roles = {(use[0], c.split()[0]) for c in ran if c and (use := purpose_of(c)) is not None}
    elsewhere = replies_elsewhere(events)
    chosen: dict[str, str] = {}
    event_ids: list[str] = []
    for index, event in enumerate(events):
        if (
            event.event_type != EventType.ASSISTANT_RESPONSE
            or event.sidechain
            or event.id in elsewhere
        ):
            continue
        text = event.content.get("text")
        if not isinstance(text, str) or "`" not in text:
            continue
        if taken_back(events, index):
            continue
        for purpose, command in verified(text, event.project_id):
            if purpose in chosen or (purpose, command.split()[0]) in roles:
                continue
            if any(c == command or c.startswith(f"{command} ") for c in ran):
                continue  # `air format . 2>&1` ran: `air format .` has its runs
            chosen[purpose] = command
            if event.id not in event_ids:
                event_ids.append(event.id)
    if not chosen:
        return None
    listed = "; ".join(f"{_WORDING[p]}, `{c}`" for p, c in list(chosen.items())[:MAX_COMMANDS])
    return VerifiedCommands(KEY, f"The assistant reported passing: {listed}.", tuple(event_ids))


#: The finders' row of this rule.
VERIFIED_ROW = Finder(
    one(verified_commands), MemoryType.RECIPE, IMPORTANCE, lambda _f: ("recipe", "verified")
)
