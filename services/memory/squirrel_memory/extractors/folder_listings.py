"""The project's files a folder listing printed: a listing tool's tree, or the shell's `ls`.

A first look at a project often lists a folder and opens nothing: Claude Code's `LS` tool
prints the folder as a tree (`- /repo/`, then one entry a line, two spaces deeper per level,
folders ending in `/`), and `ls` prints the names a folder holds. Those names are the
project's files as surely as the ones a search lists (`searched_files`), and weigh the same
as evidence of its language. Only what can be placed counts:

- a listing tool's tree whose top is a folder of the project (the root or below it); a tree
  of another folder, a failed listing, and the tool's trailing notes give nothing;
- `ls` of at most one folder of the project, names only (`-1`, `-a`, `-A`, `-F`, `-p` and
  no other option: a long listing, a recursive one or one of several folders prints other
  lines), on a line that succeeded in the project; a pattern (`ls src/*.ts`), a home or
  variable path, or a folder outside the project gives nothing;
- such a line may chain `cd` into a folder of the project and `echo` separators, which tell
  where one `ls`'s names end and the next one's begin (`ls && echo --- && ls docs`): two
  listings with no separator between them, or a separator that is not found in the output,
  give nothing; a pipe may only cut or sort the list (`| head -50`);
- a `pwd` before a listing is a separator too (the folder it prints is a path, never a name);
  a short `git status` (`--short`, `-s`, `--porcelain`) or a `git log --oneline` may end the
  line, after the last listing: each of their lines holds a space, so the listing's names end
  at the first line that holds one, and nothing may follow them but more of the same;
- a printed line counts when it is one name and nothing else (no space, no `/` inside it):
  a message (`ls: cannot access …`) or a name with a space in it does not;
- `ls` of several folders of the project (`ls src tests docs`) prints each folder's names
  under a header of its own (`src:`), to the next blank line: those headers place its names
  wherever the listing stands in the output, even after a `cat` of a file whose lines cannot
  be told from names; a folder whose header is not found (cut off by `head`) gives nothing,
  and a single-folder `ls` whose end no separator marks (one before a `cat`) gives nothing.
"""

from __future__ import annotations

import posixpath
import re
from typing import NamedTuple

from squirrel_memory.extractors.activity import CommandRun
from squirrel_memory.extractors.elsewhere import ran_elsewhere
from squirrel_memory.extractors.git_listed import folder_of, moved_to
from squirrel_memory.extractors.searched_files import only_cut, tool_outputs
from squirrel_memory.models import StoredEvent

#: Tools whose result is a folder's tree, one entry a line.
TREE_TOOLS = frozenset({"LS"})
#: `ls` options that keep its output to names, one a line (when not on a terminal).
_NAME_OPTIONS = frozenset("1aAFp")
#: An entry of a tree: its indent, its name, and `/` when it is a folder.
_TREE_ENTRY = re.compile(r"^(?P<indent> *)- (?P<name>[^\s/][^/]*?)(?P<folder>/?)$")
#: One name printed by `ls` (with `-F`, a kind mark may follow it; a folder's `/` is left out).
_NAME = re.compile(r"^(?P<name>[\w@+.-]+)[*@=|]?$")
_GLOB = re.compile(r"[*?\[\]{}]")
_MOVES = frozenset({"cd", "pushd"})
_ECHO_OPTIONS = re.compile(r"^-[neE]+$")
#: The line `pwd` prints: an absolute path (POSIX or Windows), which no listed name is.
_ABSOLUTE = re.compile(r"^(?:/|[A-Za-z]:[\\/])")
#: `git status` options that print one `XY path` line a file (and `## branch` with `-b`).
_SHORT_STATUS = frozenset({"--short", "-s", "--porcelain", "-b", "--branch", "-sb"})
#: `git log` options besides `--oneline` that keep one `hash subject` line a commit.
_ONE_LINE_LOG = re.compile(r"^(?:--oneline|-\d+|--no-decorate)$")
#: Programs that print a file of the project as it is: lines nothing can tell from names.
_FILE_PRINTERS = frozenset({"cat", "head", "tail"})


