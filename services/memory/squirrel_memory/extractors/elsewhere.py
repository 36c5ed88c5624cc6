"""Who looked outside the project: the subagents whose reads reached another folder.

A subagent's reads, commands and fixes are the session's work, as the main agent's are, and
the rules read them alike. Its report (its final text) is another matter when it was sent to
look somewhere else, at another repository or a dependency: what it then says the project is,
how it is built or tested, describes that other place, and so does the parent's reply that
relays it. So a reply that would say what *this* project is does not count when it is such a
subagent's (one that read a file outside the project root), nor when it is the parent's in a
turn where such a subagent worked and the parent read no file of the project itself. A file
outside the root is never evidence of the project.
The launcher's result in the parent's session (Claude Code's `Agent` tool, `Task` before 2.1)
is that report relayed: it counts as what the subagent read for the parent, unless the
subagent's own records show it looked elsewhere (the subagent whose brief is the launch's, or,
when no record carries that brief, any in the turn that looked elsewhere), or the brief itself
sends it to a path outside the root. Such a result speaks of another place, as the subagent's
own reply does.
The main agent is held to the same rule: asked to look at a sibling repository, it reads there
and sums it up. Its replies in a turn where it looked elsewhere (a path outside the root, a
command run in another folder with `cd`, `git -C` or `--manifest-path`, a web page fetched or
searched) and read no file of the project itself do not say what the project is either.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Iterable

from squirrel_core.events import EventType, is_user_voice
from squirrel_core.subagent_tools import SUBAGENT_TOOLS
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.models import StoredEvent

#: Events whose paths are what a tool looked at (a read, a search, a listing).
_LOOKING = frozenset({EventType.TOOL_CALL, EventType.TOOL_RESULT})
#: Tools whose results are a web page or a web search: never the project's files (Claude
#: Code's, Codex CLI's `web_search`, Gemini CLI's `web_fetch` and `google_web_search`).
_WEB_TOOLS = frozenset({"WebFetch", "WebSearch", "web_fetch", "web_search", "google_web_search"})
#: The folder a shell command works in when it is not the one it started in: `cd DIR`,
#: `pushd DIR`, `git -C DIR`, `cargo --manifest-path DIR/Cargo.toml`.
_WORKS_IN = re.compile(
    r"(?:^|&&|\|\||;|\()\s*(?:cd|pushd)\s+(?P<cd>[^\s;&|)]+)"
    r"|\bgit\s+-C\s+(?P<git>[^\s;&|)]+)"
    r"|--manifest-path(?:=|\s+)(?P<manifest>\S+)"
)


def outside_root(path: str, project_id: str) -> bool:
    """Whether `path` (as an event gives it) lies outside the project root, once its `..` are
    resolved (`sub/../../other/x` leaves it)."""
    if not path:
        return False
    normal = posixpath.normpath(path)
    if normal == posixpath.normpath(project_id):
        return False  # the root itself (`cd /repo` before the work) is the project
    inside = relative_path(normal, project_id)
    return inside.startswith(("/", "~", "../")) or inside == ".."


def ran_elsewhere(command: str, project_id: str) -> bool:
    """Whether shell `command` works in a folder outside the project root (module docstring)."""
    for match in _WORKS_IN.finditer(command):
        folder = next(group for group in match.groups() if group is not None)
        try:
            words = shlex.split(folder)
        except ValueError:
            words = [folder]
        if words and outside_root(words[0], project_id):
            return True
    return False


def moved_from_root(segments: list[list[str]], project_id: str) -> bool:
    """Whether a line's simple commands change folder to anywhere but the project root (`cd web
    && cat …`, `pushd lib`): what runs after it answers for that folder, not the root."""
    root = posixpath.normpath(project_id)
    return any(
        words[0] in ("cd", "pushd") and (len(words) < 2 or posixpath.normpath(words[1]) != root)
        for words in segments
        if words
    )


def _web(event: StoredEvent) -> bool:
    return event.content.get("tool") in _WEB_TOOLS


def _command(event: StoredEvent) -> str:
    if event.event_type == EventType.COMMAND_RUN:
        command = event.content.get("command")
    elif event.event_type == EventType.TOOL_CALL:
        given = event.content.get("input")
        command = given.get("command") if isinstance(given, dict) else None
    else:
        return ""
    return command if isinstance(command, str) else ""


def looked_away(event: StoredEvent) -> bool:
    """Whether `event` looked somewhere that is not the project: a path outside its root, a
    command run in another folder, a web page fetched or searched."""
    return (
        looked_outside(event)
        or (event.event_type in _LOOKING and _web(event))
        or ran_elsewhere(_command(event), event.project_id)
    )


def looked_outside(event: StoredEvent) -> bool:
    """Whether `event` is a tool call or result that looked at a path outside the project."""
    return event.event_type in _LOOKING and any(
        outside_root(path, event.project_id) for path in event.file_paths
    )


def _agent(event: StoredEvent) -> str:
    return event.agent_id or ""


def _read_of_project(event: StoredEvent) -> bool:
    """A tool's result naming files, all inside the project root (a relayed report names
    none)."""
    return (
        event.event_type == EventType.TOOL_RESULT
        and bool(event.file_paths)
        and not looked_outside(event)
    )


def _turns(events: Iterable[StoredEvent]) -> list[list[StoredEvent]]:
    """`events` cut where the user speaks in the main session."""
    turns: list[list[StoredEvent]] = [[]]
    for event in events:
        if (
            event.event_type == EventType.USER_MESSAGE
            and not event.sidechain
            and is_user_voice(event.origin)
        ):
            turns.append([])
        turns[-1].append(event)
    return turns


def _same_brief(one: str, other: str) -> bool:
    return " ".join(one.split()) == " ".join(other.split())


def _briefs(events: Iterable[StoredEvent]) -> dict[str, str]:
    """Each subagent's brief: the first message its own records show it was given."""
    briefs: dict[str, str] = {}
    for event in events:
        text = event.content.get("text")
        if (
            event.sidechain
            and event.event_type == EventType.USER_MESSAGE
            and isinstance(text, str)
            and _agent(event) not in briefs
        ):
            briefs[_agent(event)] = text
    return briefs


def _launch_brief(event: StoredEvent) -> str | None:
    """The brief of a launcher's call in the main session (`Agent`, `Task`), else None."""
    if event.sidechain or event.event_type != EventType.TOOL_CALL:
        return None
    if event.content.get("tool") not in SUBAGENT_TOOLS:
        return None
    given = event.content.get("input")
    prompt = given.get("prompt") if isinstance(given, dict) else None
    return prompt if isinstance(prompt, str) else ""


def _sends_outside(brief: str, project_id: str) -> bool:
    """Whether a brief names a path outside the project root (`/other/repo`, `../lib`)."""
    for word in brief.split():
        path = word.strip("`'\"()[]{}<>,;:.!?*")
        if path.startswith(("/", "~/", "../")) and outside_root(path, project_id):
            return True
    return False


