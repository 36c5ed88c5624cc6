"""The checks a CI workflow runs, from the workflow files a session read whole or wrote.

Without a registered repository, a `.github/workflows/*.yml` or `.gitlab-ci.yml` that the
assistant read from its first line, or wrote and saw written (whole, or added by a Codex CLI
patch), still says how the project is checked: its `run:` / `script:` lines go through the
repository's own CI reader, and the first command of each everyday check (tests, lint, format,
type-check) and of the build makes one recipe per file ("CI (.github/workflows/ci.yml) runs the
tests with `uv run pytest`; lints with `uv run ruff check`."); the build is kept from a
sub-folder too, said to run there ("builds with `go build ./cmd/server` (in `go/`)"). Edits made
after the file was written or read (each host's, a patch's hunks too) are applied to its text. A
command that reads a CI variable or expression (`$SHARD`, `${{ matrix.python }}`) is CI's own,
not how the project runs the check. An edit that no longer matches the text, a partial read, a
failed or declined write, a file that does not parse, a sub-folder's checks, a build in a folder
the workflow cloned or checked out another repository into (or reached with `../`) and a
workflow that only installs or deploys say nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import structlog
import yaml

from squirrel_core.events import EventType
from squirrel_core.host_tools import CHANGE_TOOLS
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.file_reads import file_text, whole_read_output
from squirrel_memory.extractors.file_writes import applied_calls, writes
from squirrel_memory.extractors.manifests import first_project_path, in_project
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.ci import is_ci_file, read_ci
from squirrel_memory.repository.findings import Readings
from squirrel_memory.repository.scan import PARSE_ERRORS
from squirrel_memory.repository.snapshot import TextFile

log = structlog.get_logger()

KEY_PREFIX = "ci:"
#: The everyday checks named, in this order, with how the recipe says each.
_PURPOSES = {
    "test": "runs the tests with",
    "lint": "lints with",
    "format": "checks the formatting with",
    "typecheck": "type-checks with",
    "build": "builds with",
}
#: Purposes whose first command is kept from a sub-folder too (said to run there): how the
#: project is built where its code lives (`working-directory: go`).
_SCOPED = frozenset({"build"})
TRIGGER_PREFIX = "ci:trigger:"
#: Most branches or paths a trigger names before the rest are counted.
MAX_FILTERS = 6


@dataclass(frozen=True, slots=True)
class CiCommands:
    """One workflow file's recipe: its key, statement, the file and the events behind it."""

    key: str
    content: str
    path: str
    event_ids: tuple[str, ...]


@dataclass(slots=True)
class _Text:
    text: str | None
    event_ids: list[str]


def _edited(text: str, before: str, after: str, *, every: bool = False) -> str | None:
    """`text` with one edit applied (`every` place it matches, for a replace-all), or None when
    the edit does not match it exactly once."""
    if not before:
        return None
    if every:
        return text.replace(before, after) if before in text else None
    return text.replace(before, after, 1) if text.count(before) == 1 else None


def _changed(texts: dict[str, _Text], event: StoredEvent) -> None:
    """`texts` with what a made change call of any host did to CI files: a file written whole
    (a Codex patch's added file too) is its text; each edit or hunk is applied to a known text;
    a CI file the call changed in a way not read here (deleted, or edited in a host's own form)
    is no longer known (None)."""
    applied: set[str] = set()
    for written in writes(event):
        if not in_project(written.path) or not is_ci_file(written.path):
            continue
        applied.add(written.path)
        if written.whole:
            texts[written.path] = _Text(written.after, [event.id])
        elif (known := texts.get(written.path)) is not None:
            if known.text is not None:
                known.text = _edited(known.text, written.before, written.after, every=written.every)
            known.event_ids.append(event.id)
    if event.content.get("tool") not in CHANGE_TOOLS:
        return
    for raw in event.file_paths:
        path = relative_path(raw, event.project_id)
        if path not in applied and (known := texts.get(path)) is not None:
            known.text = None
            known.event_ids.append(event.id)


