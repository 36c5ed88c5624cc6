"""The frame of a file saved beside a vector index (the int8 copy, the 4-bit codes): its magic
bytes, an 8-byte little-endian length, a JSON header of that length, then the payload.

The header names the SHA-256 of the index file it belongs to, the payload's size, and a SHA-256
over its other fields (canonical JSON) and the payload, so a changed field is caught as surely
as changed bytes. The file may come from someone else: `open_frame` trusts none of it, and each
file's module (`int8_copy_file`, `codes_file`) checks what its own payload must hold.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

LENGTH_BYTES = 8
MAX_HEADER_BYTES = 4096


@dataclass(frozen=True, slots=True)
class SidecarFormat:
    """One kind of file beside an index: how it starts, its header's fields and their kinds,
    the ranges its header must hold, the error it raises and how its messages name it."""

    magic: bytes
    version: int
    kinds: Mapping[str, type]
    in_range: Callable[[dict[str, Any]], bool]
    error: type[Exception]
    #: "not {called}": data that is not this kind of file at all.
    called: str
    #: "it was {made} another version of the index": a file of another index file.
    made: str


def digest(fields: dict[str, Any], payload: bytes) -> str:
    """The SHA-256 of the header's other fields (canonical JSON) and the bytes after it."""
    hashed = hashlib.sha256(json.dumps(fields, sort_keys=True).encode("utf-8"))
    hashed.update(payload)
    return hashed.hexdigest()


def encode_frame(magic: bytes, fields: dict[str, Any], payload: bytes) -> bytes:
    """The file of `payload` whose header holds `fields` and their checksum (`sha256`)."""
    header = json.dumps({**fields, "sha256": digest(fields, payload)}).encode("utf-8")
    return magic + len(header).to_bytes(LENGTH_BYTES, "little") + header + payload


def open_frame(data: bytes, kind: SidecarFormat, index_sha256: str) -> tuple[dict[str, Any], bytes]:
    """The header and payload of `data` when it is a file of `kind` saved with the index file
    whose SHA-256 is `index_sha256` and its bytes match its checksum; else raise `kind.error`."""
    start = len(kind.magic) + LENGTH_BYTES
    if not data.startswith(kind.magic) or len(data) < start:
        raise kind.error(f"not {kind.called}")
    length = int.from_bytes(data[len(kind.magic) : start], "little")
    if length > MAX_HEADER_BYTES or len(data) < start + length:
        raise kind.error("its header is torn")
    header = _header(data[start : start + length], kind)
    if header["index_sha256"] != index_sha256:
        raise kind.error(f"it was {kind.made} another version of the index")
    payload = data[start + length :]
    fields = {key: value for key, value in header.items() if key != "sha256"}
    if len(payload) != header["size"] or digest(fields, payload) != header["sha256"]:
        raise kind.error("its bytes do not match its checksum (damaged)")
    return header, payload


def _header(raw: bytes, kind: SidecarFormat) -> dict[str, Any]:
    """The header's fields, checked (each present, of its kind and in range)."""
    try:
        header = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise kind.error("its header is not readable") from exc
    if not isinstance(header, dict) or header.get("format") != kind.version:
        raise kind.error("it is of another format")
    for key, wanted in kind.kinds.items():
        value = header.get(key)
        if not isinstance(value, wanted) or isinstance(value, bool):
            raise kind.error("its header is not readable")
    if not kind.in_range(header):
        raise kind.error("its header is not readable")
    return header
