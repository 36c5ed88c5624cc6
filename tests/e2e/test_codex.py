"""The real Codex CLI (from npm, the version pinned in npm-hosts.txt) against a scripted model.

Like test_claude_code.py: one session of two prompts (`codex exec`, then `codex exec resume
--last`) in a fresh repository after `sqrl init --hooks codex`, services down at the start. Codex
reaches the scripted model through a custom provider (`wire_api = "responses"`), runs `sqrl mcp`
from `[mcp_servers.ctx-memory]` and the hooks from `~/.codex/hooks.json` (`[features] hooks`;
`--dangerously-bypass-hook-trust`, since `codex exec` skips hooks nobody has trusted yet).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from squirrel_core.tokens import estimate_tokens
from tests.e2e.real_hosts import (
    HOST_RUN_SECONDS,
    HOST_SESSION_TIMEOUT,
    TASK_ONLY_PITFALL,
    StartupRetries,
    git,
    host_version,
    remember_beyond_the_session_start,
    sqrl,
    stored_events,
    wait_for_storage,
)
from tests.e2e.scripted_model import Block, Logged, ScriptedModel, scripted_model, text, tool_use
from tests.mcp_host import READ_TOOLS, footer_tokens

pytestmark = [pytest.mark.e2e, pytest.mark.hosts, pytest.mark.timeout(HOST_SESSION_TIMEOUT)]

ROOT = Path(__file__).resolve().parents[2]
PINNED = Path(__file__).with_name("npm-hosts.txt").read_text().split()
CODEX_PACKAGE = next(p for p in PINNED if p.startswith("@openai/codex@"))
CODEX_VERSION = CODEX_PACKAGE.rsplit("@", 1)[1]
HOSTS_DIR = ROOT / ".venv" / "hosts"

NAMESPACE = "mcp__ctx_memory"
BUDGET = 150
PROMPT_BUDGET = 300
"""`hooks.prompt_budget`'s default."""
FIRST_PROMPT = "Run the tests of this project"
SECOND_PROMPT = "Run the tests again, this time with coverage"


def codex_binary() -> Path | None:
    configured = os.environ.get("SQRL_TEST_CODEX")
    found = Path(configured) if configured else HOSTS_DIR / "node_modules" / ".bin" / "codex"
    return found if found.is_file() and os.access(found, os.X_OK) else None


def _said(item: dict[str, Any]) -> str:
    content = item.get("content") if item.get("type") == "message" else item.get("output")
    if isinstance(content, str):
        return content
    return "\n".join(str(c.get("text", "")) for c in content or [] if isinstance(c, dict))


class Script:
    """The first prompt calls get_task_context (again while the services are still starting),
    then ends; the second prompt is answered in text."""

    def __init__(self, repo: Path) -> None:
        self.repo = repo
        self.retries = StartupRetries()

    def __call__(self, body: dict[str, Any]) -> list[Block]:
        items = [i for i in body.get("input", []) if isinstance(i, dict)]
        asked = [
            n
            for n, i in enumerate(items)
            if i.get("role") == "user" and any(p in _said(i) for p in (FIRST_PROMPT, SECOND_PROMPT))
        ]
        if not asked:
            return [text("ok")]
        prompt, since = _said(items[asked[-1]]), items[asked[-1] + 1 :]
        outputs = [i for i in since if i.get("type") == "function_call_output"]
        if SECOND_PROMPT in prompt:
            return [text("Ran them again with coverage: still passing.")]
        if not outputs or self.retries.again(_said(outputs[-1])):
            call = tool_use(
                "get_task_context",
                {
                    "project_root": str(self.repo),
                    "task_description": "run the tests",
                    "context_budget_tokens": BUDGET,
                },
            )
            return [{**call, "namespace": NAMESPACE}]
        return [text("Done: the tests pass.")]


@dataclass
class Session:
    version: str
    model: ScriptedModel
    runs: list[list[Logged]]
    repo: Path
    env: dict[str, str]
    git_status_before: str
    git_status_after: str


