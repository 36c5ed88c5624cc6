"""Commits of registered projects: `git log` since the last ingested commit, parsed elsewhere."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

import structlog

from squirrel_core.events import Event

log = structlog.get_logger()

GitParse = Callable[[str, str], list[Event]]
"""Turns `git log` output for a repository root into commit events (newest first is fine)."""


def git_cursor_path(project_id: str) -> str:
    """The cursor `path` under which a project's last ingested commit is stored."""
    return f"git:{project_id}"


class GitPoller:
    """Runs `git log` in registered projects for commits after the last one ingested.

    The log format and its parsing belong to the git parser: pass its `git log` arguments and
    its parse function. A folder that is not a git repository, or has no commits, yields nothing.
    """

    def __init__(
        self,
        log_args: Sequence[str],
        parse: GitParse,
        *,
        git: str = "git",
        timeout_s: float = 30.0,
        first_import_limit: int = 500,
    ) -> None:
        self._log_args = tuple(log_args)
        self._parse = parse
        self._git = git
        self._timeout_s = timeout_s
        self._first_import_limit = first_import_limit

    async def poll(self, repo_root: str, since_sha: str | None) -> tuple[list[Event], str | None]:
        """Commit events after `since_sha` (oldest first) and the current HEAD sha."""
        head = (await self._run(repo_root, "rev-parse", "--verify", "-q", "HEAD")).strip()
        if not head:
            return [], since_sha
        if head == since_sha:
            return [], head
        revision = ["HEAD", f"--max-count={self._first_import_limit}"]
        if since_sha and await self._is_ancestor(repo_root, since_sha):
            revision = [f"{since_sha}..HEAD"]
        output = await self._run(repo_root, *self._log_args, *revision)
        events = self._parse(output, repo_root)
        events.reverse()  # git log lists newest first
        events.sort(key=lambda event: event.timestamp)
        return events, head

    async def _is_ancestor(self, repo_root: str, sha: str) -> bool:
        code, _ = await self._exec(repo_root, "merge-base", "--is-ancestor", sha, "HEAD")
        return code == 0

    async def _run(self, repo_root: str, *args: str) -> str:
        code, out = await self._exec(repo_root, *args)
        return out if code == 0 else ""

    async def _exec(self, repo_root: str, *args: str) -> tuple[int, str]:
        try:
            process = await asyncio.create_subprocess_exec(
                self._git,
                "-C",
                repo_root,
                *args,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.DEVNULL,
                stdin=asyncio.subprocess.DEVNULL,
            )
        except OSError:  # git is not installed
            return 127, ""
        try:
            out, _ = await asyncio.wait_for(process.communicate(), self._timeout_s)
        except TimeoutError:
            process.kill()
            await process.wait()
            return 124, ""
        return process.returncode or 0, out.decode("utf-8", errors="replace")
