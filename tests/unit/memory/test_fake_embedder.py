"""The hashing-trick test embedder honours the Embedder contract deterministically."""

from __future__ import annotations

import asyncio

import numpy as np
import pytest

from squirrel_core.errors import InvalidArgumentError
from squirrel_memory.embedding.base import (
    MAX_TEXTS_PER_CALL,
    Embedder,
    EmbedderNotReadyError,
    checked_texts,
)
from squirrel_memory.embedding.fake import FakeEmbedder


def test_fake_embedder_satisfies_the_protocol() -> None:
    assert isinstance(FakeEmbedder(), Embedder)


async def test_same_text_gives_the_same_vector_across_instances() -> None:
    first = await FakeEmbedder(dim=32).embed(["Use pytest fixtures for setup"])
    second = await FakeEmbedder(dim=32).embed(["Use pytest fixtures for setup"])
    assert np.array_equal(first, second)


async def test_vectors_are_unit_length_float32_of_the_declared_dimension() -> None:
    embedder = FakeEmbedder(dim=48)
    vectors = await embedder.embed(["alpha beta", "", "!!!", "ü ñ 中文"])
    assert vectors.shape == (4, 48)
    assert vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


async def test_texts_sharing_words_are_closer_than_unrelated_texts() -> None:
    embedder = FakeEmbedder(dim=256)
    query, related, unrelated = await embedder.embed(
        ["run the pytest suite", "pytest suite runs slowly", "deploy docker image"]
    )
    assert float(query @ related) > float(query @ unrelated)


async def test_empty_batch_returns_an_empty_matrix() -> None:
    vectors = await FakeEmbedder(dim=16).embed([])
    assert vectors.shape == (0, 16)


async def test_embed_before_loading_finishes_raises_not_ready() -> None:
    embedder = FakeEmbedder(loaded=False)
    assert not embedder.ready
    with pytest.raises(EmbedderNotReadyError):
        await embedder.embed(["x"])


async def test_waiters_wake_when_loading_finishes() -> None:
    embedder = FakeEmbedder(loaded=False)
    waiter = asyncio.create_task(embedder.wait_ready())
    await asyncio.sleep(0)
    assert not waiter.done()
    embedder.finish_loading()
    async with asyncio.timeout(5):
        assert await waiter is True
    assert (await embedder.embed(["x"])).shape == (1, embedder.dim)


async def test_loading_failure_is_reported_not_raised_to_waiters() -> None:
    embedder = FakeEmbedder(loaded=False)
    waiter = asyncio.create_task(embedder.wait_ready())
    embedder.fail_loading(OSError("weights missing"))
    async with asyncio.timeout(5):
        assert await waiter is False
    assert isinstance(embedder.load_error, OSError)
    with pytest.raises(EmbedderNotReadyError):
        await embedder.embed(["x"])


async def test_wait_ready_can_be_bounded_by_a_timeout() -> None:
    embedder = FakeEmbedder(loaded=False)
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.01):
            await embedder.wait_ready()
    embedder.finish_loading()
    async with asyncio.timeout(5):
        assert await embedder.wait_ready()


async def test_a_single_string_instead_of_a_list_is_rejected() -> None:
    with pytest.raises(InvalidArgumentError):
        await FakeEmbedder().embed("not a list")


async def test_non_string_items_are_rejected() -> None:
    with pytest.raises(InvalidArgumentError):
        await FakeEmbedder().embed(["ok", None])  # type: ignore[list-item]


async def test_too_many_texts_in_one_call_are_rejected() -> None:
    with pytest.raises(InvalidArgumentError):
        await FakeEmbedder().embed([""] * (MAX_TEXTS_PER_CALL + 1))


async def test_huge_and_hostile_texts_embed_without_error() -> None:
    embedder = FakeEmbedder(dim=16)
    vectors = await embedder.embed(["word " * 200_000, "nul\x00byte", "lone \ud800 surrogate"])
    assert vectors.shape == (3, 16)
    assert np.all(np.isfinite(vectors))


def test_checked_texts_replaces_lone_surrogates_and_clips_length() -> None:
    cleaned = checked_texts(["a\udcffb", "x" * 100_000])
    assert cleaned[0].encode("utf-8")
    assert len(cleaned[1]) < 100_000


def test_dim_below_two_is_rejected() -> None:
    with pytest.raises(ValueError):
        FakeEmbedder(dim=1)
