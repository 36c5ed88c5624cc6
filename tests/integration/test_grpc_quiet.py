"""`sqrl` keeps gRPC's C core from writing its own lines on the user's terminal: a TLS handshake
the team server refused is `sqrl`'s one line, without the C core's "Handshake failed" above it;
the variable that silences it is set for grpc's import only, never for what `sqrl` starts."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from squirrel_core.settings import Settings
from squirrel_core.team_client import TeamLink
from tests.conftest import private_env
from tests.integration import test_team_delivery as delivery_tests
from tests.integration.test_team_delivery import serving
from tests.tls_certs import make_tls_files

homes = delivery_tests.homes
Homes = Callable[..., tuple[Settings, Settings, TeamLink]]


def _run(args: list[str], env: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        input=stdin,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


async def test_a_refused_handshake_is_sqrls_one_line_without_grpcs_own(
    tmp_path: Path, homes: Homes
) -> None:
    server_settings, _, link = homes()
    other_ca = make_tls_files(tmp_path / "other", ca_name="Someone else").ca
    async with serving(server_settings) as server:
        target = f"localhost:{server.service.team_port}"
        env = private_env(tmp_path / "laptop")
        env.pop("GRPC_VERBOSITY", None)
        args = ["-m", "squirrel_cli", "team", "join", target, "--ca-file", str(other_ca)]
        done = await asyncio.to_thread(_run, args, env, link.token + "\n")

    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("sqrl: error:"), done.stderr


PROBE = (
    "import os; from squirrel_cli.grpc_quiet import quiet_grpc; quiet_grpc(); import grpc; "
    "print(os.environ.get('GRPC_VERBOSITY'))"
)


def test_the_variable_is_set_for_grpcs_import_only_and_a_users_own_is_kept(
    tmp_path: Path,
) -> None:
    env = private_env(tmp_path / "home")
    env.pop("GRPC_VERBOSITY", None)
    assert _run(["-c", PROBE], env).stdout.strip() == "None"  # nothing started inherits it
    chosen = _run(["-c", PROBE], {**env, "GRPC_VERBOSITY": "DEBUG"})
    assert chosen.stdout.strip() == "DEBUG"
