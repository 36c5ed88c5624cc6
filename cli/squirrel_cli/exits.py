"""`sqrl`'s exit codes for an error a command raised, in one place for the full CLI and `quick`."""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable
from typing import Final, TypeVar

from squirrel_core.errors import FailedPreconditionError, InvalidArgumentError, SquirrelError

T = TypeVar("T")

#: A command refused what it was asked (the services down, a project registered nowhere …).
FAILED: Final = 1
#: A bad argument: argparse's usage errors, and the values a command refuses (docs/cli.md).
USAGE_ERROR: Final = 2
#: The reader of stdout left (`sqrl status | head -1`): what a tool SIGPIPE ends exits with.
READER_GONE: Final = 128 + signal.SIGPIPE


def exit_code(exc: SquirrelError) -> int:
    """2 for a value the command refuses (as argparse exits on a usage error), else 1."""
    return USAGE_ERROR if isinstance(exc, InvalidArgumentError) else FAILED


def reader_gone() -> int:
    """stdout's reader closed the pipe: no error to say. stdout is pointed at /dev/null, so the
    interpreter's last flush of it at exit says nothing either."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return READER_GONE


def configured(load: Callable[[], T]) -> T:
    """`load()` (the settings): a value it refuses is in `config.toml` or a `SQRL_*` variable,
    not among the command's arguments, so it exits 1 (FAILED), not 2."""
    try:
        return load()
    except InvalidArgumentError as exc:
        raise FailedPreconditionError(str(exc)) from None
