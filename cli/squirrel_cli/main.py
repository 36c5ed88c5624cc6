"""`sqrl`: the command line. Parses arguments, runs one command, prints one clear line on error."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from squirrel_cli import (
    commands_doctor,
    commands_hooks,
    commands_ingest,
    commands_local,
    commands_memory,
    commands_retrieval,
    commands_services,
)
from squirrel_cli.console import Console
from squirrel_core.errors import SquirrelError
from squirrel_core.settings import load_settings

Handler = Callable[[argparse.Namespace, Console], int]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sqrl",
        description="Squirrel: local-first memory for AI coding assistants.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    commands_local.add_commands(sub)
    commands_services.add_commands(sub)
    commands_retrieval.add_commands(sub)
    commands_memory.add_commands(sub)
    commands_ingest.add_commands(sub)
    commands_doctor.add_commands(sub)
    commands_hooks.add_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    console = Console()
    handler: Handler = args.handler
    try:
        args.settings = load_settings(
            os.environ, lenient=bool(getattr(args, "lenient_settings", False))
        )
        return handler(args, console)
    except SquirrelError as exc:
        console.error(str(exc))
        return 1
    except KeyboardInterrupt:
        return 130
    except OSError as exc:
        console.error(f"{exc.strerror or exc}: {exc.filename}" if exc.filename else str(exc))
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
