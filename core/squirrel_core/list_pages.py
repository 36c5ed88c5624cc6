"""The page tokens of a list of memories (`ListMemories`' `page_token`, `sqrl memories
--page-token`): where the next page starts, opaque to whoever holds one.

One definition for the memory service, which issues and reads them, and the command line, which
refuses one it could never have printed before any service is asked, naming its own flag (the
service names the field of its request). Standard library only.
"""

from __future__ import annotations

import base64
import binascii


def list_page_token(offset: int) -> str:
    """The token of the page that starts at `offset` (0 or more)."""
    return base64.urlsafe_b64encode(f"o:{offset}".encode()).decode()


def list_page_offset(token: str) -> int:
    """Where the page of `token` starts: 0 for "" (the first page). ValueError for a token no
    memory service issued."""
    if not token:
        return 0
    try:
        text = base64.urlsafe_b64decode(token.encode()).decode()
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise ValueError("not a list page token") from None
    digits = text.removeprefix("o:")
    if digits == text or not digits.isascii() or not digits.isdigit():
        raise ValueError("not a list page token")
    return int(digits)
