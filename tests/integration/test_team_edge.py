"""The team server's edge over real TLS gRPC on 127.0.0.1: who is let in, who is refused."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.auth import bearer
from squirrel_core.caller import team_user
from squirrel_core.rpc import GrpcService
from squirrel_core.team_listen import TeamListener
from squirrel_core.team_tokens import TeamTokens
from tests.tls_certs import TlsFiles, make_tls_files

INSTALL_TOKEN = "install-token"


Echo = pb.GetTaskContextRequest
"""A real request type with a `user_id`: the echo puts the bound user in `task_description`."""


async def _whoami(request: Echo, context: Any) -> Echo:
    return Echo(task_description=team_user() or "", user_id=request.user_id)


class Server:
    def __init__(self, port: int, team_port: int, tokens: TeamTokens, tls: TlsFiles) -> None:
        self.port, self.team_port, self.tokens, self.tls = port, team_port, tokens, tls


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[Server]:
    tls = make_tls_files(tmp_path / "tls")
    tokens = TeamTokens(tmp_path / "team" / "tokens.json")
    service = GrpcService(
        "memory",
        INSTALL_TOKEN,
        0,
        tmp_path / "memory-service.json",
        team=TeamListener("127.0.0.1", 0, tls.cert, tls.key),
        team_tokens=tokens,
    )

    def register(srv: grpc.aio.Server) -> list[str]:
        handler = grpc.unary_unary_rpc_method_handler(
            _whoami,
            request_deserializer=Echo.FromString,
            response_serializer=Echo.SerializeToString,
        )
        srv.add_generic_rpc_handlers(
            (grpc.method_handlers_generic_handler("t.T", {"WhoAmI": handler}),)
        )
        return ["t.T"]

    service.add(register)
    await service.start()
    await service.set_serving()
    yield Server(service.port, service.team_port, tokens, tls)
    await service.stop(0)


def _tls_channel(server: Server) -> grpc.aio.Channel:
    creds = grpc.ssl_channel_credentials(root_certificates=server.tls.ca.read_bytes())
    return grpc.aio.secure_channel(f"localhost:{server.team_port}", creds)


async def _who(channel: grpc.aio.Channel, metadata: Any, user_id: str = "") -> dict[str, Any]:
    call = channel.unary_unary(
        "/t.T/WhoAmI",
        request_serializer=Echo.SerializeToString,
        response_deserializer=Echo.FromString,
    )
    reply = await call(Echo(user_id=user_id), metadata=metadata, timeout=60)
    return {"bound": reply.task_description, "user_id": reply.user_id}


async def test_a_users_token_over_tls_binds_that_user(server: Server) -> None:
    _, token = server.tokens.issue("alice")
    async with _tls_channel(server) as channel:
        assert await _who(channel, bearer(token)) == {"bound": "alice", "user_id": "alice"}
        same = await _who(channel, bearer(token), user_id="alice")
        assert same["bound"] == "alice"


async def test_acting_as_another_user_is_permission_denied(server: Server) -> None:
    _, token = server.tokens.issue("alice")
    server.tokens.issue("bob")
    async with _tls_channel(server) as channel:
        with pytest.raises(grpc.aio.AioRpcError) as err:
            await _who(channel, bearer(token), user_id="bob")
    assert err.value.code() is grpc.StatusCode.PERMISSION_DENIED


@pytest.mark.parametrize("metadata", [(), bearer("sqt_000000000000_" + "a" * 43), bearer("")])
async def test_no_or_an_unknown_token_is_unauthenticated(server: Server, metadata: Any) -> None:
    async with _tls_channel(server) as channel:
        with pytest.raises(grpc.aio.AioRpcError) as err:
            await _who(channel, metadata)
    assert err.value.code() is grpc.StatusCode.UNAUTHENTICATED


async def test_a_revoked_token_is_refused_on_its_next_request(server: Server) -> None:
    record, token = server.tokens.issue("carol")
    async with _tls_channel(server) as channel:
        assert (await _who(channel, bearer(token)))["bound"] == "carol"
        TeamTokens(server.tokens.path).revoke(record.id)
        with pytest.raises(grpc.aio.AioRpcError) as err:
            await _who(channel, bearer(token))
    assert err.value.code() is grpc.StatusCode.UNAUTHENTICATED


async def test_plain_text_to_the_team_port_never_gets_an_answer(server: Server) -> None:
    _, token = server.tokens.issue("dave")
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.team_port}") as channel:
        with pytest.raises(grpc.aio.AioRpcError) as err:
            await _who(channel, bearer(token))
    assert err.value.code() is grpc.StatusCode.UNAVAILABLE


async def test_a_client_trusting_another_ca_refuses_the_server(
    server: Server, tmp_path: Path
) -> None:
    other = make_tls_files(tmp_path / "other", ca_name="Someone else")
    _, token = server.tokens.issue("erin")
    creds = grpc.ssl_channel_credentials(root_certificates=other.ca.read_bytes())
    async with grpc.aio.secure_channel(f"localhost:{server.team_port}", creds) as channel:
        with pytest.raises(grpc.aio.AioRpcError) as err:
            await _who(channel, bearer(token))
    assert err.value.code() is grpc.StatusCode.UNAVAILABLE


async def test_the_install_token_still_works_on_loopback_as_no_team_user(server: Server) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        assert (await _who(channel, bearer(INSTALL_TOKEN)))["bound"] == ""
    async with _tls_channel(server) as channel:
        # From this machine over TLS too; from another machine it would be refused.
        assert (await _who(channel, bearer(INSTALL_TOKEN)))["bound"] == ""


def _outside_address() -> str | None:
    """An address of this machine that is not loopback (how another machine reaches it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("198.51.100.1", 9))  # no packet is sent for a UDP connect
        except OSError:
            return None
        address = str(probe.getsockname()[0])
    return None if address.startswith("127.") or address == "0.0.0.0" else address


