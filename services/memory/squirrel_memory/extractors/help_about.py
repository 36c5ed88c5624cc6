"""What the project is, from the help its own command-line program printed in a session.

A session that reads no README or manifest may still run the project's own program with
`--help`: its help opens (or follows its usage line) with a sentence that says what the
program is ("Generate deep manifests for directories and zip files"). The rule, the same for
every ecosystem:

- the program is the project's own: a path inside the project (`./bin/tally --help`,
  `target/debug/tally -h`), a language's runner given the project's code (`go run . --help`,
  `go run ./cmd/tally --help`, `cargo run -- --help`, `swift run tally --help`,
  `node bin/tally.js --help`, `python tally.py --help`), or a command named as the project's
  folder (`tally --help` in `…/tally`, through `uv run` or `bundle exec` as well); another
  tool's help (`gh --help`, `./gradlew --help`) says nothing of the project;
- the command ran in the project (not after a `cd` elsewhere), succeeded, and printed a
  usage line (`usage:` in any case, or a `USAGE` heading in capitals with no colon) and no
  error: a complaint ("Error: unknown flag") or a version line is no help;
- what other commands printed before the help is never quoted: `echo` lines are skipped (one
  line each); after any other output (`ls && ./bin/tally --help`) the help is taken from its
  own usage line, the last one that names the program, so only a description printed after the
  usage line is kept (a help that opens with its description, before the usage line, says
  nothing there: the other command's lines would run into it);
- the description is the first prose paragraph of the help before its first section
  (`Options:`, `Commands:`, `Flags:`, `positional arguments:`): one that is not the usage
  line, a version or author line, nor a hint to run something else ("Use `tally help` …");
  a trailing "(tally v0.3.1)" is left off.

The memory quotes the help ("What this project (tally) is and does, per `tally --help`: …")
and is tagged as a summary: the README or manifest, read in a later session, replaces it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from squirrel_memory.extractors.activity import CommandRun
from squirrel_memory.extractors.elsewhere import outside_root, ran_elsewhere

MAX_CHARS = 240
MIN_CHARS = 20
#: Build and wrapper scripts kept in a project whose help is the build tool's, not the
#: project's.
_WRAPPERS = frozenset({"gradlew", "mvnw", "configure", "manage.py", "setup.py", "sbt", "mill"})
#: A language's runner given the project's code: (runner tokens, how many arguments follow).
_RUNNERS: tuple[tuple[str, ...], ...] = (
    ("go", "run"),
    ("cargo", "run"),
    ("swift", "run"),
    ("dotnet", "run"),
    ("gleam", "run"),
    ("deno", "run"),
    ("node",),
    ("bun",),
    ("python",),
    ("python3",),
    ("ruby",),
    ("Rscript",),
)
_HELP_FLAGS = frozenset({"--help", "-h", "-help", "help"})
#: Blanks within one line (`\s` would run on across lines, and back, on a long blank output).
_BLANK = r"[^\S\n]"
#: A usage line: "usage:" in any case, or a `USAGE` heading in capitals (no colon), as some
#: parsers print it ("USAGE\n  tally [flags]", "USAGE tally [OPTIONS] <command>").
_USAGE = re.compile(rf"^{_BLANK}*(?i:usage){_BLANK}*:|^{_BLANK}*USAGE(?={_BLANK}|$)", re.MULTILINE)
#: A section heading of a help page: the description comes before it.
_SECTION = re.compile(
    r"^\s*(?:[A-Z][\w -]{0,30}(?:options|commands|flags|arguments|subcommands)|options|"
    r"commands|flags|arguments|subcommands|positional arguments|optional arguments|examples?|"
    r"environment|aliases)\s*:\s*$"
    r"|^\s*(?-i:(?:[A-Z]+\s)?(?:OPTIONS|COMMANDS|FLAGS|ARGUMENTS|SUBCOMMANDS|EXAMPLES?))\s*$",
    re.IGNORECASE,
)
#: Lines of a help that say nothing of what the program is: a version, an author, a hint.
_NOT_PROSE = re.compile(
    r"^\s*(?:[\w.-]+\s+v?\d+(?:\.\d+)+\S*\s*$|.*<[^@\s<>]+@[^<>\s]+>|"
    r"(?:use|run|see|try|for more)\b)",
    re.IGNORECASE,
)
#: A run that complained (an unknown flag, a missing argument) printed no help of its own.
_ERROR = re.compile(rf"^{_BLANK}*(?:error|fatal|warning)\b", re.IGNORECASE | re.MULTILINE)
#: An option or command listing line: `-v, --verbose  Print more`, `  build    Build it`.
_LISTING = re.compile(r"^\s*-|^\s+\S+\s{2,}\S")
#: The program's name and version after its description ("… work (tally v0.3.1)").
_VERSION_TAIL = re.compile(r"(?<!\s)\s*\((?:[\w.-]+\s+)?v?\d+(?:\.\d+)+[^()]*\)\s*\.?$")
#: Programs that print their arguments on one line: what they print comes before the help.
_ECHOES = frozenset({"echo"})
#: Commands that print nothing on success.
_SILENT = frozenset({"cd", "pushd", "source", ".", "export", "set", "unset", "true", "clear"})


@dataclass(frozen=True, slots=True)
class HelpAbout:
    """The statement of what the project is from its program's help, and the run behind it."""

    content: str
    event_ids: tuple[str, ...]


