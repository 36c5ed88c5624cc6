"""The team server's listening address: TLS for anything but loopback, refused otherwise.

`serve.address` (host:port) opens a second port beside the service's plain loopback port. With
`serve.tls_cert` and `serve.tls_key` it speaks TLS (gRPC over HTTP/2 with
`grpc.ssl_server_credentials`); without them only a loopback address is accepted, so plain text
never leaves the machine.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path

import grpc

from squirrel_core.errors import FailedPreconditionError, InvalidArgumentError
from squirrel_core.pem_files import read_pem
from squirrel_core.settings import Settings

SERVER_STARTING = (
    "the team server is starting (it opens its database first, and brings the database's "
    "schema up to date when a new version starts for the first time); try again shortly"
)
"""What a team server answers a laptop's call before it is SERVING (UNAVAILABLE)."""

SERVER_MIGRATING = "the team server is migrating its store: "
"""How the answer begins while the server counts its memories for a new schema version."""


def server_migrating(
    counted: int, total: int, rows: str = "memories", done: str = "counted"
) -> str:
    """What a team server answers (UNAVAILABLE) while a migration goes over its `rows`
    (memories counted, events rehashed)."""
    percent = 100 if total <= 0 else min(100, counted * 100 // total)
    one = {"memories": "memory", "events": "event"}.get(rows, rows)
    return (
        f"{SERVER_MIGRATING}{percent} % ({counted:,} of {total:,} {rows}) {done}; it serves "
        f"once every {one} is; try again shortly"
    )


def migration_progress(message: str) -> str | None:
    """`41 % (102,000 of 250,000 memories) counted` from a migrating server's answer, else
    None."""
    _, found, rest = message.partition(SERVER_MIGRATING)
    if not found:
        return None
    return rest.partition(";")[0].strip() or None


LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})


@dataclass(frozen=True, slots=True)
class TeamListener:
    """Where the team server listens and, for TLS, its certificate chain and key (PEM)."""

    host: str
    port: int
    cert_file: Path | None = None
    key_file: Path | None = None

    @property
    def tls(self) -> bool:
        return self.cert_file is not None

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    def credentials(self) -> grpc.ServerCredentials:
        """The server's TLS credentials, read from the PEM files (a clear error when unreadable)."""
        if self.cert_file is None or self.key_file is None:
            raise FailedPreconditionError("no TLS certificate configured")
        try:
            chain = read_pem(self.cert_file)
            key = read_pem(self.key_file)
        except OSError as exc:
            raise FailedPreconditionError(
                f"cannot read the TLS certificate or key ({exc.strerror}: {exc.filename}); "
                "check serve.tls_cert and serve.tls_key"
            ) from None
        if b"-----BEGIN" not in chain or b"-----BEGIN" not in key:
            raise FailedPreconditionError(
                "serve.tls_cert and serve.tls_key must be PEM files (-----BEGIN ...)"
            )
        return grpc.ssl_server_credentials([(key, chain)])


def is_loopback(host: str) -> bool:
    """True for localhost and loopback IP addresses (127.0.0.0/8, ::1)."""
    name = host.strip().strip("[]").lower()
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def split_address(text: str, setting: str) -> tuple[str, int]:
    """`host:port` (IPv6 as `[::1]:7443`) checked; port 0 picks a free one."""
    host, sep, port_text = text.strip().rpartition(":")
    if not sep or not host or not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
        raise InvalidArgumentError(f"{setting} must be host:port, e.g. 0.0.0.0:7443 (got {text!r})")
    return host.strip("[]") if host.startswith("[") else host, int(port_text)


def is_team_server(settings: Settings) -> bool:
    """Whether this home serves a team (`serve.address` set)."""
    return bool(settings.str_("serve.address").strip())


def team_listener(settings: Settings) -> TeamListener | None:
    """The listener `serve.*` asks for, or None when team serving is off.

    A non-loopback address without both TLS files is refused: plain-text gRPC is loopback-only.
    """
    address = settings.str_("serve.address").strip()
    if not address:
        return None
    host, port = split_address(address, "serve.address")
    cert, key = settings.str_("serve.tls_cert").strip(), settings.str_("serve.tls_key").strip()
    if bool(cert) != bool(key):
        raise FailedPreconditionError("set both serve.tls_cert and serve.tls_key, or neither")
    if not cert and not is_loopback(host):
        raise FailedPreconditionError(
            f"refusing to serve plain-text gRPC on {host}:{port}: only loopback may be served "
            "without TLS; set serve.tls_cert and serve.tls_key (see docs/team.md)"
        )
    if not cert:
        return TeamListener(host, port)
    return TeamListener(host, port, Path(cert).expanduser(), Path(key).expanduser())
