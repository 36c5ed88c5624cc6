"""Made-up cases run through the real pipeline, each alone in its own project.

Each case's sessions are written as transcripts into a project of its own, and all of them go
through one fresh memory service with the offline `rules` extractor, as `bench.answer_key`
runs it (`bench.wrong_traps`, `bench.pitfall_shapes`, `bench.layout_probe`).
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bench import fixture_pipeline
from bench.answer_key import backend_env
from bench.trap_transcripts import Session, write_sessions
from squirrel_core.clients import MemoryClient

#: A case: its name (the project's) and its sessions.
Case = tuple[str, Sequence[Session]]


def run_cases(cases: Sequence[Case], inspect: fixture_pipeline.Inspect) -> None:
    """Runs every case in its own project; `inspect` looks at each project once processed."""
    with tempfile.TemporaryDirectory() as tmp:
        projects = [(name, write_sessions(Path(tmp), name, sessions)) for name, sessions in cases]
        asyncio.run(
            fixture_pipeline.run_once(
                projects, False, settings_env=backend_env("rules"), inspect=inspect
            )
        )


def kept_memories(cases: Sequence[Case]) -> dict[str, list[tuple[str, str]]]:
    """The memories kept for each case, as (type name, content), by case name."""
    kept: dict[str, list[tuple[str, str]]] = {}

    async def inspect(client: MemoryClient, name: str, project_id: str, events: int) -> None:
        kept[name] = await fixture_pipeline.typed_memories(client, project_id)

    run_cases(cases, inspect)
    return kept


__all__ = ["Case", "kept_memories", "run_cases"]
