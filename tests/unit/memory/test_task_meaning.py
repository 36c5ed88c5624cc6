"""One telling word shared is not enough with vectors: a memory is picked for a task when its
meaning is close to the task's too, or when the word names a file both give; while the model
loads (BM25 alone) the words decide as before. Made-up projects in Python and TypeScript."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from squirrel_memory.embedding.base import Vectors, normalised
from squirrel_memory.embedding.fake import FakeEmbedder
from squirrel_memory.index import FaissIndex
from squirrel_memory.models import MemoryCandidate, MemoryType, UpdateAction, UpdateDecision
from squirrel_memory.retrieval import (
    RetrievalSettings,
    Retriever,
    embedding_text,
    file_names,
    task_relevance,
)
from squirrel_memory.storage import SqliteStore
from squirrel_memory.task_context import TaskContextBuilder, TaskContextSettings
from squirrel_memory.task_subjects import key_subjects, subject_stem

Memories = list[tuple[MemoryType, str, str]]
#: A bar low enough that one shared word clears it: what the meaning rule decides shows.
LOW = TaskContextSettings(min_relevance=0.05, min_relevance_lexical=0.05)
SETTINGS = RetrievalSettings(vector_floor=0.1)
#: What a text is about, by the words it says: texts on one topic are close in meaning, texts
#: on none or on others are not (each gets an axis of its own besides).
TOPICS = {
    "docs": "docs mdx markdown angle brackets links document documents",
    "server": "server slash trailing routing redirect browser",
    "format": "format formatting formatter ruff prettier",
    "invoice": "invoice invoices totals total euros cent cents rounding",
    "agents": "agents plugin plugins registry",
    "sessions": "sessionmanager orchestrator sessions",
    "tests": "vitest jsx runtime jsximportsource",
}
_AXIS = {word: n for n, words in enumerate(TOPICS.values()) for word in words.split()}
_WORD = re.compile(r"[a-z]+")


class TopicEmbedder(FakeEmbedder):
    """Vectors by topic (`TOPICS`) plus a small axis of the text's own."""

    def __init__(self) -> None:
        super().__init__(dim=32)

    def embed_now(self, texts: Sequence[str]) -> Vectors:
        matrix = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in _WORD.findall(text.lower()):
                if word in _AXIS:
                    matrix[row, _AXIS[word]] += 1.0
            own = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=4).digest(), "little")
            matrix[row, len(TOPICS) + own % (self.dim - len(TOPICS))] += 0.3
        return normalised(matrix)


async def _selected(
    root: Path, memories: Memories, task: str, *, vectors: bool = True
) -> dict[str, str]:
    """key -> reason of what the task context selects for `task` at the `LOW` bar, with the
    topic embedder's vectors (or on BM25 alone)."""
    root.mkdir(exist_ok=True)
    store = await SqliteStore.open(str(root))
    try:
        items = []
        for kind, key, content in memories:
            candidate = MemoryCandidate(kind, key, content, (), 0.5, ())
            item = await store.apply_decision(
                UpdateDecision(UpdateAction.ADD_NEW, candidate), user_id="u"
            )
            assert item is not None
            items.append(item)
        if vectors:
            embedder = TopicEmbedder()
            index = FaissIndex(embedder.dim, embedder.model_id)
            found = embedder.embed_now([embedding_text(i) for i in items])
            index.upsert(zip([i.id for i in items], found, strict=True))
            retriever = Retriever(store, embedder=embedder, index=index, settings=SETTINGS)
        else:
            retriever = Retriever(store, settings=SETTINGS)
        context = await TaskContextBuilder(retriever, settings=LOW).build(str(root), task)
    finally:
        await store.close()
    return {m.key: m.reason for m in context.selected_memories}


