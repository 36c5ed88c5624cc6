"""Claude Code hook output: a failing hook is an error of the session (a `tool_result` of
`hook:<name>`, with what the hook said: its stderr and stdout, a blocking hook's reason from
`blockingError`), context a hook adds is the hook's words; a stop hook reports its errors in a
`system` record; a hook the host cancelled (`hook_cancelled`: its timeout, or the turn
interrupted) did not finish, a failure too. The plain output of a hook whose output the host
gives the assistant (a session-start or prompt hook: `hook_success`, with what the assistant got
in `content`) is the hook's words as well, as the older `<session-start-hook>` wrapper was; a
hook answering in JSON has its context in its own `hook_additional_context` record (its
`content` is then empty), and other hooks' output (after a tool, at the end of a turn) the
assistant never sees. Claude Code 1.0 wrote every hook's outcome as a
`system` record's text: "PostToolUse:Edit [ruff check] failed with non-blocking status code 1:
<stderr>" (the name in bold, as terminal escapes) is a failure; "… completed successfully: …"
is none.
"""

from __future__ import annotations

import re
from typing import Any

from squirrel_core.events import Event, EventType, Origin
from squirrel_ingest.parsers.base import RecordContext, str_or_none, text_of
from squirrel_ingest.parsers.kept_values import cap_text
from squirrel_ingest.parsers.speaker import Utterance, said_events

#: Hooks whose plain output the host adds to the assistant's context.
_CONTEXT_HOOKS = frozenset({"SessionStart", "UserPromptSubmit"})


def hook_events(attachment: dict[str, Any], kind: str, ctx: RecordContext) -> list[Event] | None:
    """Hook output: failures count as errors of the session, added context is the hook's;
    None when the record says neither."""
    name = str_or_none(attachment.get("hookName")) or str_or_none(attachment.get("hookEvent"))
    code = attachment.get("exitCode")
    exit_code = code if isinstance(code, int) and not isinstance(code, bool) else None
    if kind == "hook_additional_context":
        text = text_of(attachment.get("content"))
        if text.strip():
            return said_events(ctx, [Utterance(Origin.HOOK, text)])
    elif kind == "hook_cancelled":
        # The host stopped the hook before it finished (its timeout, or the turn interrupted):
        # what it was to check was not checked.
        said = "timed out" if attachment.get("timedOut") is True else "cancelled"
        return [_hook_failure(ctx, name, f"the hook was {said} before it finished", exit_code)]
    elif "error" in kind or exit_code not in (None, 0):
        output = "\n".join(
            part
            for part in (
                _blocking_reason(attachment.get("blockingError")),
                text_of(attachment.get("stderr")),
                text_of(attachment.get("stdout")),
                text_of(attachment.get("content")),
            )
            if part.strip()
        )
        return [_hook_failure(ctx, name, output, exit_code)]
    elif kind == "hook_success" and _context_hook(attachment, name):
        text = text_of(attachment.get("content"))
        if text.strip() and not text.lstrip().startswith("{"):
            return said_events(ctx, [Utterance(Origin.HOOK, text)])
    return None


def _context_hook(attachment: dict[str, Any], name: str | None) -> bool:
    """Whether the hook is one whose plain output the assistant is given."""
    event = str_or_none(attachment.get("hookEvent")) or (name or "").split(":", 1)[0]
    return event in _CONTEXT_HOOKS


#: How much of a `system` record's text is looked at for a hook failure.
_SCAN_CHARS = 20_000
_ESCAPES = re.compile(r"\x1b\[[0-9;]*m")
#: A Claude Code 1.0 hook failure, as its `system` record says it.
_LEGACY_FAILURE = re.compile(
    r"(?P<name>[\w:|*.-]+) \[.*?\] failed with non-blocking status code (?P<code>-?\d{1,9})"
    r"(?::\s?(?P<output>.*))?",
    re.DOTALL,
)


def stop_hook_events(record: dict[str, Any], ctx: RecordContext) -> list[Event] | None:
    """A stop hook that reported errors, or a hook failure as Claude Code 1.0 wrote it; None
    for other system lines, the host's bookkeeping."""
    errors = record.get("hookErrors")
    if record.get("subtype") == "stop_hook_summary" and isinstance(errors, list) and errors:
        output = "\n".join(text_of(e) if not isinstance(e, str) else e for e in errors)
        return [_hook_failure(ctx, "Stop", output, None)]
    content = record.get("content")
    if record.get("subtype") is None and isinstance(content, str):
        failed = _LEGACY_FAILURE.match(_ESCAPES.sub("", content[:_SCAN_CHARS]))
        if failed is not None:
            output = failed.group("output") or ""
            return [_hook_failure(ctx, failed.group("name"), output, int(failed.group("code")))]
    return None


def _blocking_reason(value: object) -> str:
    """The reason a blocking hook gave: `{"blockingError": reason, "command": …}` as 2.1
    writes it, or the reason itself."""
    if isinstance(value, dict):
        value = value.get("blockingError")
    return value if isinstance(value, str) else ""


def _hook_failure(
    ctx: RecordContext, name: str | None, output: str, exit_code: int | None
) -> Event:
    content = {
        "tool": f"hook:{name or 'unknown'}",
        "tool_use_id": None,
        "output": cap_text(output),
        "is_error": True,
        "exit_code": exit_code,
    }
    return ctx.event(EventType.TOOL_RESULT, content, origin=Origin.HOOK)
