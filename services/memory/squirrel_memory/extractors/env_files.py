"""The settings an environment file of the project names, by name only.

Projects in every ecosystem read their settings from the environment, kept locally in a
`.env` file and documented for others in a template beside it (`.env.example`, `.env.sample`,
`.env_sample`, `.env.template`). A session that reads such a file whole, writes it, or edits
variables into it shows which settings the project reads: a later session needs their names
before it runs, configures or deploys anything. The rule is the same for every ecosystem:

- the file is the project's own (not a dependency's, a vendored or build folder's, an
  example's, a docs site's or test data's) and its name is an environment file's: `.env`, or
  `.env` followed by `.`, `_` or `-` and a suffix;
- a variable is a line `NAME=…` (after an optional `export`) whose name is upper case, as the
  convention is everywhere; a commented-out one (`# NAME=`) is named as such, for a template
  leaves an optional setting unset that way;
- a whole read or a write names all of the file's variables, an edit the ones it added;
- values are never kept, whatever they hold (secrets, hosts, local paths): only names.

One project fact per file (`env_file:<path>`): "`.env` sets `WEB_URL`, `EMAIL_DOMAIN`,
`DATABASE_URL` and `STATIC_FOLDER`.", "`.env.example` documents the environment
variables `API_URL` and `LOG_LEVEL`; commented out (optional): `SENTRY_DSN`."
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from squirrel_core.events import EventType
from squirrel_memory.extractors.file_reads import file_text, whole_read_output
from squirrel_memory.extractors.file_writes import writes
from squirrel_memory.extractors.manifests import first_project_path, in_project
from squirrel_memory.extractors.stack_evidence import is_test_data, sample_folder
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.languages import is_excluded

KEY_PREFIX = "env_file:"
IMPORTANCE = 0.45
#: Variables named in one fact at most; more are counted.
MAX_NAMED = 8
#: Files kept per episode at most.
MAX_FILES = 3

_ENV_NAME = re.compile(r"^\.env(?:[._-][\w.-]+)?$", re.IGNORECASE)
#: A template documents the settings rather than holding one machine's values.
_TEMPLATE = re.compile(r"example|sample|template|dist|defaults?", re.IGNORECASE)
_VARIABLE = re.compile(r"^\s*(?P<comment>#\s*)?(?:export\s+)?(?P<name>[A-Z][A-Z0-9_]*)\s*=")


@dataclass(frozen=True, slots=True)
class EnvFile:
    """The variables one environment file names: key, statement, events, file."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    path: str


def is_env_file(path: str) -> bool:
    """Whether a project-relative path is an environment file of the project's own."""
    pure = PurePosixPath(path)
    if not _ENV_NAME.match(pure.name):
        return False
    return not (is_excluded(path) or sample_folder(path) or is_test_data(path))


def variables(text: str) -> tuple[list[str], list[str]]:
    """(set, commented-out) variable names of an environment file's text, in file order. A
    variable set on any line is set, whatever alternatives are commented out above it (`#
    DATABASE_URL="sqlite:…"` before `DATABASE_URL="postgresql:…"`)."""
    named: dict[str, bool] = {}
    for line in text.splitlines():
        match = _VARIABLE.match(line)
        if match:
            named[match["name"]] = named.get(match["name"], True) and bool(match["comment"])
    return [n for n, off in named.items() if not off], [n for n, off in named.items() if off]


def _text(event: StoredEvent, path: str) -> str | None:
    """The variables' text an event shows of the environment file at `path`: a whole read, a
    write, or what an edit added (`file_writes`: any host's write, edit or patch)."""
    if event.event_type == EventType.TOOL_RESULT:
        output = whole_read_output(event)
        return file_text(output) if output is not None else None
    texts: list[str] = []
    for written in writes(event):
        if written.path != path:
            continue
        if written.whole:
            texts.append(written.after)
            continue
        old = variables(written.before)
        before = set(old[0] + old[1])
        texts.extend(
            line
            for line in written.after.splitlines()
            if (m := _VARIABLE.match(line)) and m["name"] not in before
        )
    return "\n".join(texts) or None


def _names(names: list[str]) -> str:
    shown = [f"`{n}`" for n in names[:MAX_NAMED]]
    more = len(names) - len(shown)
    if more > 0:
        return ", ".join(shown) + f" and {more} more"
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + f" and {shown[-1]}"


def _statement(path: str, set_names: list[str], commented: list[str]) -> str:
    template = bool(_TEMPLATE.search(PurePosixPath(path).name))
    lead = f"`{path}` documents the environment variables" if template else f"`{path}` sets"
    if not set_names:
        lead = lead if template else f"`{path}` names"
        return f"{lead} {_names(commented)}, commented out (optional)."
    said = f"{lead} {_names(set_names)}"
    return said + (f"; commented out (optional): {_names(commented)}." if commented else ".")


def _env_paths(event: StoredEvent) -> list[str]:
    """The project's environment files an event reads (its first path) or writes (each)."""
    if event.event_type == EventType.TOOL_CALL:
        found = [w.path for w in writes(event) if in_project(w.path)]
    else:
        found = [path] if (path := first_project_path(event)) is not None else []
    return [path for path in dict.fromkeys(found) if is_env_file(path)]


def env_files(events: list[StoredEvent]) -> list[EnvFile]:
    """The environment files of the project `events` read whole, wrote or edited variables
    into, with the names they hold (module docstring)."""
    found: dict[str, tuple[dict[str, bool], list[str]]] = {}
    for event in events:
        for path in _env_paths(event):
            text = _text(event, path)
            set_names, commented = variables(text) if text else ([], [])
            if not set_names and not commented:
                continue
            names, ids = found.setdefault(path, ({}, []))
            for name in set_names:
                names[name] = False
            for name in commented:
                names.setdefault(name, True)
            ids.append(event.id)
    kept: list[EnvFile] = []
    for path, (names, ids) in list(found.items())[:MAX_FILES]:
        set_names = [n for n, off in names.items() if not off]
        commented = [n for n, off in names.items() if off]
        kept.append(
            EnvFile(
                f"{KEY_PREFIX}{path}",
                _statement(path, set_names, commented),
                tuple(dict.fromkeys(ids)),
                path,
            )
        )
    return kept
