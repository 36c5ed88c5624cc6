"""What a task is about, not where: the folders of the paths a task gives, and a word of the
phrase a key was cut from that the memory's text does not say, pick no memory for the task
context on their own, in every ecosystem."""

from __future__ import annotations

from pathlib import Path

import pytest

from squirrel_memory.models import MemoryCandidate, MemoryType, UpdateAction, UpdateDecision
from squirrel_memory.retrieval import Retriever, folder_words
from squirrel_memory.storage import SqliteStore
from squirrel_memory.task_context import TaskContextBuilder, TaskContextSettings
from squirrel_memory.task_subjects import key_subjects, subject_stem

Memories = list[tuple[MemoryType, str, str]]
LOW = TaskContextSettings(min_relevance_lexical=0.2)


async def _selected(
    root: Path, memories: Memories, task: str, settings: TaskContextSettings = LOW
) -> list[tuple[str, str]]:
    """(key, reason) of what the task context selects for `task` on BM25 alone, by default at a
    low bar (`LOW`): one shared word is enough, so what a word alone selects shows."""
    store = await SqliteStore.open(str(root))
    try:
        for kind, key, content in memories:
            candidate = MemoryCandidate(kind, key, content, (), 0.6, ())
            await store.apply_decision(UpdateDecision(UpdateAction.ADD_NEW, candidate), user_id="u")
        builder = TaskContextBuilder(Retriever(store), settings=settings)
        context = await builder.build(str(root), task)
    finally:
        await store.close()
    return [(m.key, m.reason) for m in context.selected_memories]


# -- the folders of a task's paths ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("the header in shop_core/export.py is wrong", {"shop", "core"}),
        ("@src/components/Header.tsx flickers", {"src", "components"}),
        ("lib/ledger/entry.ex raises", {"lib", "ledger"}),
        ("see /home/dev/shop/cmd/server/main.go", {"home", "dev", "shop", "cmd", "server"}),
        ("look at src/billing/", {"src"}),  # the folder a path ends with is what it names
    ],
)
def test_the_folders_of_the_paths_a_task_gives_are_found(text: str, expected: set[str]) -> None:
    assert folder_words(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "read and/or write the cache",  # a pair of words, not a path
        "split the client/server code",
        "the ledger entries in ledger/entry.ex",  # `ledger` is also said on its own
        "Header.tsx flickers",  # a file name alone has no folder
        "https://example.com/docs/setup",  # a web address
    ],
)
def test_words_outside_a_path_s_folders_are_kept(text: str) -> None:
    assert folder_words(text) == frozenset()


PYTHON: Memories = [
    (
        MemoryType.PITFALL,
        "pitfall:tax-rounding",
        "`pytest` fails in `shopcore/tax.py` when amounts round half up.",
    ),
    (
        MemoryType.PROJECT_FACT,
        "module:export",
        "Module `export`: `shopcore/export.py` writes the invoices as CSV rows.",
    ),
]
TYPESCRIPT: Memories = [
    (
        MemoryType.PITFALL,
        "pitfall:jsx-runtime",
        "`vitest run` fails on `webapp/src/Legacy.tsx` until `jsxImportSource` is set.",
    ),
    (
        MemoryType.PROJECT_FACT,
        "module:navigation",
        "Module `components`: `webapp/src/components/Header.tsx` renders the navigation bar.",
    ),
]
ELIXIR: Memories = [
    (
        MemoryType.PITFALL,
        "pitfall:sandbox-owner",
        "`mix test` fails in `lib/ledger/sync.ex` without the sandbox owner.",
    ),
    (
        MemoryType.RECIPE,
        "recipe:entries",
        "To rebuild the entries: `mix ledger.entries` (writes `lib/ledger/entry.ex`).",
    ),
]


@pytest.mark.parametrize(
    ("memories", "task", "kept", "left"),
    [
        (PYTHON, "the CSV rows shopcore/export.py writes lack a total", "module:export", None),
        (PYTHON, "rename shopcore/cart.py", None, "pitfall:tax-rounding"),
        (
            TYPESCRIPT,
            "the navigation bar in webapp/src/components/Header.tsx flickers",
            "module:navigation",
            "pitfall:jsx-runtime",
        ),
        (ELIXIR, "the entries lib/ledger/entry.ex holds are stale", "recipe:entries", None),
        (ELIXIR, "document lib/ledger/report.ex", None, "pitfall:sandbox-owner"),
    ],
)
async def test_a_folder_of_a_path_alone_picks_no_memory(
    tmp_path: Path, memories: Memories, task: str, kept: str | None, left: str | None
) -> None:
    selected = await _selected(tmp_path, memories, task)

    keys = [key for key, _ in selected]
    if kept is not None:
        assert kept in keys
    if left is not None:
        assert left not in keys
    folders = folder_words(task)
    assert folders
    assert not any(f"'{word}'" in reason for _, reason in selected for word in folders)


