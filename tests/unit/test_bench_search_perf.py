"""bench.search_perf: perf's samples sorted into the pieces of a search, and the table."""

from __future__ import annotations

import pytest

from bench.search_perf import COLLECTOR, OTHER, Samples, format_table, piece_of

PID = 4100
SCRIPT = f"""\
{PID} 7f5f86c9e244 _PyEval_EvalFrameDefault (/usr/lib/libpython3.11.so.1.0)
{PID} 7f5f86c9e245 gc_collect_main (/usr/lib/libpython3.11.so.1.0)
{PID} 7f5f86c9e246 dict_traverse (/usr/lib/libpython3.11.so.1.0)
{PID} 7f5f86c9e247 grpc_core::Foo::Bar (/venv/grpc/_cython/cygrpc.cpython-311-x86_64-linux-gnu.so)
4101 7f0000000001 MlasGemmU8X8Kernel (/venv/onnxruntime/capi/onnxruntime_pybind11_state.so)
4101 7f0000000002 _int_malloc (/usr/lib/x86_64-linux-gnu/libc.so.6)
4102 ffffffff8157ee85 finish_task_switch.isra.0 ([kernel.kallsyms])
4102 7f0000000003 sqlite3VdbeExec (/usr/lib/x86_64-linux-gnu/libsqlite3.so.0.8.6)
4102 7f0000000004 [unknown] ([unknown])
not a sample line
"""


@pytest.mark.parametrize(
    ("library", "function", "piece"),
    [
        ("/usr/lib/libpython3.11.so.1.0", "_PyEval_EvalFrameDefault", "Python"),
        ("/usr/lib/libpython3.11.so.1.0", "gc_collect_main", COLLECTOR),
        ("/usr/lib/libpython3.11.so.1.0", "list_traverse", COLLECTOR),
        ("/x/onnxruntime_pybind11_state.so", "run", "encoder"),
        ("/x/tokenizers.abi3.so", "tokenize", "encoder"),
        ("/x/libfaiss.so", "fvec_inner_product", "FAISS"),
        ("/x/_swigfaiss.abi3.so", "wrap", "FAISS"),
        ("/x/_multiarray_umath.cpython-311-x86_64-linux-gnu.so", "dot", "NumPy"),
        ("/x/_message.abi3.so", "encode", "protobuf"),
        ("/x/libc.so.6", "malloc", "C library"),
        ("[kernel.kallsyms]", "futex_wait", "kernel"),
        ("[unknown]", "[unknown]", OTHER),
    ],
)
def test_each_library_goes_to_its_piece(library: str, function: str, piece: str) -> None:
    assert piece_of(library, function) == piece


def test_samples_are_counted_by_piece_and_by_thread() -> None:
    samples = Samples()
    samples.add_script(SCRIPT, PID)

    assert samples.pieces == {
        "Python": 1,
        COLLECTOR: 2,
        "gRPC": 1,
        "encoder": 1,
        "C library": 1,
        "kernel": 1,
        "SQLite": 1,
        OTHER: 1,
    }
    assert samples.threads == {"event loop": 4, "other threads": 5}


def test_the_table_gives_ms_per_call_and_what_a_search_costs_above_an_empty_one() -> None:
    search, empty = Samples(calls=10), Samples(calls=10)
    search.add_script(SCRIPT, PID)
    empty.add_script(f"{PID} 1 _PyEval_EvalFrameDefault (/usr/lib/libpython3.11.so.1.0)\n", PID)
    search.cpu_ns, empty.cpu_ns = 50_000_000, 10_000_000

    table = format_table({"this": (search, empty)}, rate=100, header="h")
    rows = {line.split()[0]: line.split()[-3:] for line in table.splitlines()[2:]}

    # 1 sample at 100 Hz over 10 calls: 1 ms a call.
    assert rows["Python"] == ["1.000", "1.000", "0.000"]
    assert rows["collector"] == ["2.000", "0.000", "2.000"]
    assert table.splitlines()[-1].split()[-3:] == ["5.000", "1.000", "4.000"]  # from /proc
