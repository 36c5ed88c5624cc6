"""Every top-level module of the memory service, and every module of the rooms that were
top-level modules once (`ROOMS`), imports on its own, in a fresh interpreter.

An import cycle only shows when a module is the first of its cycle to be imported: a test file
that happens to import another module first hides it, and whether it shows then depends on which
tests a worker collects first.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import squirrel_memory

PACKAGE = Path(squirrel_memory.__file__).parent
ROOMS = ("embedding", "housekeeping", "llm", "outcomes", "parking", "team", "user_memories")
MODULES = sorted(
    [f"squirrel_memory.{path.stem}" for path in PACKAGE.glob("*.py") if path.stem != "__main__"]
    + [
        f"squirrel_memory.{room}.{path.stem}"
        for room in ROOMS
        for path in (PACKAGE / room).glob("*.py")
        if path.stem != "__init__"
    ]
)


@pytest.mark.parametrize("module", MODULES)
def test_the_module_imports_first(module: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", f"import {module}"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
