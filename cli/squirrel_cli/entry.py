"""The `sqrl` console script (and `python -m squirrel_cli`): a few commands run from small clients,
everything else loads the CLI.

`sqrl hook` posts to the gateway (`hook_client`); `sqrl mcp` relays stdio to the gateway's MCP
endpoint (`mcp_bridge`); `status`, `search`, `context`, `view` and `memories` read through the
gateway's loopback HTTP routes (`quick`) and fall back to the full CLI when those are not there.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["hook"]:
        from squirrel_cli.hook_client import main as hook_main  # noqa: PLC0415 - fast path

        return hook_main(args[1:])
    if (bad := next((a for a in args if not _is_text(a)), None)) is not None:
        shown = bad.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        sys.stderr.write(
            f"sqrl: error: the argument `{shown[:60]}` is not UTF-8 text, which is all Squirrel"
            " stores and matches; give it in UTF-8\n"
        )
        return 2
    from squirrel_cli.grpc_quiet import quiet_grpc  # noqa: PLC0415 - not for hooks

    quiet_grpc()
    if args[:1] == ["mcp"] and set(args[1:]) <= {"--no-autostart"}:
        from squirrel_cli.mcp_bridge import main as mcp_main  # noqa: PLC0415 - fast path

        return mcp_main(args[1:])
    if args[:1] and args[0] in ("status", "search", "context", "view", "memories"):
        from squirrel_cli.quick import run  # noqa: PLC0415 - fast path

        code = run(args)
        if code is not None:
            return code
    from squirrel_cli.main import main as cli_main  # noqa: PLC0415 - only what is needed

    return cli_main(args)


def _is_text(arg: str) -> bool:
    """Whether `arg` came as UTF-8: bytes that are not arrive as lone surrogates."""
    try:
        arg.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
