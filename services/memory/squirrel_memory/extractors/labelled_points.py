"""How a part of the project works, as the assistant stated it under a bold label of a summary.

Having read the code, the assistant (or a subagent, in the report it hands back) often sums
up what it found as a list of labelled items, one per part of the project:

    1. **Roam advanced node search:** it exists, in `apps/roam/src/components/Search/`.
       - **Fetching:** when the dialog opens, it runs a datalog query per node type
         (`queryByFormat` in `apps/roam/src/utils/nodeSearch.ts`) and indexes the results.
    2. **Candidate nodes:** each node type has a tag. Tagged blocks are found by the
       translator in `registerTranslators.ts`, which matches blocks that reference the tag.

A sentence of such an item becomes a project fact when a rule can tell it states how that
part of the code is, the same for every ecosystem:

- the label is a name for a part of the project (a few words of prose, not a code span),
  not a report of the session's work ("Switched to X", "Fixed"), a plan, a proposal, a
  problem or a change ("Next steps", "Bug", "Changes"), nor a denial ("Nothing is
  committed.", "No tests yet"): the state the session found that day, which a later session
  cannot take as how the code is (a label written as a sentence loses its full stop: "Git
  hooks are fragile: they live in `.husky/_/` …"); a one-word
  label that names no part ("Fetching", "Preview") counts beneath a labelled item above it,
  whose label it joins;
- the sentence names, in backticks, a path the session read or touched (or that exists in the
  repository), inside the project and outside dependency, build and test-data folders: a
  path never seen is not trusted;
- it is declarative and present: it says what something is or does ("runs", "holds", "are
  found by"), speaks of no one, hedges nothing ("probably", "might"), plans nothing ("will",
  "new", "next"), diagnoses nothing ("bug", "fix", "not called"), asks nothing, does not open
  as a report of the session's own work ("Added …") and can be quoted whole.

It is the assistant's own text: a reply, a subagent's report (its replies, the message it
hands back, the launcher's result in the parent), never a file's text nor the user's words;
a reply or report about another place (`elsewhere`) does not count. The memory is the label
and the sentence ("Roam advanced node search (fetching): when the dialog opens, …"), with the
path relative to the root; a symbol of the sentence found in the file the session read gives
its source line. One memory per (path, label), at most `MAX_POINTS` per episode.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.architecture import HEADING, NOT_AS_IS, VERB
from squirrel_memory.extractors.file_reads import shown_paths
from squirrel_memory.extractors.named_summary import assistant_texts
from squirrel_memory.extractors.placements import (
    KEY_PREFIX,
    Placement,
    opens_with_action,
    plain,
    project_paths,
)
from squirrel_memory.extractors.report_layout import resolve_seen, says_something
from squirrel_memory.extractors.session_paths import SeenPaths, excluded, seen_paths
from squirrel_memory.extractors.wording import key_slug, sentence, without_bold
from squirrel_memory.models import StoredEvent

#: Points kept per episode.
MAX_POINTS = 4
MIN_CHARS = 20
MAX_CHARS = 240
MAX_LABEL_WORDS = 6
#: The tool a subagent hands its report back with.
HANDBACK = "SubagentHandback"

#: A list item opening with a bold label: `- **Fetching:** …`, `2. **Candidate nodes**: …`
#: (without a colon, bold words that run on into a sentence are no label).
_ITEM = re.compile(
    r"^(?P<indent>\s*)(?:[-*+•]|\d{1,2}[.)])\s+\*\*(?P<label>[^*`]+?)\s*(?P<inner>:?)\*\*\s*"
    r"(?P<outer>:?)\s*(?P<body>.*)$"
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*\"'(])")
_CODE_SPAN = re.compile(r"`([^`\n]+)`")
_FILE_NAME = re.compile(r"^[\w@+-][\w.@+-]*\.[A-Za-z]\w{0,9}$")
_FENCE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
#: A label in the past tense reports the session's work ("Switched to Hatchling").
_REPORTED = re.compile(r"^\w+ed\b", re.IGNORECASE)
#: What opens a sentence without making it a report of work ("When the dialog opens, …").
_CLAUSE_OPENING = frozenset({"when", "once", "after", "before", "since"})
#: A heading over the session's own changes, a plan or trouble, beside `NOT_AS_IS`.
_CHANGES = re.compile(
    r"\b(?:changed|modified|created|added|updated|removed|deleted|touched|edited|renamed|done|"
    r"issues?|bugs?|problems?|errors?|todo|next steps?|questions?)\b",
    re.IGNORECASE,
)
#: An item that is a path alone, or a path and what it is: "`src/main.c`", "`src/` — sources".
_PATH_BODY = re.compile(r"^`(?P<span>[^`]+)`\s*(?:(?:[—–:]|\s-)\s*(?P<role>[^`]+?))?\s*\.?$")
MAX_ROLE_CHARS = 80
_EXISTS = re.compile(r"\bexists?\b", re.IGNORECASE)
_NEGATION = re.compile(
    r"\b(?:not|no|never|nothing|none|isn'?t|aren'?t|doesn'?t|don'?t|cannot|can'?t|won'?t)\b",
    re.IGNORECASE,
)
#: A label that is a verdict, a heading of the reply's own, or a place alone: no part's name.
_NOT_A_PART = re.compile(
    r"^(?:summary|overview|conclusions?|findings?|answer|result|results|status|notes?|"
    r"implications?|recommendations?|verdict|bottom line|tl;?dr|location|locations|folder|"
    r"folders|files?|paths?|directory|code|source|where|why|how|what|example|examples|"
    r"steps?|usage|output|tests?|testing|pros|cons|trade-?offs?|caveats?|gotchas?)$",
    re.IGNORECASE,
)
#: First words lower-cased after the label's colon (a name keeps its capital).
_COMMON = frozenset(
    str.split("a an the it its each every all this these those when once after before since")
)
#: Words of a label that only says a path follows ("Document path (relative)").
_PLACE_WORDS = frozenset(
    str.split(
        "path file folder directory dir location document doc relative absolute full output "
        "input target source the a of its"
    )
)
_KEY_DROP = frozenset(str.split("a an the of in on at to for and or is are its it"))


def _label(raw: str) -> str:
    """The label as a name for a part of the project, or "" when it names none."""
    label = " ".join(raw.strip(" :—–-").split())
    words = label.split()
    if not words or len(words) > MAX_LABEL_WORDS or not label[0].isalpha():
        return ""
    if _REPORTED.match(label) or opens_with_action(label) or not plain(label):
        return ""
    if _NEGATION.search(label):
        return ""  # a denial ("Nothing is committed."): that day's state, no part's name
    return label.rstrip(".!")


def _lowered(body: str) -> str:
    """`body` run on after a colon: its first word lower-cased when it is a common one."""
    first, _, rest = body.partition(" ")
    return f"{first.lower()} {rest}" if first.lower() in _COMMON else body


def _context(label: str, parent: str) -> str:
    """What the point is about: the label, joined to the labelled item above it when there is
    one ("Search (fetching)"); a one-word label alone names no part."""
    if parent:
        return f"{parent} ({label[0].lower()}{label[1:]})" if label else parent
    if not label or _NOT_A_PART.match(label) or len(label.split()) < 2:
        return ""
    words = {w.removesuffix("s") for w in re.findall(r"[a-z]+", label.lower())}
    return "" if words <= _PLACE_WORDS else label


@dataclass(frozen=True, slots=True)
class _Seen:
    """The paths a session read, touched or listed (a listing's or a search's output)."""

    paths: SeenPaths
    printed: dict[str, str]
    root: str
    changed: frozenset[str]

    def resolve(self, span: str) -> str | None:
        """The project path `span` names when the session read, touched or listed it; a bare
        file name names the one file of that name it listed."""
        found = resolve_seen(span, self.paths, self.printed, self.root)
        name = span.strip()
        if found is not None or "/" in name or not _FILE_NAME.match(name):
            return found
        named = [p for p in self.printed if PurePosixPath(p).name == name]
        return named[0] if len(named) == 1 else None


def _changed(events: list[StoredEvent]) -> frozenset[str]:
    """The project paths the session wrote or edited."""
    return frozenset(
        relative_path(raw, event.project_id).removeprefix("./")
        for event in events
        if event.event_type == EventType.CODE_CHANGE
        for raw in event.file_paths
        if raw
    )


def _path_alone(
    item: re.Match[str], seen: _Seen, context: str
) -> tuple[str, str, list[str]] | None:
    """("`path`" or "`path` — what it is", the path) for an item that names a path the session
    read or listed and did not change (a list of changed files reports the work), with at
    most a short plain phrase of what it is, when the label and phrase say more than the
    path's own name ("Unit tests: `tests/test_unit.py`" says nothing); else None."""
    span = item.group("span").strip()
    if "/" not in span and not _FILE_NAME.match(span):
        return None  # a commit, a symbol, a command: not a path
    path = seen.resolve(span)
    role = (item.group("role") or "").strip().rstrip(".")
    if path is None or excluded(path) or path in seen.changed:
        return None
    if not says_something(path, context, role):
        return None
    if role and (
        len(role) > MAX_ROLE_CHARS
        or not plain(role)
        or _NEGATION.search(role)
        or opens_with_action(role)
        or "?" in role
    ):
        return None
    folder = item.group("span").rstrip().endswith("/") and path not in seen.paths.files
    shown = f"`{path}/`" if folder else f"`{path}`"
    return (f"{shown} — {role}" if role else shown), path, []


