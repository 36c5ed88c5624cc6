"""Redaction throughput: every fixture transcript parsed, then every event's content redacted.

`python -m bench.redaction_bench [--runs N]` prints MB/s (CPU time) of event content (JSON bytes)
through `redact_value`, the call ingest makes on every event, as the median of N runs.
`--corpus` prints instead, for the made-up corpus of secrets, each kind with what caught it, the
recall, and every negative that was changed (a false positive).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from bench.parse_fixtures import DEFAULT_ROOT, fixture_source
from squirrel_core.redaction import REDACTED_PREFIX, redact, redact_value
from squirrel_ingest.parsers import parse_file
from tests.redaction_corpus import NEGATIVES, SAMPLES


def fixture_contents(root: Path) -> list[dict[str, Any]]:
    """The content of every event parsed from the fixture transcripts under `root`."""
    contents: list[dict[str, Any]] = []
    for path in sorted(root.rglob("*")):
        source = fixture_source(path, root) if path.is_file() else None
        if source is None:
            continue
        parsed = parse_file(source, str(path), path.read_bytes())
        contents.extend(event.content for event in parsed.events)
    return contents


def measure(contents: list[dict[str, Any]], runs: int) -> tuple[float, int, int]:
    """(median MB/s, bytes per run, redactions per run)."""
    size = sum(len(json.dumps(c, ensure_ascii=False).encode()) for c in contents)
    rates: list[float] = []
    found = 0
    for _ in range(runs):
        found = 0
        start = time.process_time()
        for content in contents:
            found += redact_value(content)[1]
        rates.append(size / 1e6 / (time.process_time() - start))
    return statistics.median(rates), size, found


def corpus_table() -> list[str]:
    """Markdown: one row per kind (caught by which rule), recall, and the false positives."""
    rows = ["| kind | caught | by |", "|---|---|---|"]
    caught = 0
    for sample in SAMPLES:
        cleaned, _ = redact(sample.text)
        ok = sample.secret not in cleaned
        caught += ok
        labels = sorted(set(re.findall(re.escape(REDACTED_PREFIX) + r"([a-z0-9_]+)\]", cleaned)))
        rows.append(f"| {sample.kind} | {'yes' if ok else 'NO'} | {', '.join(labels)} |")
    changed = [(kind, redact(text)[0]) for kind, text in NEGATIVES]
    false = [
        (kind, out)
        for (kind, out), (_, text) in zip(changed, NEGATIVES, strict=True)
        if out != text
    ]
    rows += [
        "",
        f"recall: {caught}/{len(SAMPLES)} kinds ({100 * caught / len(SAMPLES):.0f} %);"
        f" false positives: {len(false)} of {len(NEGATIVES)} negatives",
    ]
    rows += [f"- false positive ({kind}): {out[:120]}" for kind, out in false]
    return rows


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__)
    options.add_argument("root", nargs="?", type=Path, default=DEFAULT_ROOT)
    options.add_argument("--runs", type=int, default=3)
    options.add_argument("--corpus", action="store_true", help="recall and false positives")
    args = options.parse_args(argv)
    if args.corpus:
        print("\n".join(corpus_table()))
        return 0
    if not args.root.is_dir():
        print(f"no fixtures at {args.root}", file=sys.stderr)
        return 2
    contents = fixture_contents(args.root)
    rate, size, found = measure(contents, max(1, args.runs))
    print("| events | content MB | redactions | MB/s (median) |")
    print("|---:|---:|---:|---:|")
    print(f"| {len(contents):,} | {size / 1e6:.1f} | {found:,} | {rate:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
