"""The quick client's decisions: which answers it prints, which errors it reports, and when the
full CLI runs the command instead."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from squirrel_cli import quick
from squirrel_core.errors import SquirrelError


def _response(status: str, body: object, *, length: int | None = None) -> bytes:
    payload = json.dumps(body).encode()
    size = len(payload) if length is None else length
    return (
        f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {size}\r\n\r\n"
    ).encode() + payload


def test_an_answer_is_returned_and_a_domain_error_is_raised_with_its_message() -> None:
    assert quick._decode(_response("200 OK", {"rows": []})) == {"rows": []}
    error = {"error": {"status": "PERMISSION_DENIED", "message": "No project is registered"}}
    with pytest.raises(SquirrelError, match=r"^No project is registered$"):
        quick._decode(_response("422 Unprocessable Entity", error))
    crash = {"error": {"status": "INTERNAL", "message": "internal error; see the service log"}}
    with pytest.raises(SquirrelError, match="internal error"):
        quick._decode(_response("500 Internal Server Error", crash))


@pytest.mark.parametrize(
    "answer",
    [
        _response("401 Unauthorized", {"error": "missing or wrong bearer token"}),
        _response("404 Not Found", {"error": {"status": "NOT_FOUND", "message": "no route"}}),
        _response("400 Bad Request", {"error": {"status": "INVALID_ARGUMENT", "message": "x"}}),
        _response("200 OK", {"rows": []}, length=3),  # cut short
        _response("200 OK", ["not", "an", "object"]),
        b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n",
        b"",
    ],
)
def test_anything_else_hands_the_command_to_the_full_cli(answer: bytes) -> None:
    with pytest.raises(quick.FallBackError):
        quick._decode(answer)


def test_no_recorded_endpoint_or_a_gone_gateway_hands_over(tmp_path: Path) -> None:
    with pytest.raises(quick.FallBackError):
        quick._endpoint(tmp_path)
    (tmp_path / "run").mkdir()
    (tmp_path / "token").write_text("t0ken\n")
    info = tmp_path / "run" / quick.INFO_FILE
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    info.write_text(json.dumps({"host": "127.0.0.1", "port": 9, "pid": int(gone.stdout)}))
    with pytest.raises(quick.FallBackError):
        quick._endpoint(tmp_path)
    info.write_text(json.dumps({"host": "127.0.0.1", "port": 9, "pid": os.getpid()}))
    assert quick._endpoint(tmp_path) == ("127.0.0.1", 9, "t0ken")


@pytest.mark.parametrize(
    "argv",
    [
        ["search"],  # the full parser says what is missing
        ["search", "x", "--top-k", "many"],
        ["status", "--help"],
        ["context", "-h"],
        ["memories", "--type", "nonsense"],
        ["view", "style"],
        [],
    ],
)
def test_what_the_full_parser_should_answer_is_handed_over(argv: list[str]) -> None:
    assert quick.run(argv) is None
