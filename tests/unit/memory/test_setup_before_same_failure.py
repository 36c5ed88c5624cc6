"""A step run before a later try that failed the same way did not fix it.

Made-up projects in several ecosystems: a clean-up run between two identical failures is not
the fix (the setup step run after the last failure is), and where only such a step ran no fix
is claimed; an ordinary setup step between one failure and the pass still fixes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from squirrel_memory.extractors.command_evidence import evidence_candidates
from squirrel_memory.models import MemoryCandidate, MemoryType
from tests.unit.memory.session_builder import command_runs

T0 = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)


def _pitfalls(root: str, runs: Sequence[tuple[str, int, str]]) -> list[MemoryCandidate]:
    found = evidence_candidates(command_runs(root, runs, T0))
    return [c for c in found if c.type == MemoryType.PITFALL]


_PY = "E   ModuleNotFoundError: No module named 'httpx'"
_JS = "Error: Cannot find module 'left-pad'\nRequire stack:\n- /w/web/src/index.js"


def test_a_step_before_the_same_failure_again_is_not_the_fix_the_later_one_is() -> None:
    python = _pitfalls(
        "/w/ledger",
        [
            ("uv run pytest", 1, _PY),
            ("uv cache clean", 0, "Removed 120 files"),
            ("uv run pytest", 1, _PY),
            ("uv add httpx", 0, "Resolved 12 packages"),
            ("uv run pytest", 0, "5 passed"),
        ],
    )
    node = _pitfalls(
        "/w/web",
        [
            ("npm test", 1, _JS),
            ("npm cache clean --force", 0, "npm WARN using --force"),
            ("npm test", 1, _JS),
            ("npm install", 0, "added 214 packages in 3s"),
            ("npm test", 0, "Tests: 9 passed, 9 total"),
        ],
    )
    for found, right in ((python, "uv add httpx"), (node, "npm install")):
        (pitfall,) = found
        assert "cache clean" not in pitfall.content
        assert f"running `{right}` first fixed it" in pitfall.content


def test_a_clean_up_before_the_same_failure_again_is_never_named_the_fix() -> None:
    # The step that did fix it (a generator run as a program) is no setup step by its kind:
    # the clean-up run before the second identical failure must not take its place.
    go_error = (
        "internal/api/api.go:12:2: undefined: GeneratedRoutes\nFAIL\texample.com/x [build failed]"
    )
    go = _pitfalls(
        "/w/gox",
        [
            ("go test ./...", 1, go_error),
            ("go clean -cache", 0, ""),
            ("go test ./...", 1, go_error),
            ("go run ./cmd/gen", 0, "wrote routes_gen.go"),
            ("go test ./...", 0, "ok  \texample.com/x/internal/api\t0.01s"),
        ],
    )
    rust_error = "error[E0425]: cannot find value `ROUTES` in this scope\n --> src/lib.rs:4:5"
    rust = _pitfalls(
        "/w/rs",
        [
            ("cargo test", 1, rust_error),
            ("cargo clean", 0, "Removed 812 files"),
            ("cargo test", 1, rust_error),
            ("cargo run --bin codegen", 0, "wrote src/routes.rs"),
            ("cargo test", 0, "test result: ok. 4 passed"),
        ],
    )
    assert not any("clean" in c.content for c in go + rust)


def test_a_setup_step_between_one_failure_and_the_pass_still_fixes_it() -> None:
    (pitfall,) = _pitfalls(
        "/w/web",
        [
            ("npm test", 1, _JS),
            ("npm install", 0, "added 214 packages in 3s"),
            ("npm test", 0, "Tests: 9 passed, 9 total"),
        ],
    )
    assert "running `npm install` first fixed it" in pitfall.content
