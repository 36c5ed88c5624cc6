"""Embedder benchmark: load time, RSS, single-query latency and batch throughput per runtime.

Run: .venv/bin/python bench/embedder_bench.py [--runtimes onnx,numpy,fake,torch]
         [--torch-python /path/to/venv-with-sentence-transformers/bin/python] [--contention]

Runtimes:
  onnx   squirrel_memory.embedding.minilm.MiniLmEmbedder as shipped (its weights on onnxruntime)
  onnx-query  the same embedder's single queries through `embed_query_now`: the int8 query
         encoder searches use (batches as `onnx`); beside `onnx` it says what the int8 copy saves
  numpy  the same embedder on its NumPy forward pass (tokenizers + safetensors + NumPy)
  numpy2 the same with two BLAS threads for batches (single queries stay on one)
  torch  sentence-transformers on torch CPU, same weights (needs a venv that has it)
  fake   the hashing-trick test embedder (a floor, not a model)
Every single query is a distinct text (a number appended), so no runtime's query cache answers
one. Each runtime is measured in a fresh subprocess so load time and RSS are its own; the last
columns are each runtime's ratio to the first one listed, so compare rows of one run.
`--contention` keeps one core busy with a spinning process while measuring, as CI often does.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import psutil

SUBJECTS = ["the API", "our CLI", "the auth module", "pytest", "the deploy script", "FAISS"]
VERBS = ["uses", "breaks when", "should prefer", "was migrated to", "needs", "caches"]
OBJECTS = [
    "async handlers with SQLAlchemy sessions",
    "a JWT issued by /login and refreshed every 15 minutes",
    "fixtures that create a temporary SQLite database",
    "ruff format before every commit",
    "the staging cluster behind a VPN",
    "one OpenMP thread for interactive queries",
]


def sentences(count: int, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        parts = [rng.choice(SUBJECTS), rng.choice(VERBS), rng.choice(OBJECTS)]
        if rng.random() < 0.3:
            parts += ["because", rng.choice(OBJECTS)]
        out.append(" ".join(parts) + ".")
    return out


def measure(runtime: str, queries: int, batch: int) -> dict[str, Any]:
    process = psutil.Process()
    rss_before = process.memory_info().rss
    started = time.perf_counter()
    if runtime in ("onnx", "onnx-query", "numpy", "numpy2"):
        from squirrel_memory.embedding.minilm import MiniLmEmbedder, Runtime  # noqa: PLC0415

        model = MiniLmEmbedder(
            batch_threads=2 if runtime == "numpy2" else 1,
            runtime=Runtime.NUMPY if runtime.startswith("numpy") else Runtime.ONNX,
        )
        model.load_now()
        if not model.ready:
            raise SystemExit(f"model failed to load: {model.load_error!r}")
        if runtime == "onnx-query" and not model.queries_quantized:
            raise SystemExit("the int8 query encoder did not load")

        def embed(texts: list[str]) -> Any:
            if runtime == "onnx-query" and len(texts) == 1:
                return model.embed_query_now(texts[0])
            return model.embed_now(texts)

    elif runtime == "torch":
        import torch  # type: ignore[import-not-found]  # noqa: PLC0415
        from sentence_transformers import (  # type: ignore[import-not-found]  # noqa: PLC0415
            SentenceTransformer,
        )

        from squirrel_memory.embedding.minilm import packaged_model_dir  # noqa: PLC0415

        st_model = SentenceTransformer(str(packaged_model_dir()), device="cpu")
        threads = torch.get_num_threads()

        def embed(texts: list[str]) -> Any:
            torch.set_num_threads(1 if len(texts) == 1 else threads)
            return st_model.encode(texts, batch_size=32, normalize_embeddings=True)

    elif runtime == "fake":
        from squirrel_memory.embedding.fake import FakeEmbedder  # noqa: PLC0415

        fake = FakeEmbedder(dim=384)

        def embed(texts: list[str]) -> Any:
            return fake.embed_now(texts)

    else:
        raise SystemExit(f"unknown runtime {runtime}")
    embed(["warm up"])
    embed(["warm up", "the batch path"])
    load_s = time.perf_counter() - started
    rss_mb = (process.memory_info().rss - rss_before) / 2**20

    texts = sentences(max(queries, batch))
    latencies = []
    for n, text in enumerate(texts[:queries]):
        t0 = time.perf_counter()
        embed([f"{text} ({n})"])
        latencies.append(1000 * (time.perf_counter() - t0))
    t0 = time.perf_counter()
    embed(texts[:batch])
    throughput = batch / (time.perf_counter() - t0)
    p50, p95 = np.percentile(latencies, [50, 95])
    return {
        "runtime": runtime,
        "load_s": load_s,
        "rss_mb": rss_mb,
        "p50_ms": float(p50),
        "p95_ms": float(p95),
        "per_s": throughput,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runtimes", default="onnx,numpy,fake")
    parser.add_argument("--torch-python", default=sys.executable)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--contention", action="store_true")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child, args.queries, args.batch)))
        return

    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(root / "core"), str(root / "services" / "memory"), env.get("PYTHONPATH", "")]
    )
    burner = None
    if args.contention:
        burner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        rows = []
        for runtime in args.runtimes.split(","):
            python = args.torch_python if runtime == "torch" else sys.executable
            command = [python, __file__, "--child", runtime]
            command += ["--queries", str(args.queries), "--batch", str(args.batch)]
            done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                print(f"{runtime}: failed\n{done.stderr[-2000:]}", file=sys.stderr)
                continue
            rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
    finally:
        if burner is not None:
            burner.kill()
            burner.wait()
    note = " (one core busy)" if args.contention else ""
    print(f"Embedder benchmark{note}: {args.queries} single queries, batch of {args.batch}")
    print(f"load: {os.getloadavg()[0]:.1f} (1-minute average, {os.cpu_count()} cores)")
    print(
        "| runtime | load s | RSS MB | single p50 ms | single p95 ms | batch sentences/s "
        "| p50 / first | p95 / first | batch / first |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    first = rows[0] if rows else None
    for r in rows:
        assert first is not None
        print(
            f"| {r['runtime']:<7} | {r['load_s']:6.2f} | {r['rss_mb']:6.0f} | {r['p50_ms']:13.2f} "
            f"| {r['p95_ms']:13.2f} | {r['per_s']:17.0f} | {r['p50_ms'] / first['p50_ms']:.2f} "
            f"| {r['p95_ms'] / first['p95_ms']:.2f} | {r['per_s'] / first['per_s']:.2f} |"
        )


if __name__ == "__main__":
    main()
