"""Evidence weighed across sessions: recipes, quality gates, routines and pitfalls with their fix.

Built from small constructed Claude Code sessions of an Elixir/Phoenix, a Go and a Rust project
(tests/fixtures/claude/constructed, parsed by the real parser) and from event streams of other
ecosystems, so that no rule holds for one language only.
"""

from __future__ import annotations

import dataclasses
import hashlib
import subprocess
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from squirrel_core.errors import InvalidArgumentError
from squirrel_core.events import Event, EventType, Origin, SourcePosition, SourceTool
from squirrel_ingest.parsers.claude import ClaudeFileParser
from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.activity import commands
from squirrel_memory.extractors.modules import is_own_code, module_name
from squirrel_memory.extractors.rules import RulesExtractor, evidence_candidates
from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemoryType,
    Scope,
    StoredEvent,
    UpdateDecision,
)
from squirrel_memory.processor import Processor
from squirrel_memory.processor_settings import ProcessorSettings
from squirrel_memory.storage import SqliteStore
from squirrel_memory.updates import decide_update
from squirrel_memory.user_memories.userstore import SqliteUserStore

CONSTRUCTED = Path(__file__).parents[2] / "fixtures" / "claude" / "constructed"
ROOTS = {
    "elixir": "/home/dev/src/ledger",
    "go": "/home/dev/src/shortener",
    "rust": "/home/dev/src/tally",
}
NOW = datetime(2026, 6, 1, tzinfo=UTC)
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _parse(path: Path, root: str, new_root: str | None = None) -> list[Event]:
    parser = ClaudeFileParser(str(path))
    events: list[Event] = []
    offset = 0
    for raw in path.read_bytes().splitlines(keepends=True):
        offset += len(raw)
        line = raw.replace(root.encode(), new_root.encode()) if new_root else raw
        events.extend(parser.feed(line, SourcePosition(str(path), 1, offset)))
    return events


def _stored(events: list[Event], root: str) -> list[StoredEvent]:
    stored = []
    for index, event in enumerate(events):
        digest = hashlib.sha256(f"{root}:{index}".encode()).hexdigest()
        stored.append(
            StoredEvent(
                id=f"evt_{digest[:16]}",
                project_id=root,
                user_id="dev",
                source_tool=event.source_tool.value,
                session_id=event.session_id,
                timestamp=event.timestamp,
                event_type=event.event_type.value,
                content=event.content,
                file_paths=event.file_paths,
                hash=digest,
            )
        )
    return stored


def project(language: str) -> list[StoredEvent]:
    root = ROOTS[language]
    events = [e for f in sorted((CONSTRUCTED / language).glob("*.jsonl")) for e in _parse(f, root)]
    return _stored(events, root)


def by_key(candidates: list[MemoryCandidate]) -> dict[str, MemoryCandidate]:
    return {c.key: c for c in candidates}


def pitfalls(candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
    return [c for c in candidates if c.type == MemoryType.PITFALL]


# --- recipes from three ecosystems ----------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "elixir",
            {
                "recipe:test": "To run the tests: `mix test`",
                "recipe:lint": "To lint: `mix credo --strict` (worked in 2 sessions).",
                "recipe:format": "To format: `mix format` (worked in 2 sessions).",
                "recipe:migrate": "To migrate the database: `mix ecto.migrate`.",
                "recipe:run": "To run the app: `mix phx.server`.",
                "recipe:verify": "Before committing, run: `mix format` → `mix credo --strict` → `mix test`"
                " (before 2 commits).",
                "recipe:routine": "At the end of a session: `git add -A` → "
                '`git commit -m "<text>"` → `git push` (done in 2 sessions).',
            },
        ),
        (
            "go",
            {
                "recipe:test": "To run the tests: `go test ./...` (worked in 2 sessions).",
                "recipe:lint": "To lint: `golangci-lint run` (worked in 2 sessions).",
                "recipe:build": "To build: `go build ./...`.",
                "recipe:verify": "Before committing, run: `go vet ./...` → `golangci-lint run` → "
                "`go test ./...` (before 2 commits).",
            },
        ),
        (
            "rust",
            {
                "recipe:test": "To run the tests: `cargo test` (worked in 2 sessions).",
                "recipe:lint": "To lint: `cargo clippy -- -D warnings` (worked in 2 sessions).",
                "recipe:format": "To format: `cargo fmt` (worked in 2 sessions).",
                # the environment prefix changes what runs: it stays
                "recipe:run": "To run the app: `RUST_LOG=debug cargo run -- report --json`.",
                "recipe:verify": "Before committing, run: `cargo fmt` → `cargo clippy -- -D warnings` → "
                "`cargo test` (before 2 commits).",
            },
        ),
    ],
)
def test_recipes_are_the_commands_a_user_would_type(
    language: str, expected: dict[str, str]
) -> None:
    found = by_key(evidence_candidates(project(language)))

    for key, content in expected.items():
        assert key in found, (key, sorted(found))
        assert found[key].content.startswith(content), found[key].content
    assert "test_command" not in found  # the test recipe already names the command
    for candidate in found.values():
        if candidate.type != MemoryType.RECIPE:
            continue
        # an environment prefix changes what the command does: it is no residue
        for residue in ("2>&1", "| tail", "cd ", "timeout "):
            assert residue not in candidate.content, candidate.content


