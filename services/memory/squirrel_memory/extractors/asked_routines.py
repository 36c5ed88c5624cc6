"""Routines asked for by name: the commands that carried out "lint the package" as its recipe.

A user request (typed, in the user's voice) whose verb phrase names a role — test, lint,
format, check, type-check, build, docs, release, deploy — is carried out by the commands that
run in reply, before the user speaks again. Those run in the project by the main agent, that
did something (no look-around, no read-only `git`, no command that only reports state such as
`docker ps`, a health URL's `curl` or a dry run, no install) and whose last run passed (a
failure a pipe hid is a failure) are how the project does that routine; a check (test, lint,
format, type-check) that ran before an edit later in the turn checked no more than a draft and
is no step, nor is a command of no known purpose that sets something up (`npx husky init`,
`tool add x`), nor a narrower run of a command the turn later ran whole (`tool test --filter
X`, then `tool test`): "To lint (as asked): `a`, then `b`." A command's own words
need not say the role (an interpreter one-liner, a formatter with an unusual name, a chain of
tools): the request says it. No routine comes from a question, a plan, a request naming
several roles whose commands do not split by their own roles, a request for one file answered
with commands on files, a turn whose commands all failed, commands run in another folder or
repository, or a request the user then corrected ("no, use X": the commands after the
correction are the routine). A routine of one command that a recipe already shows is not
written again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.events import EventType, Origin
from squirrel_memory.extractors.activity import CommandRun, commands, in_folder, user_requests
from squirrel_memory.extractors.candidates import candidate
from squirrel_memory.extractors.evidence import CHECK_PURPOSES, Attempt, attempts
from squirrel_memory.extractors.evidence.piped_runs import with_piped_outcomes
from squirrel_memory.extractors.evidence.state_looks import only_reports
from squirrel_memory.extractors.evidence.workflows import as_run, looks_around
from squirrel_memory.models import MemoryCandidate, MemoryType, StoredEvent

#: Steps of a routine, at most; a longer turn is a piece of work, not a routine.
MAX_STEPS = 5
IMPORTANCE = 0.6

_LEAD = (
    r"(?:^|[.!?;:\n]\s*|,\s*|\b(?:and|then)\s+)"
    r"(?:(?:please|pls|ok(?:ay)?|now|then|and|also|just|so|great|thanks|can you|could you|"
    r"would you|go ahead and|let's|lets|first|finally)[,\s]+)*"
)
_THINGS = (
    r"(?:it|this|that|everything|all|the\s+(?:[\w-]+\s+)?(?:code|codebase|project|package|repo|"
    r"repository|app|crate|module|library|sources?|files|tree|changes?|workspace|site|binary|"
    r"image))"
)
#: Role → the verb phrases that ask for it.
_ROLE_PHRASES = {
    "test": (
        r"(?:re-?)?run\s+(?:the\s+|all\s+(?:the\s+)?)?(?:[\w-]+\s+)?tests?\b|"
        rf"test\s+{_THINGS}\b|make\s+sure\s+(?:the\s+|all\s+(?:the\s+)?)?tests\s+pass\b"
    ),
    "lint": r"(?:re-?)?lint\b|run\s+(?:the\s+|all\s+(?:the\s+)?)?(?:linters?|lint(?:ing)?)\b",
    "format": rf"(?:re-?)?format\s+{_THINGS}\b|run\s+(?:the\s+)?formatters?\b",
    "check": r"run\s+(?:the\s+|all\s+(?:the\s+)?)?checks\b|check\s+everything\b",
    "typecheck": r"type-?check\b|run\s+(?:the\s+)?type[\s-]?checkers?\b",
    "build": rf"(?:re-?)?build\s+{_THINGS}\b|run\s+the\s+build\b|compile\s+{_THINGS}\b",
    "docs": (
        r"(?:re-?)?(?:generate|build|render|make)\s+(?:the\s+)?(?:api\s+)?"
        r"(?:docs|documentation)\b"
    ),
    "release": (
        rf"release\s+(?:{_THINGS}|a\s+new\s+version|v?\d[\w.-]*)|cut\s+a\s+(?:new\s+)?release\b|"
        rf"publish\s+(?:{_THINGS}|a\s+new\s+version)|publish\s+(?:it\s+)?to\b"
    ),
    "deploy": r"(?:re-?)?deploy\b|ship\s+it\s+to\b",
}
_ROLES = {
    role: re.compile(_LEAD + rf"(?:{phrase})", re.IGNORECASE)
    for role, phrase in _ROLE_PHRASES.items()
}
#: A run of blanks: the role patterns see it as one (a line break when it holds one), so that
#: from each line break of a long blank run they do not read on to its end and back.
_BLANKS = re.compile(r"\s{2,}")


def _one_blank(run: re.Match[str]) -> str:
    return "\n" if "\n" in run.group(0) else " "


#: The command purposes each role is carried out with (None: any command).
_ROLE_PURPOSES: dict[str, frozenset[str] | None] = {
    "test": frozenset({"test"}),
    "lint": frozenset({"lint", "format"}),
    "format": frozenset({"format", "lint"}),
    "typecheck": frozenset({"typecheck"}),
    "docs": frozenset({"docs", "build"}),
    "check": frozenset({"test", "lint", "format", "typecheck"}),
    "build": None,
    "release": None,
    "deploy": None,
}
_WORDING = {
    "test": "to run the tests",
    "lint": "to lint",
    "format": "to format",
    "check": "to run the checks",
    "typecheck": "to type-check",
    "build": "to build",
    "docs": "to build the documentation",
    "release": "to release",
    "deploy": "to deploy",
}
_QUESTION = re.compile(
    r"^\s*(?:how|what|why|where|which|when|who|is|are|does|do|did|should|shall)\b.*\?\s*$|"
    r"^\s*how\b|\bhow\s+(?:do|can|should|would)\s+(?:i|we|you)\b",
    re.IGNORECASE | re.DOTALL,
)
_PLAN = re.compile(
    r"\b(?:plan|planning|propose|outline|draft|(?:don't|do\s+not)\s+(?:run|execute|do)|"
    r"without\s+running|(?:it|this|that)\s+later|tomorrow|next\s+time|before\s+you)\b",
    re.IGNORECASE,
)
#: A request to make something new that does the role ("add a workflow to run the tests").
_MAKING = re.compile(
    r"\b(?:add|create|write|implement|set\s+up|configure|introduce)\s+(?:a|an|the|new|some)"
    r"(?:\s+[\w-]+){1,4}?\s+(?:to|that|which)\b",
    re.IGNORECASE,
)
#: A short go-ahead: the turn goes on.
_APPROVAL = re.compile(
    r"^\s*(?:yes|yep|yeah|y|ok(?:ay)?|sure|go\s+ahead|continue|proceed|do\s+it|please\s+do|"
    r"sounds\s+good|lgtm|approved?|fine)\b[\w\s,.!']{0,40}$",
    re.IGNORECASE,
)
_CORRECTION = re.compile(
    r"^\s*(?:no\b|nope\b|not\s+that\b|wrong\b|instead\b|actually\b|rather\b|use\s+\S+\s+instead\b)",
    re.IGNORECASE,
)
#: A file named in a request or a command: `foo.py`, `src/app.ts`, `tests/x::y`.
_FILE = re.compile(r"(?:^|[\s'\"`(])[\w./-]*\w\.[A-Za-z]{1,5}(?:::\S*)?(?=$|[\s'\"`),:;?!])")
_INTERPRETER = re.compile(r"^(?:python\d*(?:\.\d+)?|node|ruby|perl|bash|sh|zsh|deno|bun|Rscript)$")
_INLINE_OPTIONS = frozenset({"-e", "-c", "--eval", "--command", "--execute"})
_RECORDING_GIT = frozenset({"add", "commit", "push", "stash", "tag"})
#: Runners of a one-off tool: the tool's own words come after its name.
_ONE_OFF_RUNNERS = frozenset({"npx", "pnpx", "bunx", "uvx", "pipx"})
#: Moving files around prepares a change; it is no step of a routine.
_FILE_WORK = frozenset({"mkdir", "touch", "cp", "mv", "rm", "ln", "chmod", "chown", "rmdir"})
#: Options that only ask a program what it has (`tool -l`, `tool --help`): a look-up.
_LOOK_UP_OPTIONS = frozenset({"-l", "--list", "-h", "--help", "-V", "--version", "-v"})


@dataclass(frozen=True, slots=True)
class _Turn:
    request_id: str
    roles: tuple[str, ...]
    names_file: bool
    runs: list[CommandRun]


def asked_routines(
    events: list[StoredEvent], written: list[MemoryCandidate] | None = None
) -> list[MemoryCandidate]:
    """The routines the user asked for by name in `events`, one per role (the latest wins).

    `written` are the candidates other rules made: a one-command routine that a recipe of
    theirs already shows is left out."""
    ordered = sorted(events, key=lambda e: (e.timestamp, e.id))
    if not ordered:
        return []
    root = ordered[0].project_id.rstrip("/")
    shown = {
        m.group(1)
        for c in written or []
        if c.type == MemoryType.RECIPE
        for m in re.finditer(r"`([^`]+)`", c.content)
    }
    found: dict[str, MemoryCandidate] = {}
    edited = [
        e.timestamp for e in ordered if e.event_type == EventType.CODE_CHANGE and not e.sidechain
    ]
    for turn in _turns(ordered):
        steps = [a for a in attempts(turn.runs, root) if _kept(a, root)]
        # A check run before a later edit of the turn did not check what the turn ended with.
        last = max((a.run.timestamp for a in steps), default=None)
        steps = [
            a
            for a in steps
            if not (a.use is not None and a.use.purpose in CHECK_PURPOSES and last is not None)
            or not any(a.run.timestamp < when < last for when in edited)
        ]
        for role, chosen in _split(turn.roles, steps):
            routine = _passed(chosen, role, turn.names_file)
            if not routine:
                continue
            texts = [as_run([a], a.base) for a in routine]
            if len(texts) == 1 and texts[0] in shown:
                continue
            made = _routine(role, routine, texts, turn.request_id)
            found[made.key] = made
    return list(found.values())


def _turns(ordered: list[StoredEvent]) -> list[_Turn]:
    """Each request naming a role with the commands the main agent ran before the user spoke
    again; after a correction, the commands that followed it."""
    main = [e for e in ordered if not e.sidechain]
    position = {e.id: i for i, e in enumerate(main)}
    # A check whose failure a pipe hid (`cabal test | tail` printing FAIL, exit 0) failed.
    runs = with_piped_outcomes(commands(main), main)
    # An answer to the assistant's question or a go-ahead does not end the turn.
    requests = [(e, t) for e, t in user_requests(main) if not _goes_on(e, t)]
    turns: list[_Turn] = []
    pending: tuple[str, tuple[str, ...], bool] | None = None
    for index, (event, text) in enumerate(requests):
        asked = _asked(text)
        if asked is not None:
            pending = (event.id, *asked)
        elif pending is None or not _CORRECTION.search(text):
            pending = None
            continue
        following = requests[index + 1] if index + 1 < len(requests) else None
        if following is not None and _CORRECTION.search(following[1]):
            continue  # the user corrected how it was done: the next turn says it
        start = position[event.id]
        end = position[following[0].id] if following is not None else len(main)
        inside = [r for r in runs if start < position.get(r.event_id, -1) < end]
        turns.append(_Turn(pending[0], pending[1], pending[2], inside))
        pending = None
    return turns


def _goes_on(event: StoredEvent, text: str) -> bool:
    if _CORRECTION.search(text) or _asked(text) is not None:
        return False
    return event.origin == str(Origin.ANSWER) or bool(_APPROVAL.search(text))


def _asked(text: str) -> tuple[tuple[str, ...], bool] | None:
    """The roles a request asks for and whether it names a file; None for a question or plan."""
    if _QUESTION.search(text) or _PLAN.search(text) or _MAKING.search(text):
        return None
    flat = _BLANKS.sub(_one_blank, text)
    roles = tuple(role for role, pattern in _ROLES.items() if pattern.search(flat))
    if not roles:
        return None
    return roles, bool(_FILE.search(text))


def _kept(attempt: Attempt, root: str) -> bool:
    """A step of a routine: run in the project, doing something, not installing."""
    run = attempt.run
    if run.cwd is not None and not in_folder(run.cwd, root):
        return False
    if not attempt.tokens or attempt.scope.startswith("/") or looks_around(attempt):
        return False
    if only_reports(attempt.program, attempt.tokens[1:]):
        return False  # `docker ps`, `curl …/health`, a dry run: a look, whatever the program
    if attempt.program in _FILE_WORK or attempt.program == "cd":
        return False
    if attempt.use is not None and attempt.use.purpose == "install":
        return False
    if len(attempt.tokens) > 1 and set(attempt.tokens[1:]) <= _LOOK_UP_OPTIONS:
        return False
    # A path outside the project (another checkout, a home folder): the work is elsewhere.
    paths = (w.split("=", 1)[-1].strip("'\"") for w in attempt.tokens[1:])
    return not any(
        p.startswith(("/", "~")) and p != "/dev/null" and not in_folder(p, root) for p in paths
    )


def _split(roles: tuple[str, ...], steps: list[Attempt]) -> list[tuple[str, list[Attempt]]]:
    """One role takes the turn's steps; several take them only when each step's own purpose
    belongs to exactly one of them."""
    if len(roles) == 1:
        return [(roles[0], steps)]
    split: dict[str, list[Attempt]] = {role: [] for role in roles}
    for step in steps:
        purpose = step.use.purpose if step.use is not None else None
        owners = [
            role
            for role in roles
            if purpose == role or (role == "check" and purpose in CHECK_PURPOSES)
        ]
        if len(owners) != 1:
            return []
        split[owners[0]].append(step)
    return [(role, chosen) for role, chosen in split.items() if chosen]


def _picks_file(attempt: Attempt) -> bool:
    words = list(attempt.tokens[1:])
    if words and _INTERPRETER.match(attempt.program) and not words[0].startswith("-"):
        words = words[1:]  # the script an interpreter runs is the program itself
    # Code given inline (`-e '…'`, `-c '…'`) names no file.
    code = {i + 1 for i, w in enumerate(words) if w in _INLINE_OPTIONS}
    return any(
        i not in code and not w.startswith("-") and _FILE.search(w) for i, w in enumerate(words)
    )


def _passed(steps: list[Attempt], role: str, names_file: bool) -> list[Attempt]:
    """The distinct steps whose last run passed, in the order they first ran; [] when none
    did, when there are too many, or when a request for one file was run on files."""
    purposes = _ROLE_PURPOSES[role]
    last: dict[str, Attempt] = {}
    runs: list[Attempt] = []
    for step in steps:
        if purposes is not None and step.use is not None and step.use.purpose not in purposes:
            continue  # another role's command run along the way
        if purposes is not None and step.use is None and _sets_up(step):
            continue  # `npx husky init`: setting something up, not the check itself
        words = [t for t in step.tokens[1:] if not t.startswith("-")]
        recording = step.program == "git" and bool(words) and words[0] in _RECORDING_GIT
        if recording and role not in ("release", "deploy"):
            continue  # recording the work is the end-of-session routine's
        last[step.text] = step
        runs.append(step)
    fixes = _fixes(runs)
    chosen = [a for a in last.values() if a.run.ok and not a.ran_no_test and a.text not in fixes]
    # A narrower run (`tool test --filter X`) the turn later ran whole (`tool test`) was the
    # inner loop of the work: the whole run covers it.
    chosen = [a for a in chosen if not any(_covers(b, a) for b in chosen)]
    if names_file and any(_picks_file(a) for a in chosen):
        return []
    chosen = [a for a in chosen if not _picks_file(a)]
    return chosen if len(chosen) <= MAX_STEPS else []


#: Subcommands that set something up (`tool init`, `tool add x`, `tool generate …`): work
#: before a check, never a step of it.
_SETTING_UP = frozenset(
    {"init", "setup", "install", "add", "create", "new", "generate", "scaffold", "bootstrap"}
)


def _sets_up(attempt: Attempt) -> bool:
    """Whether a command of no known purpose sets something up by its first word after the
    program, or after a one-off runner's tool (`npx husky init`)."""
    words = [w for w in attempt.tokens[1:] if not w.startswith("-")]
    if attempt.program in _ONE_OFF_RUNNERS and words:
        words = words[1:]
    return bool(words) and words[0].lower() in _SETTING_UP


