"""Whether the team server refused the token a laptop holds: one small file in its home.

The memory service's delivery and the gateway's queue of remembers each learn it when the
server answers UNAUTHENTICATED (the token revoked or unknown), and note it in
`<home>/team/refused`: the SHA-256 of the refused token, never the token. `sqrl status` and
`sqrl doctor` read it to say so once, with what the laptop keeps meanwhile. A token the server
accepts again removes the note; a new token saved by `sqrl team join` makes it stale at once
(its hash is another), so nothing has to clear it.
"""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path

from squirrel_core.files import write_private_file


def _digest(token: str) -> str:
    return hashlib.sha256(token.strip().encode()).hexdigest()


def note_refused(path: Path, token: str) -> None:
    """Records that the server refused `token` (a fault writing it is left to the caller)."""
    try:
        if path.read_text().strip() == _digest(token):
            return  # already noted: no write on every retry
    except (OSError, UnicodeError):
        pass
    write_private_file(path, (_digest(token) + "\n").encode())


def note_accepted(path: Path, token: str) -> None:
    """Removes the note when it names `token`, which the server has just accepted."""
    try:
        if hmac.compare_digest(path.read_text().strip(), _digest(token)):
            path.unlink(missing_ok=True)
    except (OSError, UnicodeError):
        return


def token_refused(path: Path, token_file: Path) -> bool:
    """Whether the token saved in `token_file` now is the one the server last refused."""
    try:
        noted = path.read_text().strip()
        token = token_file.read_text().strip()
    except (OSError, UnicodeError):
        return False
    return bool(token) and hmac.compare_digest(noted, _digest(token))


__all__ = ["note_accepted", "note_refused", "token_refused"]
