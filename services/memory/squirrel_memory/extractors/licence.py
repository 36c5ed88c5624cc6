"""The licence the project is published under, as a session read or wrote it.

A session often reads a root manifest (to bump a version, add a dependency) or the root
`LICENSE`, and either says which licence the project is under, in every ecosystem. The rule:

- a root manifest's licence field, as a successful read from the file's first line showed it
  (or a command printed it, `cat Cargo.toml`): `license` of `Cargo.toml`'s package (or
  workspace package), `package.json`, `composer.json`, `pyproject.toml`'s project (a string, or
  a table's `text`) or Poetry section, `setup.cfg`, a gemspec's `license`/`licenses`,
  `mix.exs`'s `licenses`, a `.csproj`'s `PackageLicenseExpression`, a `.cabal` file's or R
  `DESCRIPTION`'s `License`, a `dune-project`'s `(license …)`; the value must read as a
  licence's identifier or expression (`MIT OR Apache-2.0`): `UNLICENSED` (npm's "not for
  use", not the Unlicense), `SEE LICENSE IN …`, `proprietary` and a field inherited from the
  workspace (`license.workspace = true`) say nothing;
- the root licence file (`LICENSE`, `LICENCE`, `COPYING`, with a suffix or a `-MIT` tail) the
  session read from its first line or wrote whole, known by the licence's own heading ("MIT
  License", "Apache License / Version 2.0", "GNU GENERAL PUBLIC LICENSE / Version 3" …);
- what the session changed counts as it left it: an edit of the field, a rewrite of the file,
  and a root licence file deleted by a run that passed (`rm LICENSE`, `git rm LICENSE`) is
  gone; a write the host did not apply (refused, failed) changes nothing; a command that edits
  the files it names (`sed -i … Cargo.toml`, `git mv LICENSE …`, `npm pkg set` on
  `package.json`, output sent into the file) leaves it unknown until it is read again;
- the root files must agree: a manifest and a licence file naming different licences say
  nothing;
- a package's own manifest inside the project (`crates/codec/Cargo.toml`) says that package's
  licence, by the package's name, never the project's; one in a dependency, vendored, build or
  generated folder (`node_modules/`, `vendor/`), in documentation, examples, samples or tests
  and fixtures (`docs/package.json`, `tests/fixtures/…`) says nothing, nor does a licence file
  in a sub-folder (a vendored library's) or any file outside the project (another repository).

The assistant's words about a licence are never read: only the files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import (
    CommandRun,
    core_tokens,
    relative_path,
    split_segments,
)
from squirrel_memory.extractors.file_reads import head_read_text, shown_file_texts
from squirrel_memory.extractors.file_writes import applied_calls, writes
from squirrel_memory.extractors.licence_texts import (
    FIELD_LINE,
    LICENCE_FILE,
    README,
    heading_licence,
    licence_value,
    manifest_licence,
    readme_licence,
)
from squirrel_memory.extractors.project_fact import Fact
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.languages import is_excluded

KEY = "licence"
IMPORTANCE = 0.5
TAGS = ("licence",)

#: Folders whose packages are not the project's own code: documentation, examples, tests.
_NOT_OWN = frozenset(
    {
        "doc",
        "docs",
        "documentation",
        "website",
        "site",
        "example",
        "examples",
        "sample",
        "samples",
        "demo",
        "demos",
        "test",
        "tests",
        "testing",
        "testdata",
        "fixture",
        "fixtures",
        "__fixtures__",
        "spec",
        "specs",
        "third_party",
        "third-party",
        "thirdparty",
        "external",
        "extern",
        "deps",
        "template",
        "templates",
    }
)
#: Events that may show a file's text: a read tool's result, a command's output.
_READ_TYPES = frozenset({EventType.TOOL_RESULT, EventType.COMMAND_RUN, EventType.TEST_RUN})
#: Commands that delete files.
_DELETES = (("rm",), ("git", "rm"), ("del",), ("unlink",))
#: Programs that change the files they name (in place, as a move's or copy's target).
_EDITORS = frozenset(
    {"mv", "cp", "patch", "tee", "truncate", "ed", "ex", "dd", "install", "rsync", "ln"}
)
#: Programs that change a file in place when given their in-place option.
_IN_PLACE = {"sed": ("-i", "--in-place"), "perl": ("-i", "-pi", "-p", "-0pi"), "awk": ("-i",)}
#: git's subcommands that rewrite the working tree's files.
_GIT_EDITS = frozenset({"mv", "checkout", "restore", "reset", "stash", "apply", "am", "revert"})
#: Where a shell line sends output into a file (`> LICENSE`, `>> Cargo.toml`).
_REDIRECT = re.compile(r"(?<![0-9&])>>?\s*([^\s;&|<>]+)")


@dataclass(frozen=True, slots=True)
class _Seen:
    """What one file said of a licence, as the session last left it."""

    licence: str  # an identifier or expression ("" when the file names none)
    name: str  # a licence file's licence name, or a manifest's package name
    field: bool  # a manifest's field (not a licence file's text)
    event_id: str
    readme: bool = False  # a root README's licence section


def _own(path: str) -> bool:
    """Whether a nested file belongs to the project's own code (no dependency, docs, tests)."""
    parts = path.split("/")
    return not is_excluded(path) and not any(p.lower() in _NOT_OWN for p in parts[:-1])


