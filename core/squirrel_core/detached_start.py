"""Starting Squirrel's services from a process a host runs (its MCP server), without waiting.

A host that finds the services down (`sqrl mcp`, the gateway's stdio server) starts them with
`sqrl up --detach` and carries on: the start runs in a session of its own, so a host that ends
its MCP server by signalling the server's process group does not end the start with it.
"""

from __future__ import annotations

import subprocess
import sys


def start_services_detached() -> subprocess.Popen[bytes]:
    """`sqrl up --detach` with this interpreter, its output on our stderr (never stdout), in a
    session of its own: a host that ends its MCP server by signalling the server's process group
    (Codex `exec` does, less than a second after it started) must not take the start with it."""
    return subprocess.Popen(
        [sys.executable, "-m", "squirrel_cli", "up", "--detach"],
        stdin=subprocess.DEVNULL,
        stdout=sys.stderr.fileno(),
        stderr=sys.stderr.fileno(),
        start_new_session=True,
    )
