"""Where things live, as a subagent's report lists them: its key files, kept as project facts.

A subagent sent to look around the project returns a report to the agent that launched it, and
often ends it with the files it read and what each is for:

    ## Key files
    - `cmd/server/main.go` — entry point, starts the HTTP server
    - **Routing**: `internal/api/router.go` — registers every handler
    | `internal/store/` | database access |

Such an item becomes a project fact when a rule can tell it states where something is, the
same for every ecosystem:

- it is in a subagent's report (its replies after its last tool call), and the subagent looked
  only at this project (not another repository or a dependency);
- it sits under a heading (a Markdown heading, a bold line or a short line ending in `:`) that
  names files, paths, locations, folders, modules, components, the layout or the structure, and
  names no change, plan, proposal, layout to come, guess or trouble ("Files to modify", "Changes
  made", "Issues found", "Recommended structure", "Target structure", "Layout after the
  refactor" are not the layout), nor under any heading it sits inside (a bold line heads the
  deeper Markdown headings after it: "**Implementation steps**" then "### Files"); a table
  whose header row names a file or path column counts too;
- the item opens with the path (in backticks or bold), or with a bold label and then the path,
  and the path is a file or folder the subagent read or listed (or that exists in the
  repository), inside the project and outside dependency, build and test-data folders;
- what it says of the path is a short declarative phrase: it speaks of no one, hedges, plans
  and diagnoses nothing ("missing", "broken", "not used" are a finding about a bug, not the
  layout), asks nothing and reports no change of the session's own; and it says more than the
  path's own name and words any file could have ("`tests/test_unit.py`: Unit tests",
  "`app/core.py`: Core implementation" say nothing).

The parent's own reply, which relays or rewrites the report, is left alone: the parent did not
read those files. One memory per (path, what it is), at most `MAX_ITEMS` per episode.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.elsewhere import outside_root, replies_elsewhere
from squirrel_memory.extractors.file_reads import printed_paths
from squirrel_memory.extractors.placements import KEY_PREFIX, Placement, opens_with_action, plain
from squirrel_memory.extractors.session_paths import LINE_SUFFIX, SeenPaths, excluded, seen_paths
from squirrel_memory.extractors.wording import key_slug, sentence, without_bold
from squirrel_memory.models import StoredEvent

#: Items kept per episode.
MAX_ITEMS = 4
MIN_ROLE_CHARS = 3
MAX_ROLE_CHARS = 120
MAX_LABEL_CHARS = 40

#: What a subagent does between its prompt and its report.
_WORK = frozenset(
    {
        EventType.TOOL_CALL,
        EventType.TOOL_RESULT,
        EventType.COMMAND_RUN,
        EventType.TEST_RUN,
        EventType.CODE_CHANGE,
    }
)
_HEADING = re.compile(
    r"^\s*(?:(?P<level>#{1,6})\s+(?P<md>.+?)\s*#*|\*\*(?P<bold>[^*`]+?)\*\*\s*:?|"
    r"(?P<plain>[A-Z][\w ’'/-]{2,40}):)\s*$"
)
_LAYOUT = re.compile(
    r"\b(?:files?|paths?|locations?|layout|structure|organi[sz]ation|director(?:y|ies)|"
    r"folders?|modules?|components?|entry ?points?|where)\b",
    re.IGNORECASE,
)
_NOT_LAYOUT = re.compile(
    r"\b(?:chang\w*|modif\w*|edit\w*|creat\w*|add\w*|updat\w*|touch\w*|writ\w*|wrote|"
    r"delet\w*|remov\w*|renam\w*|new|propos\w*|plan\w*|recommend\w*|suggest\w*|todo|next|"
    r"fix\w*|issues?|bugs?|problems?|errors?|fail\w*|gaps?|missing|risks?|concerns?|"
    r"findings?|to|should|needs?|needed|review\w*|affected|impact\w*|question\w*|steps?|"
    r"unclear|unknown|tests? results?|"
    # A guess at the layout ("The layout probably looks like this:").
    r"probably|maybe|perhaps|likely|seems?|appears?|guess\w*|roughly|suppos\w*|assum\w*|"
    # A layout to come, not the one there is ("Target structure", "Layout after the refactor").
    r"target|desired|ideal|intended|expected|future|goals?|would|will|could|might|after|"
    r"refactor\w*|migrat\w*|restructur\w*|reorgani[sz]\w*)\b",
    re.IGNORECASE,
)
_ITEM = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+(?P<body>.+?)\s*$")
_ROW = re.compile(r"^\s*\|(?P<cells>.+)\|\s*$")
_RULE_ROW = re.compile(r"^[\s|:-]+$")
_SPAN = r"(?:\*\*)?(?:`(?P<code>[^`\s]+)`|\*\*(?P<bold>[^*\s`]+)\*\*)(?:\*\*)?"
_SEPARATOR = r"\s*(?::|\s[-—–]+|[—–])\s*"
#: "`path` — what it is", "**path**: what it is", "`path`" alone.
_PATH_FIRST = re.compile(rf"^{_SPAN}(?:{_SEPARATOR}(?P<role>.+))?$")
#: "**Label**: `path` — what it is", "**Label** (`path`)".
_LABEL_FIRST = re.compile(
    rf"^\*\*(?P<label>[^*`]{{2,{MAX_LABEL_CHARS}}}?):?\*\*:?\s*[(—–-]?\s*"
    rf"`(?P<path>[^`\s]+)`\)?(?:{_SEPARATOR}(?P<role>.+))?$"
)
_LINE_REF = re.compile(r"(?<!\s)\s*\((?:lines?|L)\s*\d[^)]*\)", re.IGNORECASE)
#: What a finding about a bug says of a file, not what the file is.
_TROUBLE = re.compile(
    r"\b(?:not|no|never|nothing|isn'?t|aren'?t|doesn'?t|don'?t|can'?t|cannot|bug\w*|wrong|"
    r"incorrect\w*|broken|missing|fail\w*|crash\w*|leak\w*|unused|dead|deprecated|hack\w*|"
    r"workaround|duplicat\w*|inconsisten\w*|vulnerab\w*|unsafe|lacks?|only)\b",
    re.IGNORECASE,
)
_CODE = re.compile(r"`[^`\n]+`")
_WORD = re.compile(r"[a-z0-9]+")
#: Words that say of any file what it is without saying anything ("core implementation",
#: "main logic", "unit tests" of `test_unit.py`).
_GENERIC = frozenset(
    str.split(
        "a an the and or of for with in on to its all core main primary implementation logic "
        "code source file files module modules entry point test tests unit integration helper "
        "helpers util utils utility utilities type types config configuration definition "
        "definitions misc stuff script scripts package class classes function functions"
    )
)


def _reports(events: list[StoredEvent]) -> list[StoredEvent]:
    """Each subagent's report: its replies after its last tool call or command, in order,
    less those of a subagent that looked outside the project."""
    elsewhere = replies_elsewhere(events)
    last_work: dict[str, int] = {}
    for index, event in enumerate(events):
        if event.sidechain and event.event_type in _WORK:
            last_work[event.agent_id or ""] = index
    return [
        event
        for index, event in enumerate(events)
        if event.sidechain
        and event.event_type == EventType.ASSISTANT_RESPONSE
        and isinstance(event.content.get("text"), str)
        and index > last_work.get(event.agent_id or "", len(events))
        and event.id not in elsewhere
    ]


def resolve_seen(span: str, seen: SeenPaths, listed: dict[str, str], root: str) -> str | None:
    """The project path `span` names when the subagent read, touched or listed it."""
    raw = LINE_SUFFIX.sub("", span.strip()).removeprefix("./")
    known = seen.resolve(raw)
    if known is not None:
        return known
    if outside_root(raw, root):
        return None
    rel = relative_path(raw, root).rstrip("/")
    return rel if rel in listed else None


def _role(text: str | None) -> str | None:
    """What the item says of its path, when it is a short plain statement; "" when nothing."""
    if text is None:
        return ""
    role = without_bold(_LINE_REF.sub("", text)).strip().rstrip(".;,")
    if not MIN_ROLE_CHARS <= len(role) <= MAX_ROLE_CHARS or role.count("`") % 2:
        return None
    prose = _CODE.sub(" code ", role)
    if "?" in role or role.endswith(":") or not plain(prose) or _TROUBLE.search(prose):
        return None
    if opens_with_action(role) or not role[0].isalpha():
        return None
    return role[0].lower() + role[1:] if role[1:2].islower() else role


def says_something(path: str, label: str, role: str) -> bool:
    """Whether the label and role say more of `path` than its own name and generic words."""
    named = {w.removesuffix("s") for w in _WORD.findall(path.lower())}
    words = {w.removesuffix("s") for w in _WORD.findall(f"{label} {role}".lower())}
    return bool(words - named - {w.removesuffix("s") for w in _GENERIC})


def path_item(body: str) -> tuple[str, str, str] | None:
    """(path span, label, role) of a list item or table row that opens with a path."""
    body = body.strip()
    first = _PATH_FIRST.match(body)
    role = _role(first.group("role")) if first is not None else None
    if first is not None and role is not None:
        return first.group("code") or first.group("bold"), "", role
    if (labelled := _LABEL_FIRST.match(body)) is not None:
        label = labelled.group("label").strip()
        role = _role(labelled.group("role"))
        if role is None or _role(label) is None:
            return None
        return labelled.group("path"), label, role
    return None


def _row(cells: list[str]) -> str:
    """A table row as a list item: "`path` — what it is", or "**what** `path`" when the path
    is in the second column."""
    if len(cells) < 2 or not cells[1]:
        return cells[0]
    if "`" not in cells[0] and "`" in cells[1]:
        return f"**{cells[0].replace('*', '')}**: {cells[1]}"
    return f"{cells[0]} — {cells[1]}"


def layout_items(text: str, layout_words: re.Pattern[str] = _LAYOUT) -> Iterable[str]:
    """The items of `text` under a layout heading (one `layout_words` names; table rows
    rewritten as items); nothing under a heading inside a section about a change, a plan or
    trouble ("## Implementation plan" then "### Files")."""
    headings: list[tuple[int, str]] = []  # the enclosing headings, outermost first
    header: list[str] | None = None
    for line in re.sub(r"```.*?(?:```|$)", " ", text, flags=re.DOTALL).splitlines():
        if (heading := _HEADING.match(line)) is not None:
            # A Markdown heading of level n is 2n; a bold or plain heading line sits just below
            # the Markdown heading it is under, and above the deeper ones that follow it
            # ("**Implementation steps**" then "### Files": the files are steps).
            hashes = len(heading.group("level") or "")
            under = max((n for n, _ in headings if n % 2 == 0), default=0)
            level = 2 * hashes if hashes else under + 1
            words = heading.group("md") or heading.group("bold") or heading.group("plain")
            headings = [(n, w) for n, w in headings if n < level] + [(level, words)]
            header = None
            continue
        blocked = any(_NOT_LAYOUT.search(words) for _, words in headings)
        layout = bool(headings) and bool(layout_words.search(headings[-1][1])) and not blocked
        if (row := _ROW.match(line)) is not None:
            cells = [c.strip() for c in row.group("cells").split("|")]
            if _RULE_ROW.match(line):
                continue
            if header is None and "`" not in line:
                header = cells
                continue
            named = header is not None and bool(_LAYOUT.search(" ".join(header)))
            if (layout or (named and not blocked)) and not (
                header and _NOT_LAYOUT.search(" ".join(header))
            ):
                yield _row(cells)
            continue
        header = None
        if layout and (item := _ITEM.match(line)) is not None:
            yield item.group("body")


def report_layout(events: list[StoredEvent]) -> list[Placement]:
    """The key files subagents' reports in `events` list, at most `MAX_ITEMS`."""
    reports = _reports(events)
    if not reports:
        return []
    seen = seen_paths(events)
    listed = printed_paths(e for e in events if e.sidechain)
    root = events[0].project_id
    kept: dict[str, Placement] = {}
    for event in reports:
        for body in layout_items(event.content["text"]):
            found = path_item(body)
            if found is None:
                continue
            span, label, role = found
            path = resolve_seen(span, seen, listed, root)
            if path is None or excluded(path) or not says_something(path, label, role):
                continue
            folder = span.endswith("/") and path not in seen.files
            shown = f"`{path}/`" if folder else f"`{path}`"
            said = sentence(
                f"{shown} ({label}): {role}" if label and role else f"{shown}: {role or label}"
            )
            key = f"{KEY_PREFIX}{path}:{key_slug(role or label, _GENERIC) or 'role'}"
            if said is None or key in kept or any(p.path == path for p in kept.values()):
                continue
            sources = seen.files.get(path, [])[:3] or ([listed[path]] if path in listed else [])
            kept[key] = Placement(key, said, path, (), (event.id, *sources))
            if len(kept) >= MAX_ITEMS:
                return list(kept.values())
    return list(kept.values())