def _inside(path: str, project_id: str) -> bool:
    return bool(path) and not outside_root(path, project_id) and not path.startswith("-")


def _own_program(tokens: list[str], project_id: str) -> str | None:
    """How the command names the project's own program (for the statement), or None."""
    head = tokens[0]
    name = PurePosixPath(head).name
    if name in _WRAPPERS:
        return None
    if "/" in head and _inside(head, project_id):
        return name
    folder = PurePosixPath(project_id).name
    if head == folder:
        return head
    for runner in _RUNNERS:
        if tuple(tokens[: len(runner)]) != runner:
            continue
        rest = [t for t in tokens[len(runner) :] if t not in _HELP_FLAGS and t != "--"]
        target = next((t for t in rest if not t.startswith("-")), None)
        if runner[-1] == "run" and (target is None or target == "."):
            return folder
        if target and ("/" in target or "." in target) and _inside(target, project_id):
            return folder
        if target == folder:
            return folder
    return None


def _asks_help(tokens: list[str]) -> bool:
    return len(tokens) >= 2 and tokens[-1] in _HELP_FLAGS


def help_description(output: str, *, after: int = 0) -> str | None:
    """The first prose paragraph of a help page before its first section, or None when the
    output is no help page (it has no usage line) or opens with none; the first `after` lines
    are another command's (an `echo` run before the help)."""
    if not _USAGE.search(output) or _ERROR.search(output):
        return None
    paragraphs: list[list[str]] = [[]]
    for line in output.splitlines()[after:]:
        if _SECTION.match(line):
            break
        if not line.strip():
            paragraphs.append([])
            continue
        paragraphs[-1].append(line.strip())
    for paragraph in paragraphs:
        if not paragraph or any(_USAGE.match(line) for line in paragraph):
            continue
        if any(_LISTING.match(line) for line in paragraph):
            continue
        lines = [line for line in paragraph if not _NOT_PROSE.match(line)]
        prose = " ".join(" ".join(lines).split())
        prose = _VERSION_TAIL.sub("", prose)
        if len(prose) >= MIN_CHARS and len(prose.split()) >= 4 and not prose.endswith(":"):
            return prose[:MAX_CHARS].rstrip(".") + "."
    return None


def _names(tokens: list[str], program: str, project_id: str) -> set[str]:
    """What the program's usage line may call it: its name, the file it was run as, the
    project's folder (a runner's binary is named after it), each with and without a suffix."""
    names = {program, PurePosixPath(project_id).name}
    names.update(
        PurePosixPath(t).name for t in tokens if "/" in t or ("." in t and _inside(t, project_id))
    )
    names.update(PurePosixPath(n).stem for n in list(names))
    return {n for n in names if n and n not in {".", ".."}}


def usage_start(output: str, names: set[str]) -> int | None:
    """The line where the help of a program called one of `names` starts in `output` after
    another command's output: its last usage line naming it ("usage: tally [-h]", or a
    "Usage:" heading whose next line names it), or None."""
    lines = output.splitlines()
    named = re.compile(
        "|".join(rf"(?<![\w./-]){re.escape(n)}(?![\w-])" for n in sorted(names, key=len))
    )
    found = None
    for at, line in enumerate(lines):
        if not _USAGE.match(line):
            continue
        rest = _USAGE.sub("", line, count=1).strip()
        shown = rest or next((ln for ln in lines[at + 1 :] if ln.strip()), "")
        if named.search(shown):
            found = at
    return found


def help_about(runs: list[CommandRun], project_id: str) -> HelpAbout | None:
    """What the project is, from the first help its own program printed (module docstring)."""
    for run in runs:
        if run.ok is not True or not run.output or ran_elsewhere(run.command, project_id):
            continue
        segments = run.segments
        for at, tokens in enumerate(segments):
            if not _asks_help(tokens):
                continue
            program = _own_program(tokens, project_id)
            if program is None:
                continue
            # One line per `echo` before the help; a command that prints nothing (`cd`,
            # `source`) adds none; another command's output is cut off at the help's usage line.
            before = [t for t in segments[:at] if t[0] not in _SILENT]
            after = len(before)
            if any(t[0] not in _ECHOES or any(a.startswith("-") for a in t) for t in before):
                start = usage_start(run.output, _names(tokens, program, project_id))
                if start is None:
                    continue
                after = start
            described = help_description(run.output, after=after)
            if described:
                folder = PurePosixPath(project_id).name or "unnamed"
                shown = " ".join(tokens)
                text = f"What this project ({folder}) is and does, per `{shown}`: {described}"
                return HelpAbout(text, (run.event_id,))
    return None
