"""mem0's side of `bench.mem0_side`, run by the python of the mem0 environment.

Imports nothing of Squirrel (that environment cannot hold it). Usage:
`mem0_child.py MODEL_DIR TURNS`; prints one JSON line: adds/s one `add` per text, adds/s with
`BATCH` texts per `add` (a list of messages), search p50/p95 in ms.
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


def workload(turns: int) -> tuple[list[str], list[str]]:
    """(texts to add, queries): the first `turns` turns and every question three times, each
    with a distinct tag so no query cache answers."""
    data = json.loads(DATA.read_text(encoding="utf-8"))
    texts = [t["text"] for c in data["conversations"] for t in c["turns"]][:turns]
    questions = [q["question"] for c in data["conversations"] for q in c["questions"]]
    queries = [f"{q} (q{n})" for n in range(3) for q in questions]
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


def run(model_dir: str, turns: int) -> dict[str, float]:
    import torch  # type: ignore[import-not-found]  # noqa: PLC0415
    from mem0 import Memory  # type: ignore[import-not-found]  # noqa: PLC0415

    # One thread, as Squirrel's encoder uses: on 2 shared cores two threads make single
    # queries several times slower, which would flatter Squirrel.
    torch.set_num_threads(1)

    texts, queries = workload(turns)
    with tempfile.TemporaryDirectory() as tmp:
        bulk = _memory(Memory, model_dir, f"{tmp}/bulk")
        started = time.perf_counter()
        for start in range(0, len(texts), BATCH):
            chunk = texts[start : start + BATCH]
            bulk.add([{"role": "user", "content": t} for t in chunk], user_id=USER, infer=False)
        bulk_seconds = time.perf_counter() - started
        memory = _memory(Memory, model_dir, f"{tmp}/one")
        started = time.perf_counter()
        for text in texts:
            memory.add(text, user_id=USER, infer=False)
        add_seconds = time.perf_counter() - started
        times: list[float] = []
        for query in queries:
            t0 = time.perf_counter()
            memory.search(query, top_k=10, filters={"user_id": USER})
            times.append(1000 * (time.perf_counter() - t0))
    return {**summary(add_seconds, len(texts), times), "bulk_adds_per_s": len(texts) / bulk_seconds}


if __name__ == "__main__":
    print(json.dumps(run(sys.argv[1], int(sys.argv[2]))))
