"""The real Codex CLI in code mode (`[features] code_mode`): the scripted model answers with one
JavaScript `exec` cell that prints a file through `tools.exec_command` and edits it through
`tools.apply_patch`, then applies a patch it bound to a name and runs two commands it puts
together at run time. What Squirrel stores of that session is a read of the file (a `read_file`
call and its text), the patches (an `apply_patch` call and a change each), as the same command
and patch outside a cell give, not a bare command line, and each run-time command with its exit
code.

One `codex exec` run in a fresh repository after `sqrl init --hooks codex`; Codex runs the cell in
its own JavaScript isolate and the command and patch for real (`--dangerously-bypass-approvals-
and-sandbox`: the repository is a temporary folder of the test).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.real_hosts import (
    HOST_RUN_SECONDS,
    HOST_SESSION_TIMEOUT,
    git,
    host_version,
    sqrl,
    stored_events,
    wait_for_services,
    wait_for_storage,
)
from tests.e2e.scripted_model import Block, custom_tool_call, scripted_model, text
from tests.e2e.test_codex import CODEX_PACKAGE, CODEX_VERSION, HOSTS_DIR, codex_binary

pytestmark = [pytest.mark.e2e, pytest.mark.hosts, pytest.mark.timeout(HOST_SESSION_TIMEOUT)]

PROMPT = "Make the README say how to run the tests quietly"
README = "# ledger\n\nRun the tests with `pytest`.\n"
PATCH = (
    "*** Begin Patch\n*** Update File: README.md\n@@\n # ledger\n \n"
    "-Run the tests with `pytest`.\n+Run the tests with `pytest -q`.\n*** End Patch\n"
)
NOTES = "*** Begin Patch\n*** Add File: NOTES.md\n+Quiet runs: `pytest -q`.\n*** End Patch\n"
#: The cell, as a code-mode model writes one: a command through `tools.exec_command`, then the
#: patch through `tools.apply_patch`, each result passed to `text(…)`; then, as Codex Desktop
#: sessions write them, a patch bound to a name first and commands put together at run time.
CELL = (
    'const r = await tools.exec_command({cmd: "cat README.md", max_output_tokens: 2000});\n'
    "text(r);\n"
    f"text(await tools.apply_patch({json.dumps(PATCH)}));\n"
    f"const notes = {json.dumps(NOTES)};\n"
    "text(await tools.apply_patch(notes));\n"
    'for (const f of ["README.md", "NOTES.md"]) {\n'
    "  text((await tools.exec_command({cmd: `wc -l ${f}`})).output);\n"
    "}\n"
)
ANSWER = "The README now says `pytest -q`."


def _said(item: dict[str, Any]) -> str:
    content = item.get("content") if item.get("type") == "message" else item.get("output")
    if isinstance(content, str):
        return content
    return "\n".join(str(c.get("text", "")) for c in content or [] if isinstance(c, dict))


def script(body: dict[str, Any]) -> list[Block]:
    """The cell once the prompt arrives; the answer once its output came back."""
    items = [i for i in body.get("input", []) if isinstance(i, dict)]
    if not any(i.get("role") == "user" and PROMPT in _said(i) for i in items):
        return [text("ok")]
    if any(i.get("type") == "custom_tool_call_output" for i in items):
        return [text(ANSWER)]
    return [custom_tool_call("exec", CELL)]


@dataclass
class Session:
    version: str
    repo: Path
    requests: list[dict[str, Any]]
    readme: str


def _config(url: str, sqrl_home: str) -> str:
    # A model whose metadata the pinned Codex knows, with the freeform `apply_patch` tool.
    return f"""model = "gpt-5.5"
model_provider = "scripted"
approval_policy = "never"
suppress_unstable_features_warning = true

[features]
code_mode = true
hooks = true

