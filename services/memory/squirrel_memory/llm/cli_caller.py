"""The user's own assistant CLI as a `ToolCaller`: `claude -p`, `codex exec`, `gemini -p`.

No API key is needed: the CLI is already logged in with the user's subscription. Each call runs
the CLI once, headless, in a working folder under the Squirrel home (so the transcript the CLI
writes is recognised and never ingested), with the prompt plus the tool's JSON schema, and reads
one JSON object from its answer. A hard timeout kills the whole process group; output past a
size cap is refused; "not logged in" and "rate limited" answers become clear errors.

The CLI reads what it is given as a model, not as an agent: the narrowest flags each offers (no
tools, no MCP servers, no hooks or user/project settings where it can skip them, no saved
session where it allows, read-only, one turn, see `cli_argv`), the prompt on stdin (never in
argv, where any local user could read it), and an environment built from an allow-list
(`cli_environment`), never the service's own: a key in `sqrl up`'s environment never reaches it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import structlog

from squirrel_memory.extractors.base import (
    ExtractionError,
    PermanentExtractionError,
    RetryableExtractionError,
)
from squirrel_memory.llm.answers import MAX_ANSWER_CHARS, json_instruction, tool_input_from_text
from squirrel_memory.llm.spending import LlmBudget

log = structlog.get_logger()

INTERNAL_ENV: Final = "SQRL_INTERNAL_CALL"
"""Set in the environment of every CLI Squirrel starts, so hooks and tools can tell."""
BASE_ENV: Final = (
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "SHELL",
    "TMPDIR",
    "TZ",
    "LANG",
    "LANGUAGE",
    "XDG_CONFIG_HOME",
    "XDG_DATA_HOME",
    "XDG_STATE_HOME",
    "XDG_CACHE_HOME",
    "XDG_RUNTIME_DIR",
    "HTTPS_PROXY",
    "HTTP_PROXY",
    "NO_PROXY",
    "https_proxy",
    "http_proxy",
    "no_proxy",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "NODE_EXTRA_CA_CERTS",
)
"""What every CLI gets from the service's environment: where it and its home are, the locale,
and how to reach its vendor (proxies, certificates). `LC_*` is passed too."""
CLI_ENV: Final[dict[str, tuple[str, ...]]] = {
    "claude_cli": ("CLAUDE_CONFIG_DIR",),
    "codex_cli": ("CODEX_HOME",),
    "gemini_cli": ("GEMINI_CLI_HOME", "GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION"),
}
"""Each CLI's own config folder (where its login lives) and the settings its login needs.
API keys are not among them: the CLIs use their own login; `extractor.cli_env` names any other
variable the user wants passed (for example `GEMINI_API_KEY`)."""
CLI_PROMPT_FLAG: Final = "Answer the request given on standard input."
"""Gemini's `-p` text (its headless switch): fixed, the request itself comes on stdin."""
MAX_OUTPUT_BYTES: Final = 4 * MAX_ANSWER_CHARS
REAP_SECONDS: Final = 5.0
"""How long a killed CLI is waited for before its transport is left to the collector."""
_LOGIN_WORDS: Final = (
    "not logged in",
    "please run /login",
    "invalid api key",
    "log in",
    "login",
    "auth method",
    "unauthorized",
    "authentication",
    "401",
    "credentials",
)
_RATE_WORDS: Final = (
    "rate limit",
    "rate_limit",
    "usage limit",
    "429",
    "overloaded",
    "529",
    "quota",
)


@dataclass(frozen=True, slots=True)
class CliOutcome:
    """What a CLI run produced: exit code, stdout, stderr (both possibly truncated)."""

    code: int
    stdout: str
    stderr: str


def _classify_failure(cli: str, text: str) -> ExtractionError:
    lowered = text.lower()
    if any(word in lowered for word in _RATE_WORDS):
        return RetryableExtractionError(f"{cli} is rate limited")
    if any(word in lowered for word in _LOGIN_WORDS):
        return PermanentExtractionError(
            f"{cli} is not logged in; run `{cli}` once and log in, then `sqrl process`"
        )
    return PermanentExtractionError(
        f"{cli} failed: {' '.join(text.split())[:200]}", quotes_output=True
    )


