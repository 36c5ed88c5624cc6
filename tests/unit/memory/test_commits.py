"""Commit messages as evidence: the convention, migrations, and the commit that fixed an error."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from squirrel_core.events import Event, EventType, SourceTool
from squirrel_ingest.parsers.git import GIT_LOG_ARGS, parse_git_log
from squirrel_memory.episodes import HISTORY_MIN_COMMITS, segment_episodes
from squirrel_memory.extractors.activity import commands
from squirrel_memory.extractors.commit_fixes import commit_fixes
from squirrel_memory.extractors.commits import (
    CONVENTION_KEY,
    MIN_COMMITS,
    commit_memories,
    commits_in,
    convention_text,
)
from squirrel_memory.extractors.pitfalls import error_fingerprint, fingerprint_key
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemoryType,
    StoredEvent,
    UpdateDecision,
)
from squirrel_memory.processor import Processor
from squirrel_memory.storage import SqliteStore
from squirrel_memory.updates import decide_update
from squirrel_memory.user_memories.userstore import SqliteUserStore

T0 = datetime(2025, 5, 1, 9, 0, tzinfo=UTC)
NOW = datetime(2026, 1, 1, tzinfo=UTC)
PROJECT = "/home/dev/shop"


def _event(n: int, kind: str, content: dict[str, Any], session: str | None = None) -> StoredEvent:
    return StoredEvent(
        id=f"evt_{n:04d}",
        project_id=PROJECT,
        user_id="dev",
        source_tool="git" if kind == "commit" else "claude_code",
        session_id=session,
        timestamp=T0 + timedelta(minutes=n),
        event_type=kind,
        content=content,
        file_paths=tuple(content.get("files_changed", ())),
        hash=f"h{n}",
    )


def _commit(n: int, message: str, files: tuple[str, ...] = ()) -> StoredEvent:
    sha = f"{n:04x}" + "ab" * 18
    return _event(n, "commit", {"sha": sha, "message": message, "files_changed": list(files)})


def _history(subjects: list[str]) -> list[StoredEvent]:
    return [_commit(i * 90, s) for i, s in enumerate(subjects)]  # 90 min apart: idle gaps


CONVENTIONAL = [
    "feat(auth): add OAuth login with GitHub (#123)",
    "fix(api): handle empty cart in checkout (#130)",
    "chore(deps): bump vite from 5.0.1 to 5.0.2 (#131)",
    "docs(readme): document the dev server port (#140)",
    "refactor(cart): extract pricing into its own module (#141)",
    "test(api): add refund endpoint cases (#150)",
    "fix(ui): keep focus on the search box (#151)",
    "feat(search): support fuzzy matching (#152)",
    "Merge pull request #153 from acme/feature/x",
    "fix: correct the timezone of invoices (#160)",
    "ci: cache the pnpm store (#161)",
    "Update README.md",
]
GO_COMPONENTS = [
    "net/http: fix race in Server.Shutdown",
    "cmd/go: add -json flag to go env",
    "runtime: reduce GC pause on arm64",
    "os/exec: document LookPath on Windows",
    "net/http: handle Expect: 100-continue",
    "crypto/tls: remove SSLv3 support",
    "cmd/compile: inline small closures",
    "internal/poll: avoid allocation in Read",
    "doc: update release notes",
]
ELIXIR_PLAIN = [
    "Add LiveView for the orders page",
    "Fix N+1 query in Accounts.list_users",
    "Use Oban for email delivery",
    "Remove unused Ecto migration",
    "Bump Phoenix to 1.7.10",
    "Rename Billing context to Payments",
    "Handle nil customer in invoice PDF",
    "Improve error message when Stripe is down",
    "Merge branch 'main' into feature/x",
    "Add credo to CI",
]
RUST_TRACKER = [
    "CORE-42 Add borrow-checked cache",
    "CORE-43 Fix panic on empty input",
    "CORE-50 Update serde to 1.0.190",
    "CORE-51 Add cargo-deny to CI",
    "CORE-52 Remove unsafe block in parser",
    "CORE-60 Fix clippy warnings",
    "CORE-61 Add benchmarks for the tokenizer",
    "CORE-62 Improve error messages",
]
PAST_TENSE = [
    "Added README",
    "Fixed bug in parser",
    "Updated dependencies",
    "Removed old code",
    "Changed config loading",
    "Added tests for parser",
    "Fixed typo",
    "Refactored the CLI",
    "Improved logging",
]
NO_CONVENTION = [
    "wip",
    "more fixes",
    "Added stuff",
    "feat: thing",
    "update",
    "Fix the thing",
    "asdf",
    "cleanup",
    "[ui] tweak colours",
    "done",
]


@pytest.mark.parametrize(
    ("subjects", "says"),
    [
        (CONVENTIONAL, ["`type(scope): summary`", "imperative", "`#123`", "10 of 11"]),
        (GO_COMPONENTS, ["component they change", "imperative", "8 of 9 commits name one"]),
        (ELIXIR_PLAIN, ["imperative", "capital letter", "read from 9 commits"]),
        (RUST_TRACKER, ["tracker id", "imperative", "8 of 8"]),
        (PAST_TENSE, ["past tense"]),
    ],
    ids=["conventional", "go", "elixir", "rust-tracker", "past-tense"],
)
def test_the_commit_convention_is_read_from_shares(subjects: list[str], says: list[str]) -> None:
    text = convention_text(commits_in(_history(subjects)))

    assert text is not None and text.startswith("Commit subjects ")
    for phrase in says:
        assert phrase in text


def test_no_convention_without_a_clear_majority_or_enough_commits() -> None:
    assert convention_text(commits_in(_history(NO_CONVENTION))) is None
    assert convention_text(commits_in(_history(CONVENTIONAL[: MIN_COMMITS - 2]))) is None


def test_the_convention_memory_cites_its_commits() -> None:
    events = _history(CONVENTIONAL)

    [memory] = commit_memories(events)

    assert (memory.type, memory.key) == (MemoryType.PROJECT_FACT, CONVENTION_KEY)
    assert memory.source_refs[0] == f"commit:{events[-1].content['sha']}"  # newest first
    assert all(ref.startswith("commit:") for ref in memory.source_refs)
    assert set(memory.source_event_ids) <= {e.id for e in events}
    assert events[8].id not in memory.source_event_ids  # the merge commit is not evidence


def test_git_history_read_in_one_pass_is_one_episode_and_gives_the_convention() -> None:
    events = _history(ELIXIR_PLAIN)
    assert len(events) >= HISTORY_MIN_COMMITS

    [episode] = segment_episodes(events, now=NOW)
    found = RulesExtractor().extract_sync(episode, events)

    assert [c.key for c in found if c.key == CONVENTION_KEY] == [CONVENTION_KEY]


def test_a_stray_commit_still_joins_its_coding_session() -> None:
    session = [
        _event(1, "user_message", {"text": "Fix the login bug."}, "s"),
        _event(2, "assistant_response", {"text": "On it."}, "s"),
        _event(3, "assistant_response", {"text": "Done."}, "s"),
    ]
    episodes = segment_episodes([*session, _commit(5, "Fix login token refresh")], now=NOW)

    assert len(episodes) == 1


@pytest.mark.parametrize(
    ("subject", "content"),
    [
        (
            "Switch from npm to pnpm",
            "The project moved from npm to pnpm (commit",
        ),
        (
            "Replace MySQL with PostgreSQL for the orders store",
            "The project moved from MySQL to PostgreSQL (commit",
        ),
        (
            "chore: migrate tests from jest to vitest",
            "The project moved from jest to vitest (commit",
        ),
    ],
)
def test_moves_between_known_tools_become_facts(subject: str, content: str) -> None:
    [fact] = commit_memories([_commit(1, subject)])

    assert fact.content.startswith(content)
    assert fact.key.startswith("migration:")
    assert fact.source_refs == (f"commit:{_commit(1, subject).content['sha']}",)


@pytest.mark.parametrize(
    "subject",
    ["Move the button from left to right", "Replace foo with bar", "Switch to dark mode"],
)
def test_moves_between_unknown_things_are_not_facts(subject: str) -> None:
    assert commit_memories([_commit(1, subject)]) == []


# --- the commit that fixed what a session's error named -------------------------------------

KEY_ERROR = """Traceback (most recent call last):
  File "/home/dev/shop/app/pricing.py", line 41, in total
    rate = TAX_RATES[region]
