"""A tool the user says the project does not use ("we don't use Docker here", "don't use yarn,
that lockfile is stale") is not stated as how the project works, whatever files of it the
repository still holds (a compose file, an old lock file, a Makefile nobody runs).

Only the user's own words count (an assistant's "we don't use X" is no evidence), in the
first person or as an instruction: "we/I don't use X", "we/I do not use X", "we never use
X", "we no longer use X", one that says the use ended ("we stopped using X", "I quit using X",
"we moved off X", "we dropped X"), and a sentence that starts "Don't use X" / "Do not use X" /
"Never use X", where the clause
ends after the tool's name or goes on with where, when or why ("we don't use Yarn workspaces"
disowns a feature, not Yarn). An instruction to stop ("Stop running X on my files", "stop
using X") disowns X too when X is a tool the tables know or the sessions ran ("stop running
tests" names no tool) and the sentence does not say when or how often instead ("stop running
pytest on every save", "… until the stubs land"). A message that has a change taken back and
says why by a tool ("revert that, ccache breaks our coverage builds") disowns that tool when
a command of the sessions ran it or gave it as an option's value (`…_LAUNCHER=ccache`); a
task's word or a thing ("the build breaks") is no tool. A project fact or
recipe that names the tool (as a word: `docker` names Docker Compose, not a `Dockerfile`), or
a program only that tool runs (the command table's `lein` of Leiningen), is
then left out, unless it says the negation itself ("not", "instead of"); the user's own
note stays.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Set
from datetime import datetime

from squirrel_core.command_table import command_table, task_purpose
from squirrel_core.events import is_user_voice
from squirrel_memory.extractors.activity import commands, user_requests
from squirrel_memory.extractors.tool_names import known_tool, normalised, ran_programs
from squirrel_memory.models import MemoryCandidate, MemoryType, StoredEvent

_NOT_USED = re.compile(
    r"(?:(?:\b(?:we|i)\s+(?:don['’]?t|do\s+not|never|no\s+longer)|"
    r"(?:^|[.!?;:]\s*)(?:don['’]?t|do\s+not|never))\s+use\s+(?P<tool>[A-Za-z][\w.+-]*)"
    # "we stopped using beads", "I quit using Docker", "we moved off Jenkins": no longer used
    r"|\b(?:we|i)(?:['’]ve)?\s+(?:(?:stopped|quit)\s+using|moved\s+(?:away\s+from|off(?:\s+of)?)|"
    r"dropped|ditched|abandoned|got\s+rid\s+of)\s+(?P<gone>[A-Za-z][\w.+-]*)"
    # "Stop running JuliaFormatter on my files": an instruction to stop (a known tool only)
    r"|(?:^|[.!?;:]\s*)(?:please\s+)?(?:stop|quit)\s+(?:using|running)\s+(?P<stop>[A-Za-z][\w.+-]*))"
    # The tool itself, not a part of it ("we don't use Yarn workspaces", "Yarn PnP"): the
    # clause ends after its name, or goes on with where, when or why.
    r"(?=\s*(?:$|[.,;:!?)]|(?:here|there|in|for|on|at|anymore|any\s+more|locally|now|so|but"
    r"|and|because|since|as|with|we|it|last|earlier|recently|already|entirely|completely"
    r"|altogether|a\s+(?:while|month|week|year)|(?:months|weeks|years|days)\s+ago|yesterday)\b))",
    re.IGNORECASE,
)
#: The rest of a "stop running X" sentence that says when or how often, not whether: "on
#: every save", "until the stubs land", "before each commit".
_HOW_OFTEN = re.compile(
    r"[^.!?;]*?\b(?:every|each|always|so\s+often|twice|again|all\s+the\s+time|unless|until"
    r"|before|after|when|whenever|while)\b",
    re.IGNORECASE,
)
#: A message that has the change taken back: "revert that", "undo it", "roll this back".
_TAKE_BACK = re.compile(
    r"\b(?:revert|undo|back\s+out|roll\s+back|take\s+out)\s+(?:that|this|it|the\s+change)\b"
    r"|\broll\s+(?:that|this|it)\s+back\b",
    re.IGNORECASE,
)
#: The reason given by a tool: "ccache breaks our coverage builds", "X doesn't work with Y".
_BREAKS = re.compile(
    r"(?<![\w.+-])(?P<tool>[A-Za-z][\w.+-]*)\s+(?:breaks|broke|is\s+broken|messes\s+up|"
    r"conflicts\s+with|(?:doesn['’]?t|does\s+not|won['’]?t|never)\s+works?)\b",
    re.IGNORECASE,
)
#: Words after "don't use" that name no tool.
_NOT_TOOLS = frozenset({"the", "a", "an", "any", "this", "that", "it", "them", "those", "these"})
_SAYS_NEGATION = re.compile(r"\b(?:not|never|instead of|rather than|don['’]?t)\b", re.IGNORECASE)
_STATED_KINDS = (MemoryType.PROJECT_FACT, MemoryType.RECIPE)
#: Words by which an instruction turns a tool down or stops it ("never", "stop running").
_TURNS_DOWN = re.compile(
    r"\b(?:not|never|instead of|rather than|don['’]?t|stop\w*|quit|no longer|without)\b",
    re.IGNORECASE,
)


def disowned_tools(events: list[StoredEvent]) -> set[str]:
    """The tools (lower-cased) the user said in their own words the project does not use."""
    return set(disowned_since(events))


def disowned_since(events: list[StoredEvent]) -> dict[str, datetime]:
    """The tools (lower-cased) the user said in their own words the project does not use, each
    with the time they last said so."""
    found: dict[str, datetime] = {}
    ran: frozenset[str] | None = None
    for event, text in user_requests(events):
        if not is_user_voice(event.origin):
            continue
        for match in _NOT_USED.finditer(text):
            said = (match["tool"] or match["gone"] or match["stop"]).rstrip(".-")
            tool = said.lower()
            if match["stop"]:
                if _HOW_OFTEN.match(text, match.end()):
                    continue  # "stop running pytest on every save": less often, not never
                ran = ran_programs(events) if ran is None else ran
                if not known_tool(said, ran):
                    continue  # "stop running tests after each edit": a task, not a tool
            if tool not in _NOT_TOOLS:
                found[tool] = max(found.get(tool, event.timestamp), event.timestamp)
        if _TAKE_BACK.search(text):
            for match in _BREAKS.finditer(text):
                tool = match["tool"].rstrip(".-").lower()
                if (
                    tool in _NOT_TOOLS
                    or task_purpose(tool) is not None
                    or _THING.search(text[max(0, match.start() - 16) : match.start()])
                ):
                    continue  # "it breaks", "the build breaks": no tool named
                ran = ran_programs(events) if ran is None else ran
                if _ran_or_given(tool, ran, events):
                    found[tool] = max(found.get(tool, event.timestamp), event.timestamp)
    return found


#: A determiner just before a name: a thing of the project ("the build"), not a tool.
_THING = re.compile(r"\b(?:the|our|my|your|this|that|a|an)\s+$", re.IGNORECASE)


def _ran_or_given(tool: str, ran: frozenset[str], events: list[StoredEvent]) -> bool:
    """Whether a command of the sessions ran `tool` (`ccache -s`) or gave it as an option's
    value (`-DCMAKE_CXX_COMPILER_LAUNCHER=ccache`)."""
    if normalised(tool) in ran:
        return True
    given = re.compile(rf"=[\"']?{re.escape(tool)}(?![\w.-])", re.IGNORECASE)
    return any(given.search(run.command) for run in commands(events))


@functools.cache
def _programs_of() -> dict[str, frozenset[str]]:
    """Each tool's programs (lower-cased): a program every command-table pattern of which
    names that one tool (`lein test`, `lein run`: Leiningen's `lein`)."""
    tools_of: dict[str, set[str]] = {}
    for words, use in command_table().patterns.items():
        tools_of.setdefault(words[0].lower(), set()).add(use.tool.lower())
    programs: dict[str, set[str]] = {}
    for program, tools in tools_of.items():
        if len(tools) == 1:
            programs.setdefault(next(iter(tools)), set()).add(program)
    return {tool: frozenset(found) for tool, found in programs.items()}


def names_tool(content: str, tools: Set[str]) -> bool:
    """Whether `content` names one of `tools`, or a program only that tool runs, as a word."""
    return bool(tools) and bool(_naming(frozenset(tools)).search(content))


@functools.lru_cache(maxsize=64)
def _naming(tools: frozenset[str]) -> re.Pattern[str]:
    """A pattern finding any of `tools`, or a program only that tool runs, as a word, built
    once per set of tools (every memory of a pass is checked against the same set)."""
    names = set(tools).union(*(_programs_of().get(t, frozenset()) for t in tools))
    return re.compile(
        r"(?<![\w.-])(?:" + "|".join(re.escape(t) for t in sorted(names)) + r")(?![\w])",
        re.IGNORECASE,
    )


def states_disowned(memory_type: MemoryType, content: str, tools: Set[str]) -> bool:
    """Whether a memory states a disowned tool as how the project works: a project fact or
    recipe naming one of `tools`, or a program only that tool runs, as a word, without saying
    the negation itself."""
    if not tools or memory_type not in _STATED_KINDS:
        return False
    return names_tool(content, tools) and not _SAYS_NEGATION.search(content)


def instructs_disowned(memory_type: MemoryType, content: str, tools: Set[str]) -> bool:
    """Whether an instruction of the user's tells to use a disowned tool ("Always run X on the
    files you touch"): a user_style memory naming one of `tools` (or a program only it runs)
    that turns nothing down and stops nothing. Whether the user said it before disowning the
    tool is the caller's to check: an instruction said after it stands."""
    if not tools or memory_type is not MemoryType.USER_STYLE:
        return False
    return names_tool(content, tools) and not _TURNS_DOWN.search(content)


def disowned_after(
    candidate: MemoryCandidate, since: Mapping[str, datetime], when: Mapping[str, datetime]
) -> bool:
    """Whether `candidate` states a tool as how the project works (`states_disowned`) or asks
    for its use (`instructs_disowned`), and the user disowned that tool (`since`, as
    `disowned_since` gives it) after all of the candidate's evidence (`when`: each event's
    time) or in its latest evidence (the message that disowned it is no evidence of its
    use)."""
    times = [when[i] for i in candidate.source_event_ids if i in when]
    if not times:
        return False
    latest = max(times)
    return any(
        latest <= at
        and (
            states_disowned(candidate.type, candidate.content, {tool})
            or instructs_disowned(candidate.type, candidate.content, {tool})
        )
        for tool, at in since.items()
    )


def without_disowned(
    found: list[MemoryCandidate], events: list[StoredEvent]
) -> list[MemoryCandidate]:
    """`found` less the project facts and recipes that name a tool the user disowned, and the
    user's instructions to use one that all came before the user disowned it."""
    since = disowned_since(events)
    if not since:
        return found
    tools = set(since)
    when = {e.id: e.timestamp for e in events}
    return [
        c
        for c in found
        if not states_disowned(c.type, c.content, tools) and not disowned_after(c, since, when)
    ]
