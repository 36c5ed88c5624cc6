"""Which model backends this machine offers, and what each sends where (for init and doctor).

Nothing here runs a model: it looks for the assistant CLIs on PATH and their login files, for an
API key, and asks the default local ports of Ollama and LM Studio for their model lists (a few
hundred milliseconds at most).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from squirrel_core.settings import Settings

PRIVACY: Final[Mapping[str, str]] = {
    "rules": "runs offline: nothing leaves this machine for it",
    "anthropic": "sends redacted session text to Anthropic's API (your API key)",
    "claude_cli": "sends redacted session text to Anthropic through your Claude Code login",
    "codex_cli": "sends redacted session text to OpenAI through your Codex CLI login",
    "gemini_cli": "sends redacted session text to Google through your Gemini CLI login",
    "openai_compatible": "sends redacted session text to the server at "
    "openai_compatible.base_url (stays local when that is Ollama or LM Studio here)",
}
LOCAL_SERVERS: Final = (
    ("Ollama", "http://127.0.0.1:11434/v1", "http://127.0.0.1:11434/api/tags"),
    ("LM Studio", "http://127.0.0.1:1234/v1", "http://127.0.0.1:1234/v1/models"),
)
_LOGIN_FILES: Final[Mapping[str, tuple[tuple[str, str], ...]]] = {
    # backend: ((folder env var or "", path under that folder or the home), ...)
    "claude_cli": (("CLAUDE_CONFIG_DIR", ".credentials.json"), ("", ".claude/.credentials.json")),
    "codex_cli": (("CODEX_HOME", "auth.json"), ("", ".codex/auth.json")),
    "gemini_cli": (("", ".gemini/oauth_creds.json"),),
}
_KEY_ENVS: Final[Mapping[str, tuple[str, ...]]] = {
    "claude_cli": ("ANTHROPIC_API_KEY",),
    "codex_cli": ("OPENAI_API_KEY", "CODEX_API_KEY"),
    "gemini_cli": ("GEMINI_API_KEY", "GOOGLE_API_KEY"),
}


@dataclass(frozen=True, slots=True)
class Offer:
    """A backend this machine can run, what it needs, and the command that switches to it."""

    backend: str
    ready: bool
    detail: str
    switch: str

    @property
    def privacy(self) -> str:
        return PRIVACY[self.backend]


def _logged_in(backend: str, home: Path, environ: Mapping[str, str]) -> bool:
    if any(environ.get(name) for name in _KEY_ENVS.get(backend, ())):
        return True
    for variable, relative in _LOGIN_FILES.get(backend, ()):
        if variable and not environ.get(variable):
            continue
        base = Path(environ[variable]) if variable else home
        if (base / relative).is_file():
            return True
    return False


def _models(url: str, timeout: float) -> list[str] | None:
    """Model names a local server lists, or None when nothing answers there."""
    import urllib.error  # noqa: PLC0415 - init and doctor only: keep every other command light
    import urllib.request  # noqa: PLC0415

    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310 - loopback
            data = json.loads(response.read(1_000_000))
    except (OSError, ValueError):  # URLError is an OSError
        return None
    items = (data.get("models") or data.get("data") or []) if isinstance(data, dict) else []
    return [
        str(item.get("name") or item.get("id") or item.get("model"))
        for item in items
        if isinstance(item, dict) and (item.get("name") or item.get("id") or item.get("model"))
    ]


def detect(
    settings: Settings,
    *,
    home: Path | None = None,
    environ: Mapping[str, str] | None = None,
    servers: tuple[tuple[str, str, str], ...] = LOCAL_SERVERS,
    timeout: float = 0.3,
) -> list[Offer]:
    """Every backend found here (the assistant CLIs, an API key, a local model server)."""
    home = home or Path.home()
    environ = os.environ if environ is None else environ
    offers: list[Offer] = []
    if settings.anthropic_api_key:
        offers.append(
            Offer("anthropic", True, "API key set", "sqrl config set extractor.backend anthropic")
        )
    for backend in ("claude_cli", "codex_cli", "gemini_cli"):
        command = settings.str_(f"{backend}.command")
        path = shutil.which(command, path=environ.get("PATH"))
        if path is None:
            continue
        login = _logged_in(backend, home, environ)
        detail = f"`{command}` at {path}" + (
            ", logged in" if login else ", login not confirmed (run it once to log in)"
        )
        offers.append(Offer(backend, login, detail, f"sqrl config set extractor.backend {backend}"))
    for name, base_url, probe in servers:
        models = _models(probe, timeout)
        if models is None:
            continue
        model = models[0] if models else "<model>"
        detail = f"{name} at {base_url}: " + (", ".join(models[:5]) or "no models pulled yet")
        switch = (
            f"sqrl config set extractor.backend openai_compatible && "
            f"sqrl config set openai_compatible.base_url {base_url} && "
            f"sqrl config set openai_compatible.model {model}"
        )
        offers.append(Offer("openai_compatible", bool(models), detail, switch))
    return offers
