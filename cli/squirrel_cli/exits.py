"""`sqrl`'s exit codes for an error a command raised, in one place for the full CLI and `quick`."""

from __future__ import annotations

from typing import Final

from squirrel_core.errors import InvalidArgumentError, SquirrelError

#: A command refused what it was asked (the services down, a project registered nowhere …).
FAILED: Final = 1
#: A bad argument: argparse's usage errors, and the values a command refuses (docs/cli.md).
USAGE_ERROR: Final = 2


def exit_code(exc: SquirrelError) -> int:
    """2 for a value the command refuses (as argparse exits on a usage error), else 1."""
    return USAGE_ERROR if isinstance(exc, InvalidArgumentError) else FAILED
