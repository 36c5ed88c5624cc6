"""A change generated, reviewed by the user, then applied: a procedure seen once.

In any ecosystem a session may generate a change (a migration, a plan, scaffolding), stop so
the user can look at it, and apply it once approved: `rails generate migration` → the user
reviews → `rails db:migrate`, `terraform plan -out tfplan` → the user reviews → `terraform
apply tfplan`. The workflow rule waits for a procedure to come back; this one says it from one
session, because the pause for the user is itself the sign that it is how changes go here.

It is written when, in one session:

- a command that made something to review (a migration by the command table, or one whose
  words or output say it generated, created or planned something) was the last that did
  something before the assistant's reply, it passed, and the reply asks the user to review or
  approve ("please review it before I apply it", "OK to run it?", "Apply?");
- the user's next message approves it (possibly with a change: "add a default then go"),
  and is neither a refusal nor a question;
- before the user speaks again, a command that applies passed (a migration or a deploy by
  the command table, or an `apply` subcommand), other than the generating command itself.

The generating command is shown with the name it was given left open (`bin/rails generate
migration <name>`); the applying one as it was typed.
"""

from __future__ import annotations

import re
import shlex

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import commands, user_requests
from squirrel_memory.extractors.candidates import candidate
from squirrel_memory.extractors.evidence import CHECK_PURPOSES, Attempt, attempts
from squirrel_memory.extractors.evidence.workflows import looks_around
from squirrel_memory.models import MemoryCandidate, MemoryType, StoredEvent

IMPORTANCE = 0.55
MAX_STEP_CHARS = 80

#: The assistant stopping for the user's review or approval.
_ASKS_REVIEW = re.compile(
    r"\breview\b|\blook (?:it )?over\b|\btake a look\b|\bok(?:ay)? to (?:run|apply|migrate|"
    r"proceed|go)\b|\b(?:apply|migrate|proceed|run it|go ahead)\s*\?|\bshall i\b|"
    r"\bshould i (?:apply|run|migrate|proceed)\b|\bbefore i (?:apply|run|migrate)\b",
    re.IGNORECASE,
)
#: The user approving (a change may come with it).
_APPROVES = re.compile(
    r"^\W*(?:yes|yep|yeah|ok(?:ay)?|sure|go|apply|migrate|run it|do it|ship it|lgtm|approved?|"
    r"fine|good|great|perfect)\b|\b(?:looks (?:good|fine|ok(?:ay)?|right)|lgtm|go ahead|then go|"
    r"(?:apply|run|migrate) it|approved?)\b",
    re.IGNORECASE,
)
_REFUSES = re.compile(
    r"^\W*(?:no|nope|wait|stop|hold on|don't|do not)\b|\b(?:don't|do not) (?:apply|run|migrate)",
    re.IGNORECASE,
)
_APPLYING_PURPOSES = frozenset({"migrate", "deploy"})
_NAME_OPTIONS = frozenset({"--name", "-n", "-m", "--message"})
_VERB = re.compile(r"^[a-z][a-z-]*(?:[.:][a-z][a-z-]*)*$")


def reviewed_changes(events: list[StoredEvent]) -> list[MemoryCandidate]:
    """The generate → review → apply procedures of `events` (module docstring)."""
    if not events:
        return []
    root = events[0].project_id.rstrip("/")
    found = [a for a in attempts(commands(events), root) if a.run.ok is not None]
    said = {e.id: text for e, text in user_requests(events)}
    kept: dict[str, MemoryCandidate] = {}
    for n, event in enumerate(events):
        if event.event_type != EventType.ASSISTANT_RESPONSE:
            continue
        text = event.content.get("text")
        if not isinstance(text, str) or not _ASKS_REVIEW.search(text):
            continue
        answer = next((e for e in events[n + 1 :] if e.id in said), None)
        if answer is None or not _approves(said[answer.id]):
            continue
        generated = _generated(found, event)
        applied = _applied(found, answer, events, said)
        if generated is None or applied is None or generated.text == applied.text:
            continue
        first, then = _open_name(generated.text), applied.text
        if not first or len(first) > MAX_STEP_CHARS or len(then) > MAX_STEP_CHARS:
            continue
        slug = re.sub(r"[^a-z0-9]+", "-", f"{first} {then}".lower()).strip("-")[:48]
        kept.setdefault(
            slug,
            candidate(
                MemoryType.RECIPE,
                f"recipe:reviewed:{slug}",
                f"Changes are reviewed by the user before they are applied: `{first}` → the "
                f"user reviews → `{then}`.",
                tags=("recipe", "workflow", "review"),
                importance=IMPORTANCE,
                event_ids=(generated.run.event_id, event.id, answer.id, applied.run.event_id),
            ),
        )
    return list(kept.values())


