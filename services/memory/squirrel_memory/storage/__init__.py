"""Storage of a project's events and memories: the contract (`base`) and its backends.

Callers import from here: the `Store` contract, the values it exchanges, and the backends
(`SqliteStore`, embedded, one file per project; `PostgresStore`, one shared database, in
`storage.postgres`, imported only when `storage.backend` is postgres), chosen by
`backend_from_settings` and opened per project by `ProjectStores`.

The names load on first use: `sqrl up` and `sqrl init` create the home's `user.db` through
`storage.sqlite.migrator` and must not pay for the vector index (FAISS, NumPy) the backends bring.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from squirrel_memory.storage.backends import (
        PostgresBackend,
        ProjectStores,
        SqliteBackend,
        StoreBackend,
        backend_from_settings,
    )
    from squirrel_memory.storage.base import EventLog, MemoryBook, MemorySearch, Store, Upkeep
    from squirrel_memory.storage.checks import RejectReason
    from squirrel_memory.storage.sqlite.search import fts_match_expression
    from squirrel_memory.storage.sqlite.store import SqliteStore
    from squirrel_memory.storage.values import (
        AppendResult,
        DeadLetter,
        HistoryAction,
        MemoryChange,
        MemoryListener,
        ProcessingResult,
        Retirement,
        ViewMeta,
    )

_HOMES = {
    "squirrel_memory.storage.backends": (
        "PostgresBackend",
        "ProjectStores",
        "SqliteBackend",
        "StoreBackend",
        "backend_from_settings",
    ),
    "squirrel_memory.storage.base": (
        "EventLog",
        "MemoryBook",
        "MemorySearch",
        "Store",
        "Upkeep",
    ),
    "squirrel_memory.storage.values": (
        "AppendResult",
        "DeadLetter",
        "HistoryAction",
        "MemoryChange",
        "MemoryListener",
        "ProcessingResult",
        "Retirement",
        "ViewMeta",
    ),
    "squirrel_memory.storage.checks": ("RejectReason",),
    "squirrel_memory.storage.sqlite.search": ("fts_match_expression",),
    "squirrel_memory.storage.sqlite.store": ("SqliteStore",),
}
_MODULE_OF = {name: module for module, names in _HOMES.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "AppendResult",
    "DeadLetter",
    "EventLog",
    "HistoryAction",
    "MemoryBook",
    "MemoryChange",
    "MemoryListener",
    "MemorySearch",
    "PostgresBackend",
    "ProcessingResult",
    "ProjectStores",
    "RejectReason",
    "Retirement",
    "SqliteBackend",
    "SqliteStore",
    "Store",
    "StoreBackend",
    "Upkeep",
    "ViewMeta",
    "backend_from_settings",
    "fts_match_expression",
]


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