class _Step(NamedTuple):
    """One step of a line that prints: its kind, the folder an `ls` lists or the text an
    `echo` prints, and for an `ls` of several folders each (header as printed, folder)."""

    kind: str
    value: str = ""
    headed: tuple[tuple[str, str], ...] = ()


def _tree_paths(output: str, project_id: str) -> list[str]:
    """The project-relative paths of a listing tool's tree (module docstring)."""
    lines = output.splitlines()
    if not lines:
        return []
    top = lines[0].strip()
    if not top.startswith("- "):
        return []
    top_folder = folder_of(top[2:].rstrip("/"), project_id)
    if top_folder is None:
        return []
    found: list[str] = []
    stack: list[tuple[int, str]] = []  # (indent, folder) of the folders open at this line
    for line in lines[1:]:
        match = _TREE_ENTRY.match(line.rstrip())
        if match is None:
            if line.strip():
                break  # the tool's notes after the tree
            continue
        indent = len(match.group("indent"))
        while stack and stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1] if stack else top_folder
        path = posixpath.join(parent, match.group("name")) if parent else match.group("name")
        if match.group("folder"):
            stack.append((indent, path))
        else:
            found.append(path)
    return found


def tree_listed_paths(events: list[StoredEvent]) -> list[tuple[str, str]]:
    """(project-relative path, event id) for every file a listing tool's successful tree of a
    project folder printed (module docstring)."""
    found: list[tuple[str, str]] = []
    for event, output in tool_outputs(events, TREE_TOOLS):
        found.extend((path, event.id) for path in _tree_paths(output, event.project_id))
    return found


def _listed_folders(tokens: list[str], folder: str, project_id: str) -> list[str] | None:
    """The project folders one `ls` step lists names of (as typed, then where they are), or
    None (module docstring)."""
    options = [t for t in tokens[1:] if t.startswith("-")]
    targets = [t for t in tokens[1:] if not t.startswith("-")]
    if any(t.startswith("--") or not set(t[1:]) <= _NAME_OPTIONS for t in options):
        return None
    if not targets:
        return [folder]
    found: list[str] = []
    for target in targets:
        listed = _listed_folder(target, folder, project_id)
        if listed is None:
            return None
        found.append(listed)
    return found


def _listed_folder(target: str, folder: str, project_id: str) -> str | None:
    """The project folder `target`, typed in `folder`, is, or None."""
    if _GLOB.search(target) or target.startswith(("~", "$", "%")):
        return None
    if target.startswith("/"):
        return folder_of(target.rstrip("/"), project_id)
    moved = posixpath.normpath(posixpath.join(folder, target))
    if moved == ".." or moved.startswith("../"):
        return None
    return "" if moved == "." else moved


def _steps(run: CommandRun, project_id: str) -> list[_Step] | None:
    """The line's steps that print (`ls` of one folder or several, `echo`, `pwd`, a spaced
    `git` line, a file printed), in order; None when a step does anything else, or works
    outside the project."""
    folder = folder_of(run.cwd, project_id)
    steps: list[_Step] = []
    for tokens in run.segments:
        if folder is None:
            return None
        name = tokens[0]
        if name in _MOVES:
            folder = moved_to(folder, tokens, project_id)
        elif name == "echo":
            if len(tokens) > 1 and _ECHO_OPTIONS.match(tokens[1]):
                return None  # `echo -n` / `-e` print other text than their words
            steps.append(_Step("echo", " ".join(tokens[1:]).strip()))
        elif name == "ls":
            listed = _listed_folders(tokens, folder, project_id)
            if listed is None:
                return None
            if len(listed) == 1:
                steps.append(_Step("ls", listed[0]))
            else:
                typed = [t for t in tokens[1:] if not t.startswith("-")]
                steps.append(_Step("headed", headed=tuple(zip(typed, listed, strict=True))))
        elif tokens == ["pwd"]:
            steps.append(_Step("pwd"))
        elif _spaced_git(tokens):
            steps.append(_Step("spaced"))
        elif name in _FILE_PRINTERS:
            steps.append(_Step("file"))
        else:
            return None
    return steps if folder is not None else None