def _approves(text: str) -> bool:
    words = text.strip()
    return (
        bool(_APPROVES.search(words))
        and not _REFUSES.search(words)
        and not words.rstrip().endswith("?")
    )


def _does_something(attempt: Attempt) -> bool:
    use = attempt.use
    if looks_around(attempt) or attempt.program == "git":
        return False
    return use is None or use.purpose not in (*CHECK_PURPOSES, "install")


def _generated(found: list[Attempt], reply: StoredEvent) -> Attempt | None:
    """The last command that did something before the reply, in its session, when it passed
    and made something to review: a migration, or what its words or output say it created."""
    before = [
        a
        for a in found
        if a.run.session_id == reply.session_id and a.run.timestamp <= reply.timestamp
    ]
    last = next((a for a in reversed(before) if _does_something(a)), None)
    if last is None or not last.run.ok:
        return None
    made = (last.use is not None and last.use.purpose == "migrate") or bool(
        _MAKES.search(" ".join(last.tokens[1:4])) or _MADE.search(last.run.output[:2_000])
    )
    return last if made else None


#: Words of a command that make something (`generate`, `make:migration`, `new`, `plan`).
_MAKES = re.compile(r"\b(?:gen|generate|g|make|new|scaffold|plan|create|add)\b|\bmake:", re.I)
#: Output saying something was made (`create db/migrate/…`, `created successfully`).
_MADE = re.compile(
    r"\b(?:creat(?:e|ed|ing)|generat(?:e|ed|ing)|wrote|written|scaffold\w*|saved the plan)\b",
    re.IGNORECASE,
)


def _applied(
    found: list[Attempt], answer: StoredEvent, events: list[StoredEvent], said: dict[str, str]
) -> Attempt | None:
    """The first applying command that passed after the approval, before the user spoke again."""
    later = [e.timestamp for e in events if e.id in said and e.timestamp > answer.timestamp]
    until = min(later, default=None)
    for attempt in found:
        if attempt.run.session_id != answer.session_id or attempt.run.timestamp <= answer.timestamp:
            continue
        if until is not None and attempt.run.timestamp >= until:
            break
        if _applies(attempt):
            return attempt if attempt.run.ok else None
    return None


def _applies(attempt: Attempt) -> bool:
    use = attempt.use
    if use is not None and use.purpose in _APPLYING_PURPOSES:
        return True
    words = [t for t in attempt.tokens[1:] if not t.startswith("-")]
    return bool(words) and words[0] == "apply"


def _open_name(text: str) -> str:
    """The command with the name it was given left open: its program, its verbs and its
    options kept, the first other word as `<name>` and the words after it left out."""
    try:
        words = shlex.split(text)
    except ValueError:
        return ""
    if not words or any(_RUN_STATE.match(w) for w in words):
        return ""
    shown = [words[0]]
    named = False
    skip = False
    for n, word in enumerate(words[1:], 1):
        if skip:
            skip = False
            continue
        if word.startswith("-"):
            value = words[n + 1] if n + 1 < len(words) else ""
            valued = bool(value) and not value.startswith("-") and "=" not in word
            if word in _NAME_OPTIONS and valued:
                shown.extend([word, "<name>"])
                skip = True
            elif valued and ("/" in value or "." in value or value.isidentifier()):
                shown.extend([word, shlex.quote(value)])
                skip = True
            else:
                shown.append(word)
            continue
        if named:
            continue
        if (_VERB.match(word) and n <= 3) or (n == 1 and "." in word):
            shown.append(word)  # a subcommand, or a script the program runs (`manage.py`)
            continue
        shown.append("<name>")
        named = True
    return " ".join(shown)


#: Words that are one run's state, not the command (an id, a path outside the project).
_RUN_STATE = re.compile(r"^(?:/|~)")
