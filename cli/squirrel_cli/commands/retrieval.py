"""Commands that read memory through the gateway: context, search, view, and the stdio `mcp`."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Awaitable, Callable
from typing import Any, Final, TypeVar

from google.protobuf.message import Message

from squirrel.v1 import gateway_service_pb2, memory_pb2, views_pb2
from squirrel_cli import read_args
from squirrel_cli.console import Console
from squirrel_cli.read_view import print_context, print_search, print_view
from squirrel_core.auth import load_token
from squirrel_core.clients import LOCAL_READS, GatewayClient, open_channel, target_of
from squirrel_core.home import HomeLayout
from squirrel_core.projects import canonical_root
from squirrel_core.read_shapes import context_output, search_output, view_output

T = TypeVar("T")

CLI_TIMEOUT: Final = 60.0
"""Seconds a read may take end to end (the gateway allows the memory service 30)."""


def add_commands(sub: Any) -> None:
    read_args.add_context(sub).set_defaults(handler=cmd_context)
    read_args.add_search(sub).set_defaults(handler=cmd_search)

    read_args.add_view(sub).set_defaults(handler=cmd_view)

    mcp = sub.add_parser(
        "mcp", help="run the stdio MCP server (what Claude Code, Codex or Gemini launch)"
    )
    mcp.add_argument(
        "--no-autostart",
        action="store_true",
        help="do not start the services when they are down",
    )
    mcp.set_defaults(handler=cmd_mcp)


# --- plumbing ---------------------------------------------------------------------------------


def _project(args: argparse.Namespace) -> str:
    return str(canonical_root(args.project))


def _types(names: list[str] | None) -> list[memory_pb2.MemoryType.ValueType]:
    return [memory_pb2.MemoryType.Value("MEMORY_TYPE_" + n.upper()) for n in names or []]


def _call_gateway(
    args: argparse.Namespace, call: Callable[[GatewayClient], Awaitable[tuple[Any, list[str]]]]
) -> Any:
    """The gateway's reply; what it said about the team server goes to stderr, a line each."""
    layout = HomeLayout(args.settings.home)

    async def run() -> tuple[Any, list[str]]:
        token = load_token(layout.token)
        client = GatewayClient(
            open_channel(target_of(layout.service_file("gateway"))),
            token,
            CLI_TIMEOUT,
            metadata=(LOCAL_READS,) if args.local else (),
            service="gateway",
        )
        try:
            return await call(client)
        finally:
            await client.close()

    reply, said = asyncio.run(run())
    for line in said:
        sys.stderr.write(f"sqrl: {line}\n")
    return reply


# --- commands ---------------------------------------------------------------------------------


def cmd_context(args: argparse.Namespace, console: Console) -> int:
    request = gateway_service_pb2.GatewayGetTaskContextRequest(
        project_root=_project(args),
        user_id=args.user or "",
        task_description=args.task,
        active_file_paths=args.files,
        context_budget_tokens=read_args.budget(args),
        preferred_memory_types=_types(args.types),
    )
    reply = _call_gateway(args, lambda c: c.call_said(c.stub.GetTaskContext, request))
    print_context(context_output(reply, as_json=args.json), console)
    return 0


def cmd_search(args: argparse.Namespace, console: Console) -> int:
    request = gateway_service_pb2.GatewaySearchMemoryRequest(
        project_root=_project(args),
        query=args.query,
        top_k=read_args.top_k(args),
        types=_types(args.types),
        scope_paths=args.paths,
        context_budget_tokens=read_args.budget(args),
        cursor=args.cursor or "",
    )
    reply = _call_gateway(args, lambda c: c.call_said(c.stub.SearchMemory, request))
    print_search(args.query, search_output(reply, as_json=args.json), console)
    return 0


def cmd_view(args: argparse.Namespace, console: Console) -> int:
    project = _project(args)
    budget = read_args.budget(args)
    mode = views_pb2.VIEW_MODE_FULL if args.mode == "full" else views_pb2.VIEW_MODE_CORE
    view: Message
    if args.which == "style":
        style_request = gateway_service_pb2.GatewayGetUserStyleViewRequest(
            project_root=project, user_id=args.user or "", mode=mode, context_budget_tokens=budget
        )
        style = _call_gateway(args, lambda c: c.call_said(c.stub.GetUserStyleView, style_request))
        view, markdown = style.view, style.view.markdown
    elif args.which == "brief":
        brief_request = gateway_service_pb2.GatewayGetProjectBriefViewRequest(
            project_root=project, mode=mode, context_budget_tokens=budget
        )
        brief = _call_gateway(
            args, lambda c: c.call_said(c.stub.GetProjectBriefView, brief_request)
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
            args, lambda c: c.call_said(c.stub.GetPitfallsView, pitfalls_request)
        )
        view, markdown = pitfalls.view, pitfalls.view.markdown
    print_view(view_output(view, markdown, as_json=args.json), console)
    return 0


def cmd_mcp(args: argparse.Namespace, console: Console) -> int:
    from squirrel_cli.mcp_bridge import run  # noqa: PLC0415 - `sqrl` routes here only by hand

    return run(args.settings, autostart=not args.no_autostart)
