"""Programs side by side: a project folder whose top-level folders each hold their own build.

Some projects are a folder of separate programs (games, services, tools) rather than one
program: nothing builds at the root, and each top folder has its own manifest or build file.
A listing the session printed shows it (`find . -type f`, `ls */`, a Glob): a later session
must know which folder it works in and that each builds alone. The rule is the same for every
ecosystem (a `CMakeLists.txt`, `Cargo.toml`, `go.mod`, `mix.exs`, `package.json`,
`dune-project`, `meson.build`, a `Makefile` …):

- two top-level folders at least, each with a build file directly inside it, as a listing or a
  search printed their paths (`file_reads.printed_paths`);
- a listing of the root itself (`ls`, `find .`, with no other folder named), one of them
  whole (not cut by a pipe into `head`), shows no build file there, and none was read there:
  a root manifest or build file makes a monorepo or one program with parts (a CMake
  superbuild), which `workspace_members` and the language fact say; without a whole listing
  of the root nothing is said;
- folders of dependencies, builds, vendored code, examples and docs are not programs of the
  project.

The fact names each folder with its build file ("Separate programs side by side, each with its
own build file (as listed in a session): `game_a/` (CMakeLists.txt), `game_b/`
(CMakeLists.txt)."), six at most.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from squirrel_memory.extractors.activity import core_tokens, relative_path
from squirrel_memory.extractors.file_reads import listing_output, printed_paths
from squirrel_memory.extractors.manifests import in_project, manifest_language
from squirrel_memory.extractors.stack_evidence import sample_folder
from squirrel_memory.models import StoredEvent

KEY = "layout:programs"
IMPORTANCE = 0.5
MIN_PROGRAMS = 2
MAX_NAMED = 6
#: Build files that name no one language: a program is built here all the same.
_BUILD_FILES = frozenset({"makefile", "gnumakefile", "meson.build", "build.ninja"})
#: What separates the pipelines of a shell line.
_PIPELINES = re.compile(r"&&|\|\||;|\n")
#: Programs that list a folder's entries, one a line (`ls -la` ends each line with the name).
_ROOT_LISTERS = frozenset({"ls", "find", "tree"})
#: Top folders of someone else's code or of build output, whatever they hold.
_NOT_PROGRAMS = frozenset(
    {"vendor", "vendored", "third_party", "thirdparty", "third-party", "external", "extern"}
    | {"deps", "node_modules", "build", "dist", "target", "out", "_build", "generated"}
)


@dataclass(frozen=True, slots=True)
class Programs:
    """The programs found: key, statement and the events that listed them."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def _build_file(name: str) -> bool:
    return manifest_language(name) is not None or name.lower() in _BUILD_FILES


def _folders(tokens: list[str]) -> list[str]:
    """The folders one listing step names: `find`'s paths come before its first expression
    word, `ls` and `tree` take any operand."""
    if tokens[0] == "find":
        return list(itertools.takewhile(lambda t: not t.startswith(("-", "(", "!")), tokens[1:]))
    return [t for t in tokens[1:] if not t.startswith("-")]


def _root_entries(event: StoredEvent) -> tuple[set[str], bool] | None:
    """The names a listing of the project's root printed (`ls`, `ls -la`, `find . -type f`)
    and whether one of its root listings is whole (not cut by a pipe: `| head -50` may hide a
    build file), or None when `event` lists nothing or names another folder."""
    output = listing_output(event)
    command = event.content.get("command")
    if output is None or not isinstance(command, str) or event.content.get("is_error"):
        return None
    cwd = event.content.get("cwd")
    if isinstance(cwd, str) and cwd and cwd.rstrip("/") != event.project_id.rstrip("/"):
        return None
    listers = 0
    whole = False
    for pipeline in _PIPELINES.split(command):
        tokens = core_tokens(pipeline.split(" | ", 1)[0].strip().strip("()"))
        if not tokens or tokens[0] not in _ROOT_LISTERS:
            continue
        if any(t not in (".", "./") for t in _folders(tokens)):
            return None
        listers += 1
        whole = whole or "|" not in pipeline.replace("||", "")
    if not listers:
        return None
    names: set[str] = set()
    for line in output.splitlines():
        word = line.split()[-1] if line.split() else ""
        name = word.removeprefix("./")
        if name and "/" not in name:
            names.add(name)
    return names, whole


def side_by_side(events: list[StoredEvent]) -> Programs | None:
    """The programs side by side a listing of `events` showed (module docstring), or None."""
    roots = [found for e in events if (found := _root_entries(e)) is not None]
    if not any(whole for _, whole in roots):
        return None
    if any(_build_file(name) for names, _ in roots for name in names):
        return None
    shown = printed_paths(events)
    root_read = any(
        "/" not in (rel := relative_path(p, e.project_id)) and _build_file(rel)
        for e in events
        for p in e.file_paths
    )
    programs: dict[str, tuple[str, str]] = {}
    for path, event_id in shown.items():
        parts = PurePosixPath(path).parts
        if len(parts) != 2 or not _build_file(parts[1]) or not in_project(path):
            continue
        folder = parts[0]
        if folder.lower() in _NOT_PROGRAMS or folder.startswith(".") or sample_folder(path):
            continue
        programs.setdefault(folder, (parts[1], event_id))
    if root_read or len(programs) < MIN_PROGRAMS:
        return None
    named = sorted(programs)[:MAX_NAMED]
    listed = ", ".join(f"`{folder}/` ({programs[folder][0]})" for folder in named)
    more = f" and {len(programs) - len(named)} more" if len(programs) > len(named) else ""
    content = (
        "Separate programs side by side, each with its own build file (as listed in a"
        f" session): {listed}{more}."
    )
    ids = tuple(sorted({programs[folder][1] for folder in named}))
    return Programs(KEY, content, ids)
