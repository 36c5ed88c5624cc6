"""Huge hostile inputs read in one pass, checked without timing them.

A pattern that backtracks takes a time that grows with the square of its input (or worse): on
an input of hundreds of thousands of characters, minutes or hours where one pass takes
milliseconds. A test hands such an input to the code in a child process and asks only that it
finishes; the child's deadline is a backstop against a run that would never end, generous
enough for a loaded machine, and the test never measures how long the call took.
"""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

#: Seconds a child process is given before the call is taken to run on for good.
BACKSTOP_SECONDS = 240.0


def finishes(code: str, *, timeout: float = BACKSTOP_SECONDS) -> str:
    """What `code` (run by this interpreter in a child process) printed; fails the test when
    the child does not finish before the backstop or ends with an error."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired as late:
        said = late.stdout.decode(errors="replace") if isinstance(late.stdout, bytes) else ""
        pytest.fail(f"not finished in {timeout:.0f} s, a pattern backtracks; it printed: {said}")
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def answers(calls: list[tuple[str, str, str, Any]]) -> tuple[list[str], list[str]]:
    """(what each call answered, what it should answer), shown short: each call is (module,
    function, its arguments as Python text, the answer), all made in one child process that
    names each call before making it (`finishes`). A text or a list of texts is shown by its
    first 9 characters, and a list by its first 3 items."""
    lines = ["import importlib"]
    for module, function, arguments, _ in calls:
        lines += [
            f"print('calling {function}', {arguments!r}, flush=True)",
            f"found = importlib.import_module({module!r}).{function}({arguments})",
            "shown = found[:9] if isinstance(found, str) "
            "else found if not isinstance(found, list) else [x[:9] for x in found[:3]]",
            "print(repr(shown), flush=True)",
        ]
    printed = finishes("\n".join(lines)).splitlines()
    return printed[1::2], [repr(answer) for *_, answer in calls]
