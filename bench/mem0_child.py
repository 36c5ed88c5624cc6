"""mem0's side of `bench.mem0_side`, run by the python of the mem0 environment.

Imports nothing of Squirrel (that environment cannot hold it). Usage:
`mem0_child.py MODEL_DIR TEXTS_JSON [VECTORS_NPY]`: loads mem0 and the texts (a JSON list of
strings the parent wrote; VECTORS_NPY: one float32 row per text, for `fill` with `cached`), adds
`WARMUP` texts to a store of their own and searches it once (so no first call is counted),
then answers one JSON request per stdin line with one JSON line on stdout
(prefixed with `REPLY`; anything else mem0 prints is not a reply), so the parent can
interleave mem0's searches with Squirrel's:

- `{"op": "add", "store": NAME, "count": N, "batch": B}`: the first N texts added into the
  store NAME (made on first use), B per `add` (B = 1: one text per call, with its index as
  metadata `n`; B > 1: a list of B messages per call); `{"seconds": ...}`;
- `{"op": "fill", "store": NAME, "count": N}`: a new store NAME holding the first N texts,
  stored as `add` stores them but a thousand per vector-store insert (`fill`);
  `{"seconds": ...}`; with `"cached": true` the vectors are VECTORS_NPY's rows, not embedded;
- `{"op": "threads", "n": N}`: torch on N threads from now on;
- `{"op": "search", "store": NAME, "query": ...}`: one search, top 10; `{"ms": ..., "cpu_ms":
  ..., "hits": [...]}`, timed in-process (`cpu_ms`: this process's CPU during the call; `hits`:
  the indexes of the texts found, best first, from the metadata or else the text);
- `{"op": "quit"}`.
"""

from __future__ import annotations

import hashlib
import json
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

DATA = Path(__file__).resolve().parent / "data" / "long_conversations.json"
USER = "bench"
#: Texts per call in the bulk measurement, on both sides.
BATCH = 100
#: Texts per vector-store insert when filling the searched store.
FILL_BATCH = 1000
#: Adds and searches each side makes before anything is counted (first-call costs).
WARMUP = 5
#: Marks the child's answers on stdout.
REPLY = "REPLY "


def conversations() -> tuple[list[str], list[tuple[str, list[int]]]]:
    """(every turn's text, (question, the indexes of its gold turns in that list)) of the
    long-conversation data, the conversations one after the other."""
    data = json.loads(DATA.read_text(encoding="utf-8"))
    texts: list[str] = []
    questions: list[tuple[str, list[int]]] = []
    for conversation in data["conversations"]:
        # gold names turns by their `turn` number, which is not their position
        position = {t["turn"]: len(texts) + n for n, t in enumerate(conversation["turns"])}
        texts += [t["text"] for t in conversation["turns"]]
        questions += [
            (q["question"], [position[g] for g in q["gold"]]) for q in conversation["questions"]
        ]
    return texts, questions


def summary(add_seconds: float, adds: int, search_ms: list[float]) -> dict[str, float]:
    p50, p95, p99 = np.percentile(search_ms, [50, 95, 99])
    return {
        "adds_per_s": adds / add_seconds,
        "p50_ms": float(p50),
        "p95_ms": float(p95),
        "p99_ms": float(p99),
    }


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


def _hits(found: Any, index_of: dict[str, int]) -> list[int]:
    rows = found["results"] if isinstance(found, dict) else found
    hits: list[int] = []
    for row in rows:
        n = (row.get("metadata") or {}).get("n")
        if n is None:
            n = index_of.get(row.get("memory", ""), -1)
        hits.append(int(n))
    return hits


