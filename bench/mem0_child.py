"""mem0's side of `bench.mem0_side`, run by the python of the mem0 environment.

Imports nothing of Squirrel (that environment cannot hold it). Usage:
`mem0_child.py MODEL_DIR TURNS`: loads mem0, adds `WARMUP` texts to a store of their own and
searches it once (so no first call is counted), then answers one JSON request per stdin line
with one JSON line on stdout (prefixed with `REPLY`; anything else mem0 prints is not a reply),
so the parent can interleave mem0's searches with Squirrel's:

- `{"op": "bulk"}`: every text added with `BATCH` texts per `add` (a list of messages), into
  its own store; `{"seconds": ...}`;
- `{"op": "one"}`: every text added with one `add` each, into the store that is searched;
  `{"seconds": ...}`;
- `{"op": "search", "query": ...}`: one search, top 10; `{"ms": ..., "cpu_ms": ...}`, timed
  in-process (`cpu_ms`: this process's CPU during the call);
- `{"op": "quit"}`.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

DATA = Path(__file__).resolve().parent / "data" / "long_conversations.json"
USER = "bench"
#: Texts per call in the bulk measurement, on both sides.
BATCH = 100
#: Adds and searches each side makes before anything is counted (first-call costs).
WARMUP = 5
#: Marks the child's answers on stdout.
REPLY = "REPLY "


def workload(turns: int, copies: int = 3) -> tuple[list[str], list[str]]:
    """(texts to add, queries): the first `turns` turns and every question `copies` times, each
    with a distinct tag so no query cache answers."""
    data = json.loads(DATA.read_text(encoding="utf-8"))
    texts = [t["text"] for c in data["conversations"] for t in c["turns"]][:turns]
    questions = [q["question"] for c in data["conversations"] for q in c["questions"]]
    queries = [f"{q} (q{n})" for n in range(copies) for q in questions]
    return texts, queries


def summary(add_seconds: float, adds: int, search_ms: list[float]) -> dict[str, float]:
    p50, p95 = np.percentile(search_ms, [50, 95])
    return {"adds_per_s": adds / add_seconds, "p50_ms": float(p50), "p95_ms": float(p95)}


def _memory(memory_class: Any, model_dir: str, folder: str) -> Any:
    return memory_class.from_config(
        {
            "embedder": {"provider": "huggingface", "config": {"model": model_dir}},
            "vector_store": {
                "provider": "faiss",
                "config": {"path": f"{folder}/faiss", "embedding_model_dims": 384},
            },
            "history_db_path": f"{folder}/history.db",
            # mem0 builds its LLM client up front; with infer=False it is never called.
            "llm": {"provider": "openai", "config": {"api_key": "not-used-infer-false"}},
        }
    )


def _reply(answer: dict[str, Any]) -> None:
    sys.stdout.write(REPLY + json.dumps(answer) + "\n")
    sys.stdout.flush()


def serve(model_dir: str, turns: int) -> None:
    import torch  # type: ignore[import-not-found]  # noqa: PLC0415
    from mem0 import Memory  # type: ignore[import-not-found]  # noqa: PLC0415

    # One thread, as Squirrel's encoder uses: on 2 shared cores two threads make single
    # queries several times slower, which would flatter Squirrel.
    torch.set_num_threads(1)

    texts, _ = workload(turns)
    with tempfile.TemporaryDirectory() as tmp:
        # First calls (model, FAISS and SQLite first use) are not counted, as on Squirrel's side.
        warm = _memory(Memory, model_dir, f"{tmp}/warm")
        for text in texts[:WARMUP]:
            warm.add(text, user_id=USER, infer=False)
        warm.search(texts[0], top_k=10, filters={"user_id": USER})
        bulk = _memory(Memory, model_dir, f"{tmp}/bulk")
        memory = _memory(Memory, model_dir, f"{tmp}/one")
        _reply({"ready": True})
        for line in sys.stdin:
            request = json.loads(line)
            op = request["op"]
            if op == "quit":
                break
            started, cpu = time.perf_counter(), time.process_time()
            if op == "bulk":
                for start in range(0, len(texts), BATCH):
                    chunk = texts[start : start + BATCH]
                    messages = [{"role": "user", "content": t} for t in chunk]
                    bulk.add(messages, user_id=USER, infer=False)
                _reply({"seconds": time.perf_counter() - started})
            elif op == "one":
                for text in texts:
                    memory.add(text, user_id=USER, infer=False)
                _reply({"seconds": time.perf_counter() - started})
            elif op == "search":
                memory.search(request["query"], top_k=10, filters={"user_id": USER})
                ms = 1000 * (time.perf_counter() - started)
                _reply({"ms": ms, "cpu_ms": 1000 * (time.process_time() - cpu)})
            else:
                _reply({"error": f"unknown op {op!r}"})


if __name__ == "__main__":
    serve(sys.argv[1], int(sys.argv[2]))
