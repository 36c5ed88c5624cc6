"""Storage of a project's events and memories: the contract (`base`) and its backends.

Callers import from here: the `Store` contract, the values it exchanges, and the backends
(`SqliteStore`, embedded, one file per project; `PostgresStore`, one shared database, in
`storage.postgres`, imported only when `storage.backend` is postgres), chosen by
`backend_from_settings` and opened per project by `ProjectStores`.
"""

from squirrel_memory.storage.backends import (
    PostgresBackend,
    ProjectStores,
    SqliteBackend,
    StoreBackend,
    backend_from_settings,
)
from squirrel_memory.storage.base import (
    AppendResult,
    DeadLetter,
    EventLog,
    HistoryAction,
    MemoryBook,
    MemoryChange,
    MemoryListener,
    MemorySearch,
    ProcessingResult,
    Store,
    Upkeep,
    ViewMeta,
)
from squirrel_memory.storage.checks import RejectReason
from squirrel_memory.storage.sqlite.search import fts_match_expression
from squirrel_memory.storage.sqlite.store import SqliteStore

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
    "SqliteBackend",
    "SqliteStore",
    "Store",
    "StoreBackend",
    "Upkeep",
    "ViewMeta",
    "backend_from_settings",
    "fts_match_expression",
]
