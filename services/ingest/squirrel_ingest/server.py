"""The ingest service process: watchers and delivery wired to the servicer."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

import grpc

from squirrel.v1 import ingest_service_pb2, ingest_service_pb2_grpc
from squirrel_core.rpc import GrpcService
from squirrel_core.runner import Cleanup, main_for
from squirrel_core.settings import Settings
from squirrel_ingest.servicer import IngestServicer

SERVICE_NAME = ingest_service_pb2.DESCRIPTOR.services_by_name["IngestService"].full_name


async def setup(
    settings: Settings, service: GrpcService
) -> tuple[Callable[[], Awaitable[None]], Cleanup]:
    servicer = IngestServicer(settings)

    def register(server: grpc.aio.Server) -> Sequence[str]:
        ingest_service_pb2_grpc.add_IngestServiceServicer_to_server(servicer, server)
        return [SERVICE_NAME]

    service.add(register)
    return servicer.start, servicer.close


def main() -> None:
    main_for("ingest", setup)
