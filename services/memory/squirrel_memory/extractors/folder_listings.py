"""What a folder of the project holds, as an `ls` the session ran listed it.

Finding its way around, a session lists folders: `ls`, `ls -la src/`, `ls -F cmd`. The listing
is where things live, seen rather than guessed, and a later session need not list again. It
becomes a project fact, the same in every ecosystem, when a rule can tell it lists one folder
of this project as it is:

- the command is `ls` alone (flags such as `-l`, `-a`, `-1`, `-F`, `-p`), with at most one
  folder, and nothing else on the line (no pipe, no second command): a filtered, recursive
  (`-R`), sorted-by-time or single-entry (`-d`) listing, or a glob, is not a folder's content;
- it succeeded, and the folder lies inside the project: not outside it, not in a dependency,
  vendored, generated, build or test-data folder (`node_modules/`, `vendor/`, `dist/`,
  `fixtures/`);
- it lists at least two entries (a listing of one file is that file's name); `.`, `..`,
  `.git`, `.DS_Store` and dependency or build folders (`node_modules/`, `.venv/`) are left
  out, a long listing marks folders with `/` (`-F` and `-p` already do), and hidden entries
  come after the others.

A folder listed twice is said as the last listing showed it (the session may have added to
it); an entry the session removed afterwards (an `rm`, `git rm` or `mv` naming it, or a message
saying it was deleted, removed or renamed: "I deleted config.ru") is left out. At most three
folders per episode, each one memory (`layout:<folder>`), so a later listing of the same folder
updates it; entries past the first twelve are counted, not named.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from squirrel_memory.extractors.activity import (
    CommandRun,
    commands,
    core_tokens,
    relative_path,
    split_segments,
)
from squirrel_memory.extractors.manifests import in_project
from squirrel_memory.extractors.stack_evidence import is_test_data
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.languages import is_excluded

#: A weak fact: where things live in one folder, seen once.
IMPORTANCE = 0.35
MAX_FOLDERS = 3
MAX_ENTRIES = 12
MIN_ENTRIES = 2

#: Flags that make a listing something else than a folder's content.
_NOT_CONTENT = frozenset("Rdt")
_HIDDEN = frozenset({".", "..", ".git", ".DS_Store"})
#: `drwxr-xr-x  5 dev staff  160 Feb 20 09:57 name` (the name may hold spaces).
_LONG = re.compile(r"^(?P<kind>[-dlcbps])[-rwxsStT@+.]{9}[@+.]?\s+(?:\S+\s+){7}(?P<name>.+)$")
_TOTAL = re.compile(r"^total \d+")
#: A command line that removes or moves files.
_REMOVES = re.compile(r"(?:^|[;&|(]\s*)(?:git\s+)?(?:rm|mv|unlink|rmdir)\s")
#: Words saying a file was removed ("I deleted config.ru", "`old.js` is removed").
_REMOVAL_WORDS = re.compile(r"\b(?:delet|remov|renam|drop)(?:ed|ing|e)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class FolderListing:
    """One folder's entries as the session last listed them."""

    key: str
    content: str
    folder: str
    event_ids: tuple[str, ...]


def _listed_folder(run: CommandRun, project_id: str) -> tuple[str, str] | None:
    """(folder relative to the root, "" for the root; the command as shown, its flags
    alone) of a plain `ls` of one folder of the project, else None."""
    segments = split_segments(run.command)
    if len(segments) != 1 or "|" in run.command or run.ok is False:
        return None
    tokens = core_tokens(segments[0])
    if not tokens or tokens[0] != "ls":
        return None
    flags = [t for t in tokens[1:] if t.startswith("-")]
    args = [t for t in tokens[1:] if not t.startswith("-")]
    if len(args) > 1 or any(set(f.lstrip("-")) & _NOT_CONTENT for f in flags if f[1:2] != "-"):
        return None
    if any(f.startswith("--") for f in flags) or any(c in "".join(args) for c in "*?[{~$"):
        return None
    root = project_id.rstrip("/")
    cwd = (run.cwd or root).rstrip("/")
    target = posixpath.normpath(posixpath.join(cwd, args[0] if args else "."))
    shown = " ".join(["ls", *flags])
    if target == root:
        return "", shown
    folder = relative_path(target, root)
    if folder == target or not in_project(folder + "/x"):
        return None
    if is_excluded(folder + "/x") or is_test_data(folder + "/x"):
        return None
    return folder, shown


def _entries(output: str) -> list[str]:
    """The names a listing printed, folders marked with `/`."""
    names: list[str] = []
    for raw in output.splitlines():
        line = raw.rstrip()
        if not line.strip() or _TOTAL.match(line):
            continue
        long = _LONG.match(line)
        if long is not None:
            name = long["name"].split(" -> ", 1)[0]
            names.append(name + "/" if long["kind"] == "d" else name)
        elif "  " in line.strip() or line.endswith(":"):
            return []  # columns or a heading: not one name per line
        else:
            names.append(line.strip().rstrip("*@|="))
    kept = [
        n
        for n in names
        if n.rstrip("/") not in _HIDDEN and not (n.endswith("/") and is_excluded(f"{n}x"))
    ]
    return sorted(kept, key=lambda n: n.startswith("."))  # the visible entries first


def _statement(folder: str, names: list[str], command: str) -> str:
    shown = ", ".join(f"`{n}`" for n in names[:MAX_ENTRIES])
    more = len(names) - MAX_ENTRIES
    if more > 0:
        shown += f" and {more} more"
    place = "The project root" if not folder else f"`{folder}/`"
    return f"{place} holds {shown} (as `{command}` listed it)."


def _removed_after(events: list[StoredEvent], runs: list[CommandRun], event_id: str) -> str:
    """Everything said or run after `event_id` that may remove a file: the words of the
    messages and the `rm`, `mv` and `git rm` command lines, one per line."""
    order = {e.id: i for i, e in enumerate(events)}
    start = order.get(event_id, len(events))
    said = [
        text
        for e in events[start + 1 :]
        if isinstance(text := e.content.get("text"), str) and _REMOVAL_WORDS.search(text)
    ]
    ran = [
        r.command for r in runs if order.get(r.event_id, -1) > start and _REMOVES.search(r.command)
    ]
    return "\n".join([*said, *ran])


def _still_there(name: str, removals: str) -> bool:
    """Whether nothing after the listing removed `name` (named after a removal word or in a
    removing command)."""
    bare = re.escape(name.rstrip("/"))
    named = rf"(?<![\w.-]){bare}(?![\w.-])"
    return not any(
        re.search(named, line) and (_REMOVES.search(line) or _REMOVAL_WORDS.search(line))
        for line in removals.splitlines()
    )


def folder_listings(events: list[StoredEvent]) -> list[FolderListing]:
    """What the folders of the project hold, as the episode's `ls` runs listed them."""
    if not events:
        return []
    project_id = events[0].project_id
    last: dict[str, FolderListing] = {}
    runs = commands(events)
    for run in runs:
        listed = _listed_folder(run, project_id)
        if listed is None:
            continue
        folder, command = listed
        removals = _removed_after(events, runs, run.event_id)
        names = [n for n in _entries(run.output) if _still_there(n, removals)]
        if len(names) < MIN_ENTRIES:
            continue
        last.pop(folder, None)  # the latest listing, in the order last listed
        last[folder] = FolderListing(
            f"layout:{folder or '.'}",
            _statement(folder, names, command),
            folder or ".",
            (run.event_id,),
        )
    return list(last.values())[-MAX_FOLDERS:]
