"""One `sqrl up` shared by the tests of a module: its own home (so its own ports), started once.

For tests that only read what the module's setup wrote, or that write into a project of their
own (registered with `sqrl init` while the services run: they read the project list on each
call). Tests whose outcome could depend on another's writes to the same project, and tests
about starting or stopping, keep starting their own.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import private_env


@dataclass(frozen=True)
class Started:
    """The running services' home and the environment that points `sqrl` at it."""

    home: Path
    env: Mapping[str, str]

    def sqrl(
        self,
        *args: str,
        cwd: Path | None = None,
        env: Mapping[str, str] | None = None,
        timeout: float = 120.0,
    ) -> subprocess.CompletedProcess[str]:
        """Runs the real `sqrl` against these services (with `env`, a test's own copy, if given)."""
        return subprocess.run(
            [sys.executable, "-m", "squirrel_cli", *args],
            cwd=cwd,
            env=dict(self.env if env is None else env),
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def project(self, path: Path) -> Path:
        """A new git repository at `path`, registered with these services."""
        path.mkdir(parents=True)
        subprocess.run(["git", "init", "-q", str(path)], check=True)
        registered = self.sqrl("init", cwd=path)
        assert registered.returncode == 0, registered.stderr
        return path.resolve()


@contextlib.contextmanager
def started(base: Path, **settings: str) -> Iterator[Started]:
    """`sqrl up --detach` in a new home under `base` (with these extra environment settings);
    `sqrl down` when done."""
    home = base / "home"
    services = Started(home, {**private_env(home), **settings})
    up = services.sqrl("up", "--detach")
    try:
        assert up.returncode == 0, up.stderr
        yield services
    finally:
        services.sqrl("down")