def test_a_sub_folder_command_is_a_scoped_recipe_not_the_test_command() -> None:
    events = project("elixir")
    # One more session that runs the JS tests of assets/ twice.
    extra = _stream_events(
        "/home/dev/src/ledger",
        "s-js",
        [
            ("cd assets && npx vitest run 2>&1 | tail -5", 0, "Tests  6 passed (6)"),
            ("cd assets && npx vitest run", 0, "Tests  6 passed (6)"),
        ],
        start=datetime(2026, 5, 9, 9, 0, tzinfo=UTC),
    )
    found = by_key(evidence_candidates(events + extra))

    assert found["recipe:test"].content.startswith("To run the tests: `mix test`")
    assert found["recipe:test:assets"].content == (
        "In `assets/`, to run the tests: `npx vitest run` (worked in 2 sessions)."
    )
    # The test recipe names the command: no fact restating it.
    assert found["recipe:test"].content.startswith("To run the tests: `mix test`")
    assert "test_command" not in found


def test_a_command_of_another_ecosystem_at_the_root_is_not_the_main_recipe() -> None:
    runs = [("cargo test", 0, "ok")] * 4 + [("npx vitest run", 0, "ok")] * 5
    events = _stream_events("/w/app", "s1", runs)
    events += _edits("/w/app", "s1", ["src/lib.rs", "src/parse.rs", "src/cli.rs"])
    events += _edits("/w/app", "s1", ["web/app.ts"])

    found = by_key(evidence_candidates(events))

    assert found["recipe:test"].content.startswith("To run the tests: `cargo test`")
    assert found["recipe:test:javascript"].content.startswith(
        "For the JavaScript/TypeScript part, to run the tests: `npx vitest run`"
    )


# --- fixes that actually worked ---------------------------------------------------------------


def test_command_variant_fixes_across_ecosystems() -> None:
    elixir = by_key(evidence_candidates(project("elixir")))
    go = by_key(evidence_candidates(project("go")))

    (push,) = [c for c in pitfalls(list(elixir.values())) if "git push" in c.content]
    assert "no upstream branch" in push.content
    # The difference that mattered, then the whole command.
    assert "re-running it with `-u origin feature/export` added worked" in push.content
    assert "(`git push -u origin feature/export`)" in push.content
    assert "fix:variant" in push.tags
    assert "priv/" not in push.content  # no edit is claimed for a push
    (add,) = [c for c in pitfalls(list(go.values())) if c.content.startswith("`git add")]
    assert "re-running it with `-f` added worked" in add.content


def test_setup_command_fixes_across_ecosystems() -> None:
    elixir = pitfalls(evidence_candidates(project("elixir")))
    rust = pitfalls(evidence_candidates(project("rust")))
    python = pitfalls(
        evidence_candidates(
            _stream_events(
                "/w/py",
                "s1",
                [
                    ("uv run pytest", 1, "E   ModuleNotFoundError: No module named 'httpx'"),
                    ("uv add httpx", 0, "Resolved 12 packages"),
                    ("uv run pytest", 0, "5 passed"),
                ],
            )
        )
    )

    (database,) = [c for c in elixir if "Postgrex.Error" in c.content]
    # the test database: the environment prefix stays with the command
    assert database.content.endswith("running `MIX_ENV=test mix ecto.create` first fixed it.")
    assert "fix:setup" in database.tags
    (crate,) = [c for c in rust if "E0432" in c.content]
    assert crate.content.endswith("running `cargo add humantime` first fixed it.")
    (module,) = python
    assert module.content.endswith("running `uv add httpx` first fixed it.")


def test_file_edit_fixes_name_the_files_the_error_names() -> None:
    go = pitfalls(evidence_candidates(project("go")))
    rust = pitfalls(evidence_candidates(project("rust")))
    elixir = pitfalls(evidence_candidates(project("elixir")))

    (undefined,) = [c for c in go if "undefined: expiresAt" in c.content]
    # The edit's own difference, not "editing the file the error names".
    assert undefined.content.endswith(
        "changing `return expiresAt` to `return l.ExpiresAt` in internal/links/store.go fixed it."
    )
    assert undefined.file_paths == ("internal/links/store.go",)
    assert "fix:edit" in undefined.tags
    (missing,) = [c for c in rust if "E0425" in c.content]
    assert "changing `if json {` to `if args.json {` in src/report.rs fixed it" in missing.content
    # The error names the test file; the edit elsewhere whose lines name `query` is the fix.
    (key_error,) = [c for c in elixir if "KeyError" in c.content]
    assert key_error.content.endswith(
        '`def handle_event("search", %{"query" => q}, socket)` in '
        "lib/ledger_web/live/account_live/index.ex fixed it."
    )