def _statement(raw: str, seen: _Seen, context: str) -> tuple[str, str, list[str]] | None:
    """(sentence with its paths relative to the root, the path it names, its other code
    spans) when one sentence of a labelled item states how the code is; else None."""
    flat = " ".join(without_bold(raw).split())
    alone = _PATH_BODY.match(flat)
    if alone is not None:
        return _path_alone(alone, seen, context)
    if not MIN_CHARS <= len(flat) <= MAX_CHARS or flat.count("`") % 2 or "`" not in flat:
        return None
    if "?" in flat or flat.endswith(":"):
        return None
    first = flat.split(maxsplit=1)[0].lower().strip(",")
    if opens_with_action(flat) and first not in _CLAUSE_OPENING:
        return None
    prose = _CODE_SPAN.sub(" code ", flat)
    if (
        not plain(prose)
        or _NEGATION.search(prose)
        or not (VERB.search(prose) or _EXISTS.search(prose))
    ):
        return None
    rewritten, named, symbols = project_paths(flat, seen.resolve, seen.paths.files)
    if not named:
        return None  # no path seen, or one in a dependency's folder
    return rewritten, named, symbols


def _texts(events: list[StoredEvent]) -> Iterator[tuple[StoredEvent, str]]:
    """The assistant's own summaries in `events`: replies, the reports subagents hand back and
    the launchers' results (not the briefs it wrote for them); none about another place."""
    for event, text in assistant_texts(events):
        brief = event.event_type == EventType.TOOL_CALL and event.content.get("tool") != HANDBACK
        if not brief and "**" in text:
            yield event, text


