"""An approved fix plan's lesson: what failed and why, as the plan says, and the change the
session made.

A plan approved in plan mode comes back as the session's first message ("Implement the
following plan:", then the plan). A fix plan says what broke and why under its context
heading, often quoting the error, and names the file it changes: "# Fix: Add `--trust` flag
to Cursor Agent CLI invocation / ## Context / The Cursor Agent CLI now requires explicit
workspace trust when running non-interactively. … ``` ⚠ Workspace Trust Required … ```". The
next session that meets the same error needs exactly that. The rule, the same in every
ecosystem:

- the message opens with the plan hand-off (`planned_checks.HAND_OFF`), in the session itself
  (not a subagent's), names no place outside the project, and the user does not drop the plan
  later in the session (`user_plans.DROPPED_PLAN`);
- its title says it is a fix ("# Fix: …", "# Bugfix - …", "# Hotfix: …"; "# Plan: Fix …");
- its context section ("## Context", "## Problem", "## Background", "## Root cause") opens on
  a sentence of prose (its first, at most `MAX_WHY_CHARS`: a longer one is not cut);
- it names, in a code span or after "File:", a file the session then changed: the plan was
  carried out here (a plan never acted on says nothing of what fixed it).

The error is the first line of a fenced block in the context that reads as one (an error
word, or a warning sign); the memory quotes it. One pitfall per plan:
"<why> (`<error>`); the fix (an approved plan, carried out in the session): <what> in `<file>`."
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_memory.extractors.activity import changed_files, relative_path
from squirrel_memory.extractors.delegated_commands import names_elsewhere
from squirrel_memory.extractors.differences import edits
from squirrel_memory.extractors.lessons import clipped
from squirrel_memory.extractors.planned_checks import HAND_OFF, TRANSCRIPT_NOTE, approved_plans
from squirrel_memory.extractors.wording import key_slug
from squirrel_memory.extractors.written_checks import HEADING
from squirrel_memory.models import StoredEvent

KEY_PREFIX = "pitfall:plan:"
#: A lesson the user approved and the session carried out: as a labelled fix's.
IMPORTANCE = 0.6
MAX_WHY_CHARS = 240
MAX_ERROR_CHARS = 160
MAX_WHAT_CHARS = 160

_TITLE = re.compile(r"^[ \t]*#[ \t]+(?P<title>\S[^\n]*)$", re.MULTILINE)
_FIX_TITLE = re.compile(
    r"^(?:plan[ \t]*:[ \t]*)?(?:fix|bug[ -]?fix|hot[ -]?fix)(?:[ \t]*[:\-–—][ \t]*|[ \t]+)"
    r"(?P<what>\S.*)$",
    re.IGNORECASE,
)
_CONTEXT = re.compile(
    r"^[ \t]*#{2,6}[ \t]+(?:context|problem|background|root cause|the problem|what broke)"
    r"[ \t]*:?[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)
_FENCED = re.compile(r"^[ \t]*```[^\n]*\n(?P<body>.*?)^[ \t]*```", re.DOTALL | re.MULTILINE)
_ERRORISH = re.compile(
    r"\b(?:error|errors|failed|failure|fatal|exception|denied|refused|not found|no such|"
    r"cannot|can't|unable|required|invalid|panic(?:ked)?)\b|^[ \t]*[⚠✖✗×❌]",
    re.IGNORECASE,
)
#: A sentence's end: a full stop, a question or exclamation mark before a blank.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(])")
_CODE_SPAN = re.compile(r"`([^`\n]{2,200})`")
_FILE_LINE = re.compile(r"\bfiles?\b\**[ \t]*:\**[ \t]*(?P<path>[\w./-]+\.\w+)", re.IGNORECASE)
_PATH_LIKE = re.compile(r"^[\w.-]+(?:/[\w.-]+)*\.\w{1,8}(?::\d+)?$")
#: Markdown emphasis and links in a sentence, taken out.
_EMPHASIS = re.compile(r"\*\*|__")


@dataclass(frozen=True, slots=True)
class PlannedFix:
    """An approved fix plan's lesson: key, statement, the hand-off's event, the files changed."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    files: tuple[str, ...]


