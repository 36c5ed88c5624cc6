"""Session ends reach ingest: the transcript is read to its end and the session processed now."""

from __future__ import annotations

from pathlib import Path
from typing import Final

from squirrel.v1 import ingest_service_pb2
from squirrel_core.clients import IngestClient, open_channel, target_of
from squirrel_gateway.hook_hosts import HookInput

END_SESSION_TIMEOUT: Final = 120.0
"""Seconds ingest and memory may take to read and process one finished session."""


class IngestSessionEnder:
    """Calls `IngestService.EndSession` on the ingest service named in its service file."""

    def __init__(self, service_file: Path, token: str) -> None:
        self._service_file = service_file
        self._token = token

    async def end_session(self, hook: HookInput, project_id: str) -> None:
        client = IngestClient(open_channel(target_of(self._service_file)), self._token)
        try:
            await client.call(
                client.stub.EndSession,
                ingest_service_pb2.EndSessionRequest(
                    project_id=project_id,
                    session_id=hook.session_id,
                    transcript_path=hook.transcript_path,
                ),
                timeout=END_SESSION_TIMEOUT,
            )
        finally:
            await client.close()