#: Memories on nothing the tasks ask about: a word of a task is rare among the project's
#: memories, so BM25 alone lifts one shared word over the `LOW` bar.
PYTHON_OTHERS: Memories = [
    (MemoryType.RECIPE, f"recipe:other{n}", text)
    for n, text in enumerate(
        (
            "Migrations run with `alembic upgrade head`.",
            "The command line starts in `invoicer/cli.py`.",
            "Logs are written to `var/log/app.log`.",
            "Settings are read from `settings.toml` at start.",
            "Dependencies are installed with `uv sync`.",
            "Fixtures live in `tests/fixtures/`.",
        )
    )
]
TYPESCRIPT_OTHERS: Memories = [
    (MemoryType.RECIPE, f"recipe:other{n}", text)
    for n, text in enumerate(
        (
            "Styles use Tailwind classes only.",
            "Environment values are read from `.env.local`.",
            "Lint with `npm run lint`.",
            "Images are stored in `public/img/`.",
            "Deploys go through `vercel --prod`.",
            "Dependencies are installed with `pnpm install`.",
        )
    )
]
PYTHON: Memories = [
    (
        MemoryType.PITFALL,
        "pitfall:reports-slash",
        "The dev server drops the trailing slash of URLs under `/reports/`: the browser then "
        "asks for the wrong page.",
    ),
    (
        MemoryType.PITFALL,
        "pitfall:mdx-angle-urls",
        "URLs in angle brackets break the MDX docs build: write them as markdown links.",
    ),
    (
        MemoryType.RECIPE,
        "recipe:format",
        "To format: `ruff format` (e.g. `ruff format billing/render.py`).",
    ),
    (
        MemoryType.PROJECT_FACT,
        "module:totals",
        "Invoice totals are rounded per line in `billing/totals.py`.",
    ),
]
TYPESCRIPT: Memories = [
    (
        MemoryType.USER_STYLE,
        "pref:sessionmanager_not_agent_specific",
        "The SessionManager must not be agent specific.",
    ),
    (
        MemoryType.PROJECT_FACT,
        "architecture:agents",
        "Agents are listed in `src/agents/registry.ts`; each agent plugin exports `setup()`.",
    ),
    (MemoryType.USER_STYLE, "pref:separate_documents", "Don't create separate documents."),
    (
        MemoryType.PITFALL,
        "pitfall:jsx-runtime",
        "`vitest run` fails on `src/Cart.tsx` until `jsxImportSource` is set.",
    ),
]
PYTHON += PYTHON_OTHERS
TYPESCRIPT += TYPESCRIPT_OTHERS


