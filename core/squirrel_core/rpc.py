"""gRPC plumbing every service shares: the edge interceptor, serving with health and reflection."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import os
import signal
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextvars import Token
from pathlib import Path
from typing import Any

import grpc
import structlog
from google.protobuf.message import DecodeError
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from squirrel_core.auth import AUTH_HEADER, SCHEME, token_matches
from squirrel_core.caller import (
    bind_team_grant,
    bind_team_user,
    unbind_team_grant,
    unbind_team_user,
)
from squirrel_core.errors import InvalidArgumentError, SquirrelError, UnavailableError
from squirrel_core.port_in_use import PortInUseError, ensure_free
from squirrel_core.service_info import (
    LOOPBACK,
    MAX_MESSAGE_BYTES,
    ServiceInfo,
    clear_starting,
    read_service_info,
    write_service_info,
    write_starting,
)
from squirrel_core.team_grants import Grant, role_for
from squirrel_core.team_listen import SERVER_STARTING, TeamListener, is_loopback
from squirrel_core.team_tokens import TeamTokens

OPEN_METHOD_PREFIXES = ("/grpc.health.", "/grpc.reflection.")

log = structlog.get_logger()

Behavior = Callable[[Any, grpc.aio.ServicerContext[Any, Any]], Any]


def _metadata_value(context: grpc.aio.ServicerContext[Any, Any], key: str) -> str | None:
    for item_key, value in context.invocation_metadata() or ():
        if item_key == key:
            return value.decode() if isinstance(value, bytes) else value
    return None


def _peer_is_loopback(context: grpc.aio.ServicerContext[Any, Any]) -> bool:
    """Whether the caller connected from this machine (`ipv4:127.0.0.1:5000`, `ipv6:[::1]:…`)."""
    peer = context.peer() or ""
    kind, _, rest = peer.partition(":")
    if kind == "unix":
        return True
    if kind not in ("ipv4", "ipv6"):
        return False
    host = rest.rpartition(":")[0] if kind == "ipv4" else rest.rpartition("]")[0].lstrip("[")
    return is_loopback(host)


class EdgeInterceptor(grpc.aio.ServerInterceptor):  # type: ignore[type-arg]
    """Checks the bearer token, maps domain errors to status codes, logs one line per RPC.

    On a team server (`team_tokens` given) a request may also carry a team user's token: the
    user it names is bound to the request (`squirrel_core.caller`) and written into the
    request's `user_id`; a request naming another user is refused (PERMISSION_DENIED), and so
    is one naming a project (`project_id`, `project_ids`) the token is not granted with the role
    the method needs (`squirrel_core.team_grants`). The install's own token is then accepted
    only from this machine.
    """

    def __init__(self, token: str, team_tokens: TeamTokens | None = None) -> None:
        self._token = token
        self._team_tokens = team_tokens
        self.starting = False
        """Set while the service starts (listening, not yet SERVING): a team token's call is
        answered UNAVAILABLE at once, saying why (`starting_text`), instead of waiting on a
        database that may be migrating; the install's own callers are let through as before."""
        self.starting_text = SERVER_STARTING
        """What that answer says: the service may say how far its start is."""

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[Any]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> Any:
        handler = await continuation(handler_call_details)
        method = handler_call_details.method
        if handler is None or method.startswith(OPEN_METHOD_PREFIXES):
            return handler
        if handler.unary_unary is not None:
            return grpc.unary_unary_rpc_method_handler(
                self._wrap_unary(method, handler.unary_unary),
                request_deserializer=_tolerant(handler.request_deserializer),
                response_serializer=handler.response_serializer,
            )
        if handler.unary_stream is not None:
            return grpc.unary_stream_rpc_method_handler(
                self._wrap_stream(method, handler.unary_stream),
                request_deserializer=_tolerant(handler.request_deserializer),
                response_serializer=handler.response_serializer,
            )
        return handler

    async def _authenticate(self, context: grpc.aio.ServicerContext[Any, Any]) -> Grant | None:
        """The team token's grant (None: the install's own caller); aborts otherwise."""
        header = _metadata_value(context, AUTH_HEADER)
        if self._team_tokens is not None:
            presented = header[len(SCHEME) :] if header and header.startswith(SCHEME) else ""
            grant = self._team_tokens.grant_of(presented) if presented else None
            if grant is not None:
                return grant
            if token_matches(header, self._token) and _peer_is_loopback(context):
                return None
            await context.abort(
                grpc.StatusCode.UNAUTHENTICATED,
                "missing, unknown or revoked team token (ask the team server's admin for one: "
                "`sqrl team token add <user>`)",
            )
        if not token_matches(header, self._token):
            await context.abort(
                grpc.StatusCode.UNAUTHENTICATED,
                "missing or wrong bearer token (`sqrl token` prints the token file's path)",
            )
        return None

    async def _bind_request_user(
        self, context: grpc.aio.ServicerContext[Any, Any], request: Any, user: str | None
    ) -> None:
        """The token's user becomes the request's `user_id`; naming someone else is refused."""
        if user is None or "user_id" not in request.DESCRIPTOR.fields_by_name:
            return
        named = request.user_id
        if named and named != user:
            await context.abort(
                grpc.StatusCode.PERMISSION_DENIED,
                "this token's user cannot act as another user (leave user_id empty)",
            )
        request.user_id = user

    @staticmethod
    def _check_projects(method: str, request: Any, grant: Grant | None) -> None:
        """A team token reaches only the projects it is granted, with the role it has."""
        if grant is None:
            return
        fields = request.DESCRIPTOR.fields_by_name
        named: list[str] = []
        if "project_id" in fields and request.project_id:
            named.append(request.project_id)
        if "project_ids" in fields:
            named.extend(request.project_ids)
        grant.require_all(named, role_for(method))

    async def _fail(
        self, context: grpc.aio.ServicerContext[Any, Any], method: str, exc: BaseException
    ) -> grpc.StatusCode:
        if isinstance(exc, SquirrelError):
            await context.abort(exc.grpc_code, str(exc))
        log.error("rpc_crashed", method=method, error_type=type(exc).__name__, exc_info=exc)
        await context.abort(grpc.StatusCode.INTERNAL, "internal error; see the service log")
        return grpc.StatusCode.INTERNAL  # pragma: no cover - abort raises

    @contextlib.asynccontextmanager
    async def _edge(
        self, method: str, context: grpc.aio.ServicerContext[Any, Any], request: Any
    ) -> AsyncIterator[None]:
        """Around every data RPC: the token check (binding a team user), then each failure
        mapped to its status once, and one log line with the code and duration."""
        started = time.perf_counter()
        code = grpc.StatusCode.OK
        bound: Token[str | None] | None = None
        bound_grant: Token[Grant | None] | None = None
        try:
            grant = await self._authenticate(context)
            if grant is not None and self.starting:
                raise UnavailableError(self.starting_text)
            _require_parsed(request)
            user = None if grant is None else grant.user
            await self._bind_request_user(context, request, user)
            self._check_projects(method, request, grant)
            bound = bind_team_user(user)
            bound_grant = bind_team_grant(grant)
            yield
        except NotImplementedError:
            code = grpc.StatusCode.UNIMPLEMENTED
            await context.abort(code, f"{method} is not implemented in this version")
        except asyncio.CancelledError:
            code = grpc.StatusCode.CANCELLED
            raise
        except SquirrelError as exc:
            code = exc.grpc_code
            await self._fail(context, method, exc)
        except Exception as exc:
            code = _abort_code(context, exc)
            if code is grpc.StatusCode.UNKNOWN:
                code = grpc.StatusCode.INTERNAL
                await self._fail(context, method, exc)
            raise
        finally:
            if bound is not None:
                unbind_team_user(bound)
            if bound_grant is not None:
                unbind_team_grant(bound_grant)
            _log_rpc(method, code, started)

    def _wrap_unary(self, method: str, behavior: Behavior) -> Behavior:
        async def wrapped(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
            async with self._edge(method, context, request):
                result = behavior(request, context)
                return await result if inspect.isawaitable(result) else result

        return wrapped

    def _wrap_stream(self, method: str, behavior: Behavior) -> Behavior:
        async def wrapped(
            request: Any, context: grpc.aio.ServicerContext[Any, Any]
        ) -> AsyncIterator[Any]:
            async with self._edge(method, context, request):
                async for item in behavior(request, context):
                    yield item

        return wrapped


class _Malformed:
    """Stands in for request bytes that did not parse, so the caller gets INVALID_ARGUMENT
    (after authentication) instead of gRPC's UNKNOWN for a deserializer that raised."""


def _tolerant(deserializer: Callable[[bytes], Any] | None) -> Callable[[bytes], Any] | None:
    if deserializer is None:
        return None
    parse = deserializer

    def tolerant(data: bytes) -> Any:
        try:
            return parse(data)
        except (DecodeError, ValueError):
            return _Malformed()

    return tolerant


def _require_parsed(request: Any) -> None:
    if isinstance(request, _Malformed):
        raise InvalidArgumentError("the request is not a valid protobuf message of this method")


def _abort_code(context: grpc.aio.ServicerContext[Any, Any], exc: BaseException) -> grpc.StatusCode:
    """The code of an abort already raised through `context.abort`, else UNKNOWN."""
    if isinstance(exc, grpc.aio.AbortError):
        code = context.code()
        return code if isinstance(code, grpc.StatusCode) else grpc.StatusCode.UNKNOWN
    return grpc.StatusCode.UNKNOWN


def _log_rpc(method: str, code: grpc.StatusCode, started: float) -> None:
    duration_ms = round((time.perf_counter() - started) * 1000, 2)
    log.info("rpc_finished", method=method, code=code.name, duration_ms=duration_ms)


Register = Callable[[grpc.aio.Server], Sequence[str]]


class GrpcService:
    """A `grpc.aio` server on 127.0.0.1 with health, reflection and the edge interceptor."""

    def __init__(
        self,
        name: str,
        token: str,
        port: int,
        info_path: Path,
        *,
        team: TeamListener | None = None,
        team_tokens: TeamTokens | None = None,
        preferred_port: int = 0,
    ) -> None:
        self.name = name
        self._token = token
        self._requested_port = port
        self._preferred_port = preferred_port
        """With no port asked for: the port to take when it is free (the one a restarted
        service had before), else any free one."""
        self._info_path = info_path
        self._starting_path = info_path.with_name(f"{name}-starting.json")
        """As `HomeLayout.starting_file(name)`: how far the start is, for `sqrl status`."""
        self._team = team
        self.port = 0
        self.team_port = 0
        """The port bound for `team` (the team server's address), once started."""
        self.health = health.aio.HealthServicer()  # type: ignore[attr-defined]
        self._interceptor = EdgeInterceptor(token, team_tokens if team is not None else None)
        self.server = grpc.aio.server(
            interceptors=[self._interceptor],
            options=[
                ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
                ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
                ("grpc.so_reuseport", 0),
            ],
        )
        self._service_names: list[str] = []

    def add(self, register: Register) -> None:
        """Registers servicers; `register` returns their full service names."""
        self._service_names.extend(register(self.server))

    async def start(self) -> int:
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.server)
        names = [*self._service_names, health.SERVICE_NAME, reflection.SERVICE_NAME]
        reflection.enable_server_reflection(names, self.server)
        self.port = self._bind()
        if self._team is not None:
            self.team_port = self._bind_team(self._team)
        self._interceptor.starting = True
        await self.server.start()
        for service_name in self._service_names:
            await self.health.set(service_name, health_pb2.HealthCheckResponse.NOT_SERVING)
        await self.health.set("", health_pb2.HealthCheckResponse.NOT_SERVING)
        return self.port

    def _bind(self) -> int:
        """The loopback port: the one asked for (a refusal when taken), or else the preferred one
        when free, or else any free one."""
        if not self._requested_port and self._preferred_port:
            try:
                return self._add_port(self._preferred_port)
            except OSError:
                log.info("preferred_port_taken", service=self.name, port=self._preferred_port)
        return self._add_port(self._requested_port)

    def _add_port(self, port: int) -> int:
        if port:
            ensure_free(port)  # before gRPC, which logs its own error line for a taken port
        try:
            bound = self.server.add_insecure_port(f"{LOOPBACK}:{port}")
        except RuntimeError as exc:  # grpc's "Failed to bind"
            raise PortInUseError(port) from exc
        if bound == 0:
            raise OSError(f"could not bind {LOOPBACK}:{port}")
        return int(bound)

    def _bind_team(self, team: TeamListener) -> int:
        """The team server's port: TLS, or plain text on a loopback address only."""
        if team.tls:
            port = self.server.add_secure_port(team.address, team.credentials())
        elif is_loopback(team.host):
            port = self.server.add_insecure_port(team.address)
        else:  # team_listener() refuses this already; never bind plain text off loopback
            raise OSError(f"refusing plain-text gRPC on {team.address}")
        if port == 0:
            raise OSError(f"could not bind the team address {team.address}")
        log.info("team_listening", address=team.host, port=port, tls=team.tls)
        return port

    def say_starting(self, text: str) -> None:
        """What a team token's call is answered (UNAVAILABLE) until the service is SERVING
        (how far its start is), instead of the plain "starting"; `sqrl status` on this machine
        shows it too (`<home>/run/<name>-starting.json`)."""
        self._interceptor.starting_text = text
        try:
            write_starting(self._starting_path, text)
        except OSError as exc:  # the answer to the laptops matters more than the record
            log.warning("starting_record_failed", service=self.name, error=exc.strerror)

    async def set_serving(self) -> None:
        """Marks the server SERVING and records it in the home's service file."""
        self._interceptor.starting = False
        self._interceptor.starting_text = SERVER_STARTING
        clear_starting(self._starting_path)
        for service_name in ["", *self._service_names]:
            await self.health.set(service_name, health_pb2.HealthCheckResponse.SERVING)
        write_service_info(
            self._info_path,
            ServiceInfo(self.name, os.getpid(), LOOPBACK, self.port, time.time()),
        )
        if self._team is not None:
            write_service_info(
                self._info_path.with_name("team-server.json"),
                ServiceInfo("team", os.getpid(), self._team.host, self.team_port, time.time()),
            )
        log.info("service_serving", service=self.name, port=self.port)

    async def stop(self, grace: float = 5.0) -> None:
        await self.health.enter_graceful_shutdown()
        await self.server.stop(grace)
        for path in (self._info_path, self._info_path.with_name("team-server.json")):
            info = read_service_info(path)
            if info is not None and info.pid == os.getpid():
                path.unlink(missing_ok=True)
        clear_starting(self._starting_path)
        log.info("service_stopped", service=self.name)


def install_stop_signals(stop: asyncio.Event) -> None:
    """SIGTERM and SIGINT set `stop` (graceful shutdown) instead of killing the process."""
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