def approved_fixes(events: list[StoredEvent]) -> list[PlannedFix]:
    """The lessons of the fix plans approved in `events` and carried out there (see the
    module)."""
    own = [e for e in events if not e.sidechain]
    changed = set(changed_files(own)) | {edit.path for edit in edits(own)}
    if not changed:
        return []
    found: dict[str, PlannedFix] = {}
    for event, text in approved_plans(events):
        fix = plan_fix(text, event.project_id, changed)
        if fix is not None and fix[0] not in found:
            key, content, files = fix
            found[key] = PlannedFix(key, content, (event.id,), files)
    return list(found.values())


def plan_fix(
    text: str, project_id: str, changed: set[str]
) -> tuple[str, str, tuple[str, ...]] | None:
    """(key, statement, files) of the fix plan `text`, when it is one the session carried out
    (`changed`: the project-relative files it changed); None otherwise."""
    plan = TRANSCRIPT_NOTE.sub("", text[text.find(HAND_OFF) + len(HAND_OFF) :])
    if names_elsewhere(_FENCED.sub(" ", plan), project_id):
        return None
    title = _TITLE.search(plan)
    said = _FIX_TITLE.match(title.group("title").strip()) if title else None
    what = clipped(said.group("what").strip().rstrip("."), MAX_WHAT_CHARS) if said else ""
    if not what:
        return None
    context = _section(plan)
    why = _first_sentence(_FENCED.sub("\n\n", context))
    if not why:
        return None
    files = tuple(f for f in _named_files(plan, project_id) if f in changed)
    if not files:
        return None
    error = _error_line(context)
    shown = f" (`{error}`)" if error else ""
    what = what[:1].lower() + what[1:] if what[1:2].islower() else what
    where = " and ".join(f"`{f}`" for f in files[:2])
    content = (
        f"{why.rstrip('.')}{shown}; the fix (an approved plan, carried out in the session): "
        f"{what} in {where}."
    )
    return f"{KEY_PREFIX}{key_slug(what) or 'fix'}", content, files


def _section(plan: str) -> str:
    """The text under the plan's context heading, up to the next heading ("" without one)."""
    heading = _CONTEXT.search(plan)
    if heading is None:
        return ""
    rest = plan[heading.end() :]
    end = HEADING.search(rest)
    return rest[: end.start()] if end else rest


def _first_sentence(prose: str) -> str:
    """The first sentence of the first paragraph of `prose`, whole, or ""."""
    paragraph = next((p for p in re.split(r"\n[ \t]*\n", prose) if p.strip()), "")
    flat = _EMPHASIS.sub("", " ".join(paragraph.split()))
    if not flat or flat.startswith(("-", "*", "|", ">")):
        return ""  # a list or a table is no sentence of prose
    first = _SENTENCE_END.split(flat, maxsplit=1)[0]
    return clipped(first, MAX_WHY_CHARS)


def _error_line(context: str) -> str:
    """The first line of a fenced block in `context` that reads as an error, or ""."""
    for block in _FENCED.finditer(context):
        for raw in block.group("body").splitlines():
            line = " ".join(raw.split()).replace("`", "'")
            if line and _ERRORISH.search(line):
                return clipped(line, MAX_ERROR_CHARS)
    return ""


def _named_files(plan: str, project_id: str) -> list[str]:
    """The project files the plan names in a code span or after "File:", in order."""
    prose = _FENCED.sub(" ", plan)
    named = [m.group("path") for m in _FILE_LINE.finditer(prose)]
    named += [m.group(1).strip() for m in _CODE_SPAN.finditer(prose)]
    files: dict[str, None] = {}
    for name in named:
        if _PATH_LIKE.match(name):
            path = relative_path(name.split(":", 1)[0], project_id)
            files.setdefault(path.removeprefix("./"), None)
    return list(files)
