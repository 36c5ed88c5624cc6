"""`sqrl projects` finds repositories with assistant history and registers the chosen ones."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

from squirrel_cli.discovery import discover, session_cwd
from squirrel_core.events import SourceTool
from tests.cursor_stores import CursorFolder
from tests.gitrepos import git, make_repo

Sqrl = Callable[..., subprocess.CompletedProcess[str]]


def claude_session(root: Path, cwd: Path, name: str) -> Path:
    folder = root / ("-" + str(cwd).strip("/").replace("/", "-"))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.jsonl"
    records = [
        {"type": "summary", "summary": "x"},
        {"type": "user", "cwd": str(cwd), "sessionId": name, "message": {"content": "hi"}},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def codex_session(root: Path, cwd: Path, name: str) -> Path:
    folder = root / "2026" / "01" / "02"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"rollout-{name}.jsonl"
    meta = {"type": "session_meta", "payload": {"id": name, "cwd": str(cwd)}}
    path.write_text(json.dumps(meta) + "\n")
    return path


def world(tmp_path: Path) -> tuple[dict[SourceTool, list[Path]], Path, Path]:
    app = make_repo(tmp_path / "code" / "app")
    lib = make_repo(tmp_path / "code" / "lib")
    worktree = tmp_path / "code" / "app-worktrees" / "feature"
    git(app, "worktree", "add", "-q", "-b", "feature", str(worktree))
    plain = tmp_path / "notes"
    plain.mkdir()
    claude, codex = tmp_path / "claude", tmp_path / "codex"
    claude_session(claude, app / "src", "s1")
    claude_session(claude, worktree, "s2")
    claude_session(claude, tmp_path / "gone" / "x", "s3")
    claude_session(claude, plain, "s4")
    (claude / "broken").mkdir()
    (claude / "broken" / "s5.jsonl").write_bytes(b"\x00not json\n{\n")
    (claude / "broken" / "agent-1.jsonl").write_text(json.dumps({"cwd": str(lib)}) + "\n")
    codex_session(codex, lib, "c1")
    return {SourceTool.CLAUDE_CODE: [claude], SourceTool.CODEX: [codex]}, app, lib


def test_sessions_are_counted_per_repository_worktrees_included(tmp_path: Path) -> None:
    roots, app, lib = world(tmp_path)

    found = {r.root: r for r in discover(roots, [str(lib)])}

    assert found[str(app)].sessions == 2  # the main checkout and its linked worktree
    assert found[str(app)].sources == {"claude_code"}
    assert not found[str(app)].registered
    assert found[str(lib)].sessions == 1 and found[str(lib)].registered  # subagent file skipped
    gone = found[str(tmp_path / "gone" / "x")]
    assert not gone.exists
    assert not found[str(tmp_path / "notes")].is_git
    assert all(r.last_activity is not None for r in found.values())


def test_a_file_that_names_no_folder_is_skipped(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    assert session_cwd(SourceTool.CLAUDE_CODE, empty) is None
    assert session_cwd(SourceTool.CLAUDE_CODE, tmp_path / "missing.jsonl") is None


def test_sqrl_projects_lists_and_registers_in_one_step(
    tmp_path: Path, sqrl: Sqrl, sqrl_env: dict[str, str]
) -> None:
    roots, app, lib = world(tmp_path)
    sqrl_env["SQRL_INGEST_CLAUDE_ROOTS"] = str(roots[SourceTool.CLAUDE_CODE][0])
    sqrl_env["SQRL_INGEST_CODEX_ROOTS"] = str(roots[SourceTool.CODEX][0])
    sqrl_env["SQRL_INGEST_GEMINI_ROOTS"] = str(tmp_path / "no-gemini")
    cursor = CursorFolder(tmp_path / "Cursor" / "User")
    cursor.workspace("w1", lib.as_uri(), ["chat-1", "chat-2"])
    cursor.workspace("w2", "vscode-remote://ssh-remote+box/srv/app", ["chat-3"])
    sqrl_env["SQRL_INGEST_CURSOR_ROOTS"] = str(cursor.root)

    listed = sqrl("projects", "--json")
    assert listed.returncode == 0, listed.stderr
    rows = json.loads(listed.stdout)["repositories"]
    assert {r["root"] for r in rows} >= {str(app), str(lib)}
    [lib_row] = [r for r in rows if r["root"] == str(lib)]
    assert lib_row["sources"] == ["codex", "cursor"] and lib_row["sessions"] == 3
    assert not any(r["root"].startswith("/srv") for r in rows)
    number = 1 + [r["root"] for r in rows].index(str(app))

    done = sqrl("projects", "--register", str(number), str(lib), "--json")
    assert done.returncode == 0, done.stderr
    after = {r["root"]: r for r in json.loads(done.stdout)["repositories"]}
    assert after[str(app)]["registered"] and after[str(lib)]["registered"]
    assert (app / ".ctx").is_dir() or "registered" in done.stdout

    bad = sqrl("projects", "--register", "99")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1  # a bad argument
    table = sqrl("projects")
    assert table.returncode == 0 and "sessions" in table.stdout
