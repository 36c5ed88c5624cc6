"""The paths a session read or touched, and the project path a code span of a reply names.

A statement of where code lives is trusted only about a path the session saw: one it read or
touched (files and their folders), one a listing, a search or a command such as `cat` printed
(`shown`), or one that exists in the repository. A code span names such a path written from
the root, from a folder inside the project (`plugins/Routing.kt`: the one path seen ending so),
as a file name (the one file seen by that name) or as a dotted module (`MyApp.Router`: the one
path whose parts end so). A path in a dependency, environment, build or test-data folder is
never the project's layout (`excluded`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from squirrel_core.side_folders import TEST_DATA_DIRS
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.file_reads import read_output
from squirrel_memory.models import StoredEvent

#: Folders whose paths are never the project's layout: dependencies, environments, build
#: output and test data.
EXCLUDED_DIRS = frozenset(
    {"node_modules", "deps", "vendor", "third_party", "site-packages", ".venv", "venv"}
    | {".git", "_build", "build", "dist", "target", ".next", "__pycache__", ".cache"}
    | TEST_DATA_DIRS
    | {"snapshots", "golden", "goldens"}
)
#: A line reference after a path: `:12`, `:12-40`, `:12:5`, `#L12-L40`.
LINE_SUFFIX = re.compile(r"(?::\d+(?:[:-]\d+)*|#L\d+(?:-L?\d+)?)$")
_PATHLIKE = re.compile(r"^[\w@.~/+-]+$")
_DOTTED = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")
#: A name that ends in a file's suffix (`.md`, `.go`, `.tsx`).
FILE_SUFFIX = re.compile(r"\.[A-Za-z][\w]{0,9}$")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_NUMBERED = re.compile(r"^\s*(\d+)(?:→|\t)(.*)$")


@dataclass(slots=True)
class SeenPaths:
    """The paths a session read or touched (files and their folders) and what it read."""

    files: dict[str, list[str]]  # path -> ids of the events naming it
    folders: set[str]
    texts: dict[str, str]  # path -> numbered text of a Read of it
    exists: Callable[[str], bool]

    def resolve(self, span: str) -> str | None:
        """The project path a code span names, or None when it names nothing seen."""
        text = LINE_SUFFIX.sub("", span.strip()).removeprefix("./")
        raw = text.rstrip("/")
        if not raw or not _PATHLIKE.match(raw) or ".." in raw.split("/"):
            return None
        if "/" in text:
            return self._path(raw)
        named = self._file_name(raw) if FILE_SUFFIX.search(raw) else None
        return named or (self._module(raw) if _DOTTED.match(raw) else None)

    def _path(self, raw: str) -> str | None:
        rel = raw.lstrip("/") if raw.startswith("/") else raw
        if raw.startswith("~"):
            rel = raw.split("/", 1)[-1]
        if self._known(rel):
            return rel
        # An absolute path under the session's root: the longest known tail.
        parts = rel.split("/")
        for cut in range(1, len(parts) - 1):
            tail = "/".join(parts[cut:])
            if (tail in self.files or tail in self.folders) and (
                "/" in tail or FILE_SUFFIX.search(tail)
            ):
                return tail
        if raw.startswith(("/", "~")):
            return None
        # A path written from a folder inside the project (`plugins/Routing.kt` for
        # `src/main/kotlin/app/plugins/Routing.kt`): the one file or folder seen ending so.
        ends = [p for p in [*self.files, *self.folders] if p.endswith("/" + rel)]
        return ends[0] if len(ends) == 1 else None

    def _known(self, rel: str) -> bool:
        if rel in self.files or rel in self.folders:
            return True
        return not rel.startswith(("/", "~")) and self.exists(rel)

    def _file_name(self, name: str) -> str | None:
        found = [p for p in self.files if PurePosixPath(p).name == name]
        return found[0] if len(found) == 1 else None

    def _module(self, dotted: str) -> str | None:
        """`MyApp.Router`, `app.plugins.registry`, `com.acme.Billing`: the one file or folder
        seen whose path ends with the module's parts."""
        want = [_CAMEL.sub("_", p).lower().replace("_", "") for p in dotted.split(".")]
        found: list[str] = []
        for path in [*self.files, *self.folders]:
            pure = PurePosixPath(path)
            parts = [*pure.parent.parts, pure.stem] if pure.suffix else list(pure.parts)
            got = [p.lower().replace("_", "").replace("-", "") for p in parts]
            if len(got) >= len(want) and got[-len(want) :] == want:
                found.append(path)
        return found[0] if len(found) == 1 else None

    def line_of(self, path: str, symbols: list[str]) -> str | None:
        """`path:line` of the first symbol of `symbols` in the read text of `path`."""
        text = self.texts.get(path)
        if not text:
            return None
        for symbol in symbols:
            word = re.compile(rf"(?<![\w.]){re.escape(symbol)}\b")
            for line in text.splitlines():
                numbered = _NUMBERED.match(line)
                if numbered and word.search(numbered.group(2)):
                    return f"{path}:{numbered.group(1)}"
        return None


def excluded(path: str) -> bool:
    """Whether `path` is in a dependency, environment, build or test-data folder."""
    return any(part in EXCLUDED_DIRS for part in PurePosixPath(path).parts)


def seen_paths(events: list[StoredEvent], shown: Collection[str] = ()) -> SeenPaths:
    """The files and folders `events` read or touched, what they read, and a test of what
    exists in the repository (or is among the paths the session was `shown`)."""
    files: dict[str, list[str]] = {}
    texts: dict[str, str] = {}
    for event in events:
        for raw in event.file_paths:
            rel = relative_path(raw, event.project_id) if raw else ""
            if not rel or rel.startswith(("/", "~")) or ".." in rel.split("/"):
                continue
            files.setdefault(rel, []).append(event.id)
            output = read_output(event)
            if output is not None:
                texts.setdefault(rel, output)
    folders = {str(parent) for path in files for parent in PurePosixPath(path).parents}
    folders.discard(".")
    root = Path(events[0].project_id) if events else None

    def exists(rel: str) -> bool:
        if rel.rstrip("/") in shown:
            return True
        if root is None or not root.is_absolute():
            return False
        try:
            return (root / rel).exists()
        except OSError:
            return False

    return SeenPaths(files, folders, texts, exists)


__all__ = ["EXCLUDED_DIRS", "LINE_SUFFIX", "SeenPaths", "excluded", "seen_paths"]
