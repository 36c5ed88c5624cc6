"""A laptop's link to its team server: the `team.*` settings, the private token, a TLS channel.

The token lives in `<home>/team/token` (0600), never in `config.toml`, so `sqrl config list`
cannot show it. The channel is always TLS, verified against `team.ca_file` (or the system's
roots): a laptop never sends its token or its events in plain text.
"""

from __future__ import annotations

import asyncio
import secrets
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import grpc

from squirrel_core.clients import MemoryClient
from squirrel_core.errors import (
    FailedPreconditionError,
    NotFoundError,
    PermissionDeniedError,
    SquirrelError,
    UnauthenticatedError,
    UnavailableError,
)
from squirrel_core.files import ensure_private_dir, write_private_file
from squirrel_core.home import HomeLayout
from squirrel_core.pem_files import read_pem
from squirrel_core.service_info import MAX_MESSAGE_BYTES
from squirrel_core.settings import Settings
from squirrel_core.team_listen import SERVER_STARTING, migration_progress, split_address

TEAM_TIMEOUT = 15.0
JOIN_CHECK_SECONDS = 10.0
_TLS_WORDS = ("ssl", "tls", "handshake", "certificate")


@dataclass(frozen=True, slots=True)
class TeamLink:
    """Where the team server is, how to trust it, who this laptop is to it."""

    server: str
    token: str
    ca_file: Path | None
    machine: str


def machine_name(settings: Settings) -> str:
    """`team.machine`, else this host's name."""
    return settings.str_("team.machine").strip() or socket.gethostname() or "machine"


def checked_token(token: str) -> str:
    """The token as pasted, stripped; FailedPreconditionError when it cannot be one."""
    text = token.strip()
    if not text or any(c.isspace() for c in text) or len(text) > 500:
        raise FailedPreconditionError("the team token is empty or malformed; paste it as printed")
    return text


def save_team_token(layout: HomeLayout, token: str) -> Path:
    """Stores the laptop's team token (0600 in a 0700 folder)."""
    text = checked_token(token)
    ensure_private_dir(layout.team)
    write_private_file(layout.team_token, (text + "\n").encode())
    return layout.team_token


def team_link(settings: Settings) -> TeamLink | None:
    """The team server this laptop shares with, or None (`team.server` empty)."""
    server = settings.str_("team.server").strip()
    if not server:
        return None
    split_address(server, "team.server")
    layout = HomeLayout(settings.home)
    try:
        token = layout.team_token.read_text().strip()
    except FileNotFoundError:
        token = ""
    if not token:
        raise FailedPreconditionError(
            f"team.server is set but there is no team token at {layout.team_token}; "
            "run `sqrl team join <host:port>` with the token your admin gave you"
        )
    ca = settings.str_("team.ca_file").strip()
    return TeamLink(server, token, Path(ca).expanduser() if ca else None, machine_name(settings))


LAPTOP_ID_CHARS: Final = 12


