"""A memory service in this process for the benches that replay fixtures: a private home, no
background processing (a bench processes with ProcessNow), serving on a free loopback port,
and a client of it; stopped and cleaned up on exit."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from squirrel_core.clients import MemoryClient
    from squirrel_core.settings import Settings


@asynccontextmanager
async def memory_in_process(
    home: Path | str, settings_env: Mapping[str, str] | None = None
) -> AsyncIterator[tuple[MemoryClient, Settings]]:
    """The service on `home` with `settings_env`'s SQRL_* settings added, and a client with a
    long deadline (a bench's ProcessNow can take minutes); its settings too."""
    # Imported here: a bench that only reads results need not load the memory service.
    from squirrel_core.auth import ensure_token  # noqa: PLC0415
    from squirrel_core.clients import MemoryClient, open_channel  # noqa: PLC0415
    from squirrel_core.home import HomeLayout  # noqa: PLC0415
    from squirrel_core.rpc import GrpcService  # noqa: PLC0415
    from squirrel_core.settings import load_settings  # noqa: PLC0415
    from squirrel_memory import server as memory_server  # noqa: PLC0415

    settings = load_settings(
        {
            "SQRL_HOME": str(home),
            "SQRL_PROCESSOR_MIN_EVENTS": "100000000",
            "SQRL_PROCESSOR_INTERVAL_SECONDS": "3600",
            **(settings_env or {}),
        }
    )
    layout = HomeLayout(settings.home).ensure()
    token = ensure_token(layout.token)
    service = GrpcService("memory", token, 0, layout.service_file("memory"))
    ready, cleanup = await memory_server.setup(settings, service)
    await service.start()
    await ready()
    await service.set_serving()
    client = MemoryClient(open_channel(f"127.0.0.1:{service.port}"), token, timeout=600)
    try:
        yield client, settings
    finally:
        await client.close()
        await service.stop(0)
        await cleanup()