def test_no_fix_is_claimed_that_was_not_seen() -> None:
    # A push that fails, unrelated edits, and a push of another session that works: the
    # edits did not fix the push; the pass is in another session.
    events = _stream_events(
        "/w/app", "s1", [("git push", 1, "fatal: The current branch x has no upstream branch.")]
    )
    events += _edits("/w/app", "s1", ["priv/repo/migrations/1_add.exs", "lib/app/user.ex"])
    events += _stream_events(
        "/w/app", "s2", [("git push", 0, "main -> main")], start=T0 + timedelta(days=1)
    )
    # A flaky test: the identical command passes with nothing in between.
    events += _stream_events(
        "/w/app",
        "s3",
        [("go test ./...", 1, "--- FAIL: TestClock (0.01s)"), ("go test ./...", 0, "ok")],
        start=T0 + timedelta(days=2),
    )

    assert pitfalls(evidence_candidates(events)) == []


def test_a_failure_of_another_test_target_is_not_fixed_by_a_narrower_pass() -> None:
    events = _stream_events(
        "/w/py",
        "s1",
        [
            ("pytest tests/test_a.py", 1, "E   AssertionError: totals differ"),
            ("pytest tests/test_b.py", 0, "3 passed"),
        ],
    )
    assert pitfalls(evidence_candidates(events)) == []


# --- cross-session merging ------------------------------------------------------------------


def test_the_same_error_in_two_sessions_is_one_pitfall_that_gains_importance() -> None:
    rust = project("rust")
    sessions = sorted({e.session_id for e in rust if e.session_id})
    first_only = [e for e in rust if e.session_id == sessions[0]]

    (single,) = [c for c in pitfalls(evidence_candidates(first_only)) if "E0425" in c.content]
    (merged,) = [c for c in pitfalls(evidence_candidates(rust)) if "E0425" in c.content]

    assert single.key == merged.key  # `minutes` and `json`: the same signature
    assert "(seen in 2 sessions)" in merged.content
    assert merged.importance > single.importance


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[tuple[SqliteStore, SqliteUserStore]]:
    root = tmp_path / "ledger"
    root.mkdir()
    opened = await SqliteStore.open(str(root.resolve()), clock=lambda: NOW)
    users = await SqliteUserStore.open(tmp_path / "home")
    yield opened, users
    await opened.close()
    await users.close()


async def _decide(candidate: MemoryCandidate, existing: list[MemoryItem]) -> UpdateDecision:
    return decide_update(candidate, existing)


async def test_sessions_processed_apart_merge_into_one_memory_per_key(
    store: tuple[SqliteStore, SqliteUserStore],
) -> None:
    sqlite, users = store

    async def stores() -> list[SqliteStore]:
        return [sqlite]

    processor = Processor(
        stores,
        users,
        RulesExtractor(),
        _decide,
        user_id="dev",
        settings=ProcessorSettings(retry_delays=()),
        clock=lambda: NOW,
    )
    files = sorted((CONSTRUCTED / "elixir").glob("*.jsonl"))
    for path in files:  # one pass per session, as they would arrive days apart
        events = _parse(path, ROOTS["elixir"], sqlite.project_id)
        result = await sqlite.append_events(sqlite.project_id, "dev", events, [])
        assert not result.rejected
        await processor.process_once(sqlite, force=True)

    items, _ = await sqlite.list_memories(sqlite.project_id, limit=500)
    keys = [m.key for m in items]
    assert len(keys) == len(set(keys)), sorted(keys)
    memories = {m.key: m for m in items}
    assert memories["recipe:test"].content.startswith("To run the tests: `mix test`")
    assert "(worked in 2 sessions)" in memories["recipe:test"].content
    (push,) = [m for m in items if m.type == MemoryType.PITFALL and "git push" in m.content]
    assert "(seen in 2 sessions)" in push.content
    assert memories["recipe:verify"].content.endswith("(before 2 commits).")
    for item in items:
        if item.key.startswith("module:"):
            assert module_name(item.file_paths[0], sqlite.project_id) == item.key[7:]


