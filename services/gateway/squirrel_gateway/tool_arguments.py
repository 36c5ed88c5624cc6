"""Tool arguments the input schema refuses, said to the model in one line naming each argument.

The MCP SDK answers a call whose arguments fail validation with pydantic's whole report (a
dozen lines, a link, and the values sent echoed back). `ArgumentCheckedServer` turns it into
one `ToolError` line: the missing arguments, then each mistyped one with what it should be,
never the value sent (it may be the user's text).
"""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.context import Context
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.types import CallToolResult, InputRequiredResult
from pydantic import ValidationError


class ArgumentCheckedServer(MCPServer):
    """An `MCPServer` whose refused tool arguments are one line for the model."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            raise
        except ToolError as exc:
            cause = exc.__cause__
            if not isinstance(cause, ValidationError):
                raise
            # The cause stays: the SDK logs the refused arguments' names (never their values).
            raise ToolError(argument_problems(name, cause)) from cause


def argument_problems(tool: str, error: ValidationError) -> str:
    """One line: `tool: missing `a` and `b`; `c` should be a valid integer. Call …`."""
    missing: list[str] = []
    wrong: dict[str, str] = {}
    for problem in error.errors(include_url=False, include_input=False):
        where = problem["loc"]
        name = str(where[0]) if where else "arguments"
        if problem["type"] == "missing":
            missing.append(name)
        else:
            said = " ".join(str(problem["msg"]).split())
            said = said.removeprefix("Input ").removeprefix("Value error, ")
            wrong.setdefault(name, said[:1].lower() + said[1:])
    parts: list[str] = []
    if missing:
        named = [f"`{m}`" for m in dict.fromkeys(missing)]
        both = ", ".join(named[:-1]) + " and " + named[-1] if len(named) > 1 else named[0]
        parts.append(f"missing {both} (required)")
    parts.extend(f"`{name}` {said}" for name, said in wrong.items())
    return f"{tool}: {'; '.join(parts)}. Call it again with these arguments fixed."
