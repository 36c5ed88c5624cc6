"""What a service process keeps out of its imports: every module loaded delays `sqrl up`."""

from __future__ import annotations

import sys

CONSOLE_EXTRAS = ("rich",)
"""structlog (and the MCP SDK's logging) load rich when it is installed, for coloured console
tracebacks: about 40 ms per process. The services write JSON lines to a log file and never
draw a console."""


def keep_out_console_extras() -> None:
    """Marks the console extras as unavailable (imports of them raise `ImportError`, which
    their users handle) unless something loaded them already. Call before importing structlog."""
    for name in CONSOLE_EXTRAS:
        sys.modules.setdefault(name, None)  # type: ignore[arg-type]


def allow_console_extras() -> None:
    """Lets the console extras load again (after start, when a service has a use for one: the
    gateway draws the CLI's tables with rich, `squirrel_core.terminal`). What was imported before
    keeps the choice it made."""
    for name in CONSOLE_EXTRAS:
        if name in sys.modules and sys.modules[name] is None:
            del sys.modules[name]