async def test_a_folder_the_task_also_names_on_its_own_still_picks(tmp_path: Path) -> None:
    """Trap: a package the task talks about is its subject, even where a path also holds it."""
    memories: Memories = [
        (
            MemoryType.PROJECT_FACT,
            "fact:publishing",
            "The `shopcore` package is published to the team's index on every tag.",
        ),
    ]

    selected = await _selected(
        tmp_path, memories, "the shopcore package published from shopcore/setup.py"
    )

    assert [key for key, _ in selected] == ["fact:publishing"]


# -- the subjects a key names ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "named", "phrased"),
    [
        ("recipe:test", {"test"}, set()),
        ("module:billing", {"billing"}, set()),
        ("endpoint:inventory", {"endpoint", "inventory"}, set()),
        ("repo:recipe:test@web", {"test", "web"}, set()),
        # a part of two words is a compound: its first word names what, the second what kind
        ("tests_folder", {"test"}, {"folder"}),
        # phrases cut from a memory's text, and an error's fingerprint
        ("pref:simplest_reuse_existing", set(), {"simplest", "reuse"}),
        ("pitfall:typeerror-cachemanager-b472b9a6", set(), {"typeerror", "cachemanager"}),
        ("architecture:handlers_register_through_router", {"architecture"}, {"handlers", "router"}),
    ],
)
def test_a_key_names_a_subject_in_a_part_of_one_or_two_words(
    key: str, named: set[str], phrased: set[str]
) -> None:
    found = key_subjects(key)
    assert found.named == {subject_stem(word) for word in named}
    assert {subject_stem(word) for word in phrased} <= found.phrased


@pytest.mark.parametrize(
    ("memories", "task", "left"),
    [
        (
            [
                (
                    MemoryType.USER_STYLE,
                    "pref:simplest_reuse_existing",
                    "Asks for the simplest way that builds on what is there.",
                )
            ],
            "could we reuse the dialog component here?",
            "pref:simplest_reuse_existing",
        ),
        (
            [
                (
                    MemoryType.PROJECT_FACT,
                    "architecture:handlers_register_through_router",
                    "Each HTTP handler is wired in `cmd/server/main.go`.",
                )
            ],
            "register a webhook for the payment provider",
            "architecture:handlers_register_through_router",
        ),
    ],
)
async def test_a_word_of_a_phrase_key_alone_picks_no_memory(
    tmp_path: Path, memories: Memories, task: str, left: str
) -> None:
    selected = await _selected(tmp_path, memories, task)

    assert left not in [key for key, _ in selected]


@pytest.mark.parametrize(
    ("memory", "task"),
    [
        (
            (MemoryType.RECIPE, "recipe:migrate", "Run `mix ecto.migrate` after a schema change."),
            "add a migration for the orders table",
        ),
        (
            (MemoryType.RECIPE, "recipe:test", "To check a change: `cargo nextest run`."),
            "the tests of the parser crate",
        ),
    ],
)
async def test_a_key_that_names_a_subject_still_picks_its_memory(
    tmp_path: Path, memory: tuple[MemoryType, str, str], task: str
) -> None:
    """Trap: a short key says what its memory is about, however little of the text matches."""
    selected = await _selected(tmp_path, [memory], task)

    assert [key for key, _ in selected] == [memory[1]]


@pytest.mark.parametrize(
    ("memory", "task"),
    [
        (
            (
                MemoryType.PITFALL,
                "coverage_needs_the_pytest_cov_plugin",
                "Coverage needs the pytest-cov plugin; without it pytest rejects --cov.",
            ),
            "Run the tests again, this time with coverage",
        ),
        (
            (
                MemoryType.PITFALL,
                "pitfall:learned:hydration_mismatch_on_dates",
                "Dates rendered on the server differ from the client's: a hydration mismatch.",
            ),
            "why does hydration break on this page?",
        ),
        (
            (
                MemoryType.USER_STYLE,
                "pref:migrations_stay_reversible_always",
                "Every migration gets a down step; migrations stay reversible.",
            ),
            "write the migrations for the orders table",
        ),
    ],
)
async def test_a_word_of_a_phrase_key_the_text_also_says_still_picks(
    tmp_path: Path, memory: tuple[MemoryType, str, str], task: str
) -> None:
    """Trap: the word a task and a memory's own text share is a subject even where the key is
    a phrase (the pytest-cov pitfall for "… with coverage", in Python, JavaScript and Elixir
    shapes). At the shipped bar, so that the key is what picks it."""
    selected = await _selected(tmp_path, [memory], task, TaskContextSettings())

    assert [key for key, _ in selected] == [memory[1]]
