"""The likeness of instructions from the service's embedder: one batch, only the stored
instructions the meaning rule could join, and none without a loaded model."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.embedding.fake import FakeEmbedder
from squirrel_memory.instruction_meaning import comparable, instruction_likeness
from squirrel_memory.models import MemoryItem, MemorySource, MemoryType, Scope

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def _stored(content: str) -> MemoryItem:
    return MemoryItem(
        id=f"m_{len(content)}",
        project_id="/p",
        user_id="u",
        scope=Scope.USER,
        source=MemorySource.RULES,
        type=MemoryType.USER_STYLE,
        key=f"pref:{len(content)}",
        content=content,
        tags=("preference", "tentative"),
        importance=0.3,
        created_at=NOW,
        updated_at=NOW,
    )


async def test_the_same_text_is_as_close_as_can_be_and_an_unknown_one_has_none() -> None:
    embedder = FakeEmbedder()
    likeness = await instruction_likeness(embedder, ["Ask me before deleting files.", "Use tabs."])

    assert likeness is not None
    assert likeness("Use tabs.", "Use tabs.") == pytest.approx(1.0)
    assert likeness("Use tabs.", "never embedded") is None
    assert embedder.calls == 1  # one batch for the pass


async def test_without_a_loaded_model_the_words_decide_alone() -> None:
    texts = ["Ask me before deleting files.", "Check with me before you delete any file."]
    failed = FakeEmbedder(loaded=False)
    failed.fail_loading(RuntimeError("no model files"))

    assert await instruction_likeness(None, texts) is None
    assert await instruction_likeness(failed, texts) is None
    assert await instruction_likeness(FakeEmbedder(loaded=False), texts, wait=0.01) is None


def test_only_stored_instructions_sharing_a_telling_word_are_embedded() -> None:
    stored = [_stored("Never delete a file without asking me first."), _stored("Use tabs.")]

    texts = comparable(["Ask me before deleting files."], stored)

    assert texts == [
        "Ask me before deleting files.",
        "Never delete a file without asking me first.",
    ]
