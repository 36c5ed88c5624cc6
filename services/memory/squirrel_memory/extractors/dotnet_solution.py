"""A .NET solution's language: its project files sit in sub-folders, never at the root.

A .NET repository keeps a solution (`Ledger.sln`, `Ledger.slnx`) at its root and each of its
projects in a folder of its own (`src/Ledger.Api/Ledger.Api.csproj`), so no root manifest is
ever read, and a project file below the root is a sub-package's for every other ecosystem. When
the session shows the root is a solution's (a root `.sln` or `.slnx` listed or read, or a
`dotnet build`, `test`, `run` or `restore` run at the root that passed), the project files it
read or listed say the language: C# for `.csproj`, F# for `.fsproj`, Visual Basic for `.vbproj`,
when they all say the same one. Project files in an examples, docs or tools folder (a Python
project's Windows helper under `tools/`) are not the solution's, and without the solution
shown a project file below the root says nothing of the whole project."""

from __future__ import annotations

from pathlib import PurePosixPath

from squirrel_memory.extractors.activity import CommandRun
from squirrel_memory.extractors.stack_evidence import sample_folder
from squirrel_memory.repository.languages import is_excluded

#: A .NET project file's suffix → its language.
PROJECT_FILES = {".csproj": "C#", ".fsproj": "F#", ".vbproj": "Visual Basic"}
_SOLUTIONS = (".sln", ".slnx")
#: `dotnet` subcommands that build the solution or project the folder holds.
_BUILDS = frozenset({"build", "test", "run", "restore", "publish", "pack"})


def solution_root(paths: list[str], runs: list[CommandRun], project_id: str) -> bool:
    """Whether the session shows the project's root is a .NET solution's: a root `.sln` or
    `.slnx` among `paths`, or a `dotnet` build of the root's solution that passed."""
    if any("/" not in p and p.lower().endswith(_SOLUTIONS) for p in paths):
        return True
    root = project_id.rstrip("/")
    for run in runs:
        if not run.ok or (run.cwd is not None and run.cwd.rstrip("/") != root):
            continue
        first = run.segments[0] if run.segments else []
        if len(first) >= 2 and first[0] == "dotnet" and first[1] in _BUILDS:
            return True
    return False


def solution_projects(shown: list[tuple[str, str]]) -> tuple[dict[str, str], set[str]]:
    """({language: first project file}, event ids) of the .NET project files `shown` below the
    root and outside examples, docs, tools and excluded folders, when they say one language;
    ({}, set()) otherwise."""
    found: dict[str, str] = {}
    ids: set[str] = set()
    for path, event_id in shown:
        language = PROJECT_FILES.get(PurePosixPath(path).suffix.lower())
        if language is None or "/" not in path or sample_folder(path) or is_excluded(path):
            continue
        found.setdefault(language, path)
        ids.add(event_id)
    return (found, ids) if len(found) == 1 else ({}, set())
