"""Failures read from a log the assistant fetched, with the cause it named and the change made.

A hosted build, a deploy or a service fails somewhere else; the assistant fetches its log
with a command that itself succeeds (a CI job's failed-step log, a service's journal) and
names the error line in its answer. That becomes one lesson when all three are in the same
turn (before the user takes the floor again; a note queued while the assistant works
does not end it): the error line, quoted by the assistant and present in
the fetched output; a sentence that explains it (a cause or a negation, not a plan, a hedge
or a question; the summary after the change is preferred, said with hindsight); and an edit
made in answer, said as the lines it changed when they are few. The change is reported as
made, never as verified: the failing run happened outside the session.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from squirrel_core.events import EventType, Origin, is_user_voice
from squirrel_memory.extractors.activity import relative_path, split_segments
from squirrel_memory.extractors.differences import Edit, changed_lines, edits
from squirrel_memory.extractors.pitfalls import fingerprint_key, first_error_line, normalise_line
from squirrel_memory.extractors.reported import local_paths
from squirrel_memory.extractors.wording import sentence, without_bold
from squirrel_memory.markdown_links import unlinked
from squirrel_memory.models import StoredEvent

#: Longest quoted error, cause and command kept (characters).
MAX_ERROR_CHARS = 140
MAX_CAUSE_CHARS = 240
MAX_COMMAND_CHARS = 100

_CODE_SPAN = re.compile(r"`([^`\n]{8,200})`")
_ERRORISH = re.compile(
    r"\berror\b|\bfail(?:ed|ure|s)?\b|\bfatal\b|denied|not found|no such|cannot|can't|"
    r"\bundefined\b|unresolved|\bpanic\b|exception|refused|timed out|unexpected|missing",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(*])")
#: A sentence that explains: a cause or a negation.
_EXPLAINS = re.compile(
    r"\b(?:because|due to|caused by|doesn'?t|does not|don'?t|do not|can'?t|cannot|isn'?t|"
    r"is not|aren'?t|are not|wasn'?t|was not|won'?t|never|requires?|is missing|are missing|"
    r"so the \w+ fails?)\b",
    re.IGNORECASE,
)
#: A guess, a plan, a question or the fix itself: not the cause.
_NOT_CAUSE = re.compile(
    r"\b(?:likely|probably|possibly|perhaps|maybe|might|may|could|seems?|i think|i suspect|"
    r"let me|let's|i'll|i will|we'll|we will|want me|should i)\b|^(?:the )?fix\b|^(?:fix|"
    r"solution|next|to fix|to apply)\b|\bor\b.*\binstead\b",
    re.IGNORECASE,
)
_MARKUP = re.compile(r"__|^\s*(?:[-*+•]|\d+[.)]|#+)\s+")
_REDIRECT = re.compile(r"(?<!\s)\s+\d?>&?\d?\S*|(?<!\s)\s+\d?>>?\s*\S+")
#: The mark the parsers leave where they cut a long output.
_CUT = re.compile(r"…\[truncated \d+ chars\]\s*$")
_LONG_NUMBER = re.compile(r"(?<![\w-])\d{6,}(?![\w-])")


@dataclass(frozen=True, slots=True)
class LogFailure:
    """A failure from a fetched log: key, statement, the events behind it, files changed."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    files: tuple[str, ...]


def _quoted_error(answer: str, output: str) -> str:
    """The first code span of `answer` that is an error line of `output`, or "". When the
    stored output was cut short (the assistant saw all of it), an error-like span counts if
    what is stored already holds an error line."""
    cut = bool(_CUT.search(output[-200:])) and bool(first_error_line(output))
    for match in _CODE_SPAN.finditer(answer):
        quoted = match.group(1).strip()
        if len(quoted.split()) >= 3 and _ERRORISH.search(quoted) and (quoted in output or cut):
            return quoted
    return ""


def _sentences(text: str) -> list[str]:
    prose = re.sub(r"```.*?(?:```|$)", " ", text, flags=re.DOTALL)
    prose = unlinked(prose)
    found: list[str] = []
    for paragraph in prose.split("\n"):
        flat = " ".join(without_bold(_MARKUP.sub("", paragraph)).split())
        found.extend(s.strip() for s in _SENTENCE.split(flat) if s.strip())
    return found


