"""Hook activity per host, kept by the gateway in `<home>/run/hooks.json` and read by the CLI."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

STATS_FILE: Final = "hooks.json"


@dataclass(slots=True)
class HostActivity:
    """What one host's hooks did lately (times are Unix seconds)."""

    calls: int = 0
    injections: int = 0
    tokens_injected: int = 0
    abstentions: int = 0
    failures: int = 0
    sessions_ended: int = 0
    last_call_at: float | None = None
    last_ok_at: float | None = None
    last_injection_at: float | None = None
    last_failure: str | None = None


@dataclass(slots=True)
class HookActivity:
    """Per-host activity, written as JSON so other processes can read it without an RPC."""

    hosts: dict[str, HostActivity] = field(default_factory=dict)

    def of(self, host: str) -> HostActivity:
        return self.hosts.setdefault(host, HostActivity())

    def to_json(self) -> bytes:
        return (json.dumps({k: asdict(v) for k, v in self.hosts.items()}, indent=1) + "\n").encode()


def activity_path(run_dir: Path) -> Path:
    return run_dir / STATS_FILE


def read_activity(run_dir: Path) -> dict[str, dict[str, Any]]:
    """The recorded hook activity per host ({} when nothing ran yet or the file is unreadable)."""
    try:
        data = json.loads(activity_path(run_dir).read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(v, dict)}
