"""The in-process `sqrl mcp` server over stdio, answering what was asked before stdin closed.

The MCP SDK ends a stdio session as soon as stdin reaches its end, and cancels every request
still in flight, answering each with "Connection closed". A host that writes a request and
closes stdin at once (a script, a one-shot call, a host shutting down) then gets no answer. Here
the server reads from a stream that ends only once every request read from stdin has its answer
on stdout (or `DRAIN_SECONDS` passed), then the session ends as before.
"""

from __future__ import annotations

from typing import Final

import anyio
import structlog
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared._stream_protocols import ReadStream, WriteStream  # what stdio_server yields
from mcp.shared.message import SessionMessage
from mcp_types import (
    INVALID_REQUEST,
    ErrorData,
    JSONRPCError,
    JSONRPCNotification,
    JSONRPCRequest,
    JSONRPCResponse,
)

log = structlog.get_logger()

DRAIN_SECONDS: Final = 60.0
"""Longest wait, after stdin closed, for the answers still owed; a tool call that reaches the
memory service takes well under a second, one whose service is starting up to its deadline."""

Inbound = SessionMessage | Exception


class Answers:
    """The ids of the requests read and not answered yet (a request the host cancelled is
    owed nothing: the server must not answer it)."""

    def __init__(self) -> None:
        self._owed: set[str] = set()
        self._changed = anyio.Event()

    def asked(self, message: Inbound) -> None:
        if not isinstance(message, SessionMessage):
            return
        read = message.message
        if isinstance(read, JSONRPCRequest):
            self._owed.add(repr(read.id))
        elif isinstance(read, JSONRPCNotification) and read.method == "notifications/cancelled":
            cancelled = (read.params or {}).get("requestId")
            if cancelled is not None:
                self._owed.discard(repr(cancelled))
                self._changed.set()

    def answered(self, message: SessionMessage) -> None:
        sent = message.message
        if isinstance(sent, JSONRPCResponse | JSONRPCError) and sent.id is not None:
            self._owed.discard(repr(sent.id))
            self._changed.set()

    @property
    def owed(self) -> int:
        return len(self._owed)

    async def all_given(self) -> None:
        """Returns once nothing is owed."""
        while self._owed:
            self._changed = anyio.Event()
            await self._changed.wait()


def before_initialize(message: Inbound, initialized: bool) -> SessionMessage | None:
    """The answer to a request that comes before the host's `initialize` (other than `ping`,
    which MCP allows then): told to initialize first, where the SDK said only "Invalid request
    parameters". None for anything the server is to answer."""
    if initialized or not isinstance(message, SessionMessage):
        return None
    read = message.message
    if not isinstance(read, JSONRPCRequest) or read.method in ("initialize", "ping"):
        return None
    text = f"Invalid Request: {read.method[:100]} before initialize; send initialize first"
    error = ErrorData(code=INVALID_REQUEST, message=text)
    return SessionMessage(JSONRPCError(jsonrpc="2.0", id=read.id, error=error))


def _is_initialize(message: Inbound) -> bool:
    return (
        isinstance(message, SessionMessage)
        and isinstance(message.message, JSONRPCRequest)
        and message.message.method == "initialize"
    )


async def _relay_in(
    source: ReadStream[Inbound],
    sink: MemoryObjectSendStream[Inbound],
    answers: Answers,
    drain_seconds: float,
    out: MemoryObjectSendStream[SessionMessage],
) -> None:
    """Passes on what stdin brings (answering a request before `initialize` itself, on
    `out`); at its end, waits for the answers owed, then ends."""
    initialized = False
    async with sink, out:
        async for message in source:
            answers.asked(message)
            refused = before_initialize(message, initialized)
            if refused is not None:
                await out.send(refused)
                continue
            initialized = initialized or _is_initialize(message)
            await sink.send(message)
        owed = answers.owed
        if owed:
            with anyio.move_on_after(drain_seconds):
                await answers.all_given()
            log.info("mcp_stdin_closed", owed=owed, unanswered=answers.owed)


async def _relay_out(
    source: MemoryObjectReceiveStream[SessionMessage],
    sink: WriteStream[SessionMessage],
    answers: Answers,
) -> None:
    """Passes the server's messages on to stdout, noting each answer given."""
    async with source, sink:
        async for message in source:
            await sink.send(message)
            answers.answered(message)


async def serve_stdio_answering(server: MCPServer, drain_seconds: float = DRAIN_SECONDS) -> None:
    """`server.run_stdio_async()`, except that a request read before stdin closed is answered
    before the session ends."""
    lowlevel = server._lowlevel_server
    answers = Answers()
    inbound_in, inbound_out = anyio.create_memory_object_stream[Inbound](0)
    outbound_in, outbound_out = anyio.create_memory_object_stream[SessionMessage](0)
    async with stdio_server() as (read_stream, write_stream), anyio.create_task_group() as tg:
        early = outbound_in.clone()
        tg.start_soon(_relay_in, read_stream, inbound_in, answers, drain_seconds, early)
        writing = anyio.Event()

        async def relay_out() -> None:
            try:
                await _relay_out(outbound_out, write_stream, answers)
            finally:
                writing.set()

        tg.start_soon(relay_out)
        async with inbound_out, outbound_in:
            await lowlevel.run(inbound_out, outbound_in, lowlevel.create_initialization_options())
        await writing.wait()  # every message the server sent is on stdout
        tg.cancel_scope.cancel()  # stdin may still be open when the server stopped by itself
