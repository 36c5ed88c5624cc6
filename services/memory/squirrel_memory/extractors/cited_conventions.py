"""A convention of the project's written standards, as the assistant cited it and an edit of the
session applied it.

Fixing a page or a file, the assistant often names the rule the fix follows and where the
project states it: "**Line 83**: `200$` should be `$200` (currency symbol should come before
the amount, according to the content standards)", "`getUserID` should be `getUserId`, per the
style guide". The rule lives in a document of the project; the session applied it once; every
later change of the same kind needs it. The rule, the same for every ecosystem and kind of
file:

- the assistant's own text (a reply, or what it wrote for another agent) says that one code
  span should be (or read, or become) another, and cites, in brackets after it or after a
  comma, a written standard of the project: its standards, style guide, guidelines,
  conventions or rules by name ("the content standards", "our style guide"), or a Markdown file
  (`CONTRIBUTING.md`, `docs/STYLE.md`); "as you asked", "to be safe" or no citation say
  nothing, nor does a question;
- an edit of the same session after that text replaced exactly that span by the other in a
  file, and nothing else of the edited text (the edit is the fix the citation explains); a
  rule cited and not applied, or applied with other changes around it, says nothing.

One project fact a convention (its reason when the citation gives one, else the two spans),
with the spans and the file the edit fixed: "Per the project's content standards: currency
symbol should come before the amount (`200$` is written `$200`; applied in
`sources/platform/console/billing.md`)."
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_memory.extractors.differences import Edit, edits
from squirrel_memory.extractors.named_summary import assistant_texts
from squirrel_memory.extractors.wording import key_slug
from squirrel_memory.models import StoredEvent

KEY_PREFIX = "convention:cited:"
IMPORTANCE = 0.55
MAX_SPAN_CHARS = 60
MAX_CONVENTIONS = 3

#: A written standard of the project, by name ("the content standards", "our style guide",
#: "the project's naming conventions") or as a Markdown file (`CONTRIBUTING.md`).
_STANDARD = (
    r"(?:(?:the|our|this|its)\s+)?(?:(?:project|repo|repository|team)'s\s+)?"
    r"(?:(?:[a-z][\w-]*\s+){0,2}(?:standards?|style\s?guides?|guidelines?|conventions?|rules)"
    r"|`?[\w./-]*[A-Za-z][\w-]*\.md`?)"
)
_CITE = r"(?:according\s+to|per|as\s+(?:required|set\s+out|stated)\s+(?:by|in)|in\s+line\s+with)"
_SPANS = (
    rf"`(?P<old>[^`\n]{{1,{MAX_SPAN_CHARS}}})`\s+should\s+(?:instead\s+)?(?:be|read|become)\s+"
    rf"`(?P<new>[^`\n]{{1,{MAX_SPAN_CHARS}}})`"
)
#: "`a` should be `b` (reason, according to the standards)" or "…, per the style guide".
_CITED = re.compile(
    rf"{_SPANS}\s*(?:\((?:(?P<why>[^()\n]{{3,160}}?),?\s+)?{_CITE}\s+(?P<cited>{_STANDARD})\s*\)"
    rf"|,\s+{_CITE}\s+(?P<named>{_STANDARD})(?=[\s.;:!]|$))",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class CitedConvention:
    """One convention: key, statement, the file its edit fixed and the events it rests on."""

    key: str
    content: str
    path: str
    event_ids: tuple[str, ...]


def cited_rules(text: str) -> list[tuple[str, str, str, str]]:
    """(span, span it should be, the reason given or "", the standard cited) for each rule of
    a written standard `text` cites (module docstring); a question cites none."""
    found = []
    for match in _CITED.finditer(text):
        if text[match.end() : match.end() + 1] == "?":
            continue
        source = match.group("cited") or match.group("named") or ""
        found.append((match.group("old"), match.group("new"), match.group("why") or "", source))
    return found


def _applied(old: str, new: str, edit: Edit) -> bool:
    """Whether `edit` replaced `old` by `new` and changed nothing else."""
    if old == new or old not in edit.before:
        return False
    return edit.after in (edit.before.replace(old, new, 1), edit.before.replace(old, new))


def _statement(old: str, new: str, why: str, source: str, path: str) -> str:
    source = re.sub(
        r"^(?:(?:the|our|this|its)\s+)?(?:(?:project|repo|repository|team)'s\s+)?",
        "",
        source.strip("` "),
        flags=re.IGNORECASE,
    )
    if source.lower().endswith(".md"):
        source = f"`{source}`"
    spans = f"`{old}` is written `{new}`; applied in `{path}`"
    if why:
        return f"Per the project's {source}: {why.strip(' ,;:')} ({spans})."
    return f"Per the project's {source}, {spans[0].lower()}{spans[1:]}."


def cited_conventions(events: list[StoredEvent]) -> list[CitedConvention]:
    """The conventions the assistant cited from the project's written standards and an edit
    of the same session then applied (module docstring), at most `MAX_CONVENTIONS`."""
    found: dict[str, CitedConvention] = {}
    made = edits(events)
    for event, text in assistant_texts(events):
        for old, new, why, source in cited_rules(text):
            edit = next(
                (
                    e
                    for e in made
                    if e.session_id == event.session_id
                    and e.timestamp >= event.timestamp
                    and _applied(old, new, e)
                ),
                None,
            )
            if edit is None:
                continue
            key = f"{KEY_PREFIX}{key_slug(why or f'{old} {new}', frozenset()) or 'rule'}"
            if key in found:
                continue
            found[key] = CitedConvention(
                key,
                _statement(old, new, why, source, edit.path),
                edit.path,
                (event.id, edit.event_id),
            )
            if len(found) == MAX_CONVENTIONS:
                return list(found.values())
    return list(found.values())
