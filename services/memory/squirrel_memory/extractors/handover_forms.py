"""How the user hands work over, when it takes the same form in several sessions.

A user who opens session after session with an approved plan ("Implement the following plan:"
and its sections), a tracker issue's link, a checklist of tasks, review comments quoted to
address or a document of the repository to implement shows how they give work, and the
assistant should expect and follow that form. No rule word says it: the form itself is the
evidence, read from what the user typed (`routine_requests.typed_requests`) and from the plans
the user approved, which the host hands over in their stead (`planned_checks.approved_plans`):

- **plan**: an approved plan ("Implement the following plan:"), or at least `MIN_SECTIONS`
  section headings (`## Context`, `## Change`, …) and the word plan (in most languages'
  spelling: plan, Plan, plano, planu) in the message's first line or a heading;
- **issue**: a link to an issue, pull request or merge request of a tracker (`…/issues/41`,
  `…/pull/7`, `…/browse/PAY-12`);
- **checklist**: at least `MIN_ITEMS` task-list items (`- [ ] …`);
- **review**: quoted lines (`> …`) with the word review outside the quote;
- **document**: a path to a text document inside a folder (`docs/specs/0007-rate-limit.md`)
  named with the word implement or spec;
- **test**: a fenced block that defines a test (`def test_…`, `func Test…`, `#[test]`,
  `@Test`, `it(…`, `test(…`) with the word pass outside it ("Make this pass:").

A form is a habit when the user used it in `MIN_SESSIONS` sessions or more; used in one session
(however many messages) it is how that task came, never a habit. The memory says what the
evidence shows (the form, its sections or links, in how many sessions) and quotes the latest
message's first line in the user's own words (not a task-list item, not a pasted block); it
is as important as an instruction said in that many sessions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_memory.extractors.planned_checks import approved_plans
from squirrel_memory.extractors.routine_requests import typed_requests
from squirrel_memory.models import StoredEvent

PREFIX = "pref:work_given_as:"
#: Sessions a form must be used in to be a habit.
MIN_SESSIONS = 2
#: Section headings a plan has at least; task-list items a checklist has at least.
MIN_SECTIONS = 2
MIN_ITEMS = 2
#: Sections named, links shown, characters of the quoted first line.
MAX_SECTIONS = 4
MAX_SHOWN = 3
MAX_QUOTE_CHARS = 80
#: Longest message read (a pasted log or file is not a hand-over).
MAX_MESSAGE_CHARS = 20_000

_HEADING = re.compile(r"^[ \t]{0,3}#{2,4}[ \t]+(?P<title>\S[^\n]{0,80})$", re.MULTILINE)
_ANY_HEADING = re.compile(r"^[ \t]{0,3}#{1,4}[ \t]+(?P<title>\S[^\n]{0,80})$", re.MULTILINE)
_PLAN_WORD = re.compile(r"\bplan(?:o|u|e|s)?\b", re.IGNORECASE)
_TRACKER_LINK = re.compile(
    r"https?://[^\s/]{1,100}/(?:[^\s/]{1,100}/){0,4}(?:-/)?"
    r"(?:issues|pull|pulls|merge_requests)/\d+\b"
    r"|https?://[^\s/]{1,100}/browse/[A-Z][A-Z0-9]{1,9}-\d+\b"
)
_TASK_ITEM = re.compile(r"^[ \t]{0,8}[-*+][ \t]\[[ xX]\][ \t]+\S", re.MULTILINE)
_QUOTED = re.compile(r"^[ \t]{0,3}>[ \t]*\S[^\n]*$", re.MULTILINE)
_REVIEW = re.compile(r"\breview", re.IGNORECASE)
_DOCUMENT = re.compile(r"(?<![\w./-])(?:[\w.-]{1,60}/){1,6}[\w.-]{1,80}\.(?:md|rst|txt|adoc)\b")
_IMPLEMENT = re.compile(r"\b(?:implement\w*|spec)\b", re.IGNORECASE)
_FENCED = re.compile(r"```[^\n`]{0,20}\n(?P<body>.*?)```", re.DOTALL)
_TEST_DEFINED = re.compile(
    r"^[ \t]{0,8}(?:(?:async[ \t]+)?def[ \t]+test_?\w*[ \t]*\(|func[ \t]+Test\w*\(|#\[test\]|"
    r"@Test\b|(?:it|test)[ \t]*\([ \t]*['\"`])",
    re.MULTILINE,
)
_PASS = re.compile(r"\bpass\b", re.IGNORECASE)

_WORDING = {
    "plan": "a written plan to carry out",
    "issue": "links to tracker issues",
    "checklist": "a checklist of tasks (`- [ ] …`)",
    "review": "review comments to address, quoted (`> …`)",
    "document": "documents of the repository to implement",
    "test": "a failing test to make pass, pasted in a code block",
}


@dataclass(frozen=True, slots=True)
class Handover:
    """One form the user handed work over in: `sessions` sessions, the messages, what it
    named (sections, links or documents) and the latest message's first line."""

    form: str
    sessions: int
    event_ids: tuple[str, ...]
    named: tuple[str, ...]
    wording: str
    #: A plan the user approved, handed over by the host ("Implement the following plan:").
    approved: bool = False

    @property
    def key(self) -> str:
        return PREFIX + self.form

    @property
    def content(self) -> str:
        what = "an approved plan to carry out" if self.approved else _WORDING[self.form]
        if self.named:
            label = "with sections" if self.form == "plan" else "such as"
            what += f", {label} " + ", ".join(self.named)
        return f"In {self.sessions} sessions the user handed work over as {what}: “{self.wording}”."


