"""The checks a pull request's test plan says were run, from the description `gh pr view` or
`glab mr view` printed in the session.

A pull request's description often ends with what was run to verify it ("## Test plan",
"## Testing", "## Verification"): bullets that open with the command in a code span and say
it passed ("- [x] `npm test` passes", "- `script/check.sh` → `Config validated successfully`").
Those commands are how the project checks a change, in every ecosystem, and a short session
that only reads a pull request sees them nowhere else. A bullet is read when its command is a
known check (a test runner, linter, formatter or type checker) or one of the project's own
scripts (a relative path), and the bullet says it passed (a ticked box, "passes", "succeeded",
an output that reports success). Left out: an unticked box (not run yet), a bullet that does not
open with the command, other sections (follow-ups, design), a command that failed or found
problems, a script the pull request itself adds (it is not on the base branch yet), a
closed pull request that was never merged and a pull request of another repository (a
`--repo`, `-R` or address naming a repository of another name than the project's folder, a
shell outside the project): its plan is how that project checks a change.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from pathlib import PurePosixPath
from urllib.parse import urlsplit

from squirrel_core.commands import classify_command
from squirrel_memory.extractors.activity import commands, in_folder
from squirrel_memory.extractors.elsewhere import ran_elsewhere
from squirrel_memory.extractors.wording import key_slug
from squirrel_memory.models import StoredEvent

#: Importance of the recipe: a check the project's own pull request says it ran.
IMPORTANCE = 0.6
CHECK_PURPOSES = frozenset({"test", "lint", "format", "typecheck"})
#: Checks named by one memory.
MAX_CHECKS = 3
MAX_COMMAND_CHARS = 100
MAX_OUTPUT_CHARS = 80

_VIEWS = (["gh", "pr", "view"], ["glab", "mr", "view"])
#: A view of another repository's pull request: `gh pr view 5 --repo owner/other`.
_REPO_FLAGS = frozenset({"--repo", "-R"})
_JSON_BODY = re.compile(r'"(?:body|description)"\s*:\s*"((?:[^"\\]|\\.)*)"')
_JSON_NUMBER = re.compile(r'"(?:number|iid)"\s*:\s*(\d+)')
_JSON_ADDED = re.compile(r'\{"path"\s*:\s*"([^"]+)"[^{}]*"changeType"\s*:\s*"ADDED"')
_CLOSED = re.compile(r'"state"\s*:\s*"CLOSED"|^state:\s+CLOSED\b', re.MULTILINE)
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(?P<title>.+?)\s*#*\s*$")
_PLAN_TITLE = re.compile(
    r"^(?:test(?:s|ing)?(?:\s+(?:plan|done|results?))?|verification|verified|validation"
    r"|how\s+(?:(?:this|it)\s+was\s+|i\s+|to\s+)?test(?:ed)?)\b\s*:?\s*$",
    re.IGNORECASE,
)
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[(?P<box>[ xX])\]\s+)?(?P<rest>\S.*)$")
_LEAD_CODE = re.compile(r"^`(?P<command>[^`\n]{2,200})`(?P<after>.*)$")
_REPORTED = re.compile(r"^\s*(?:→|->|=>|:|—|-|prints|printed|reports?|gives)\s*`(?P<out>[^`]+)`")
_SUCCESS = re.compile(
    r"\b(?:pass(?:es|ed|ing)?|succeed(?:s|ed)?|success(?:ful(?:ly)?)?|green|clean|valid(?:ated)?"
    r"|ok|no (?:errors?|issues|problems|warnings|findings))\b|✓|✔|✅",
    re.IGNORECASE,
)
_FAILURE = re.compile(
    r"\b(?:fail(?:s|ed|ing|ures?)?|errors? found|broken|red|flaky|skipped|not run)\b|✗|❌",
    re.IGNORECASE,
)
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=\S*$")


@dataclass(frozen=True, slots=True)
class ReviewChecks:
    """The checks one pull request's test plan ran: key, sentence and the run behind it."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def _body(output: str) -> str:
    """The description in `output`: a `--json` object's body, else the text as printed."""
    match = _JSON_BODY.search(output)
    if match is None:
        return output
    try:
        body = json.loads(f'"{match.group(1)}"')
    except json.JSONDecodeError:
        return output
    return body if isinstance(body, str) else output


def _plan_bullets(body: str) -> list[tuple[str | None, str]]:
    """(tick box, text) of the bullets under the test plan's headings of `body`."""
    found: list[tuple[str | None, str]] = []
    inside = False
    for line in body.splitlines():
        heading = _HEADING.match(line)
        if heading:
            inside = bool(_PLAN_TITLE.match(heading.group("title").strip("*_ ")))
            continue
        bullet = _BULLET.match(line) if inside else None
        if bullet:
            found.append((bullet.group("box"), bullet.group("rest").strip()))
    return found


