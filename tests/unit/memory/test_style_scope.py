"""A habit found in one project's sessions is that project's; other projects are told about it
once it recurs across projects, or when the user said it for every project."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel_core.events import Event, EventType, SourceTool
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemorySource,
    MemoryType,
    Scope,
    UpdateDecision,
)
from squirrel_memory.processor import Processor
from squirrel_memory.processor_settings import ProcessorSettings
from squirrel_memory.storage import SqliteStore, Store
from squirrel_memory.style_scope import (
    MAX_SEEN,
    SEEN_IN_PREFIX,
    for_project,
    holds_in,
    retired_keys,
    seen_in_tag,
    with_project,
)
from squirrel_memory.updates import decide_update
from squirrel_memory.user_memories.userstore import SqliteUserStore, UserStyleItem
from squirrel_memory.views.builder import Views

NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
USER = "u"


def _item(
    content: str, tags: tuple[str, ...], source: MemorySource = MemorySource.RULES
) -> UserStyleItem:
    return UserStyleItem("usr_1", USER, "pref:k", content, tags, 0.7, NOW, NOW, source)


def test_a_habit_found_in_one_project_holds_there_only() -> None:
    item = _item("Run the linter before pushing.", ("preference", seen_in_tag("/src/a")))

    assert holds_in(item, "/src/a")
    assert not holds_in(item, "/src/b")


def test_a_habit_found_in_two_projects_holds_in_every_project() -> None:
    tags = with_project(("preference",), (seen_in_tag("/src/a"),), "/src/b")

    assert holds_in(_item("Run the linter before pushing.", tags), "/src/c")


@pytest.mark.parametrize(
    "content",
    [
        "In all my projects, write commit subjects in the imperative.",
        "Use tabs everywhere.",
        "For every repo: no force pushes.",
    ],
)
def test_a_habit_said_for_every_project_holds_everywhere_at_once(content: str) -> None:
    assert holds_in(_item(content, (seen_in_tag("/src/a"),)), "/src/b")


def test_the_users_own_items_and_items_without_a_record_of_their_project_hold_everywhere() -> None:
    manual = _item("Answer in French.", (seen_in_tag("/src/a"),), MemorySource.MANUAL)
    legacy = _item("Answer in French.", ("preference",))

    assert holds_in(manual, "/src/b") and holds_in(legacy, "/src/b")


def test_the_projects_are_pooled_capped_and_not_shown() -> None:
    tags: tuple[str, ...] = ("preference",)
    for n in range(MAX_SEEN + 3):
        tags = with_project(("preference", "standing"), tags, f"/src/p{n}")
    seen = [t for t in tags if t.startswith(SEEN_IN_PREFIX)]

    assert len(seen) == MAX_SEEN and tags[:2] == ("preference", "standing")
    assert all("/src" not in t for t in tags)  # a digest, never the path
    [shown] = for_project([_item("x", tags)], "/elsewhere")
    assert shown.tags == ("preference", "standing")


def test_a_habit_found_here_only_holds_while_the_project_keeps_its_memory() -> None:
    here = (seen_in_tag("/src/a"),)
    habit = _item("Run the formatter before you finish.", here)

    assert for_project([habit], "/src/a", {"pref:k"})
    assert for_project([habit], "/src/a")  # no word on the project's memories: it holds
    assert not for_project([habit], "/src/a", {"pref:other"})  # retired here
    # Found in two projects, said for every project or written by the user: it holds anyway.
    both = with_project((), (seen_in_tag("/src/b"),), "/src/a")
    everywhere = _item("In all my projects, run the formatter.", here)
    own = _item("Run the formatter.", here, MemorySource.MANUAL)
    assert len(for_project([_item("x", both), everywhere, own], "/src/a", set())) == 3


def test_an_item_its_project_retired_is_not_shown_there_unless_the_user_wrote_it() -> None:
    both = with_project((), (seen_in_tag("/src/b"),), "/src/a")
    habit = _item("Run the formatter before you finish.", both)
    own = _item("Run the formatter.", both, MemorySource.MANUAL)

    assert for_project([habit], "/src/a", {"pref:other"}, {"pref:other"})
    assert not for_project([habit], "/src/a", set(), {"pref:k"})
    assert for_project([own], "/src/a", set(), {"pref:k"})


def test_retired_keys_are_forgotten_memories_no_live_one_replaced() -> None:
    def memory(key: str, user: str = USER, **changes: object) -> MemoryItem:
        made = MemoryItem(
            id=f"m-{key}-{len(changes)}",
            project_id="/src/a",
            type=MemoryType.USER_STYLE,
            key=key,
            content="x",
            importance=0.5,
            tags=(),
            file_paths=(),
            source_event_ids=(),
            source=MemorySource.RULES,
            user_id=user,
            scope=Scope.USER,
            created_at=NOW,
            updated_at=NOW,
        )
        return replace(made, **changes)  # type: ignore[arg-type]

    memories = [
        memory("pref:gone", deleted=True),
        memory("pref:newer", deleted=True, superseded_by="m-2"),  # superseded: not retired
        memory("pref:again", deleted=True),
        memory("pref:again"),  # said again since: live
        memory("pref:theirs", user="v", deleted=True),
    ]
    assert retired_keys(memories, None) == {"pref:gone", "pref:theirs"}
    assert retired_keys(memories, USER) == {"pref:gone"}  # a teammate's retirement is theirs


# --- through the processor and the views ------------------------------------------------------


@dataclass
class Project:
    store: SqliteStore
    processor: Processor
    views: Views


async def _decide(candidate: MemoryCandidate, existing: list[MemoryItem]) -> UpdateDecision:
    return decide_update(candidate, existing)


def _only(store: SqliteStore) -> Callable[[], Awaitable[list[Store]]]:
    async def stores() -> list[Store]:
        return [store]

    return stores


@pytest.fixture
async def projects(tmp_path: Path) -> AsyncIterator[tuple[list[Project], SqliteUserStore]]:
    users = await SqliteUserStore.open(tmp_path / "home")
    made: list[Project] = []
    for name in ("svc", "web", "cli"):
        root = tmp_path / name
        root.mkdir()
        store = await SqliteStore.open(str(root.resolve()), clock=lambda: NOW)

        processor = Processor(
            _only(store),
            users,
            RulesExtractor(),
            _decide,
            user_id=USER,
            settings=ProcessorSettings(retry_delays=()),
            clock=lambda: NOW,
        )
        made.append(Project(store, processor, Views(store, user_store=users)))
    yield made, users
    for project in made:
        project.views.close()
        await project.store.close()
    await users.close()


async def _say(project: Project, session: str, days_ago: int, text: str) -> None:
    said = [
        (EventType.USER_MESSAGE, {"text": "Add the export endpoint."}),
        (EventType.ASSISTANT_RESPONSE, {"text": "Done: I added an exporter class and tests."}),
        (EventType.USER_MESSAGE, {"text": text}),
    ]
    start = NOW - timedelta(days=days_ago)
    events = [
        Event(
            SourceTool.CLAUDE_CODE, kind, start + timedelta(minutes=i), content, session_id=session
        )
        for i, (kind, content) in enumerate(said)
    ]
    await project.store.append_events(project.store.project_id, USER, events, [])
    await project.processor.drain(project.store)


async def _style(project: Project) -> str:
    view = await project.views.user_style(project.store.project_id, user_id=USER)
    return view.markdown


async def test_a_habit_recurring_in_one_project_stays_out_of_the_others_until_it_recurs_there(
    projects: tuple[list[Project], SqliteUserStore],
) -> None:
    (svc, web, cli), users = projects
    rule = "no, keep it simple, no new dependencies for this"
    await _say(svc, "a", 9, rule)
    await _say(svc, "b", 8, "no, keep it simple, without extra packages")

    assert "keep it simple" in await _style(svc)
    assert "keep it simple" not in await _style(web)  # said in one project only
    [stored] = await users.list_user_style(USER)
    assert stored.key == "pref:simplest_reuse_existing"

    await _say(web, "c", 5, rule)
    await _say(web, "d", 4, "no, keep it simple, without extra packages")

    assert "keep it simple" in await _style(cli)  # found in two projects: the user's habit


async def test_an_instruction_the_user_stops_later_leaves_the_style_view(
    projects: tuple[list[Project], SqliteUserStore],
) -> None:
    (svc, _, _), _ = projects
    await _say(svc, "a", 9, "Always run black on the files you touch before you finish.")
    assert "Always run black" in await _style(svc)

    await _say(svc, "b", 8, "Stop running black on my files, it fights the generated code.")

    assert "Always run black" not in await _style(svc)


async def test_an_instruction_stopped_in_a_later_session_of_the_same_pass_is_not_written(
    projects: tuple[list[Project], SqliteUserStore],
) -> None:
    (svc, _, _), users = projects
    said = [
        ("a", 9, "Always run black on the files you touch before you finish."),
        ("b", 8, "Stop running black on my files, it fights the generated code."),
    ]
    events = [
        Event(
            SourceTool.CLAUDE_CODE,
            kind,
            NOW - timedelta(days=days_ago) + timedelta(minutes=i),
            content,
            session_id=session,
        )
        for session, days_ago, text in said
        for i, (kind, content) in enumerate(
            [
                (EventType.USER_MESSAGE, {"text": "Add the export endpoint."}),
                (EventType.ASSISTANT_RESPONSE, {"text": "Done: I added an exporter."}),
                (EventType.USER_MESSAGE, {"text": text}),
            ]
        )
    ]
    await svc.store.append_events(svc.store.project_id, USER, events, [])

    await svc.processor.process_once(svc.store, force=True)

    kept, _ = await svc.store.list_memories(svc.store.project_id)
    assert not any("Always run black" in m.content for m in kept)
    assert not any("Always run black" in i.content for i in await users.list_user_style(USER))


async def test_an_instruction_stopped_here_leaves_this_project_though_other_projects_keep_it(
    projects: tuple[list[Project], SqliteUserStore],
) -> None:
    (svc, web, cli), _ = projects
    rule = "Always run black on the files you touch before you finish."
    await _say(web, "a", 9, rule)
    await _say(cli, "b", 9, rule)
    await _say(svc, "c", 9, rule)
    assert "Always run black" in await _style(svc)  # found in three projects

    await _say(svc, "d", 8, "Stop running black on my files, it fights the generated code.")

    assert "Always run black" not in await _style(svc)  # its project retired it here
    assert "Always run black" in await _style(web)  # the other projects still hold it
