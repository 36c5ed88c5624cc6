"""GatewayService over gRPC: protobuf in, budgeted tool-layer calls, protobuf out."""

from __future__ import annotations

from squirrel.v1 import gateway_service_pb2_grpc
from squirrel_core.settings import Settings


class GatewayServicer(gateway_service_pb2_grpc.GatewayServiceServicer):
    """RPCs not overridden answer UNIMPLEMENTED."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        return None
