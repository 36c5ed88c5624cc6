"""What every store holds beside its parts, for both backends: its project, clock, size limit,
change listeners and the confirmations kept in its local folder."""

from __future__ import annotations

from pathlib import Path

from squirrel_memory.storage.checks import MAX_CONTENT_BYTES, Clock, utc_now
from squirrel_memory.storage.values import MemoryListener
from squirrel_memory.user_memories.confirmations import Confirmations


class SharedStore:
    """The fields of a store (the last base of `SqliteStore` and `PostgresStore`); the backend
    says where its local folder is (`store_dir`)."""

    def __init__(
        self, project_id: str, *, clock: Clock = utc_now, max_content_bytes: int = MAX_CONTENT_BYTES
    ) -> None:
        self.project_id = project_id
        self._clock = clock
        self._max_content_bytes = max_content_bytes
        self._listeners: list[MemoryListener] = []
        self._confirmations: Confirmations | None = None

    @property
    def store_dir(self) -> Path:
        raise NotImplementedError

    @property
    def confirmations(self) -> Confirmations:
        """The flagged memories of this project the user confirmed."""
        if self._confirmations is None:
            self._confirmations = Confirmations(self.store_dir)
        return self._confirmations
