"""Parse every fixture transcript and print records seen, events made and skips by reason."""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

from squirrel_core.events import SourceTool
from squirrel_ingest.parsers import parse_file, parser_for

DEFAULT_ROOT = Path(__file__).resolve().parents[1].parent / "shared" / "fixtures"
_FOLDER_SOURCES = {
    "claude": SourceTool.CLAUDE_CODE,
    "codex": SourceTool.CODEX,
    "gemini": SourceTool.GEMINI_CLI,
}
_NOT_TRANSCRIPTS = {"logs.json"}


def fixture_source(path: Path, root: Path) -> SourceTool | None:
    """The source of a fixture file: from its real-layout path, else from its top folder."""
    if path.suffix not in (".jsonl", ".json") or path.name in _NOT_TRANSCRIPTS:
        return None
    if path.name.endswith(".meta.json"):
        return None
    source = parser_for(str(path))
    if source is not None:
        return source
    top = path.relative_to(root).parts[0]
    return _FOLDER_SOURCES.get(top)


def main(argv: list[str] | None = None) -> int:
    """Print one table row per source and the skip reasons below it."""
    options = argparse.ArgumentParser(description=__doc__)
    options.add_argument("root", nargs="?", type=Path, default=DEFAULT_ROOT)
    args = options.parse_args(argv)
    root: Path = args.root
    if not root.is_dir():
        print(f"no fixture folder at {root}", file=sys.stderr)
        return 2
    files: Counter[SourceTool] = Counter()
    nbytes: Counter[SourceTool] = Counter()
    records: Counter[SourceTool] = Counter()
    events: dict[SourceTool, Counter[str]] = {}
    skipped: dict[SourceTool, Counter[str]] = {}
    seconds: dict[SourceTool, float] = {}
    for path in sorted(root.rglob("*")):
        source = fixture_source(path, root) if path.is_file() else None
        if source is None:
            continue
        data = path.read_bytes()
        started = time.perf_counter()
        result = parse_file(source, str(path), data)
        seconds[source] = seconds.get(source, 0.0) + time.perf_counter() - started
        files[source] += 1
        nbytes[source] += len(data)
        records[source] += result.records
        events.setdefault(source, Counter()).update(e.event_type.value for e in result.events)
        skipped.setdefault(source, Counter()).update(result.skipped)

    header = (
        f"{'source':<12}{'files':>7}{'MB':>8}{'records':>9}{'events':>8}{'skipped':>9}{'ms':>8}"
    )
    print(header)
    print("-" * len(header))
    for source in files:
        print(
            f"{source.value:<12}{files[source]:>7}{nbytes[source] / 1e6:>8.2f}{records[source]:>9}"
            f"{sum(events[source].values()):>8}{sum(skipped[source].values()):>9}"
            f"{seconds[source] * 1000:>8.0f}"
        )
    for source in files:
        print(
            f"\n{source.value} events: "
            + ", ".join(f"{k}={v}" for k, v in events[source].most_common())
        )
        print(
            f"{source.value} skipped: "
            + ", ".join(f"{k}={v}" for k, v in skipped[source].most_common())
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
