"""The steps one command-line tool takes an item through: an issue tracker's verbs, in order.

A session that works a ticket runs its tracker's verbs on it one after the other (`tk start
T-41`, `tk note T-41 '…'`, `tk done T-41`; `gh issue edit 42 …`, `gh issue close 42`): that is
how work is recorded in this project, seen in one session, in any ecosystem and whatever the
tool is called. It is written when, in one session:

- runs of one program that the command table does not know as a check, build or other tool
  (nor `git`, nor a look-around) name the same item: an id written as a tracker writes one
  (`T-41`, `ABC-123`, `#42`, an id carrying the tool's own name, `bd-a1b2` of `bd`, or a
  bare number after verbs naming an issue, a ticket or a task), after the program's verbs;
- those runs passed and use two verbs or more, one of them changing the item (not only
  `view`, `show`, `list`, `status`);

Each step is shown in the order first run, the item as `<id>` and free text as `"<text>"`.
"""

from __future__ import annotations

import re
import shlex

from squirrel_memory.extractors.activity import commands
from squirrel_memory.extractors.candidates import candidate
from squirrel_memory.extractors.evidence import Attempt, attempts
from squirrel_memory.extractors.evidence.workflows import looks_around
from squirrel_memory.models import MemoryCandidate, MemoryType, StoredEvent

IMPORTANCE = 0.5
MAX_STEPS = 5
MAX_STEP_CHARS = 60

_ITEM = re.compile(r"^(?:[A-Z][A-Z0-9]{0,9}-\d{1,6}|#?\d{1,6})$")
#: A tracker's own id (`T-41`, `ABC-123`, `#42`); a bare number is an item only when the verbs
#: say what kind (`issue close 42`), not a process, a port or a container.
_TRACKER_ID = re.compile(r"^(?:[A-Z][A-Z0-9]{0,9}-\d{1,6}|#\d{1,6})$")
_ITEM_NOUNS = frozenset(
    {"issue", "issues", "ticket", "tickets", "task", "tasks", "pr", "story", "bug", "card", "item"}
)
_VERB = re.compile(r"^[a-z][a-z-]{1,20}$")
_READ_ONLY = frozenset({"view", "show", "list", "ls", "status", "info", "get", "describe", "log"})


def item_steps(events: list[StoredEvent]) -> list[MemoryCandidate]:
    """The verbs each tool took one item through, per session (module docstring)."""
    if not events:
        return []
    root = events[0].project_id.rstrip("/")
    runs: dict[tuple[str, str, str], list[tuple[str, Attempt]]] = {}
    for attempt in attempts(commands(events), root):
        found = _item_step(attempt)
        if found is None or not attempt.run.ok:
            continue
        step, item = found
        where = (attempt.run.session_id or "", attempt.program, item)
        runs.setdefault(where, []).append((step, attempt))
    kept: dict[str, MemoryCandidate] = {}
    for (_session, program, _item), steps in runs.items():
        verbs = list(dict.fromkeys(step for step, _ in steps))
        if len(verbs) < 2 or all(v.split()[-1] in _READ_ONLY for v in verbs):
            continue
        shown = []
        for verb in verbs[:MAX_STEPS]:
            first = next(a for s, a in steps if s == verb)
            text = _template(first.text)
            if not text or len(text) > MAX_STEP_CHARS:
                break
            shown.append(f"`{text}`")
        else:
            key = f"recipe:item-steps:{program}"
            kept.setdefault(
                key,
                candidate(
                    MemoryType.RECIPE,
                    key,
                    f"With `{program}`, an item goes through these steps in order: "
                    f"{' → '.join(shown)}.",
                    tags=("recipe", "workflow", "tracker"),
                    importance=IMPORTANCE,
                    event_ids=tuple(a.run.event_id for _, a in steps[:10]),
                ),
            )
    return list(kept.values())


def _item_step(attempt: Attempt) -> tuple[str, str] | None:
    """(the tool's verbs, the item) a run names, or None when it names no item."""
    if attempt.use is not None or attempt.program == "git" or looks_around(attempt):
        return None
    words = list(attempt.tokens[1:])
    verbs: list[str] = []
    while words and _VERB.match(words[0]) and len(verbs) < 2:
        verbs.append(words.pop(0))
    if not verbs:
        return None
    typed = _ITEM if _ITEM_NOUNS.intersection(verbs) else _TRACKER_ID
    item = next((w for w in words[:2] if typed.match(w) or _own_id(attempt.program, w)), None)
    return (" ".join([attempt.program, *verbs]), item.lstrip("#")) if item else None


def _own_id(program: str, word: str) -> bool:
    """An id the tool writes with its own name (`bd-a1b2`, `bd-12` of `bd`), a digit in it."""
    head, dash, tail = word.partition("-")
    return (
        bool(dash)
        and head == program
        and 1 <= len(tail) <= 8
        and tail.isalnum()
        and any(c.isdigit() for c in tail)
    )


def _template(text: str) -> str:
    """The run with its item as `<id>` and free text as `"<text>"`."""
    try:
        words = shlex.split(text)
    except ValueError:
        return ""
    shown = []
    for word in words:
        if _ITEM.match(word) or _own_id(words[0].rsplit("/", 1)[-1], word):
            shown.append("<id>")
        elif " " in word:
            shown.append('"<text>"')
        else:
            shown.append(shlex.quote(word))
    return " ".join(shown)
