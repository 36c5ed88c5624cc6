"""The global `user.db`: one user's style memories across projects, with their history."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

import structlog

from squirrel_core.errors import InvalidArgumentError, NotFoundError
from squirrel_core.files import ensure_private_dir
from squirrel_core.store_paths import user_db_path
from squirrel_memory.models import MemorySource
from squirrel_memory.storage.checks import (
    MAX_KEY_CHARS,
    MAX_MEMORY_CHARS,
    Clock,
    check_importance,
    check_tags,
    check_text,
    utc_now,
)
from squirrel_memory.storage.formats import from_db_time, json_strings, new_id, to_db_time, to_json
from squirrel_memory.storage.sqlite.database import SqliteDatabase
from squirrel_memory.storage.sqlite.schema import USER_MIGRATIONS

log = structlog.get_logger()

_SELECT_ITEM = (
    "SELECT id, user_id, key, content, tags, importance, created_at, updated_at, source "
    "FROM user_style_items "
)


@dataclass(frozen=True, slots=True)
class UserStyleItem:
    """A `user_style_items` row: how this user likes to work, in every project."""

    id: str
    user_id: str
    key: str
    content: str
    tags: tuple[str, ...]
    importance: float
    created_at: datetime
    updated_at: datetime
    source: MemorySource


@dataclass(frozen=True, slots=True)
class UserStyleVersion:
    """One version of a user style item, oldest first in `history`."""

    item_id: str
    version: int
    action: str
    content: str
    tags: tuple[str, ...]
    importance: float
    source: MemorySource
    changed_at: datetime
    reason: str


class UserStore(Protocol):
    """What the memory engine needs from the global user style store."""

    async def merge_user_style(
        self,
        user_id: str,
        *,
        key: str,
        content: str,
        tags: Sequence[str],
        importance: float,
        source: MemorySource,
    ) -> UserStyleItem: ...
    async def list_user_style(self, user_id: str) -> list[UserStyleItem]: ...
    async def user_style_history(self, item_id: str) -> list[UserStyleVersion]: ...
    async def close(self) -> None: ...


def _item(row: Sequence[Any]) -> UserStyleItem:
    return UserStyleItem(
        id=row[0],
        user_id=row[1],
        key=row[2],
        content=row[3],
        tags=json_strings(row[4]),
        importance=float(row[5]),
        created_at=from_db_time(row[6]),
        updated_at=from_db_time(row[7]),
        source=MemorySource(row[8]),
    )


def _write_history(conn: sqlite3.Connection, item: UserStyleItem, action: str, reason: str) -> None:
    row = conn.execute(
        "SELECT COALESCE(MAX(version), 0) + 1 FROM user_style_history WHERE item_id = ?",
        (item.id,),
    ).fetchone()
    conn.execute(
        "INSERT INTO user_style_history VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            item.id,
            int(row[0]),
            action,
            item.user_id,
            item.key,
            item.content,
            to_json(list(item.tags)),
            item.importance,
            str(item.source),
            to_db_time(item.updated_at),
            reason,
        ),
    )


class SqliteUserStore:
    """`UserStore` over `<squirrel home>/user.db` (one writer thread, pooled readers)."""

    def __init__(self, db: SqliteDatabase, *, clock: Clock = utc_now) -> None:
        self._db = db
        self._clock = clock
        self._listeners: list[Callable[[], None]] = []

    def on_change(self, listener: Callable[[], None]) -> None:
        """Call `listener()` after every merge that changed an item."""
        self._listeners.append(listener)

    @classmethod
    async def open(cls, home: Path, *, clock: Clock = utc_now) -> SqliteUserStore:
        """Open (creating and migrating as needed) `<home>/user.db`; `home` is made 0700."""
        ensure_private_dir(home)
        db = SqliteDatabase(user_db_path(home), USER_MIGRATIONS, readers=1)
        try:
            await db.open()
        except BaseException:
            await db.close()
            raise
        return cls(db, clock=clock)

    @property
    def path(self) -> Path:
        """The database file."""
        return self._db.path

    async def close(self) -> None:
        """Finish queued writes and close the database."""
        await self._db.close()

    async def merge_user_style(
        self,
        user_id: str,
        *,
        key: str,
        content: str,
        tags: Sequence[str],
        importance: float,
        source: MemorySource,
    ) -> UserStyleItem:
        """Insert or update the item `(user_id, key)`, keeping every version in history.

        Extraction never overwrites a manual item: a non-manual merge onto a manual item returns
        it unchanged. A merge that changes nothing writes nothing.
        """
        user_id = check_text("user_id", user_id, MAX_KEY_CHARS)
        key = check_text("key", key, MAX_KEY_CHARS).strip()
        content = check_text("content", content, MAX_MEMORY_CHARS).strip()
        checked_tags = check_tags(tags)
        checked_importance = check_importance(importance)
        try:
            checked_source = MemorySource(source)
        except ValueError as exc:
            raise InvalidArgumentError("unknown memory source") from exc
        now = self._clock()

        def write(conn: sqlite3.Connection) -> tuple[UserStyleItem, str]:
            row = conn.execute(
                _SELECT_ITEM + "WHERE user_id = ? AND key = ?", (user_id, key)
            ).fetchone()
            if row is None:
                item = UserStyleItem(
                    new_id("usr"),
                    user_id,
                    key,
                    content,
                    checked_tags,
                    checked_importance,
                    now,
                    now,
                    checked_source,
                )
                conn.execute(
                    "INSERT INTO user_style_items VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        item.id,
                        user_id,
                        key,
                        content,
                        to_json(list(checked_tags)),
                        checked_importance,
                        to_db_time(now),
                        to_db_time(now),
                        str(checked_source),
                    ),
                )
                _write_history(conn, item, "created", str(checked_source))
                return item, "created"
            old = _item(row)
            if old.source is MemorySource.MANUAL and checked_source is not MemorySource.MANUAL:
                return old, "kept_manual"
            if (old.content, old.tags, old.importance, old.source) == (
                content,
                checked_tags,
                checked_importance,
                checked_source,
            ):
                return old, "unchanged"
            new = UserStyleItem(
                old.id,
                user_id,
                key,
                content,
                checked_tags,
                checked_importance,
                old.created_at,
                now,
                checked_source,
            )
            conn.execute(
                "UPDATE user_style_items SET content = ?, tags = ?, importance = ?, "
                "updated_at = ?, source = ? WHERE id = ?",
                (
                    content,
                    to_json(list(checked_tags)),
                    checked_importance,
                    to_db_time(now),
                    str(checked_source),
                    old.id,
                ),
            )
            _write_history(conn, new, "updated", str(checked_source))
            return new, "updated"

        item, outcome = await self._db.write(write)
        log.info("user_style_merged", item_id=item.id, outcome=outcome)
        if outcome in ("created", "updated"):
            for listener in self._listeners:
                listener()
        return item

    async def list_user_style(self, user_id: str) -> list[UserStyleItem]:
        """Every style item of `user_id`, most important first."""
        rows = await self._db.read(
            lambda conn: conn.execute(
                _SELECT_ITEM + "WHERE user_id = ? ORDER BY importance DESC, key",
                (user_id,),
            ).fetchall()
        )
        return [_item(r) for r in rows]

    async def user_style_history(self, item_id: str) -> list[UserStyleVersion]:
        """Every version of one item, oldest first; `NotFoundError` if unknown."""
        rows = await self._db.read(
            lambda conn: conn.execute(
                "SELECT item_id, version, action, content, tags, importance, source, "
                "changed_at, reason FROM user_style_history WHERE item_id = ? ORDER BY version",
                (item_id,),
            ).fetchall()
        )
        if not rows:
            raise NotFoundError(f"no user style item {item_id}")
        return [
            UserStyleVersion(
                r[0],
                int(r[1]),
                r[2],
                r[3],
                json_strings(r[4]),
                float(r[5]),
                MemorySource(r[6]),
                from_db_time(r[7]),
                r[8],
            )
            for r in rows
        ]
