"""How a script of the project is run, from one run of it that worked in the session.

A short session often runs one of the project's own scripts once, the way its users do
(`python3 review.py https://…`, `node scripts/seed.js`, `Rscript analysis/report.R`), without
writing it: no command table names that, yet it is how the project is run. The rule, the same
in every ecosystem:

- the command's program is an interpreter and its first argument is a code file given by a
  path inside the project (relative, from a shell inside the project), and the run succeeded;
  a runner or a variables loader before the interpreter (`pnpm exec`, `dotenv -e .env.test
  --`) is part of how the script is started, and is shown with it;
- the session did not write or edit the script (`script_runs` says how the session's own
  scripts run), and the command table knows no role for it (a test runner, a server);
- a look at the script (`--help`, `--version`), a failed run, a run from another folder or
  repository, a script given by an absolute path (`/tmp/x.py`) and a test file run alone say
  nothing.

The recipe names the script, how it is started and, when arguments were given, the run as
typed ("Run `review.py` with `python3 review.py` (run here as `python3 review.py 42`)."),
from the folder it ran in when that is not the project root. Two scripts at most per session.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import commands, in_folder, relative_path
from squirrel_memory.extractors.evidence.attempts import Attempt, attempts
from squirrel_memory.extractors.evidence.command_picks import looks_only
from squirrel_memory.extractors.script_runs import INTERPRETERS, script_file
from squirrel_memory.extractors.toolchain import classify
from squirrel_memory.models import StoredEvent

KEY_PREFIX = "recipe:script:"
#: Below a command seen to work for a named role (0.44 and up for one run is the floor there).
IMPORTANCE = 0.5
MAX_SCRIPTS = 2
#: The longest run shown as typed; a longer one is shown by its start alone.
MAX_EXAMPLE_CHARS = 120
#: A test file run alone (`test_x.py`, `x_test.go`, `x.spec.ts`): one test, not the project.
_TEST_FILE = re.compile(r"(?:^test_|_test\.|\.test\.|_spec\.|\.spec\.)", re.IGNORECASE)
#: A path of one machine in an argument (`/Users/…`, `~/…`): the run is not shown as typed.
_LOCAL_PATH = re.compile(r"""(?:^|[\s='"])(?:/(?!dev/null)[\w.-]|~/)""")


#: A Python interpreter by its name (`python`, `python3`, `python3.12`).
_PYTHON = re.compile(r"^python(?:\d+(?:\.\d+)?)?$")


def _example(shown: str, base: str) -> str:
    """The run as typed, when it adds arguments to `base` and names no path of one machine."""
    if shown == base or len(shown) > MAX_EXAMPLE_CHARS or _LOCAL_PATH.search(shown):
        return ""
    return f" (run here as `{shown}`)"


@dataclass(frozen=True, slots=True)
class ProjectScript:
    """One script's recipe: key, statement, the script and the run behind it."""

    key: str
    content: str
    path: str
    event_ids: tuple[str, ...]


def _edited(events: list[StoredEvent]) -> set[str]:
    return {
        relative_path(raw, event.project_id)
        for event in events
        if event.event_type == EventType.CODE_CHANGE
        for raw in event.file_paths
    }


def _seen_paths(events: list[StoredEvent]) -> set[str]:
    """The project's files the session read, listed or changed (project-relative)."""
    return {
        relative_path(raw, event.project_id)
        for event in events
        for raw in event.file_paths
        if not relative_path(raw, event.project_id).startswith(("/", "~", ".."))
    }


def _module(words: list[str], seen: set[str]) -> str | None:
    """The project's own module a Python interpreter runs (`python -m app serve`, through any
    launcher): its package is a folder of the project the session saw (`app/`, `src/app/`)."""
    for i, word in enumerate(words[:-1]):
        if _PYTHON.match(PurePosixPath(word).name) and words[i + 1] == "-m" and i + 2 < len(words):
            module = words[i + 2]
            top = module.split(".", 1)[0]
            if top.isidentifier() and any(p.startswith((f"{top}/", f"src/{top}/")) for p in seen):
                return module
            return None
    return None


def _launched_script(attempt: Attempt) -> str | None:
    """The script an interpreter runs after a runner or a variables loader (`pnpm exec dotenv
    -e .env.test -- tsx scripts/x.ts`): the command's own words start at that interpreter or
    at its script, once the launchers are set aside."""
    words = attempt.text.split()
    for index, word in enumerate(words[1:], 1):
        if PurePosixPath(word).name in INTERPRETERS:
            script = script_file(" ".join(words[index:]))
            own = attempt.tokens[0] if attempt.tokens else ""
            return script if script is not None and own in (word, script) else None
    return None


def project_scripts(events: list[StoredEvent]) -> list[ProjectScript]:
    """How the project's scripts the session ran, and did not write, are run."""
    if not events:
        return []
    root = events[0].project_id.rstrip("/")
    edited = _edited(events)
    seen = _seen_paths(events)
    found: dict[str, ProjectScript] = {}
    for attempt in attempts(commands(events), root):
        run = attempt.run
        if (
            run.ok is not True
            or run.cwd is None
            or not in_folder(run.cwd, root)
            or attempt.scope.startswith(("/", "~", ".."))
            or attempt.use is not None
            or classify(list(attempt.tokens))
        ):
            continue
        words = attempt.text.split()
        module = _module(words, seen) if not looks_only(attempt.text) else None
        if module is not None and f"-m {module}" not in found:
            base = attempt.text[: attempt.text.index(f"-m {module}") + len(f"-m {module}")]
            found[f"-m {module}"] = ProjectScript(
                KEY_PREFIX + module,
                f"Run the project's `{module}` module with `{base}`{_example(attempt.text, base)}.",
                module,
                (run.event_id,),
            )
            if len(found) >= MAX_SCRIPTS:
                break
            continue
        # launched through a runner or a variables loader (`pnpm exec dotenv -e .env.test --
        # tsx scripts/x.ts`): the interpreter is the first of the command's own words
        script = script_file(attempt.text) or _launched_script(attempt)
        if (
            script is None
            or script.startswith(("/", "~", ".."))
            or looks_only(attempt.text)
            or _TEST_FILE.search(PurePosixPath(script).name)
        ):
            continue
        path = str(PurePosixPath(attempt.scope) / script) if attempt.scope else script
        path = path.removeprefix("./")
        if path in edited or path in found:
            continue
        base = " ".join(words[: words.index(script) + 1] if script in words else words[:2])
        where = f", from `{attempt.scope}/`" if attempt.scope else ""
        found[path] = ProjectScript(
            KEY_PREFIX + path,
            f"Run `{path}` with `{base}`{where}{_example(attempt.text, base)}.",
            path,
            (run.event_id,),
        )
        if len(found) >= MAX_SCRIPTS:
            break
    return list(found.values())
