"""How a change is put into effect, as the assistant told the user after making it.

Some changes do nothing until something is restarted: a background job keeps running the old
script, a service keeps its old configuration. The assistant says so when it hands back ("To
apply the fix: the background process is already running with the old script, you'll need
to restart it:" and a shell block). That becomes a recipe for the edited file when the
closing answer of a turn that edited files holds a short shell block (one to four commands)
right after a sentence about applying, restarting or reloading. The steps are the
assistant's advice, not commands the session ran, and the memory says so. Without a block, one
sentence of that answer that ties the change taking effect to a restart or reload ("It'll be
auto-discovered on next server restart") is the recipe in the assistant's words; a plan, a
question or a hedge ("you might need to restart") is not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.events import EventType, Origin, is_user_voice
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.wording import sentence, strip_markdown
from squirrel_memory.models import StoredEvent

MAX_COMMANDS = 4
MAX_COMMAND_CHARS = 100
MAX_LEAD_CHARS = 200

#: Tried from a line's start only (from inside a line it would read that line again for each
#: of its characters).
_BLOCK = re.compile(
    r"^([^\n]*(?:\n[^\n]*)?)\n```(?:bash|sh|shell|zsh|console|fish)?\n(.*?)```", re.S | re.M
)
#: The sentence before the block says the change needs applying.
_APPLIES = re.compile(
    r"\b(?:restart|reload|re-?start|relaunch|re-?run|apply|take effect|pick(?:s)? up)\b", re.I
)
_PLAN = re.compile(r"\b(?:let me|i'll|i will|next,? i|should i|want me to)\b", re.I)
_PROMPT = re.compile(r"^\s*[$>]\s+")
_RESTART = re.compile(r"\b(?:restart|reload|re-?start|relaunch|reboot)(?:s|ed|ing)?\b", re.I)
_EFFECT = re.compile(
    r"\b(?:auto-?discover\w*|discovered|picked up|pick(?:s)? (?:it|them) up|load(?:s|ed)?|"
    r"take(?:s)? effect|register(?:s|ed)?|available|appear(?:s)?|see the change)\b",
    re.I,
)
_HEDGE = re.compile(r"\b(?:might|may|maybe|perhaps|probably|possibly|if|unless|not sure)\b", re.I)
_SENTENCES = re.compile(r"(?<=[.!])\s+|\n+")


@dataclass(frozen=True, slots=True)
class ApplySteps:
    """A recipe for putting an edited file's change into effect."""

    key: str
    content: str
    path: str
    event_ids: tuple[str, ...]


def _commands(block: str) -> list[str]:
    found: list[str] = []
    for raw in block.splitlines():
        line = _PROMPT.sub("", raw).strip()
        if not line or line.startswith("#"):
            continue
        if "`" in line or len(line) > MAX_COMMAND_CHARS:
            return []
        found.append(line)
    return found if 0 < len(found) <= MAX_COMMANDS else []


def _lead(text: str) -> str:
    """The sentence before the block, without a bold label ("To apply the fix:")."""
    flat = " ".join(strip_markdown(text).split()).rstrip(":")
    flat = re.sub(
        r"^(?:to apply (?:the|this) (?:fix|change)|note|next steps?)\s*:\s*", "", flat, flags=re.I
    )
    return flat if len(flat) <= MAX_LEAD_CHARS else ""


def _steps(answer: str) -> tuple[str, list[str]] | None:
    for match in _BLOCK.finditer(answer):
        lead = _lead(match.group(1))
        if not lead or not _APPLIES.search(lead) or _PLAN.search(lead):
            continue
        commands = _commands(match.group(2))
        if commands:
            return lead, commands
    return None


def _restart_sentence(answer: str) -> str | None:
    """The answer's one sentence saying the change takes effect on a restart, if any."""
    for raw in _SENTENCES.split(answer):
        text = " ".join(strip_markdown(raw).split())
        if (
            not text
            or len(text) > MAX_LEAD_CHARS
            or text.rstrip().endswith("?")
            or "`" in text
            or not _RESTART.search(text)
            or not _EFFECT.search(text)
            or _PLAN.search(text)
            or _HEDGE.search(text)
        ):
            continue
        return text.rstrip(".!")
    return None


def _recipe(path: str, answer: str) -> str | None:
    """The recipe the closing answer gives for `path`: its shell block after a sentence about
    applying the change, else its sentence tying the change to a restart."""
    steps = _steps(answer)
    if steps is not None:
        lead, commands = steps
        shown = ", then ".join(f"`{c}`" for c in commands)
        return sentence(
            f"To put a change to `{path}` into effect (the assistant's advice after "
            f"editing it): {lead[:1].lower()}{lead[1:]}; run {shown}"
        )
    said = _restart_sentence(answer)
    if said is None:
        return None
    return sentence(
        f"To put a change to `{path}` into effect (the assistant's word after editing it): "
        f"{said[:1].lower()}{said[1:]}"
    )


def _ends_turn(event: StoredEvent) -> bool:
    return (
        event.event_type == EventType.USER_MESSAGE
        and is_user_voice(event.origin)
        and event.origin != Origin.QUEUED
    )


def apply_steps(events: list[StoredEvent]) -> list[ApplySteps]:
    """How the changes of each turn are put into effect, when the closing answer says."""
    found: dict[str, ApplySteps] = {}
    edited: list[tuple[str, str]] = []
    closing: StoredEvent | None = None
    for event in [*events, None]:
        if event is None or _ends_turn(event):
            if edited and closing is not None:
                path, edit_id = edited[-1]
                text = _recipe(path, str(closing.content.get("text")))
                if path not in found and text:
                    found[path] = ApplySteps(f"apply:{path}", text, path, (edit_id, closing.id))
            edited, closing = [], None
            continue
        if event.event_type == EventType.CODE_CHANGE:
            raw = event.content.get("path")
            for item in [raw] if isinstance(raw, str) else list(event.file_paths):
                rel = relative_path(item, event.project_id) if item else ""
                if rel and not rel.startswith(("/", "~")):
                    edited.append((rel, event.id))
            closing = None
        elif (
            event.event_type == EventType.ASSISTANT_RESPONSE
            and edited
            and isinstance(event.content.get("text"), str)
        ):
            closing = event
    return list(found.values())
