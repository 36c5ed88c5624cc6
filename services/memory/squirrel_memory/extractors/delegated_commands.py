"""The commands a subagent was briefed to run, or reported that it ran and passed, by the role
their own words give.

Recent sessions hand much of their work to subagents: the parent's brief often says how the
project is checked ("You may build (`dotnet build`, `dotnet test`) to check your reasoning"),
and the subagent's report says what it ran ("`go test ./...` passes"). A transcript of the
subagent alone starts with that brief; a parent session without the subagent's transcript
keeps only the brief and the report. When no command of the session ran it, such a command
is how the project is built or tested, as the agent that knew the project said. The rule, the
same in every ecosystem:

- the text is a brief to a subagent (the `prompt` of a delegating tool call, or the parent's
  message that opens a subagent's transcript) or a subagent's report (what the delegating
  call returned, or the report the subagent handed back);
- a code span in it is a whole command whose own words give a role through the command table
  (test, lint, format, type-check, build): `dotnet test`, `npm run lint`;
- in a report, the sentence says the command passed (passes, succeeded, green, clean, a
  checker's "0 offenses" or "no issues") and nothing in it failed (a failure word negated
  before it, "none failing" or "no test failures", names no failure), or the line labels
  the command with the same role ("- Unit tests: `vitest run src`", "**Lint**: `eslint .`":
  an exploration's report saying how the project is checked; "CI pipeline: `npm run ci`"
  names no role and says nothing);
- a command negated before it in its clause ("do not run `npm test`"), one naming a path of
  one machine, one the session itself ran (the command's own runs say it better), and a brief
  or report that names a place outside the project (`/home/dev/other`, `../lib`: its commands
  may be that place's; scratch folders such as `/tmp` and the user's own configuration,
  `~/.npmrc` or `~/.config/…`, aside) say nothing;
- nor does a report of a subagent whose own records show it looked outside the project (it
  ran its checks in a sibling checkout: `elsewhere.replies_elsewhere`), nor one the session's
  own run contradicted (a command it gives failed when the session ran it:
  `contradicted_reports`).

One recipe per session: "A subagent's brief says: to build, `dotnet build`; to run the tests,
`dotnet test`." (or "A subagent reported passing: …", or "A subagent's report says: …").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.events import EventType, Origin
from squirrel_core.negation import negated_before
from squirrel_core.subagent_tools import HANDBACK_TOOL, SUBAGENT_TOOLS
from squirrel_memory.extractors.activity import commands
from squirrel_memory.extractors.contradicted_reports import contradicted, failed_last
from squirrel_memory.extractors.doc_roles import doc_command
from squirrel_memory.extractors.elsewhere import outside_root, replies_elsewhere
from squirrel_memory.extractors.subagent_findings import DEPENDENCY_CODE
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.task_records import purpose_of

KEY = "recipe:delegated"
#: Below a command seen to pass in the session (0.44 and up): another agent's word for it.
IMPORTANCE = 0.45
MAX_COMMANDS = 4
_WORDING = {
    "test": "to run the tests",
    "lint": "to lint",
    "format": "to format",
    "typecheck": "to type-check",
    "build": "to build",
}
_CODE_SPAN = re.compile(r"`([^`\n]{2,160})`")
_PASSED = re.compile(
    r"\b(?:pass|passes|passed|passing|succeed\w*|successful\w*|green|clean|all good)\b|✅|✓"
    # a checker's clean result: "0 offenses", "no issues", "found no type errors"; not a limit
    # ("max 0 warnings", "0 warnings allowed")
    r"|(?<!\bmax )(?<!\bmaximum )(?<!\bat most )\b(?:0|no|zero)\s+(?:[a-z]+\s+)?"
    r"(?:offen[cs]es|issues|problems|warnings|errors|diagnostics|violations)\b"
    r"(?!\s+(?:allowed|permitted|tolerated))",
    re.IGNORECASE,
)
#: A failure named in the sentence (not "0 failures", "no failures").
FAILED = re.compile(r"(?<!\b0 )(?<!\bno )\b(?:fail\w*|broken|errors?\b(?!: 0))", re.IGNORECASE)
#: A failure word negated, one word between at most: "none failing", "no test failures",
#: "without errors", "zero failures", "no type errors".
_NO_FAILURE = re.compile(
    r"\b(?:0|no|none|zero|without(?: any)?)\s+(?:[a-z]+\s+)?(?:fail\w*|errors?|broken)\b",
    re.IGNORECASE,
)


def names_failure(sentence: str) -> bool:
    """Whether `sentence` names a failure that no word before it negates ("3 tests fail"; not
    "none failing", "no test failures", "compiles without errors")."""
    return FAILED.search(_NO_FAILURE.sub(" ", sentence)) is not None


_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
#: A report's line that labels one command: "- Unit tests: `vitest run src`", "**Lint**: `x`".
_LABELLED = re.compile(
    r"^[ \t]*(?:[-*+][ \t]+|\d+[.)][ \t]+)?\**([A-Za-z][A-Za-z /&-]{0,40}?)\**[ \t]*:[ \t]*"
    r"(?:\*+[ \t]*)?`([^`\n]{2,160})`[ \t]*(?:\*+[ \t]*)?$",
    re.MULTILINE,
)
#: The words of a label that give each role.
_LABEL_ROLES = {
    "test": re.compile(r"\btest(?:s|ing)?\b", re.IGNORECASE),
    "lint": re.compile(r"\blint(?:s|ing|er)?\b", re.IGNORECASE),
    "format": re.compile(r"\bformat(?:s|ting|ter)?\b", re.IGNORECASE),
    "typecheck": re.compile(r"\btype[- ]?check(?:s|ing|er)?\b", re.IGNORECASE),
    "build": re.compile(r"\bbuild(?:s|ing)?\b", re.IGNORECASE),
}
#: A path in a brief or report: absolute, home or parent-relative (`/home/dev/other`, `../lib`).
_PLACE = re.compile(r"(?<![\w.~/:-])(?:~|\.\.)?/[\w.@~/-]+")
#: A web address of another machine (a repository, a library's site): a report or a brief naming
#: one may describe the code found there ("The upstream library https://… is tested with:").
_WEB = re.compile(r"\bhttps?://(?!localhost\b|127\.|0\.0\.0\.0\b|\[::1\])[\w-]+\.[\w.-]", re.I)
_HEADING = re.compile(r"^#{1,6}[ \t]", re.MULTILINE)
#: Scratch places a brief may name without the work being about them.
_SCRATCH = re.compile(r"^/(?:(?:private/)?(?:var/)?tmp|var/folders|dev|proc)(?:/|$)")
#: The user's own configuration: a dotfile in the home folder (`~/.npmrc`) or `~/.config/…`.
_USER_CONFIG = re.compile(r"^(?:~|/home/[^/]+|/Users/[^/]+|/root)/(?:\.config(?:/|$)|\.[\w.-]+$)")


@dataclass(frozen=True, slots=True)
class DelegatedCommands:
    """The session's recipe from briefs or reports: its key, statement and events."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def _given(content: dict[str, object], field: str) -> str | None:
    """The text `field` of a tool call's input, when the input is an object and the field text."""
    given = content.get("input")
    value = given.get(field) if isinstance(given, dict) else None
    return value if isinstance(value, str) else None


