"""Commands that read memory through the gateway: context, search, view, and the stdio `mcp`."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Final, TypeVar

from google.protobuf.message import Message

from squirrel.v1 import gateway_service_pb2, memory_pb2, views_pb2
from squirrel_cli.console import Console
from squirrel_core.auth import load_token
from squirrel_core.clients import GatewayClient, open_channel, target_of
from squirrel_core.errors import InvalidArgumentError
from squirrel_core.home import HomeLayout
from squirrel_core.projects import canonical_root
from squirrel_core.settings import Settings

T = TypeVar("T")

CLI_TIMEOUT: Final = 60.0
"""Seconds a read may take end to end (the gateway allows the memory service 30)."""

MEMORY_TYPES: Final = ("user_style", "project_fact", "pitfall", "recipe")
VIEWS: Final = ("style", "brief", "pitfalls")

# A person at a terminal reads more than a model's context should hold: these defaults let a
# typical answer show several items (the MCP tools keep the spec's 400 and 256).
CONTEXT_BUDGET: Final = 800
SEARCH_BUDGET: Final = 800
VIEW_BUDGET: Final = 600


def add_commands(sub: Any) -> None:
    context = sub.add_parser("context", help="the memories relevant to a coding task")
    context.add_argument("task", help="what you are about to do, in a sentence or two")
    context.add_argument("--files", nargs="+", default=[], metavar="PATH", help="active files")
    context.add_argument(
        "--type",
        dest="types",
        action="append",
        choices=MEMORY_TYPES,
        help="prefer these memory types (repeatable; default: all)",
    )
    context.add_argument("--user", default=None, help="whose preferences (default: you)")
    _common(context, default_budget=CONTEXT_BUDGET)
    context.set_defaults(handler=cmd_context)

    search = sub.add_parser("search", help="search this project's memory")
    search.add_argument("query")
    search.add_argument(
        "--type", dest="types", action="append", choices=MEMORY_TYPES, help="repeatable"
    )
    search.add_argument("-k", "--top-k", type=int, default=5, help="results per page (1-50)")
    search.add_argument("--paths", nargs="+", default=[], metavar="PATH", help="bias to paths")
    search.add_argument("--cursor", default=None, help="next_cursor of a previous search")
    _common(search, default_budget=SEARCH_BUDGET)
    search.set_defaults(handler=cmd_search)

    view = sub.add_parser("view", help="a view: your style, the project brief, or pitfalls")
    view.add_argument("which", choices=VIEWS)
    view.add_argument("--mode", choices=("core", "full"), default="core")
    view.add_argument(
        "--paths", nargs="+", default=[], metavar="PATH", help="pitfalls: scope paths"
    )
    view.add_argument("--task", default=None, help="pitfalls: what you are about to do")
    view.add_argument("--user", default=None, help="style: whose preferences (default: you)")
    _common(view, default_budget=VIEW_BUDGET)
    view.set_defaults(handler=cmd_view)

    mcp = sub.add_parser(
        "mcp", help="run the stdio MCP server (what Claude Code, Codex or Gemini launch)"
    )
    mcp.add_argument(
        "--no-autostart",
        action="store_true",
        help="do not start the services when they are down",
    )
    mcp.set_defaults(handler=cmd_mcp)


def _common(parser: argparse.ArgumentParser, *, default_budget: int) -> None:
    parser.add_argument(
        "--budget",
        type=int,
        default=default_budget,
        metavar="N",
        help=f"most tokens of output (default {default_budget})",
    )
    parser.add_argument(
        "--project", default=".", metavar="PATH", help="a path in the project (default: .)"
    )
    parser.add_argument("--json", action="store_true", help="print the full response as JSON")


# --- plumbing ---------------------------------------------------------------------------------


def _budget(args: argparse.Namespace) -> int:
    if args.budget <= 0:
        raise InvalidArgumentError("--budget must be a positive number of tokens")
    return int(args.budget)


def _project(args: argparse.Namespace) -> str:
    return str(canonical_root(args.project))


def _types(names: list[str] | None) -> list[memory_pb2.MemoryType.ValueType]:
    return [memory_pb2.MemoryType.Value("MEMORY_TYPE_" + n.upper()) for n in names or []]


def _call_gateway(settings: Settings, call: Callable[[GatewayClient], Awaitable[T]]) -> T:
    layout = HomeLayout(settings.home)

    async def run() -> T:
        token = load_token(layout.token)
        client = GatewayClient(
            open_channel(target_of(layout.service_file("gateway"))), token, CLI_TIMEOUT
        )
        try:
            return await call(client)
        finally:
            await client.close()

    return asyncio.run(run())


_ENUM_FIELDS = {"type": "MEMORY_TYPE_", "mode": "VIEW_MODE_", "scope": "MEMORY_SCOPE_"}


def _spec_names(value: Any) -> Any:
    """Enum names as the spec's JSON spells them: MEMORY_TYPE_USER_STYLE → user_style."""
    if isinstance(value, list):
        return [_spec_names(v) for v in value]
    if not isinstance(value, dict):
        return value
    out: dict[str, Any] = {}
    for key, item in value.items():
        prefix = _ENUM_FIELDS.get(key)
        if prefix and isinstance(item, str) and item.startswith(prefix):
            out[key] = item.removeprefix(prefix).lower()
        else:
            out[key] = _spec_names(item)
    return out


