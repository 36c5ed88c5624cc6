"""One service process run to its exit (`python -m squirrel_<service>`) with only the settings
a test gives, and the JSON events it wrote to stderr."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.conftest import PATIENCE_SECONDS


def run_to_exit(service: str, home: Path, **settings: str) -> subprocess.CompletedProcess[str]:
    """`squirrel_<service>` with `SQRL_HOME=home` and `settings` (no other `SQRL_` variable)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQRL_")}
    env.update({"SQRL_HOME": str(home), **settings})
    return subprocess.run(
        [sys.executable, "-m", f"squirrel_{service}"],
        env=env,
        capture_output=True,
        text=True,
        timeout=PATIENCE_SECONDS,
        check=False,
    )


def events(stderr: str) -> list[dict[str, Any]]:
    """Every line of `stderr` as a JSON event (a line that is not one, a traceback, fails)."""
    return [json.loads(line) for line in stderr.splitlines()]