@pytest.mark.parametrize(
    ("memories", "task", "left"),
    [
        # "urls" alone: a server's trailing slash is not a docs build's trouble.
        (PYTHON, "the docs build fails on URLs wrapped in angle brackets", "pitfall:reports-slash"),
        # "render" alone, and no file named: how to format is not how totals are rendered.
        (PYTHON, "render the invoice totals in euros", "recipe:format"),
        # "agent" alone: a rule about the SessionManager is not about the agents' registry.
        (
            TYPESCRIPT,
            "check the agent registry before the spec",
            "pref:sessionmanager_not_agent_specific",
        ),
        # "cart" alone: a test runner's JSX setting is not a cart's total.
        (TYPESCRIPT, "the cart total is off by one cent", "pitfall:jsx-runtime"),
    ],
)
async def test_one_telling_word_far_in_meaning_picks_no_memory(
    tmp_path: Path, memories: Memories, task: str, left: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Trap: without the meaning bar the one word picks it (so the bar is what leaves it)."""
    assert left not in await _selected(tmp_path / "with", memories, task)

    monkeypatch.setattr(task_relevance, "MEANING_SIMILARITY", 0.0)
    assert left in await _selected(tmp_path / "without", memories, task)


@pytest.mark.parametrize(
    ("memories", "task", "kept", "words"),
    [
        # Many words and the meaning: the docs build pitfall.
        (
            PYTHON,
            "the docs build fails on URLs wrapped in angle brackets",
            "pitfall:mdx-angle-urls",
            ("'angle'", "'brackets'"),
        ),
        # One word, close in meaning: a rule about documents for "create a document".
        (
            TYPESCRIPT,
            "create document in /specs folder",
            "pref:separate_documents",
            ("'document'",),
        ),
        # Two telling words ("agent", "registry"), whatever the meaning.
        (
            TYPESCRIPT,
            "check the agent registry before the spec",
            "architecture:agents",
            ("'registry'",),
        ),
    ],
)
async def test_a_memory_close_in_meaning_or_sharing_more_is_still_picked(
    tmp_path: Path, memories: Memories, task: str, kept: str, words: tuple[str, ...]
) -> None:
    """Where the rule must not fire; the reason names the words that matter, no generic one."""
    selected = await _selected(tmp_path, memories, task)

    assert kept in selected
    assert all(word in selected[kept] for word in words)
    assert "'create'" not in selected[kept] and "'fails'" not in selected[kept]


@pytest.mark.parametrize(
    ("memories", "task", "kept", "word"),
    [
        (
            PYTHON,
            "please combine the logic:\n--- a/billing/render.py\n+++ b/billing/render.py\n"
            "-    rows = sorted(rows)\n+    rows = rows[-1:]",
            "recipe:format",
            "'render'",
        ),
        (
            TYPESCRIPT,
            "this patch crashes:\ndiff --git a/src/Cart.tsx b/src/Cart.tsx\n-  const x = 1",
            "pitfall:jsx-runtime",
            "'cart'",
        ),
    ],
)
async def test_one_word_that_names_a_file_both_give_still_picks(
    tmp_path: Path,
    memories: Memories,
    task: str,
    kept: str,
    word: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same file is the same subject: a diff of `billing/render.py` and a recipe whose
    example formats it, however far their wording is in meaning (trap: without the file,
    the one word far in meaning leaves it)."""
    selected = await _selected(tmp_path / "files", memories, task)

    assert kept in selected
    assert word in selected[kept]
    monkeypatch.setattr(task_relevance, "names_a_file_of", lambda *_: False)
    assert kept not in await _selected(tmp_path / "words", memories, task)


@pytest.mark.parametrize(
    ("memories", "task", "kept"),
    [
        (PYTHON, "the docs build fails on URLs wrapped in angle brackets", "pitfall:reports-slash"),
        (
            TYPESCRIPT,
            "check the agent registry before the spec",
            "pref:sessionmanager_not_agent_specific",
        ),
    ],
)
async def test_on_bm25_alone_one_telling_word_still_decides(
    tmp_path: Path, memories: Memories, task: str, kept: str
) -> None:
    """While the model loads meaning cannot be told: the words decide, at the lexical bar."""
    assert kept in await _selected(tmp_path, memories, task, vectors=False)


@pytest.mark.parametrize(
    ("memory", "task"),
    [
        (
            (
                MemoryType.PITFALL,
                "coverage_needs_the_pytest_cov_plugin",
                "Coverage needs the pytest-cov plugin; without it pytest rejects --cov.",
            ),
            "run the suite again, this time with coverage",
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
async def test_the_head_of_a_phrase_key_still_names_its_subject(
    tmp_path: Path, memory: tuple[MemoryType, str, str], task: str
) -> None:
    """Where the rule must not fire: the first telling word of a key cut from the memory's
    text is what it is about, close in meaning or not (`coverage`, `migrations`)."""
    selected = await _selected(tmp_path, [memory, *PYTHON_OTHERS], task)

    assert memory[1] in selected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("diff --git a/claude_code_log/renderer.py b/x", {"renderer.py"}),
        ("`src/Cart.tsx` fails", {"cart.tsx"}),
        ("lib/ledger/entry.ex raises", {"entry.ex"}),
        ("see README.md.", {"readme.md"}),
        ("set group.visible now; import billing.export.render; python 3.11", set()),
    ],
)
def test_the_files_a_text_names_are_found_by_their_names(text: str, expected: set[str]) -> None:
    assert file_names(text) == expected


@pytest.mark.parametrize(
    ("key", "heads"),
    [
        ("coverage_needs_the_pytest_cov_plugin", {"coverage"}),
        ("pref:sessionmanager_not_agent_specific", {"sessionmanager"}),
        ("pitfall:learned:hydration_mismatch_on_dates", {"hydration"}),
        ("recipe:test", set()),  # a short part names its subject: no phrase, no head
    ],
)
def test_a_phrase_key_s_head_is_its_first_telling_word(key: str, heads: set[str]) -> None:
    assert key_subjects(key).heads == {subject_stem(h) for h in heads}