[model_providers.scripted]
name = "Scripted"
base_url = "{url}/v1"
wire_api = "responses"
env_key = "SCRIPTED_MODEL_KEY"
request_max_retries = 0
stream_max_retries = 0
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
    base = tmp_path_factory.mktemp("codex-cells")
    home, repo = base / "home", (base / "repo").resolve()
    (home / ".codex").mkdir(parents=True)
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "README.md").write_text(README)
    env = {
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), "/usr/bin", "/bin"]),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "SQRL_HOME": str(base / "sqrl"),
        "SQRL_HOOKS_DEADLINE_MS": "60000",
    }
    for args in (
        ["init", "--no-mcp", "--hooks", "codex"],
        ["config", "set", "extractor.backend", "rules"],
    ):
        done = sqrl(env, repo, *args)
        assert done.returncode == 0, done.stderr
    # Up before the run: nothing in this session calls a memory tool that would start them.
    up = sqrl(env, repo, "up", "--detach")
    assert up.returncode == 0, up.stderr
    wait_for_services(env, repo)
    with scripted_model(script) as model:
        (home / ".codex" / "config.toml").write_text(_config(model.url, env["SQRL_HOME"]))
        try:
            done = subprocess.run(
                [
                    str(codex),
                    "exec",
                    "--dangerously-bypass-hook-trust",
                    "--dangerously-bypass-approvals-and-sandbox",
                    PROMPT,
                ],
                cwd=repo,
                env={**env, "SCRIPTED_MODEL_KEY": "scripted"},
                capture_output=True,
                text=True,
                timeout=HOST_RUN_SECONDS,
                check=False,
            )
            assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
            wait_for_storage(repo, PROMPT)
            yield Session(
                version=version,
                repo=repo,
                requests=[r.body for r in model.requests if r.path.startswith("/v1/responses")],
                readme=(repo / "README.md").read_text(),
            )
        finally:
            sqrl(env, repo, "down")


def test_codex_ran_the_cell_for_real(session: Session) -> None:
    """The pinned Codex offered `exec`, ran the cell's command and patch, and sent the answer."""
    assert session.version.endswith(CODEX_VERSION)
    tools = {t.get("name") for t in session.requests[0].get("tools", [])}
    assert "exec" in tools
    assert session.readme == README.replace("`pytest`", "`pytest -q`")
    outputs = [
        _said(i)
        for body in session.requests
        for i in body.get("input", [])
        if isinstance(i, dict) and i.get("type") == "custom_tool_call_output"
    ]
    assert outputs and "Run the tests with `pytest`." in outputs[-1]


def test_the_cells_cat_is_stored_as_a_read_of_the_file(session: Session) -> None:
    stored = stored_events(session.repo)
    reads = [(kind, c) for kind, _, c in stored if c.get("tool") == "read_file"]
    assert [kind for kind, _ in reads] == ["tool_call", "tool_result"]
    call, result = reads[0][1], reads[1][1]
    assert call["input"]["command"] == "cat README.md"
    assert result["output"] == README and result["is_error"] is False
    runs = [c["command"] for kind, _, c in stored if kind in ("command_run", "test_run")]
    assert "cat README.md" not in runs


def test_the_cells_patch_is_stored_as_a_change_of_the_file(session: Session) -> None:
    stored = stored_events(session.repo)
    patches = [c for kind, _, c in stored if kind == "tool_call" and c.get("tool") == "apply_patch"]
    assert len(patches) == 2 and "*** Update File: README.md" in patches[0]["input"]["input"]
    # The patch the cell bound to a name first is read as the literal one is.
    assert "*** Add File: NOTES.md" in patches[1]["input"]["input"]
    changes = [c for kind, _, c in stored if kind == "code_change"]
    assert [c["path"] for c in changes] == ["README.md", "NOTES.md"]
    assert [c["tool_use_id"] for c in changes] == [p["tool_use_id"] for p in patches]


def test_commands_the_cell_put_together_at_run_time_are_each_stored(session: Session) -> None:
    """Their text is not in the cell's source: Codex's own record of each names it."""
    stored = stored_events(session.repo)
    runs = [c for kind, _, c in stored if kind in ("command_run", "test_run")]
    wc = [(c["command"], c["exit_code"]) for c in runs if c["command"].startswith("wc -l")]
    assert wc == [("wc -l README.md", 0), ("wc -l NOTES.md", 0)]
