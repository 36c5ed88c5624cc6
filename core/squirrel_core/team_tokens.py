"""Team tokens: one per user, issued by the team server's admin, stored only as salted hashes.

A token reads `sqt_<id>_<secret>`. The id names the record in `<home>/team/tokens.json` (mode
0600); the secret is never stored, only `sha256(salt || secret)` with a random salt per token,
compared in constant time. Revoking keeps the record (marked with the time) so `list` still shows
who had access. Each record also keeps the token's grant (`squirrel_core.team_grants`): its role,
its project patterns and how many projects it may create. The server re-reads the file when it
changes, so a revocation or a changed grant applies to the next request without a restart.

A record written before grants existed (no `role`) is read as `read` on `*`: such a token keeps
reading what it could read before and can no longer deliver, remember or create anything until
the admin grants it (`sqrl team token grant`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import threading
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from squirrel_core.errors import InvalidArgumentError, NotFoundError
from squirrel_core.files import ensure_private_dir, write_private_file
from squirrel_core.team_grants import (
    ALL,
    DEFAULT_MAX_PROJECTS,
    Grant,
    Role,
    check_patterns,
)

PREFIX = "sqt_"
MAX_USER_CHARS = 100
_USER = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@+-]*$")
_TOKEN = re.compile(r"^sqt_([0-9a-f]{12})_([A-Za-z0-9_-]{20,100})$")


@dataclass(frozen=True, slots=True)
class TokenRecord:
    """What is kept about one issued token (never the token itself)."""

    id: str
    user: str
    created_at: str
    revoked_at: str | None
    salt: str
    digest: str
    role: Role = Role.READ
    projects: tuple[str, ...] = ()
    max_projects: int = DEFAULT_MAX_PROJECTS

    @property
    def active(self) -> bool:
        return self.revoked_at is None

    @property
    def grant(self) -> Grant:
        return Grant(self.id, self.user, self.role, self.projects, self.max_projects)

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "user": self.user,
            "created_at": self.created_at,
            "revoked_at": self.revoked_at,
            "salt": self.salt,
            "digest": self.digest,
            "role": self.role.label,
            "projects": list(self.projects),
            "max_projects": self.max_projects,
        }


def _record(item: dict[str, Any]) -> TokenRecord:
    legacy = "role" not in item
    return TokenRecord(
        id=str(item["id"]),
        user=str(item["user"]),
        created_at=str(item["created_at"]),
        revoked_at=None if item.get("revoked_at") is None else str(item["revoked_at"]),
        salt=str(item["salt"]),
        digest=str(item["digest"]),
        role=Role.READ if legacy else Role.parse(str(item["role"])),
        projects=(ALL,) if legacy else tuple(str(p) for p in item["projects"]),
        max_projects=int(item.get("max_projects", DEFAULT_MAX_PROJECTS)),
    )


def check_max_projects(value: int) -> int:
    if not 0 <= value <= 100_000:
        raise InvalidArgumentError("--max-projects is 0 to 100000")
    return value


def check_user(user: str) -> str:
    """A user name for a token: letters, digits and `._@+-`, at most 100 characters."""
    name = user.strip()
    if not name or len(name) > MAX_USER_CHARS or not _USER.match(name):
        raise InvalidArgumentError(
            f"a team user name is 1 to {MAX_USER_CHARS} letters, digits or . _ @ + - "
            "(starting with a letter or digit)"
        )
    return name


def _digest(salt: str, secret: str) -> str:
    return hashlib.sha256(bytes.fromhex(salt) + secret.encode()).hexdigest()


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class TeamTokens:
    """The token file of a team server's home: issue, list, revoke and verify."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._seen: tuple[int, int] | None = None
        self._records: dict[str, TokenRecord] = {}

    def _load(self) -> dict[str, TokenRecord]:
        """The records, re-read whenever the file changed (size or mtime)."""
        try:
            stat = self.path.stat()
        except FileNotFoundError:
            self._seen, self._records = None, {}
            return self._records
        seen = (stat.st_mtime_ns, stat.st_size)
        if seen == self._seen:
            return self._records
        try:
            data = json.loads(self.path.read_text())
            records = {str(item["id"]): _record(item) for item in data["tokens"]}
        except (OSError, ValueError, KeyError, TypeError, InvalidArgumentError) as exc:
            raise InvalidArgumentError(
                f"the team token file {self.path} is not readable ({type(exc).__name__}); "
                "restore it from a backup or move it away and issue new tokens"
            ) from None
        self._seen, self._records = seen, records
        return records

    def _save(self, records: dict[str, TokenRecord]) -> None:
        ensure_private_dir(self.path.parent)
        payload = {"tokens": [r.as_json() for r in records.values()]}
        write_private_file(self.path, (json.dumps(payload, indent=1) + "\n").encode())
        self._seen = None

    def issue(
        self,
        user: str,
        projects: Iterable[str] = (),
        role: Role = Role.READ,
        max_projects: int = DEFAULT_MAX_PROJECTS,
    ) -> tuple[TokenRecord, str]:
        """A new token for `user` granted `role` on `projects`: its record and the token text
        (shown once, never stored)."""
        name = check_user(user)
        patterns = check_patterns(projects)
        limit = check_max_projects(max_projects)
        with self._lock:
            records = dict(self._load())
            token_id = secrets.token_hex(6)
            while token_id in records:
                token_id = secrets.token_hex(6)
            secret = secrets.token_urlsafe(32)
            salt = secrets.token_hex(16)
            record = TokenRecord(
                token_id, name, _now(), None, salt, _digest(salt, secret), role, patterns, limit
            )
            records[token_id] = record
            self._save(records)
        return record, f"{PREFIX}{token_id}_{secret}"

    def list(self) -> list[TokenRecord]:
        with self._lock:
            return sorted(self._load().values(), key=lambda r: (r.created_at, r.id))

    def revoke(self, token_id: str) -> TokenRecord:
        """Marks the token revoked (its record stays); unknown ids are NotFound."""
        with self._lock:
            records = dict(self._load())
            record = records.get(token_id.strip())
            if record is None:
                raise NotFoundError(
                    f"no team token has the id {token_id!r}; see `sqrl team token list`"
                )
            if record.active:
                record = replace(record, revoked_at=_now())
                records[record.id] = record
                self._save(records)
            return record

    def grant(
        self,
        token_id: str,
        projects: Iterable[str] | None = None,
        role: Role | None = None,
        max_projects: int | None = None,
    ) -> TokenRecord:
        """Changes a token's grant (what is not given stays); effective on its next request."""
        with self._lock:
            records = dict(self._load())
            record = records.get(token_id.strip())
            if record is None:
                raise NotFoundError(
                    f"no team token has the id {token_id!r}; see `sqrl team token list`"
                )
            limit = record.max_projects if max_projects is None else max_projects
            record = replace(
                record,
                projects=record.projects if projects is None else check_patterns(projects),
                role=record.role if role is None else role,
                max_projects=check_max_projects(limit),
            )
            records[record.id] = record
            self._save(records)
            return record

    def user_of(self, token: str) -> str | None:
        """The user a presented token belongs to; None when malformed, unknown or revoked."""
        grant = self.grant_of(token)
        return None if grant is None else grant.user

    def grant_of(self, token: str) -> Grant | None:
        """What a presented token may do; None when malformed, unknown or revoked."""
        match = _TOKEN.match(token)
        if match is None:
            return None
        token_id, secret = match.groups()
        with self._lock:
            record = self._load().get(token_id)
        if record is None:
            # Same work as a real check, so timing does not tell which ids exist.
            hmac.compare_digest(_digest("00" * 16, secret), "0" * 64)
            return None
        good = hmac.compare_digest(_digest(record.salt, secret), record.digest)
        return record.grant if good and record.active else None