async def run_cli(
    argv: Sequence[str], *, stdin: str, cwd: Path, timeout: float, env: dict[str, str]
) -> CliOutcome:
    """Runs `argv` in its own process group; kills the group past `timeout` or when its output
    passes `MAX_OUTPUT_BYTES`."""
    try:
        proc = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=cwd,
            env=env,
            start_new_session=True,
        )
    except FileNotFoundError:
        raise PermanentExtractionError(
            f"`{argv[0]}` was not found on PATH; install it or choose another extractor backend"
        ) from None
    except PermissionError:
        raise PermanentExtractionError(f"`{argv[0]}` cannot be executed") from None

    async def read(stream: asyncio.StreamReader | None) -> bytes:
        chunks: list[bytes] = []
        size = 0
        while stream is not None and (chunk := await stream.read(65536)):
            size += len(chunk)
            if size > MAX_OUTPUT_BYTES:
                _kill(proc)  # so that the other stream ends too
                raise PermanentExtractionError(f"`{argv[0]}` answered more than 4 MB")
            chunks.append(chunk)
        return b"".join(chunks)

    async def talk() -> tuple[bytes, bytes]:
        assert proc.stdin is not None
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            proc.stdin.write(stdin.encode())
            await proc.stdin.drain()
        proc.stdin.close()
        out, err = await asyncio.gather(
            read(proc.stdout), read(proc.stderr), return_exceptions=True
        )
        for failed in (out, err):
            if isinstance(failed, BaseException):
                raise failed
        await proc.wait()
        assert isinstance(out, bytes) and isinstance(err, bytes)
        return out, err

    try:
        out, err = await asyncio.wait_for(talk(), timeout)
    except TimeoutError:
        await _killed(proc)
        raise RetryableExtractionError(f"`{argv[0]}` timed out after {timeout:g} s") from None
    except BaseException:
        await _killed(proc)
        raise
    return CliOutcome(
        proc.returncode or 0,
        out.decode("utf-8", "replace"),
        err.decode("utf-8", "replace")[-4000:],
    )


def _kill(proc: asyncio.subprocess.Process) -> None:
    if proc.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)


async def _killed(proc: asyncio.subprocess.Process) -> None:
    """Kill the process group, close its stdin, read what is left of its output and wait for
    it (at most `REAP_SECONDS` in all), so that its pipes and transport close now rather than
    when collected after the event loop is gone."""
    _kill(proc)
    if proc.stdin is not None:
        proc.stdin.close()

    async def drained(stream: asyncio.StreamReader | None) -> None:
        while stream is not None and await stream.read(65536):
            pass

    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(
            asyncio.gather(drained(proc.stdout), drained(proc.stderr), proc.wait()),
            REAP_SECONDS,
        )


class CliCaller:
    """One of the assistant CLIs, run headless once per call."""

    def __init__(
        self,
        backend: str,
        *,
        command: str,
        model: str,
        workdir: Path,
        budget: LlmBudget,
        timeout_seconds: float,
        environ: dict[str, str] | None = None,
        passthrough: tuple[str, ...] = (),
    ) -> None:
        if backend not in ("claude_cli", "codex_cli", "gemini_cli"):
            raise ValueError(f"not a CLI backend: {backend}")
        if timeout_seconds <= 0:
            raise ValueError("timeout_seconds must be positive")
        self.backend = backend
        self._command = command
        self._model = model
        self._workdir = workdir
        self._budget = budget
        self._timeout = timeout_seconds
        self._environ = dict(os.environ if environ is None else environ)
        self._passthrough = passthrough

    @property
    def model(self) -> str:
        return self._model

    @property
    def cli(self) -> str:
        return Path(self._command).name

    async def close(self) -> None:
        return None

    def _env(self) -> dict[str, str]:
        return cli_environment(self.backend, self._environ, self._passthrough)

    async def call_tool(
        self, *, system: str, message: str, tool: dict[str, Any], max_tokens: int
    ) -> dict[str, Any]:
        prompt = f"{system}\n\n{message}\n\n{json_instruction(tool)}"
        estimate = len(prompt) // 4 + max_tokens
        self._budget.reserve(estimate)
        self._workdir.mkdir(parents=True, exist_ok=True, mode=0o700)
        if self.backend == "claude_cli":
            text, tokens = await self._claude(prompt)
        elif self.backend == "codex_cli":
            text, tokens = await self._codex(prompt)
        else:
            text, tokens = await self._gemini(prompt)
        self._budget.record_tokens(tokens or estimate)
        answer = tool_input_from_text(text, tool)
        log.info("llm_cli_answered", backend=self.backend, chars=len(text))
        return answer

    async def _run(self, argv: list[str], stdin: str = "") -> CliOutcome:
        outcome = await run_cli(
            argv, stdin=stdin, cwd=self._workdir, timeout=self._timeout, env=self._env()
        )
        if outcome.code != 0:
            raise _classify_failure(self.cli, outcome.stderr + "\n" + outcome.stdout[-2000:])
        return outcome

    async def _claude(self, prompt: str) -> tuple[str, int]:
        outcome = await self._run(cli_argv(self.backend, self._command, self._model), prompt)
        try:
            data = json.loads(outcome.stdout)
        except ValueError:
            raise PermanentExtractionError("claude answered something that is not JSON") from None
        if not isinstance(data, dict):
            raise PermanentExtractionError("claude answered an unexpected JSON value")
        result = data.get("result")
        if data.get("is_error") or not isinstance(result, str):
            raise _classify_failure(self.cli, str(result or data.get("subtype", "error")))
        usage = data.get("usage")
        tokens = 0
        if isinstance(usage, dict):
            for name in ("input_tokens", "output_tokens"):
                value = usage.get(name)
                tokens += value if isinstance(value, int) else 0
        return result, tokens

    async def _codex(self, prompt: str) -> tuple[str, int]:
        with tempfile.TemporaryDirectory(dir=self._workdir) as scratch:
            last = Path(scratch) / "answer.txt"
            argv = cli_argv(self.backend, self._command, self._model, answer_file=last)
            outcome = await self._run(argv, prompt)
            try:
                text = last.read_text(encoding="utf-8", errors="replace")
            except OSError:
                text = outcome.stdout
        return text, 0

    async def _gemini(self, prompt: str) -> tuple[str, int]:
        outcome = await self._run(cli_argv(self.backend, self._command, self._model), prompt)
        try:
            data = json.loads(outcome.stdout)
        except ValueError:
            return outcome.stdout, 0  # older versions print the answer as text
        if not isinstance(data, dict):
            raise PermanentExtractionError("gemini answered an unexpected JSON value")
        if isinstance(data.get("error"), dict):
            raise _classify_failure(self.cli, json.dumps(data["error"])[:500])
        response = data.get("response")
        if not isinstance(response, str):
            raise PermanentExtractionError("gemini's answer has no response text")
        return response, 0


