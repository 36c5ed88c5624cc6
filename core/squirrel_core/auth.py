"""The per-install bearer token: created once (0600), required on every data RPC."""

from __future__ import annotations

import hmac
import secrets
from pathlib import Path

from squirrel_core.errors import FailedPreconditionError
from squirrel_core.files import write_private_file

AUTH_HEADER = "authorization"
SCHEME = "Bearer "


def ensure_token(path: Path) -> str:
    """Returns the install's token, creating it (mode 0600) when missing."""
    if path.exists():
        return load_token(path)
    token = secrets.token_urlsafe(32)
    write_private_file(path, token.encode())
    return token


def load_token(path: Path) -> str:
    """Reads the token; a missing or empty file means Squirrel was never set up here."""
    try:
        token = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        raise FailedPreconditionError(
            f"no auth token at {path}; run `sqrl init` (or `sqrl up`) first"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise FailedPreconditionError(
            f"the auth token file {path} cannot be read ({type(exc).__name__}); delete it and "
            "rerun `sqrl up` (a new token is made)"
        ) from None
    if not token:
        raise FailedPreconditionError(
            f"the auth token file {path} is empty; delete it and rerun `sqrl up`"
        )
    if not all(" " < c <= "~" for c in token):  # gRPC metadata takes printable ASCII only
        raise FailedPreconditionError(
            f"the auth token file {path} is damaged (not one word of printable ASCII); delete "
            "it and rerun `sqrl up` (a new token is made)"
        )
    return token


def bearer(token: str) -> tuple[tuple[str, str], ...]:
    """gRPC metadata carrying the token."""
    return ((AUTH_HEADER, SCHEME + token),)


def token_matches(header_value: str | None, token: str) -> bool:
    """Constant-time check of an `authorization` header against the install's token."""
    if not header_value or not header_value.startswith(SCHEME):
        return False
    return hmac.compare_digest(header_value[len(SCHEME) :].encode(), token.encode())