KeyError: 'eu_north'
"""


def _failing_session(commit_message: str, files: tuple[str, ...]) -> list[StoredEvent]:
    return [
        _event(1, "user_message", {"text": "Why does checkout crash?"}, "s"),
        _event(
            2,
            "test_run",
            {"command": "pytest tests/test_pricing.py", "exit_code": 1, "output": KEY_ERROR},
            "s",
        ),
        _event(3, "assistant_response", {"text": "The region table lacks eu_north."}, "s"),
        _commit(6, commit_message, files),
    ]


@pytest.mark.parametrize(
    "message",
    [
        "Fix KeyError for eu_north in tax rates",
        "pricing: handle the 'eu_north' region\n\nThe table had no entry for it.",
        "fix(pricing): add missing region to pricing.py",
    ],
)
def test_a_commit_that_names_the_error_is_its_fix(message: str) -> None:
    events = _failing_session(message, ("app/pricing.py",))
    [episode] = segment_episodes(events, now=NOW)

    found = RulesExtractor().extract_sync(episode, events)

    [pitfall] = [c for c in found if c.type == MemoryType.PITFALL]
    sha = events[-1].content["sha"]
    assert pitfall.key == fingerprint_key(error_fingerprint(KEY_ERROR))
    assert f"commit {sha[:7]} fixed it" in pitfall.content
    assert pitfall.source_refs == (f"commit:{sha}",)
    assert pitfall.source_event_ids == ("evt_0002", events[-1].id)
    assert pitfall.file_paths == ("app/pricing.py",)


@pytest.mark.parametrize(
    ("message", "files"),
    [
        ("Add the dark mode toggle", ("app/pricing.py",)),  # not a fix
        ("Fix typo in README", ("README.md",)),  # a fix, of something else
        # One line fixes something else, another names the error: no claim.
        ("Fix typo in README\n\n- Add the eu_north rate", ("README.md", "app/rates.py")),
    ],
)
def test_a_commit_that_does_not_name_the_error_is_not_claimed(
    message: str, files: tuple[str, ...]
) -> None:
    events = _failing_session(message, files)
    [episode] = segment_episodes(events, now=NOW)

    found = RulesExtractor().extract_sync(episode, events)

    assert [c for c in found if c.type == MemoryType.PITFALL] == []


@pytest.mark.parametrize(
    "content",
    [
        {"sha": "not-a-sha", "message": "Fix KeyError"},
        {"sha": "abcdef1234", "message": ["not", "text"]},
        {"sha": 42, "message": "Fix"},
        {"message": "no sha"},
        {"sha": "abcdef1234", "message": "   "},
        {"sha": "abcdef1234", "message": "x" * 2_000_000, "files_changed": "not a list"},
    ],
)
def test_malformed_commits_are_skipped(content: dict[str, Any]) -> None:
    events = [_event(i, "commit", content) for i in range(HISTORY_MIN_COMMITS)]
    commits = commits_in(events)
    assert all(len(c.subject) <= 200 for c in commits)
    commit_memories(events)  # never raises


def test_real_git_history_through_the_git_parser(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()

    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)

    git("init", "-q")
    git("config", "user.email", "dev@example.com")
    git("config", "user.name", "Dev")
    for i, subject in enumerate(GO_COMPONENTS):
        (repo / f"f{i}.go").write_text(f"package main // {i}\n")
        git("add", ".")
        git("commit", "-q", "-m", subject)
    out = subprocess.run(
        ["git", "-C", str(repo), *GIT_LOG_ARGS, "HEAD"], capture_output=True, text=True, check=True
    ).stdout
    events = [
        StoredEvent(
            id=f"evt_{i}",
            project_id=str(repo),
            user_id="dev",
            source_tool="git",
            session_id=None,
            timestamp=e.timestamp,
            event_type=e.event_type,
            content=e.content,
            file_paths=e.file_paths,
            hash=str(i),
        )
        for i, e in enumerate(parse_git_log(out, str(repo)))
    ]

    [memory] = commit_memories(events)

    assert "component they change" in memory.content and "8 of 9 commits name one" in memory.content


# --- project-wide: the session and its fix commit read in different passes -------------------


def _session_events(at: datetime) -> list[Event]:
    return [
        Event(
            SourceTool.CLAUDE_CODE, EventType.USER_MESSAGE, at, {"text": "Checkout crashes."}, "s"
        ),
        Event(
            SourceTool.CLAUDE_CODE,
            EventType.TEST_RUN,
            at + timedelta(minutes=1),
            {"command": "pytest tests/test_pricing.py", "exit_code": 1, "output": KEY_ERROR},
            "s",
        ),
        Event(
            SourceTool.CLAUDE_CODE,
            EventType.ASSISTANT_RESPONSE,
            at + timedelta(minutes=2),
            {"text": "Found it."},
            "s",
        ),
    ]


def _history_events(fix_at: datetime) -> list[Event]:
    subjects = [*ELIXIR_PLAIN[:8], "Fix KeyError for eu_north in tax rates"]
    return [
        Event(
            SourceTool.GIT,
            EventType.COMMIT,
            fix_at - timedelta(days=len(subjects) - 1 - i),
            {"sha": f"{i:02x}" + "cd" * 19, "message": s, "files_changed": ["app/pricing.py"]},
        )
        for i, s in enumerate(subjects)
    ]


@pytest.mark.parametrize("commits_first", [True, False])
async def test_a_fix_commit_read_in_another_pass_is_paired(
    tmp_path: Path, commits_first: bool
) -> None:
    root = tmp_path / "shop"
    root.mkdir()
    store = await SqliteStore.open(str(root.resolve()), clock=lambda: NOW)
    users = await SqliteUserStore.open(tmp_path / "home")

    async def all_stores() -> list[SqliteStore]:
        return [store]

    async def decide(cand: MemoryCandidate, existing: list[MemoryItem]) -> UpdateDecision:
        return decide_update(cand, existing)

    processor = Processor(
        all_stores, users, RulesExtractor(), decide, user_id="dev", clock=lambda: NOW
    )
    at = NOW - timedelta(days=3)
    batches = [_history_events(at + timedelta(hours=2)), _session_events(at)]
    try:
        for batch in batches if commits_first else reversed(batches):
            await store.append_events(store.project_id, "dev", batch, [])
            await processor.drain(store, force=True)
        items, _ = await store.list_memories(store.project_id, types=[MemoryType.PITFALL])
    finally:
        await store.close()
        await users.close()

    [pitfall] = [m for m in items if "commit" in m.tags]
    assert "fixed it (“Fix KeyError for eu_north in tax rates”)" in pitfall.content
    assert pitfall.source_refs == ("commit:08" + "cd" * 19,)


def test_a_plain_quoted_word_does_not_tie_a_commit_to_an_error() -> None:
    output = "fatal: 'origin' does not appear to be a git repository"
    events = [
        _event(1, "command_run", {"command": "git push", "exit_code": 128, "output": output}, "s"),
        _commit(6, "Fix the origin of the chart axis", ("web/chart.js",)),
    ]
    assert commit_fixes(events, commands(events)) == []
    events[-1] = _commit(6, "Fix push: add the 'origin' remote", ())
    assert commit_fixes(events, commands(events)) == []  # still only a plain word
