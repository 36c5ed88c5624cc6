"""The tracked files of a repository at HEAD, read through git, bounded and never written."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import structlog

log = structlog.get_logger()

#: Largest file read (bytes); bigger ones are skipped with a log line.
MAX_FILE_BYTES = 512 * 1024
#: Most tracked files listed; the rest are left out of language shares and reading.
MAX_TRACKED_FILES = 200_000
#: Most files read in one scan.
MAX_FILES_READ = 400
#: How long one git call may take (seconds).
GIT_TIMEOUT_S = 30.0
_GIT_ENV = {
    "GIT_OPTIONAL_LOCKS": "0",  # never take the index lock: nothing is written
    "GIT_TERMINAL_PROMPT": "0",
    "LC_ALL": "C",
}


@dataclass(frozen=True, slots=True)
class TrackedFile:
    """One file at HEAD: its path relative to the project root, size in bytes, blob id."""

    path: str
    size: int
    blob: str


@dataclass(frozen=True, slots=True)
class TextFile:
    """A tracked file's text with its lines (1-based through `line`)."""

    path: str
    text: str
    lines: tuple[str, ...]

    @classmethod
    def of(cls, path: str, text: str) -> TextFile:
        return cls(path, text, tuple(text.splitlines()))

    def ref(self, line: int) -> str:
        """`path:line` for a 1-based line number (the file itself when unknown)."""
        return f"{self.path}:{line}" if line > 0 else self.path

    def line_of(self, needle: str, start: int = 1) -> int:
        """The first 1-based line at or after `start` that contains `needle`, or 0."""
        for number in range(max(start, 1), len(self.lines) + 1):
            if needle in self.lines[number - 1]:
                return number
        return 0

    def ref_of(self, needle: str, start: int = 1) -> str:
        """`path:line` of the first line containing `needle` (the path alone if none)."""
        return self.ref(self.line_of(needle, start))


@dataclass
class Snapshot:
    """Tracked files of one project at one commit, read lazily with caps.

    Every skipped file is logged once (`repository_file_skipped`, with path and reason, never
    content) and remembered in `skipped`; readers just see None.
    """

    root: Path
    head: str
    files: dict[str, TrackedFile]
    skipped: dict[str, str] = field(default_factory=dict)
    _cache: dict[str, TextFile | None] = field(default_factory=dict)
    _reads: int = 0

    def has(self, path: str) -> bool:
        return path in self.files

    def matching(self, predicate: object) -> list[str]:
        """Tracked paths for which `predicate(path)` is true, sorted."""
        assert callable(predicate)
        return sorted(p for p in self.files if predicate(p))

    def read(self, path: str) -> TextFile | None:
        """The file's text, or None (missing, huge, binary, undecodable or over the read cap)."""
        if path in self._cache:
            return self._cache[path]
        found = self._read(path)
        self._cache[path] = found
        return found

    def skip(self, path: str, reason: str, **extra: object) -> None:
        """Record and log once that `path` was not read, and why (never its content)."""
        if path not in self.skipped:
            self.skipped[path] = reason
            log.info("repository_file_skipped", path=path, reason=reason, **extra)

    def _read(self, path: str) -> TextFile | None:
        tracked = self.files.get(path)
        if tracked is None:
            return None
        if tracked.size > MAX_FILE_BYTES:
            self.skip(path, "too_large", size=tracked.size, limit=MAX_FILE_BYTES)
            return None
        if self._reads >= MAX_FILES_READ:
            self.skip(path, "read_cap_reached", limit=MAX_FILES_READ)
            return None
        self._reads += 1
        data = _git_bytes(self.root, "cat-file", "blob", tracked.blob)
        if data is None:
            self.skip(path, "unreadable")
            return None
        if b"\x00" in data[:8192]:
            self.skip(path, "binary")
            return None
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            self.skip(path, "not_utf8")
            return None
        return TextFile.of(path, text.lstrip("\ufeff"))


class NotARepositoryError(Exception):
    """The project folder is not inside a git work tree, or has no commit yet."""


def _git_bytes(root: Path, *args: str) -> bytes | None:
    try:
        done = subprocess.run(
            ["git", "-C", str(root), *args],
            capture_output=True,
            stdin=subprocess.DEVNULL,
            timeout=GIT_TIMEOUT_S,
            env={**os.environ, **_GIT_ENV},
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


def head_of(root: Path) -> str | None:
    """The commit HEAD points at, or None (not a repository, no commits, git missing)."""
    out = _git_bytes(root, "rev-parse", "--verify", "--quiet", "HEAD^{commit}")
    return out.decode("ascii", errors="replace").strip() if out else None


def take_snapshot(root: Path) -> Snapshot:
    """List the files tracked at HEAD under `root` (paths relative to it)."""
    head = head_of(root)
    if head is None:
        raise NotARepositoryError(str(root))
    listing = _git_bytes(root, "ls-tree", "-r", "-l", "-z", "HEAD")
    if listing is None:
        raise NotARepositoryError(str(root))
    files: dict[str, TrackedFile] = {}
    for entry in listing.split(b"\x00"):
        if not entry:
            continue
        meta, _, raw_path = entry.partition(b"\t")
        parts = meta.split()
        if len(parts) != 4 or parts[1] != b"blob":
            continue  # submodules (commit entries) are not read
        if len(files) >= MAX_TRACKED_FILES:
            log.info("repository_listing_capped", limit=MAX_TRACKED_FILES)
            break
        path = raw_path.decode("utf-8", errors="replace")
        size = int(parts[3]) if parts[3].isdigit() else 0
        files[path] = TrackedFile(path, size, parts[2].decode("ascii"))
    return Snapshot(root=root, head=head, files=files)
