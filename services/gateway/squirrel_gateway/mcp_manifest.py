"""What `sqrl mcp` answers on its own before the gateway serves: `initialize` and the lists.

A host lists a server's tools (and prompts and resources: Claude Code waits for all three) right
after `initialize` and does not wait for a slow server, so `sqrl mcp` answers them from a file
shipped with it (`squirrel_cli/mcp_manifest.json`) while the services start. `manifest()` makes
that file's content from the MCP server itself (`scripts/gen_mcp_manifest.py` writes it; a test
checks it is current). It also names the request methods the server answers in the handshake
era, so that `sqrl mcp` answers any other method (`server/discover`, a method of a later
protocol, a misspelt one) "Method not found" at once, whether or not the gateway serves yet.
"""

from __future__ import annotations

from typing import Any, cast

from mcp import Client
from mcp_types.methods import CLIENT_REQUESTS
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from squirrel_gateway.backend import MemoryBackend
from squirrel_gateway.tools import build_mcp_server


async def _listing(allow_writes: bool) -> tuple[Client, list[dict[str, Any]], dict[str, Any]]:
    # Listing tools never reaches the backend. The handshake, as hosts and the gateway's
    # streamable-HTTP endpoint speak it (its capabilities are not the discover era's).
    server = build_mcp_server(cast(MemoryBackend, object()), allow_writes=allow_writes)
    async with Client(server, mode="legacy") as client:
        tools = [
            tool.model_dump(mode="json", by_alias=True, exclude_none=True)
            for tool in (await client.list_tools()).tools
        ]
        assert client.server_info is not None and client.server_capabilities is not None
        opening = {
            "capabilities": client.server_capabilities.model_dump(
                mode="json", by_alias=True, exclude_none=True
            ),
            "serverInfo": client.server_info.model_dump(
                mode="json", by_alias=True, exclude_none=True
            ),
            "instructions": client.instructions,
            "prompts": [
                p.model_dump(mode="json", by_alias=True, exclude_none=True)
                for p in (await client.list_prompts()).prompts
            ],
            "resources": [
                r.model_dump(mode="json", by_alias=True, exclude_none=True)
                for r in (await client.list_resources()).resources
            ],
            "resourceTemplates": [
                t.model_dump(mode="json", by_alias=True, exclude_none=True)
                for t in (await client.list_resource_templates()).resource_templates
            ],
        }
    return client, tools, opening


async def manifest() -> dict[str, Any]:
    """The `initialize` answer (but its protocol version), both tool lists, the prompts and the
    resources, as JSON."""
    _, reads, opening = await _listing(allow_writes=False)
    _, every, _ = await _listing(allow_writes=True)
    read_names = {tool["name"] for tool in reads}
    return {
        "about": "What `sqrl mcp` answers before the gateway serves; made by"
        " scripts/gen_mcp_manifest.py from the gateway's MCP server.",
        "protocolVersions": list(HANDSHAKE_PROTOCOL_VERSIONS),
        "methods": handshake_methods(),
        **opening,
        "readTools": reads,
        "writeTools": [tool for tool in every if tool["name"] not in read_names],
    }


def handshake_methods() -> list[str]:
    """The request methods an MCP server may answer in the handshake era (the SDK's table of
    them, `initialize` to `tools/call`); the server answers any other "Method not found"."""
    handshake = set(HANDSHAKE_PROTOCOL_VERSIONS)
    return sorted({method for method, version in CLIENT_REQUESTS if version in handshake})
