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
    result.stdout.fnmatch_lines(
        [
            "*the test left threads: forgotten*",
            "*the test left tasks: forgotten-task*",
        ]
    )
