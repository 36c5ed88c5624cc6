"""Git history as an ingest source: each registered project's commits past the last delivered
head, redacted and batched, the head travelling with them as the project's git cursor."""

from __future__ import annotations

import structlog

from squirrel_core.events import SourceCursor, SourceTool
from squirrel_ingest.floors import GIT_SHA_KEY, git_head
from squirrel_ingest.git_poller import GitPoller, git_cursor_path
from squirrel_ingest.outbox import Outbox
from squirrel_ingest.reading import redacted
from squirrel_ingest.routing import ProjectRouter
from squirrel_ingest.tally import Tally

log = structlog.get_logger()


class GitIntake:
    """Polls the registered projects' git history and batches the new commits' events."""

    def __init__(self, poller: GitPoller, router: ProjectRouter, out: Outbox, tally: Tally) -> None:
        self._poller = poller
        self._router = router
        self._out = out
        self._tally = tally
        self._heads: dict[str, str] = {}
        """The head last batched per project (ahead of the delivered one until delivery)."""

    async def poll(self) -> None:
        """One pass over the registered projects; a failing project is counted and skipped."""
        for project_id in sorted(self._router.project_ids):
            key = git_cursor_path(project_id)
            since = self._heads.get(project_id) or git_head(self._out.floors, project_id, key)
            try:
                events, head = await self._poller.poll(project_id, since)
            except Exception as error:  # a git parser bug must not stop transcript ingest
                self._tally.skipped[SourceTool.GIT]["git_error"] += 1
                log.warning("git_poll_failed", error_type=type(error).__name__)
                continue
            if head is None or head == since:
                continue
            cleaned, redactions = redacted(events)
            self._tally.per_source[SourceTool.GIT]["redactions"] += redactions
            self._tally.per_source[SourceTool.GIT]["events"] += len(cleaned)
            await self._out.room()
            for event in cleaned:
                self._out.batcher.add(project_id, event)
            self._out.batcher.touch_project(
                project_id,
                SourceCursor(SourceTool.GIT, key, inode=0, offset=0, extra={GIT_SHA_KEY: head}),
            )
            self._heads[project_id] = head
        self._out.flush_wanted.set()
