"""The hand-over of ownerless style memories runs when a team server opens a project's store,
and never on a laptop: a laptop whose events name another user (its `general.user_id` changed)
keeps its style memories as they were. On a real SQLite file."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel_core.events import Event, EventType, SourceTool
from squirrel_core.settings import load_settings
from squirrel_memory import engine as engine_module
from squirrel_memory.candidate_decisions import decide_by_rules
from squirrel_memory.engine import MemoryEngine
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import MemoryItem, MemoryType, Scope
from squirrel_memory.processor import Processor
from squirrel_memory.processor_settings import ProcessorSettings
from squirrel_memory.storage import Store

HERE = "In this repo we never call Repo directly from controllers."
NOW = datetime.now(UTC).replace(microsecond=0)


def _said(session: str) -> list[Event]:
    start = NOW - timedelta(days=2)
    said = [
        (EventType.USER_MESSAGE, "Add the footer."),
        (EventType.ASSISTANT_RESPONSE, "Added the footer."),
        (EventType.USER_MESSAGE, HERE),
    ]
    return [
        Event(
            SourceTool.CLAUDE_CODE,
            kind,
            start + timedelta(minutes=n),
            {"text": t},
            session_id=session,
        )
        for n, (kind, t) in enumerate(said)
    ]


async def _styles(store: Store) -> list[MemoryItem]:
    items, _ = await store.list_memories(store.project_id, types=[MemoryType.USER_STYLE])
    return [m for m in items if not m.deleted]


@pytest.mark.parametrize("serving", [True, False])
async def test_ownerless_styles_are_handed_over_at_open_on_a_team_server_only(
    tmp_path: Path, serving: bool
) -> None:
    env = {"SQRL_HOME": str(tmp_path / "home"), "SQRL_GENERAL_USER_ID": "server"}
    if serving:
        env["SQRL_SERVE_ADDRESS"] = "127.0.0.1:0"
    settings = load_settings(env)
    if serving:
        project_text = "github.com/acme/shop"
    else:
        (tmp_path / "proj").mkdir()
        project_text = str(tmp_path / "proj")

    engine = MemoryEngine(settings)
    try:
        await engine.start()
        assert engine.processor is not None
        await engine.processor.stop()  # what is written here is the old server's alone
        project, _ = await engine.registry.register(project_text)
        store = await engine.registry.store(project)

        async def stores() -> list[Store]:
            return [store]

        # As before style was owned: alice's instruction about the project, the project's.
        before = Processor(
            stores,
            engine.user_store,
            RulesExtractor(),
            decide_by_rules,
            user_id="server",
            settings=ProcessorSettings(retry_delays=()),
            clock=lambda: NOW,
        )
        await store.append_events(project, "alice", _said("a1"), [])
        await before.drain(store, force=True)
        (old,) = await _styles(store)
        assert (old.scope, old.user_id) == (Scope.PROJECT, None)
    finally:
        await engine.close()

    again = MemoryEngine(settings)
    try:
        await again.start()  # opens every project's store
        found = await _styles(await again.registry.store(project))
    finally:
        await again.close()
    if serving:
        assert [(m.scope, m.user_id) for m in found] == [(Scope.USER, "alice")]
    else:
        assert found == [old]


async def test_a_failing_hand_over_never_keeps_a_project_from_opening(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = load_settings(
        {"SQRL_HOME": str(tmp_path / "home"), "SQRL_SERVE_ADDRESS": "127.0.0.1:0"}
    )
    engine = MemoryEngine(settings)
    try:
        await engine.start()
        project, _ = await engine.registry.register("github.com/acme/shop")
    finally:
        await engine.close()

    async def broken(store: Store, install_user: str) -> int:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(engine_module, "own_unowned_styles", broken)
    again = MemoryEngine(settings)
    try:
        await again.start()
        store = await again.registry.store(project)
        assert store.project_id == project
    finally:
        await again.close()