def _brief(event: StoredEvent) -> str | None:
    content = event.content
    if event.event_type == EventType.TOOL_CALL and content.get("tool") in SUBAGENT_TOOLS:
        return _given(content, "prompt")
    if event.event_type == EventType.USER_MESSAGE and event.origin == str(Origin.PARENT_AGENT):
        text = content.get("text")
        return text if isinstance(text, str) else None
    return None


def _report(event: StoredEvent) -> str | None:
    content = event.content
    tool = content.get("tool")
    if event.event_type == EventType.TOOL_RESULT and tool in SUBAGENT_TOOLS:
        output = content.get("output")
        return output if isinstance(output, str) and not content.get("is_error") else None
    if event.event_type == EventType.TOOL_CALL and tool == HANDBACK_TOOL:
        return _given(content, "message")
    return None


def names_elsewhere(text: str, project_id: str) -> bool:
    """Whether `text` names a place outside the project (another repository, a sibling folder):
    the commands in it may be that place's."""
    for match in _PLACE.finditer(text):
        path = match.group(0).rstrip(".")
        if _SCRATCH.match(path) or _USER_CONFIG.match(path):
            continue
        if outside_root(path, project_id):
            return True
    return False


#: One word naming a folder (`tests/`, `spec/models/`).
_FOLDER = re.compile(r"^[\w./-]+/$")


