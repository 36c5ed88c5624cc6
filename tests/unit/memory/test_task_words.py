"""A task's file extensions and adverbs say nothing of what it is about: alone, they pick no
memory for the task context, and no reason names them."""

from __future__ import annotations

from pathlib import Path

import pytest

from squirrel_memory.models import MemoryType
from squirrel_memory.retrieval import extension_words, is_generic
from tests.unit.memory.task_selection import Memories, selected_for


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("look at billing/export.py please", {"py"}),
        ("Header.tsx and main.go are slow", {"tsx", "go"}),
        ("see README.md.", {"md"}),
        ("fix tests/test_cache.py::TestLoad -v", {"py"}),
        ("lib/ledger.ex and Ledger.csproj", {"ex"}),
    ],
)
def test_the_extensions_of_the_file_names_a_task_gives_are_found(
    text: str, expected: set[str]
) -> None:
    assert extension_words(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "the json schema in config.json is wrong",  # `json` is also said on its own
        "You can set group.visible using the vis library",  # an attribute, not a file
        "import billing.export.render",  # a dotted module path
        "needs python 3.11, e.g. the current one",  # a version, an abbreviation
    ],
)
def test_a_word_that_is_no_file_s_extension_is_kept(text: str) -> None:
    assert extension_words(text) == frozenset()


PYTHON: Memories = [
    (
        MemoryType.PITFALL,
        "pitfall:import-path",
        "`python tools/check.py` fails: run `python -m tools.check`.",
    ),
    (
        MemoryType.PROJECT_FACT,
        "module:billing",
        "Module `billing`: `billing/export.py` writes the invoices as CSV rows.",
    ),
]
TYPESCRIPT: Memories = [
    (
        MemoryType.PITFALL,
        "pitfall:jsx-runtime",
        "`vitest run` fails on `src/Legacy.tsx` until `jsxImportSource` is set.",
    ),
    (
        MemoryType.PROJECT_FACT,
        "module:header",
        "Module `components`: `src/components/Header.tsx` renders the navigation bar.",
    ),
]


@pytest.mark.parametrize(
    ("memories", "task", "kept", "left"),
    [
        (PYTHON, "the invoices billing/export.py writes lack a total", "module:billing", None),
        (PYTHON, "report.py", None, "pitfall:import-path"),
        (TYPESCRIPT, "the navigation bar in Header.tsx flickers", "module:header", None),
        (TYPESCRIPT, "Footer.tsx", None, "pitfall:jsx-runtime"),
    ],
)
async def test_a_file_extension_alone_picks_no_memory(
    tmp_path: Path, memories: Memories, task: str, kept: str | None, left: str | None
) -> None:
    selected = await selected_for(tmp_path, memories, task)

    keys = [key for key, _ in selected]
    if kept is not None:
        assert kept in keys
    if left is not None:
        assert left not in keys
    assert all("'py'" not in reason and "'tsx'" not in reason for _, reason in selected)


async def test_an_extension_the_task_also_says_as_a_word_still_picks(tmp_path: Path) -> None:
    """Trap: `json` said on its own is what the task is about, not only a file's extension."""
    memories: Memories = [
        (
            MemoryType.PITFALL,
            "pitfall:json-comments",
            "`tsc -p tsconfig.json` fails on comments: the json parser here is strict.",
        ),
        (MemoryType.USER_STYLE, "pref:small", "Keeps functions small."),
    ]

    selected = await selected_for(tmp_path, memories, "the json in settings.json has comments")

    assert [key for key, _ in selected] == ["pitfall:json-comments"]


@pytest.mark.parametrize("word", ["automatically", "actually", "still", "again", "always"])
def test_adverbs_of_manner_and_frequency_are_generic(word: str) -> None:
    assert is_generic(word)


@pytest.mark.parametrize("word", ["automation", "stillborn", "nightly", "assembly", "family"])
def test_words_that_only_look_like_those_adverbs_are_not(word: str) -> None:
    assert not is_generic(word)


@pytest.mark.parametrize(
    ("memories", "task", "left"),
    [
        (
            [
                (
                    MemoryType.PITFALL,
                    "pitfall:static-index",
                    "`index.html` under `public/` is not served automatically.",
                )
            ],
            "it happens automatically",
            "pitfall:static-index",
        ),
        (
            [
                (
                    MemoryType.PITFALL,
                    "pitfall:stale-lock",
                    "`cargo build` still holds the lock.",
                )
            ],
            "it still hangs",
            "pitfall:stale-lock",
        ),
    ],
)
async def test_an_adverb_alone_picks_no_memory(
    tmp_path: Path, memories: Memories, task: str, left: str
) -> None:
    selected = await selected_for(tmp_path, memories, task)

    assert left not in [key for key, _ in selected]


async def test_a_memory_sharing_a_subject_beside_the_adverb_is_picked(tmp_path: Path) -> None:
    """Trap: the adverb takes nothing away from the word that says what the task is about."""
    memories: Memories = [
        (
            MemoryType.PITFALL,
            "pitfall:static-index",
            "`index.html` files under `public/` are not served automatically by the router.",
        )
    ]

    selected = await selected_for(tmp_path, memories, "why is public/index.html still not served?")

    assert [key for key, _ in selected] == ["pitfall:static-index"]
    assert "'automatically'" not in selected[0][1]
