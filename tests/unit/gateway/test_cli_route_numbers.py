"""The CLI's JSON routes on the gateway take a number only as a JSON number: a boolean sent for
a port or an importance is refused before any service is asked (Python counts `true` as 1)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from squirrel_core.errors import InvalidArgumentError
from squirrel_gateway.cli_http import CliApi
from squirrel_gateway.cli_memory import BadRequestError
from squirrel_gateway.servicer import GatewayServicer

NO_SERVICE: Any = object()
"""Stands for the memory service: a refused body must never reach it."""


def _api(tmp_path: Path) -> CliApi:
    return CliApi(GatewayServicer(NO_SERVICE), NO_SERVICE, tmp_path / "home", "token")


@pytest.mark.parametrize("port", [True, False, 0, 70000, 1.5, "4321"])
async def test_a_port_that_is_no_port_number_is_refused(tmp_path: Path, port: object) -> None:
    with pytest.raises(BadRequestError, match="ports must map service names to loopback ports"):
        await _api(tmp_path).status({"ports": {"gateway": port}})


@pytest.mark.parametrize("importance", [True, False, 1.5, -0.1, "0.5", None])
async def test_an_importance_that_is_no_number_from_0_to_1_is_refused(
    tmp_path: Path, importance: object
) -> None:
    remember = _api(tmp_path).routes["remember"]
    with pytest.raises(InvalidArgumentError, match="--importance must be between 0 and 1"):
        await remember({"content": "Use uv.", "importance": importance})
