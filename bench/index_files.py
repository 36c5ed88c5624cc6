"""What the vector index's files cost to load and to save, and what each file adds, by size.

For each size (10k memories by default) a project is filled as `bench.search_stages` fills it
(`seeded`; `--keep DIR` keeps it for the next run) and its vector index is saved afresh by this
tree into a scratch directory, so every file beside it is this tree's (`memories.faiss`, its
sidecar, the int8 copy `memories.int8` and, above `COMPACT_ABOVE`, the 4-bit codes
`memories.pq4`, of a flat index or of an IVF index's lists). The ways below then run in turn,
the order rotating each round:

- `load`: `FaissIndex.load` of those files, as a start reads them (the codes read back);
- `load, codes file aside`: the same files but the codes', so the load trains the codes and
  encodes every vector, as every load of a large flat index did before the codes were saved;
- `load, baseline` (with `--baseline TREE`): TREE's `FaissIndex` (its `index/faiss_index.py`
  loaded beside this tree's, its imports resolved in this tree, as `bench.index_costs` does)
  loading the files TREE's own `save` wrote;
- `save`: `FaissIndex.save` of the loaded index into another scratch directory (every file,
  each written to a temporary file, fsynced and renamed);
- `save, baseline`: TREE's `save` of its loaded index, likewise;
- `int8 copy: write` / `int8 copy: read`: the int8 copy's part of a save (its bytes made and
  written as `save` writes them) and of a load (its file read, checked and handed to FAISS),
  the copy made here when the index holds none (a flat index with codes keeps no int8 copy);
- `codes: write` / `codes: read`: the same for the 4-bit codes' file.

Per way: wall-clock ms p50 and p95 and the process's CPU ms p50 and p95 (every thread), with
the files' sizes, the process's peak RSS and the 1/5/15-minute load before and after each size.

Usage: python -m bench.index_files [--sizes 10000] [--rounds 7] [--keep DIR]
       [--base-texts 3000|all] [--baseline TREE]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import resource
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import structlog

from bench.common import percentile
from bench.index_costs import baseline_index
from bench.search_floor import load
from bench.search_stages import seeded
from bench.seeded_project import base_texts_arg, loaded_embedder
from squirrel_core.int8_copy_file import copy_path_for
from squirrel_memory.index import FaissIndex, IndexKind
from squirrel_memory.index.coarse import Int8Copy
from squirrel_memory.index.codes_file import codes_path_for, encode_codes
from squirrel_memory.index.copy_file import copy_bytes, load_copy
from squirrel_memory.index.faiss_files import read_codes
from squirrel_memory.index.sidecar import write_atomically
from squirrel_memory.indexer import index_path

INDEX_NAME = "memories.faiss"


@dataclass
class Times:
    wall: list[float]
    cpu: list[float]


@dataclass(frozen=True)
class SizeFiles:
    """One size: each way's times (ms), each file's bytes and the load around them."""

    size: int
    kind: str
    ways: dict[str, Times]
    sizes: dict[str, int]
    load_before: str
    load_after: str


def _timed(ways: dict[str, Callable[[], object]], rounds: int) -> dict[str, Times]:
    names = list(ways)
    out = {name: Times([], []) for name in names}
    for n in range(rounds):
        for k in range(len(names)):
            name = names[(n + k) % len(names)]
            wall, cpu = time.perf_counter(), time.process_time()
            ways[name]()
            out[name].wall.append((time.perf_counter() - wall) * 1000)
            out[name].cpu.append((time.process_time() - cpu) * 1000)
    return out


def _files_ways(
    scratch: Path, dim: int, model_id: str, baseline: Any
) -> tuple[dict[str, Callable[[], object]], dict[str, int]]:
    """The ways on the index saved under `scratch` (this tree's files, and TREE's)."""
    saved = scratch / "this" / INDEX_NAME
    index = FaissIndex.load(saved, dim, model_id)
    aside = scratch / "aside" / INDEX_NAME
    aside.parent.mkdir()
    for part in saved.parent.iterdir():
        if part != codes_path_for(saved):
            shutil.copy2(part, aside.parent / part.name)
    written = scratch / "written" / INDEX_NAME
    written.parent.mkdir()
    sha = index._loaded_sha256
    ways: dict[str, Callable[[], object]] = {
        "load": lambda: FaissIndex.load(saved, dim, model_id),
        "load, codes file aside": lambda: FaissIndex.load(aside, dim, model_id),
        "save": lambda: index.save(written),
    }
    if baseline is not None:
        base_saved = scratch / "base" / INDEX_NAME
        baseline.load(saved, dim, model_id).save(base_saved)
        base_written = scratch / "base-written" / INDEX_NAME
        base_index = baseline.load(base_saved, dim, model_id)
        ways["load, baseline"] = lambda: baseline.load(base_saved, dim, model_id)
        ways["save, baseline"] = lambda: base_index.save(base_written)
    codes = index._compact
    ivf = index.kind is IndexKind.IVF
    # The int8 copy as this tree keeps it below the codes' threshold (and as TREE may keep it
    # above): made here when the index holds none, to time its file either way.
    copy = index._coarse
    if copy is None:
        copy = Int8Copy(dim, ivf=index._index) if ivf else Int8Copy(dim, *index._all_vectors())
    copy_file = scratch / "int8" / INDEX_NAME
    copy_file.parent.mkdir()
    write_atomically(copy_path_for(copy_file), copy_bytes(copy, sha))
    ways["int8 copy: write"] = lambda: write_atomically(
        copy_path_for(written), copy_bytes(copy, sha)
    )
    ways["int8 copy: read"] = lambda: load_copy(
        copy_path_for(copy_file), index._index, sha, ivf=ivf
    )
    if codes is not None:
        ids = set(index._names)
        ways["codes: write"] = lambda: write_atomically(
            codes_path_for(written), encode_codes(*codes.file_parts(), sha)
        )
        ways["codes: read"] = lambda: read_codes(
            codes_path_for(saved), sha, dim, ids, ivf=index._index if ivf else None
        )
    sizes = {
        part.name: part.stat().st_size
        for part in sorted(saved.parent.iterdir())
        if not part.name.startswith(".")
    }
    return ways, sizes


async def measure(
    size: int, keep: Path, base_texts: int, rounds: int, baseline: Path | None
) -> SizeFiles:
    embedder = loaded_embedder()
    project = await seeded(keep, size, embedder, base_texts)
    dim, model_id = embedder.dim, embedder.model_id
    with tempfile.TemporaryDirectory(prefix="index-files-") as tmp:
        scratch = Path(tmp)
        index = FaissIndex.load(index_path(str(project)), dim, model_id)
        index.save(scratch / "this" / INDEX_NAME)
        tree = baseline_index(baseline) if baseline is not None else None
        ways, sizes = _files_ways(scratch, dim, model_id, tree)
        before = load()
        found = _timed(ways, rounds)
        after = load()
    return SizeFiles(size, index.kind.value, found, sizes, before, after)


def format_files(rows: Sequence[SizeFiles]) -> str:
    head = (
        f"{'size':>7} {'index':>5} {'way':<24} {'wall p50':>9} {'wall p95':>9} "
        f"{'cpu p50':>9} {'cpu p95':>9}"
    )
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(f"{r.size:>7} {r.kind:>5} load 1/5/15 min {r.load_before} -> {r.load_after}")
        files = ", ".join(f"{name} {bytes_ / 1e6:.2f} MB" for name, bytes_ in r.sizes.items())
        lines.append(f"{r.size:>7} {r.kind:>5} files: {files}")
        for name, t in r.ways.items():
            lines.append(
                f"{r.size:>7} {r.kind:>5} {name:<24} {percentile(t.wall, 50):>9.1f} "
                f"{percentile(t.wall, 95):>9.1f} {percentile(t.cpu, 50):>9.1f} "
                f"{percentile(t.cpu, 95):>9.1f}"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--base-texts", type=base_texts_arg, default=3000, help="a count or all")
    parser.add_argument("--keep", type=Path, default=None, help="keep the filled projects here")
    parser.add_argument("--baseline", type=Path, default=None, help="another Squirrel tree")
    args = parser.parse_args(argv)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    rows: list[SizeFiles] = []
    with tempfile.TemporaryDirectory() as tmp:
        keep = args.keep if args.keep is not None else Path(tmp)
        for size in (int(s) for s in args.sizes.split(",")):
            rows.append(
                asyncio.run(measure(size, keep, args.base_texts, args.rounds, args.baseline))
            )
            print(format_files(rows[-1:]), flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"ms per call, the process's CPU (every thread); peak RSS {peak:.0f} MB")
    print(format_files(rows))


if __name__ == "__main__":
    main()
