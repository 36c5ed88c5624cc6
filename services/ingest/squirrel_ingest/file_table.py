"""The transcript files the ingest engine tracks: where each newly found one resumes (the lowest
position any registered project has for it), rewinding one for newly registered projects, and
the files whose read failed.

A file renamed or moved under the roots while the service runs (watchdog's `moved` event, for
the file or a folder holding it: `renamed`) is the file already read under its old name: when
its new path is tracked, with the old path gone and the same inode, it resumes where the
registered projects left the old one (their floors and the parser's state), and its later
cursors are kept under the new path. Read from its start instead, every event of it would be
sent again (the memory service keeps each once, counting the rest as duplicates). Only a rename
the watcher saw is carried: a new file that merely has the inode of a deleted one (inodes are
reused) is read from its start."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import structlog

from squirrel_core.events import SourceCursor, SourceTool
from squirrel_core.projects import utf8_text
from squirrel_ingest.discovery import read_under, source_of
from squirrel_ingest.floors import resume_point, rewind_point
from squirrel_ingest.outbox import Outbox
from squirrel_ingest.reading import ParserFactory, TrackedFile, new_parser, stat_key
from squirrel_ingest.routing import ProjectRouter
from squirrel_ingest.tail import FilePosition, ResetReason
from squirrel_ingest.tally import Tally

log = structlog.get_logger()


class FileTable:
    """Every transcript file found under the roots, read or ignored, by path."""

    def __init__(
        self,
        roots: Mapping[SourceTool, Sequence[Path]],
        factory: ParserFactory,
        out: Outbox,
        router: ProjectRouter,
        tally: Tally,
    ) -> None:
        self._roots = roots
        self._factory = factory
        self._out = out
        self._router = router
        self._tally = tally
        self.files: dict[Path, TrackedFile] = {}
        self.ignored: set[Path] = set()
        #: New path -> the tracked path it was renamed from, until the new path is tracked.
        self._renamed: dict[Path, Path] = {}

    def _resume(
        self, key: str, inode: int, size: int
    ) -> tuple[FilePosition | None, SourceCursor | None]:
        """Where a newly found file starts: the lowest position of any registered project."""
        lowest, truncated = resume_point(
            self._out.floors, self._router.project_ids, key, inode, size
        )
        if truncated:
            self._tally.resets[ResetReason.TRUNCATED.value] += 1
        if lowest is None:
            return None, None
        return FilePosition(inode=inode, offset=lowest.offset), lowest

    def rewind_for(self, tracked: TrackedFile, projects: Iterable[str]) -> None:
        """Move a file back so newly registered projects get its earlier events."""
        position = tracked.position
        if position is None:
            return  # already reading from the start
        lowest = rewind_point(self._out.floors, projects, tracked.source, tracked.key, position)
        if lowest is None:
            return
        fresh = new_parser(self._factory, tracked.path, tracked.source, lowest)
        if fresh is not None:
            tracked.parser = fresh
        tracked.position = FilePosition(position.inode, lowest.offset) if lowest.offset else None
        tracked.seen = None

    def source_of(self, path: Path) -> SourceTool | None:
        """The source whose root holds `path`, or None outside every root."""
        return source_of(self._roots, path)

    def track(self, path: Path) -> TrackedFile | None:
        """The tracked file at `path`, tracking it now when it is a transcript under a root
        (resumed where the registered projects left it); None for anything else."""
        tracked = self.files.get(path)
        if tracked is not None or path in self.ignored:
            return tracked
        source = self.source_of(path)
        if source is None:
            return None
        read_as = read_under(self._roots[source], path)
        if read_as != path:  # a root reached by another path: read once, under the first
            return self.track(read_as) if read_as is not None else None
        try:
            stat = path.stat()
        except OSError:
            return None
        if not path.is_file():
            return None
        key = str(path)
        if not utf8_text(key):  # its events could not name it on the wire, and would block the rest
            self._tally.skipped[source]["path_not_utf8"] += 1
            self.ignored.add(path)
            log.warning("source_file_name_not_utf8", source=source.value)
            return None
        position, state_from = self._resume(key, stat.st_ino, stat.st_size)
        renamed = self._renamed_from(path, source, stat.st_ino)
        if renamed is not None and position is None:
            position, state_from = self._resume(renamed.key, stat.st_ino, stat.st_size)
        parser = new_parser(self._factory, path, source, state_from)
        if parser is None:
            self.ignored.add(path)
            return None
        tracked = TrackedFile(path=path, key=key, source=source, parser=parser, position=position)
        self.files[path] = tracked
        if renamed is not None and position is not None:
            del self.files[renamed.path]
            log.info("source_file_renamed", source=source.value, offset=position.offset)
        return tracked

    def renamed(self, moves: Mapping[Path, Path]) -> None:
        """Note the watcher's renames (old path -> new, a folder's for every tracked file in it)
        for `track` to resume each new path where its old one was left, when the paths changed
        with them are read next; those of earlier batches, read already, are dropped."""
        self._renamed = {}
        for old, new in moves.items():
            for path in self.files:
                if path == old:
                    self._renamed[new] = path
                elif path.is_relative_to(old):
                    self._renamed[new / path.relative_to(old)] = path

    def _renamed_from(self, path: Path, source: SourceTool, inode: int) -> TrackedFile | None:
        """The tracked file `path` was renamed from: same source and inode, old path gone."""
        old = self._renamed.pop(path, None)
        tracked = self.files.get(old) if old is not None and old != path else None
        if tracked is None or tracked.source is not source or os.path.lexists(tracked.path):
            return None
        at = tracked.position
        return tracked if at is not None and at.inode == inode else None

    def failed(self, path: Path, tracked: TrackedFile | None, error: Exception) -> None:
        """A file whose read failed: counted, and retried once it changes (one never tracked:
        ignored from now on)."""
        source = tracked.source if tracked else self.source_of(path)
        if source is not None:
            self._tally.skipped[source]["read_error"] += 1
        if tracked is not None:
            tracked.seen = stat_key(tracked.path)  # retried once the file changes
        else:
            self.ignored.add(path)
        log.warning(
            "source_file_failed",
            source=source.value if source else None,
            error_type=type(error).__name__,
        )
