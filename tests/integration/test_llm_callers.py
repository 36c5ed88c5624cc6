"""Each model backend against a real stand-in: fake `claude`/`codex`/`gemini` executables run as
subprocesses, and a real HTTP server speaking the OpenAI chat-completions API."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from squirrel_memory.extractors.base import PermanentExtractionError, RetryableExtractionError
from squirrel_memory.extractors.prompts import EXTRACTION_TOOL
from squirrel_memory.llm.answers import tool_input_from_text
from squirrel_memory.llm.cli_caller import INTERNAL_ENV, CliCaller
from squirrel_memory.llm.openai_caller import OpenAICompatibleCaller
from squirrel_memory.llm.spending import BudgetExceededError, LlmBudget
from tests.conftest import PATIENCE_SECONDS
from tests.integration.llm_fakes import fake_cli
from tests.integration.llm_fakes.fake_openai import FakeOpenAI, running_fake_openai

CLIS = ("claude_cli", "codex_cli", "gemini_cli")
FAKE_ENV = ("FAKE_LLM_MODE", "FAKE_LLM_MODE_FILE", "FAKE_LLM_LOG", "FAKE_LLM_TRANSCRIPTS")
"""What the fake CLIs read from their environment, passed through `extractor.cli_env`."""


def install_fake_clis(bin_dir: Path) -> dict[str, Path]:
    """`claude`, `codex` and `gemini` in `bin_dir`, each the fake CLI under that name."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    folder = str(Path(fake_cli.__file__).parent)
    made = {}
    for name in ("claude", "codex", "gemini"):
        path = bin_dir / name
        path.write_text(
            f"#!{sys.executable}\nimport sys\nsys.path.insert(0, {folder!r})\n"
            "import fake_cli\nsys.exit(fake_cli.main())\n"
        )
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
        made[name] = path
    return made


@pytest.fixture
def fakes(tmp_path: Path) -> dict[str, Path]:
    return install_fake_clis(tmp_path / "bin")


def caller(
    backend: str, tmp_path: Path, fakes: dict[str, Path], mode: str, **kw: object
) -> CliCaller:
    env = {**os.environ, "FAKE_LLM_MODE": mode, "FAKE_LLM_LOG": str(tmp_path / "calls.jsonl")}
    return CliCaller(
        backend,
        command=str(fakes[backend.removesuffix("_cli")]),
        model="small",
        workdir=tmp_path / "home" / "run" / "llm-workdir",
        budget=kw.pop("budget", None) or LlmBudget(calls_per_hour=100, tokens_per_day=10**7),  # type: ignore[arg-type]
        timeout_seconds=float(kw.pop("timeout", PATIENCE_SECONDS)),  # type: ignore[arg-type]
        environ=env,
        passthrough=FAKE_ENV,
    )


async def ask(c: CliCaller | OpenAICompatibleCaller) -> dict[str, object]:
    return await c.call_tool(
        system="You extract memories.",
        message="e1 user: run make check",
        tool=EXTRACTION_TOOL,
        max_tokens=256,
    )


@pytest.mark.parametrize("backend", CLIS)
@pytest.mark.parametrize("mode", ["ok", "fenced"])
async def test_each_cli_answers_through_the_tool_schema(
    backend: str, mode: str, tmp_path: Path, fakes: dict[str, Path]
) -> None:
    answer = await ask(caller(backend, tmp_path, fakes, mode))
    assert answer == fake_cli.ANSWER
    [call] = [json.loads(line) for line in (tmp_path / "calls.jsonl").read_text().splitlines()]
    assert call["cwd"] == str(tmp_path / "home" / "run" / "llm-workdir")
    assert call["internal"] == "1"
    assert "small" in call["argv"]


@pytest.mark.parametrize("backend", CLIS)
@pytest.mark.parametrize(
    ("mode", "error"),
    [
        ("malformed", PermanentExtractionError),
        ("ratelimit", RetryableExtractionError),
        ("logged_out", PermanentExtractionError),
        ("huge", PermanentExtractionError),
        ("crash", PermanentExtractionError),
    ],
)
async def test_cli_failures_are_typed(
    backend: str, mode: str, error: type[Exception], tmp_path: Path, fakes: dict[str, Path]
) -> None:
    with pytest.raises(error) as caught:
        await ask(caller(backend, tmp_path, fakes, mode))
    if mode == "logged_out":
        assert "not logged in" in str(caught.value)


@pytest.mark.parametrize("backend", CLIS)
async def test_a_hung_cli_is_killed_at_the_timeout(
    backend: str, tmp_path: Path, fakes: dict[str, Path]
) -> None:
    with pytest.raises(RetryableExtractionError, match="timed out"):
        await ask(caller(backend, tmp_path, fakes, "timeout", timeout=1.0))


