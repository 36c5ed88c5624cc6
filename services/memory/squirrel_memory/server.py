"""The memory service process: servicer, engine and background processor wired together."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

import grpc

from squirrel.v1 import memory_service_pb2, memory_service_pb2_grpc
from squirrel_core.home import HomeLayout
from squirrel_core.rpc import GrpcService
from squirrel_core.runner import Cleanup, main_for
from squirrel_core.settings import Settings
from squirrel_core.team_in_use import clear_team_in_use, record_team_in_use
from squirrel_core.team_listen import server_migrating
from squirrel_memory.servicer import MemoryServicer

SERVICE_NAME = memory_service_pb2.DESCRIPTOR.services_by_name["MemoryService"].full_name


def registered(settings: Settings, service: GrpcService) -> MemoryServicer:
    """The memory servicer of `settings`, added to `service`; while it starts, a team token's
    call is answered how far a migration of the database is."""
    servicer = MemoryServicer(settings)

    def register(server: grpc.aio.Server) -> Sequence[str]:
        memory_service_pb2_grpc.add_MemoryServiceServicer_to_server(servicer, server)
        return [SERVICE_NAME]

    service.add(register)
    servicer.engine.on_migration(
        lambda p: service.say_starting(server_migrating(p.counted, p.total, p.rows, p.done))
    )
    return servicer


async def setup(
    settings: Settings, service: GrpcService
) -> tuple[Callable[[], Awaitable[None]], Cleanup]:
    servicer = registered(settings, service)
    run = HomeLayout(settings.home).ensure().run
    record_team_in_use(run, "memory", settings)

    async def close() -> None:
        await servicer.close()
        clear_team_in_use(run, "memory")

    return servicer.start, close


def main() -> None:
    main_for("memory", setup)