def _launches_away(
    turn: list[StoredEvent], briefs: dict[str, str], away: set[str]
) -> frozenset[str]:
    """The ids of the launchers' results in `turn` that relay a report on another place."""
    relayed = any(e.sidechain and _agent(e) in away for e in turn)
    launched: dict[str, str] = {}
    found: set[str] = set()
    for event in turn:
        use = event.content.get("tool_use_id")
        use = use if isinstance(use, str) else ""
        brief = _launch_brief(event)
        if brief is not None:
            launched[use] = brief
            continue
        if (
            event.sidechain
            or event.event_type != EventType.TOOL_RESULT
            or event.content.get("tool") not in SUBAGENT_TOOLS
        ):
            continue
        given = launched.get(use, "")
        owners = [a for a, b in briefs.items() if given and _same_brief(b, given)]
        # The subagent that got this brief decides; without its records, any in the turn.
        elsewhere = any(owner in away for owner in owners) if owners else relayed
        if elsewhere or _sends_outside(given, event.project_id):
            found.add(event.id)
    return frozenset(found)


def replies_elsewhere(events: Iterable[StoredEvent]) -> frozenset[str]:
    """The ids of the replies in `events` (in order) that speak of another place: a subagent's
    that looked somewhere outside the project, a launcher's result relaying such a report, and
    the main agent's in a turn where it read no file of the project itself but, before that
    reply, looked elsewhere itself or had such a subagent work for it (it relays)."""
    events = list(events)
    turns = _turns(events)
    away = {_agent(e) for turn in turns for e in turn if e.sidechain and looked_away(e)}
    briefs = _briefs(events)
    found: set[str] = set()
    for turn in turns:
        found.update(_launches_away(turn, briefs, away))
        relayed = any(e.sidechain and _agent(e) in away for e in turn)
        own_read = any(not e.sidechain and _read_of_project(e) for e in turn)
        looked = False
        for event in turn:
            looked = looked or (not event.sidechain and looked_away(event))
            if event.event_type != EventType.ASSISTANT_RESPONSE:
                continue
            if event.sidechain:
                if _agent(event) in away:
                    found.add(event.id)
            elif (relayed or looked) and not own_read:
                found.add(event.id)
    return frozenset(found)


def read_in_project(event: StoredEvent) -> bool:
    """Whether `event` is a tool's result that may show something of the project: any but one
    that looked outside the project root or at the web."""
    return (
        event.event_type == EventType.TOOL_RESULT and not looked_outside(event) and not _web(event)
    )


def seen_elsewhere(events: Iterable[StoredEvent]) -> frozenset[str]:
    """The ids of the events in `events` that show another place: each one that looked away,
    and the result or command of a tool call that did (a `cd` elsewhere, a web fetch)."""
    found: set[str] = set()
    calls: set[str] = set()
    for event in events:
        use = event.content.get("tool_use_id")
        if looked_away(event) or (isinstance(use, str) and use in calls):
            found.add(event.id)
            if event.event_type == EventType.TOOL_CALL and isinstance(use, str):
                calls.add(use)
    return frozenset(found)