def _cause(answers: list[str], error: str) -> str:
    """The first sentence of `answers` that explains the failure, or ""."""
    for answer in answers:
        for text in _sentences(answer):
            if text.endswith((":", "?")) or len(text) > MAX_CAUSE_CHARS or text.count("`") % 2:
                continue
            if _NOT_CAUSE.search(text) or not _EXPLAINS.search(text):
                continue
            if error in text and len(text) < len(error) + 40:
                continue  # the error restated, not explained
            return text.rstrip(".")
    return ""


def _pairs(edit: Edit) -> list[tuple[str, str]]:
    """(removed, added) lines of a small edit, paired in order; [] when it is not small or
    not a line-for-line replacement."""
    removed, added = changed_lines(edit)
    if not edit.before or not removed or len(removed) != len(added):
        return []
    return list(zip(removed, added, strict=True))


def _change(made: list[Edit], files: tuple[str, ...]) -> str:
    """How the edits of the turn are said: the lines of one small edit, else the files."""
    if not files:
        return ""
    if len(made) == 1 and len(files) == 1 and (pairs := _pairs(made[0])):
        said = " and ".join(f"`{old}` became `{new}`" for old, new in pairs)
        return f"changed in answer in {files[0]}: {said}"
    return f"changed in answer: {', '.join(files[:2])}"


def _changed_paths(event: StoredEvent) -> list[str]:
    """The project-relative paths a code change wrote (never one outside the project)."""
    path = event.content.get("path")
    found = [
        relative_path(p, event.project_id)
        for p in ([path] if isinstance(path, str) else event.file_paths)
        if p
    ]
    return [p for p in found if not p.startswith(("/", "~"))]


def _fetch(command: str) -> str:
    """The command as it can be typed again: its first part, redirections gone, run ids
    written as `<id>`."""
    parts = split_segments(command)
    head = _REDIRECT.sub("", parts[0]) if parts else ""
    head = _LONG_NUMBER.sub("<id>", head).strip()
    return head if 0 < len(head) <= MAX_COMMAND_CHARS and "`" not in head else ""


def _failed(content: dict[str, Any]) -> bool:
    """Whether the command itself failed (a non-zero exit code, an error flag)."""
    if content.get("is_error") in (True, "True", "true"):
        return True
    code = content.get("exit_code")
    try:
        return code is not None and float(code) != 0
    except (TypeError, ValueError):
        return False


def log_failures(events: list[StoredEvent]) -> list[LogFailure]:
    """Failures the assistant read in fetched logs and answered with an edit, in order."""
    found: dict[str, LogFailure] = {}
    all_edits = {e.event_id: e for e in edits(events)}
    for index, event in enumerate(events):
        content: dict[str, Any] = event.content
        output = content.get("output")
        if event.event_type != EventType.COMMAND_RUN or not isinstance(output, str):
            continue
        if _failed(content):
            continue  # a command that failed itself is a failed attempt, not a fetched log
        error, ids = "", [event.id]
        answers_before: list[str] = []
        answers_after: list[str] = []
        made: list[Edit] = []
        files: dict[str, None] = {}
        for later in events[index + 1 :]:
            if (
                later.event_type == EventType.USER_MESSAGE
                and is_user_voice(later.origin)
                and later.origin != Origin.QUEUED  # a note typed mid-turn does not end it
            ):
                break
            text = later.content.get("text")
            if later.event_type == EventType.ASSISTANT_RESPONSE and isinstance(text, str):
                if not error:
                    error = _quoted_error(text, output)
                    if not error:
                        break  # the next answer does not name an error of this output
                    ids.append(later.id)
                (answers_after if made or files else answers_before).append(text)
            elif later.id in all_edits and error:
                made.append(all_edits[later.id])
            elif later.event_type == EventType.CODE_CHANGE and error:
                files.update(dict.fromkeys(_changed_paths(later)))
                ids.append(later.id)
        if not error or not files:
            continue
        cause = _cause(answers_after, error) or _cause(answers_before, error)
        change = _change(made, tuple(files))
        if not cause or not change:
            continue
        shown = local_paths(error, event.project_id).replace("`", "'")[:MAX_ERROR_CHARS]
        fetched = _fetch(str(content.get("command") or ""))
        where = f" in a log read with `{fetched}`" if fetched else " in a fetched log"
        text = sentence(f"`{shown}` showed{where}: {cause}; {change}")
        key = fingerprint_key(normalise_line(error))
        if text and key not in found:
            found[key] = LogFailure(key, text, tuple(ids), tuple(files))
    return list(found.values())
