"""Where an interim convention was applied: the files written right after it, named only when
few, and only on an interim convention."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from squirrel_core.events import EventType
from squirrel_memory.extractors.applied_files import (
    INTERIM_TAG,
    applied_files,
    with_applied_files,
)
from squirrel_memory.extractors.firmness import StatedPreference
from squirrel_memory.extractors.tongue_instructions import tongue_instructions
from squirrel_memory.models import Scope, StoredEvent

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/app"


def _event(n: int, kind: EventType, content: dict[str, object]) -> StoredEvent:
    return StoredEvent(
        id=f"evt_{n}",
        project_id=ROOT,
        user_id="dev",
        source_tool="claude_code",
        session_id="s",
        timestamp=T0 + timedelta(seconds=n),
        event_type=kind,
        content=content,
        file_paths=(),
        hash=f"h{n}",
    )


def _edit(n: int, path: str) -> StoredEvent:
    data = {"file_path": f"{ROOT}/{path}", "old_string": "a", "new_string": "b"}
    return _event(n, EventType.TOOL_CALL, {"tool_name": "Edit", "input": data})


def _user(n: int, text: str) -> StoredEvent:
    return _event(n, EventType.USER_MESSAGE, {"text": text})


def _interim() -> StatedPreference:
    (found,) = tongue_instructions(
        "pour l'instant on code en relatif", "fr", after_assistant_action=True
    )
    return found


def test_the_files_written_before_the_user_speaks_again_are_where_it_applies() -> None:
    events = [_user(0, "pour l'instant on code en relatif"), _edit(1, "conf/app.toml")]
    events += [_edit(2, "conf/app.toml"), _user(3, "merci"), _edit(4, "src/main.rs")]
    assert applied_files(events, 0) == ["conf/app.toml"]
    kept = with_applied_files(_interim(), events, 0)
    assert INTERIM_TAG in kept.tags
    assert kept.content.endswith("Applied in `conf/app.toml`.")


def test_many_files_or_none_name_no_place() -> None:
    many = [_user(0, "x"), _edit(1, "a.py"), _edit(2, "b.py"), _edit(3, "c.py")]
    assert applied_files(many, 0) == []
    assert with_applied_files(_interim(), many, 0) == _interim()
    assert applied_files([_user(0, "x"), _user(1, "y"), _edit(2, "a.py")], 0) == []


def test_another_preference_is_left_as_it_is() -> None:
    other = StatedPreference(
        key="pref:x",
        content="Prefers pnpm over npm.",
        tags=("preference",),
        scope=Scope.USER,
        importance=0.25,
    )
    events = [_user(0, "use pnpm, not npm"), _edit(1, "package.json")]
    assert with_applied_files(other, events, 0) == other
