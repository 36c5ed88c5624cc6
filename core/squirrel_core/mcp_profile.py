"""What MCP answers depend on besides the request, so `sqrl mcp` can tell whether the gateway's
MCP endpoint answers as it would itself.

`sqrl mcp` relays its host's messages to the gateway's endpoint when the gateway was started
with the same answer-shaping settings (the default user, whether writes are allowed, the team
link); otherwise it serves the tools in its own process. The gateway records its profile in
`<home>/run/gateway-mcp-profile.json` once its endpoint answers.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from squirrel_core.files import write_private_file
from squirrel_core.settings import Settings

PROFILE_FILE = "gateway-mcp-profile.json"
_ANSWER_SHAPING = ("gateway.allow_writes",)
_ANSWER_SHAPING_SECTIONS = ("team.",)


def mcp_profile(settings: Settings) -> str:
    """A digest of the settings that change what the MCP tools answer (no values are kept)."""
    shaping: dict[str, object] = {"general.user_id": settings.user_id}
    for key in _ANSWER_SHAPING:
        shaping[key] = settings.get(key)
    for key, value in settings.values.items():
        if key.startswith(_ANSWER_SHAPING_SECTIONS):
            shaping[key] = value
    text = json.dumps(shaping, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def profile_path(run_dir: Path) -> Path:
    return run_dir / PROFILE_FILE


def write_profile(run_dir: Path, pid: int, profile: str) -> None:
    write_private_file(
        profile_path(run_dir), (json.dumps({"pid": pid, "profile": profile}) + "\n").encode()
    )


def read_profile(run_dir: Path) -> tuple[int, str] | None:
    """The recording gateway's pid and profile, or None when there is no readable record."""
    try:
        data = json.loads(profile_path(run_dir).read_text())
        return int(data["pid"]), str(data["profile"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
