"""Fill the on-disk embedding cache with the searched store's float vectors, in the background.

`bench.mem0_side --size 100000 --cached`, `bench.search_floor --store side-by-side` and
`bench.index_cached` read every text's float MiniLM vector from the cache of
`bench.embedding_cache`. Embedding the 100,000 texts costs about half an hour of one core; on a
shared machine a fill at low priority gets a small share of one, so it runs for hours. This
fills the cache ahead of those runs, one process on one thread, stoppable at any point:

    nice -n 19 .venv/bin/python -m bench.embed_fill --size 100000 [--batch 16] [--threads 1]

Texts are sorted by token length and run `--batch` at a time on a float onnxruntime session of
the same graph (`--threads` intra-op threads, weights pre-packed); the cache commits every
`embedding_cache.CHUNK` texts, so a stopped fill resumes where it stopped. Progress (texts done,
rate, load) goes to stderr after every commit. Before filling, a sample of the
texts is embedded by the service's own `MiniLmEmbedder.embed_now` as well and the smallest
cosine between the two is printed: the cached vectors are the same model's, batched differently.

`--probe N`: embed the last N of the texts at every batch size of `--batches` and thread count
of `--thread-counts` (and through `embed_now`), print texts per wall-clock second and per CPU
second per setting and the load, fill nothing.

Never part of the default install, `python -m bench` or CI.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from tokenizers import Tokenizer

from bench.embedding_cache import EmbeddingCache, Vectors
from bench.mem0_cached import searched_texts
from squirrel_memory.embedding.bert import BertEncoder
from squirrel_memory.embedding.bert_onnx import build_model
from squirrel_memory.embedding.minilm import (
    DIM,
    MAX_SEQ_TOKENS,
    MODEL_ID,
    MiniLmEmbedder,
    packaged_model_dir,
)

#: Texts compared with the service's own `embed_now` before a fill.
CHECK = 64


class BatchEncoder:
    """The float MiniLM graph on onnxruntime, fed `batch` texts of similar length at a time."""

    def __init__(self, graph: Path, tokenizer: Tokenizer, *, batch: int, threads: int) -> None:
        import onnxruntime as ort  # noqa: PLC0415

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        self._session: Any = ort.InferenceSession(
            str(graph), options, providers=["CPUExecutionProvider"]
        )
        self._tokenizer = tokenizer
        self.batch = batch

    def embed(self, texts: Sequence[str]) -> Vectors:
        """One unit vector per text, in order."""
        encodings = self._tokenizer.encode_batch(list(texts))
        lengths = [len(e.ids) for e in encodings]
        order = sorted(range(len(texts)), key=lengths.__getitem__)
        out = np.empty((len(texts), DIM), dtype=np.float32)
        for start in range(0, len(order), self.batch):
            rows = order[start : start + self.batch]
            width = max(lengths[r] for r in rows)
            ids = np.zeros((len(rows), width), dtype=np.int64)
            mask = np.zeros((len(rows), width), dtype=np.int64)
            for slot, row in enumerate(rows):
                ids[slot, : lengths[row]] = encodings[row].ids
                mask[slot, : lengths[row]] = 1
            (vectors,) = self._session.run(["vectors"], {"ids": ids, "mask": mask})
            out[rows] = vectors
        return out


def tokenizer() -> Tokenizer:
    found = Tokenizer.from_file(str(packaged_model_dir() / "tokenizer.json"))
    found.enable_truncation(max_length=MAX_SEQ_TOKENS)
    found.no_padding()
    return found


def write_graph(folder: Path) -> Path:
    """The float graph the service builds, written into `folder`."""
    path = folder / "encoder.onnx"
    path.write_bytes(build_model(BertEncoder.from_directory(packaged_model_dir())))
    return path


def shipped() -> MiniLmEmbedder:
    embedder = MiniLmEmbedder(quantized_queries=False)
    embedder.load_now()
    if not embedder.ready:
        raise SystemExit(f"MiniLM did not load ({embedder.load_error})")
    return embedder


def rate(embed: Any, texts: Sequence[str]) -> str:
    """Texts per wall-clock second and per CPU second of this process (all its threads): the
    second does not count time spent waiting for a core, so it compares settings on a busy
    machine."""
    started, cpu = time.perf_counter(), time.process_time()
    embed(texts)
    wall, spent = time.perf_counter() - started, time.process_time() - cpu
    return f"{len(texts) / wall:.1f} | {len(texts) / spent:.1f}"


def probe(graph: Path, texts: Sequence[str], batches: list[int], threads: list[int]) -> None:
    words = tokenizer()
    lengths = [len(e.ids) for e in words.encode_batch(list(texts))]
    print(
        f"{len(texts)} texts (tokens: median {int(np.median(lengths))}, max {max(lengths)});"
        f" load {os.getloadavg()[0]:.1f} at the start ({os.cpu_count()} cores)"
    )
    print("| encoder | threads | batch | texts/s | texts per CPU s |")
    print("|---|---|---|---|---|")
    embedder = shipped()
    shipped_rate = rate(embedder.embed_now, texts)
    print(f"| service `embed_now` (256 padded tokens a pass) | 1 | - | {shipped_rate} |")
    for n in threads:
        for batch in batches:
            encoder = BatchEncoder(graph, words, batch=batch, threads=n)
            encoder.embed(texts[:batch])  # first run's allocations not counted
            print(f"| batched, pre-packed | {n} | {batch} | {rate(encoder.embed, texts)} |")
    print(f"load {os.getloadavg()[0]:.1f} at the end")


def agreement(encoder: BatchEncoder, texts: Sequence[str]) -> float:
    """Smallest cosine between the batched vectors and the service's `embed_now` ones."""
    ours, theirs = encoder.embed(texts), shipped().embed_now(texts)
    return float(np.min(np.sum(ours * theirs, axis=1)))


