"""How long the memory service's event loop is held while the rules extract a project's episodes.

The service answers searches, hooks and writes on one asyncio loop; the rules extractor runs
each episode's rules. This bench parses one answer-key project's transcripts (`bench/data/
transcripts/<name>`), then extracts its episodes with `RulesExtractor.extract` the way the
processor does, while a task on the same loop wakes every millisecond and records how late each
wake-up was. It prints the extraction's wall and CPU time, the loop's wake-ups and its longest
and p99 wait: a loop held by the extraction wakes once, after it; a free one keeps waking.

Usage: python -m bench.loop_stalls [--project NAME ...] [--repeat N]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from dataclasses import replace
from pathlib import Path

from bench import fixture_pipeline
from bench.stored_events import stored
from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import StoredEvent

TRANSCRIPTS = Path(__file__).parent / "data" / "transcripts"
DEFAULT_PROJECTS = ("entireio-cli", "caffeine-lang")
TICK_SECONDS = 0.001
HEADER = (
    "| project | events | extraction wall ms | CPU ms | loop wake-ups | longest wait ms | p99 ms |"
)


def project_events(name: str, repeat: int = 1) -> list[StoredEvent]:
    """The project's parsed events, its sessions `repeat` times over (each copy its own
    session) to make a longer history."""
    paths = sorted(p for p in (TRANSCRIPTS / name).rglob("*") if p.suffix in (".jsonl", ".json"))
    root = f"/nonexistent/loop-stalls/{name}"
    events = fixture_pipeline.parse(paths, root)
    copies = [
        replace(e, session_id=f"{e.session_id}-{n}") if n else e
        for n in range(repeat)
        for e in events
    ]
    return stored(copies, root, name)


async def measure(events: list[StoredEvent]) -> tuple[float, float, list[float]]:
    """(wall s, CPU s, the loop's waits in s) of extracting every episode of `events`."""
    episodes = segment_episodes(events, now=max(e.timestamp for e in events))
    by_id = {e.id: e for e in events}
    waits: list[float] = []
    done = asyncio.Event()

    async def ticker() -> None:
        last = time.perf_counter()
        while not done.is_set():
            await asyncio.sleep(TICK_SECONDS)
            now = time.perf_counter()
            waits.append(now - last)
            last = now

    ticking = asyncio.create_task(ticker())
    await asyncio.sleep(0)
    rules = RulesExtractor()
    cpu, wall = time.process_time(), time.perf_counter()
    for episode in episodes:
        await rules.extract(episode, [by_id[i] for i in episode.event_ids if i in by_id])
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    done.set()
    await ticking
    return wall, cpu, sorted(waits)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", action="append", dest="projects")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"1-minute load {os.getloadavg()[0]:.2f}")
    print(HEADER)
    print("|---|---|---|---|---|---|---|")
    for name in args.projects or DEFAULT_PROJECTS:
        events = project_events(name, args.repeat)
        wall, cpu, waits = asyncio.run(measure(events))
        longest = waits[-1] if waits else wall
        p99 = waits[min(len(waits) - 1, int(len(waits) * 0.99))] if waits else wall
        print(
            f"| {name} | {len(events)} | {wall * 1000:.0f} | {cpu * 1000:.0f} | {len(waits)} "
            f"| {longest * 1000:.1f} | {p99 * 1000:.1f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