def message_forms(text: str, *, approved: bool = False) -> dict[str, tuple[str, ...]]:
    """The hand-over forms one user message takes, each with what it names (`approved`: the
    host handing over a plan the user approved)."""
    if len(text) > MAX_MESSAGE_CHARS:
        return {}
    found: dict[str, tuple[str, ...]] = {}
    sections = [m.group("title").strip() for m in _HEADING.finditer(text)]
    first = next((line for line in text.splitlines() if line.strip()), "")
    titles = [m.group("title") for m in _ANY_HEADING.finditer(text)]
    if approved or (
        len(sections) >= MIN_SECTIONS and any(_PLAN_WORD.search(t) for t in (first, *titles))
    ):
        found["plan"] = tuple(s.rstrip(":") for s in sections[:MAX_SECTIONS])
    links = [m.group(0) for m in _TRACKER_LINK.finditer(text)]
    if links:
        found["issue"] = tuple(dict.fromkeys(links))
    if len(_TASK_ITEM.findall(text)) >= MIN_ITEMS:
        found["checklist"] = ()
    quoted = _QUOTED.findall(text)
    if quoted and _REVIEW.search(_QUOTED.sub(" ", text)):
        found["review"] = ()
    documents = [m.group(0) for m in _DOCUMENT.finditer(text)]
    if documents and _IMPLEMENT.search(text) and "plan" not in found:
        found["document"] = tuple(dict.fromkeys(documents))
    blocks = [m.group("body") for m in _FENCED.finditer(text)]
    if any(_TEST_DEFINED.search(b) for b in blocks) and _PASS.search(_FENCED.sub(" ", text)):
        found["test"] = ()
    return found


def handover_forms(events: list[StoredEvent]) -> list[Handover]:
    """The forms the user handed work over in, in `MIN_SESSIONS` sessions or more (see the
    module's rules), the most used first."""
    seen: dict[str, list[tuple[StoredEvent, str, tuple[str, ...]]]] = {}
    plans = {event.id for event, _ in approved_plans(events)}
    said = {event.id: (event, text) for event, text in typed_requests(events)}
    said.update({e.id: (e, t) for e, t in approved_plans(events)})
    for event, text in sorted(said.values(), key=lambda pair: (pair[0].timestamp, pair[0].id)):
        for form, named in message_forms(text, approved=event.id in plans).items():
            seen.setdefault(form, []).append((event, text, named))
    found: list[Handover] = []
    for form, uses in seen.items():
        sessions = {event.session_id for event, _, _ in uses}
        if len(sessions) < MIN_SESSIONS:
            continue
        first = _said_line(uses[-1][1]).rstrip(".!;")
        if len(first) > MAX_QUOTE_CHARS:
            first = first[:MAX_QUOTE_CHARS].rsplit(" ", 1)[0] + " …"
        named = _named(form, [n for _, _, n in uses])
        found.append(
            Handover(
                form=form,
                sessions=len(sessions),
                event_ids=tuple(dict.fromkeys(event.id for event, _, _ in uses)),
                named=named,
                wording=first,
                approved=form == "plan" and any(event.id in plans for event, _, _ in uses),
            )
        )
    found.sort(key=lambda h: -h.sessions)
    return found


def _said_line(text: str) -> str:
    """The first line of a message in the user's own words: not a task-list item, not in a
    fenced block (else its first line)."""
    lines = [line.strip() for line in _FENCED.sub("\n", text).splitlines() if line.strip()]
    own = [line for line in lines if not _TASK_ITEM.match(line)]
    return (own or lines or [""])[0]


def _named(form: str, named: list[tuple[str, ...]]) -> tuple[str, ...]:
    """What the memory names: a plan's sections as the latest plan has them; links and
    documents, the latest first."""
    if form == "plan":
        return named[-1]
    every = [item for items in reversed(named) for item in items]
    return tuple(f"`{item}`" for item in dict.fromkeys(every))[:MAX_SHOWN]
