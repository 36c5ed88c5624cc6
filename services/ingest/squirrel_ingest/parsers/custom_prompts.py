"""Custom prompts a host expands into a user turn: the file's body is not what the user typed.

Codex CLI runs `/prompts:<name> args` by sending the body of `<codex home>/prompts/<name>.md`
with its placeholders (`$ARGUMENTS`, `$1`…`$9`, `$NAME`) filled in, and its rollout keeps only
the filled text, with no mark of the command. A turn that matches a prompt file's body is that
body (the host's words, `HARNESS`) plus what filled its placeholders (the user's arguments,
`SLASH_COMMAND`). Without the prompt files nothing is decided: the turn stays typed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import structlog

from squirrel_core.events import Origin
from squirrel_ingest.parsers.speaker import Utterance

log = structlog.get_logger(__name__)

#: Folders a rollout sits under, inside the Codex home.
_SESSION_FOLDERS = frozenset({"sessions", "archived_sessions"})
_MAX_PROMPTS = 200
_MAX_PROMPT_CHARS = 100_000
_MAX_PLACEHOLDERS = 12
#: Fewer fixed characters than this and a body would match nearly any turn.
_MIN_FIXED_CHARS = 40
_FRONT_MATTER = re.compile(r"\A---\s*\n.*?\n---\s*\n", re.DOTALL)
_PLACEHOLDER = re.compile(r"\$(?:ARGUMENTS|[1-9]|[A-Z][A-Z0-9_]*)")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class CustomPrompt:
    """One prompt file: the command that runs it and its body as a pattern."""

    command: str
    pattern: re.Pattern[str]


def codex_prompt_folder(rollout: str) -> Path | None:
    """`<codex home>/prompts` for a rollout under `<codex home>/sessions/…`, else None."""
    path = Path(rollout)
    for parent in path.parents:
        if parent.name in _SESSION_FOLDERS:
            return parent.parent / "prompts"
    return None


def _pattern(body: str) -> re.Pattern[str] | None:
    """The body as a pattern: placeholders match anything, whitespace any whitespace."""
    body = _FRONT_MATTER.sub("", body, count=1).strip().replace("$$", "\0")
    fixed = _PLACEHOLDER.split(body)
    if len(fixed) - 1 > _MAX_PLACEHOLDERS or len(_SPACE.sub("", "".join(fixed))) < _MIN_FIXED_CHARS:
        return None

    def literal(part: str) -> str:
        words = _SPACE.split(part.replace("\0", "$"))
        return r"\s*".join(re.escape(word) for word in words)

    return re.compile(r"\s*" + "(.*?)".join(literal(part) for part in fixed) + r"\s*", re.DOTALL)


class CustomPrompts:
    """The prompt files of one folder, read once, when a turn is first checked."""

    def __init__(self, folder: Path | None) -> None:
        self._folder = folder
        self._prompts: list[CustomPrompt] | None = None

    def _load(self) -> list[CustomPrompt]:
        if self._prompts is not None:
            return self._prompts
        self._prompts = []
        if self._folder is None or not self._folder.is_dir():
            return self._prompts
        try:
            files = sorted(self._folder.glob("*.md"))[:_MAX_PROMPTS]
        except OSError:
            return self._prompts
        for file in files:
            try:
                if file.stat().st_size > _MAX_PROMPT_CHARS:
                    continue
                body = file.read_text(encoding="utf-8", errors="replace")
            except OSError:
                log.warning("custom_prompt_unreadable", source="codex")
                continue
            pattern = _pattern(body)
            if pattern is not None:
                self._prompts.append(CustomPrompt(f"/prompts:{file.stem}", pattern))
        return self._prompts

    def expanded(self, text: str) -> list[Utterance] | None:
        """The host's body and the user's arguments when `text` is a prompt file's body with
        its placeholders filled in; None when it matches no prompt file."""
        for prompt in self._load():
            match = prompt.pattern.fullmatch(text)
            if match is None:
                continue
            args = "\n".join(group.strip() for group in match.groups() if group.strip())
            command = Utterance(Origin.SLASH_COMMAND, args or prompt.command, prompt.command)
            return [Utterance(Origin.HARNESS, text.strip()), command]
        return None
