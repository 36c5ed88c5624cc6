"""Malformed, huge, binary and missing files: one clear log line each, nothing else lost."""

from __future__ import annotations

from pathlib import Path

import pytest
from structlog.testing import capture_logs

from squirrel_memory.repository import read_repository, repository_candidates
from squirrel_memory.repository.snapshot import MAX_FILE_BYTES, NotARepositoryError
from squirrel_memory.repository.wording import ref_path
from tests.unit.memory.repository.conftest import (
    ELIXIR,
    GO,
    JS,
    PHP,
    PYTHON,
    RUST,
    MakeRepo,
    git,
)

#: The storefront with npm's lock file alone (beside pnpm's, nothing would decide the manager).
NPM_JS = {path: text for path, text in JS.items() if path != "pnpm-lock.yaml"}


def _skips(logs: list[dict[str, object]]) -> dict[str, dict[str, object]]:
    return {str(e["path"]): e for e in logs if e["event"] == "repository_file_skipped"}


def _keys(root: Path) -> set[str]:
    return {c.key for c in repository_candidates(read_repository(root))}


@pytest.mark.parametrize(
    ("base", "path", "broken", "still"),
    [
        (JS, "package.json", '{"name": "storefront", "scripts": {', "repo:languages"),
        (PYTHON, "pyproject.toml", '[project\nname = "x"', "repo:recipe:test"),
        (ELIXIR, ".github/workflows/ci.yml", "jobs: [unclosed\n  - : :", "repo:recipe:test"),
        (RUST, ".pre-commit-config.yaml", "repos:\n  - hooks: [\n", "repo:ci"),
        (PYTHON, "docker-compose.yml", "services: just-a-string\n", "repo:stack"),
        (ELIXIR, "assets/package.json", "{]", "repo:stack"),
        (PYTHON, "pom.xml", "<project><artifactId>x</artifactId>", "repo:stack"),
        (
            PYTHON,
            "app.csproj",
            '<!DOCTYPE x [<!ENTITY a "b">]><Project>&a;</Project>',
            "repo:stack",
        ),
        (PYTHON, "tox.ini", "[testenv:lint\ncommands = ruff", "repo:recipe:test"),
        (RUST, "Cargo.toml", '[package]\nname = "tiles', "repo:ci"),
        (RUST, "Cargo.lock", "[[package]\nname =", "repo:stack"),
        (PYTHON, "uv.lock", "[[package]]\nname = ", "repo:stack"),
        (NPM_JS, "package-lock.json", '{"packages": ', "repo:stack"),
        (PHP, "composer.json", '{"name": "acme/shop", "require": {', "repo:languages"),
        (GO, "Taskfile.yml", "tasks: [\n  - {", "repo:stack"),
        (PYTHON, "Pipfile", "[packages\ndjango =", "repo:stack"),
        (JS, "pnpm-workspace.yaml", "packages: [\n", "repo:stack"),
        (GO, ".gitlab-ci.yml", "test: {script: [", "repo:stack"),
    ],
)
def test_malformed_file_is_skipped_with_its_reason_and_the_rest_is_read(
    make_repo: MakeRepo, base: dict[str, str | bytes], path: str, broken: str, still: str
) -> None:
    good = repository_candidates(read_repository(make_repo(base)))
    root = make_repo({**base, path: broken})
    with capture_logs() as logs:
        found = _keys(root)
    skipped = _skips(logs)
    assert skipped[path]["reason"] == "malformed"
    assert skipped[path]["error_type"]
    assert list(skipped) == [path]
    assert still in found
    # Every memory that did not come from the broken file is still there.
    untouched = {c.key for c in good if all(ref_path(r) != path for r in c.source_refs)}
    assert untouched <= found


def test_log_lines_never_carry_file_content(make_repo: MakeRepo) -> None:
    root = make_repo({**PYTHON, "package.json": '{"token": "sk-live-TOPSECRET", '})
    with capture_logs() as logs:
        read_repository(root)
    assert "TOPSECRET" not in repr(logs)


def test_huge_manifest_is_skipped_before_reading(make_repo: MakeRepo) -> None:
    padding = "# " + "x" * 100 + "\n"
    huge = PYTHON["pyproject.toml"] + padding * (MAX_FILE_BYTES // len(padding) + 10)
    root = make_repo({**PYTHON, "pyproject.toml": huge})
    with capture_logs() as logs:
        found = _keys(root)
    entry = _skips(logs)["pyproject.toml"]
    assert entry["reason"] == "too_large" and int(str(entry["size"])) > MAX_FILE_BYTES
    assert {"repo:recipe:test", "repo:services", "repo:languages"} <= found


def test_binary_and_undecodable_files_are_skipped(make_repo: MakeRepo) -> None:
    root = make_repo(
        {**ELIXIR, "CLAUDE.md": b"\x00\x01\x02binary", "README.md": b"caf\xe9 \xff\xfe not utf-8"}
    )
    with capture_logs() as logs:
        found = _keys(root)
    skipped = _skips(logs)
    assert skipped["CLAUDE.md"]["reason"] == "binary"
    assert skipped["README.md"]["reason"] == "not_utf8"
    assert not any(k.startswith("repo:rule:") for k in found)
    assert {"repo:stack", "repo:recipe:test", "repo:ci"} <= found


def test_missing_files_give_no_memory_and_no_error(make_repo: MakeRepo) -> None:
    files = {k: v for k, v in ELIXIR.items() if k not in ("README.md", "CLAUDE.md", "mix.lock")}
    with capture_logs() as logs:
        found = {c.key: c for c in repository_candidates(read_repository(make_repo(files)))}
    assert not _skips(logs)
    assert "repo:about" not in found
    # Without the lock file the declared constraint is the version.
    assert "(Elixir 1.17, Phoenix 1.7.14)" in found["repo:stack"].content
    assert "Oban 2.18." in found["repo:jobs"].content


def test_untracked_files_are_never_read(make_repo: MakeRepo) -> None:
    root = make_repo(ELIXIR)
    (root / "AGENTS.md").write_text("- Always deploy on Fridays.\n")
    assert not any("Fridays" in c.content for c in repository_candidates(read_repository(root)))


def test_a_folder_without_git_or_commits_is_not_a_repository(tmp_path: Path) -> None:
    with pytest.raises(NotARepositoryError):
        read_repository(tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    git(empty, "init", "-q")
    with pytest.raises(NotARepositoryError):
        read_repository(empty)


def test_reading_writes_nothing_in_the_repository(make_repo: MakeRepo) -> None:
    root = make_repo(ELIXIR)
    before = {p: p.stat().st_mtime_ns for p in root.rglob("*")}
    read_repository(root)
    assert {p: p.stat().st_mtime_ns for p in root.rglob("*")} == before
    assert git(root, "status", "--porcelain") == ""


def test_reading_stops_at_the_file_cap_and_says_so(
    make_repo: MakeRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = {f".cursor/rules/r{n:02}.mdc": f"- Always follow rule {n}.\n" for n in range(12)}
    root = make_repo({**GO, **rules})
    monkeypatch.setattr("squirrel_memory.repository.snapshot.MAX_FILES_READ", 5)
    with capture_logs() as logs:
        found = _keys(root)
    capped = [p for p, e in _skips(logs).items() if e["reason"] == "read_cap_reached"]
    assert capped and all(e["limit"] == 5 for e in _skips(logs).values())
    # Root manifests are read first, so the project's own facts survive the cap.
    assert {"repo:stack", "repo:languages"} <= found
