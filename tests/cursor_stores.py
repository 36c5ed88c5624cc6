"""Cursor `User` folders built as Cursor lays them out: real SQLite stores, made by the test.

Layout (as documented publicly for Cursor's VS Code-based storage): `globalStorage/state.vscdb`
holds `ItemTable(key, value)` and `cursorDiskKV(key, value)`, with rows
`composerData:<composer>` (the chat and its bubble headers) and `bubbleId:<composer>:<bubble>`
(one message); `workspaceStorage/<hash>/workspace.json` names the folder, and that folder's
`state.vscdb` lists its chats in `ItemTable` row `composer.composerData`.
"""

from __future__ import annotations

import itertools
import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TABLE_SQL = "CREATE TABLE {name} (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)"
T0 = 1_790_000_000_000  # ms, an arbitrary fixed time
_CALL_IDS = itertools.count(1)


def user_bubble(bubble_id: str, text: str, minute: int = 0) -> dict[str, Any]:
    return {"_v": 3, "type": 1, "bubbleId": bubble_id, "text": text, "createdAt": _iso(minute)}


def assistant_bubble(
    bubble_id: str, text: str = "", minute: int = 0, tool: dict[str, Any] | None = None
) -> dict[str, Any]:
    bubble: dict[str, Any] = {
        "_v": 3,
        "type": 2,
        "bubbleId": bubble_id,
        "text": text,
        "createdAt": _iso(minute),
    }
    if tool is not None:
        bubble["toolFormerData"] = tool
    return bubble


def tool(
    name: str,
    params: dict[str, Any],
    result: Any = None,
    status: str = "completed",
    call_id: str | None = None,
) -> dict[str, Any]:
    """A `toolFormerData` block: params and result are JSON text, as Cursor stores them."""
    return {
        "tool": 15,
        "name": name,
        "toolCallId": call_id or f"toolu_{name}_{next(_CALL_IDS)}",
        "status": status,
        "params": json.dumps(params),
        "result": json.dumps(result) if result is not None else None,
        "additionalData": {},
    }


def _iso(minute: int) -> str:
    return f"2026-09-28T07:{minute:02d}:00.000Z"


@dataclass
class CursorFolder:
    """A Cursor `User` folder with its global store; chats are added and grown in place."""

    root: Path
    wal: bool = True
    workspaces: dict[str, Path] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.global_store.parent.mkdir(parents=True, exist_ok=True)
        with self._connect(self.global_store) as db:
            db.execute(TABLE_SQL.format(name="ItemTable"))
            db.execute(TABLE_SQL.format(name="cursorDiskKV"))
            # Secrets live in the global ItemTable; the reader must never need them.
            db.execute(
                "INSERT INTO ItemTable VALUES ('cursorAuth/accessToken', 'made-up-not-a-token')"
            )
        db.close()

    @property
    def global_store(self) -> Path:
        return self.root / "globalStorage" / "state.vscdb"

    def _connect(self, path: Path) -> sqlite3.Connection:
        db = sqlite3.connect(path)
        if self.wal:
            db.execute("PRAGMA journal_mode=WAL")
        return db

    def workspace(self, name: str, folder_uri: str | None, composers: list[str]) -> Path:
        """A workspace folder whose `workspace.json` says `folder_uri`, listing `composers`."""
        folder = self.root / "workspaceStorage" / name
        folder.mkdir(parents=True, exist_ok=True)
        if folder_uri is not None:
            (folder / "workspace.json").write_text(json.dumps({"folder": folder_uri}))
        store = folder / "state.vscdb"
        new = not store.exists()
        with self._connect(store) as db:
            if new:
                db.execute(TABLE_SQL.format(name="ItemTable"))
                db.execute(TABLE_SQL.format(name="cursorDiskKV"))
            listed = {"allComposers": [{"composerId": c, "lastUpdatedAt": T0} for c in composers]}
            db.execute(
                "INSERT INTO ItemTable VALUES ('composer.composerData', ?)", (json.dumps(listed),)
            )
        db.close()
        self.workspaces[name] = folder
        return folder

    def chat(
        self,
        composer_id: str,
        bubbles: list[dict[str, Any]],
        *,
        status: str = "completed",
        extra: dict[str, Any] | None = None,
        headers: list[str] | None = None,
    ) -> None:
        """Writes (or rewrites) a chat: its bubbles as rows, then its composer with headers."""
        with self._connect(self.global_store) as db:
            for bubble in bubbles:
                db.execute(
                    "INSERT INTO cursorDiskKV VALUES (?, ?)",
                    (f"bubbleId:{composer_id}:{bubble['bubbleId']}", json.dumps(bubble)),
                )
            ids = headers if headers is not None else [b["bubbleId"] for b in bubbles]
            self.set_composer(db, composer_id, ids, status, extra)
        db.close()

    def append(self, composer_id: str, bubbles: list[dict[str, Any]], **kwargs: Any) -> None:
        """Adds bubbles to the end of a chat, as Cursor does while a conversation goes on."""
        known = self.headers(composer_id)
        self.chat(composer_id, bubbles, headers=known + [b["bubbleId"] for b in bubbles], **kwargs)

    def headers(self, composer_id: str) -> list[str]:
        value = self.raw(f"composerData:{composer_id}")
        if value is None:
            return []
        return [h["bubbleId"] for h in json.loads(value)["fullConversationHeadersOnly"]]

    def set_composer(
        self,
        db: sqlite3.Connection,
        composer_id: str,
        ids: list[str],
        status: str = "completed",
        extra: dict[str, Any] | None = None,
    ) -> None:
        composer = {
            "_v": 10,
            "composerId": composer_id,
            "name": "a chat",
            "createdAt": T0,
            "lastUpdatedAt": T0 + len(ids),
            "status": status,
            "fullConversationHeadersOnly": [{"bubbleId": b, "type": 1} for b in ids],
            "conversationMap": {},
            "blobEncryptionKey": "made-up-not-a-key",
            **(extra or {}),
        }
        db.execute(
            "INSERT INTO cursorDiskKV VALUES (?, ?)",
            (f"composerData:{composer_id}", json.dumps(composer)),
        )

    def put_raw(self, key: str, value: str | bytes | None) -> None:
        with self._connect(self.global_store) as db:
            db.execute("INSERT INTO cursorDiskKV VALUES (?, ?)", (key, value))
        db.close()

    def raw(self, key: str) -> str | None:
        with sqlite3.connect(self.global_store) as db:
            row = db.execute("SELECT value FROM cursorDiskKV WHERE key = ?", (key,)).fetchone()
        db.close()
        return row[0] if row else None
