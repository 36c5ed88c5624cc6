"""The team server's deploy files (systemd unit, compose file, image) name `sqrl serve` and only
settings that exist; the unit passes `systemd-analyze verify` where systemd is installed."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from squirrel_core.settings import HOME_ENV
from squirrel_core.settings_catalog import SETTINGS

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
KNOWN = {setting.env for setting in SETTINGS} | {HOME_ENV}


def _compose() -> dict[str, Any]:
    loaded = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    assert isinstance(loaded, dict)
    return loaded


def test_the_compose_file_runs_sqrl_serve_on_postgres_with_tls_for_laptops() -> None:
    squirrel = _compose()["services"]["squirrel"]
    assert squirrel["command"] == ["serve"]
    env = squirrel["environment"]
    assert env["SQRL_STORAGE_BACKEND"] == "postgres"
    assert env["SQRL_STORAGE_POSTGRES_DSN"].startswith("postgresql://squirrel@postgres:5432/")
    assert ":" not in env["SQRL_STORAGE_POSTGRES_DSN"].split("//")[1].split("@")[0]  # no password
    assert env["SQRL_SERVE_TLS_CERT"] and env["SQRL_SERVE_TLS_KEY"]
    assert squirrel["depends_on"]["postgres"]["condition"] == "service_healthy"
    dockerfile = (DEPLOY / squirrel["build"]["dockerfile"].removeprefix("deploy/")).read_text()
    assert 'ENTRYPOINT ["/opt/squirrel/.venv/bin/sqrl"]' in dockerfile
    assert "[team]" in dockerfile


def test_the_compose_file_and_the_unit_name_only_settings_that_exist() -> None:
    compose_env = set(_compose()["services"]["squirrel"]["environment"])
    unit_env = set(
        re.findall(r"Environment=(SQRL_\w+)=", (DEPLOY / "squirrel-team.service").read_text())
    )
    assert compose_env and unit_env
    assert compose_env - KNOWN == set()
    assert unit_env - KNOWN == set()
    # Where it must not fire: a misspelt setting would be caught.
    assert {"SQRL_STORAGE_POSTGRES_URL"} - KNOWN == {"SQRL_STORAGE_POSTGRES_URL"}


def test_the_postgres_service_has_pgvector_and_a_health_check() -> None:
    postgres = _compose()["services"]["postgres"]
    assert postgres["image"].startswith("pgvector/pgvector:")
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    example = (DEPLOY / "postgres.env.example").read_text()
    assert "POSTGRES_PASSWORD=" in example and "PGPASSWORD=" in example


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd is not installed")
def test_the_team_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    sqrl = Path(sys.executable).with_name("sqrl")
    text = (DEPLOY / "squirrel-team.service").read_text()
    unit = tmp_path / "squirrel-team.service"
    unit.write_text(text.replace("/opt/squirrel/.venv/bin/sqrl", str(sqrl)))
    done = subprocess.run(
        ["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60
    )
    problems = [line for line in done.stderr.splitlines() if "squirrel-team.service" in line]
    assert done.returncode == 0 and problems == [], done.stderr
