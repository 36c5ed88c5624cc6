"""Service processes start without the console extras structlog would load, and still log."""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = """
import sys
from squirrel_core.imports import keep_out_console_extras
keep_out_console_extras()
import structlog
from squirrel_core.logs import configure_logging
configure_logging("probe", json=True)
try:
    raise ValueError("boom")
except ValueError:
    structlog.get_logger().error("probe_failed", exc_info=True)
print(sorted(m for m in sys.modules if m == "rich" or m.startswith("rich.")
             if sys.modules[m] is not None))
"""


def test_a_service_process_logs_json_tracebacks_without_rich() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "[]"
    line = json.loads(done.stderr.strip().splitlines()[-1])
    assert line["event"] == "probe_failed" and "ValueError: boom" in line["exception"]


def test_the_console_extras_can_be_let_in_again_after_start() -> None:
    probe = (
        "import sys\n"
        "from squirrel_core.imports import allow_console_extras, keep_out_console_extras\n"
        "keep_out_console_extras()\n"
        "try:\n"
        "    import rich\n"
        "except ImportError:\n"
        "    print('kept out')\n"
        "allow_console_extras()\n"
        "import rich.table\n"
        "print('loaded', 'rich.table' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.split("\n")[:2] == ["kept out", "loaded True"]
