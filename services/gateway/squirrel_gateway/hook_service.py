"""Answers host hooks: session start, each prompt, turn end and session end, with activity kept.

The `sqrl hook` process is a thin client: it posts the host's JSON here and prints the answer.
This module decides what the answer is (`hook_context`), in which format (`hook_hosts`), tells
ingest when a session is over (directly on `SessionEnd`, or after an idle spell for hosts that
only have a per-turn `Stop`), and records per-host activity in `<home>/run/hooks.json` for
`sqrl status` and `sqrl doctor`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Protocol

import structlog

from squirrel_core.commands import is_test_command
from squirrel_core.errors import InvalidArgumentError, PermissionDeniedError, SquirrelError
from squirrel_core.files import write_private_file
from squirrel_core.hook_activity import HookActivity, activity_path
from squirrel_core.redaction import redact
from squirrel_core.redaction_rules import maintained_detectors
from squirrel_core.settings import Settings
from squirrel_core.start_texts import (
    change_mark,
    forget_start_texts,
    keep_start_text,
    kept_start_text,
    start_folder,
    start_path,
)
from squirrel_core.worktrees import main_checkout
from squirrel_gateway import hook_context, team_away
from squirrel_gateway.backend import MemoryBackend, deadline
from squirrel_gateway.hook_context import NOTHING, Injection
from squirrel_gateway.hook_hosts import (
    IMPORTING_HOSTS,
    LOADED_FILES,
    HookInput,
    Host,
    Moment,
    parse_input,
    render_output,
)
from squirrel_gateway.host_imports import bare_importers, with_imports
from squirrel_gateway.session_served import SessionServed

log = structlog.get_logger()

_SERVER_SHARE: Final = 0.8
"""Part of the client's deadline the server may spend; the rest is process start and transport."""


@dataclass(frozen=True, slots=True)
class HookSettings:
    """The `hooks.*` settings the gateway needs."""

    session_start: bool = True
    prompt: bool = True
    session_end: bool = True
    session_budget: int = 600
    prompt_budget: int = 300
    deadline_ms: int = 1000
    idle_end_seconds: float = 300.0

    @classmethod
    def from_settings(cls, settings: Settings) -> HookSettings:
        return cls(
            session_start=settings.bool_("hooks.session_start"),
            prompt=settings.bool_("hooks.prompt"),
            session_end=settings.bool_("hooks.session_end"),
            session_budget=settings.int_("hooks.session_budget"),
            prompt_budget=settings.int_("hooks.prompt_budget"),
            deadline_ms=settings.int_("hooks.deadline_ms"),
            idle_end_seconds=settings.float_("hooks.idle_end_seconds"),
        )


class SessionEnder(Protocol):
    """Tells ingest that a session is over, so its events are read and processed now."""

    async def end_session(self, hook: HookInput, project_id: str) -> None: ...


Observer = Callable[[HookInput, str, Injection], None]
"""Sees every session-start and per-prompt answer computed for a project (empty ones too),
with the project id and its items, once the answer is ready."""


