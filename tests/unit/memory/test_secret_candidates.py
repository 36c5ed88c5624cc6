"""No memory gives a secret a value, whatever rule found it: a candidate whose command assigns
a secret (by its name, or a value ingest redacted) is decided away; one that does not is
decided as ever."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from squirrel_memory.candidate_decisions import decide_candidates
from squirrel_memory.models import MemoryCandidate, MemoryItem, MemoryType, UpdateDecision
from squirrel_memory.storage import SqliteStore
from squirrel_memory.updates import decide_update

NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


async def _decide(candidate: MemoryCandidate, existing: list[MemoryItem]) -> UpdateDecision:
    return decide_update(candidate, existing)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    root = tmp_path / "proj"
    root.mkdir()
    opened = await SqliteStore.open(str(root.resolve()), clock=lambda: NOW)
    yield opened
    await opened.close()


def _recipe(key: str, content: str) -> MemoryCandidate:
    return MemoryCandidate(MemoryType.RECIPE, key, content, ("recipe",), 0.6, ())


@pytest.mark.parametrize(
    "content",
    [
        "At the end of a session: `make smoke SESSION_COOKIE=c00k13Vq7Lp2 TIMEOUT=30`.",
        "To deploy: `terraform apply -var 'db_password=[REDACTED:secret_assignment]' -var r=eu`.",
    ],
)
async def test_a_command_that_assigns_a_secret_is_not_kept(
    store: SqliteStore, content: str
) -> None:
    decisions = await decide_candidates(
        store,
        [_recipe("recipe:deploy", content), _recipe("recipe:test", "`make CC=clang test`")],
        "dev",
        _decide,
    )
    assert [d.candidate.key for d in decisions] == ["recipe:test"]


async def test_plain_assignments_are_kept(store: SqliteStore) -> None:
    content = "To deploy: `terraform apply -var env=staging -auto-approve`."
    decisions = await decide_candidates(store, [_recipe("recipe:deploy", content)], "dev", _decide)
    assert [d.candidate.content for d in decisions] == [content]
