"""The `sqrl` console script: `sqrl hook` runs from a tiny client, everything else loads the CLI."""

from __future__ import annotations

import sys


def main() -> int:
    argv = sys.argv[1:]
    if argv[:1] == ["hook"]:
        from squirrel_cli.hook_client import main as hook_main  # noqa: PLC0415 - fast path

        return hook_main(argv[1:])
    from squirrel_cli.main import main as cli_main  # noqa: PLC0415 - only what is needed

    return cli_main(argv)