def laptop_id(layout: HomeLayout) -> str:
    """This home's own random id (`<home>/team/laptop`, made at its first need), or "" when it
    cannot be read or made (delivery then names its position by machine and path alone)."""
    path = layout.team_laptop
    try:
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        text = ""
    except (OSError, UnicodeError):
        return ""
    if len(text) == LAPTOP_ID_CHARS and all(c in "0123456789abcdef" for c in text):
        return text
    made = secrets.token_hex(LAPTOP_ID_CHARS // 2)
    try:
        write_private_file(path, (made + "\n").encode())
    except OSError:
        return ""
    return made


def saved_team_link(settings: Settings) -> TeamLink | None:
    """The team link with the token the home holds now, or None when it cannot be read (no
    token, a folder or an unreadable file in its place, bytes that are not text): whoever asks
    keeps the token it had."""
    try:
        return team_link(settings)
    except (SquirrelError, OSError, UnicodeError):
        return None


RECONNECT_FIRST_MS: Final = 250
"""How long a team channel that could not connect waits before its first new try."""
RECONNECT_MAX_MS: Final = 2_000
"""The longest it waits between tries (the wait grows from `RECONNECT_FIRST_MS`)."""


def team_channel(link: TeamLink) -> grpc.aio.Channel:
    """A TLS channel to the team server, trusting `team.ca_file` when set."""
    roots = None
    if link.ca_file is not None:
        try:
            roots = read_pem(link.ca_file)
        except OSError as exc:
            raise FailedPreconditionError(
                f"cannot read team.ca_file {link.ca_file} ({exc.strerror})"
            ) from None
    return grpc.aio.secure_channel(
        link.server,
        grpc.ssl_channel_credentials(root_certificates=roots),
        options=[
            ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
            ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
            # A channel that failed waits before it connects again, and calls fail at once
            # meanwhile; gRPC's default wait grows to 120 s, so a team server back after an
            # outage would go unused for up to two minutes. At most `RECONNECT_MAX_MS` here.
            ("grpc.initial_reconnect_backoff_ms", RECONNECT_FIRST_MS),
            ("grpc.max_reconnect_backoff_ms", RECONNECT_MAX_MS),
        ],
    )


def team_memory_client(link: TeamLink, timeout: float = TEAM_TIMEOUT) -> MemoryClient:
    """A memory-service client of the team server, carrying this laptop's team token."""
    return MemoryClient(team_channel(link), link.token, timeout)


REFUSED_REASON: Final = (
    "it refused this laptop's token (revoked or unknown: ask your admin for a new one)"
)
"""The reason given when the server answered UNAUTHENTICATED."""


def failure_reason(exc: BaseException, wait_seconds: float) -> str:
    """Why a call to the team server failed, in a few words for the user (never a token)."""
    if isinstance(exc, UnauthenticatedError):
        return REFUSED_REASON
    if isinstance(exc, PermissionDeniedError):
        return f"it refused: {exc}"
    if isinstance(exc, NotFoundError):
        return "it has no team project for this repository yet"
    if isinstance(exc, TimeoutError):
        return f"it did not answer within {wait_seconds:g}s"
    text = str(exc).lower()
    if isinstance(exc, UnavailableError) and SERVER_STARTING in str(exc):
        return "it is starting (bringing its database up to date, which may take a minute)"
    counted = migration_progress(str(exc)) if isinstance(exc, UnavailableError) else None
    if counted is not None:
        return f"it is migrating its store: {counted}"
    if isinstance(exc, (UnavailableError, OSError)) and any(w in text for w in _TLS_WORDS):
        return "TLS with it failed (is team.ca_file the CA that signed its certificate?)"
    if isinstance(exc, (UnavailableError, OSError)):
        return "it is unreachable"
    if isinstance(exc, SquirrelError):
        return f"it failed ({exc.status})"
    return f"it failed ({type(exc).__name__})"


READ_ONLY: Final = (
    "it may only read: this laptop's sessions are not delivered and its `sqrl remember`s stay "
    "queued, in local memory, until the server's admin grants it write "
    "(`sqrl team token grant ID --role write`)"
)
"""What a `read` token means for a laptop, as `sqrl team join` and `sqrl doctor` say it."""


@dataclass(frozen=True, slots=True)
class TokenSeen:
    """What the team server answered for a token: the projects it lets it see, the user it
    takes it for and its role ("" from an older server)."""

    projects: list[str]
    user: str = ""
    role: str = ""


async def check_link(link: TeamLink, wait_seconds: float = JOIN_CHECK_SECONDS) -> TokenSeen:
    """What the team server lets `link`'s token see; FailedPreconditionError saying why when
    it refuses the token, fails TLS or does not answer."""
    from squirrel.v1 import memory_service_pb2  # noqa: PLC0415 - stubs only when asked

    client = team_memory_client(link, timeout=wait_seconds)
    try:
        reply = await asyncio.wait_for(
            client.call(client.stub.ListProjects, memory_service_pb2.ListProjectsRequest()),
            wait_seconds,
        )
    except (SquirrelError, TimeoutError, OSError) as exc:
        if isinstance(exc, FailedPreconditionError):
            raise
        raise FailedPreconditionError(
            f"team server {link.server}: {failure_reason(exc, wait_seconds)}"
        ) from None
    finally:
        await client.close()
    return TokenSeen(
        [p.project_id for p in reply.projects], reply.team_user[:200], reply.team_role[:20]
    )
