"""Domain errors, each carrying the gRPC status it travels as; mapped once at every edge.

The tree (the status each travels as; the services' own subclasses in brackets):

    SquirrelError                INTERNAL (also whatever else fails, with no detail sent)
    ├── InvalidArgumentError     INVALID_ARGUMENT
    ├── NotFoundError            NOT_FOUND
    ├── AlreadyExistsError       ALREADY_EXISTS
    ├── FailedPreconditionError  FAILED_PRECONDITION
    │     [memory: StorageError, SchemaVersionError, ForeignDatabaseError, IndexUnusableError,
    │      VectorRefusedError, MappedIndexUnsafeError]
    │     [core: StoreSetupError]
    ├── UnavailableError         UNAVAILABLE (also a deadline that passed, on the client side)
    │     [memory: EmbedderNotReadyError]
    ├── PermissionDeniedError    PERMISSION_DENIED
    ├── UnauthenticatedError     UNAUTHENTICATED
    ├── ResourceExhaustedError   RESOURCE_EXHAUSTED
    └── UnimplementedError       UNIMPLEMENTED

A server interceptor turns them into statuses (`squirrel_core.rpc`); `error_for_status` turns a
status a client received back into the error.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    import grpc


class SquirrelError(Exception):
    """Base of every error Squirrel raises on purpose. Its message is safe to show a user.

    `status` names the gRPC status it travels as; grpc itself is imported only when a code is
    needed, so a command that never talks gRPC does not load it.
    """

    status: ClassVar[str] = "INTERNAL"

    @property
    def grpc_code(self) -> grpc.StatusCode:
        import grpc  # noqa: PLC0415 - only at an RPC edge

        return grpc.StatusCode[self.status]


class InvalidArgumentError(SquirrelError):
    """The caller sent something malformed or out of range."""

    status = "INVALID_ARGUMENT"


class NotFoundError(SquirrelError):
    """A named thing (memory, project, file) does not exist."""

    status = "NOT_FOUND"


class AlreadyExistsError(SquirrelError):
    """The thing to create is already there."""

    status = "ALREADY_EXISTS"


class FailedPreconditionError(SquirrelError):
    """The system is not in a state where this can run (e.g. project not initialised)."""

    status = "FAILED_PRECONDITION"


class UnavailableError(SquirrelError):
    """A service or resource is temporarily unreachable; retrying later may work."""

    status = "UNAVAILABLE"


class PermissionDeniedError(SquirrelError):
    """The caller is known but may not do this (e.g. a path outside registered projects)."""

    status = "PERMISSION_DENIED"


class UnauthenticatedError(SquirrelError):
    """The caller did not present the install's bearer token."""

    status = "UNAUTHENTICATED"


class ResourceExhaustedError(SquirrelError):
    """A cap was hit: disk full, rate limit, buffer full."""

    status = "RESOURCE_EXHAUSTED"


class UnimplementedError(SquirrelError):
    """The RPC exists in the contract but this build does not serve it yet."""

    status = "UNIMPLEMENTED"


_BY_STATUS: dict[str, type[SquirrelError]] = {
    cls.status: cls
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
    if code.name == "DEADLINE_EXCEEDED":
        return UnavailableError(message or "the service did not answer in time")
    return error_named(code.name, message)


def error_named(status: str, message: str) -> SquirrelError:
    """The domain error a status name (`"NOT_FOUND"`, …) stands for; `SquirrelError` for others."""
    return _BY_STATUS.get(status, SquirrelError)(message)
