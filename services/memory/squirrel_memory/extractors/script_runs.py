"""How a script of the project is run, from a session that ran one of its own scripts.

A short session often writes or reads one script and runs it with its language's interpreter
(`python3 hoge.py`, `node scripts/seed.js`, `ruby bin/report.rb`, `Rscript analysis.R`): no
command table names that, yet it is how the project is run. The rule, the same in every
ecosystem:

- the command's program is an interpreter and its first argument is a code file of the project
  that the session wrote or edited (matched by its path from the folder the command ran in, or
  by its file name when only one edited file has it): the session's own script;
- the run succeeded; a failed run, a script outside the project, a script only read on the
  way (a stray helper beside the project's code), and a command the command table knows (a
  test runner, a server) say nothing;
- the statement names the file, the command as typed and the folder it ran from when that is
  not the project root ("`myapp/hoge.py` runs with `python3 hoge.py`, from `myapp/`.").
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath

from squirrel_memory.extractors.activity import CommandRun
from squirrel_memory.extractors.evidence.attempts import attempts
from squirrel_memory.extractors.manifests import SHARED_CODE_SUFFIXES, extension_language
from squirrel_memory.extractors.project_fact import Fact
from squirrel_memory.extractors.toolchain import classify

KEY_PREFIX = "script_run:"
IMPORTANCE = 0.6
#: Scripts noted from one session at most.
MAX_SCRIPTS = 2
#: Programs that run a script file given as their first argument.
INTERPRETERS = frozenset(
    {"python", "python3", "pypy", "pypy3", "node", "deno", "bun", "tsx", "ts-node", "ruby"}
    | {"perl", "php", "Rscript", "lua", "luajit", "julia", "elixir", "escript", "dart"}
    | {"swift", "kotlin", "scala", "groovy", "bash", "sh", "zsh", "pwsh", "tclsh", "racket"}
    | {"guile", "sbcl", "gleam", "crystal", "nim", "raku", "clojure", "bb", "java", "swipl"}
)
#: Interpreters that tell which language a file of a suffix two languages share is in.
SHARED_SUFFIX_INTERPRETERS = {"perl": "Perl", "swipl": "Prolog"}


def script_file(text: str) -> str | None:
    """The script file an interpreter command runs (its first argument), or None."""
    tokens = text.split()
    if len(tokens) < 2 or PurePosixPath(tokens[0]).name not in INTERPRETERS:
        return None
    first = tokens[1]
    suffix = PurePosixPath(first).suffix
    if first.startswith("-"):
        return None
    if extension_language(suffix) is None and suffix.lower() not in SHARED_CODE_SUFFIXES:
        return None
    return first


def _touched(script: str, scope: str, touched: set[str]) -> str | None:
    """The project file `script` names, run from folder `scope`, among the `touched` ones."""
    joined = str(PurePosixPath(scope) / script) if scope else script
    if joined in touched:
        return joined
    named = [p for p in touched if PurePosixPath(p).name == PurePosixPath(script).name]
    return named[0] if len(named) == 1 and "/" not in script else None


@dataclass(frozen=True, slots=True)
class RanScript:
    """A script of the session's own that ran cleanly: its path, the command as typed, the
    event that ran it, and the language its interpreter says it is in, when its suffix is one
    two languages share (`perl tools/seed.pl`: Perl, `swipl solver.pl`: Prolog)."""

    path: str
    command: str
    event_id: str
    language: str | None = None


def ran_scripts(runs: list[CommandRun], edited: set[str], project_root: str) -> list[RanScript]:
    """The scripts the session wrote or edited and ran successfully (module docstring)."""
    found: dict[str, RanScript] = {}
    for attempt in attempts(runs, project_root):
        if attempt.run.ok is not True or attempt.use is not None or classify(list(attempt.tokens)):
            continue
        script = script_file(attempt.text)
        path = _touched(script, attempt.scope, edited) if script else None
        if path is None or path in found:
            continue
        program = PurePosixPath(attempt.text.split()[0]).name
        shared = PurePosixPath(path).suffix.lower() in SHARED_CODE_SUFFIXES
        language = SHARED_SUFFIX_INTERPRETERS.get(program) if shared else None
        found[path] = RanScript(path, attempt.text, attempt.run.event_id, language)
        if len(found) >= MAX_SCRIPTS:
            break
    return list(found.values())


def script_runs(scripts: list[RanScript]) -> list[Fact]:
    """Facts saying how scripts the session wrote or edited were run successfully."""
    facts: list[Fact] = []
    for ran in scripts:
        folder = str(PurePosixPath(ran.path).parent)
        script = script_file(ran.command)
        where = f", from `{folder}/`" if folder != "." and script != ran.path else ""
        text = f"`{ran.path}` runs with `{ran.command}`{where}."
        facts.append(
            Fact(
                KEY_PREFIX + ran.path,
                text,
                ("run", "script"),
                IMPORTANCE,
                (ran.event_id,),
                (ran.path,),
            )
        )
    return facts
