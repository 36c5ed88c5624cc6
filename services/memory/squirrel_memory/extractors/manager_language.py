"""The language of the code a JavaScript package manager's project worked on, said with it.

A `package.json` project's manager (npm, pnpm, yarn, bun, deno) runs JavaScript and TypeScript
alike, so "Commands in this project run through bun, its package manager." names no language;
a session that works on one file per task makes no language statement of its own either
(`touched_languages` needs two files). The files it read and changed still show which of the
two the project's code is, and the package manager fact says so, the same for every manager:

- the fact names one package manager, of the JavaScript ecosystem (two managers, or one of
  another ecosystem, say nothing more);
- the files are the ones the assistant's file tools read or changed inside the project, the
  project's own code (`touched_code`: not vendored, generated, build, dependency or docs
  folders, nor a file outside the project's root; nor an example, script or tool folder's,
  `sample_folder`), counted by suffix;
- every one is JavaScript or TypeScript, TypeScript winning over the JavaScript beside it (its
  configuration and build output): a file of another language (a Python script, a Go service)
  leaves the project's language open, and nothing more is said.

"Commands in this project run through bun, its package manager; the code its sessions worked
on is TypeScript (`src/app.ts`)." — one or two files named, more counted.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from squirrel_core.command_launchers import package_manager
from squirrel_core.events import EventType
from squirrel_core.host_tools import CHANGE_TOOLS, READ_TOOLS
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.evidence.attempts import Attempt, Finding
from squirrel_memory.extractors.manifests import in_project
from squirrel_memory.extractors.stack_evidence import sample_folder
from squirrel_memory.extractors.touched_languages import touched_code
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.languages import is_excluded

#: The ecosystem whose managers name no language of their own.
_ECOSYSTEM = "javascript"
_LANGUAGES = frozenset({"JavaScript", "TypeScript"})
#: Files named, at most; more are counted.
MAX_NAMED = 2


def _managers(found: Iterable[Attempt]) -> dict[str, str]:
    """Package manager → its ecosystem, of the commands in `found`."""
    managers: dict[str, str] = {}
    for attempt in found:
        manager = package_manager(attempt.text.split())
        if manager:
            managers.setdefault(*manager)
    return managers


def worked_files(events: Iterable[StoredEvent]) -> list[tuple[str, str]]:
    """(project-relative path, event id) of every file of the project the assistant read or
    changed with its file tools in `events`."""
    found: list[tuple[str, str]] = []
    for event in events:
        tool = event.content.get("tool")
        if event.event_type == EventType.CODE_CHANGE or (
            event.event_type == EventType.TOOL_CALL and tool in READ_TOOLS | CHANGE_TOOLS
        ):
            found.extend(
                (path, event.id)
                for raw in event.file_paths
                if raw and in_project(path := relative_path(raw, event.project_id))
            )
    return found


def with_changed_language(
    fact: Finding, found: list[Attempt], changed: list[tuple[str, str]]
) -> Finding:
    """`fact`, the package manager fact of `found`, with the language of the project's own code
    files `changed` ((project-relative path, event id) of each read or change, `worked_files`)
    when the module's docstring lets it say one; else `fact` as it is."""
    named = [tag for tag in fact.tags if tag not in ("tooling", "package_manager")]
    if len(named) != 1 or _managers(found).get(named[0]) != _ECOSYSTEM:
        return fact
    code = touched_code(changed, {})
    # Examples, scripts, tools and generated files show the project in use or built, not its
    # own code (`language_fact` leaves them out the same way).
    files = {
        language: kept
        for language, found in code.files.items()
        if (kept := {f for f in found if not sample_folder(f) and not is_excluded(f)})
    }
    if "TypeScript" in files:
        files.pop("JavaScript", None)
    if len(files) != 1 or not set(files) <= _LANGUAGES:
        return fact
    ((language, paths),) = files.items()
    shown = sorted(paths)
    said = ", ".join(f"`{p}`" for p in shown) if len(shown) <= MAX_NAMED else f"{len(shown)} files"
    ids = [event_id for path, event_id in changed if path in paths]
    return replace(
        fact,
        content=(
            f"{fact.content.rstrip('.')}; the code its sessions worked on is {language} ({said})."
        ),
        tags=(*fact.tags, language.lower()),
        event_ids=tuple(dict.fromkeys([*fact.event_ids, *ids[-5:]])),
    )
