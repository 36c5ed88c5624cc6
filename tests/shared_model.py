"""One loaded embedding model per test process: the packaged MiniLM's encoders are built once.

Every memory service a test starts in-process loads MiniLM on its loader thread (the ONNX graphs
are built from the weights: about 6 s of CPU on a loaded 2-core machine), and dozens of tests
start one. The encoders only read their weights, so the services of later tests reuse the ones
built first. Only the packaged model is shared: a test that loads from a folder of its own
(missing or corrupt files) still loads, and fails, for real; a failed load is not kept.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

_built: dict[tuple[Path, object, bool], Any] = {}
_lock = threading.Lock()


def pytest_configure(config: pytest.Config) -> None:
    try:
        from squirrel_memory.embedding import minilm  # noqa: PLC0415
    except ImportError:
        return
    build = minilm._encoders

    def shared_encoders(model_dir: Path, runtime: minilm.Runtime, quantized_queries: bool) -> Any:
        packaged = minilm.model_files.packaged_model_dir()
        if packaged is None or model_dir.resolve() != packaged.resolve():
            return build(model_dir, runtime, quantized_queries)
        key = (model_dir.resolve(), runtime, quantized_queries)
        with _lock:  # two services of one test load at once: the second waits for the first
            if key not in _built:
                _built[key] = build(model_dir, runtime, quantized_queries)
            return _built[key]

    minilm._encoders = shared_encoders  # type: ignore[assignment]
