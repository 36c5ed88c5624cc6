"""The project's build tool, where no package manifest names it: the root build file a session
saw, corroborated by the tool's own run or its include files.

C, C++ and Fortran code often builds with a tool no package manifest names (make, CMake, Meson,
SCons, Bazel), and the first thing an assistant does in such a repository is look for the build
file: a search lists it, a read opens it, `make <target>` runs. One project fact says which tool
builds the project, from evidence of the same shape in every build tool:

- its root build file (`Makefile`, `CMakeLists.txt`, `meson.build`, `SConstruct`,
  `MODULE.bazel` …) in a successful listing or search's output, a read or an edit; a build file
  in a sub-folder (a dependency's, a generated `build/Makefile`) is not the project's;
- and either a successful run of that tool at the root (`make build/unit/x`, `cmake -S . -B
  build`, `meson setup build`) or its include files seen (`config.mak`, `rules.mk`,
  `cmake/warnings.cmake`), which show the file builds code rather than naming a few tasks.

A few root build files say by themselves what builds the project and what it is, for they have
no other use (`platformio.ini`: microcontroller firmware built with PlatformIO): the file alone
is enough, and another root build file beside it is one the tool runs itself (the
`CMakeLists.txt` of an ESP-IDF project PlatformIO builds). A library's root manifest beside it
(`library.json`, `library.properties`) makes it a library's, and nothing is said.

It says nothing when a root package manifest was seen (`Cargo.toml`, `package.json`, `mix.exs`,
`dune-project`, a `.rockspec`: the manifest facts say how those build), when two tools' root
files were seen (a Makefile that wraps CMake), and never of a file the session looked for and
did not find (a failed `grep … CMakeLists.txt` lists nothing).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath

from squirrel_memory.extractors.about import root_file_read
from squirrel_memory.extractors.activity import CommandRun, core_tokens
from squirrel_memory.extractors.elsewhere import ran_elsewhere
from squirrel_memory.extractors.manifests import manifest_language
from squirrel_memory.extractors.project_fact import Fact
from squirrel_memory.models import StoredEvent

KEY = "build"
IMPORTANCE = 0.5
#: Include files named, at most.
MAX_INCLUDES = 3

#: Root build files and the tool each is read by.
ROOT_BUILD_FILES: dict[str, str] = {
    "Makefile": "make",
    "makefile": "make",
    "GNUmakefile": "make",
    "CMakeLists.txt": "CMake",
    "meson.build": "Meson",
    "SConstruct": "SCons",
    "MODULE.bazel": "Bazel",
    "WORKSPACE": "Bazel",
    "WORKSPACE.bazel": "Bazel",
}
#: Root build files that say what builds the project and what it is with no run or include
#: file: the tool and what it makes.
SELF_EVIDENT: dict[str, tuple[str, str]] = {
    "platformio.ini": ("PlatformIO", "microcontroller firmware"),
}
#: Root manifests of a library for such firmware (PlatformIO's, Arduino's): the project is no
#: firmware of its own, so its build file says nothing.
_LIBRARY_MANIFESTS = frozenset({"library.json", "library.properties"})
#: Include files of each tool, by suffix or name.
_INCLUDE_SUFFIXES: dict[str, str] = {".mak": "make", ".mk": "make", ".cmake": "CMake"}
_INCLUDE_NAMES: dict[str, str] = {"meson_options.txt": "Meson", "meson.options": "Meson"}
#: The programs that run each tool.
_PROGRAMS: dict[str, frozenset[str]] = {
    "make": frozenset({"make", "gmake"}),
    "CMake": frozenset({"cmake"}),
    "Meson": frozenset({"meson"}),
    "SCons": frozenset({"scons"}),
    "Bazel": frozenset({"bazel", "bazelisk"}),
    "PlatformIO": frozenset({"pio", "platformio"}),
}


@dataclass(frozen=True, slots=True)
class _Run:
    command: str
    event_id: str


def _include_tool(path: str) -> str | None:
    pure = PurePosixPath(path)
    return _INCLUDE_NAMES.get(pure.name) or _INCLUDE_SUFFIXES.get(pure.suffix.lower())


def _tool_runs(runs: list[CommandRun], project_id: str, tool: str) -> list[_Run]:
    """Successful runs of `tool` at the project's root, each as its first command."""
    programs = _PROGRAMS[tool]
    found: list[_Run] = []
    for run in runs:
        if run.ok is not True or ran_elsewhere(run.command, project_id):
            continue
        if run.cwd not in (None, project_id):
            continue
        first = run.command.split("&&")[0].split(";")[0].split("|")[0]
        tokens = core_tokens(first)
        if tokens and PurePosixPath(tokens[0]).name in programs and "-C" not in tokens:
            found.append(_Run(" ".join(tokens), run.event_id))
    return found


def build_fact(
    seen: list[tuple[str, str]], events: list[StoredEvent], runs: list[CommandRun]
) -> Fact | None:
    """The build tool (module docstring) from `seen`, the (project-relative path, event id) of
    files successful listings and searches printed, the root files read in `events`, and the
    tool's runs in `runs`; None when the evidence does not single one tool out."""
    if not events:
        return None
    project_id = events[0].project_id
    files = list(seen)
    for event in events:
        read = root_file_read(event, lambda p: True)
        if read is not None:
            files.append((read[0], event.id))
    roots: dict[str, str] = {}
    includes: dict[str, list[tuple[str, str]]] = {}
    for path, event_id in files:
        if "/" not in path and (path in ROOT_BUILD_FILES or path in SELF_EVIDENT):
            roots.setdefault(path, event_id)
        elif "/" not in path and (manifest_language(path) or path in _LIBRARY_MANIFESTS):
            return None  # a package manifest at the root: its facts say how the project builds
        elif tool := _include_tool(path):
            includes.setdefault(tool, [])
            if path not in {p for p, _ in includes[tool]}:
                includes[tool].append((path, event_id))
    evident = sorted(p for p in roots if p in SELF_EVIDENT)
    if len({SELF_EVIDENT[p] for p in evident}) > 1:
        return None
    if evident:
        path = evident[0]
        tool, made = SELF_EVIDENT[path]
        text = f"The project is {made} built with {tool}: the root `{path}`"
    else:
        tools = {ROOT_BUILD_FILES[path] for path in roots}
        if len(tools) != 1:
            return None
        (tool,) = tools
        path = next(p for p in roots if ROOT_BUILD_FILES[p] == tool)
        text = f"The project builds with {tool}: the root `{path}`"
    ran = _tool_runs(runs, project_id, tool)
    own = sorted(includes.get(tool, []), key=lambda item: (item[0].count("/"), item[0]))
    if not ran and not own and not evident:
        return None
    if own:
        named = ", ".join(f"`{p}`" for p, _ in own[:MAX_INCLUDES])
        more = len(own) - MAX_INCLUDES
        text += f", with the include files {named}" + (f" and {more} more" if more > 0 else "")
    if ran:
        text += f"; `{ran[0].command}` ran at the root"
    ids = [roots[path], *(e for _, e in own[:MAX_INCLUDES]), *(r.event_id for r in ran[:1])]
    tags = ("build", tool.lower())
    return Fact(KEY, text + ".", tags, IMPORTANCE, tuple(dict.fromkeys(ids)), (path,))
