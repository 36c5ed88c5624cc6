"""The project's files that a search or listing command of a session printed, one per line.

A session that only looks around (an explore subagent, a review, a question answered from the
code) often opens no file whole: it greps for a word and lists the files that hold it. Those
lines are the project's files as surely as the ones git lists (`git_listed`), and weigh the
same as evidence of its language (less than files touched). A command counts when it prints
paths and nothing else:

- `grep -l`/`-L` (any spelling: `-rli`, `--files-with-matches`), `rg -l`/`--files`, `ag -l`,
  `find` without an action that prints something else (`-exec`, `-printf`, `-ls`, `-delete`),
  `fd`; a pipe may only cut, sort or filter the list (`| head -30`, `| sort`, `| grep -v
  test`): a pipe into anything else (`| xargs cat`, `| sed …`) prints other lines;
- its line may chain a `cd` into a folder of the project, an `echo` separator, a `pwd` (its
  absolute line is never counted) and git commands
  run in this repository; any other step, a `cd` out of the project (or that cannot be told)
  and a command run in another folder give nothing;
- a printed line counts when it is one relative path and nothing else (`src/a.ts`,
  `./src/a.ts`): `grep -n` matches (`src/a.ts:12:…`), messages, absolute, home and `../` paths
  do not; paths printed after a `cd` into a sub-folder start from it.

The search tools of the assistants list files the same way, one absolute path a line (Claude
Code's `Glob`, its `Grep` in the default files mode, Gemini CLI's `glob`): a line that is a path
inside the project counts, one outside it or a matched line of text does not, and neither does
a search pointed at another folder.
"""

from __future__ import annotations

import itertools
import posixpath
import re
import shlex
from collections.abc import Collection, Iterator

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import CommandRun, core_tokens, relative_path
from squirrel_memory.extractors.elsewhere import looked_outside, ran_elsewhere
from squirrel_memory.extractors.git_listed import folder_of, moved_to
from squirrel_memory.models import StoredEvent

#: Tools whose result lists files, one path a line.
LISTING_TOOLS = frozenset({"Glob", "Grep", "glob"})

#: Options of a text search that make it print the names of the files alone.
_NAMES_ONLY = frozenset(
    {"--files-with-matches", "--files-without-match", "--files", "--files-without-matches"}
)
_SEARCHES = frozenset({"grep", "egrep", "fgrep", "rg", "ag"})
_FINDERS = frozenset({"find", "fd", "fdfind"})
#: `find` actions that print something other than the path, or change files.
_FIND_ACTIONS = frozenset(
    {"-exec", "-execdir", "-ok", "-okdir", "-printf", "-fprintf", "-ls", "-fls", "-delete"}
    | {"-print0", "-fprint", "-fprint0"}
)
#: Steps that print no path of their own (`pwd` prints the absolute folder, never counted).
_SEPARATORS = frozenset({"echo", "printf", "pwd"})
#: Programs a list may be piped through and still print its own lines.
_CUTS = frozenset({"head", "tail", "sort", "uniq"} | _SEARCHES)
#: Options that make a search print something other than the lines it keeps.
_NOT_FILTERS = frozenset({"-c", "-o", "--count", "--only-matching"})
#: Shell words that end a pipe stage.
_CONTROL = frozenset({"|", "||", "&&", ";", "&", "(", ")", ";;", "|&"})
_MOVES = frozenset({"cd", "pushd"})
#: Git subcommands that hold nothing but this repository's own text.
_GIT_ELSEWHERE = frozenset({"-C", "--git-dir", "--work-tree"})
#: One relative path on a line of its own.
_PATH_LINE = re.compile(r"^(?:\./)?(?P<path>[\w@+][\w@+.-]*(?:/[\w@+.-]+)*)$")


