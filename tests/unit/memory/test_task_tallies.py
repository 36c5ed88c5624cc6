"""What a memory says of its own record ("worked in 3 sessions") and the project's own name
are no subject: a task that says "sessions", or the words of the project's folder, picks no
memory on them alone, and no reason names them, in every ecosystem; a memory that is about
sessions, or that shares another word with the task, is still picked."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemorySource,
    MemoryType,
    Scope,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.retrieval import Retriever, embedding_text, project_words
from squirrel_memory.storage import SqliteStore
from squirrel_memory.storage.formats import searchable_content, searchable_tags
from squirrel_memory.task_context import TaskContextBuilder, TaskContextSettings

Memories = list[tuple[MemoryType, str, str, tuple[str, ...]]]
LOW = TaskContextSettings(min_relevance_lexical=0.2)
"""One shared word is enough on BM25 alone: what a word alone selects shows."""


async def _selected(root: Path, memories: Memories, task: str) -> list[tuple[str, str]]:
    """(key, reason) of what the task context selects for `task` in the project at `root`."""
    root.mkdir(parents=True, exist_ok=True)
    store = await SqliteStore.open(str(root))
    try:
        for kind, key, content, tags in memories:
            candidate = MemoryCandidate(kind, key, content, tags, 0.6, ())
            await store.apply_decision(UpdateDecision(UpdateAction.ADD_NEW, candidate), user_id="u")
        builder = TaskContextBuilder(Retriever(store), settings=LOW)
        context = await builder.build(str(root), task)
    finally:
        await store.close()
    return [(m.key, m.reason) for m in context.selected_memories]


# -- tallies ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "searched"),
    [
        ("To run the tests: `pytest -q` (worked in 3 sessions).", "To run the tests: `pytest -q`."),
        ("`mix compile` failed (seen in 2 sessions): add the dep.", "`mix compile` failed: add the dep."),
        ("At the end of a session: `git push` (done in 4 sessions).", "At the end of a session: `git push`."),
        ("New work: `git worktree add w` (done 5 times in 2 sessions).", "New work: `git worktree add w`."),
        ("In 3 sessions the user asked: “keep it short”.", "the user asked: “keep it short”."),
        ("A procedure done 4 times in 2 sessions: `make` → `make test`.", "A procedure : `make` → `make test`."),
        ("Branches are merged with `git merge <branch>` (3 merges in sessions).", "Branches are merged with `git merge <branch>` ()."),
    ],
)  # fmt: skip
def test_a_memory_s_tally_is_not_searched(content: str, searched: str) -> None:
    assert searchable_content(content) == searched


@pytest.mark.parametrize(
    "content",
    [
        "The session cookie is signed with `SESSION_KEY` (see config/session.ex).",
        "At the end of a session the user runs `cargo fmt`.",
        "Sessions are stored in the `sessions` table for 30 days.",
    ],
)
def test_a_memory_about_sessions_keeps_its_words(content: str) -> None:
    """Trap: "session" as the subject of a memory is not a tally."""
    assert searchable_content(content) == content


def test_the_tally_tags_are_not_embedded_but_the_subject_tags_are() -> None:
    now = datetime(2026, 3, 1, tzinfo=UTC)
    item = MemoryItem(
        id="m1",
        project_id="/p",
        user_id=None,
        scope=Scope.PROJECT,
        type=MemoryType.USER_STYLE,
        key="pref:short",
        content="Keeps replies short (said in 2 sessions).",
        tags=("preference", "recurring", "standing"),
        importance=0.7,
        created_at=now,
        updated_at=now,
        source=MemorySource.RULES,
    )

    assert searchable_tags(item.tags) == ["preference"]
    assert embedding_text(item) == "pref:short: Keeps replies short. [preference]"


RECIPES: dict[str, Memories] = {
    "python": [
        (MemoryType.RECIPE, "recipe:test", "To run the tests: `pytest -q` (worked in 3 sessions).", ()),
    ],
    "go": [
        (MemoryType.RECIPE, "recipe:test", "To run the tests: `go test ./...` (worked in 4 sessions).", ()),
        (MemoryType.PITFALL, "pitfall:vet", "`go vet` failed on `cmd/main.go` (seen in 2 sessions).", ()),
    ],
}  # fmt: skip


@pytest.mark.parametrize("ecosystem", sorted(RECIPES))
async def test_a_task_saying_sessions_picks_no_memory_on_its_tally(
    tmp_path: Path, ecosystem: str
) -> None:
    selected = await _selected(
        tmp_path / "app", RECIPES[ecosystem], "summarise what the last sessions changed"
    )

    assert selected == []


async def test_a_memory_about_sessions_is_picked_for_a_task_about_them(tmp_path: Path) -> None:
    """Trap: the word is kept where the memory's own text is about it."""
    memories: Memories = [
        *RECIPES["python"],
        (
            MemoryType.PROJECT_FACT,
            "fact:sessions",
            "Login sessions are stored in the `sessions` table and expire after 30 days.",
            (),
        ),
    ]

    selected = await _selected(tmp_path / "app", memories, "why do sessions expire so early")

    assert [key for key, _ in selected] == ["fact:sessions"]
    assert "'sessions'" in selected[0][1]


# -- the project's own name ------------------------------------------------------------------------


def test_the_project_s_words_are_its_folder_name_s() -> None:
    assert project_words("/home/dev/billing-service") == {"billing", "service"}
    assert project_words("C:\\src\\LedgerSync\\") >= {"ledger", "sync"}
    assert project_words("/") == frozenset()


NAMED: dict[str, tuple[str, Memories, str]] = {
    "go": (
        "billing-service",
        [(MemoryType.PITFALL, "pitfall:db-url", "The billing service's `go test ./...` fails without `BILLING_DB_URL`.", ())],
        "the billing service needs a dark theme for its dashboard",
    ),
    "elixir": (
        "ledger",
        [(MemoryType.PITFALL, "pitfall:sandbox", "`mix test` fails in `lib/ledger/sync.ex` without the sandbox owner.", ())],
        "the ledger dashboard should list the newest entries first",
    ),
}  # fmt: skip


@pytest.mark.parametrize("ecosystem", sorted(NAMED))
async def test_the_project_s_own_name_alone_picks_no_memory(tmp_path: Path, ecosystem: str) -> None:
    folder, memories, task = NAMED[ecosystem]

    assert await _selected(tmp_path / folder, memories, task) == []


@pytest.mark.parametrize(
    ("ecosystem", "task", "word"),
    [
        ("go", "set BILLING_DB_URL for the billing service tests", "db"),
        ("elixir", "the ledger sandbox owner in sync.ex", "sandbox"),
    ],
)
async def test_a_memory_sharing_another_word_is_picked_and_the_reason_names_it(
    tmp_path: Path, ecosystem: str, task: str, word: str
) -> None:
    """Trap: the project's name is left out of the reason, not the memory out of the answer."""
    folder, memories, _ = NAMED[ecosystem]

    selected = await _selected(tmp_path / folder, memories, task)

    assert [key for key, _ in selected] == [memories[0][1]]
    reason = selected[0][1]
    assert f"'{word}'" in reason.lower()
    assert not any(f"'{name}'" in reason.lower() for name in project_words(folder))
