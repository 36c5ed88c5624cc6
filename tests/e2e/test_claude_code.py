"""The real Claude Code (from npm, the version pinned in npm-hosts.txt) against a scripted model.

One session of two prompts in a fresh repository after `sqrl init --mcp --hooks claude`, with
the services down at the start (so `sqrl mcp` starts them: a cold start), `claude -p` for the
first prompt and `claude -p --continue` for the second. What reached the model comes from the
scripted model server's request log; what Squirrel stored, from the project's store and
`sqrl status --json`. `.ci/run` installs the client (`npm install --prefix .venv/hosts`); the
tests skip, saying why, where it is not installed.
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
    StartupRetries,
    host_version,
    wait_for_services,
    wait_for_storage,
)
from tests.e2e.real_hosts import git as _git
from tests.e2e.real_hosts import sqrl as _sqrl
from tests.e2e.real_hosts import stored_events as _events
from tests.e2e.scripted_model import (
    Block,
    Logged,
    ScriptedModel,
    blocks_of,
    result_text,
    scripted_model,
    text,
    tool_names,
    tool_results,
    tool_use,
)
from tests.mcp_host import READ_TOOLS, footer_tokens

pytestmark = [pytest.mark.e2e, pytest.mark.hosts, pytest.mark.timeout(HOST_SESSION_TIMEOUT)]

ROOT = Path(__file__).resolve().parents[2]
PINNED = (Path(__file__).with_name("npm-hosts.txt")).read_text().split()
CLAUDE_PACKAGE = next(p for p in PINNED if p.startswith("@anthropic-ai/claude-code@"))
CLAUDE_VERSION = CLAUDE_PACKAGE.rsplit("@", 1)[1]
HOSTS_DIR = ROOT / ".venv" / "hosts"

TASK_TOOL = "mcp__ctx-memory__get_task_context"
BUDGET = 150
FIRST_PROMPT = "Run the tests of this project"
SECOND_PROMPT = "Thanks. Is there anything left to lint?"
HOOK_CONTEXT = "SessionStart hook additional context: Squirrel memory:"
#: How Squirrel's two hook texts open: the session start's digest, a prompt's task context.
SESSION_START_OPENING = "Squirrel memory:"
TASK_CONTEXT_OPENING = "## Relevant memory for this task"


def claude_binary() -> Path | None:
    configured = os.environ.get("SQRL_TEST_CLAUDE_CODE")
    found = Path(configured) if configured else HOSTS_DIR / "node_modules" / ".bin" / "claude"
    return found if found.is_file() and os.access(found, os.X_OK) else None


#: What a `claude -p` run against the scripted model needs besides its URL: a dummy key and no
#: traffic of its own.
SCRIPTED_CLIENT_ENV = {
    "ANTHROPIC_API_KEY": "sk-ant-scripted-model",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "DISABLE_TELEMETRY": "1",
    "DISABLE_ERROR_REPORTING": "1",
    "DISABLE_AUTOUPDATER": "1",
}


def pinned_claude() -> tuple[Path, str]:
    """The installed Claude Code and the version it reports; the tests skip, saying why, where
    it is missing or not the pinned version."""
    claude = claude_binary()
    if claude is None:
        pytest.skip(
            f"Claude Code is not installed in {HOSTS_DIR} (.ci/run installs it with npm:"
            f" npm install --prefix .venv/hosts {CLAUDE_PACKAGE})"
        )
    version = host_version(claude)
    if not version.startswith(CLAUDE_VERSION):
        pytest.skip(f"Claude Code {version!r} is installed; these tests pin {CLAUDE_VERSION}")
    return claude, version


# --- the scripted model ---------------------------------------------------------------------------


class Script:
    """Claude Code's main loop (the requests offering Bash): the first prompt loads the memory
    tool's schema, calls it (again while the services are still starting), runs one command and
    ends; the second prompt is answered in text. Anything else (titles, checks) gets "ok"."""

    def __init__(self, repo: Path) -> None:
        self.repo = repo
        self.retries = StartupRetries()

    def __call__(self, body: dict[str, Any]) -> list[Block]:
        if "Bash" not in tool_names(body):
            return [text("ok")]
        messages = [m for m in body.get("messages", []) if isinstance(m, dict)]
        used = {
            str(b.get("id")): str(b.get("name"))
            for m in messages
            if m.get("role") == "assistant"
            for b in blocks_of(m)
            if b.get("type") == "tool_use"
        }
        # Claude Code puts system messages between the turns (its `per-turn-control` beta).
        said_by_user = [m for m in messages if m.get("role") == "user"]
        last = blocks_of(said_by_user[-1]) if said_by_user else []
        answered = [b for b in last if b.get("type") == "tool_result"]
        if not answered:
            said = " ".join(str(b.get("text", "")) for b in last)
            if FIRST_PROMPT in said:
                return [tool_use("ToolSearch", {"query": f"select:{TASK_TOOL}", "max_results": 1})]
            return [text("Nothing to lint: the tests ran clean.")]
        tool = used.get(str(answered[-1].get("tool_use_id")), "")
        if tool == "ToolSearch" or (
            tool == TASK_TOOL and self.retries.again(result_text(answered[-1]))
        ):
            return [self._ask_memory()]
        if tool == TASK_TOOL:
            return [tool_use("Bash", {"command": "echo tests-ok", "description": "Run the tests"})]
        return [text("Done: the tests pass.")]

    def _ask_memory(self) -> Block:
        return tool_use(
            TASK_TOOL,
            {
                "project_root": str(self.repo),
                "task_description": "run the tests",
                "context_budget_tokens": BUDGET,
            },
        )


# --- one session, shared by the tests -------------------------------------------------------------


@dataclass
class Session:
    version: str
    model: ScriptedModel
    runs: list[list[Logged]]
    """The main-loop requests of each `claude -p` run, in order."""
    repo: Path
    env: dict[str, str]
    git_status_before: str
    git_status_after: str


def _main_loop(requests: list[Logged]) -> list[Logged]:
    return [
        r for r in requests if r.path.startswith("/v1/messages") and "Bash" in tool_names(r.body)
    ]


def model_env(url: str) -> dict[str, str]:
    """What points Claude Code at the scripted model at `url`, with nothing else sent out."""
    return {"ANTHROPIC_BASE_URL": url, **SCRIPTED_CLIENT_ENV}


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    claude, version = pinned_claude()
    base = tmp_path_factory.mktemp("claude-code")
    home, repo = base / "home", (base / "repo").resolve()
    (home / ".claude").mkdir(parents=True)
    # The project's .mcp.json servers run without the trust prompt a terminal session shows.
    (home / ".claude" / "settings.json").write_text('{"enableAllProjectMcpServers": true}\n')
    repo.mkdir()
    _git(repo, "init", "-q")
    (repo / "README.md").write_text("# demo\n\nRun the tests with `pytest`.\n")
    (repo / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0.1"\n')
    bindir = str(Path(sys.executable).parent)
    env = {
        "PATH": os.pathsep.join([bindir, "/usr/local/bin", "/usr/bin", "/bin"]),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "SQRL_HOME": str(base / "sqrl"),
        # The hook the host runs gets the longest deadline: a loaded machine starting it can
        # spend the default second before the gateway answers (the deadline has its own tests).
        "SQRL_HOOKS_DEADLINE_MS": "60000",
    }
    for args in (
        ["init", "--mcp", "--hooks", "claude"],
        # Squirrel's own extraction never asks a model here (the environment Claude Code hands
        # `sqrl mcp` holds an API key and a base URL: the scripted model's).
        ["config", "set", "extractor.backend", "rules"],
    ):
        done = _sqrl(env, repo, *args)
        assert done.returncode == 0, done.stderr
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "init")  # .mcp.json is the team's; the hooks file is not
    before = _git(repo, "status", "--porcelain", "--untracked-files=all")
    with scripted_model(Script(repo)) as model:
        # Claude Code does not hold its first request for MCP servers (MCP_CONNECT_TIMEOUT_MS
        # counts only with MCP_CONNECTION_NONBLOCKING=0): what the first request offers depends
        # on which start was quicker, the host's or `sqrl mcp`'s (see the cold-start test).
        client_env = {**env, **model_env(model.url)}
        runs: list[list[Logged]] = []
        try:
            for extra in ([FIRST_PROMPT], ["--continue", SECOND_PROMPT]):
                seen = len(model.requests)
                done = subprocess.run(
                    [
                        str(claude),
                        "-p",
                        *extra,
                        "--allowedTools",
                        "mcp__ctx-memory ToolSearch Bash(echo:*)",
                        "--output-format",
                        "json",
                    ],
                    cwd=repo,
                    env=client_env,
                    capture_output=True,
                    text=True,
                    timeout=HOST_RUN_SECONDS,
                    check=False,
                )
                assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
                runs.append(_main_loop(model.requests[seen:]))
                if extra == [FIRST_PROMPT]:
                    # The second run is to find the services up (its session-start hook does
                    # not wait for them), whatever the first run's calls were answered.
                    wait_for_services(env, repo)
            wait_for_storage(repo, SECOND_PROMPT)
            yield Session(
                version=version,
                model=model,
                runs=runs,
                repo=repo,
                env=env,
                git_status_before=before,
                git_status_after=_git(repo, "status", "--porcelain", "--untracked-files=all"),
            )
        finally:
            _sqrl(env, repo, "down")


# --- what reached the model -----------------------------------------------------------------------


def test_the_client_is_the_pinned_claude_code(session: Session) -> None:
    assert session.version.startswith(CLAUDE_VERSION)
    assert [len(run) for run in session.runs] >= [3, 1]


def test_a_cold_start_offers_the_tools_in_the_first_request(session: Session) -> None:
    """The services were down: `sqrl mcp` answered the tool list while they started. Claude Code
    sends its first request without waiting for a server that has not listed its tools yet (on a
    loaded machine, its own start and `sqrl mcp`'s take seconds): it then names the server as
    still connecting, for ToolSearch to wait for, which is offering it too; a server it counts
    as failed is not offered."""
    first = json.dumps(session.runs[0][0].body)
    missing = [name for name in sorted(READ_TOOLS) if f"mcp__ctx-memory__{name}" not in first]
    if missing:
        connecting = re.search(r"still connecting[^\n]*\\n(?:[\w-]+\\n)*ctx-memory\\n", first)
        assert connecting, f"the first request names neither {missing} nor ctx-memory connecting"
        sys.stderr.write("\nThe first request named ctx-memory as a server still connecting\n")


def test_the_loaded_tool_schema_reached_the_model(session: Session) -> None:
    offered = {
        t["name"]: t
        for r in session.runs[0]
        for t in r.body.get("tools", [])
        if isinstance(t, dict) and t.get("name") == TASK_TOOL
    }
    assert TASK_TOOL in offered, "ToolSearch loaded the tool's schema into the tool list"
    schema = offered[TASK_TOOL]["input_schema"]
    assert {"project_root", "task_description", "context_budget_tokens"} <= set(
        schema["properties"]
    )


def test_the_session_start_hook_context_reached_the_model(session: Session) -> None:
    """The second run found the services up: its first request carries the hook's context."""
    said = [
        str(b.get("text", ""))
        for m in session.runs[1][0].body.get("messages", [])
        for b in blocks_of(m)
        if HOOK_CONTEXT in str(b.get("text", ""))
    ]
    assert said, "no SessionStart context in the second run's first request" + _evidence(session)
    sys.stderr.write(f"\nSessionStart context as the model received it:\n{said[0]}\n")
    assert "📏 ~" in said[0]


def _evidence(session: Session) -> str:
    """What the first run's tool calls were answered and what the gateway logged of its hooks
    and failed calls: why a session got no memory, when it got none."""
    answers = [
        result_text(result)[:200]
        for request in session.runs[0]
        for result in tool_results(request.body).values()
    ]
    logged: list[str] = []
    for service in ("gateway", "memory", "supervisor"):
        log = Path(session.env["SQRL_HOME"]) / "logs" / f"{service}.log"
        try:
            lines = log.read_text(errors="replace").splitlines()
        except OSError:
            continue
        logged += [
            f"{service}: {line[:300]}"
            for line in lines
            if any(word in line for word in ("hook_", "error", "warning", "serving", "failed"))
        ][-40:]
    return "\ntool answers:\n" + "\n".join(answers) + "\nlogged:\n" + "\n".join(logged)


def tool_answer(session: Session) -> str:
    """The text of the first successful memory answer, as the model received it: the blocks
    of the tool result that came from Squirrel (Claude Code appends its own reminders)."""
    for request in session.runs[0]:
        uses = {
            str(b.get("id"))
            for m in request.body.get("messages", [])
            for b in blocks_of(m)
            if b.get("type") == "tool_use" and b.get("name") == TASK_TOOL
        }
        for use_id, result in tool_results(request.body).items():
            if use_id not in uses or result.get("is_error"):
                continue
            content = result.get("content")
            if isinstance(content, str):
                return content
            parts = [
                str(b.get("text", ""))
                for b in content or []
                if not str(b.get("text", "")).startswith("<system-reminder>")
            ]
            return "\n".join(parts)
    pytest.fail("no successful get_task_context answer reached the model" + _evidence(session))


def test_a_tool_answer_reaches_the_model_as_markdown_within_its_budget(session: Session) -> None:
    answer = tool_answer(session).rstrip("\n")
    sys.stderr.write(
        f"\nget_task_context answer as the model received it ({len(answer)} chars,"
        f" ~{estimate_tokens(answer)} tokens, budget {BUDGET}):\n{answer}\n"
    )
    assert not answer.lstrip().startswith(("{", "[")), "a JSON copy, not the markdown"
    assert answer.startswith("## Relevant memory for this task")
    assert estimate_tokens(answer) <= footer_tokens(answer) <= BUDGET


def test_a_call_before_the_services_served_was_told_to_call_again(session: Session) -> None:
    """The first call came while the services started; it was answered, then retried."""
    answers = [
        result_text(result)
        for request in session.runs[0]
        for result in tool_results(request.body).values()
    ]
    assert any("📏" in a for a in answers), _evidence(session)
    early = [a for a in answers if "still starting" in a]
    assert all("again" in a for a in early)


# --- what Squirrel stored -------------------------------------------------------------------------


def test_the_session_is_stored_with_the_right_speakers(session: Session) -> None:
    stored = _events(session.repo)
    typed = [
        c["text"] for kind, origin, c in stored if kind == "user_message" and origin == "typed"
    ]
    assert typed == [FIRST_PROMPT, SECOND_PROMPT]
    # The second run's session start, and a prompt's task context when the services served
    # by the time its hook ran: on a loaded machine Claude Code's own start can outlast theirs
    # (which `sqrl mcp` began at its launch), and the first prompt's hook then finds them up.
    hook = [c["text"] for kind, origin, c in stored if origin == "hook"]
    starts = [h for h in hook if h.startswith(SESSION_START_OPENING)]
    prompts = [h for h in hook if h.startswith(TASK_CONTEXT_OPENING)]
    assert starts, f"no session-start text stored; hook texts: {hook}"
    assert len(starts) + len(prompts) == len(hook), f"a hook text of neither kind: {hook}"
    calls = [c.get("tool") for kind, _, c in stored if kind == "tool_call"]
    assert TASK_TOOL in calls
    commands = [c.get("command") for kind, _, c in stored if kind in ("command_run", "test_run")]
    assert "echo tests-ok" in commands
    answers = [c["text"] for kind, _, c in stored if kind == "assistant_response"]
    assert answers[-1] == "Nothing to lint: the tests ran clean."


def test_every_record_was_read_or_ignored_by_name(session: Session) -> None:
    done = _sqrl(session.env, session.repo, "status", "--json")
    assert done.returncode == 0, done.stderr
    skipped = json.loads(done.stdout)["ingest"]["sources"]["claude_code"]["skipped"]
    unknown = {k: v for k, v in skipped.items() if re.match(r"(unknown|malformed|missing)", k)}
    assert not unknown, f"records Squirrel could not place: {skipped}"


def test_git_status_stays_clean(session: Session) -> None:
    assert session.git_status_before == ""
    assert session.git_status_after == ""


# --- why Squirrel's answers carry no structured copy ----------------------------------------------


def test_a_result_with_structured_content_reaches_the_model_as_that_json_alone(
    tmp_path: Path,
) -> None:
    """With `structuredContent` in a tool result, Claude Code gives the model that JSON and not
    the result's text: a structured copy of an answer would replace the markdown the footer
    describes (tests/mcp_host.py measures budgets the same way)."""
    claude = claude_binary()
    if claude is None:
        pytest.skip(f"Claude Code is not installed in {HOSTS_DIR}")
    from tests.e2e import structured_probe_server as probe  # noqa: PLC0415

    home, repo = tmp_path / "home", tmp_path / "repo"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "settings.json").write_text('{"enableAllProjectMcpServers": true}\n')
    repo.mkdir()
    server = {"type": "stdio", "command": sys.executable, "args": [probe.__file__]}
    (repo / ".mcp.json").write_text(json.dumps({"mcpServers": {"probe": server}}))

    def script(body: dict[str, Any]) -> list[Block]:
        if "Bash" not in tool_names(body):
            return [text("ok")]
        if tool_results(body):
            return [text("done")]
        return [tool_use("mcp__probe__answer", {})]

    with scripted_model(script) as model:
        env = {
            "PATH": "/usr/bin:/bin",
            "HOME": str(home),
            "ANTHROPIC_BASE_URL": model.url,
            "ANTHROPIC_API_KEY": "sk-ant-scripted-model",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        }
        done = subprocess.run(
            [str(claude), "-p", "go", "--allowedTools", "mcp__probe", "--output-format", "json"],
            cwd=repo,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        received = [
            result_text(result)
            for request in model.requests
            for result in tool_results(request.body).values()
        ]
    assert received, "the tool was not called"
    assert json.loads(received[-1]) == probe.STRUCTURED
