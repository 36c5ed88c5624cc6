"""Language shares leave vendored, generated and dependency folders out."""

from __future__ import annotations

from pathlib import Path

from squirrel_memory.repository import (
    is_excluded,
    language_shares,
    primary_ecosystems,
    repository_languages,
)
from squirrel_memory.repository.snapshot import TrackedFile
from tests.unit.memory.repository.conftest import ELIXIR, GO, MakeRepo, commit


def _files(sizes: dict[str, int]) -> list[TrackedFile]:
    return [TrackedFile(path, size, "0" * 40) for path, size in sizes.items()]


def test_vendored_generated_and_dependency_files_are_not_counted() -> None:
    shares = language_shares(
        _files(
            {
                "lib/app.ex": 1000,
                "assets/js/app.js": 100,
                "assets/vendor/topbar.js": 50_000,
                "node_modules/react/index.js": 90_000,
                "deps/phoenix/lib/phoenix.ex": 80_000,
                "_build/dev/lib/app.beam.ex": 70_000,
                "priv/static/assets/app.js": 60_000,
                "static/app.min.js": 40_000,
                "api/types_pb2.py": 30_000,
                "docs/guide.md": 90_000,
            }
        )
    )
    assert [(s.language, round(s.share, 2)) for s in shares] == [
        ("Elixir", 0.91),
        ("JavaScript", 0.09),
    ]


def test_excluded_paths() -> None:
    for path in ("vendor/x.go", "a/node_modules/b.js", "target/debug/x.rs", "x/.venv/y.py"):
        assert is_excluded(path), path
    for path in ("lib/vendor_client.ex", "src/build_info.rs", "app/models/user.rb"):
        assert not is_excluded(path), path


def test_a_phoenix_app_with_javascript_assets_is_an_elixir_project(make_repo: MakeRepo) -> None:
    root = make_repo({**ELIXIR, "assets/node_modules/big/index.js": "x\n" * 200_000})
    assert primary_ecosystems(root) == ("elixir",)
    assert primary_ecosystems(str(root)) == ("elixir",)


def test_shares_follow_new_commits(make_repo: MakeRepo) -> None:
    root = make_repo(GO)
    assert primary_ecosystems(root) == ("go",)
    commit(root, {"web/src/app.ts": "// ts\n" * 1200, "web/package.json": "{}\n"})
    assert primary_ecosystems(root) == ("javascript", "go")
    assert repository_languages(root)[0].language == "TypeScript"


def test_not_a_repository_has_no_languages(tmp_path: Path) -> None:
    assert primary_ecosystems(tmp_path) == ()
    assert repository_languages(tmp_path) == []
