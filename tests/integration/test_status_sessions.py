"""`sqrl status --sessions N`: the outcome counts cover each project's last N served sessions
(the real memory service, the status probe over gRPC, the gateway's CLI route); N is checked."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
import test_served_outcomes
from test_foresight_bench import session
from test_served_outcomes import Stack

from squirrel_cli.commands.services import cmd_status
from squirrel_cli.console import Console
from squirrel_cli.read_args import outcome_sessions
from squirrel_core.auth import load_token
from squirrel_core.errors import InvalidArgumentError
from squirrel_core.home import HomeLayout
from squirrel_core.settings import load_settings
from squirrel_core.status_probe import probe
from squirrel_gateway.cli_http import CliApi
from squirrel_gateway.cli_memory import BadRequestError
from squirrel_gateway.memory_backend import GrpcMemoryBackend
from squirrel_gateway.servicer import GatewayServicer

served_stack = test_served_outcomes.stack
"""The `stack` fixture of those tests, under this name: a memory service with one project."""


@pytest.mark.parametrize("text", ["0", "-3", "abc", "2.5", "", "1001", " "])
def test_sessions_must_be_a_whole_number_from_one(text: str) -> None:
    with pytest.raises(InvalidArgumentError, match="--sessions must be a whole number from 1"):
        outcome_sessions(argparse.Namespace(sessions=text))


@pytest.mark.parametrize(("text", "value"), [("1", 1), ("20", 20), (" 7 ", 7), ("1000", 1000)])
def test_whole_numbers_from_one_are_taken(text: str, value: int) -> None:
    assert outcome_sessions(argparse.Namespace(sessions=text)) == value


def test_a_bad_count_is_refused_before_anything_is_asked(tmp_path: Path) -> None:
    settings = load_settings({"SQRL_HOME": str(tmp_path / "nowhere")})
    args = argparse.Namespace(settings=settings, json=True, sessions="none")
    with pytest.raises(InvalidArgumentError, match="not 'none'"):
        cmd_status(args, Console())
    assert not (tmp_path / "nowhere").exists()


async def test_the_counts_cover_the_last_n_served_sessions(
    served_stack: Stack, tmp_path: Path
) -> None:
    stack = served_stack
    await stack.learn(session("first", 1).events)
    for number, name in enumerate(("second", "third", "fourth"), start=2):
        await stack.start(name)
        await stack.learn(session(name, number).events)
    layout = HomeLayout(tmp_path / "home")
    token = load_token(layout.token)

    for asked, sessions in ((1, 1), (2, 2), (20, 3)):
        _, counts, _ = await probe(layout, token, {}, counts=True, sessions=asked)
        outcomes = counts[stack.root]["outcomes"]
        assert (outcomes["last"], outcomes["sessions"]) == (asked, sessions)
        assert outcomes["served"] > 0

    api = CliApi(
        GatewayServicer(GrpcMemoryBackend(stack.client, lambda: [stack.root])),
        GrpcMemoryBackend(stack.client, lambda: [stack.root]),
        layout.root,
        token,
    )
    answer = await api.status({"ports": {}, "counts": True, "sessions": 2})
    assert answer["counts"][stack.root]["outcomes"]["sessions"] == 2
    for bad in (0, -1, 1001, "2", True, 2.0):
        with pytest.raises(BadRequestError, match="sessions must be a whole number"):
            await api.status({"ports": {}, "counts": True, "sessions": bad})
