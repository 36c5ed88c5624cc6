"""IngestService over gRPC: protobuf in, engine calls, protobuf out."""

from __future__ import annotations

from squirrel.v1 import ingest_service_pb2_grpc
from squirrel_core.settings import Settings


class IngestServicer(ingest_service_pb2_grpc.IngestServiceServicer):
    """RPCs not overridden answer UNIMPLEMENTED."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        return None
