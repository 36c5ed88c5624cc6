"""Fixture transcripts read again after ingest classifies commands anew: how many are stored twice.

Every fixture transcript under `/work/shared/fixtures` (Claude Code, Codex, Gemini) goes the way
ingest sends it (parsed from the start, redacted, signed) into a SQLite store of its own. Then
the command classifier is turned round (a test run is read as a plain command and the reverse:
every command event reclassified, the most a classifier change can move) and the transcripts
are read again from the start, as after a cursor reset, a re-import or an upgrade; what the
store accepts the second time is stored twice. Run once per dedup rule, in one process: the
event type hashed (the rule before schema 13) and the record kind hashed (today's).

Run: nice -n 10 .venv/bin/python -m bench.reread_reclassified [root]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import structlog

from bench.parse_fixtures import DEFAULT_ROOT, fixture_source
from squirrel_core.commands import is_test_command
from squirrel_core.events import Event, EventType
from squirrel_core.kept_text import signed
from squirrel_ingest.parsers import base as parsers_base
from squirrel_ingest.parsers import parse_file
from squirrel_ingest.reading import redacted
from squirrel_memory import dedup
from squirrel_memory.storage import SqliteStore

BATCH = 500
_RULES: dict[str, Callable[[str], str]] = {
    "event type (before)": str,
    "record kind (now)": dedup.record_kind,
}
_COMMANDS = (EventType.COMMAND_RUN, EventType.TEST_RUN)


def _flipped(command: str) -> EventType:
    return EventType.COMMAND_RUN if is_test_command(command) else EventType.TEST_RUN


@contextmanager
def patched(module: object, name: str, value: object) -> Iterator[None]:
    former = getattr(module, name)
    setattr(module, name, value)
    try:
        yield
    finally:
        setattr(module, name, former)


def read_fixtures(root: Path) -> list[list[Event]]:
    """Each transcript's events as ingest sends them (redacted, then signed)."""
    out = []
    for path in sorted(root.rglob("*")):
        source = fixture_source(path, root) if path.is_file() else None
        if source is None:
            continue
        events = parse_file(source, str(path), path.read_bytes()).events
        out.append([signed(e) for e in redacted(events)[0]])
    return out


async def _append(store: SqliteStore, project: str, events: list[Event]) -> int:
    accepted = 0
    for start in range(0, len(events), BATCH):
        result = await store.append_events(project, "me", events[start : start + BATCH], [])
        accepted += result.accepted
    return accepted


async def _stored_twice(
    folder: Path, first: list[list[Event]], again: list[list[Event]]
) -> tuple[int, int]:
    """(events stored the first time, events the re-read stored again)."""
    stored = twice = 0
    for n, (before, after) in enumerate(zip(first, again, strict=True)):
        project = folder / f"t{n}"
        project.mkdir()
        store = await SqliteStore.open(str(project))
        try:
            stored += await _append(store, str(project), before)
            twice += await _append(store, str(project), after)
        finally:
            await store.close()
    return stored, twice


def main(argv: list[str] | None = None) -> int:
    """Print one row per dedup rule."""
    options = argparse.ArgumentParser(description=__doc__)
    options.add_argument("root", nargs="?", type=Path, default=DEFAULT_ROOT)
    args = options.parse_args(argv)
    if not args.root.is_dir():
        print(f"no fixture folder at {args.root}", file=sys.stderr)
        return 2
    logging.disable(logging.WARNING)
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
    load = os.getloadavg()[0]
    first = read_fixtures(args.root)
    with patched(parsers_base, "command_event_type", _flipped):
        again = read_fixtures(args.root)
    events = sum(len(t) for t in first)
    moved = sum(
        a.event_type != b.event_type
        for before, after in zip(first, again, strict=True)
        for a, b in zip(before, after, strict=False)
        if a.event_type in _COMMANDS
    )
    print(f"{len(first)} transcripts, {events} events, {moved} command events reclassified")
    print(f"{'dedup rule':<22} {'stored':>7} {'stored twice':>13}")
    for label, kind in _RULES.items():
        with tempfile.TemporaryDirectory() as tmp, patched(dedup, "record_kind", kind):
            stored, twice = asyncio.run(_stored_twice(Path(tmp), first, again))
        print(f"{label:<22} {stored:>7} {twice:>13}")
    print(f"load (1 min) {load:.2f} at start, {os.getloadavg()[0]:.2f} at end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