async def test_the_assistants_commands_never_become_user_style_the_users_own_do(
    store: tuple[SqliteStore, SqliteUserStore],
) -> None:
    # DESIGN §7: only the user's own origins make user_style (here and in the global store).
    sqlite, users = store

    async def stores() -> list[SqliteStore]:
        return [sqlite]

    processor = Processor(
        stores,
        users,
        RulesExtractor(),
        _decide,
        user_id="dev",
        settings=ProcessorSettings(retry_delays=()),
        clock=lambda: NOW,
    )
    for path in sorted((CONSTRUCTED / "elixir").glob("*.jsonl")):
        events = _parse(path, ROOTS["elixir"], sqlite.project_id)
        await sqlite.append_events(sqlite.project_id, "dev", events, [])
        await processor.process_once(sqlite, force=True)

    items, _ = await sqlite.list_memories(sqlite.project_id, limit=500)
    assert [m.key for m in items if m.type == MemoryType.USER_STYLE] == []
    assert await users.list_user_style("dev") == []
    assert any(m.key == "recipe:test" for m in items)  # the project's knowledge stays

    later = NOW - timedelta(hours=1)
    typed = [
        Event(
            SourceTool.CLAUDE_CODE,
            EventType.USER_MESSAGE,
            later + timedelta(minutes=i),
            {"text": f"<bash-input>{command}</bash-input>"},
            session_id="typed-session",
            origin=origin,
        )
        for i, (command, origin) in enumerate(
            [
                ("mix test", Origin.TYPED),
                ("mix test test/ledger_test.exs", Origin.TYPED),
                ("mix credo", Origin.PARENT_AGENT),
                ("mix credo", Origin.PARENT_AGENT),
            ]
        )
    ]
    run = Event(
        SourceTool.CLAUDE_CODE,
        EventType.TEST_RUN,
        later + timedelta(minutes=5),
        {"command": "mix test", "tool_use_id": "t1", "exit_code": 0, "is_error": False},
        session_id="typed-session",
    )
    result = await sqlite.append_events(sqlite.project_id, "dev", [*typed, run], [])
    assert not result.rejected, result.rejected
    await processor.process_once(sqlite, force=True)

    items, _ = await sqlite.list_memories(sqlite.project_id, limit=500)
    style = {m.key: m for m in items if m.type == MemoryType.USER_STYLE}
    assert set(style) == {"pref:test_runner"}  # the subagent's `mix credo` is not the user's
    assert style["pref:test_runner"].content == "Runs tests with mix test."
    assert style["pref:test_runner"].scope == Scope.PROJECT  # a habit seen in this project
    assert await users.list_user_style("dev") == []


