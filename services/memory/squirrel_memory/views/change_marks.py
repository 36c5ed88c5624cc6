"""The home's change mark, rewritten after memories change (`squirrel_core.start_texts`).

The mark only has to differ from the one a kept session-start text recorded. So a change asks
for a rewrite and returns at once: the first is written at once, off the event loop and without
an fsync; changes while it is written, or within `MARK_INTERVAL_SECONDS` after, are marked by
one more rewrite at the end of that interval. The last change is always marked, and `close`
writes one still owed.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Final

import structlog

from squirrel_core.start_texts import mark_changed

log = structlog.get_logger()

MARK_INTERVAL_SECONDS: Final = 0.2
"""Least time between two rewrites of the mark: a processing pass or a batch of remembers
commits many change sets within it."""


class ChangeMarks:
    """Rewrites `<run_dir>/memories-changed` after changes, at most once per interval."""

    def __init__(self, run_dir: Path) -> None:
        self._run_dir = run_dir
        self._owed = False
        self._task: asyncio.Task[None] | None = None
        self.writes = 0
        """Rewrites so far (what a bench counts)."""

    def changed(self) -> None:
        """Memories changed: the mark will be rewritten (never blocks)."""
        self._owed = True
        if self._task is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a tool, a test): write now
            self._write()
            return
        self._task = loop.create_task(self._rewrite())

    async def changed_async(self) -> None:
        self.changed()

    async def _rewrite(self) -> None:
        try:
            while self._owed:
                await asyncio.to_thread(self._write)
                await asyncio.sleep(MARK_INTERVAL_SECONDS)
        finally:
            self._task = None

    def _write(self) -> None:
        self._owed = False
        try:
            mark_changed(self._run_dir, sync=False)
        except OSError as exc:
            log.warning("change_mark_unwritten", error_type=type(exc).__name__)
        else:
            self.writes += 1

    async def close(self) -> None:
        """Stop waiting; write the mark now if a change is still unmarked."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._owed:
            await asyncio.to_thread(self._write)
