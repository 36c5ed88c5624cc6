"""The CLI's JSON routes on the gateway take a switch (`json`, `local`, `counts`,
`include_deleted`) only as a JSON boolean: anything else is refused naming it, before any
service is asked or any memory written (Python reads the string "false" as true)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from squirrel_gateway.cli_http import CliApi
from squirrel_gateway.cli_memory import BadRequestError, flag
from squirrel_gateway.servicer import GatewayServicer

NO_SERVICE: Any = object()
"""Stands for the memory service: a refused body must never reach it."""

NOT_BOOLEANS = ("false", "true", 0, 1, None, "", [], {})

SWITCHES = (
    ("context", "json"),
    ("context", "local"),
    ("search", "json"),
    ("search", "local"),
    ("view", "json"),
    ("view", "local"),
    ("status", "counts"),
    ("memories", "include_deleted"),
    ("memories", "local"),
    ("remember", "local"),
    ("forget", "local"),
    ("confirm", "local"),
    ("history", "local"),
)


def _api(tmp_path: Path) -> CliApi:
    return CliApi(GatewayServicer(NO_SERVICE), NO_SERVICE, tmp_path / "home", "token")


@pytest.mark.parametrize(("route", "switch"), SWITCHES)
@pytest.mark.parametrize("value", NOT_BOOLEANS)
async def test_a_switch_that_is_no_boolean_is_refused_naming_it(
    tmp_path: Path, route: str, switch: str, value: object
) -> None:
    body = {"content": "Use uv.", "memory_id": "mem_0123456789", "which": "brief", switch: value}
    with pytest.raises(BadRequestError, match=f"^{switch} must be true or false$"):
        await _api(tmp_path).routes[route](body)


@pytest.mark.parametrize("value", [True, False])
def test_a_boolean_is_taken_as_it_is(value: bool) -> None:
    assert flag({"json": value}, "json") is value


def test_a_switch_left_out_is_off() -> None:
    assert flag({}, "local") is False


@pytest.mark.parametrize("value", ["", 0, False, {}])
async def test_a_list_given_as_no_list_is_refused(tmp_path: Path, value: object) -> None:
    with pytest.raises(BadRequestError, match=r"^types must be a list of strings$"):
        await _api(tmp_path).search({"project_root": "/p", "query": "q", "types": value})