async def test_a_drain_weighs_project_evidence_once_with_the_same_memories(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A long backlog is processed in many batches; re-reading the project's evidence after
    # each one made processing slow. The drain weighs it once, after its last batch, and the
    # memories are the ones a single big batch gives.
    async def memories(batch_size: int, name: str) -> tuple[set[tuple[str, str, str]], int]:
        # One folder name on both sides: the overview may name the project by its folder.
        root = tmp_path / name / "service"
        root.mkdir(parents=True)
        sqlite = await SqliteStore.open(str(root.resolve()), clock=lambda: NOW)
        users = await SqliteUserStore.open(tmp_path / f"{name}-home")
        reads = 0
        original = sqlite.fetch_recent_of_types

        async def counted(*args: Any, **kwargs: Any) -> list[StoredEvent]:
            nonlocal reads
            reads += 1
            return await original(*args, **kwargs)

        monkeypatch.setattr(sqlite, "fetch_recent_of_types", counted)

        async def stores() -> list[SqliteStore]:
            return [sqlite]

        processor = Processor(
            stores,
            users,
            RulesExtractor(),
            _decide,
            user_id="dev",
            settings=ProcessorSettings(retry_delays=(), batch_size=batch_size),
            clock=lambda: NOW,
        )
        try:
            for path in sorted((CONSTRUCTED / "go").glob("*.jsonl")):
                events = _parse(path, ROOTS["go"], sqlite.project_id)
                await sqlite.append_events(sqlite.project_id, "dev", events, [])
            report = await processor.drain(sqlite, force=True)
            assert report.events_processed > 0
            assert await sqlite.count_unprocessed(sqlite.project_id) == 0
            items, _ = await sqlite.list_memories(sqlite.project_id, limit=500)
            root_id = sqlite.project_id
            return {(m.type.value, m.key, m.content.replace(root_id, "<root>")) for m in items}, (
                reads
            )
        finally:
            await sqlite.close()
            await users.close()

    one_batch, _ = await memories(1000, "whole")
    many_batches, reads = await memories(5, "batched")

    assert any(kind == "recipe" for kind, _, _ in many_batches)
    assert many_batches == one_batch
    # Commands, hook reports, the host's injected messages, replies and edits (a command
    # failed), the user's messages for the tools they disowned (the project pass), commits, the
    # user's requests with the replies and calls around them, the user's messages for their
    # language and the tools they stopped using (the pass over the user's messages): once
    # each, not once per batch.
    assert reads <= 8


# --- modules are code -------------------------------------------------------------------------

NOT_MODULES = [
    "deps/phoenix_live_view/lib/phoenix_live_view.ex",
    "_build/dev/lib/ledger/ebin/x.beam",
    "node_modules/react/index.js",
    "assets/node_modules/esbuild/lib/main.js",
    "assets/js/app.js",
    "priv/repo/migrations/20260507090000_add_exports.exs",
    "priv/static/assets/app.css",
    "config/config.exs",
    "config/dev.exs",
    "public/tokenizer.js",
    "static/app.js",
    "vendor/github.com/go-chi/chi/v5/mux.go",
    "vendor/bundle/ruby/3.3.0/gems/rails-7.1/lib/rails.rb",
    "target/debug/build/tally-1234/out/gen.rs",
    ".venv/lib/python3.11/site-packages/httpx/_client.py",
    "venv/lib/python3.12/site-packages/x/y.py",
    "build/lib/pkg/mod.py",
    "dist/index.js",
    "obj/Debug/net8.0/App.AssemblyInfo.cs",
    "bin/Debug/App.dll",
    "Pods/Alamofire/Source/Session.swift",
    ".dart_tool/build/generated/x.dart",
    "src/generated/api.ts",
    "~/.claude/CLAUDE.md",
    "/Users/dain/other/project/src/x.py",
    "-experiments/worktrees/.claude/worktrees/agent-a52886dc/work/notes.py",
    ".claude/worktrees/agent-1/lib/app/x.ex",
    "docs/guide/intro.md",
    "lib/ledger_web/templates/page.md",
    "claude_code_log/templates/transcript.html",
    "tests/test_cache.py",
    "test/ledger_web/live/account_live_test.exs",
    "spec/models/user_spec.rb",
    "src/main.rs",
    "main.go",
    "lib/app.rb",
]

MODULES = [
    ("lib/ledger_web/live/account_live/index.ex", "/home/dev/src/ledger", "ledger_web"),
    ("lib/ledger/exports.ex", "/home/dev/src/ledger", "exports"),
    ("apps/billing/lib/billing/invoice.ex", "/w/umbrella", "billing"),
    ("internal/links/store.go", "/w/shortener", "links"),
    ("cmd/server/main.go", "/w/shortener", "server"),
    ("pkg/auth/token.go", "/w/shortener", "auth"),
    ("src/duration.rs", "/w/tally", "duration"),
    ("crates/tally-core/src/lib.rs", "/w/tally", "tally-core"),
    ("claude_code_log/renderer.py", "/u/claude-code-log", "renderer"),
    ("src/shop/cart/models.py", "/w/shop", "cart"),
    ("src/agents/core/registry.ts", "/w/codemie-code", "agents"),
    ("packages/ui/src/button.tsx", "/w/mono", "ui"),
    ("src/main/java/com/acme/billing/Invoice.java", "/w/billing-svc", "billing"),
    ("lib/payments/stripe_client.rb", "/w/shop", "payments"),
    ("app/models/user.rb", "/w/rails-app", "models"),
]


@pytest.mark.parametrize("path", NOT_MODULES)
def test_dependency_build_config_asset_and_outside_folders_are_never_modules(path: str) -> None:
    assert module_name(path, "/home/dev/src/ledger") is None


@pytest.mark.parametrize(("path", "root", "name"), MODULES)
def test_modules_follow_each_languages_layout(path: str, root: str, name: str) -> None:
    assert is_own_code(path)
    assert module_name(path, root) == name


@pytest.mark.parametrize("language", sorted(ROOTS))
def test_no_module_memory_is_a_config_asset_dependency_or_build_folder(language: str) -> None:
    events = project(language)
    candidates = [
        c
        for episode in segment_episodes(events, now=NOW)
        for c in RulesExtractor().extract_sync(episode, events)
    ]
    # These sessions read no module docs, so no module says what it does: none is written.
    modules = {c.key[len("module:") :] for c in candidates if c.key.startswith("module:")}
    forbidden = {"deps", "vendor", "target", "config", "priv", "assets", "public", "_build"}
    assert not modules & forbidden
    assert not any(name.startswith(("~", "-", ".", "/")) for name in modules)
    for candidate in candidates:
        if candidate.key.startswith("module:"):
            assert all(is_own_code(p) for p in candidate.file_paths), candidate.file_paths


# --- hostile input -----------------------------------------------------------------------------


def test_huge_and_malformed_command_evidence_is_handled() -> None:
    runs: list[tuple[str, int | None, str]] = [
        ("mix test " + "x" * 50_000, 1, "** (RuntimeError) boom\n" * 20_000),
        ("echo 'unterminated && mix test", 1, ""),
        ("((((", 0, ""),
        ("", 0, ""),
        ("mix test", None, ""),
        ("git push", 1, "\x00\x01 fatal: bad"),
    ]
    events = _stream_events("/w/app", "s1", runs)
    events.append(
        StoredEvent(
            id="evt_bad",
            project_id="/w/app",
            user_id="dev",
            source_tool="claude_code",
            session_id="s1",
            timestamp=T0,
            event_type="command_run",
            content={"command": ["not", "text"], "exit_code": "0", "cwd": 7},
            file_paths=(),
            hash="bad",
        )
    )
    found = evidence_candidates(events)
    assert all(len(c.content) < 2_000 for c in found)


# --- helpers -----------------------------------------------------------------------------------


def _stream_events(
    root: str,
    session: str,
    runs: Sequence[tuple[str, int | None, str]],
    start: datetime = T0,
) -> list[StoredEvent]:
    events = []
    for index, (command, code, output) in enumerate(runs):
        content: dict[str, Any] = {"command": command, "tool_use_id": f"{session}-{index}"}
        if code is not None:
            content.update(exit_code=code, is_error=code != 0, output=output, cwd=root)
        events.append(
            StoredEvent(
                id=f"evt_{session}_{index:04d}",
                project_id=root,
                user_id="dev",
                source_tool="claude_code",
                session_id=session,
                timestamp=start + timedelta(seconds=30 * (index + 1)),
                event_type="command_run",
                content=content,
                file_paths=(),
                hash=f"h-{session}-{index}",
            )
        )
    return events


def _edits(root: str, session: str, paths: list[str]) -> list[StoredEvent]:
    return [
        StoredEvent(
            id=f"evt_{session}_edit_{index}",
            project_id=root,
            user_id="dev",
            source_tool="claude_code",
            session_id=session,
            timestamp=T0 + timedelta(seconds=45 + index),
            event_type="code_change",
            content={"tool": "Edit", "path": f"{root}/{path}"},
            file_paths=(f"{root}/{path}",),
            hash=f"e-{session}-{index}",
        )
        for index, path in enumerate(paths)
    ]


async def test_the_repositorys_main_language_decides_the_main_recipe(
    store: tuple[SqliteStore, SqliteUserStore],
) -> None:
    sqlite, users = store
    root = Path(sqlite.project_id)
    for rel, text in {
        "mix.exs": "defmodule Ledger.MixProject do\nend\n",
        "lib/ledger/accounts.ex": "defmodule Ledger.Accounts do\n" + "  def x, do: 1\n" * 200,
        "lib/ledger_web/router.ex": "defmodule LedgerWeb.Router do\n" + "  # route\n" * 200,
        "assets/js/app.js": "console.log(1)\n",
    }.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    for args in (
        ["init", "-q"],
        ["add", "-A"],
        ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"],
    ):
        subprocess.run(["git", "-C", str(root), *args], check=True)

    async def stores() -> list[SqliteStore]:
        return [sqlite]

    processor = Processor(
        stores,
        users,
        RulesExtractor(),
        _decide,
        user_id="dev",
        clock=lambda: NOW,
        settings=ProcessorSettings(retry_delays=()),
    )
    # The JS tests ran more often, at the root; the repository is Elixir.
    runs = [("npx vitest run", 0, "ok")] * 4 + [("mix test", 0, "9 tests, 0 failures")] * 2
    stored = _stream_events(str(root), "s1", runs, start=NOW - timedelta(days=1))
    events = [
        Event(
            SourceTool.CLAUDE_CODE,
            EventType.COMMAND_RUN,
            e.timestamp,
            e.content,
            session_id=e.session_id,
        )
        for e in stored
    ]
    assert not (await sqlite.append_events(sqlite.project_id, "dev", events, [])).rejected
    await processor.process_once(sqlite, force=True)

    items, _ = await sqlite.list_memories(sqlite.project_id, limit=100)
    memories = {m.key: m.content for m in items}
    assert memories["recipe:test"].startswith("To run the tests: `mix test`")
    assert memories["recipe:test:javascript"].startswith(
        "For the JavaScript/TypeScript part, to run the tests: `npx vitest run`"
    )


def _hook_failure(session: str, when: datetime, output: str) -> StoredEvent:
    return StoredEvent(
        id=f"evt_hook_{session}",
        project_id="/w/app",
        user_id="dev",
        source_tool="claude_code",
        session_id=session,
        timestamp=when,
        event_type="tool_result",
        content={
            "tool": "hook:PreToolUse",
            "tool_use_id": None,
            "output": output,
            "is_error": True,
            "exit_code": 2,
        },
        file_paths=(),
        hash=f"hook-{session}",
        origin="hook",
    )


def test_hook_and_validator_failures_count_as_errors_across_sessions() -> None:
    lint = "src/app.ts:3:1 error 'x' is defined but never used no-unused-vars"
    once = [_hook_failure("s1", T0, lint)]
    twice = [*once, _hook_failure("s2", T0 + timedelta(days=1), lint.replace("'x'", "'y'"))]
    # A hook's own successes, and reports that are not failures, are not errors.
    quiet = StoredEvent(
        id="evt_hook_ok",
        project_id="/w/app",
        user_id="dev",
        source_tool="claude_code",
        session_id="s3",
        timestamp=T0 + timedelta(days=2),
        event_type="tool_result",
        content={"tool": "hook:PreToolUse", "output": "error: looks scary", "is_error": False},
        file_paths=(),
        hash="hook-ok",
        origin="hook",
    )

    assert pitfalls(evidence_candidates(once)) == []  # one failure, no fix seen: nothing claimed
    (pitfall,) = pitfalls(evidence_candidates([*twice, quiet]))
    assert pitfall.content.startswith("The `PreToolUse` hook failed with `src/app.ts:3:1 error")
    assert pitfall.content.endswith("(seen in 2 sessions); no fix was recorded.")
    assert "fix:unknown" in pitfall.tags


async def test_the_store_gives_recent_events_of_a_type_and_origin(
    store: tuple[SqliteStore, SqliteUserStore],
) -> None:
    sqlite, _ = store
    events = [
        Event(
            SourceTool.CLAUDE_CODE,
            EventType.COMMAND_RUN,
            NOW - timedelta(hours=h),
            {"command": f"make step{h}", "exit_code": 0},
            session_id="s",
        )
        for h in range(1, 6)
    ]
    assert not (await sqlite.append_events(sqlite.project_id, "dev", events, [])).rejected

    newest = await sqlite.fetch_recent_of_types(sqlite.project_id, ["command_run"], 3)
    hooks = await sqlite.fetch_recent_of_types(sqlite.project_id, ["command_run"], 3, "hook")

    assert [e.content["command"] for e in newest] == ["make step3", "make step2", "make step1"]
    assert hooks == []
    with pytest.raises(InvalidArgumentError):
        await sqlite.fetch_recent_of_types(sqlite.project_id, ["command_run"], 0)


def test_declined_tool_uses_and_searches_are_not_failures() -> None:
    declined = (
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if "
        "it was a file edit, the new_string was NOT written to the file). STOP what you are "
        "doing.\nthe user said: please add transformer.js too first"
    )
    events = _stream_events(
        "/w/app",
        "s1",
        [
            ('git commit -m "Add tokenizer"', 1, declined),
            ("cp public/transformers.js ../site/public/", 0, ""),
            ('git commit -m "Add tokenizer"', 0, "[main 1a2b3c4] Add tokenizer"),
            ("grep -rn generate_html src", 1, ""),
            ("ls missing/", 2, "ls: missing/: No such file or directory"),
            ("grep -rn generate_html lib", 0, "lib/render.py:3: def generate_html"),
            ("ls lib/", 0, "render.py"),
        ],
    )
    assert pitfalls(evidence_candidates(events)) == []


@pytest.mark.parametrize(
    ("runs", "claimed"),
    [
        # Other tests passing is not a fix for the failing one.
        (
            [
                ("uv run pytest -m unit -v", 5, "=== test session starts ===\n1 deselected"),
                ("uv run pytest --markers", 0, "@pytest.mark.unit"),
            ],
            False,
        ),
        (
            [
                ("cargo test parser::", 101, "test parser::tests::dates ... FAILED"),
                ("cargo test lexer::", 0, "test result: ok. 4 passed"),
            ],
            False,
        ),
        # A wrong path is fixed by the right one.
        (
            [
                ("ruff check src/renderer.py", 1, "E902 No such file or directory (os error 2)"),
                ("ruff check app/renderer.py", 0, "All checks passed!"),
            ],
            True,
        ),
        (
            [
                (
                    "go test ./internal/lnks/...",
                    1,
                    "pattern ./internal/lnks/...: lstat: no such file",
                ),
                ("go test ./internal/links/...", 0, "ok"),
            ],
            True,
        ),
    ],
)
def test_a_check_re_run_on_other_targets_is_a_fix_only_for_call_errors(
    runs: list[tuple[str, int | None, str]], claimed: bool
) -> None:
    found = pitfalls(evidence_candidates(_stream_events("/w/app", "s1", runs)))
    assert bool(found) is claimed
    if claimed:
        assert "re-running it with `" in found[0].content and "instead of" in found[0].content


def test_a_shell_folder_outside_the_project_counts_as_the_root() -> None:
    runs = [("mix test", 0, "3 tests, 0 failures")] * 2
    events = _stream_events("/home/dev/ledger", "s1", runs)
    moved = [
        StoredEvent(
            id=e.id,
            project_id=e.project_id,
            user_id=e.user_id,
            source_tool=e.source_tool,
            session_id=e.session_id,
            timestamp=e.timestamp,
            event_type=e.event_type,
            content={**e.content, "cwd": "/Users/someone/elsewhere/ledger"},
            file_paths=(),
            hash=e.hash,
        )
        for e in events
    ]
    found = by_key(evidence_candidates(moved))
    assert found["recipe:test"].content.startswith("To run the tests: `mix test`")


def test_a_call_declined_with_a_message_did_not_run() -> None:
    # Claude Code stores the user's reason as the error of the declined call, with no exit code.
    events = _stream_events("/w/app", "s1", [("git push", 0, "main -> main")])
    declined = events[0]
    events = [
        StoredEvent(
            id="evt_declined",
            project_id="/w/app",
            user_id="dev",
            source_tool="claude_code",
            session_id="s1",
            timestamp=T0,
            event_type="command_run",
            content={
                "command": "git push",
                "exit_code": None,
                "is_error": True,
                "output": "Wait a sec, we need to copy public/favicons/token.svg first",
            },
            file_paths=(),
            hash="declined",
        ),
        *_edits("/w/app", "s1", ["public/favicons/token.svg"]),
        declined,
    ]
    assert pitfalls(evidence_candidates(events)) == []
    # A timeout is a failure, exit code or not.
    timed_out = StoredEvent(
        **{
            **{f: getattr(events[0], f) for f in ("id", "project_id", "user_id", "source_tool")},
            "session_id": "s1",
            "timestamp": T0,
            "event_type": "command_run",
            "content": {
                "command": "mix test",
                "exit_code": None,
                "is_error": True,
                "output": "Command timed out after 2m 0.0s",
            },
            "file_paths": (),
            "hash": "timeout",
        }
    )
    runs = commands([timed_out])
    assert [r.ok for r in runs] == [False]


def test_pitfalls_name_paths_relative_to_where_the_session_ran() -> None:
    """A transcript recorded on another machine (or checkout) names its own folder in commands
    and errors; the pitfall reads the same everywhere, with that folder left out."""
    root, elsewhere = "/home/dev/src/app", "/Users/someone/work/app"
    runs: list[tuple[str, int | None, str]] = [
        (
            f"uv run pyright {elsewhere}/app/convert.py",
            1,
            f'{elsewhere}/app/convert.py:184:17 - error: Type of "text" is unknown',
        ),
        ("uv run pyright --level error app/convert.py", 0, "0 errors, 0 warnings"),
    ]
    events = [
        dataclasses.replace(e, project_id=root)
        for session in ("s1", "s2")
        for e in _stream_events(
            elsewhere, session, runs, start=T0 + timedelta(days=int(session[1]))
        )
    ]
    found = pitfalls(evidence_candidates(events))
    assert found
    for pitfall in found:
        assert elsewhere not in pitfall.content, pitfall.content
        assert "app/convert.py" in pitfall.content


@pytest.mark.parametrize(
    ("failing", "output", "passing", "wrapper", "fix"),
    [
        (
            "pytest",
            "Exit code 127\n/bin/bash: line 1: pytest: command not found",
            "(source .venv/bin/activate && pytest)",
            "source .venv/bin/activate &&",
            "source .venv/bin/activate && pytest",
        ),
        (
            "vitest run",
            "Exit code 127\n/bin/sh: 1: vitest: not found",
            "npx vitest run",
            "npx",
            "npx vitest run",
        ),
        (
            "rspec",
            "Exit code 127\nbash: rspec: command not found",
            "bundle exec rspec",
            "bundle exec",
            "bundle exec rspec",
        ),
    ],
)
def test_a_command_run_another_way_is_the_fix_for_an_error_about_the_call(
    failing: str, output: str, passing: str, wrapper: str, fix: str
) -> None:
    root = "/home/dev/src/app"
    events = _stream_events(root, "s1", [(failing, 127, output), (passing, 0, "ok, all passed")])
    (pitfall,) = pitfalls(evidence_candidates(events))
    # The difference that fixed it is what was put before the command, said with the command.
    assert f"putting `{wrapper}` before it worked (`{fix}`)" in pitfall.content, pitfall.content


def test_a_wrapper_is_not_claimed_to_fix_a_real_test_failure() -> None:
    root = "/home/dev/src/app"
    runs: list[tuple[str, int | None, str]] = [
        ("pytest", 1, "FAILED tests/test_a.py::test_x - AssertionError: assert 1 == 2"),
        ("(source .venv/bin/activate && pytest)", 0, "1 passed"),
    ]
    for pitfall in pitfalls(evidence_candidates(_stream_events(root, "s1", runs))):
        assert "re-running it" not in pitfall.content


def test_a_marker_selected_test_run_is_shown_before_a_run_of_one_file() -> None:
    runs = [
        ("uv run pytest", 0, "9 passed"),
        ("uv run pytest", 0, "9 passed"),
        ("uv run pytest tests/test_a.py", 0, "2 passed"),
        ("uv run pytest tests/test_b.py", 0, "2 passed"),
        ('uv run pytest -m "not (tui or browser)"', 0, "7 passed"),
    ]
    events = _stream_events("/home/dev/src/viewer", "s1", runs)

    found = by_key(evidence_candidates(events))

    assert found["recipe:test"].content.startswith(
        'To run the tests: `uv run pytest` (e.g. `uv run pytest -m "not (tui or browser)"`, '
    )


@pytest.mark.parametrize(
    ("check", "shown"),
    [
        ("uv run ruff format --check src/app.py", "`uv run ruff format --check`"),
        ("npx prettier --check 'src/**/*.ts' --log-level warn", "`npx prettier --check"),
    ],
)
def test_a_routine_step_shown_by_its_head_keeps_the_option_that_makes_it_a_check(
    check: str, shown: str
) -> None:
    root = "/home/dev/src/tally"
    events: list[StoredEvent] = []
    for n, day in enumerate((5, 6)):
        events += _stream_events(
            root,
            f"s{n}",
            [
                (check, 0, "1 file already formatted"),
                ("uv run pytest -q", 0, "3 passed in 0.1s"),
                ('git commit -m "Add totals"', 0, "[main abc1234] Add totals"),
            ],
            start=datetime(2026, 5, day, 9, 0, tzinfo=UTC),
        )

    verify = by_key(evidence_candidates(events))["recipe:verify"].content

    assert shown in verify, verify
