"""Where each assistant keeps its transcripts on this machine: the configured folders, or each
assistant's default location under the user's home."""

from __future__ import annotations

from pathlib import Path

from squirrel_core.events import SourceTool
from squirrel_core.settings import Settings


def default_roots(settings: Settings, home: Path) -> dict[SourceTool, list[Path]]:
    """Configured roots, or each assistant's default location under the user's home."""

    def chosen(key: str, defaults: list[Path]) -> list[Path]:
        configured = [Path(p).expanduser() for p in settings.list_(key)]
        return configured or defaults

    return {
        SourceTool.CLAUDE_CODE: chosen(
            "ingest.claude_roots",
            [home / ".claude" / "projects", home / ".config" / "claude" / "projects"],
        ),
        SourceTool.CODEX: chosen("ingest.codex_roots", [home / ".codex" / "sessions"]),
        SourceTool.GEMINI_CLI: chosen("ingest.gemini_roots", [home / ".gemini" / "tmp"]),
    }


def cursor_roots(settings: Settings, home: Path) -> list[Path]:
    """Configured Cursor `User` folders, or Cursor's location on Linux, macOS and Windows."""
    configured = [Path(p).expanduser() for p in settings.list_("ingest.cursor_roots")]
    return configured or [
        home / ".config" / "Cursor" / "User",
        home / "Library" / "Application Support" / "Cursor" / "User",
        home / "AppData" / "Roaming" / "Cursor" / "User",
    ]