def _points(text: str) -> Iterator[tuple[str, str]]:
    """(what it is about, sentence) for each sentence of a labelled item of `text`."""
    parents: list[tuple[int, str]] = []  # (indent, label) of the labelled items above
    changes = False  # under a heading of changes, plans or trouble
    for line in _FENCE.sub(" ", text).splitlines():
        item = _ITEM.match(line)
        if item is None:
            if line.strip() and not line.startswith((" ", "\t")):
                parents = []  # a paragraph or heading ends the list
            if heading := HEADING.match(line):
                title = heading.group("atx") or heading.group("bold") or ""
                changes = bool(NOT_AS_IS.search(title) or _CHANGES.search(title))
            continue
        if changes:
            continue
        indent = len(item.group("indent").expandtabs(4))
        parents = [(i, label) for i, label in parents if i < indent]
        label = _label(item.group("label"))
        context = _context(label, parents[-1][1] if parents else "")
        parents.append((indent, context))
        body = item.group("body").strip()
        if not context or (not item.group("inner") + item.group("outer") and body[:1].islower()):
            # "**Web layer** is `lib/app_web/`": the bold words open a sentence, no label; the
            # sentence is read whole as one (`placements`).
            continue
        for raw in _SENTENCE.split(body):
            yield context, raw


def labelled_points(events: list[StoredEvent]) -> list[Placement]:
    """How parts of the project work, as labelled items of the assistant's summaries in
    `events` state it with a path the session saw; at most `MAX_POINTS`, one per (path,
    label)."""
    texts = list(_texts(events))
    if not texts:
        return []
    paths = seen_paths(events)
    seen = _Seen(paths, shown_paths(events), events[0].project_id, _changed(events))
    kept: dict[str, Placement] = {}
    for event, text in texts:
        for context, raw in _points(text):
            found = _statement(raw, seen, context)
            if found is None:
                continue
            body, path, symbols = found
            said = sentence(f"{context}: {_lowered(body)}")
            key = f"{KEY_PREFIX}{path}:{key_slug(context, _KEY_DROP)}"
            if said is None or key in kept:
                continue
            ref = paths.line_of(path, symbols)
            kept[key] = Placement(
                key, said, path, (ref,) if ref else (), (event.id, *paths.files.get(path, [])[:3])
            )
            if len(kept) >= MAX_POINTS:
                return list(kept.values())
    return list(kept.values())