def named_commands(text: str, *, passed: bool) -> list[tuple[str, str]]:
    """(purpose, command) for each whole command of a role in `text`; with `passed`, only
    those in a sentence saying they passed and naming no failure."""
    found: list[tuple[str, str]] = []
    for sentence in _SENTENCE.split(text):
        if passed and (not _PASSED.search(sentence) or names_failure(sentence)):
            continue
        for match in _CODE_SPAN.finditer(sentence):
            command = doc_command(match.group(1))
            if command is None or negated_before(sentence, match.start()):
                continue
            if any(word.startswith(("/", "~")) for word in command.split()):
                continue
            if _FOLDER.match(command):
                continue  # "the tests under `tests/`": a place, not a command
            purpose = purpose_of(command)
            if purpose is not None and purpose[0] in _WORDING:
                found.append((purpose[0], command))
    return found


def labelled_commands(text: str, project_id: str) -> list[tuple[str, str]]:
    """(purpose, command) for each line of `text` that labels one whole command with the role
    its own words give ("- Unit tests: `vitest run src`"), in a paragraph that names no place
    outside the project (a long report may describe the tool's own data folders elsewhere) and
    no dependency's code (`node_modules/…`: that package's scripts are not the project's), under
    a heading whose part names no web address of another machine (it may describe the code
    found there)."""
    found: list[tuple[str, str]] = []
    headings = [h.start() for h in _HEADING.finditer(text)]
    for match in _LABELLED.finditer(text):
        start = text.rfind("\n\n", 0, match.start())
        end = text.find("\n\n", match.end())
        paragraph = text[start + 1 : len(text) if end < 0 else end]
        if names_elsewhere(paragraph, project_id) or DEPENDENCY_CODE.search(paragraph):
            continue
        if _WEB.search(_section(text, headings, match.start())):  # may describe code there
            continue
        command = doc_command(match.group(2))
        if command is None or any(word.startswith(("/", "~")) for word in command.split()):
            continue
        purpose = purpose_of(command)
        role = _LABEL_ROLES.get(purpose[0]) if purpose is not None else None
        if purpose is not None and role is not None and role.search(match.group(1)):
            found.append((purpose[0], command))
    return found


def _section(text: str, headings: list[int], at: int) -> str:
    """The part of `text` under the heading `at` is under (from its start when none is)."""
    start = max((h for h in headings if h <= at), default=0)
    end = min((h for h in headings if h > at), default=len(text))
    return text[start:end]


def delegated_commands(events: list[StoredEvent]) -> DelegatedCommands | None:
    """The commands the session's briefs to subagents give, or its subagents reported
    passing, that the session did not run itself; None when there are none."""
    runs = commands(events)
    ran = {" ".join(run.command.split()) for run in runs}
    failed = failed_last(runs)
    # A report of a subagent that looked outside the project (its own records show it), or one
    # a command of which failed when the session ran it, says nothing of how this one is run.
    elsewhere = replies_elsewhere(events)
    # A report's labels are read only when no brief sent a subagent to another place.
    away = any(
        names_elsewhere(brief, event.project_id) or _WEB.search(brief) is not None
        for event in events
        if (brief := _brief(event)) is not None
    )
    briefed: dict[str, str] = {}
    reported: dict[str, str] = {}
    described: dict[str, str] = {}
    event_ids: list[str] = []
    for event in events:
        brief, report = _brief(event), _report(event)
        if report is not None and (event.id in elsewhere or contradicted(report, failed)):
            report = None
        found: list[tuple[str, str, dict[str, str]]] = []
        for text, into, passed in ((brief, briefed, False), (report, reported, True)):
            if text is not None and not names_elsewhere(text, event.project_id):
                found += [(p, c, into) for p, c in named_commands(text, passed=passed)]
        if report is not None and not away:
            found += [(p, c, described) for p, c in labelled_commands(report, event.project_id)]
        for purpose, command, kept in found:
            if command in ran or purpose in briefed or purpose in reported:
                continue
            if kept is described and purpose in described:
                continue
            kept[purpose] = command
            if event.id not in event_ids:
                event_ids.append(event.id)
    chosen = briefed or reported or described
    if not chosen:
        return None
    listed = "; ".join(f"{_WORDING[p]}, `{c}`" for p, c in list(chosen.items())[:MAX_COMMANDS])
    said = (
        "A subagent's brief says"
        if briefed
        else "A subagent reported passing"
        if reported
        else "A subagent's report says"
    )
    return DelegatedCommands(KEY, f"{said}: {listed}.", tuple(event_ids))