def _covers(whole: Attempt, narrower: Attempt) -> bool:
    """Whether `whole` ran after `narrower` for the same purpose, as its leading words."""
    size = len(whole.tokens)
    purpose = whole.use.purpose if whole.use is not None else None
    return (
        purpose == (narrower.use.purpose if narrower.use is not None else None)
        and whole.scope == narrower.scope
        and whole.run.timestamp > narrower.run.timestamp
        and len(narrower.tokens) > size
        and narrower.tokens[:size] == whole.tokens
    )


def _fixes(runs: list[Attempt]) -> set[str]:
    """The commands run only between a failing run of another command and its passing re-run
    (a gate failed, the formatter ran, the gate passed): they fixed what it found, and are no
    step of the routine."""
    fixes: set[str] = set()
    for text in dict.fromkeys(a.text for a in runs):
        at = [i for i, a in enumerate(runs) if a.text == text]
        first, final = at[0], at[-1]
        if any(
            runs[i].text != text
            and not runs[i].run.ok
            and any(
                runs[j].text == runs[i].text and runs[j].run.ok for j in range(final + 1, len(runs))
            )
            for i in range(first)
        ):
            fixes.add(text)
    return fixes


def _routine(role: str, steps: list[Attempt], texts: list[str], request_id: str) -> MemoryCandidate:
    scopes = {a.scope for a in steps}
    common = next(iter(scopes)) if len(scopes) == 1 else ""
    shown = [
        f"`{text}`" + (f" (in `{a.scope}/`)" if a.scope and not common else "")
        for a, text in zip(steps, texts, strict=True)
    ]
    wording = _WORDING[role]
    head = f"In `{common}/`, {wording}" if common else wording[0].upper() + wording[1:]
    return candidate(
        MemoryType.RECIPE,
        f"recipe:asked:{role}" + (f":{common}" if common else ""),
        f"{head} (as asked): {', then '.join(shown)}.",
        tags=("recipe", "routine", "asked", role),
        importance=IMPORTANCE,
        event_ids=(request_id, *(a.run.event_id for a in steps)),
    )
