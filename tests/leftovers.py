"""A guard on every test: it may not leave tasks, threads, child processes or gRPC channels behind.

A grpc.aio call still running when pytest-asyncio closes a test's event loop is cancelled during
the loop's teardown, after its channel is gone, and that can crash the interpreter. So every
coroutine test ends with its loop quiet: each task it started is finished (a short grace is
given for tasks already winding down, such as a cancelled call's own `_invoke` task), and every
channel opened through `squirrel_core.clients.open_channel` is closed. Every test, coroutine or
not, also leaves no thread and no child process of its own running.

A test that leaves something behind fails at teardown, naming what it left; the task, thread or
process is then cleaned up so that the next test starts clean.
`SQRL_TEST_LEFTOVERS=report` prints instead of failing (to survey a suite).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import inspect
import os
import sys
import threading
import time
import weakref
from collections.abc import AsyncIterator, Iterator
from typing import Any

import grpc
import psutil
import pytest

import squirrel_core.clients as clients

GRACE_SECONDS = 120.0
"""How long what a test started may take to wind down (a child process exiting after its stop,
a cancelled call's task) before it counts as left behind. The wait ends as soon as all is gone,
so only a real leftover waits this long; a loaded machine stretches winding down past 5 s, and
a service stopped while it loads the embedding model (over ten seconds there) exits after the
load: the suite's patience for another process (`PATIENCE_SECONDS`), not less."""
REPORT_ONLY = os.environ.get("SQRL_TEST_LEFTOVERS") == "report"

_channels: weakref.WeakKeyDictionary[grpc.aio.Channel, str] = weakref.WeakKeyDictionary()
_open_channel = clients.open_channel


def _tracked_open_channel(*args: Any, **kwargs: Any) -> grpc.aio.Channel:
    channel = _open_channel(*args, **kwargs)
    _channels[channel] = str(args[0] if args else kwargs.get("target", "?"))
    return channel


def _channel_closed(channel: grpc.aio.Channel) -> bool:
    inner = getattr(channel, "_channel", None)
    closed = getattr(inner, "closed", None)
    return bool(closed()) if callable(closed) else True


def pytest_configure(config: pytest.Config) -> None:
    clients.open_channel = _tracked_open_channel


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection loaded (every module, library and test item) lives to the end of the
    run: it is moved out of the collector's sight, so each test's full collection below walks
    only what came after (a full walk of the imported libraries took 0.1-0.5 s a test)."""
    gc.collect()
    gc.freeze()


LIBRARY_THREADS = ("(_poll_wrapper)",)
"""Threads a library keeps for the process, not for a test: grpc.aio's poller, which lives while
any channel or server object of the process does (leaked channels are checked apart)."""
SELF_ENDING_THREADS = {"minilm-loader": 180.0}
"""Threads that end by themselves but cannot be stopped early, with how long they may take: the
embedding model's loader (seconds on an idle machine, over ten on a loaded one). A test that
stops its service mid-load waits for it (no CPU left to the next test); one that outlives the
bound is still reported."""
LIBRARY_TASKS = ("_shutdown_watcher",)
"""Tasks a library keeps for the life of an event loop, not for a test: sse-starlette's watch for
a server shutdown (one per loop, ended when the loop closes)."""

_long_lived_threads: weakref.WeakSet[threading.Thread] = weakref.WeakSet()
_long_lived_children: set[int] = set()


@pytest.hookimpl(wrapper=True)
def pytest_fixture_setup(fixturedef: pytest.FixtureDef[Any]) -> Iterator[Any]:
    """What a module- or session-scoped fixture starts (a server thread, a database process)
    lives past the test that first asks for it, by design: it is not that test's leftover."""
    if fixturedef.scope == "function":
        return (yield)
    threads = set(threading.enumerate())
    children = set(_children())
    try:
        return (yield)
    finally:
        _long_lived_threads.update(t for t in threading.enumerate() if t not in threads)
        _long_lived_children.update(p for p in _children() if p not in children)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        names = getattr(item, "fixturenames", None)
        if names is None:
            continue
        # First, so it is torn down last: after every fixture the test used has closed its parts.
        names.insert(0, "_no_leftover_threads_or_processes")
        function = getattr(item, "function", None)
        if function is not None and inspect.iscoroutinefunction(function):
            names.insert(1, "_no_leftover_tasks_or_channels")


def _leftover(what: str) -> None:
    if REPORT_ONLY:
        print(f"\nLEFTOVER {what}", file=sys.__stderr__)
    else:
        pytest.fail(f"the test left {what} behind", pytrace=False)


def _children() -> dict[int, str]:
    found: dict[int, str] = {}
    for child in psutil.Process().children(recursive=True):
        try:
            if child.status() != psutil.STATUS_ZOMBIE:
                found[child.pid] = " ".join(child.cmdline()[:3])
        except psutil.Error:
            continue
    return found


@pytest.fixture
def _no_leftover_threads_or_processes() -> Iterator[None]:
    threads = set(threading.enumerate())
    children = set(_children())
    yield
    # gRPC's poller thread lives while any channel or server object does: let cycles go first.
    gc.collect()
    deadline = time.monotonic() + GRACE_SECONDS
    new_threads: list[threading.Thread] = []
    new_children: dict[int, str] = {}
    while True:
        new_threads = [
            t
            for t in threading.enumerate()
            if t not in threads
            and t not in _long_lived_threads
            and t.is_alive()
            and not t.name.endswith(LIBRARY_THREADS)
        ]
        new_children = {
            p: c for p, c in _children().items() if p not in children | _long_lived_children
        }
        if (not new_threads and not new_children) or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    for thread in [t for t in new_threads if t.name in SELF_ENDING_THREADS]:
        thread.join(timeout=SELF_ENDING_THREADS[thread.name])
    new_threads = [t for t in new_threads if t.is_alive()]
    for pid in new_children:
        with contextlib.suppress(psutil.Error):
            psutil.Process(pid).kill()
    if new_threads:
        _leftover("threads: " + ", ".join(sorted(t.name for t in new_threads)))
    if new_children:
        _leftover("processes: " + ", ".join(f"{p} ({c})" for p, c in new_children.items()))


@pytest.fixture
async def _no_leftover_tasks_or_channels() -> AsyncIterator[None]:
    before = set(asyncio.all_tasks())
    channels = set(_channels.keys())
    yield
    current = asyncio.current_task()
    pending = {
        t
        for t in asyncio.all_tasks()
        if t is not current
        and t not in before
        and getattr(t.get_coro(), "__qualname__", "") not in LIBRARY_TASKS
    }
    if pending:
        _done, pending = await asyncio.wait(pending, timeout=GRACE_SECONDS)
    names = sorted(_describe(t) for t in pending)
    for task in pending:
        task.cancel()
    if pending:
        await asyncio.wait(pending, timeout=GRACE_SECONDS)
    still_open = [
        target
        for channel, target in list(_channels.items())
        if channel not in channels and not _channel_closed(channel)
    ]
    if names:
        _leftover("tasks: " + ", ".join(names))
    if still_open:
        _leftover("open gRPC channels to " + ", ".join(sorted(still_open)))


def _describe(task: asyncio.Task[Any]) -> str:
    coro = task.get_coro()
    where = getattr(coro, "__qualname__", None) or repr(coro)
    return f"{task.get_name()} ({where})"
