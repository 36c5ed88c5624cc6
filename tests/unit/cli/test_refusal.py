"""`sqrl up` finds why a service refused its configuration in what the service logged since it
was spawned: the reason of its last `config_refused` event, never an earlier start's."""

from __future__ import annotations

import json
from pathlib import Path

from squirrel_cli.refusal import refusal_reason


def _log(path: Path, *lines: str) -> int:
    """Appends `lines` to the log; returns where it ended before them."""
    start = path.stat().st_size if path.exists() else 0
    with path.open("a", encoding="utf-8") as fh:
        fh.writelines(line + "\n" for line in lines)
    return start


def _event(name: str, **fields: str) -> str:
    return json.dumps({"event": name, "service": "memory", **fields})


def test_the_reason_is_the_last_refusal_written_since_the_start(tmp_path: Path) -> None:
    log = tmp_path / "memory.log"
    _log(log, _event("config_refused", reason="an earlier start's"))
    start = _log(
        log,
        _event("service_starting"),
        "not json, e.g. a line of a crashed interpreter",
        _event("config_refused", reason="storage.postgres_dsn is empty"),
    )
    assert refusal_reason(log, start) == "storage.postgres_dsn is empty"


def test_a_start_that_refused_nothing_has_no_reason(tmp_path: Path) -> None:
    log = tmp_path / "memory.log"
    _log(log, _event("config_refused", reason="an earlier start's"))
    start = _log(log, _event("service_starting"), _event("start_failed", reason="disk full"))
    assert refusal_reason(log, start) is None


def test_a_missing_log_has_no_reason(tmp_path: Path) -> None:
    assert refusal_reason(tmp_path / "memory.log", 0) is None
