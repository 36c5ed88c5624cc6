"""A dependency manifest the repository root does not have, as a failed read of it showed.

An assistant new to a repository reads the manifest its ecosystem puts at the root (`cat
composer.json`, `head package.json`, `cat Cargo.toml`); in a monorepo of packages, or where
the code lives in a sub-folder, the shell answers "No such file or directory", and every new
session pays that step again. When a command run at the project's root (alone or in a
compound line) reads a manifest by its bare name and the reader's own error line says the
file is not there (`cat: composer.json: No such file or directory`), that is one pitfall per
manifest: "There is no `composer.json` at the repository root (`cat composer.json`: No such
file or directory)." Nothing is kept for a path inside a folder (`web/package.json`), a file
that is no dependency manifest, a run in a sub-folder or in another repository, an error line
another program printed about another file, or a manifest the session later wrote, edited or
read at the root.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_memory.extractors.activity import commands, relative_path
from squirrel_memory.extractors.elsewhere import moved_from_root, ran_elsewhere
from squirrel_memory.extractors.manifests import is_manifest
from squirrel_memory.models import StoredEvent

KEY_PREFIX = "pitfall:no-root-manifest:"
#: A step lost, not a failure of the work: below a failure's lesson.
IMPORTANCE = 0.4

#: Programs that read a file named on their command line.
_READERS = frozenset({"cat", "head", "tail", "less", "more", "bat", "wc", "jq", "type"})
#: A reader's own error line: `cat: composer.json: No such file or directory`.
_MISSING = re.compile(
    r"^(?P<program>[\w.-]+): (?:cannot open )?'?(?P<path>[^\s:']+)'?(?: \(No such file or "
    r"directory\)|: No such file or directory)\s*$"
)


@dataclass(frozen=True, slots=True)
class MissingManifest:
    """A manifest the root lacks: key, statement, the run that showed it, the file name."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    path: str


def _named_later(events: list[StoredEvent], start: int, name: str) -> bool:
    """Whether an event after `start` names the root file `name` (written, edited, read)."""
    return any(
        relative_path(raw, event.project_id) == name
        for event in events[start + 1 :]
        for raw in event.file_paths
    )


def missing_manifests(events: list[StoredEvent]) -> list[MissingManifest]:
    """The manifests reads at the project's root in `events` found missing, one per name."""
    if not events:
        return []
    root = events[0].project_id.rstrip("/")
    position = {e.id: i for i, e in enumerate(events)}
    found: dict[str, MissingManifest] = {}
    for run in commands(events):
        if (run.cwd or root).rstrip("/") != root or ran_elsewhere(run.command, root):
            continue
        if moved_from_root(run.segments, root):
            continue
        read = {
            (tokens[0], token)
            for tokens in run.segments
            if tokens[0] in _READERS
            for token in tokens[1:]
            if not token.startswith("-")
        }
        for line in run.output.splitlines():
            match = _MISSING.match(line.strip())
            if match is None:
                continue
            program, name = match.group("program"), match.group("path")
            if "/" in name or (program, name) not in read or not is_manifest(name):
                continue
            if name in found or _named_later(events, position.get(run.event_id, 0), name):
                continue
            content = (
                f"There is no `{name}` at the repository root (`{program} {name}`: No such "
                "file or directory)."
            )
            found[name] = MissingManifest(KEY_PREFIX + name, content, (run.event_id,), name)
    return list(found.values())
