"""Reading an ASGI request body within a size limit (the gateway's hook and CLI routes)."""

from __future__ import annotations

from starlette.types import Receive


async def read_body(receive: Receive, limit: int) -> bytes | None:
    """The request body, or None when it is larger than `limit` bytes or the client left."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunk = bytes(message.get("body", b""))
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)