def cli_argv(
    backend: str, command: str, model: str, *, answer_file: Path | None = None
) -> list[str]:
    """The argv of one headless call: the narrowest flags each CLI offers; never the prompt.

    - claude: print mode, JSON result, one turn; no tools (`--tools ""`), no MCP servers (an
      empty `--mcp-config`, strictly), no user/project/local settings (so no hooks or plugins
      from them), no slash commands, nothing asked (`dontAsk`), no saved session.
    - codex: `exec` reading the prompt from stdin (`-`), read-only sandbox, never asking for
      approval, commands it might run get no environment, no user config (so no MCP servers
      or hooks from it) and no execpolicy rules, no saved session (`--ephemeral`).
    - gemini: headless (`-p` with a fixed text; the request comes on stdin), JSON output,
      read-only plan mode in this (empty, trusted for the session) folder, no extensions, no
      MCP server but one that does not exist. It offers no switch for user settings or for
      saving the session: its transcript is recognised by its working folder and skipped.
    """
    if backend == "claude_cli":
        argv = [
            command,
            "-p",
            "--output-format",
            "json",
            "--max-turns",
            "1",
            "--tools",
            "",
            "--strict-mcp-config",
            "--mcp-config",
            '{"mcpServers":{}}',
            "--setting-sources",
            "",
            "--disable-slash-commands",
            "--permission-mode",
            "dontAsk",
            "--no-session-persistence",
        ]
    elif backend == "codex_cli":
        if answer_file is None:
            raise ValueError("codex needs the file its last message is written to")
        argv = [
            command,
            "exec",
            "--skip-git-repo-check",
            "--sandbox",
            "read-only",
            "-c",
            'approval_policy="never"',
            "-c",
            'shell_environment_policy.inherit="none"',
            "--ignore-user-config",
            "--ignore-rules",
            "--ephemeral",
            "--color",
            "never",
            "--output-last-message",
            str(answer_file),
        ]
    elif backend == "gemini_cli":
        argv = [
            command,
            "--output-format",
            "json",
            "--skip-trust",
            "--approval-mode",
            "plan",
            "--extensions",
            "none",
            "--allowed-mcp-server-names",
            "sqrl-no-mcp-server",
        ]
    else:
        raise ValueError(f"not a CLI backend: {backend}")
    if model:
        argv += ["--model", model]
    if backend == "codex_cli":
        argv.append("-")  # the prompt comes on stdin
    elif backend == "gemini_cli":
        argv += ["-p", CLI_PROMPT_FLAG]  # appended to stdin, which holds the request
    return argv


def cli_environment(
    backend: str, environ: dict[str, str], passthrough: Sequence[str] = ()
) -> dict[str, str]:
    """The environment a CLI runs with: `BASE_ENV`, `LC_*`, the CLI's own `CLI_ENV`, the
    names the user passes through (`extractor.cli_env`), and `SQRL_INTERNAL_CALL=1`."""
    wanted = {*BASE_ENV, *CLI_ENV.get(backend, ()), *passthrough}
    env = {k: v for k, v in environ.items() if k in wanted or k.startswith("LC_")}
    env[INTERNAL_ENV] = "1"
    return env
