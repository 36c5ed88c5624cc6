"""bench/search_profile.py: py-spy's raw stacks counted by the part of a search they are in."""

from __future__ import annotations

from bench.search_profile import OTHER, REQUEST_PATH, parts_of

RAW = "\n".join(
    [
        # the innermost frame naming a part wins: rows read inside the lexical read are row reads
        "thread (1): sqlite-reader_0;_worker (concurrent/futures/thread.py:93);"
        "SqliteMemorySearch._fts_read.<locals>.read (squirrel_memory/storage/sqlite/search.py:80);"
        "LexicalIndex.ranked_rows (squirrel_memory/storage/sqlite/lexical.py:200) 7",
        "thread (1): sqlite-reader_0;_worker (concurrent/futures/thread.py:93);"
        "SqliteMemorySearch._fts_read.<locals>.read (squirrel_memory/storage/sqlite/search.py:80);"
        "load_memories (squirrel_memory/storage/sqlite/reads.py:60);"
        "rows_of (squirrel_memory/storage/sqlite/reads.py:50) 5",
        "thread (2): sqlite-reader_1;_worker (concurrent/futures/thread.py:93);"
        "MiniLmEmbedder.embed_query_now (squirrel_memory/embedding/minilm.py:90);"
        "Session.run (onnxruntime/capi/onnxruntime_inference_collection.py:200) 11",
        "thread (3): MainThread;BaseEventLoop._run_once (asyncio/base_events.py:1900);"
        "Handle._run (asyncio/events.py:80) 13",
        "thread (4): Thread-1 (_poll_wrapper);Thread.run (threading.py:900) 2",
        "thread (3): MainThread;Retriever.search (squirrel_memory/retrieval/retriever.py:300);"
        "Retriever._rank (squirrel_memory/retrieval/retriever.py:200);"
        "fuse (squirrel_memory/retrieval/relevance.py:40) 3",
        "",
    ]
)


def test_each_stack_goes_to_its_innermost_part() -> None:
    counts = parts_of(RAW)
    assert counts["lexical ranking"] == 7
    assert counts["row reads"] == 5
    assert counts["encoder"] == 11
    assert counts[REQUEST_PATH] == 13
    assert counts[OTHER] == 2
    assert counts["fusion and ranking"] == 3
    assert sum(counts.values()) == 41