def _workflow_texts(events: list[StoredEvent]) -> dict[str, _Text]:
    """The last known text of every CI file `events` read whole or wrote, changes applied."""
    done = applied_calls(events)
    texts: dict[str, _Text] = {}
    for event in events:
        if event.event_type == EventType.TOOL_CALL:
            if str(event.content.get("tool_use_id")) in done:
                _changed(texts, event)
            continue
        path = first_project_path(event)
        if path is None or not is_ci_file(path):
            continue
        output = whole_read_output(event)
        if output is not None:
            texts[path] = _Text(file_text(output), [event.id])
    return texts


def _foreign(scope: str, text: str) -> bool:
    """Whether the workflow `text` puts the folder `scope` there itself (a `git clone`, a
    checkout's `path:`) or reaches it out of the checkout (`cd ../lib`): what it builds there is
    another repository's, not the project's."""
    name = re.escape(scope.split("/", 1)[0])
    return bool(
        re.search(rf"\.\./{name}(?![\w.-])", text)
        or re.search(rf"\bgit\s+clone\b[^\n]*?[\s/]{name}(?:\.git)?(?=\s|$|&&|;)", text, re.M)
        or re.search(rf"^\s*path:\s*['\"]?{name}['\"]?\s*$", text, re.M)
    )


def ci_commands(events: list[StoredEvent]) -> list[CiCommands]:
    """One recipe per CI workflow of `events` that runs an everyday check (module docstring)."""
    found: list[CiCommands] = []
    for path, known in _workflow_texts(events).items():
        if known.text is None:
            continue
        out = Readings()
        try:
            read_ci(TextFile.of(path, known.text), out)
        except PARSE_ERRORS as exc:  # a malformed workflow says nothing
            log.debug("session_file_unreadable", path=path, reason=type(exc).__name__)
            continue
        first: dict[str, str] = {}
        for command in out.commands:
            if (
                command.purpose in _PURPOSES
                and command.purpose not in first
                and (
                    not command.scope
                    or (command.purpose in _SCOPED and not _foreign(command.scope, known.text))
                )
                and "$" not in command.text
            ):
                where = f" (in `{command.scope}/`)" if command.scope else ""
                first[command.purpose] = f"{_PURPOSES[command.purpose]} `{command.text}`{where}"
        if first:
            listed = "; ".join(first[p] for p in _PURPOSES if p in first)
            found.append(
                CiCommands(
                    KEY_PREFIX + path, f"CI ({path}) {listed}.", path, tuple(known.event_ids)
                )
            )
    return found


def _names(values: list[str]) -> str:
    shown = [f"`{v}`" for v in values[:MAX_FILTERS]]
    more = len(values) - MAX_FILTERS
    if more > 0:
        return f"{', '.join(shown)} or {more} more"
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"


def _strings(value: object) -> list[str] | None:
    """A YAML list of plain strings, else None."""
    if isinstance(value, list) and value and all(isinstance(v, str) and v for v in value):
        return [str(v) for v in value]
    return None


def _push_trigger(text: str) -> str | None:
    """When a GitHub workflow runs on a push, when its push is filtered by branch or path
    ("on a push to `main` that changes `go/**`, and by hand (`workflow_dispatch`)")."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return None
    if not isinstance(data, dict):
        return None
    on = data.get("on", data.get(True))  # YAML 1.1 reads a bare `on` key as true
    if not isinstance(on, dict) or not isinstance(push := on.get("push"), dict):
        return None
    branches, paths = _strings(push.get("branches")), _strings(push.get("paths"))
    if branches is None and paths is None:
        return None  # every push: nothing particular to know
    said = "on a push"
    if branches is not None:
        said += f" to {_names(branches)}"
    if paths is not None:
        said += f" that changes {_names(paths)}"
    if "workflow_dispatch" in on:
        said += ", and by hand (`workflow_dispatch`)"
    return said


def ci_triggers(events: list[StoredEvent]) -> list[CiCommands]:
    """When each GitHub workflow of `events` runs, when a branch or path filter says more than
    "on every push": a fact of the project ("`.github/workflows/deploy.yml` runs on a push to
    `main` that changes `go/**`."). Pull-request and scheduled triggers are left out."""
    found: list[CiCommands] = []
    for path, known in _workflow_texts(events).items():
        if known.text is None or not path.startswith(".github/workflows/"):
            continue
        said = _push_trigger(known.text)
        if said is not None:
            content = f"`{path}` runs {said}."
            found.append(CiCommands(TRIGGER_PREFIX + path, content, path, tuple(known.event_ids)))
    return found