def _config(url: str, sqrl_home: str) -> str:
    return f"""model = "gpt-5-codex"
model_provider = "scripted"
approval_policy = "never"
# Codex waits this long for an MCP server before a turn goes out without its tools
# (docs/hosts.md sets it: `sqrl mcp` took longer than Codex's short default at load 24).
mcp_optional_startup_grace_ms = 60000

[features]
hooks = true

[model_providers.scripted]
name = "Scripted"
base_url = "{url}/v1"
wire_api = "responses"
env_key = "SCRIPTED_MODEL_KEY"
request_max_retries = 0
stream_max_retries = 0

[mcp_servers.ctx-memory]
command = "sqrl"
args = ["mcp"]
startup_timeout_sec = 30
# Codex hands MCP servers a few variables only: a home other than ~/.sqrl is named here.
env = {{ SQRL_HOME = "{sqrl_home}" }}
"""


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    codex = codex_binary()
    if codex is None:
        pytest.skip(
            f"Codex is not installed in {HOSTS_DIR} (.ci/run installs it with npm:"
            f" npm install --prefix .venv/hosts {CODEX_PACKAGE})"
        )
    version = host_version(codex)
    if not version.endswith(CODEX_VERSION):
        pytest.skip(f"Codex {version!r} is installed; these tests pin {CODEX_VERSION}")
    base = tmp_path_factory.mktemp("codex")
    home, repo = base / "home", (base / "repo").resolve()
    (home / ".codex").mkdir(parents=True)
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "README.md").write_text("# demo\n\nRun the tests with `pytest`.\n")
    (repo / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0.1"\n')
    env = {
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), "/usr/bin", "/bin"]),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "SQRL_HOME": str(base / "sqrl"),
        # The hook the host runs gets the longest deadline: a loaded machine starting it can
        # spend the default second before the gateway answers (the deadline has its own tests).
        "SQRL_HOOKS_DEADLINE_MS": "60000",
    }
    for args in (
        ["init", "--no-mcp", "--hooks", "codex"],
        ["config", "set", "extractor.backend", "rules"],
    ):
        done = sqrl(env, repo, *args)
        assert done.returncode == 0, done.stderr
    remember_beyond_the_session_start(env, repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "init")
    before = git(repo, "status", "--porcelain", "--untracked-files=all")
    with scripted_model(Script(repo)) as model:
        (home / ".codex" / "config.toml").write_text(_config(model.url, env["SQRL_HOME"]))
        client_env = {**env, "SCRIPTED_MODEL_KEY": "scripted"}
        runs: list[list[Logged]] = []
        try:
            for extra in ([FIRST_PROMPT], ["resume", "--last", SECOND_PROMPT]):
                seen = len(model.requests)
                done = subprocess.run(
                    [str(codex), "exec", "--dangerously-bypass-hook-trust", *extra],
                    cwd=repo,
                    env=client_env,
                    capture_output=True,
                    text=True,
                    timeout=HOST_RUN_SECONDS,
                    check=False,
                )
                assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
                runs.append(
                    [r for r in model.requests[seen:] if r.path.startswith("/v1/responses")]
                )
            wait_for_storage(repo, SECOND_PROMPT)
            yield Session(
                version=version,
                model=model,
                runs=runs,
                repo=repo,
                env=env,
                git_status_before=before,
                git_status_after=git(repo, "status", "--porcelain", "--untracked-files=all"),
            )
        finally:
            sqrl(env, repo, "down")


def test_the_client_is_the_pinned_codex(session: Session) -> None:
    assert session.version.endswith(CODEX_VERSION)
    assert [len(run) >= 1 for run in session.runs] == [True, True]


def test_a_cold_start_offers_the_tools_in_the_first_request(session: Session) -> None:
    tools = session.runs[0][0].body.get("tools", [])
    [namespace] = [t for t in tools if t.get("name") == NAMESPACE]
    assert {t["name"] for t in namespace["tools"]} == READ_TOOLS


def test_the_prompt_hook_context_reached_the_model(session: Session) -> None:
    """The second run found the services up: the prompt's task context came with it, with the
    pitfall the session start left out (and nothing the session start had given)."""
    messages = [
        _said(item)
        for item in session.runs[1][0].body.get("input", [])
        if item.get("type") == "message"
    ]
    injected = [m for m in messages if "## Relevant memory for this task" in m]
    assert injected, "no UserPromptSubmit context in the second run's first request"
    assert TASK_ONLY_PITFALL in injected[-1]
    started = [m for m in messages if m.startswith("Squirrel memory:")]
    assert started and TASK_ONLY_PITFALL not in started[-1]
    assert "Run the tests with `pytest`" in started[-1]
    assert "Run the tests with `pytest`" not in injected[-1]
    sys.stderr.write(f"\nUserPromptSubmit context as the model received it:\n{injected[-1]}\n")
    assert estimate_tokens(injected[-1]) <= footer_tokens(injected[-1]) <= PROMPT_BUDGET


def test_a_tool_answer_reaches_the_model_as_markdown_within_its_budget(session: Session) -> None:
    answers = [
        [str(c.get("text", "")) for c in item["output"] if isinstance(c, dict)]
        for request in session.runs[0]
        for item in request.body.get("input", [])
        if item.get("type") == "function_call_output" and isinstance(item.get("output"), list)
    ]
    ours = [
        "\n".join(part for part in parts if not part.startswith("Wall time:")).strip()
        for parts in answers
    ]
    good = [a for a in ours if a.startswith("## Relevant memory for this task")]
    assert good, f"no get_task_context answer reached the model: {ours}"
    answer = good[0]
    sys.stderr.write(
        f"\nget_task_context answer as Codex passed it on ({len(answer)} chars,"
        f" ~{estimate_tokens(answer)} tokens, budget {BUDGET}):\n{answer}\n"
    )
    assert estimate_tokens(answer) <= footer_tokens(answer) <= BUDGET


def test_the_session_is_stored_with_the_right_speakers(session: Session) -> None:
    stored = stored_events(session.repo)
    typed = [
        c["text"] for kind, origin, c in stored if kind == "user_message" and origin == "typed"
    ]
    assert typed == [FIRST_PROMPT, SECOND_PROMPT]
    calls = [str(c.get("tool")) for kind, _, c in stored if kind == "tool_call"]
    assert any(call.endswith("get_task_context") for call in calls)
    answers = [c["text"] for kind, _, c in stored if kind == "assistant_response"]
    assert answers[-1] == "Ran them again with coverage: still passing."


def test_every_record_was_read_or_ignored_by_name(session: Session) -> None:
    done = sqrl(session.env, session.repo, "status", "--json")
    assert done.returncode == 0, done.stderr
    skipped = json.loads(done.stdout)["ingest"]["sources"]["codex"]["skipped"]
    unknown = {k: v for k, v in skipped.items() if re.match(r"(unknown|malformed|internal)", k)}
    assert not unknown, f"records Squirrel could not place: {skipped}"


def test_git_status_stays_clean(session: Session) -> None:
    assert session.git_status_before == ""
    assert session.git_status_after == ""
