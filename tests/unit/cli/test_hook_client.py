"""The hook client finds the gateway's HTTP endpoint, also while it is still starting."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from squirrel_cli import hook_client

ENDPOINT = {"name": "gateway-mcp", "pid": 1, "host": "127.0.0.1", "port": 4321, "started_at": 0}


def _home(tmp_path: Path, *, gateway_serving: bool) -> Path:
    home = tmp_path / "home"
    (home / "run").mkdir(parents=True)
    (home / "token").write_text("secret\n")
    if gateway_serving:
        (home / "run" / "gateway-service.json").write_text("{}")
    return home


def test_a_recorded_endpoint_is_used_with_the_token(tmp_path: Path) -> None:
    home = _home(tmp_path, gateway_serving=True)
    (home / "run" / "gateway-mcp.json").write_text(json.dumps(ENDPOINT))
    assert hook_client._endpoint(home, 1.0) == ("127.0.0.1", 4321, "secret")


def test_a_serving_gateway_is_waited_for_until_its_endpoint_is_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = _home(tmp_path, gateway_serving=True)
    pauses: list[float] = []

    def endpoint_appears(seconds: float) -> None:
        pauses.append(seconds)
        (home / "run" / "gateway-mcp.json").write_text(json.dumps(ENDPOINT))

    monkeypatch.setattr(hook_client, "_pause", endpoint_appears)
    assert hook_client._endpoint(home, 5.0) == ("127.0.0.1", 4321, "secret")
    assert len(pauses) == 1


def test_no_gateway_means_no_endpoint_without_waiting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = _home(tmp_path, gateway_serving=False)
    monkeypatch.setattr(hook_client, "_pause", pytest.fail)
    assert hook_client._endpoint(home, 5.0) is None


def test_an_endpoint_that_never_appears_is_given_up_at_the_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = _home(tmp_path, gateway_serving=True)
    monkeypatch.setattr(hook_client, "_pause", lambda seconds: None)
    assert hook_client._endpoint(home, 0.05) is None