def fill(encoder: BatchEncoder, texts: Sequence[str]) -> None:
    started, done = time.perf_counter(), 0

    def counted(part: Sequence[str]) -> Vectors:
        nonlocal done
        vectors = encoder.embed(part)
        done += len(part)
        spent = time.perf_counter() - started
        per_s = done / spent
        print(
            f"embedded {done} ({per_s:.1f} texts/s, load {os.getloadavg()[0]:.1f})",
            file=sys.stderr,
            flush=True,
        )
        return vectors

    with EmbeddingCache() as cache:
        found = cache.embed(MODEL_ID, DIM, texts, counted)
    spent = time.perf_counter() - started
    print(
        f"{len(texts)} texts: {found.from_cache} distinct from the cache, {found.embedded}"
        f" embedded in {spent:.0f} s ({found.embedded / max(spent, 1e-9):.1f} texts/s,"
        f" batch {encoder.batch}); load {os.getloadavg()[0]:.1f}"
    )


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--size", type=int, default=100_000, help="texts of the searched store")
    options.add_argument("--batch", type=int, default=16, help="texts per forward pass")
    options.add_argument("--threads", type=int, default=1, help="onnxruntime intra-op threads")
    options.add_argument("--probe", type=int, default=0, help="only measure texts/s on N texts")
    options.add_argument("--batches", default="1,8,32,64,128", help="batch sizes to probe")
    options.add_argument("--thread-counts", default="1,2", help="thread counts to probe")
    args = options.parse_args(argv)
    texts = searched_texts(args.size)
    with tempfile.TemporaryDirectory(prefix="sqrl-fill-") as folder:
        graph = write_graph(Path(folder))
        if args.probe:
            # the last texts: generated memories, as most of a large store is
            probe(
                graph,
                texts[-args.probe :],
                [int(b) for b in args.batches.split(",")],
                [int(n) for n in args.thread_counts.split(",")],
            )
            return 0
        encoder = BatchEncoder(graph, tokenizer(), batch=args.batch, threads=args.threads)
        check = texts[-CHECK:]
        print(
            f"batched against the service's embed_now, {CHECK} texts: min cosine"
            f" {agreement(encoder, check):.6f}"
        )
        fill(encoder, texts)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
