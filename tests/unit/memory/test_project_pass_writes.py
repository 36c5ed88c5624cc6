"""The project pass tells a fix made by writing a file whole as the session's own pass does: the
line it added, from the text the session's read of that file showed (not "editing X")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from squirrel_core.events import Event, EventType, SourceTool
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session, clocked_stores, rules_processor

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
PROPS_OLD = (
    "<Project>\n  <PropertyGroup>\n    <Nullable>enable</Nullable>\n"
    "    <TreatWarningsAsErrors>true</TreatWarningsAsErrors>\n  </PropertyGroup>\n</Project>\n"
)
PROPS_NEW = PROPS_OLD.replace(
    "  </PropertyGroup>",
    "    <WarningsNotAsErrors>CS8618</WarningsNotAsErrors>\n  </PropertyGroup>",
)
FAILED = (
    "src/Api/Services/InvoiceService.cs(41,23): error CS8618: Non-nullable property 'Customer' "
    "must contain a non-null value when exiting constructor.\n\nBuild FAILED.\n    1 Error(s)\n"
)


def _session(root: str, *, read_first: bool) -> list[Event]:
    session = Session(root, "s1", T0)
    session.user("Build the solution.")
    session.run("dotnet build", 1, FAILED)
    if read_first:
        session.read("Directory.Build.props", PROPS_OLD)
    session.write("Directory.Build.props", PROPS_NEW)
    session.run("dotnet build", 0, "Build succeeded.\n    0 Error(s)\n")
    session.say("The build passes now.")
    return [
        Event(
            SourceTool.CLAUDE_CODE,
            EventType(e.event_type),
            e.timestamp,
            dict(e.content),
            session_id="s1",
            file_paths=e.file_paths,
        )
        for e in session.events
    ]


async def _pitfalls(tmp_path: Path, *, read_first: bool) -> list[str]:
    now = T0 + timedelta(days=1)
    async with clocked_stores(tmp_path, now) as (store, users):
        root = store.project_id
        await store.append_events(root, "u", _session(root, read_first=read_first), [])
        await rules_processor(store, users, now).drain(store)
        items, _ = await store.list_memories(root, types=[MemoryType.PITFALL])
        return [m.content for m in items]


async def test_a_file_written_whole_after_its_read_is_told_by_the_line_it_added(
    tmp_path: Path,
) -> None:
    (pitfall,) = await _pitfalls(tmp_path, read_first=True)
    assert "`<WarningsNotAsErrors>CS8618</WarningsNotAsErrors>` in Directory.Build.props" in (
        pitfall
    )
    assert "editing" not in pitfall


async def test_a_file_written_whole_never_read_is_told_by_its_name(tmp_path: Path) -> None:
    # Its old text is nowhere: what the write changed is unknown, so only the file is named.
    (pitfall,) = await _pitfalls(tmp_path, read_first=False)
    assert "WarningsNotAsErrors" not in pitfall
    assert "Directory.Build.props" in pitfall
