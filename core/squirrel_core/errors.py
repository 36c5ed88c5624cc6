"""Domain errors, each carrying the gRPC status it travels as; mapped once at every edge."""

from __future__ import annotations

import grpc


class SquirrelError(Exception):
    """Base of every error Squirrel raises on purpose. Its message is safe to show a user."""

    grpc_code: grpc.StatusCode = grpc.StatusCode.INTERNAL


class InvalidArgumentError(SquirrelError):
    """The caller sent something malformed or out of range."""

    grpc_code = grpc.StatusCode.INVALID_ARGUMENT


class NotFoundError(SquirrelError):
    """A named thing (memory, project, file) does not exist."""

    grpc_code = grpc.StatusCode.NOT_FOUND


class AlreadyExistsError(SquirrelError):
    """The thing to create is already there."""

    grpc_code = grpc.StatusCode.ALREADY_EXISTS


class FailedPreconditionError(SquirrelError):
    """The system is not in a state where this can run (e.g. project not initialised)."""

    grpc_code = grpc.StatusCode.FAILED_PRECONDITION


class UnavailableError(SquirrelError):
    """A service or resource is temporarily unreachable; retrying later may work."""

    grpc_code = grpc.StatusCode.UNAVAILABLE


class PermissionDeniedError(SquirrelError):
    """The caller is known but may not do this (e.g. a path outside registered projects)."""

    grpc_code = grpc.StatusCode.PERMISSION_DENIED


class UnauthenticatedError(SquirrelError):
    """The caller did not present the install's bearer token."""

    grpc_code = grpc.StatusCode.UNAUTHENTICATED


class ResourceExhaustedError(SquirrelError):
    """A cap was hit: disk full, rate limit, buffer full."""

    grpc_code = grpc.StatusCode.RESOURCE_EXHAUSTED


class UnimplementedError(SquirrelError):
    """The RPC exists in the contract but this build does not serve it yet."""

    grpc_code = grpc.StatusCode.UNIMPLEMENTED


_BY_CODE: dict[grpc.StatusCode, type[SquirrelError]] = {
    cls.grpc_code: cls
    for cls in (
        InvalidArgumentError,
        NotFoundError,
        AlreadyExistsError,
        FailedPreconditionError,
        UnavailableError,
        PermissionDeniedError,
        UnauthenticatedError,
        ResourceExhaustedError,
        UnimplementedError,
    )
}


def error_for_status(code: grpc.StatusCode, message: str) -> SquirrelError:
    """Map a gRPC status received by a client back to the domain error it stands for."""
    if code == grpc.StatusCode.DEADLINE_EXCEEDED:
        return UnavailableError(message or "the service did not answer in time")
    cls = _BY_CODE.get(code, SquirrelError)
    return cls(message)
