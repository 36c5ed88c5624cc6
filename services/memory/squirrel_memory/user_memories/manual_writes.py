"""The user's own memories (`remember`, one or a batch): each statement checked, its secrets
redacted and its defaults filled, the batch written in one transaction (rules in `manual.py`);
a user-wide style is also kept in the user store."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from squirrel_core.errors import InvalidArgumentError, SquirrelError
from squirrel_core.redaction import redact
from squirrel_memory.models import MemorySource, MemoryType, Scope
from squirrel_memory.registry import ProjectRegistry
from squirrel_memory.storage import Store
from squirrel_memory.storage.checks import MAX_PATH_CHARS
from squirrel_memory.user_memories import manual
from squirrel_memory.user_memories.userstore import SqliteUserStore

MANUAL_IMPORTANCE = 0.8
#: Limits of one `remember_many` call (more is refused whole, before anything is written).
MAX_REMEMBER_BATCH = 1_000
MAX_REMEMBER_BATCH_BYTES = 8 * 2**20
#: The most files one manual memory may name (as the gateway's scope paths).
MAX_REMEMBER_PATHS = 100
#: A Windows drive (`C:/...`): absolute too.
_DRIVE = re.compile(r"^[A-Za-z]:(/|$)")


class ManualWrites:
    """Writes the user's own memories into the project stores of `registry`."""

    def __init__(
        self, registry: ProjectRegistry, user_store: Callable[[], SqliteUserStore], user_id: str
    ) -> None:
        self._registry = registry
        self._user_store = user_store
        self._user_id = user_id

    async def remember(
        self,
        project_id: str,
        *,
        user_id: str,
        memory_type: MemoryType,
        key: str,
        content: str,
        tags: Sequence[str],
        importance: float,
        scope: Scope,
        file_paths: Sequence[str] = (),
    ) -> manual.Remembered:
        """Adds, updates or merges a manual memory (rules in `manual.py`)."""
        statement = manual.Statement(
            user_id, memory_type, key, content, tuple(tags), importance, scope, tuple(file_paths)
        )
        [done] = await self.remember_many(project_id, [statement])
        if isinstance(done, SquirrelError):
            raise done
        return done

    async def remember_many(
        self, project_id: str, items: Sequence[manual.Statement | SquirrelError]
    ) -> list[manual.Remembered | SquirrelError]:
        """`remember` for each item in order, in one write transaction; an item that is
        already an error (refused at the edge), or that is refused here, keeps its error in
        its slot and the others are still written."""
        if len(items) > MAX_REMEMBER_BATCH:
            raise InvalidArgumentError(f"at most {MAX_REMEMBER_BATCH:,} items per call")
        size = sum(_text_bytes(s) for s in items if isinstance(s, manual.Statement))
        if size > MAX_REMEMBER_BATCH_BYTES:
            raise InvalidArgumentError(
                f"at most {MAX_REMEMBER_BATCH_BYTES // 2**20} MiB of text per call"
            )
        results: list[manual.Remembered | SquirrelError | None] = [
            item if isinstance(item, SquirrelError) else None for item in items
        ]
        slots: list[int] = []
        statements: list[manual.Statement] = []
        for n, item in enumerate(items):
            if isinstance(item, SquirrelError):
                continue
            try:
                statements.append(self._checked(item))
                slots.append(n)
            except SquirrelError as exc:
                results[n] = exc
        if statements:
            store = await self._registry.store(project_id)
            await self._remember_checked(store, project_id, slots, statements, results)
        finished = [r for r in results if r is not None]
        if len(finished) != len(results):
            raise RuntimeError("an item was left without an answer")
        return finished

    async def _remember_checked(
        self,
        store: Store,
        project_id: str,
        slots: Sequence[int],
        statements: Sequence[manual.Statement],
        results: list[manual.Remembered | SquirrelError | None],
    ) -> None:
        done = await manual.remember_many(store, project_id, statements)
        for n, statement, outcome in zip(slots, statements, done, strict=True):
            results[n] = outcome
            if (
                isinstance(outcome, manual.Remembered)
                and statement.memory_type is MemoryType.USER_STYLE
                and statement.scope is Scope.USER
            ):
                await self._user_store().merge_user_style(
                    statement.user_id,
                    key=outcome.memory.key,
                    content=statement.content,
                    tags=list(statement.tags),
                    importance=outcome.memory.importance,
                    source=MemorySource.MANUAL,
                )

    def _checked(self, statement: manual.Statement) -> manual.Statement:
        """The statement with its secrets redacted, its files checked and its defaults filled
        in."""
        if not statement.content.strip():
            raise InvalidArgumentError("content is required")
        if not 0.0 <= statement.importance <= 1.0:
            raise InvalidArgumentError("importance must be between 0 and 1")
        clean, _ = redact(statement.content)
        return replace(
            statement,
            user_id=statement.user_id or self._user_id,
            content=clean,
            importance=statement.importance or MANUAL_IMPORTANCE,
            file_paths=project_paths(statement.file_paths),
        )


def project_paths(paths: Sequence[str]) -> tuple[str, ...]:
    """`paths` as project-relative POSIX paths (globs allowed), order kept, repeats dropped.

    Whoever sends them (the gateway makes them relative; a team server gets them from other
    laptops), an empty entry, a NUL byte, an absolute path or a `..` that climbs out of the
    project is refused, naming the entry: nothing is written.
    """
    if len(paths) > MAX_REMEMBER_PATHS:
        raise InvalidArgumentError(
            f"file_paths may list at most {MAX_REMEMBER_PATHS} paths (got {len(paths)})"
        )
    kept: dict[str, None] = {}
    for raw in paths:
        text = raw.strip().replace("\\", "/")
        if not text or "\x00" in text or len(text) > MAX_PATH_CHARS:
            raise InvalidArgumentError(
                f"file_paths entry {raw!r} is not a path (empty, a NUL byte, or over"
                f" {MAX_PATH_CHARS} characters)"
            )
        normal = posixpath.normpath(text)
        if normal.startswith("/") or _DRIVE.match(normal):
            raise InvalidArgumentError(
                f"file_paths entry {raw!r} is absolute; send paths relative to the project root"
            )
        if normal == ".." or normal.startswith("../"):
            raise InvalidArgumentError(
                f"file_paths entry {raw!r} climbs out of the project with '..'; send paths"
                " inside the project, relative to its root"
            )
        kept.setdefault(normal, None)
    return tuple(kept)


def _text_bytes(statement: manual.Statement) -> int:
    return (
        len(statement.content.encode())
        + len(statement.key.encode())
        + sum(len(tag.encode()) for tag in statement.tags)
        + sum(len(path.encode()) for path in statement.file_paths)
    )
