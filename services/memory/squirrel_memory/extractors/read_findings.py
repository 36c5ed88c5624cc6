"""What the assistant learned by reading a folder: its reply's statements about that folder.

Having read several files of one folder, the assistant says what it found there before it goes
on: "`routes/` maps each URL to a handler in `handlers/`.", "Every plugin in `plugins/` exports a
`register` function that `plugins/index.ts` calls." Such a statement is how the code is built,
learned in the session, and worth keeping with its source. It is read by where it stands and
what it names, the same in every ecosystem:

- the main agent read at least `MIN_FILES` files of one folder of the project in the turn
  (a file read tool, or a command that prints a file), and the reply comes after those reads;
  a hidden folder (`.claude/`, `.github/`) holds a tool's settings, not the project's code;
- the reply is not the turn's last one (that is a closing report, `closing_reports`), and no
  later reply or the user's next message takes it back (`subagent_findings.taken_back`);
- a sentence of it passes the closing reports' cross-check (`report_sentences.backed_statement`:
  a statement built on a verb, not asked, guessed, planned or told as the session's own step,
  and every code span it names was in what the tools showed before it);
- it names the folder: a code span that is the folder (`routes/`, `src/routes`), a path inside
  it or a file read in it.

The memory says where it comes from ("Read in `src/routes/`: …"), since the code may change
after it. A reply gives at most `MAX_PER_REPLY` statements, an episode `MAX_STATEMENTS`.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import PurePosixPath

from squirrel_core.events import EventType, is_user_voice
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.elsewhere import replies_elsewhere
from squirrel_memory.extractors.file_reads import READ_TOOLS, shell_read_paths
from squirrel_memory.extractors.report_sentences import backed_statement, report_points
from squirrel_memory.extractors.report_statements import ReportStatement, in_project, named_paths
from squirrel_memory.extractors.subagent_findings import taken_back
from squirrel_memory.extractors.tool_texts import TOOL_EVENTS, seen_by_tools
from squirrel_memory.extractors.wording import key_slug
from squirrel_memory.models import StoredEvent

#: Importance of a statement learned by reading: the assistant's word, as a closing report's.
IMPORTANCE = 0.35
KEY_PREFIX = "project:read:"
#: Files of one folder read before a reply's statements about it count as learned there.
MIN_FILES = 2
MAX_PER_REPLY = 3
MAX_STATEMENTS = 6

_SPAN = re.compile(r"`([^`\n]+)`")
_KEY_DROP = frozenset(str.split("a an the is are of in on to and or"))


def _read_paths(event: StoredEvent) -> list[str]:
    """The files `event` read, as the tool or the command named them."""
    if event.event_type == EventType.TOOL_CALL and event.content.get("tool") in READ_TOOLS:
        given = event.content.get("input")
        path = (given.get("file_path") or given.get("path")) if isinstance(given, dict) else None
        return [path] if isinstance(path, str) and path else list(event.file_paths or ())
    return shell_read_paths(event)


def _last_replies(events: list[StoredEvent], elsewhere: frozenset[str]) -> set[int]:
    """The index of each turn's last main reply: a closing report, read by its own rule."""
    found: set[int] = set()
    last = -1
    for index, event in enumerate(events):
        if event.event_type == EventType.USER_MESSAGE and is_user_voice(event.origin):
            found.add(last)
            last = -1
        elif (
            event.event_type == EventType.ASSISTANT_RESPONSE
            and not event.sidechain
            and event.id not in elsewhere
        ):
            last = index
    found.add(last)
    return found - {-1}


def _names_folder(said: str, folder: str, files: set[str], project: str) -> bool:
    """Whether a code span of `said` is `folder`, a path inside it or a file read in it."""
    name = PurePosixPath(folder).name
    for raw in _SPAN.findall(said):
        span = raw.strip()
        path = posixpath.normpath(relative_path(span, project)).removeprefix("./")
        if path == folder or path.startswith(f"{folder}/") or path in files:
            return True
        if span.rstrip("/") == name and span.endswith("/"):
            return True
        if any(PurePosixPath(f).name == span for f in files):
            return True
    return False


def read_findings(events: list[StoredEvent]) -> list[ReportStatement]:
    """What the main agent's replies in `events` (in order) state about a folder it read."""
    elsewhere = replies_elsewhere(events)
    closing = _last_replies(events, elsewhere)
    kept: dict[str, ReportStatement] = {}
    seen: list[str] = []
    read: dict[str, set[str]] = {}
    said_by_user = ""
    for index, event in enumerate(events):
        if event.event_type == EventType.USER_MESSAGE and is_user_voice(event.origin):
            text = event.content.get("text")
            said_by_user = text if isinstance(text, str) else ""
            read = {}
            continue
        if event.sidechain:
            continue
        if event.event_type in TOOL_EVENTS:
            seen.extend(seen_by_tools(event))
            for path in _read_paths(event):
                relative = posixpath.normpath(relative_path(path, event.project_id))
                folder = posixpath.dirname(relative)
                hidden = any(part.startswith(".") for part in folder.split("/"))
                if folder and in_project(relative) and not hidden:
                    read.setdefault(folder, set()).add(relative)
            continue
        if event.event_type != EventType.ASSISTANT_RESPONSE or event.id in elsewhere:
            continue
        folders = {f: files for f, files in read.items() if len(files) >= MIN_FILES}
        text = event.content.get("text")
        if not folders or index in closing or not isinstance(text, str):
            continue
        if taken_back(events, index):
            continue
        found = _stated_about(event, text, folders, "\n".join(seen), said_by_user)
        for statement in found:
            if statement.key not in kept and len(kept) < MAX_STATEMENTS:
                kept[statement.key] = statement
        for folder in {f for s in found for f in folders if s.content.startswith(_lead(f))}:
            del read[folder]  # what was learned there is said; later reads start anew
    return list(kept.values())


def _lead(folder: str) -> str:
    return f"Read in `{folder}/`: "


def _stated_about(
    event: StoredEvent, text: str, folders: dict[str, set[str]], seen: str, said_by_user: str
) -> list[ReportStatement]:
    found: list[ReportStatement] = []
    for label, raws in report_points(text):
        for raw in raws:
            said = backed_statement(raw, label, seen, said_by_user)
            if not said:
                continue
            folder = next(
                (f for f in folders if _names_folder(said, f, folders[f], event.project_id)),
                None,
            )
            named = named_paths(said, event.project_id)
            if folder is None or not all(in_project(p) for p in named):
                continue
            key = f"{KEY_PREFIX}{key_slug(said, _KEY_DROP) or 'statement'}"
            files = tuple(dict.fromkeys(named or sorted(folders[folder])))[:2]
            found.append(ReportStatement(key, f"{_lead(folder)}{said}", (event.id,), files))
            break
        if len(found) == MAX_PER_REPLY:
            break
    return found
