"""What `sqrl mcp` in process still owes the host when stdin closes (`stdio_drain.Answers`)."""

from __future__ import annotations

import anyio
from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCError, JSONRPCNotification, JSONRPCRequest, JSONRPCResponse
from mcp_types.jsonrpc import ErrorData

from squirrel_gateway.stdio_drain import Answers
from tests.conftest import PATIENCE_SECONDS


def _request(request_id: int | str) -> SessionMessage:
    return SessionMessage(JSONRPCRequest(jsonrpc="2.0", id=request_id, method="tools/call"))


def _result(request_id: int | str) -> SessionMessage:
    return SessionMessage(JSONRPCResponse(jsonrpc="2.0", id=request_id, result={}))


def test_a_request_is_owed_until_its_result_or_error_is_sent() -> None:
    answers = Answers()
    answers.asked(_request(1))
    answers.asked(_request("1"))  # another id: a string is not the number
    answers.asked(SessionMessage(JSONRPCNotification(jsonrpc="2.0", method="ping")))
    assert answers.owed == 2
    answers.answered(_result(1))
    assert answers.owed == 1
    error = ErrorData(code=-32602, message="bad")
    answers.answered(SessionMessage(JSONRPCError(jsonrpc="2.0", id="1", error=error)))
    assert answers.owed == 0


def test_a_cancelled_request_is_owed_nothing_and_waiting_ends() -> None:
    answers = Answers()
    answers.asked(_request(7))
    answers.asked(ValueError("a line that was not JSON-RPC"))
    assert answers.owed == 1

    async def wait_then_cancel() -> None:
        with anyio.fail_after(PATIENCE_SECONDS):
            async with anyio.create_task_group() as tg:
                tg.start_soon(answers.all_given)
                await anyio.sleep(0)
                cancel = JSONRPCNotification(
                    jsonrpc="2.0", method="notifications/cancelled", params={"requestId": 7}
                )
                answers.asked(SessionMessage(cancel))

    anyio.run(wait_then_cancel)
    assert answers.owed == 0
