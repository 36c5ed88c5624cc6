"""`sqrl ui`: opens the memory browser the gateway serves on 127.0.0.1.

It asks the gateway (with the install's token) for a one-time login code and opens
`http://127.0.0.1:<port>/ui/login?code=…`: the code works once, for two minutes, and turns into
a session cookie, so the token itself never lands in the browser's history.
"""

from __future__ import annotations

import argparse
import json
import urllib.error
import urllib.request
import webbrowser
from typing import Any, Final

from squirrel_cli.console import Console
from squirrel_core.auth import load_token
from squirrel_core.errors import UnavailableError
from squirrel_core.home import HomeLayout
from squirrel_core.service_info import wait_service_info

CODE_TIMEOUT_SECONDS: Final = 10.0
HTTP_START_SECONDS: Final = 10.0
"""How long to wait for the browser's address after the gateway reports SERVING."""
GATEWAY_HTTP_INFO: Final = "gateway-mcp.json"


def add_commands(sub: Any) -> None:
    ui = sub.add_parser("ui", help="open the memory browser (a local web page)")
    ui.add_argument(
        "--no-open", action="store_true", help="print the one-time link instead of opening it"
    )
    ui.add_argument(
        "--json", action="store_true", help='print {"url": …} (the one-time link), do not open it'
    )
    ui.set_defaults(handler=cmd_ui)


def login_link(layout: HomeLayout) -> str:
    """A fresh one-time link to the memory browser; `UnavailableError` when the gateway is down."""
    info = wait_service_info(
        layout.run / GATEWAY_HTTP_INFO,
        writer=layout.service_file("gateway"),
        timeout=HTTP_START_SECONDS,
    )
    if info is None:
        raise UnavailableError("the gateway is not running: start it with `sqrl up`")
    base = f"http://{info.host}:{info.port}"
    request = urllib.request.Request(  # noqa: S310 - a loopback http:// address we recorded
        f"{base}/ui/code",
        method="POST",
        headers={"Authorization": f"Bearer {load_token(layout.token)}"},
    )
    try:
        with urllib.request.urlopen(request, timeout=CODE_TIMEOUT_SECONDS) as reply:  # noqa: S310
            path = str(json.loads(reply.read())["path"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UnavailableError(f"the gateway did not issue a login code ({exc})") from None
    if not path.startswith("/ui/login?code="):
        raise UnavailableError("the gateway answered with an unexpected login path")
    return base + path


def cmd_ui(args: argparse.Namespace, console: Console) -> int:
    link = login_link(HomeLayout(args.settings.home))
    if args.json:
        console.json({"url": link})
        return 0
    if args.no_open or not webbrowser.open(link):
        console.line(f"Open this link within 2 minutes (it works once): {link}")
    else:
        console.line("Opened the memory browser in your web browser.")
    return 0
