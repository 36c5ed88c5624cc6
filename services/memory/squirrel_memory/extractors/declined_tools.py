"""A tool the user would not have: a command declined, then the same job done with another tool.

When the user declines a command (`npm install`) and the next command for the same purpose
that goes through uses another tool (`pnpm install`), the user's choice is known without a
word said: here that job is done with the second tool, not the first. Only a decline by the
user counts (not a failure: a missing program is no preference), only the very next command
of that purpose (a later one may be for another reason), and only a different tool: the same
tool run again with other arguments says the decline was about the arguments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_memory.extractors.activity import commands
from squirrel_memory.extractors.evidence.attempts import NEUTRAL_ECOSYSTEMS, Attempt, attempts
from squirrel_memory.models import StoredEvent

#: Importance of the style note: a choice shown by a decline, as a declined commit trailer's.
IMPORTANCE = 0.7
KEY_PREFIX = "tool:instead-of:"
_PURPOSE_WORDS = {
    "test": "run the tests",
    "lint": "lint",
    "format": "format",
    "typecheck": "type-check",
    "install": "install dependencies",
    "build": "build",
    "run": "run the app",
    "migrate": "migrate the database",
}
#: How Claude Code words a call the user declined (the call did not run).
_DECLINED = re.compile(r"doesn't want to proceed with this tool use", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class DeclinedTool:
    """A tool the user declined for a job another tool then did."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def _declined(attempt: Attempt) -> bool:
    return attempt.run.ok is None and bool(_DECLINED.search(attempt.run.output[:2_000]))


def declined_tools(events: list[StoredEvent]) -> list[DeclinedTool]:
    """The tools the user declined in `events` for a job the next such command did with
    another tool."""
    if not events:
        return []
    found: dict[str, DeclinedTool] = {}
    pending: dict[str, Attempt] = {}  # purpose → the declined attempt waiting for its sequel
    for attempt in attempts(commands(events), events[0].project_id):
        use = attempt.use
        if use is None or use.purpose not in _PURPOSE_WORDS:
            continue
        if use.ecosystem in NEUTRAL_ECOSYSTEMS:
            continue
        if _declined(attempt):
            pending[use.purpose] = attempt
            continue
        before = pending.pop(use.purpose, None)
        if before is None or before.use is None or attempt.run.ok is not True:
            continue
        old, new = before.use.tool, use.tool
        if old == new or attempt.run.session_id != before.run.session_id:
            continue
        found.setdefault(
            KEY_PREFIX + old,
            DeclinedTool(
                KEY_PREFIX + old,
                f"To {_PURPOSE_WORDS[use.purpose]} here, use `{attempt.text}`, not "
                f"`{before.text}`: the user declined `{old}` and `{new}` did the job.",
                (before.run.event_id, attempt.run.event_id),
            ),
        )
    return list(found.values())