def _names_only(tokens: list[str]) -> bool:
    """Whether a search command prints file names alone (`grep -rli`, `rg --files`)."""
    for token in tokens[1:]:
        if token in _NAMES_ONLY:
            return True
        if token.startswith("-") and not token.startswith("--") and ("l" in token or "L" in token):
            return True
    return False


def _lists(tokens: list[str]) -> bool:
    """Whether one simple command prints a list of paths and nothing else."""
    name = tokens[0]
    if name in _SEARCHES:
        return _names_only(tokens)
    if name in _FINDERS:
        return not any(token in _FIND_ACTIONS for token in tokens)
    return False


def only_cut(command: str) -> bool:
    """Whether every pipe of `command` only cuts, sorts or filters what comes before it (a
    `grep` that prints counts or parts of lines is no filter); quotes are respected
    (`grep -E 'a|b'` pipes nothing)."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    try:
        words = list(lexer)
    except ValueError:
        return False
    for i, word in enumerate(words):
        if word != "|":
            continue
        stage = list(itertools.takewhile(lambda w: w not in _CONTROL, words[i + 1 :]))
        tokens = core_tokens(shlex.join(stage)) if stage else []
        if not tokens or tokens[0] not in _CUTS:
            return False
        if tokens[0] in _SEARCHES and any(t in _NOT_FILTERS for t in tokens[1:]):
            return False
    return True


def _folder_listed(run: CommandRun, project_id: str) -> str | None:
    """The project folder the listings of `run`'s line print paths from, or None when the line
    lists nothing, does something else too, pipes the list into something that prints other
    lines, or works outside the project."""
    if ran_elsewhere(run.command, project_id) or not only_cut(run.command):
        return None
    folder = folder_of(run.cwd, project_id)
    listed: set[str] = set()
    for tokens in run.segments:
        if folder is None:
            return None
        if tokens[0] in _MOVES:
            folder = moved_to(folder, tokens, project_id)
        elif _lists(tokens):
            listed.add(folder)
        elif tokens[0] == "git" and not any(
            t in _GIT_ELSEWHERE or t.startswith(("--git-dir=", "--work-tree=")) for t in tokens
        ):
            continue
        elif tokens[0] not in _SEPARATORS:
            return None
    if folder is None or len(listed) != 1:
        return None
    return listed.pop()


def searched_paths(runs: list[CommandRun], project_id: str) -> list[tuple[str, str]]:
    """(project-relative path, event id) for every file a search or listing command printed in
    the project (module docstring); a failed command gives none."""
    found: list[tuple[str, str]] = []
    for run in runs:
        if run.ok is not True:
            continue
        folder = _folder_listed(run, project_id)
        if folder is None:
            continue
        for line in run.output.splitlines():
            match = _PATH_LINE.match(line.rstrip())
            if match is None:
                continue
            printed = match.group("path")
            path = posixpath.normpath(posixpath.join(folder, printed)) if folder else printed
            if not path.startswith(("..", "/", "~")):
                found.append((path, run.event_id))
    return found


def tool_outputs(
    events: list[StoredEvent], tools: Collection[str]
) -> Iterator[tuple[StoredEvent, str]]:
    """(event, output) for every successful result of one of `tools` whose output is text and
    that looked inside the project (`looked_outside`)."""
    for event in events:
        output = event.content.get("output")
        if (
            event.event_type == EventType.TOOL_RESULT
            and event.content.get("tool") in tools
            and not event.content.get("is_error")
            and isinstance(output, str)
            and not looked_outside(event)
        ):
            yield event, output


def tool_listed_paths(events: list[StoredEvent]) -> list[tuple[str, str]]:
    """(project-relative path, event id) for every file of the project a search tool's
    successful result listed (module docstring)."""
    found: list[tuple[str, str]] = []
    for event, output in tool_outputs(events, LISTING_TOOLS):
        for line in output.splitlines():
            match = _PATH_LINE.match(relative_path(line.strip(), event.project_id))
            if match is not None and not match.group("path").startswith(".."):
                found.append((match.group("path"), event.id))
    return found