@pytest.fixture
async def wide_server(tmp_path: Path) -> AsyncIterator[tuple[Server, str]]:
    outside = _outside_address()
    if outside is None:
        pytest.skip("this machine has no non-loopback address to call from")
    tls = make_tls_files(tmp_path / "tls")
    tokens = TeamTokens(tmp_path / "team" / "tokens.json")
    service = GrpcService(
        "memory",
        INSTALL_TOKEN,
        0,
        tmp_path / "memory-service.json",
        team=TeamListener("0.0.0.0", 0, tls.cert, tls.key),
        team_tokens=tokens,
    )

    def register(srv: grpc.aio.Server) -> list[str]:
        handler = grpc.unary_unary_rpc_method_handler(
            _whoami,
            request_deserializer=Echo.FromString,
            response_serializer=Echo.SerializeToString,
        )
        srv.add_generic_rpc_handlers(
            (grpc.method_handlers_generic_handler("t.T", {"WhoAmI": handler}),)
        )
        return ["t.T"]

    service.add(register)
    await service.start()
    await service.set_serving()
    yield Server(service.port, service.team_port, tokens, tls), outside
    await service.stop(0)


async def test_from_another_address_only_tls_with_a_team_token_is_answered(
    wide_server: tuple[Server, str],
) -> None:
    server, outside = wide_server
    _, token = server.tokens.issue("alice")
    creds = grpc.ssl_channel_credentials(root_certificates=server.tls.ca.read_bytes())
    target = f"{outside}:{server.team_port}"
    options = [("grpc.ssl_target_name_override", "localhost")]
    async with grpc.aio.secure_channel(target, creds, options=options) as channel:
        assert (await _who(channel, bearer(token)))["bound"] == "alice"
        with pytest.raises(grpc.aio.AioRpcError) as err:
            await _who(channel, bearer(INSTALL_TOKEN))
        assert err.value.code() is grpc.StatusCode.UNAUTHENTICATED
    async with grpc.aio.insecure_channel(target) as channel:
        with pytest.raises(grpc.aio.AioRpcError) as plain:
            await _who(channel, bearer(token))
        assert plain.value.code() is grpc.StatusCode.UNAVAILABLE
