"""Hook wire formats of Claude Code, Codex CLI and Gemini CLI: what each sends, what each accepts.

Each host runs `sqrl hook <host> <event>` with the event's JSON on stdin and reads stdout:

- Claude Code (hooks in `.claude/settings*.json`): `SessionStart` (source startup / resume /
  clear / compact), `UserPromptSubmit`, `Stop`, `SessionEnd`. Context reaches the model through
  `{"hookSpecificOutput": {"hookEventName": …, "additionalContext": …}}`.
- Codex CLI (`hooks.json`): `SessionStart`, `UserPromptSubmit`, `Stop`; the same output shape,
  with no other keys allowed inside `hookSpecificOutput`.
- Gemini CLI (`settings.json` hooks): `SessionStart`, `BeforeAgent`, `SessionEnd`; stdout must
  be JSON only, context in `{"hookSpecificOutput": {"additionalContext": …}}`.

An empty answer means "print nothing": the host then adds nothing to the conversation.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from squirrel_core.errors import InvalidArgumentError

MAX_CONTEXT_CHARS: Final = 9_000
"""Claude Code turns hook output past about 10,000 characters into a preview; stay under it."""


class Host(StrEnum):
    """An assistant whose hooks Squirrel answers."""

    CLAUDE = "claude"
    CODEX = "codex"
    GEMINI = "gemini"


class Moment(StrEnum):
    """What happened, whatever the host calls it."""

    SESSION_START = "session_start"
    PROMPT = "prompt"
    TURN_END = "turn_end"
    SESSION_END = "session_end"


EVENTS: Final[dict[Host, dict[str, Moment]]] = {
    Host.CLAUDE: {
        "SessionStart": Moment.SESSION_START,
        "UserPromptSubmit": Moment.PROMPT,
        "Stop": Moment.TURN_END,
        "SessionEnd": Moment.SESSION_END,
    },
    Host.CODEX: {
        "SessionStart": Moment.SESSION_START,
        "UserPromptSubmit": Moment.PROMPT,
        "Stop": Moment.TURN_END,
    },
    Host.GEMINI: {
        "SessionStart": Moment.SESSION_START,
        "BeforeAgent": Moment.PROMPT,
        "SessionEnd": Moment.SESSION_END,
    },
}
"""Every (host, event) Squirrel answers, and what it means."""

LOADED_FILES: Final[dict[Host, tuple[str, ...]]] = {
    Host.CLAUDE: ("CLAUDE.md", "CLAUDE.local.md", ".claude/CLAUDE.md"),
    Host.CODEX: ("AGENTS.md", "AGENTS.override.md"),
    Host.GEMINI: ("GEMINI.md",),
}
"""The project instruction files each host loads into every session itself. What Squirrel read
only from them is not injected into that host's context (it stays searchable, and the other
hosts get it)."""

IMPORTING_HOSTS: Final = frozenset({Host.CLAUDE, Host.GEMINI})
"""The hosts that expand an `@path` import in their instruction files into the file it names
(`host_imports`): what those files import is loaded too."""

_MAX_FIELD_CHARS: Final = 100_000


@dataclass(frozen=True, slots=True)
class HookInput:
    """One hook call, host-neutral. Empty strings where the host sent nothing."""

    host: Host
    event: str
    moment: Moment
    cwd: str
    session_id: str
    transcript_path: str
    prompt: str
    source: str


def moment_of(host: str, event: str) -> tuple[Host, Moment]:
    """The host and moment for a host's event name; `InvalidArgumentError` when unknown."""
    try:
        known = Host(host)
    except ValueError:
        hosts = ", ".join(h.value for h in Host)
        raise InvalidArgumentError(f"unknown host {host!r}; expected one of {hosts}") from None
    moment = EVENTS[known].get(event)
    if moment is None:
        names = ", ".join(EVENTS[known])
        raise InvalidArgumentError(f"{known.value} has no hook {event!r} here; expected {names}")
    return known, moment


def _text(payload: dict[str, Any], *names: str, cap: int | None = _MAX_FIELD_CHARS) -> str:
    for name in names:
        value = payload.get(name)
        if isinstance(value, str):
            return value[:cap]
    return ""


#: What a host puts inside the prompt it hands a hook: the Gemini CLI wraps the context its
#: hooks gave (this session's start, an earlier prompt's) in `<hook_context>` tags within the
#: user's message. Those words are not the user's task.
_INJECTED = re.compile(r"<hook_context>.*?</hook_context>", re.DOTALL | re.IGNORECASE)


def _typed(prompt: str) -> str:
    """The words the user typed: the prompt without the hook output a host placed in it (read
    whole, before any cut, so a long block cannot lose its closing tag)."""
    return _INJECTED.sub(" ", prompt).strip() if "<hook_context>" in prompt.lower() else prompt


def parse_input(host: str, event: str, payload: object) -> HookInput:
    """Reads a host's hook JSON (already decoded). Unknown fields are ignored; missing ones are
    empty. Raises `InvalidArgumentError` for an unknown host or event or a non-object payload."""
    known, moment = moment_of(host, event)
    if not isinstance(payload, dict):
        raise InvalidArgumentError("a hook's input must be a JSON object")
    return HookInput(
        host=known,
        event=event,
        moment=moment,
        cwd=_text(payload, "cwd"),
        session_id=_text(payload, "session_id", "sessionId"),
        transcript_path=_text(payload, "transcript_path", "transcriptPath"),
        prompt=_typed(_text(payload, "prompt", "user_prompt", cap=None))[:_MAX_FIELD_CHARS],
        source=_text(payload, "source", "trigger"),
    )


def render_output(hook: HookInput, context: str) -> str:
    """What to print for `context` in this host's format; "" (print nothing) when empty or when
    the event takes no context."""
    if not context or hook.moment not in (Moment.SESSION_START, Moment.PROMPT):
        return ""
    if len(context) > MAX_CONTEXT_CHARS:
        context = context[: MAX_CONTEXT_CHARS - 1].rstrip() + "…"
    specific: dict[str, str] = {"additionalContext": context}
    if hook.host is not Host.GEMINI:
        specific = {"hookEventName": hook.event, **specific}
    return json.dumps({"hookSpecificOutput": specific}, ensure_ascii=False)