def fill(memory: Any, texts: list[str], vectors: Any = None) -> None:
    """The texts into `memory`'s vector store as `add(..., infer=False)` stores each (its
    embedder, payload and metadata, `n` the text's index), but `FILL_BATCH` per insert: mem0's
    FAISS store writes its whole index and docstore to disk on every insert, so filling a large
    store one `add` at a time costs more with every text. `vectors` (one row per text): stored
    instead of embedding the texts. No history rows (searches do not read them)."""
    from mem0.utils.lemmatization import lemmatize_for_bm25  # type: ignore[import-not-found]  # noqa: PLC0415

    for start in range(0, len(texts), FILL_BATCH):
        chunk = texts[start : start + FILL_BATCH]
        now = datetime.now(UTC).isoformat()
        payloads = [
            {
                "user_id": USER,
                "role": "user",
                "n": start + k,
                "data": text,
                "hash": hashlib.md5(text.encode()).hexdigest(),  # mem0's own key
                "created_at": now,
                "updated_at": now,
                "text_lemmatized": lemmatize_for_bm25(text),
            }
            for k, text in enumerate(chunk)
        ]
        if vectors is None:
            rows = [memory.embedding_model.embed(text, "add") for text in chunk]
        else:
            rows = [list(map(float, v)) for v in vectors[start : start + len(chunk)]]
        memory.vector_store.insert(
            vectors=rows, payloads=payloads, ids=[str(uuid.uuid4()) for _ in chunk]
        )


def serve(model_dir: str, texts_file: str, vectors_file: str | None = None) -> None:
    import torch  # type: ignore[import-not-found]  # noqa: PLC0415
    from mem0 import Memory  # type: ignore[import-not-found]  # noqa: PLC0415

    torch.set_num_threads(1)  # the parent chooses the faster count with {"op": "threads"}
    texts: list[str] = json.loads(Path(texts_file).read_text(encoding="utf-8"))
    index_of: dict[str, int] = {}
    for n, text in enumerate(texts):
        index_of.setdefault(text, n)
    with tempfile.TemporaryDirectory() as tmp:
        # First calls (model, FAISS and SQLite first use) are not counted, as on Squirrel's side.
        warm = _memory(Memory, model_dir, f"{tmp}/warm")
        for text in texts[:WARMUP]:
            warm.add(text, user_id=USER, infer=False)
        warm.search(texts[0], top_k=10, filters={"user_id": USER})
        stores: dict[str, Any] = {"warm": warm}
        _reply({"ready": True})
        for line in sys.stdin:
            request = json.loads(line)
            op = request["op"]
            if op == "quit":
                break
            started, cpu = time.perf_counter(), time.process_time()
            if op == "add":
                name = request["store"]
                if name not in stores:
                    stores[name] = _memory(Memory, model_dir, f"{tmp}/{name}")
                store, batch = stores[name], int(request["batch"])
                started = time.perf_counter()
                chosen = texts[: int(request["count"])]
                for start in range(0, len(chosen), batch):
                    if batch == 1:
                        store.add(chosen[start], user_id=USER, infer=False, metadata={"n": start})
                    else:
                        chunk = chosen[start : start + batch]
                        messages = [{"role": "user", "content": t} for t in chunk]
                        store.add(messages, user_id=USER, infer=False)
                _reply({"seconds": time.perf_counter() - started})
            elif op == "fill":
                cached = None
                if request.get("cached"):
                    if vectors_file is None:
                        _reply({"error": "fill with cached vectors needs VECTORS_NPY"})
                        continue
                    cached = np.load(vectors_file, mmap_mode="r")
                name, count = request["store"], int(request["count"])
                stores[name] = _memory(Memory, model_dir, f"{tmp}/{name}")
                started = time.perf_counter()
                fill(stores[name], texts[:count], cached)
                _reply({"seconds": time.perf_counter() - started})
            elif op == "threads":
                torch.set_num_threads(int(request["n"]))
                _reply({"threads": torch.get_num_threads()})
            elif op == "search":
                found = stores[request["store"]].search(
                    request["query"], top_k=10, filters={"user_id": USER}
                )
                ms = 1000 * (time.perf_counter() - started)
                cpu_ms = 1000 * (time.process_time() - cpu)
                _reply({"ms": ms, "cpu_ms": cpu_ms, "hits": _hits(found, index_of)})
            else:
                _reply({"error": f"unknown op {op!r}"})


if __name__ == "__main__":
    serve(*sys.argv[1:4])
