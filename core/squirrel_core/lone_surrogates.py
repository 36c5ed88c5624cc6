"""Text that UTF-8, JSON and protobuf can carry: a lone surrogate made U+FFFD.

A surrogate code point in a Python `str` is always half of a UTF-16 pair cut from its other
half: a host that counts UTF-16 units cut a message or a tool's output inside an emoji, and its
transcript wrote the half as a JSON `\\ud83d` escape. `json` decodes it; UTF-8, orjson, the
redaction scanner and protobuf refuse it, so one left in a record stops every later step that
encodes it. Each such half becomes U+FFFD, as a byte that is not UTF-8 does.
"""

from __future__ import annotations

import re
from typing import Any, Final

_LONE_SURROGATE: Final = re.compile("[\ud800-\udfff]")
REPLACEMENT: Final = "\ufffd"


def whole_text(text: str) -> str:
    """`text` with each lone surrogate as U+FFFD (the same object when it holds none)."""
    if text.isascii() or not _LONE_SURROGATE.search(text):
        return text
    return _LONE_SURROGATE.sub(REPLACEMENT, text)


def whole_value(value: Any) -> Any:
    """A JSON-like value with every string in it, keys too, made whole (`whole_text`)."""
    if isinstance(value, str):
        return whole_text(value)
    if isinstance(value, dict):
        return {whole_value(k): whole_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [whole_value(v) for v in value]
    return value
