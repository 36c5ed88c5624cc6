"""`sqrl doctor`: every check fails on the damage it is about, and --repair fixes what is safe."""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import sqlite3
import stat
from pathlib import Path

import numpy as np
import pytest

from squirrel_cli.commands.doctor import Check, diagnose
from squirrel_cli.main import main
from squirrel_core.home import HomeLayout
from squirrel_core.int8_copy_file import copy_path_for
from squirrel_core.projects import add_project
from squirrel_core.settings import Settings
from squirrel_memory.index import INDEX_FILE_NAME, FaissIndex, meta_path_for
from squirrel_memory.models import MemoryType, Scope
from squirrel_memory.storage import SqliteStore
from squirrel_memory.storage.sqlite.migrator import migrate
from squirrel_memory.storage.sqlite.schema import DATA_MIGRATIONS
from tests.doctor_home import installed


@pytest.fixture
def install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Settings, Path]:
    """A home with a token, user.db and one registered, initialised project."""
    return installed(tmp_path, monkeypatch)


def failing(checks: list[Check]) -> list[str]:
    return [c.name for c in checks if not c.ok]


def by_suffix(checks: list[Check], suffix: str) -> Check:
    [found] = [c for c in checks if c.name.endswith(suffix)]
    return found


def db(repo: Path) -> Path:
    return repo / ".ctx" / "data.db"


def execute(repo: Path, *statements: str) -> None:
    with contextlib.closing(sqlite3.connect(db(repo), isolation_level=None)) as conn:
        for sql in statements:
            conn.execute(sql)


def add_memory(repo: Path) -> str:
    async def run() -> str:
        store = await SqliteStore.open(str(repo))
        try:
            item = await store.remember(
                str(repo),
                type=MemoryType.PROJECT_FACT,
                key="build",
                content="run make before tests",
                tags=[],
                importance=0.8,
                scope=Scope.PROJECT,
                user_id="alice",
            )
            return item.id
        finally:
            await store.close()

    return asyncio.run(run())