def _inside(path: str) -> bool:
    return bool(path) and not path.startswith(("/", "~", "..")) and "/../" not in path


def _printed_licence_file(event: StoredEvent) -> list[tuple[str, str]]:
    """(file, output) when a passing command at the project's root was only `cat` or `head` of
    a root licence file (`cat LICENSE`: a name with no suffix, which the general readers of
    printed files do not take for a path)."""
    content = event.content
    command, output = content.get("command"), content.get("output")
    if content.get("exit_code") != 0 or content.get("is_error") is True:
        return []
    if not isinstance(command, str) or not isinstance(output, str):
        return []
    cwd = content.get("cwd")
    if isinstance(cwd, str) and cwd.rstrip("/") != event.project_id.rstrip("/"):
        return []  # printed in another folder
    tokens = command.split()
    if len(tokens) < 2 or tokens[0] not in ("cat", "head") or any(c in command for c in "|;&>"):
        return []
    name = tokens[-1].removeprefix("./")
    flags = tokens[1:-1]
    if not LICENCE_FILE.match(name) or (tokens[0] == "cat" and flags):
        return []
    if tokens[0] == "head" and any(not (f.startswith("-") or f.isdigit()) for f in flags):
        return []
    return [(name, output)]


def _read_texts(event: StoredEvent) -> list[tuple[str, str]]:
    """(project-relative path, text from the first line) of each file `event` read whole or
    printed from its top."""
    text = head_read_text(event)
    if text is not None:
        return [(relative_path(raw, event.project_id), text) for raw in event.file_paths[:1]]
    shown = [
        (relative_path(raw, event.project_id).removeprefix("./"), shown)
        for raw, shown in shown_file_texts(event)
    ]
    if shown or event.event_type == EventType.TOOL_RESULT:
        return shown
    return _printed_licence_file(event)


def _seen(path: str, text: str, event_id: str) -> _Seen | None:
    """What a file's whole text says of a licence, or None when it is no such file."""
    name = PurePosixPath(path).name
    if "/" not in path and LICENCE_FILE.match(name):
        found = heading_licence(text)
        return (
            _Seen(found[0], found[1], False, event_id) if found else _Seen("", "", False, event_id)
        )
    if "/" not in path and README.match(name):
        return _Seen(readme_licence(text), "", False, event_id, readme=True)
    read = manifest_licence(path, text)
    if read is None:
        return None
    return _Seen(read[0], read[1], True, event_id)


def _edited(before: _Seen, old: str, new: str, event_id: str) -> _Seen:
    """A manifest's licence after an edit replaced `old` with `new` in it."""
    was, now = FIELD_LINE.search(old), FIELD_LINE.search(new)
    if now is not None:
        value = next((v for v in now.groupdict().values() if v is not None), "")
        return _Seen(licence_value(value), before.name, True, event_id)
    if was is not None:
        return _Seen("", before.name, True, event_id)  # the field was taken out
    return before


def _deleted(run: CommandRun, project_id: str) -> set[str]:
    """The project-relative files a passing run deleted."""
    if run.ok is not True:
        return set()
    gone: set[str] = set()
    for tokens in run.segments:
        for verb in _DELETES:
            if tuple(tokens[: len(verb)]) == verb:
                args = [t for t in tokens[len(verb) :] if not t.startswith("-")]
                gone.update(relative_path(a, project_id).removeprefix("./") for a in args)
    return gone


def _edits_files(tokens: list[str]) -> bool:
    """Whether a simple command changes the files it names (`sed -i`, `mv`, `git mv`)."""
    program, options = tokens[0], tokens[1:]
    if program in _EDITORS:
        return True
    if program == "git":
        return bool(options) and options[0] in _GIT_EDITS
    marks = _IN_PLACE.get(program)
    return marks is not None and any(o.startswith(marks) for o in options if o.startswith("-"))