@pytest.mark.parametrize(
    ("mode", "error"), [("huge", PermanentExtractionError), ("timeout", RetryableExtractionError)]
)
def test_a_killed_cli_leaves_no_open_pipe_behind(
    mode: str, error: type[Exception], tmp_path: Path, fakes: dict[str, Path]
) -> None:
    """Its pipes are closed when the call returns, not when collected after the loop is gone
    (where closing one raises "Event loop is closed" from a finaliser)."""
    # Only the hung CLI is cut short: a huge answer read on a loaded machine is not a timeout.
    c = caller(
        "codex_cli", tmp_path, fakes, mode, **({"timeout": 1.0} if mode == "timeout" else {})
    )
    with pytest.raises(error):
        asyncio.run(ask(c))
    raised: list[BaseException | None] = []
    hook, sys.unraisablehook = sys.unraisablehook, lambda u: raised.append(u.exc_value)
    try:
        gc.collect()
    finally:
        sys.unraisablehook = hook
    assert raised == []


async def test_a_missing_cli_says_so(tmp_path: Path) -> None:
    c = CliCaller(
        "claude_cli",
        command=str(tmp_path / "nowhere" / "claude"),
        model="",
        workdir=tmp_path / "w",
        budget=LlmBudget(calls_per_hour=5, tokens_per_day=10**6),
        timeout_seconds=5,
    )
    with pytest.raises(PermanentExtractionError, match="not found"):
        await ask(c)


async def test_the_call_cap_stops_calls_before_they_run(
    tmp_path: Path, fakes: dict[str, Path]
) -> None:
    budget = LlmBudget(calls_per_hour=1, tokens_per_day=10**7)
    c = caller("claude_cli", tmp_path, fakes, "ok", budget=budget)
    await ask(c)
    with pytest.raises(BudgetExceededError):
        await ask(c)
    assert len((tmp_path / "calls.jsonl").read_text().splitlines()) == 1


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with running_fake_openai() as state:
        yield state


def openai(
    server: FakeOpenAI, mode: str = "tools", key: str = "", timeout: float = PATIENCE_SECONDS
) -> OpenAICompatibleCaller:
    return OpenAICompatibleCaller(
        base_url=server.url,
        model="qwen2.5-coder:7b",
        api_key=key,
        budget=LlmBudget(calls_per_hour=100, tokens_per_day=10**7),
        timeout_seconds=timeout,
        mode=mode,
    )


@pytest.mark.parametrize(
    ("server_mode", "mode"),
    [("tool_call", "tools"), ("content", "json_schema"), ("content", "tools")],
)
async def test_openai_compatible_servers_answer_by_tool_call_or_json(
    server: FakeOpenAI, server_mode: str, mode: str
) -> None:
    server.mode = server_mode
    c = openai(server, mode, key="local-key")
    try:
        assert await ask(c) == fake_cli.ANSWER
    finally:
        await c.close()
    [body] = server.requests
    assert body["model"] == "qwen2.5-coder:7b"
    assert ("tools" in body) == (mode == "tools")
    assert ("response_format" in body) == (mode == "json_schema")
    assert server.headers[0]["authorization"] == "Bearer local-key"


@pytest.mark.parametrize(
    ("server_mode", "error"),
    [
        ("ratelimit", RetryableExtractionError),
        ("server_error", RetryableExtractionError),
        ("unauthorized", PermanentExtractionError),
        ("malformed", PermanentExtractionError),
        ("huge", PermanentExtractionError),
        ("slow", RetryableExtractionError),
    ],
)
async def test_openai_compatible_failures_are_typed(
    server: FakeOpenAI, server_mode: str, error: type[Exception]
) -> None:
    server.mode = server_mode
    # A slow server holds its answer past the caller's timeout, however long a call takes here.
    c = openai(server, timeout=1.0 if server_mode == "slow" else PATIENCE_SECONDS)
    try:
        with pytest.raises(error):
            await ask(c)
    finally:
        await c.close()


async def test_an_unreachable_server_is_retryable() -> None:
    c = OpenAICompatibleCaller(
        base_url="http://127.0.0.1:9/v1",
        model="m",
        api_key="",
        budget=LlmBudget(calls_per_hour=5, tokens_per_day=10**6),
        timeout_seconds=2.0,
    )
    try:
        with pytest.raises(RetryableExtractionError):
            await ask(c)
    finally:
        await c.close()


@pytest.mark.parametrize(
    "text",
    [
        '{"memories": []}',
        'Sure! {"memories": []} hope that helps',
        '```json\n{"memories": []}\n```',
        '{"note": 1} then {"memories": []}',
    ],
)
def test_json_answers_are_found_in_prose(text: str) -> None:
    assert tool_input_from_text(text, EXTRACTION_TOOL) == {"memories": []}


@pytest.mark.parametrize("text", ["", "no json", '{"memories": "x"}', "[1, 2]", "{" * 10])
def test_answers_without_the_tools_input_are_refused(text: str) -> None:
    with pytest.raises(PermanentExtractionError):
        tool_input_from_text(text, EXTRACTION_TOOL)


def test_internal_calls_are_marked() -> None:
    assert INTERNAL_ENV == "SQRL_INTERNAL_CALL"