def _spaced_git(tokens: list[str]) -> bool:
    """Whether the step is a `git status` or `git log` whose every line holds a space."""
    if len(tokens) < 3 or tokens[0] != "git":
        return False
    options = tokens[2:]
    if tokens[1] == "status":
        return any(o in ("--short", "-s", "--porcelain", "-sb") for o in options) and all(
            o in _SHORT_STATUS for o in options
        )
    if tokens[1] == "log":
        return "--oneline" in options and all(_ONE_LINE_LOG.match(o) for o in options)
    return False


def _names(lines: list[str], folder: str) -> list[str]:
    """The project-relative paths of the names `ls` printed for `folder`."""
    found: list[str] = []
    for line in lines:
        match = _NAME.match(line.strip())
        if match is None or match.group("name") in (".", ".."):
            continue
        name = match.group("name")
        found.append(posixpath.join(folder, name) if folder else name)
    return found


def ls_listed_paths(runs: list[CommandRun], project_id: str) -> list[tuple[str, str]]:
    """(project-relative path, event id) for every name an `ls` of a project folder printed
    (module docstring); a failed line gives none."""
    found: list[tuple[str, str]] = []
    for run in runs:
        if run.ok is not True or ran_elsewhere(run.command, project_id):
            continue
        if not only_cut(run.command):
            continue
        steps = _steps(run, project_id)
        if not steps or not any(step.kind in ("ls", "headed") for step in steps):
            continue
        paths = _split_output(run.output.splitlines(), steps)
        found.extend((path, run.event_id) for path in paths)
    return found


def _split_output(lines: list[str], steps: list[_Step]) -> list[str]:
    """The paths each `ls` step printed, its lines told apart by the `echo` steps' lines or by
    its own headers; nothing when two listings follow each other unseparated or a separator
    is not found."""
    found: list[str] = []
    at = 0
    pending: str | None = None
    ended = False  # a step whose lines hold spaces ran: only more of them may follow
    blind = False  # a file was printed: only headed listings can be placed after it
    for step in steps:
        kind, value = step.kind, step.value
        if kind == "spaced":
            if pending is not None:
                stop = next(
                    (i for i in range(at, len(lines)) if " " in lines[i].strip()), len(lines)
                )
                found.extend(_names(lines[at:stop], pending))
                pending = None
            ended = True
            continue
        if ended:
            return []
        if kind == "file":
            pending, blind = None, True  # where an unseparated listing ends is unknown
            continue
        if kind == "headed":
            if pending is not None:
                return []
            names, at = _headed_names(lines, at, step.headed)
            found.extend(names)
            continue
        if blind:
            continue
        if kind == "ls":
            if pending is not None:
                return []
            pending = value
            continue
        if kind == "pwd":
            end = next((i for i in range(at, len(lines)) if _ABSOLUTE.match(lines[i])), None)
        else:
            end = next((i for i in range(at, len(lines)) if lines[i].strip() == value), None)
        if end is None:
            return []
        if pending is not None:
            found.extend(_names(lines[at:end], pending))
            pending = None
        at = end + 1
    if pending is not None:
        found.extend(_names(lines[at:], pending))
    return found


def _headed_names(
    lines: list[str], at: int, headed: tuple[tuple[str, str], ...]
) -> tuple[list[str], int]:
    """The paths an `ls` of several folders printed under each folder's header (`src:`),
    from `at` on, each to the next blank line or the first line that is no name, and the line
    after the last of them."""
    found: list[str] = []
    end = at
    for typed, folder in headed:
        header = f"{typed.rstrip('/')}:"
        start = next(
            (i for i in range(at, len(lines)) if lines[i].strip() in (header, f"{typed}:")), None
        )
        if start is None:
            continue  # cut off, or not listed
        stop = start + 1
        while stop < len(lines) and lines[stop].strip() and _NAME.match(lines[stop].strip()):
            stop += 1
        found.extend(_names(lines[start + 1 : stop], folder))
        end = max(end, stop)
    return found, end
