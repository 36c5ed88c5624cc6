"""What `sqrl mcp` answers itself while the gateway is not serving yet, from the manifest of
what the gateway's MCP server answers (`mcp_manifest.json`, written ahead of time)."""

from __future__ import annotations

import json
import time
from importlib import resources
from typing import Any, Final

MANIFEST_FILE: Final = "mcp_manifest.json"
AUTOSTART_WAIT_SECONDS: Final = 60.0
"""How long after `sqrl mcp` started the services (or found them starting) a call that finds
no gateway says they are still starting, to call again; after it, that they did not start.
A loaded laptop takes tens of seconds to start them (34 s at a 1-minute load of 24 on 2
cores)."""


def load_manifest() -> dict[str, Any]:
    """What the gateway's MCP server answers to `initialize` and `tools/list` (see
    `squirrel_gateway.mcp_manifest`)."""
    text = resources.files("squirrel_cli").joinpath(MANIFEST_FILE).read_text(encoding="utf-8")
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError(f"{MANIFEST_FILE} is not a JSON object")
    return data


def served_methods(manifest: dict[str, Any]) -> frozenset[str]:
    """The request methods the gateway's MCP server answers; any other is "Method not found"."""
    return frozenset(str(method) for method in manifest["methods"])


_LISTS: Final = {
    "prompts/list": "prompts",
    "resources/list": "resources",
    "resources/templates/list": "resourceTemplates",
}


class LocalAnswers:
    """What `sqrl mcp` answers itself before the gateway serves: `initialize` (negotiating the
    protocol version as the gateway would), `ping`, and the tool, prompt and resource lists
    (Claude Code offers a server's tools only once all three lists are in)."""

    def __init__(self, manifest: dict[str, Any], *, allow_writes: bool, started: float) -> None:
        self._manifest = manifest
        self._allow_writes = allow_writes
        self.started = started
        """When the services were asked to start (monotonic)."""

    def initialize(self, params: object) -> dict[str, Any]:
        versions = [str(v) for v in self._manifest["protocolVersions"]]
        requested = params.get("protocolVersion") if isinstance(params, dict) else None
        chosen = requested if requested in versions else versions[-1]
        result = {
            "protocolVersion": chosen,
            "capabilities": self._manifest["capabilities"],
            "serverInfo": self._manifest["serverInfo"],
        }
        if self._manifest.get("instructions"):
            result["instructions"] = self._manifest["instructions"]
        return result

    def listing(self, method: object) -> dict[str, Any] | None:
        """The answer to a list request (`tools/list`, `prompts/list`, …); None for others."""
        if method == "tools/list":
            tools = list(self._manifest["readTools"])
            if self._allow_writes:
                tools.extend(self._manifest["writeTools"])
            return {"tools": tools}
        key = _LISTS.get(str(method))
        return None if key is None else {key: list(self._manifest.get(key, []))}

    def not_serving(self) -> str:
        """The tool error for a call that found no gateway: retry soon, or what to check."""
        waited = time.monotonic() - self.started
        if waited < AUTOSTART_WAIT_SECONDS:
            return (
                f"Squirrel's memory services are still starting ({waited:.0f} s so far), so"
                " this tool could not answer yet. Call it again in a few seconds; this is"
                " temporary."
            )
        return (
            f"Squirrel's memory services did not start within {AUTOSTART_WAIT_SECONDS:.0f} s."
            " Continue without memory and suggest the user run `sqrl status` (`sqrl up`"
            " starts the services); calling again may work once they run."
        )