def _changed(run: CommandRun, project_id: str, state: dict[str, _Seen]) -> set[str]:
    """The files of `state` a run may have changed without a file tool: a command that edits the
    files it names (`sed -i … Cargo.toml`, `git mv LICENSE …`), output sent into one (`>
    LICENSE`), or `npm pkg set`/`delete` on `package.json`; what it wrote is not known, so the
    file says nothing until it is read again. A lone command that failed changed nothing."""
    segments = split_segments(run.command)
    if run.ok is False and len(segments) == 1 and not _REDIRECT.search(run.command):
        return set()
    changed: set[str] = set()
    for part in segments:
        tokens = core_tokens(part)
        named = {
            relative_path(w.strip("'\""), project_id).removeprefix("./")
            for w in [*part.split()[1:], *_REDIRECT.findall(part)]
        }
        targets = set(_REDIRECT.findall(part))
        if tokens and _edits_files(tokens):
            targets = named
        if tokens[:3] in (["npm", "pkg", "set"], ["npm", "pkg", "delete"]):
            targets = targets | {"package.json"}
        targets = {relative_path(t.strip("'\""), project_id).removeprefix("./") for t in targets}
        changed.update(path for path in state if path in targets)
    return changed


def _state(events: list[StoredEvent], runs: list[CommandRun]) -> dict[str, _Seen]:
    """Each file that says something of a licence, as the session left it, by path."""
    applied = applied_calls(events)
    deleting = {run.event_id: run for run in runs}
    state: dict[str, _Seen] = {}
    for event in events:
        for path, text in _read_texts(event) if event.event_type in _READ_TYPES else ():
            if _inside(path) and (seen := _seen(path, text, event.id)) is not None:
                state[path] = seen
        if event.event_type == EventType.TOOL_CALL:
            use_id = event.content.get("tool_use_id")
            if not isinstance(use_id, str) or use_id not in applied:
                continue
            for written in writes(event):
                path = written.path.removeprefix("./")
                if not _inside(path):
                    continue
                if written.whole:
                    if (seen := _seen(path, written.after, event.id)) is not None:
                        state[path] = seen
                elif path in state and state[path].field:
                    state[path] = _edited(state[path], written.before, written.after, event.id)
        run = deleting.get(event.id)
        if run is not None:
            for path in _deleted(run, event.project_id) | _changed(run, event.project_id, state):
                state.pop(path, None)
    return state


def _listed(names: list[str]) -> str:
    shown = [f"`{n}`" for n in names]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + f" and {shown[-1]}"


def _ids(expression: str) -> set[str]:
    return {
        part
        for part in re.split(r"[\s()/]+", expression)
        if part and part.upper() not in ("OR", "AND", "WITH")
    }


def _root_fact(state: dict[str, _Seen]) -> Fact | None:
    """The project's licence from its root files, when those that name one agree."""
    root = {p: s for p, s in state.items() if "/" not in p and s.licence}
    manifests = {p: s for p, s in root.items() if s.field}
    files = {p: s for p, s in root.items() if not s.field and not s.readme}
    readmes = {p: s for p, s in root.items() if s.readme}
    if not root:
        return None
    expressions = {s.licence for s in manifests.values()}
    if len(expressions) > 1:
        return None  # two manifests disagree
    named = {s.licence for s in (*files.values(), *readmes.values())}
    if manifests:
        ids = set().union(*(_ids(e) for e in expressions))
        if not named <= ids:
            return None  # a licence file or the README names another licence
        licence = next(iter(expressions))
    else:
        file_ids = {s.licence for s in files.values()}
        if files and not {s.licence for s in readmes.values()} <= file_ids:
            return None  # the README names another licence than the licence file
        if len(named) > 1 and not files:
            return None
        licence = " and ".join(sorted(file_ids)) if files else next(iter(named))
    because = [f"the licence field of {_listed(sorted(manifests))}"] if manifests else []
    because += [f"the root `{p}` is the {s.name} text" for p, s in sorted(files.items())]
    because += [f"the licence section of the root `{p}`" for p in sorted(readmes)]
    event_ids = tuple(s.event_id for _, s in sorted(root.items()))
    text = f"The project is licensed {licence} ({'; '.join(because)})."
    return Fact(KEY, text, TAGS, IMPORTANCE, tuple(dict.fromkeys(event_ids)), tuple(sorted(root)))


def _package_facts(state: dict[str, _Seen]) -> list[Fact]:
    facts: list[Fact] = []
    for path, seen in sorted(state.items()):
        if "/" not in path or not seen.field or not seen.licence or not seen.name:
            continue
        if not _own(path):
            continue
        text = f"The `{seen.name}` package (`{path}`) is licensed {seen.licence}."
        facts.append(Fact(f"{KEY}:{seen.name}", text, TAGS, IMPORTANCE, (seen.event_id,), (path,)))
    return facts


def licence_facts(events: list[StoredEvent], runs: list[CommandRun]) -> list[Fact]:
    """The project's licence and its own packages' (module docstring)."""
    state = _state(events, runs)
    root = _root_fact(state)
    return [*([root] if root else []), *_package_facts(state)]