class HookService:
    """Turns one hook call into the host's answer; never raises for a host's sake.

    `observer`, when given, is told of every session-start and per-prompt injection computed
    (which memories a session was served); it must not raise."""

    def __init__(
        self,
        backend: MemoryBackend,
        settings: HookSettings,
        run_dir: Path,
        ender: SessionEnder | None = None,
        *,
        clock: Callable[[], float] = time.time,
        observer: Observer | None = None,
        keep_starts: bool = False,
    ) -> None:
        """`keep_starts`: keep each session-start answer on disk for `sqrl hook` to print when
        this gateway cannot answer in time (`squirrel_core.start_texts`); only for memories
        this machine's memory service owns, whose changes it marks."""
        self._backend = backend
        self._settings = settings
        self._run_dir = run_dir
        self._keeping = (
            f"{settings.session_start}|{settings.session_budget}" if keep_starts else None
        )
        if keep_starts:
            forget_start_texts(run_dir, unless_settings=self._keeping)
        self._stats_path = activity_path(run_dir)
        self._ender = ender
        self._clock = clock
        self._observer = observer
        self._activity = HookActivity()
        self._idle: dict[str, asyncio.TimerHandle] = {}
        self._served = SessionServed()
        """What each session already has from the hooks: a prompt is not served it again."""
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def activity(self) -> HookActivity:
        return self._activity

    async def answer(self, host: str, event: str, payload: object) -> str:
        """What the host should print for this call ("" for nothing). Raises
        `InvalidArgumentError` only for a call that names no known host or event."""
        hook = parse_input(host, event, payload)
        stats = self._activity.of(hook.host.value)
        stats.calls += 1
        stats.last_call_at = self._clock()
        seconds = self._settings.deadline_ms / 1000 * _SERVER_SHARE
        starting = self._keeping is not None and hook.moment is Moment.SESSION_START
        mark = change_mark(self._run_dir) if starting else None
        try:
            with deadline(seconds), team_away.collecting() as away:
                project_id, injection = await asyncio.wait_for(self._run(hook), seconds)
        except (SquirrelError, TimeoutError) as exc:
            stats.failures += 1
            stats.last_failure = type(exc).__name__
            log.info("hook_failed", host=hook.host.value, hook=event, error_type=type(exc).__name__)
            self._save()
            # A session start this gateway could not answer in time (the memory service still
            # starting, a loaded machine) gets the answer kept for it, while still valid.
            kept = (
                kept_start_text(self._run_dir, host, event, start_folder(self._run_dir, hook.cwd))
                if starting
                else None
            )
            if kept:
                log.info("hook_answered_kept", host=hook.host.value, hook=event)
            return kept or ""
        stats.last_ok_at = self._clock()
        if hook.moment in (Moment.SESSION_START, Moment.PROMPT):
            if injection.empty:
                stats.abstentions += 1
            else:
                stats.injections += 1
                stats.tokens_injected += injection.tokens
                stats.last_injection_at = stats.last_ok_at
            if self._observer is not None and project_id is not None:
                self._observer(hook, project_id, injection)
        log.info(
            "hook_answered",
            host=hook.host.value,
            hook=event,
            items=injection.items,
            tokens=injection.tokens,
        )
        self._save()
        # A hook that abstains stays silent, unless the team was left out: then that line alone
        # (nothing matched in local memory, which may not be all the team knows).
        text = team_away.footer(injection.text, away)
        output = render_output(hook, text)
        if mark is not None and project_id is not None:
            keep = functools.partial(self._keep, host, event, hook, project_id)
            await asyncio.to_thread(keep, mark=mark, output=output)
        return output

    def _keep(
        self, host: str, event: str, hook: HookInput, project_id: str, *, mark: str, output: str
    ) -> None:
        """Keep this session start's answer for `sqrl hook` (an empty one: none kept)."""
        assert self._keeping is not None
        try:
            folder = start_folder(self._run_dir, hook.cwd)
            if not output:
                start_path(self._run_dir, host, event, folder).unlink(missing_ok=True)
                return
            files = [str(Path(project_id) / name) for name in _host_has(hook.host, project_id)]
            keep_start_text(
                self._run_dir,
                host=host,
                event=event,
                folder=folder,
                output=output,
                mark=mark,
                files=files,
                settings_key=self._keeping,
            )
        except OSError as exc:
            log.warning("start_text_unkept", error_type=type(exc).__name__)

    async def _run(self, hook: HookInput) -> tuple[str | None, Injection]:
        project_id = await self._project(hook)
        if project_id is None:
            return None, NOTHING
        return project_id, await self._answer(hook, project_id)

    async def _answer(self, hook: HookInput, project_id: str) -> Injection:
        if hook.moment is Moment.SESSION_START:
            self._cancel_idle(hook.session_id)
            if not self._settings.session_start:
                return NOTHING
            started = await hook_context.session_start(
                self._backend,
                project_id=project_id,
                user_id=None,
                budget=self._settings.session_budget,
                loaded_files=await self._loaded_files(hook, project_id),
            )
            self._served.started(hook.session_id, started)
            return started
        if hook.moment is Moment.PROMPT:
            self._cancel_idle(hook.session_id)
            if not self._settings.prompt:
                return NOTHING
            answer = await hook_context.prompt_context(
                self._backend,
                project_id=project_id,
                prompt=hook.prompt,
                user_id=None,
                budget=self._settings.prompt_budget,
                loaded_files=await self._loaded_files(hook, project_id),
                already=functools.partial(self._served.has, hook.session_id),
            )
            self._served.add(hook.session_id, answer)
            return answer
        if self._settings.session_end and self._ender is not None:
            if hook.moment is Moment.SESSION_END:
                self._cancel_idle(hook.session_id)
                self._spawn(self._end(hook, project_id))
            else:
                self._arm_idle(hook, project_id)
        return NOTHING

    async def _loaded_files(self, hook: HookInput, project_id: str) -> tuple[str, ...]:
        """The instruction files the host loads itself in the project, with those they import
        when the host expands imports (CLAUDE.md's `@AGENTS.md`), and any host's instruction
        file made of imports alone: it says nothing of its own to any host."""
        return await asyncio.to_thread(_host_has, hook.host, project_id)

    async def _project(self, hook: HookInput) -> str | None:
        if not hook.cwd:
            return None
        try:
            return await self._backend.resolve_project(hook.cwd)
        except (PermissionDeniedError, InvalidArgumentError):
            pass
        # A linked worktree of a registered repository (e.g. `../repo-worktrees/branch`).
        main = await asyncio.to_thread(main_checkout, hook.cwd)
        if main is None:
            return None
        try:
            return await self._backend.resolve_project(str(main))
        except (PermissionDeniedError, InvalidArgumentError):
            return None  # not a registered project: nothing to say, nothing to record

    def _arm_idle(self, hook: HookInput, project_id: str) -> None:
        """A turn ended; the session counts as ended once no further turn starts for a while."""
        if not hook.session_id:
            return
        self._cancel_idle(hook.session_id)
        loop = asyncio.get_running_loop()
        self._idle[hook.session_id] = loop.call_later(
            self._settings.idle_end_seconds,
            lambda: self._spawn(self._end(hook, project_id)),
        )

    def _cancel_idle(self, session_id: str) -> None:
        handle = self._idle.pop(session_id, None)
        if handle is not None:
            handle.cancel()

    def _spawn(self, work: Awaitable[None]) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _end(self, hook: HookInput, project_id: str) -> None:
        self._idle.pop(hook.session_id, None)
        assert self._ender is not None
        try:
            await self._ender.end_session(hook, project_id)
        except SquirrelError as exc:
            log.info("session_end_failed", host=hook.host.value, error_type=type(exc).__name__)
            return
        self._activity.of(hook.host.value).sessions_ended += 1
        log.info("session_ended", host=hook.host.value)
        self._save()

    def _save(self) -> None:
        try:
            write_private_file(self._stats_path, self._activity.to_json())
        except OSError as exc:
            log.warning("hook_activity_unsaved", error_type=type(exc).__name__)

    async def close(self) -> None:
        for handle in self._idle.values():
            handle.cancel()
        self._idle.clear()
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def warm_up() -> None:
    """Does once, before the endpoint answers hooks, the work a process's first answer would
    otherwise do on the event loop, holding up every call meanwhile: loading redaction's secret
    detectors (0.67 s at a 1-minute load of 20 on 2 cores, a session start's whole share of its
    deadline) and compiling the command patterns."""
    maintained_detectors()
    redact("Warm up: password = hunter2, then `pytest -q`.")
    is_test_command("pytest -q")


def _host_has(host: Host, project_id: str) -> tuple[str, ...]:
    files = LOADED_FILES[host]
    if host in IMPORTING_HOSTS:
        files = with_imports(project_id, files)
    importers = [name for h in IMPORTING_HOSTS for name in LOADED_FILES[h]]
    bare = bare_importers(project_id, sorted(set(importers) - set(files)))
    return (*files, *bare)
