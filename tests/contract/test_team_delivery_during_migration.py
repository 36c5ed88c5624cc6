"""A laptop delivering to a team server on Postgres while that server migrates its database at
start: it is told how far the migration is (not that the server is unreachable), its status and
its reads' fall-back line say so, and once the server serves every event is stored once, none
lost, none doubled."""

from __future__ import annotations

import asyncio
from pathlib import Path

import psycopg
import pytest

from squirrel.v1 import memory_pb2
from squirrel.v1 import memory_service_pb2 as pb
from squirrel_cli.memory_status import team_delivery
from squirrel_core.errors import UnavailableError
from squirrel_core.home import HomeLayout
from squirrel_core.service_info import read_starting
from squirrel_core.team_client import TeamLink, failure_reason, save_team_token, team_memory_client
from squirrel_core.team_grants import Role
from squirrel_core.team_tokens import TeamTokens
from squirrel_core.wire import event_to_pb
from squirrel_gateway.memory_backend import GrpcMemoryBackend
from squirrel_memory.storage.postgres import database as postgres_database
from squirrel_memory.storage.postgres.online import AfterBatch, Progress
from squirrel_memory.storage.postgres.schema import MIGRATIONS, migrate
from squirrel_memory.team.delivery import TeamDelivery, serving
from tests.integration.conftest import memory_client
from tests.integration.test_team_away import _context_notes, team_reads
from tests.integration.test_team_delivery import _events, _repo, _settings, unstarted
from tests.integration.test_team_delivery import serving as served
from tests.tls_certs import make_tls_files

from .test_postgres_online_migration import _back_to_7, _version_and_backfill

TEAM_ID = "github.com/acme/shop"
MIGRATING = "the team server is migrating its store: 40 % (2 of 5 memories) counted"
"""Five memories counted two a batch, held after the first batch."""


async def test_a_laptop_delivering_while_the_server_migrates_is_told_how_far_and_loses_nothing(
    tmp_path: Path, database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    tls = make_tls_files(tmp_path / "tls")
    server_settings = _settings(
        tmp_path / "server",
        serve_address="127.0.0.1:0",
        serve_tls_cert=str(tls.cert),
        serve_tls_key=str(tls.key),
        storage_backend="postgres",
        storage_postgres_dsn=database,
    )
    _, token = TeamTokens(HomeLayout(server_settings.home).team_tokens).issue(
        "alice", ["github.com/acme/*"], Role.ADMIN
    )
    laptop_settings = _settings(tmp_path / "laptop", general_user_id="alice")
    save_team_token(HomeLayout(laptop_settings.home).ensure(), token)
    repo = _repo(tmp_path / "clone", "git@github.com:acme/shop.git")

    # The migration of the server's next start waits after its first batch until released.
    counting = asyncio.Event()
    release = asyncio.Event()

    async def held(_upto: str | None) -> None:
        counting.set()
        await release.wait()

    async def slowed(
        conn: psycopg.AsyncConnection,
        after_batch: AfterBatch = held,
        progress: Progress | None = None,
    ) -> int:
        return await migrate(conn, batch_rows=2, after_batch=after_batch, progress=progress)

    async with (
        served(laptop_settings) as laptop,
        memory_client(laptop.service, laptop_settings) as local,
    ):
        await local.call(local.stub.RegisterProject, pb.RegisterProjectRequest(root=str(repo)))
        events = [event_to_pb(e) for e in _events(90)]
        await local.call(
            local.stub.AppendEvents,
            pb.AppendEventsRequest(project_id=str(repo), events=events[:40]),
        )
        engine = laptop.servicer.engine
        async with served(server_settings) as server:  # schema version 8; the first 40 go
            link = TeamLink(f"localhost:{server.service.team_port}", token, tls.ca, "alice-mbp")
            delivery = TeamDelivery(engine.registry.open_stores, link, interval=3600)
            assert (await delivery.deliver()).accepted == 40
            team = team_memory_client(link)
            for n in range(5):  # the memories the next start's migration counts
                await team.call(
                    team.stub.Remember,
                    pb.RememberRequest(
                        project_id=TEAM_ID,
                        type=memory_pb2.MEMORY_TYPE_RECIPE,
                        content=f"Step {n} of the release: run `make stage{n}` first.",
                    ),
                )
            await team.close()
        await delivery.stop()
        _back_to_7(database)  # as a server of the version before left it
        await local.call(
            local.stub.AppendEvents,
            pb.AppendEventsRequest(project_id=str(repo), events=events[40:]),
        )

        monkeypatch.setattr(postgres_database, "migrate", slowed)
        service, servicer = unstarted(server_settings)
        await service.start()  # listening, not yet serving: the database migrates first
        try:
            starting = asyncio.create_task(servicer.start())
            await asyncio.wait_for(counting.wait(), 60)
            link = TeamLink(f"localhost:{service.team_port}", token, tls.ca, "alice-mbp")
            delivery = TeamDelivery(engine.registry.open_stores, link, interval=3600)
            with pytest.raises(UnavailableError) as refused:
                await delivery.deliver()
            assert MIGRATING in str(refused.value)
            assert failure_reason(refused.value, 3) == (
                "it is migrating its store: 40 % (2 of 5 memories) counted"
            )
            assert not await serving(link)  # the laptop's probe waits for SERVING
            # `sqrl status` on the server's own machine says it as well.
            server_home = HomeLayout(server_settings.home)
            assert MIGRATING in (read_starting(server_home.starting_file("memory")) or "")
            said = team_delivery(
                [{"team_events_waiting": 50, "team_delivery_error": delivery.last_error}]
            )
            assert "50 events waiting" in said["text_delivery"]
            assert MIGRATING in said["text_delivery"]
            async with team_reads(GrpcMemoryBackend(local, lambda: [str(repo)]), link) as reads:
                notes, _ = await _context_notes(reads, repo)
            assert notes == [
                f"team server {link.server} not used: it is migrating its store: 40 % "
                "(2 of 5 memories) counted; answered from local memory only"
            ]
            assert _version_and_backfill(database) == (7, True)  # still counting

            release.set()
            await asyncio.wait_for(starting, 60)
            await service.set_serving()
            assert await serving(link)
            assert read_starting(server_home.starting_file("memory")) is None
            report = await delivery.deliver()
            assert (report.sent, report.accepted, report.duplicates) == (50, 50, 0)
            assert (await delivery.deliver()).sent == 0
            assert delivery.last_error is None
            await delivery.stop()
        finally:
            release.set()
            await service.stop(grace=0)
            await servicer.close()
    with psycopg.connect(database) as conn:
        row = conn.execute(
            "SELECT count(*), count(DISTINCT hash), (SELECT max(version) FROM "
            "squirrel_schema_version) FROM events WHERE project_id = %s",
            (TEAM_ID,),
        ).fetchone()
    assert row == (90, 90, MIGRATIONS[-1].version)
