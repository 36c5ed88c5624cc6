"""Tool arguments the input schema refuses, said to the model in one line naming each argument.

The MCP SDK answers a call whose arguments fail validation with pydantic's whole report (a
dozen lines, a link, and the values sent echoed back). `ArgumentCheckedServer` turns it into
one `ToolError` line: the missing arguments, then each mistyped one with what it should be,
never the value sent (it may be the user's text).

A budget sent as `null` is refused too, rather than taken for "not sent": JavaScript's
`JSON.stringify` and pydantic write NaN and ±Infinity as `null`, so a host that computed a
budget it cannot have meant (0/0, 1/0) sends `null`, and the default would answer for it.

A number argument (`top_k`, `importance`) refuses a JSON boolean and a string (`numbers_only`):
Python counts `true` as 1, so pydantic's lax mode would search with `top_k: true` as 1 and
remember with `importance: true` as 1.0, which no model meant.
"""

from __future__ import annotations

from typing import Any, Final

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.context import Context
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.types import CallToolResult, InputRequiredResult
from pydantic import BeforeValidator, ValidationError

from squirrel_core.budget_limits import MAX_BUDGET_TOKENS, MIN_BUDGET_TOKENS

BUDGET_ARGUMENTS: Final = ("context_budget_tokens", "max_tokens")


class ArgumentCheckedServer(MCPServer):
    """An `MCPServer` whose refused tool arguments are one line for the model."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        null_budget(name, arguments)
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


def numbers_only(wanted: str) -> BeforeValidator:
    """A validator run before the field's own that refuses a boolean or a string for a number
    argument, saying `wanted` (what to send instead); every other value goes on unchanged."""

    def check(value: object) -> object:
        if isinstance(value, bool):
            raise ValueError(f"is {str(value).lower()}, a boolean; send {wanted}")
        if isinstance(value, str):
            raise ValueError(f"is a string; send {wanted} as a JSON number, without quotes")
        return value

    return BeforeValidator(check)


def null_budget(tool: str, arguments: dict[str, Any]) -> None:
    """Refuses a budget argument sent as `null` (what JSON encoders make of NaN and Infinity),
    unless the other name of the budget carries a value: a host that fills every declared
    argument sends the unused alias as `null`, and that one is dropped."""
    given = [n for n in BUDGET_ARGUMENTS if arguments.get(n) is not None]
    for name in BUDGET_ARGUMENTS:
        if name in arguments and arguments[name] is None:
            if given:
                del arguments[name]
                continue
            raise ToolError(
                f"{tool}: `{name}` is null (a JSON encoder writes NaN and Infinity so); send a"
                f" whole number of tokens between {MIN_BUDGET_TOKENS} and {MAX_BUDGET_TOKENS},"
                " or leave it out for the default."
            )


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
