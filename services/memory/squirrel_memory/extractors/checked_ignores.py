"""What git ignores in the project, as `git check-ignore -v` showed it, kept as a project fact.

An assistant that finds folders it does not know (`build/`, `projects/`, `sync/`) asks git
whether they are the project's: `git check-ignore -v build projects` answers with the ignore
file, its line and the pattern for each path git leaves out (`.gitignore:4:/build/<TAB>build`).
That holds in every ecosystem, and a later session needs it before it searches, writes or
commits there. Each ignore file the answer cites becomes one fact: "`.gitignore` ignores
`build` (line 4: `/build/`) and `projects` (line 5: `/projects/`), as `git check-ignore -v`
showed." Only the answer's own lines are read (other commands of a compound line print other
things), and none is kept for a pattern that un-ignores (`!keep/`), a non-matching line
(`::<TAB>path`, from `-n`), an exclude file outside the repository or local to one clone
(`~/.config/git/ignore`, `.git/info/exclude`), a failed run, a run in another folder or
repository (`cd`, `git -C`), or a run whose shell was not at the project's root (its
folder, or a `cd` earlier in the line into a sub-folder or a repository nested there).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_memory.extractors.activity import CommandRun, commands
from squirrel_memory.extractors.elsewhere import moved_from_root, ran_elsewhere
from squirrel_memory.models import StoredEvent

KEY_PREFIX = "ignored:checked:"
#: As what the session's edits made git ignore.
IMPORTANCE = 0.4
MAX_PATHS = 6

#: One `git check-ignore -v` line: source, line number, pattern, a tab, the path.
_VERBOSE_LINE = re.compile(
    r"^(?P<source>[^\s:][^:\t]*):(?P<line>\d+):(?P<pattern>[^\t]+)\t(?P<path>\S.*)$"
)


@dataclass(frozen=True, slots=True)
class CheckedIgnores:
    """What one ignore file leaves out, as checked: key, statement, run, file."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    path: str


def _checks_verbosely(run: CommandRun) -> bool:
    return any(
        tokens[:2] == ["git", "check-ignore"] and ("-v" in tokens or "--verbose" in tokens)
        for tokens in run.segments
    )


def _shared_source(source: str) -> bool:
    """An ignore file of the repository itself (not a global or clone-local exclude file)."""
    return not source.startswith(("/", "~", "..")) and ".git/" not in source


def checked_ignores(events: list[StoredEvent]) -> list[CheckedIgnores]:
    """The ignore files `git check-ignore -v` runs at the project's root in `events` cited, one
    finding per file (the latest run's answer for a path wins)."""
    if not events:
        return []
    root = events[0].project_id.rstrip("/")
    cited: dict[str, dict[str, tuple[int, str]]] = {}
    runs: dict[str, list[str]] = {}
    for run in commands(events):
        if run.ok is False or not _checks_verbosely(run):
            continue
        if (run.cwd or root).rstrip("/") != root or ran_elsewhere(run.command, root):
            continue
        if moved_from_root(run.segments, root):
            continue  # a nested repository's ignore file reads as the root's; paths are not
        for line in run.output.splitlines():
            match = _VERBOSE_LINE.match(line.rstrip())
            if match is None:
                continue
            source, pattern = match.group("source"), match.group("pattern").strip()
            if pattern.startswith("!") or not _shared_source(source):
                continue
            path = match.group("path").strip().strip('"')
            cited.setdefault(source, {})[path] = (int(match.group("line")), pattern)
            runs.setdefault(source, [])
            if run.event_id not in runs[source]:
                runs[source].append(run.event_id)
    found: list[CheckedIgnores] = []
    for source, paths in cited.items():
        ordered = sorted(paths.items(), key=lambda item: (item[1][0], item[0]))[:MAX_PATHS]
        shown = [f"`{path}` (line {line}: `{pattern}`)" for path, (line, pattern) in ordered]
        listed = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
        content = f"`{source}` ignores {listed}, as `git check-ignore -v` showed."
        found.append(CheckedIgnores(KEY_PREFIX + source, content, tuple(runs[source]), source))
    return found
