"""Storage of a project's events and memories: the contract (`base`) and its backends.

Callers import from here: the `Store` contract, the values it exchanges, and the backends
(`SqliteStore`, embedded, one file per project).
"""

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
from squirrel_memory.storage.sqlite.store import ProjectStores, SqliteStore

__all__ = [
    "AppendResult",
    "DeadLetter",
    "EventLog",
    "HistoryAction",
    "MemoryBook",
    "MemoryChange",
    "MemoryListener",
    "MemorySearch",
    "ProcessingResult",
    "ProjectStores",
    "RejectReason",
    "SqliteStore",
    "Store",
    "Upkeep",
    "ViewMeta",
    "fts_match_expression",
]
