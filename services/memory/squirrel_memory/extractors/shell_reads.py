"""The project's files a session read through the shell: `cat src/World.hpp`, `sed -n 1,80p
lib/app.ex`, `head -40 src/main.rs`.

An assistant often reads code with a command rather than its file tool (Codex CLI always does,
Claude Code does when it reads two files in one call). Such a read shows the file's text as
surely as a Read does, and counts the same as evidence of the project's language. The rule is
the same for every ecosystem:

- the command ran cleanly (exit code 0, no error) and printed something, and no line of its
  output says the file could not be read (`cat: composer.json: No such file or directory`:
  a pipe into `head` hides the reader's failure from the exit code);
- the file is named by a reader (`file_reads.SHELL_READERS`) and lies inside the project,
  counted from the folder the command ran in, or from the folder of the project a `cd` or
  `pushd` before it moved to (`cd /path/to/repo && cat src/a.rb`, `cd web; head -40 app.ts`:
  assistants often start a line by moving to the project's root); after a move that leaves the
  project or cannot be told (`cd ..`, `cd $DIR`, `popd`), or in a line that works in another
  folder (`elsewhere.ran_elsewhere`), no file can be placed;
- a search in files it names (`grep -n ENV config/initializers/honeybadger.rb`, not a
  recursive one, nor one that prints only names or counts) shows lines of them, and counts as
  a read of each, placed the same way;
- a step that throws its error output away (`2>/dev/null`, `&>/dev/null`) hides a missing
  file: a file it names counts only when the output names it (a search or a `head` over several
  files prints each file's name), or when it is the one file of the line's one printing step
  (the output is then its text); `rg -n bats mise.toml package.json 2>/dev/null` that prints
  only `mise.toml:2:…` shows no `package.json`;
- dependency, environment and build folders are not the project's (`manifests.in_project`).
"""

from __future__ import annotations

import posixpath
import re

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import core_tokens, relative_path, split_segments
from squirrel_memory.extractors.elsewhere import outside_root, ran_elsewhere
from squirrel_memory.extractors.file_reads import PATH_ARGUMENT as _PATH_ARGUMENT
from squirrel_memory.extractors.file_reads import step_read_paths
from squirrel_memory.extractors.git_listed import folder_of, moved_to
from squirrel_memory.extractors.manifests import in_project
from squirrel_memory.models import StoredEvent

#: What a reader prints beside a file's name when it could not read it.
_UNREAD = re.compile(
    r"no such file|cannot open|can't open|can't read|is a directory|permission denied"
    r"|not a regular file",
    re.IGNORECASE,
)
#: Steps that move the shell to another folder: the paths after them are placed from there.
_MOVES = frozenset({"cd", "pushd", "popd"})
#: A step's error output thrown away: a file it could not read says nothing.
_ERRORS_DROPPED = re.compile(r"(?:^|\s)(?:2|&)>\s*/dev/null\b|(?:^|\s)2>&-|>\s*/dev/null\s+2>&1")


def _named_in(name: str, output: str) -> bool:
    """Whether `output` names the file `name` as a search or `head` over several files prints
    it (`Cargo.toml:4:…`, `==> pyproject.toml <==`)."""
    return re.search(rf"(?<![\w./-]){re.escape(name)}(?![\w.-])", output) is not None


#: Searches that print the lines of the files they are given.
_SEARCHES = frozenset({"grep", "egrep", "rg"})
#: Options after which a search prints no file's lines, or searches a tree rather than files.
_NOT_LINES = re.compile(
    r"^-(?:-(?:recursive|dereference-recursive|files-with(?:out)?-match(?:es)?|count|quiet|silent)"
    r"|[^-]*[rRlLcq])"
)
#: Options of a search whose value is the next word: the pattern (`-e`), a pattern file, a
#: glob or type filter, a count or a context size.
_VALUED = frozenset(
    {"-e", "-f", "--regexp", "--file", "-g", "--glob", "-t", "--type", "-m", "-A", "-B", "-C"}
)


def _searched_files(tokens: list[str]) -> list[str]:
    """The files a search names and prints lines of (module docstring), as it names them."""
    if not tokens or tokens[0] not in _SEARCHES:
        return []
    operands: list[str] = []
    patterned = False
    skip = False
    for word in tokens[1:]:
        if skip:
            skip = False
        elif word in _VALUED:
            patterned = patterned or word in ("-e", "-f", "--regexp", "--file")
            skip = True
        elif word.startswith("-"):
            if _NOT_LINES.match(word):
                return []
        elif not patterned:
            patterned = True  # the first operand is the pattern
        else:
            operands.append(word)
    return [name for name in operands if _PATH_ARGUMENT.match(name) and "*" not in name]


def _placed(event: StoredEvent) -> list[tuple[str, str]]:
    """(project folder the step ran in, file as the step named it) for every file a reader step
    of `event`'s command printed, following the line's folder moves; [] when its paths cannot
    be placed in the project (module docstring)."""
    command = event.content.get("command")
    output = event.content.get("output")
    if not isinstance(command, str) or not isinstance(output, str) or not output.strip():
        return []
    if ran_elsewhere(command, event.project_id):
        return []
    cwd = event.content.get("cwd")
    folder = folder_of(cwd if isinstance(cwd, str) and cwd else None, event.project_id)
    placed: list[tuple[str, str]] = []
    parts = split_segments(command)
    printing = [p for p in parts if (words := core_tokens(p)) and words[0] not in _MOVES]
    for part in parts:
        tokens = core_tokens(part)
        if folder is None:
            break
        if tokens and tokens[0] in _MOVES:
            folder = moved_to(folder, tokens, event.project_id)
        else:
            named = step_read_paths(tokens) or _searched_files(tokens)
            if _ERRORS_DROPPED.search(part) and (len(named) > 1 or len(printing) > 1):
                # A missing file left no word: only the files the output names were shown.
                named = [name for name in named if _named_in(name, output)]
            placed.extend((folder, name) for name in named)
    return placed


def _clean(event: StoredEvent) -> bool:
    """Whether `event` is a shell command that ran cleanly."""
    content = event.content
    return (
        event.event_type == EventType.COMMAND_RUN
        and isinstance(content.get("command"), str)
        and content.get("is_error") is not True
        and content.get("exit_code") in (None, 0)
    )


def shell_read_files(events: list[StoredEvent]) -> list[tuple[str, str]]:
    """(project-relative path, event id) for every project file a clean command printed by
    name (module docstring), in the order read."""
    found: list[tuple[str, str]] = []
    for event in events:
        if event.event_type != EventType.COMMAND_RUN:
            continue
        placed = _placed(event) if _clean(event) else []
        output = str(event.content.get("output") or "")
        unread = [line for line in output.splitlines() if _UNREAD.search(line)]
        for folder, raw in placed:
            if raw.startswith(("~", "$")) or any(raw in line for line in unread):
                continue
            path = raw if raw.startswith("/") else posixpath.join(event.project_id, folder, raw)
            if outside_root(path, event.project_id):
                continue
            rel = relative_path(posixpath.normpath(path), event.project_id)
            if rel and rel != "." and in_project(rel):
                found.append((rel, event.id))
    return found