def _as_dict(message: Message) -> dict[str, Any]:
    from google.protobuf.json_format import MessageToDict  # noqa: PLC0415 - --json only

    data = MessageToDict(
        message, preserving_proto_field_name=True, always_print_fields_with_no_presence=True
    )
    result: dict[str, Any] = _spec_names(data)
    return result


# --- commands ---------------------------------------------------------------------------------


def cmd_context(args: argparse.Namespace, console: Console) -> int:
    request = gateway_service_pb2.GatewayGetTaskContextRequest(
        project_root=_project(args),
        user_id=args.user or "",
        task_description=args.task,
        active_file_paths=args.files,
        context_budget_tokens=_budget(args),
        preferred_memory_types=_types(args.types),
    )
    reply = _call_gateway(args.settings, lambda c: c.call(c.stub.GetTaskContext, request))
    if args.json:
        console.json(_as_dict(reply.context))
    else:
        console.markdown(reply.context.markdown)
    return 0


def cmd_search(args: argparse.Namespace, console: Console) -> int:
    request = gateway_service_pb2.GatewaySearchMemoryRequest(
        project_root=_project(args),
        query=args.query,
        top_k=args.top_k,
        types=_types(args.types),
        scope_paths=args.paths,
        context_budget_tokens=_budget(args),
        cursor=args.cursor or "",
    )
    reply = _call_gateway(args.settings, lambda c: c.call(c.stub.SearchMemory, request))
    if args.json:
        console.json(_as_dict(reply))
        return 0
    results = list(reply.search.results)
    if not results:
        console.line("No relevant memory found for this query.")
    else:
        console.table(
            f"Memory search: {' '.join(args.query.split())}",
            ["score", "type", "memory", "content", "why"],
            [
                [
                    f"{r.score:.2f}",
                    memory_pb2.MemoryType.Name(r.type).removeprefix("MEMORY_TYPE_").lower(),
                    r.memory_id,
                    r.content,
                    r.reason,
                ]
                for r in results
            ],
            whole=("memory",),
        )
    console.line(_budget_line(reply.budget))
    if reply.next_cursor:
        console.line(f"More: sqrl search {_quoted(args.query)} --cursor {reply.next_cursor}")
    return 0


def _budget_line(report: views_pb2.BudgetReport) -> str:
    capped = " (capped by the budget)" if report.capped else ""
    return (
        f"{report.items_shown} of {report.items_total} shown; ~{report.token_estimate:,}"
        f"/{report.budget_tokens:,} tokens{capped}"
    )


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def cmd_view(args: argparse.Namespace, console: Console) -> int:
    project = _project(args)
    budget = _budget(args)
    mode = views_pb2.VIEW_MODE_FULL if args.mode == "full" else views_pb2.VIEW_MODE_CORE
    view: Message
    if args.which == "style":
        style_request = gateway_service_pb2.GatewayGetUserStyleViewRequest(
            project_root=project, user_id=args.user or "", mode=mode, context_budget_tokens=budget
        )
        style = _call_gateway(
            args.settings, lambda c: c.call(c.stub.GetUserStyleView, style_request)
        )
        view, markdown = style.view, style.view.markdown
    elif args.which == "brief":
        brief_request = gateway_service_pb2.GatewayGetProjectBriefViewRequest(
            project_root=project, mode=mode, context_budget_tokens=budget
        )
        brief = _call_gateway(
            args.settings, lambda c: c.call(c.stub.GetProjectBriefView, brief_request)
        )
        view, markdown = brief.view, brief.view.markdown
    else:
        pitfalls_request = gateway_service_pb2.GatewayGetPitfallsViewRequest(
            project_root=project,
            scope_paths=args.paths,
            task_description=args.task or "",
            context_budget_tokens=budget,
        )
        pitfalls = _call_gateway(
            args.settings, lambda c: c.call(c.stub.GetPitfallsView, pitfalls_request)
        )
        view, markdown = pitfalls.view, pitfalls.view.markdown
    if args.json:
        console.json(_as_dict(view))
    else:
        console.markdown(markdown)
    return 0


def cmd_mcp(args: argparse.Namespace, console: Console) -> int:
    from squirrel_gateway.stdio import serve_stdio  # noqa: PLC0415 - MCP only for `sqrl mcp`

    asyncio.run(serve_stdio(args.settings, autostart=not args.no_autostart))
    return 0