def _is_check(command: str, added: set[str]) -> bool:
    """Whether `command` is a known check or one of the project's own scripts (not one the pull
    request adds)."""
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    while words and _ASSIGNMENT.match(words[0]):
        words = words[1:]
    if not words:
        return False
    program = words[0]
    if "/" in program:
        script = program.removeprefix("./")
        own = not program.startswith(("/", "~", "..", "$"))
        return own and script not in added
    use = classify_command(command)
    return use is not None and use.purpose in CHECK_PURPOSES


def _passed(box: str | None, after: str) -> str | None:
    """What a bullet says the check gave: its reported output, "" when it says only that it
    passed, None when it does not say it passed."""
    reported = _REPORTED.match(after)
    said = reported.group("out") if reported else after
    if _FAILURE.search(said):
        return None
    if reported and _SUCCESS.search(said):
        return reported.group("out").strip()
    if box in ("x", "X") or _SUCCESS.search(after.split(".", 1)[0]):
        return ""
    return None


def _other_repository(view: list[str], run_cwd: str | None, command: str, root: str) -> bool:
    """Whether the view reads a pull request of another repository: one `--repo` / `-R` or its
    address names whose name is not the project folder's, or viewed from a shell outside the
    project. (A repository named like the project's folder is taken for the project's own.)"""
    if run_cwd is not None and not in_folder(run_cwd, root):
        return True
    if ran_elsewhere(command, root):
        return True
    own = PurePosixPath(root).name.lower()
    named: list[str] = []
    for index, word in enumerate(view[3:], start=3):
        if word in _REPO_FLAGS:
            named.append(view[index + 1] if index + 1 < len(view) else "")
        elif word.startswith(("--repo=", "-R=")):
            named.append(word.split("=", 1)[1])
        elif "://" in word:
            path = urlsplit(word).path
            named.append(re.split(r"/(?:-/)?(?:pull|merge_requests)/", path, maxsplit=1)[0])
    return any(_repository_name(name) != own for name in named)


def _repository_name(named: str) -> str:
    """The repository's own name in `owner/name`, `host/owner/name` or an address's path."""
    return named.rstrip("/").rsplit("/", 1)[-1].removesuffix(".git").lower()


def _number(tokens: list[str], output: str) -> str:
    match = _JSON_NUMBER.search(output)
    if match:
        return match.group(1)
    return next((t.lstrip("#!") for t in tokens[3:] if t.lstrip("#!").isdigit()), "")


def review_checks(events: list[StoredEvent]) -> list[ReviewChecks]:
    """The checks the test plans of the pull requests viewed in `events` ran (module doc)."""
    found: dict[str, ReviewChecks] = {}
    for run in commands(events):
        if run.ok is False:
            continue
        view = next((t for t in run.segments if t[:3] in _VIEWS), None)
        if view is None or _CLOSED.search(run.output):
            continue
        root = events[0].project_id.rstrip("/")
        if _other_repository(view, run.cwd, run.command, root):
            continue
        added = set(_JSON_ADDED.findall(run.output))
        checks: list[str] = []
        for box, text in _plan_bullets(_body(run.output)):
            lead = _LEAD_CODE.match(text)
            if box == " " or lead is None:
                continue
            command = " ".join(lead.group("command").split())
            gave = _passed(box, lead.group("after"))
            if gave is None or len(command) > MAX_COMMAND_CHARS or not _is_check(command, added):
                continue
            shown = f"`{command}`"
            if gave and len(gave) <= MAX_OUTPUT_CHARS and "`" not in gave:
                shown += f" (it reported `{gave}`)"
            if shown not in checks:
                checks.append(shown)
        if not checks:
            continue
        number = _number(view, run.output)
        what = "pull request" if view[0] == "gh" else "merge request"
        named = f"{what} #{number}" if number else f"a {what}"
        listed = checks[:MAX_CHECKS]
        joined = listed[0] if len(listed) == 1 else ", ".join(listed[:-1]) + " and " + listed[-1]
        text = f"The test plan of {named} checked the change with {joined}."
        key = "recipe:review-checks:" + key_slug(lead_of(listed[0]))
        found[key] = ReviewChecks(key, text, (run.event_id,))
    return list(found.values())


def lead_of(shown: str) -> str:
    """The command of a shown check (`` `cmd` (it reported …) `` → `cmd`)."""
    return shown.split("`", 2)[1]
