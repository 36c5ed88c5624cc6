"""The memory browser's HTTP plumbing: requests, answers, forms and headers over raw ASGI."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final
from urllib.parse import parse_qs

from starlette.types import Receive, Scope, Send

from squirrel_gateway.ui.auth import Session

LOOPBACK_NAMES: Final = frozenset({"127.0.0.1", "localhost"})
MAX_FORM_BYTES: Final = 64_000


class PageError(Exception):
    """A request the browser answers with an error page: status and one line."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Request:
    """What a handler needs of one HTTP request."""

    def __init__(self, scope: Scope, query: dict[str, str], form: dict[str, str]) -> None:
        self.scope = scope
        self.query = query
        self.form = form
        self.session: Session | None = None

    def arg(self, name: str, limit: int = 1000) -> str:
        value = self.form.get(name, self.query.get(name, ""))
        if len(value) > limit:
            raise PageError(400, f"{name} is longer than {limit} characters")
        return value


Handler = Callable[[Request], Awaitable["bytes | Redirect"]]


@dataclass(frozen=True, slots=True)
class Redirect:
    """A handler's answer after a write: see the page at `location` (303, so a reload does not
    post again)."""

    location: str


def loopback_host(host: str | None) -> bool:
    """True for `127.0.0.1[:port]` and `localhost[:port]` (a missing Host header is HTTP/1.0)."""
    if host is None:
        return True
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    return name in LOOPBACK_NAMES


def own_origin(origin: str, scope: Scope) -> bool:
    """True when a form's `Origin` is this gateway's own page: `http://127.0.0.1:<port>` or
    `http://localhost:<port>`, on the port this request came in on (another local server's page
    is another site)."""
    scheme, _, rest = origin.partition("://")
    name, _, port = rest.rpartition(":")
    server = scope.get("server")
    own_port = str(server[1]) if server and len(server) > 1 and server[1] is not None else None
    return (
        scheme == "http"
        and name in LOOPBACK_NAMES
        and port.isdigit()
        and (own_port is None or port == own_port)
    )


def header(scope: Scope, name: bytes) -> str | None:
    found = header_bytes(scope, name)
    return None if found is None else found.decode("latin-1")


def header_bytes(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value)
    return None


def parse_form(raw: bytes) -> dict[str, str]:
    """`a=1&b=2` as a dict (first value of each name); bad UTF-8 is replaced, not fatal."""
    try:
        pairs = parse_qs(raw.decode("utf-8", "replace"), keep_blank_values=True, max_num_fields=40)
    except ValueError as exc:
        raise PageError(400, "too many fields") from exc
    return {k: v[0] for k, v in pairs.items()}


async def read_form(receive: Receive) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            raise PageError(400, "the request ended early")
        chunk = bytes(message.get("body", b""))
        size += len(chunk)
        if size > MAX_FORM_BYTES:
            raise PageError(413, "the form is too large")
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


async def send_page(
    send: Send, status: int, body: bytes, headers: tuple[tuple[bytes, bytes], ...]
) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [*headers, (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def redirect(send: Send, location: str, extra: tuple[tuple[bytes, bytes], ...] = ()) -> None:
    await send_page(
        send,
        303,
        b"",
        ((b"location", location.encode()), (b"cache-control", b"no-store"), *extra),
    )