def test_a_healthy_install_passes_every_check(
    install: tuple[Settings, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    settings, _ = install
    assert failing(diagnose(settings)) == []
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert "✗" not in out and out.count("✓") >= 9


def test_loose_permissions_fail_and_repair_tightens_them(
    install: tuple[Settings, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    settings, _ = install
    layout = HomeLayout(settings.home)
    layout.root.chmod(0o755)
    layout.token.chmod(0o644)
    assert main(["doctor"]) == 1
    assert "✗ home" in capsys.readouterr().out
    assert main(["doctor", "--repair"]) == 0
    assert stat.S_IMODE(layout.root.stat().st_mode) == 0o700
    assert stat.S_IMODE(layout.token.stat().st_mode) == 0o600


def test_a_missing_ctx_folder_is_recreated_by_repair(install: tuple[Settings, Path]) -> None:
    settings, repo = install
    shutil.rmtree(repo / ".ctx")
    assert failing(diagnose(settings)) == [f"project {repo}"]
    repaired = diagnose(settings, repair=True)
    assert failing(repaired) == [] and by_suffix(repaired, str(repo)).repaired
    assert db(repo).is_file()


def test_an_old_schema_is_migrated_by_repair(install: tuple[Settings, Path]) -> None:
    settings, repo = install
    old = repo / "old.db"
    with contextlib.closing(sqlite3.connect(old, isolation_level=None)) as conn:
        migrate(conn, DATA_MIGRATIONS, target=1)
    old.replace(db(repo))
    assert failing(diagnose(settings)) == [f"project {repo}"]
    assert failing(diagnose(settings, repair=True)) == []
    assert failing(diagnose(settings)) == []


def test_a_damaged_database_is_reported_and_left_alone(install: tuple[Settings, Path]) -> None:
    settings, repo = install
    for suffix in ("-wal", "-shm"):
        Path(f"{db(repo)}{suffix}").unlink(missing_ok=True)
    db(repo).write_bytes(b"this is not a database" * 100)
    checks = diagnose(settings, repair=True)
    assert failing(checks) == [f"project {repo}"]
    assert db(repo).read_bytes().startswith(b"this is not a database")


def test_a_full_text_index_out_of_step_fails(install: tuple[Settings, Path]) -> None:
    settings, repo = install
    add_memory(repo)
    assert failing(diagnose(settings)) == [f"project {repo} vector index"]
    execute(repo, "DELETE FROM memory_fts_docs")
    assert f"project {repo} full-text index" in failing(diagnose(settings))


def test_a_corrupt_vector_index_fails_with_the_way_to_rebuild_it(
    install: tuple[Settings, Path],
) -> None:
    settings, repo = install
    memory_id = add_memory(repo)
    index = repo / ".ctx" / "index" / INDEX_FILE_NAME
    index.write_bytes(b"\x00" * 64)
    meta_path_for(index).write_text(json.dumps({"ids": [[memory_id, 1]], "sha256": "0" * 64}))
    check = by_suffix(diagnose(settings), "vector index")
    assert not check.ok and "sqrl up" in check.detail
    repaired = by_suffix(diagnose(settings, repair=True), "vector index")
    assert not repaired.ok and not repaired.repaired


def test_cursors_of_gone_or_shrunk_files_fail_and_repair_forgets_them(
    install: tuple[Settings, Path], tmp_path: Path
) -> None:
    settings, repo = install
    short = tmp_path / "short.jsonl"
    short.write_text("{}\n")
    fine = tmp_path / "fine.jsonl"
    fine.write_text("{}\n{}\n")
    rows = [(str(tmp_path / "gone.jsonl"), 10), (str(short), 999), (str(fine), 3)]
    execute(
        repo,
        *(
            "INSERT INTO source_cursors VALUES "
            f"('{repo}', 'claude_code', '{path}', 1, {offset}, '{{}}', '2026-01-01')"
            for path, offset in rows
        ),
    )
    assert failing(diagnose(settings)) == [f"project {repo} source cursors"]
    assert failing(diagnose(settings, repair=True)) == []
    with contextlib.closing(sqlite3.connect(db(repo))) as conn:
        left = [r[0] for r in conn.execute("SELECT path FROM source_cursors")]
    assert left == [str(fine)]


@pytest.mark.parametrize("source", ["claude_code", "codex", "gemini_cli"])
def test_cursors_of_transcripts_the_host_deleted_are_noted_not_failed(
    install: tuple[Settings, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str
) -> None:
    """A host deletes its old transcripts (Claude Code after 30 days by default): the cursors
    left behind are harmless, so a healthy install stays green; --repair still forgets them."""
    settings, repo = install
    deleted = tmp_path / "old.jsonl"
    execute(
        repo,
        "INSERT INTO source_cursors VALUES "
        f"('{repo}', '{source}', '{deleted}', 1, 10, '{{}}', '2026-01-01')",
    )
    check = by_suffix(diagnose(settings), "source cursors")
    assert check.ok and check.info and "--repair" in check.detail
    assert main(["doctor"]) == 0
    assert "✗" not in capsys.readouterr().out
    assert by_suffix(diagnose(settings, repair=True), "source cursors").repaired
    with contextlib.closing(sqlite3.connect(db(repo))) as conn:
        assert conn.execute("SELECT count(*) FROM source_cursors").fetchone() == (0,)


def test_dead_letters_fail_the_report(install: tuple[Settings, Path]) -> None:
    settings, repo = install
    execute(
        repo,
        "INSERT INTO dead_letters (kind, payload_ref, error, attempts, created_at, updated_at) "
        "VALUES ('extraction', 'ep_1', 'TimeoutError', 3, '2026-01-01', '2026-01-01')",
    )
    assert failing(diagnose(settings)) == [f"project {repo} dead letters"]


def test_a_parked_episode_says_why_and_how_to_fix_it(install: tuple[Settings, Path]) -> None:
    settings, repo = install
    execute(
        repo,
        "INSERT INTO dead_letters (kind, payload_ref, error, attempts, created_at, updated_at) "
        "VALUES ('model:claude_cli', 'ep_1:e1', 'PermanentExtractionError: claude is not logged "
        "in; run `claude` once and log in, then `sqrl process`', 1, '2026-01-01', '2026-01-01')",
    )
    [check] = [c for c in diagnose(settings) if c.name.endswith("dead letters")]
    assert check.detail == (
        "1 episode parked for claude_cli (the rules' part is written): claude "
        "is not logged in; run `claude` once and log in, then `sqrl process`"
    )


def test_an_unknown_setting_and_a_broken_projects_file_fail(
    install: tuple[Settings, Path],
) -> None:
    settings, _ = install
    layout = HomeLayout(settings.home)
    layout.config.write_text("[processor]\nbatch_sise = 3\n")
    layout.projects.write_text("{not json")
    assert failing(diagnose(settings)) == ["config", "projects.json"]


def test_a_registered_folder_that_is_gone_fails(install: tuple[Settings, Path]) -> None:
    settings, repo = install
    add_project(HomeLayout(settings.home).projects, repo.parent / "vanished")
    assert failing(diagnose(settings)) == [f"project {repo.parent / 'vanished'}"]


def test_json_output_lists_every_check_and_the_verdict(
    install: tuple[Settings, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, repo = install
    execute(
        repo,
        "INSERT INTO dead_letters (kind, payload_ref, error, attempts, created_at, updated_at) "
        "VALUES ('extraction', 'ep_1', 'TimeoutError', 3, '2026-01-01', '2026-01-01')",
    )
    assert main(["doctor", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False
    assert {"name", "ok", "detail", "repaired", "info"} <= set(report["checks"][0])
    services = [c for c in report["checks"] if c["name"].startswith("service ")]
    assert len(services) == 3 and all(c["info"] for c in services)


def test_reindex_without_a_running_memory_service_is_a_clear_error(
    install: tuple[Settings, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, repo = install
    assert main(["reindex", "--project", str(repo)]) == 1
    assert capsys.readouterr().err.startswith("sqrl: error:")


def saved_index(repo: Path, memory_id: str, *, vectors: int = 1) -> Path:
    """The project's vector index saved by the memory service's own code, with its int8 copy."""
    index = FaissIndex(8, "test-model", repo / ".ctx" / "index" / INDEX_FILE_NAME)
    rng = np.random.default_rng(vectors)
    names = [memory_id, *(f"mem_{n}" for n in range(1, vectors))]
    index.upsert(zip(names, rng.standard_normal((vectors, 8)).astype(np.float32), strict=True))
    return index.save()


def flip_last_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF
    path.write_bytes(bytes(data))


def test_an_int8_copy_that_belongs_to_its_index_passes(install: tuple[Settings, Path]) -> None:
    settings, repo = install
    index = saved_index(repo, add_memory(repo))
    assert copy_path_for(index).is_file()

    check = by_suffix(diagnose(settings), "int8 copy")

    assert check.ok and not check.repaired


def test_a_damaged_int8_copy_fails_and_repair_removes_it(
    install: tuple[Settings, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    settings, repo = install
    copy = copy_path_for(saved_index(repo, add_memory(repo)))
    flip_last_byte(copy)

    assert failing(diagnose(settings)) == [f"project {repo} vector index int8 copy"]
    assert main(["doctor"]) == 1
    assert "✗" in capsys.readouterr().out
    repaired = by_suffix(diagnose(settings, repair=True), "int8 copy")
    assert repaired.ok and repaired.repaired
    assert not copy.exists()
    assert failing(diagnose(settings)) == []


def test_an_int8_copy_of_an_older_index_fails(install: tuple[Settings, Path]) -> None:
    settings, repo = install
    memory_id = add_memory(repo)
    copy = copy_path_for(saved_index(repo, memory_id))
    older = copy.read_bytes()
    saved_index(repo, memory_id, vectors=3)  # the index changes; its copy with it
    copy.write_bytes(older)

    check = by_suffix(diagnose(settings), "int8 copy")

    assert not check.ok and "--repair" in check.detail


def test_no_int8_copy_or_no_index_to_hold_it_against_adds_no_line(
    install: tuple[Settings, Path],
) -> None:
    """Must not fire: no copy saved yet, or a copy beside a missing index (whose own check
    reports it), is not the copy's problem."""
    settings, repo = install
    memory_id = add_memory(repo)
    index = saved_index(repo, memory_id)
    copy_path_for(index).unlink()
    assert not [c for c in diagnose(settings) if c.name.endswith("int8 copy")]
    copy_path_for(index).write_bytes(b"junk")
    index.unlink()
    assert not [c for c in diagnose(settings) if c.name.endswith("int8 copy")]
