"""`python -m squirrel_cli.supervise`: the supervisor `sqrl up --detach` leaves running.

The same as `sqrl up` in the foreground without the command line around it: `sqrl up --detach`
has prepared the home already, so this loads the settings and the logging and starts the
services at once (every import here delays all three).
"""

from __future__ import annotations

import asyncio
import os
import sys

from squirrel_core.imports import keep_out_console_extras

keep_out_console_extras()

from squirrel_cli.supervisor import Supervisor  # noqa: E402 - after the line above
from squirrel_core.errors import SquirrelError  # noqa: E402
from squirrel_core.logs import configure_logging  # noqa: E402
from squirrel_core.settings import load_settings  # noqa: E402


def main() -> int:
    try:
        settings = load_settings(os.environ)
        configure_logging("supervisor", settings.str_("general.log_level"))
        return asyncio.run(Supervisor(settings, os.environ).run())
    except SquirrelError as exc:
        sys.stderr.write(f"sqrl up: {exc}\n")
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
