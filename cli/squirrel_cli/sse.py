"""Reading a server-sent event stream (the gateway's streamable-HTTP answers): each event's data."""

from __future__ import annotations

import http.client
from collections.abc import Iterator


def sse_data(reply: http.client.HTTPResponse) -> Iterator[bytes]:
    """The `data` of each server-sent event in `reply`, until the gateway ends the stream."""
    data: list[bytes] = []
    while True:
        line = reply.readline()
        if not line:
            break
        line = line.rstrip(b"\r\n")
        if not line:
            if data:
                yield b"\n".join(data)
            data = []
            continue
        field, _, value = line.partition(b":")
        if field == b"data":
            data.append(value[1:] if value.startswith(b" ") else value)
    if data:
        yield b"\n".join(data)
