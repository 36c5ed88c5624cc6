"""A later session's hooks over what earlier sessions stored: its start text, then the context
its first prompt is given, both from one `HookService` as one session asks them (so the prompt
leaves out what the start already gave), at the default `hooks.*` budgets
(`bench/start_study.py` scores them)."""

from __future__ import annotations

import dataclasses
import json
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bench.fixture_pipeline import HOOK_DEADLINE_MS
from squirrel_core.clients import MemoryClient
from squirrel_core.settings import load_settings
from squirrel_gateway.hook_service import HookService, HookSettings
from squirrel_gateway.memory_backend import GrpcMemoryBackend

__all__ = ["Hooked", "later_session", "lines_of", "tokens_of"]

#: The token footer a hook's text ends with (`📏 ~297 tokens`).
_FOOTER = re.compile(r"📏 ~(\d+) tokens")


@dataclass(frozen=True)
class Hooked:
    """What a later session was given: the start text and its first prompt's context ("" when
    the hook abstained)."""

    start: str
    prompt: str


async def later_session(client: MemoryClient, project_id: str, prompt: str) -> Hooked:
    """The start text of a session of `project_id`, then its first prompt's context, as Claude
    Code's SessionStart and UserPromptSubmit hooks are answered in one session."""
    with tempfile.TemporaryDirectory() as run:
        defaults = HookSettings.from_settings(load_settings({"SQRL_HOME": f"{run}/home"}))
        hooks = HookService(
            GrpcMemoryBackend(client, lambda: [project_id]),
            dataclasses.replace(defaults, deadline_ms=HOOK_DEADLINE_MS),
            Path(run),
        )
        base = {"cwd": project_id, "session_id": "later", "transcript_path": ""}
        start = await hooks.answer("claude", "SessionStart", {**base, "source": "startup"})
        asked = await hooks.answer("claude", "UserPromptSubmit", {**base, "prompt": prompt})
    return Hooked(_context(start), _context(asked))


def _context(answer: str | None) -> str:
    if not answer:
        return ""
    text: str = json.loads(answer).get("hookSpecificOutput", {}).get("additionalContext", "")
    return text


def lines_of(text: str) -> list[str]:
    """The items a hook's text shows: its bullet lines (the frame, titles and footer aside)."""
    return [line[2:] for line in text.splitlines() if line.startswith("- ")]


def tokens_of(text: str) -> int:
    """The token estimate a hook's text states in its footer (0 for no text)."""
    found = _FOOTER.search(text)
    return int(found.group(1)) if found else 0
