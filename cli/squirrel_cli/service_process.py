"""How the supervisor starts one service: this interpreter running its package, with its own
environment, its log appended to, and the port it asks for."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from squirrel_core.home import HomeLayout


def service_command(name: str) -> list[str]:
    """How a service is started: this interpreter running its package."""
    return [sys.executable, "-m", f"squirrel_{name}"]


async def spawn_service(
    command: Callable[[str], Sequence[str]],
    name: str,
    *,
    home: Path,
    layout: HomeLayout,
    environ: Mapping[str, str],
    port: int,
    preferred: int,
) -> tuple[asyncio.subprocess.Process, int]:
    """Service `name` started as a child of this process, told its home (`home`, laid out as
    `layout`), its port (0: it binds
    a free one, `preferred` if it can) and this process's pid, its stderr appended to its log;
    and where its log ended when it started (what it writes from there is this run's). Its
    earlier service file is removed first: a new one says this process listens."""
    env = dict(environ)
    env["SQRL_HOME"] = str(home)
    env[f"SQRL_{name.upper()}_PORT"] = str(port)
    env["PYTHONUNBUFFERED"] = "1"
    layout.service_file(name).unlink(missing_ok=True)
    log_path = layout.log_file(name)
    with log_path.open("ab") as log_fh:
        log_path.chmod(0o600)
        log_start = log_fh.tell()
        proc = await asyncio.create_subprocess_exec(
            *command(name),
            "--parent-pid",
            str(os.getpid()),
            "--preferred-port",
            str(preferred),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=log_fh,
            env=env,
            start_new_session=False,
        )
    return proc, log_start
