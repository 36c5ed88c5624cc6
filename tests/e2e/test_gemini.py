"""The real Gemini CLI (from npm, the version pinned in npm-hosts.txt) against a scripted model.

Like test_claude_code.py: one session of two prompts (`gemini -p`, then `gemini --resume latest
-p`) in a fresh repository after `sqrl init --hooks gemini`, services down at the start. The
Gemini CLI reaches the scripted model through `GOOGLE_GEMINI_BASE_URL` (an API key, and `-m` so
that it routes no request through its model classifier), runs `sqrl mcp` from the user's
`mcpServers` and the hooks from the same `~/.gemini/settings.json`.
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
from tests.e2e.scripted_model import (
    Block,
    Logged,
    ScriptedModel,
    is_model_call,
    scripted_model,
    text,
    tool_use,
)
from tests.mcp_host import READ_TOOLS, footer_tokens

pytestmark = [pytest.mark.e2e, pytest.mark.hosts, pytest.mark.timeout(HOST_SESSION_TIMEOUT)]

ROOT = Path(__file__).resolve().parents[2]
PINNED = Path(__file__).with_name("npm-hosts.txt").read_text().split()
GEMINI_PACKAGE = next(p for p in PINNED if p.startswith("@google/gemini-cli@"))
GEMINI_VERSION = GEMINI_PACKAGE.rsplit("@", 1)[1]
HOSTS_DIR = ROOT / ".venv" / "hosts"

PREFIX = "mcp_ctx-memory_"
BUDGET = 150
PROMPT_BUDGET = 300
FIRST_PROMPT = "Run the tests of this project"
SECOND_PROMPT = "Run the tests again, this time with coverage"
MODEL = "gemini-2.5-flash"


def gemini_binary() -> Path | None:
    configured = os.environ.get("SQRL_TEST_GEMINI")
    found = Path(configured) if configured else HOSTS_DIR / "node_modules" / ".bin" / "gemini"
    return found if found.is_file() and os.access(found, os.X_OK) else None


def _texts(content: dict[str, Any]) -> str:
    return "\n".join(str(p.get("text", "")) for p in content.get("parts", []) if "text" in p)


def _responses(content: dict[str, Any]) -> list[dict[str, Any]]:
    return [p["functionResponse"] for p in content.get("parts", []) if "functionResponse" in p]


class Script:
    """The first prompt calls get_task_context (again while the services are still starting),
    then ends; the second prompt is answered in text."""

    def __init__(self, repo: Path) -> None:
        self.repo = repo
        self.retries = StartupRetries()

    def __call__(self, body: dict[str, Any]) -> list[Block]:
        contents = [c for c in body.get("contents", []) if isinstance(c, dict)]
        asked = [
            n
            for n, c in enumerate(contents)
            if c.get("role") == "user"
            and any(p in _texts(c) for p in (FIRST_PROMPT, SECOND_PROMPT))
        ]
        if not asked:
            return [text("ok")]
        prompt = _texts(contents[asked[-1]])
        answers = [r for c in contents[asked[-1] + 1 :] for r in _responses(c)]
        if SECOND_PROMPT in prompt:
            return [text("Ran them again with coverage: still passing.")]
        if not answers or self.retries.again(json.dumps(answers[-1])):
            return [
                tool_use(
                    f"{PREFIX}get_task_context",
                    {
                        "project_root": str(self.repo),
                        "task_description": "run the tests",
                        "context_budget_tokens": BUDGET,
                    },
                )
            ]
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


def _settings(home: Path, sqrl_home: str) -> None:
    """The user's settings `sqrl hooks install` wrote, plus the API-key login and the server."""
    path = home / ".gemini" / "settings.json"
    data = json.loads(path.read_text())
    data["security"] = {"auth": {"selectedType": "gemini-api-key"}}
    data["mcpServers"] = {
        "ctx-memory": {
            "command": "sqrl",
            "args": ["mcp"],
            "timeout": 30000,
            "env": {"SQRL_HOME": sqrl_home},
        }
    }
    path.write_text(json.dumps(data, indent=2))


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    gemini = gemini_binary()
    if gemini is None:
        pytest.skip(
            f"the Gemini CLI is not installed in {HOSTS_DIR} (.ci/run installs it with npm:"
            f" npm install --prefix .venv/hosts {GEMINI_PACKAGE})"
        )
    base = tmp_path_factory.mktemp("gemini")
    home, repo = base / "home", (base / "repo").resolve()
    (home / ".gemini").mkdir(parents=True)
    env = {
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), "/usr/bin", "/bin"]),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "SQRL_HOME": str(base / "sqrl"),
        # The hook the host runs gets the longest deadline: a loaded machine starting it can
        # spend the default second before the gateway answers (the deadline has its own tests).
        "SQRL_HOOKS_DEADLINE_MS": "60000",
    }
    version = host_version(gemini, env)
    if version != GEMINI_VERSION:
        pytest.skip(f"Gemini CLI {version!r} is installed; these tests pin {GEMINI_VERSION}")
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "README.md").write_text("# demo\n\nRun the tests with `pytest`.\n")
    (repo / "pyproject.toml").write_text('[project]\nname = "demo"\nversion = "0.1"\n')
    for args in (
        ["init", "--no-mcp", "--hooks", "gemini"],
        ["config", "set", "extractor.backend", "rules"],
    ):
        done = sqrl(env, repo, *args)
        assert done.returncode == 0, done.stderr
    remember_beyond_the_session_start(env, repo)
    _settings(home, env["SQRL_HOME"])
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "init")
    before = git(repo, "status", "--porcelain", "--untracked-files=all")
    with scripted_model(Script(repo)) as model:
        client_env = {
            **env,
            "GEMINI_API_KEY": "scripted",
            "GOOGLE_GEMINI_BASE_URL": model.url,
            "GEMINI_CLI_TRUST_WORKSPACE": "true",
            "GEMINI_CLI_NO_RELAUNCH": "true",
        }
        runs: list[list[Logged]] = []
        try:
            for extra in (["-p", FIRST_PROMPT], ["--resume", "latest", "-p", SECOND_PROMPT]):
                seen = len(model.requests)
                done = subprocess.run(
                    [str(gemini), "-m", MODEL, "--yolo", *extra],
                    cwd=repo,
                    env=client_env,
                    capture_output=True,
                    text=True,
                    timeout=HOST_RUN_SECONDS,
                    check=False,
                )
                assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
                runs.append([r for r in model.requests[seen:] if is_model_call(r.path)])
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


