"""A file search that answered nothing although the file was there: kept as a surprise.

An assistant looking for a file often asks its host's file-search tool first (a glob such as
`**/billing.md`), gets nothing back ("No files found"), and then finds the file with another
search (a `find` or `ls` command, another tool). The assistant rarely says why; the session
still shows that the first search cannot be trusted here (the project sits in a folder the
tool skips, the files are ignored, the tool searched elsewhere), and the next session wastes
the same turns unless it knows. The rule is the same for every host and ecosystem:

- a listing tool (`searched_files.LISTING_TOOLS`) was called with a file pattern (letters,
  `*`, `?`, `/`, `.`, braces; no words of a text search) and no folder of its own, and its
  answer lists no path (a short line such as "No files found", or nothing);
- later in the same turn (before the user's next message) a command that succeeded and only
  looks (`find`, `ls`, `rg`, `git ls-files` …, no redirection) or another search printed a
  path, relative to the project or inside it, that the pattern matches (`**` any folders, `*`
  any part of a name), and nothing in between wrote a file or ran a command that may have
  (an edit, a write, any other command);
- the first search ran in the same session as the one that found it.

The pitfall reads "A file search of `<tool>` answered `<its answer>` for `<pattern>` although
`<path>` exists; `<command>` found it." (`pitfall:missed_search:<tool>`, one per tool and
episode).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from squirrel_core.events import EventType, is_user_voice
from squirrel_memory.extractors.lessons import clipped
from squirrel_memory.extractors.searched_files import LISTING_TOOLS
from squirrel_memory.models import StoredEvent

KEY_PREFIX = "pitfall:missed_search:"
IMPORTANCE = 0.4
#: The longest answer read as "nothing found", and the longest command quoted.
MAX_EMPTY_CHARS = 60
MAX_COMMAND_CHARS = 120
#: Characters of an output looked through for the path.
MAX_OUTPUT_CHARS = 20_000

#: A file pattern: no blanks, no words of a regular expression.
_FILE_PATTERN = re.compile(r"^[\w*?./{},@+-]{1,120}$")
#: Programs that only look: a command made of these alone changes no file.
_LOOKS = frozenset(
    {"find", "fd", "fdfind", "ls", "tree", "rg", "grep", "egrep", "fgrep", "ag", "cat", "head"}
    | {"tail", "wc", "sort", "uniq", "file", "stat", "realpath", "readlink", "pwd", "echo", "cd"}
)
#: The git subcommands that only look.
_GIT_LOOKS = frozenset({"ls-files", "grep", "status", "log", "show", "ls-tree"})
#: Where a command's simple commands part.
_PARTS = re.compile(r"\|\|?|&&|;|\n")
#: A line of an answer that is a path.
_PATH = re.compile(r"^(?:\./)?[\w@+.-]+(?:/[\w@+.-]+)+$|^/[\w@+./-]+$")


@dataclass(frozen=True, slots=True)
class MissedSearch:
    """A search that found nothing, the path found after it, and the events that show both."""

    key: str
    content: str
    event_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Miss:
    tool: str
    pattern: str
    answer: str
    matches: re.Pattern[str]
    event_id: str
    session_id: str | None


def _input(event: StoredEvent) -> dict[str, object]:
    given = event.content.get("input")
    if isinstance(given, str):
        try:
            given = ast.literal_eval(given)
        except (ValueError, SyntaxError):
            return {}
    return given if isinstance(given, dict) else {}


def glob_regex(pattern: str) -> re.Pattern[str]:
    """What paths a file pattern matches, as a regular expression over a relative path:
    `**/` any folders (none included), `*` and `?` any part of one name, `{a,b}` either."""
    out: list[str] = []
    at = 0
    while at < len(pattern):
        if pattern.startswith("**/", at):
            out.append(r"(?:[^/]+/)*")
            at += 3
        elif pattern.startswith("**", at):
            out.append(r".*")
            at += 2
        elif pattern[at] == "*":
            out.append(r"[^/]*")
            at += 1
        elif pattern[at] == "?":
            out.append(r"[^/]")
            at += 1
        elif pattern[at] == "{" and (end := pattern.find("}", at)) > at:
            out.append(
                "(?:" + "|".join(re.escape(p) for p in pattern[at + 1 : end].split(",")) + ")"
            )
            at = end + 1
        else:
            out.append(re.escape(pattern[at]))
            at += 1
    # a pattern without a folder matches a name in any folder, as the search tools read it
    lead = "" if "/" in pattern else r"(?:[^/]+/)*"
    return re.compile(rf"^{lead}{''.join(out)}$")


def _empty(output: str) -> str | None:
    """The answer when it lists no path ("No files found", or ""), else None."""
    flat = output.strip()
    if len(flat) > MAX_EMPTY_CHARS or any(_PATH.match(line.strip()) for line in flat.splitlines()):
        return None
    return flat


def looks_only(command: str) -> bool:
    """Whether every simple command of `command` only looks (`find`, `ls`, `rg`, `git
    ls-files` …): a file it prints was there before it ran."""
    for part in _PARTS.split(command):
        words = part.split()
        if not words:
            continue
        if ">" in part:
            return False  # a redirection writes a file
        program = words[0].rsplit("/", 1)[-1]
        if program == "git":
            if len(words) < 2 or words[1] not in _GIT_LOOKS:
                return False
        elif program not in _LOOKS:
            return False
    return True


def _relative(line: str, root: str) -> str:
    path = line.strip()
    if path.startswith("/"):
        prefix = root.rstrip("/") + "/"
        return path[len(prefix) :] if path.startswith(prefix) else ""
    return path.removeprefix("./")


def missed_searches(events: list[StoredEvent]) -> list[MissedSearch]:
    """The file searches that answered nothing although a later step of the turn found a file
    they match, one per tool."""
    found: list[MissedSearch] = []
    tools: set[str] = set()
    calls: dict[str, StoredEvent] = {}
    pending: list[_Miss] = []
    for event in events:
        content = event.content
        if event.event_type == EventType.USER_MESSAGE and is_user_voice(event.origin):
            pending = []
            continue
        if event.event_type == EventType.TOOL_CALL:
            calls[str(content.get("tool_use_id") or "")] = event
            continue
        if event.event_type == EventType.CODE_CHANGE:
            pending = []  # a file written since may be the one found: no miss is shown
            continue
        command = content.get("command")
        if event.event_type == EventType.COMMAND_RUN and not looks_only(str(command or "")):
            pending = []
            continue
        output = content.get("output")
        if not isinstance(output, str):
            continue
        tool = str(content.get("tool") or "")
        if event.event_type == EventType.TOOL_RESULT and tool in LISTING_TOOLS:
            call = calls.get(str(content.get("tool_use_id") or ""))
            given = _input(call) if call else {}
            pattern = given.get("pattern")
            answer = _empty(output)
            if (
                isinstance(pattern, str)
                and answer is not None
                and not given.get("path")
                and _FILE_PATTERN.match(pattern)
                and ("*" in pattern or "/" in pattern)
                and tool not in tools
            ):
                miss = _Miss(tool, pattern, answer, glob_regex(pattern), event.id, event.session_id)
                pending.append(miss)
                continue
        if not pending or content.get("is_error") is True:
            continue
        if event.event_type == EventType.TOOL_RESULT and tool not in LISTING_TOOLS:
            continue  # a command's own result: its `command_run` event is read
        if event.event_type == EventType.COMMAND_RUN:
            code = content.get("exit_code")
            if isinstance(code, int) and code != 0:
                continue
        for line in output[:MAX_OUTPUT_CHARS].splitlines():
            path = _relative(line, event.project_id)
            if not path or not _PATH.match(line.strip()):
                continue
            hits = [
                m for m in pending if m.matches.match(path) and m.session_id == event.session_id
            ]
            if not hits:
                continue
            first = hits[0]
            by = str(content.get("command") or "") or f"`{tool}`"
            by = f"`{clipped(by, MAX_COMMAND_CHARS)}`" if content.get("command") else by
            if not by.strip("`"):
                continue
            patterns = " and ".join(f"`{m.pattern}`" for m in hits if m.tool == first.tool)
            answer = f"`{first.answer}`" if first.answer else "nothing"
            content_text = (
                f"A file search of `{first.tool}` answered {answer} for {patterns} although "
                f"`{path}` exists; {by} found it."
            )
            found.append(
                MissedSearch(
                    f"{KEY_PREFIX}{first.tool.lower()}",
                    content_text,
                    (*(m.event_id for m in hits if m.tool == first.tool), event.id),
                )
            )
            tools.add(first.tool)
            pending = [m for m in pending if m.tool != first.tool]
            break
    return found
