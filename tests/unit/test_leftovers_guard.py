"""The leftover guard (tests/leftovers.py) fails a test that leaves a thread or a task behind,
and not one whose module-scoped fixture keeps a thread by design."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]

INNER = """
import asyncio
import threading

import pytest

stop = threading.Event()


@pytest.fixture(scope="module")
def server():
    thread = threading.Thread(target=stop.wait, name="module-server", daemon=True)
    thread.start()
    yield thread
    stop.set()


def test_leaves_a_thread():
    threading.Thread(target=stop.wait, name="forgotten", daemon=True).start()


async def test_leaves_a_task():
    asyncio.get_running_loop().create_task(asyncio.sleep(3600), name="forgotten-task")


def test_uses_a_module_server(server):
    assert server.is_alive()


def test_clean():
    pass
"""


def test_the_guard_names_what_a_test_left_behind(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tests.leftovers.GRACE_SECONDS", 0.2)
    pytester.makepyfile(test_inner=INNER)
    result = pytester.runpytest_inprocess(
        "-p",
        "tests.leftovers",
        "-p",
        "no:cacheprovider",
        "-o",
        "asyncio_mode=auto",
        "-o",
        "asyncio_default_fixture_loop_scope=function",
    )
    result.assert_outcomes(passed=4, errors=2)
    # Each on its own: the inner run's order is not this file's (a plugin may shuffle it).
    result.stdout.fnmatch_lines(["*the test left threads: forgotten*"])
    result.stdout.fnmatch_lines(["*the test left tasks: forgotten-task*"])


SELF_ENDING = """
import threading
import time


def test_stops_its_service_while_the_model_loads():
    threading.Thread(target=time.sleep, args=(1.0,), name="minilm-loader", daemon=True).start()


def test_a_loader_that_never_ends_is_still_named():
    threading.Thread(target=time.sleep, args=(4.0,), name="minilm-loader", daemon=True).start()
"""


def test_a_self_ending_thread_is_waited_for_up_to_its_bound(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The grace (0.2 s) ends long before the loader (1 s): the guard waits for it instead of
    # failing the test, but names one that outlives its bound (2 s; that one ends at 4 s).
    monkeypatch.setattr("tests.leftovers.GRACE_SECONDS", 0.2)
    monkeypatch.setattr("tests.leftovers.SELF_ENDING_THREADS", {"minilm-loader": 2.0})
    pytester.makepyfile(test_self_ending=SELF_ENDING)
    result = pytester.runpytest_inprocess("-p", "tests.leftovers", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines(["*the test left threads: minilm-loader*"])


GARBAGE = """
import gc
import threading
import weakref

import pytest


@pytest.fixture(scope="module", autouse=True)
def no_automatic_collection():
    gc.disable()  # only the guard's own collection may free what the test made
    yield
    gc.enable()


def test_what_collection_loaded_is_frozen():
    assert gc.get_freeze_count() > 0


def test_a_thread_that_ends_with_its_owner_is_not_left_behind():
    class Owner:
        pass

    owner = Owner()
    owner.itself = owner  # a cycle: only a collection frees it
    done = threading.Event()
    weakref.finalize(owner, done.set)
    threading.Thread(target=done.wait, name="owned", daemon=True).start()
"""


def test_the_guard_still_collects_what_each_test_made(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What collection loaded is frozen (the guard's collection after each test would walk every
    # imported library); what a test made is still collected before its leftovers are counted.
    monkeypatch.setattr("tests.leftovers.GRACE_SECONDS", 0.2)
    pytester.makepyfile(test_garbage=GARBAGE)
    result = pytester.runpytest_inprocess("-p", "tests.leftovers", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)
