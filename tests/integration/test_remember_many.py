"""`RememberMany` over real gRPC: the answers `Remember` gives one by one, per-item errors,
limits, redaction and retries."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_core.caller import serving_team_user
from squirrel_core.clients import MemoryClient
from squirrel_core.errors import InvalidArgumentError, NotFoundError, PermissionDeniedError
from squirrel_core.settings import Settings
from squirrel_memory import server as memory_server
from squirrel_memory.convert import statement_from_pb
from squirrel_memory.user_memories.manual import Statement
from squirrel_memory.user_memories.manual_writes import MAX_REMEMBER_BATCH, MAX_REMEMBER_BATCH_BYTES
from tests.integration.conftest import memory_client, running

FACT = memory_pb2.MEMORY_TYPE_PROJECT_FACT
STYLE = memory_pb2.MEMORY_TYPE_USER_STYLE


def _items(project: str) -> list[pb.RememberRequest]:
    """A sequence whose answers depend on the items before it."""
    return [
        pb.RememberRequest(project_id=project, type=FACT, key="database", content="Uses SQLite 3."),
        pb.RememberRequest(type=FACT, key="database", content="Uses PostgreSQL 16 via asyncpg."),
        pb.RememberRequest(type=FACT, content="Deploys run through the GitHub Actions workflow."),
        pb.RememberRequest(type=FACT, content="Deploys run through the GitHub Actions workflow!"),
        pb.RememberRequest(type=FACT, key="database", content="Uses PostgreSQL 16 via asyncpg."),
        pb.RememberRequest(type=STYLE, content="Prefers short commit messages in English."),
        pb.RememberRequest(type=FACT, content="Deploys run through the GitHub Actions workflow."),
    ]


async def _register(c: MemoryClient, root: Path) -> str:
    root.mkdir()
    await c.call(c.stub.RegisterProject, pb.RegisterProjectRequest(root=str(root.resolve())))
    return str(root.resolve())


async def _live(c: MemoryClient, project: str) -> list[tuple[str, str]]:
    found = await c.call(
        c.stub.ListMemories, pb.ListMemoriesRequest(project_id=project, page_size=500)
    )
    return sorted((m.key, m.content) for m in found.memories)


async def test_a_batch_answers_each_item_as_remember_one_by_one_would(
    make_settings: Callable[..., Settings], tmp_path: Path
) -> None:
    settings = make_settings()
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        alone = await _register(c, tmp_path / "alone")
        batched = await _register(c, tmp_path / "batched")
        singles = []
        for item in _items(alone):
            item.project_id = alone
            singles.append(await c.call(c.stub.Remember, item))
        reply = await c.call(
            c.stub.RememberMany, pb.RememberManyRequest(project_id=batched, items=_items(batched))
        )
        assert [r.WhichOneof("result") for r in reply.results] == ["remembered"] * len(singles)
        many = [r.remembered for r in reply.results]
        assert [r.outcome for r in many] == [r.outcome for r in singles]
        assert [r.updated for r in many] == [r.updated for r in singles]
        assert [(r.memory.key, r.memory.content) for r in many] == [
            (r.memory.key, r.memory.content) for r in singles
        ]
        assert [len(r.merged_ids) for r in many] == [len(r.merged_ids) for r in singles]
        # The sequence exercises every answer, so the comparison above means something.
        assert {r.outcome for r in many} == {
            pb.REMEMBER_OUTCOME_ADDED,
            pb.REMEMBER_OUTCOME_UPDATED,
            pb.REMEMBER_OUTCOME_MERGED,
            pb.REMEMBER_OUTCOME_UNCHANGED,
        }
        assert many[3].merged_ids == [many[2].memory.memory_id]
        assert await _live(c, batched) == await _live(c, alone)


async def test_a_bad_item_gets_its_own_error_and_the_others_are_written(
    make_settings: Callable[..., Settings], tmp_path: Path
) -> None:
    settings = make_settings()
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        project = await _register(c, tmp_path / "proj")
        items = [
            pb.RememberRequest(type=FACT, key="one", content="The API listens on port 8080."),
            pb.RememberRequest(type=FACT, key="empty", content="   "),
            pb.RememberRequest(type=FACT, key="two", content="Tests run with pytest -x."),
            pb.RememberRequest(type=memory_pb2.MEMORY_TYPE_UNSPECIFIED, content="No type."),
            pb.RememberRequest(type=FACT, key="heavy", content="Too important.", importance=2),
            pb.RememberRequest(project_id="/elsewhere", type=FACT, content="Another project."),
            pb.RememberRequest(type=FACT, key="huge", content="x" * 20_000),
            pb.RememberRequest(type=FACT, key="k" * 600, content="A key far too long."),
            pb.RememberRequest(type=FACT, key="three", content="Logs go to stderr as JSON."),
        ]
        reply = await c.call(
            c.stub.RememberMany, pb.RememberManyRequest(project_id=project, items=items)
        )
        kinds = [r.WhichOneof("result") for r in reply.results]
        assert kinds == ["remembered", *["error"] * 1, "remembered", *["error"] * 5, "remembered"]
        for result in reply.results:
            if result.HasField("error"):
                assert result.error.code == "INVALID_ARGUMENT" and result.error.message
        assert [k for k, _ in await _live(c, project)] == ["one", "three", "two"]


async def test_limits_refuse_the_whole_batch_before_anything_is_written(
    make_settings: Callable[..., Settings], tmp_path: Path
) -> None:
    settings = make_settings()
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        project = await _register(c, tmp_path / "proj")
        too_many = [
            pb.RememberRequest(type=FACT, key=f"k{n}", content=f"Fact number {n}.")
            for n in range(MAX_REMEMBER_BATCH + 1)
        ]
        with pytest.raises(InvalidArgumentError, match="items per call"):
            await c.call(
                c.stub.RememberMany, pb.RememberManyRequest(project_id=project, items=too_many)
            )
        chunk = 15_000
        too_big = [
            pb.RememberRequest(type=FACT, key=f"k{n}", content=f"{n} " + "y" * chunk)
            for n in range(MAX_REMEMBER_BATCH_BYTES // chunk + 1)
        ]
        with pytest.raises(InvalidArgumentError, match="MiB of text"):
            await c.call(
                c.stub.RememberMany, pb.RememberManyRequest(project_id=project, items=too_big)
            )
        assert await _live(c, project) == []
        empty = await c.call(c.stub.RememberMany, pb.RememberManyRequest(project_id=project))
        assert list(empty.results) == []
        with pytest.raises(NotFoundError):
            await c.call(
                c.stub.RememberMany,
                pb.RememberManyRequest(
                    project_id=str(tmp_path / "unregistered"), items=too_many[:1]
                ),
            )


async def test_secrets_are_redacted_and_a_retried_batch_adds_nothing(
    make_settings: Callable[..., Settings], tmp_path: Path
) -> None:
    settings = make_settings()
    secret = "sk-ant-api03-" + "Zq7" * 30
    async with (
        running("memory", memory_server.setup, settings) as svc,
        memory_client(svc, settings) as c,
    ):
        project = await _register(c, tmp_path / "proj")
        request = pb.RememberManyRequest(
            project_id=project,
            items=[
                pb.RememberRequest(type=FACT, key="token", content=f"The key is {secret} here."),
                pb.RememberRequest(type=FACT, content="Migrations live in db/migrations."),
            ],
        )
        first = await c.call(c.stub.RememberMany, request)
        assert secret not in first.results[0].remembered.memory.content
        again = await c.call(c.stub.RememberMany, request)
        assert [r.remembered.outcome for r in again.results] == [pb.REMEMBER_OUTCOME_UNCHANGED] * 2
        assert [r.remembered.memory.memory_id for r in again.results] == [
            r.remembered.memory.memory_id for r in first.results
        ]
        assert len(await _live(c, project)) == 2
    for file in (Path(project) / ".ctx").rglob("*"):
        if file.is_file():
            assert secret.encode() not in file.read_bytes()


def test_on_a_team_server_an_item_is_the_callers_own() -> None:
    with serving_team_user("alice"):
        own = statement_from_pb("/p", pb.RememberRequest(type=FACT, content="Uses Postgres."))
        named = statement_from_pb(
            "/p", pb.RememberRequest(user_id="alice", type=FACT, content="Uses Postgres.")
        )
        other = statement_from_pb(
            "/p", pb.RememberRequest(user_id="bob", type=FACT, content="Uses Postgres.")
        )
    assert isinstance(own, Statement) and own.user_id == "alice"
    assert isinstance(named, Statement) and named.user_id == "alice"
    assert isinstance(other, PermissionDeniedError)
    local = statement_from_pb("/p", pb.RememberRequest(user_id="bob", type=FACT, content="x"))
    assert isinstance(local, Statement) and local.user_id == "bob"