def _declared(request: Logged) -> set[str]:
    return {
        str(f.get("name"))
        for tool in request.body.get("tools", [])
        for f in tool.get("functionDeclarations", [])
    }


def test_the_client_is_the_pinned_gemini_cli(session: Session) -> None:
    assert session.version == GEMINI_VERSION
    assert all(session.runs)


def test_a_cold_start_offers_the_tools_in_the_first_request(session: Session) -> None:
    declared = _declared(session.runs[0][0])
    assert {f"{PREFIX}{name}" for name in READ_TOOLS} <= declared


def test_the_prompt_hook_context_reached_the_model(session: Session) -> None:
    """The second run found the services up: the prompt's task context came with it, with the
    pitfall the session start left out."""
    said = [
        _texts(c)
        for c in session.runs[1][0].body.get("contents", [])
        if "## Relevant memory for this task" in _texts(c)
    ]
    assert said, "no BeforeAgent context in the second run's first request"
    assert TASK_ONLY_PITFALL in said[-1][said[-1].index("## Relevant memory for this task") :]
    context = said[-1][said[-1].index("## Relevant memory for this task") :]
    footer = context.index("📏")
    context = context[: context.index("tokens", footer) + len("tokens")]
    sys.stderr.write(f"\nBeforeAgent context as the model received it:\n{said[-1]}\n")
    assert estimate_tokens(context) <= footer_tokens(context) <= PROMPT_BUDGET


def test_a_tool_answer_reaches_the_model_as_markdown_within_its_budget(session: Session) -> None:
    responses = [
        r.get("response", {})
        for request in session.runs[0]
        for c in request.body.get("contents", [])
        for r in _responses(c)
        if r.get("name") == f"{PREFIX}get_task_context"
    ]
    outputs = [str(r.get("output", "")) for r in responses]
    good = [o for o in outputs if "## Relevant memory for this task" in o]
    # The whole response (an `error` in place of `output` says why the call failed).
    assert good, f"no get_task_context answer reached the model: {responses[:3]}"
    received = good[0]
    sys.stderr.write(
        f"\nget_task_context answer as the Gemini CLI passed it on ({len(received)} chars):\n"
        f"{received}\n"
    )
    # The CLI wraps a tool's text in <untrusted_context> tags; inside them is the markdown.
    answer = re.sub(r"</?untrusted_context>", "", received).strip()
    assert answer.startswith("## Relevant memory for this task")
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
    skipped = json.loads(done.stdout)["ingest"]["sources"]["gemini_cli"]["skipped"]
    unknown = {k: v for k, v in skipped.items() if re.match(r"(unknown|malformed|internal)", k)}
    assert not unknown, f"records Squirrel could not place: {skipped}"


def test_git_status_stays_clean(session: Session) -> None:
    assert session.git_status_before == ""
    assert session.git_status_after == ""
