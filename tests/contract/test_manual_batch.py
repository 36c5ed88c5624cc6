"""`remember_batch`: a batch of statements written in one transaction leaves the store exactly
as writing them one by one does (memories, keys, versions, history, merges), duplicates inside
the batch included; a refused statement leaves nothing behind."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from squirrel_core.errors import InvalidArgumentError, SquirrelError
from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemorySource,
    MemoryType,
    Scope,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.storage import MemoryChange, Store
from squirrel_memory.storage.base import ManualPlan
from squirrel_memory.storage.values import FindAnchor, Supersede, WriteManual
from squirrel_memory.user_memories.manual import (
    SCREEN_FROM,
    Remembered,
    Statement,
    WordScreen,
    remember,
    remember_many,
    remember_plan,
)

from .conftest import Opener

USER = "alice"
FACT = MemoryType.PROJECT_FACT
STYLE = MemoryType.USER_STYLE


def fact(content: str, key: str = "") -> Statement:
    return Statement(USER, FACT, key, content, (), 0.8, Scope.PROJECT)


def style(content: str, key: str = "") -> Statement:
    return Statement(USER, STYLE, key, content, ("style",), 0.7, Scope.USER)


#: Each answer depends on the statements before it: updates on a named key, a statement said
#: twice (same and near-same words) in one batch, a manual memory superseding an extracted one
#: (under a derived key and under a named one), a named key beside a manual look-alike (kept
#: apart), a derived key already taken, a contradiction kept apart, a refused statement in the
#: middle.
FIRST = [
    fact("Uses SQLite 3.", "database"),
    fact("Uses PostgreSQL 16 via asyncpg.", "database"),
    fact("Deploys run through the GitHub Actions workflow."),
    fact("Deploys run through the GitHub Actions workflow!"),
    fact("Uses PostgreSQL 16 via asyncpg.", "database"),
    style("Prefers short commit messages in English."),
    fact("Deploys run through the GitHub Actions workflow."),
    fact("x", "k" * 600),
    fact("The API server listens on port 8080 in development."),
    fact("Always run the linter before pushing."),
    fact("Never run the linter before pushing."),
    fact("Release notes live in docs/releases and are written by hand."),
    style("Prefers short commit messages written in English."),
    fact("Tests run with pytest -q from the repository root."),
]
SECOND = [
    fact("Caches live in Redis 7 on the staging host", "redis"),
    fact("Deploys run through the GitHub Actions workflow", "deploys"),
    fact("Tests run with pytest -q from the repository root!"),
    fact("The api server listens on port 8080 in development"),
    fact("Uses PostgreSQL 17 via asyncpg.", "database"),
    fact("Release notes live in docs/releases and are written by hand."),
    fact("Migrations are applied with alembic upgrade head."),
    fact("Caches live in Redis 7 on the staging host."),
    fact("Deploys go through the GitHub Actions workflow."),
    style("Prefers short commit messages in English."),
    fact("Feature flags are read from config/flags.toml at start."),
]


async def seed(store: Store) -> None:
    """Extracted memories a manual statement can be the same as, or whose key it derives."""
    for key, content in [
        ("testing", "Tests run with pytest -q from the repository root"),
        ("the_api_server_listens_on_port", "The API server listens on port 9000."),
        ("caches", "Caches live in Redis 7 on the staging host."),
    ]:
        candidate = MemoryCandidate(FACT, key, content, ("seen",), 0.5, ("evt_1",))
        await store.apply_decision(
            UpdateDecision(action=UpdateAction.ADD_NEW, candidate=candidate), user_id=USER
        )


async def state(store: Store, project: str) -> list[tuple[Any, ...]]:
    """Every memory with its history, ids replaced by keys (ids are random per store)."""
    items, _ = await store.list_memories(project, include_deleted=True, limit=500)
    key_of = {m.id: (m.key, str(m.source)) for m in items}
    rows: list[tuple[Any, ...]] = []
    for m in items:
        versions = [
            (v.version, v.action, v.content, v.tags, v.reason, key_of.get(v.superseded_by or ""))
            for v in await store.history(m.id)
        ]
        rows.append(
            (
                m.key,
                str(m.type),
                str(m.scope),
                m.user_id,
                str(m.source),
                m.content,
                m.tags,
                m.importance,
                m.version,
                m.deleted,
                key_of.get(m.superseded_by or ""),
                tuple(versions),
            )
        )
    return sorted(rows, key=repr)


def answer(done: Remembered | SquirrelError, key_of: dict[str, str]) -> tuple[Any, ...]:
    if isinstance(done, SquirrelError):
        return (type(done).__name__,)
    merged = tuple(key_of[i] for i in done.merged_ids)
    return (done.outcome, done.memory.key, done.memory.version, done.memory.content, merged)


async def keys(store: Store, project: str) -> dict[str, str]:
    items, _ = await store.list_memories(project, include_deleted=True, limit=500)
    return {m.id: f"{m.key}/{m.source}" for m in items}


async def one_by_one(store: Store, project: str, statements: list[Statement]) -> list[Any]:
    done: list[Remembered | SquirrelError] = []
    for s in statements:
        try:
            done.append(
                await remember(
                    store,
                    project,
                    user_id=s.user_id,
                    memory_type=s.memory_type,
                    key=s.key,
                    content=s.content,
                    tags=s.tags,
                    importance=s.importance,
                    scope=s.scope,
                )
            )
        except SquirrelError as exc:
            done.append(exc)
    return done


async def test_a_batch_leaves_the_store_as_one_by_one_writes_do(
    opener: Opener, tmp_path: Path
) -> None:
    roots = [tmp_path / "single", tmp_path / "batched"]
    for root in roots:
        root.mkdir()
    single, batched = [await opener.open(str(root)) for root in roots]
    await seed(single)
    await seed(batched)
    assert len(FIRST) >= SCREEN_FROM and len(SECOND) >= SCREEN_FROM

    answers: list[list[Any]] = [[], []]
    for statements in (FIRST, SECOND):
        alone = await one_by_one(single, str(roots[0]), statements)
        together = await remember_many(batched, str(roots[1]), statements)
        answers[0] += [answer(d, await keys(single, str(roots[0]))) for d in alone]
        answers[1] += [answer(d, await keys(batched, str(roots[1]))) for d in together]

    assert answers[0] == answers[1]
    assert await state(single, str(roots[0])) == await state(batched, str(roots[1]))
    outcomes = {a[0] for a in answers[1]}
    assert {"added", "updated", "unchanged", "merged", "InvalidArgumentError"} <= outcomes


async def test_a_batch_without_a_screen_answers_as_one_with_it(
    opener: Opener, tmp_path: Path
) -> None:
    roots = [tmp_path / "plain", tmp_path / "screened"]
    for root in roots:
        root.mkdir()
    plain, screened = [await opener.open(str(root)) for root in roots]
    for store in (plain, screened):
        await seed(store)
    found: list[list[Any]] = []
    for store, root, screen in ((plain, roots[0], None), (screened, roots[1], WordScreen())):
        done = await store.remember_batch(
            str(root), [remember_plan(s) for s in FIRST + SECOND], screen
        )
        ids = await keys(store, str(root))
        found.append([answer(d, ids) for d in done])
    assert found[0] == found[1]
    assert await state(plain, str(roots[0])) == await state(screened, str(roots[1]))


async def test_a_refused_statement_leaves_nothing_and_listeners_hear_once(
    store: Store, project: str
) -> None:
    heard: list[MemoryChange] = []
    store.add_listener(heard.append)
    done = await remember_many(
        store,
        project,
        [fact("Uses SQLite 3.", "database"), fact("x", "k" * 600), fact("Builds with make.")],
    )
    assert isinstance(done[1], InvalidArgumentError)
    written = [d for d in done if isinstance(d, Remembered)]
    assert len(written) == 2
    items, total = await store.list_memories(project, include_deleted=True)
    assert total == 2 and {m.id for m in items} == {d.memory.id for d in written}
    assert len(heard) == 1 and set(heard[0].added) == {d.memory.id for d in written}


async def test_a_batch_sees_the_memories_written_before_it_in_the_batch(
    store: Store, project: str
) -> None:
    first, again, other = await remember_many(
        store,
        project,
        [
            fact("Deploys run through the GitHub Actions workflow."),
            fact("Deploys run through the GitHub Actions workflow!"),
            fact("Deploys run through the GitHub Actions workflow.", "deploys"),
        ],
    )
    assert isinstance(first, Remembered) and isinstance(again, Remembered)
    assert again.memory.id == first.memory.id and again.memory.version == 2
    assert isinstance(other, Remembered) and other.memory.key == "deploys"
    live: list[MemoryItem] = (await store.list_memories(project))[0]
    assert len(live) == 2


async def test_memory_texts_are_the_live_memories_of_one_type_and_source(
    store: Store, project: str
) -> None:
    await seed(store)
    first, second = await remember_many(
        store,
        project,
        [fact("Caches live in Redis 7 on the staging host!"), style("Prefers tabs.")],
    )
    assert isinstance(first, Remembered) and isinstance(second, Remembered)
    facts = dict(await store.memory_texts(project, FACT))
    assert first.memory.id in facts and len(facts) == 3  # the extracted one was superseded
    manual = await store.memory_texts(project, FACT, MemorySource.MANUAL)
    assert manual == [(first.memory.id, "Caches live in Redis 7 on the staging host!")]
    assert [i for i, _ in await store.memory_texts(project, STYLE)] == [second.memory.id]


async def test_a_screen_kept_between_batches_notices_writes_made_without_it(
    store: Store, project: str
) -> None:
    screen = WordScreen()
    first = await store.remember_batch(
        project, [remember_plan(fact(f"Service {n} listens on port {8000 + n}.")) for n in range(8)]
    )
    assert all(isinstance(d, Remembered) for d in first)
    await store.remember_batch(project, [remember_plan(fact("Logs go to stderr as JSON."))], screen)
    # Written beside the screen: the next batch must still find them as look-alikes, whether it
    # may read the memories again (learning) or not.
    for learning, text in (
        (False, "Deploys run through the GitHub Actions workflow"),
        (True, "Releases are tagged from the main branch"),
    ):
        candidate = MemoryCandidate(FACT, text[:8].lower(), text, (), 0.5)
        extracted = await store.apply_decision(
            UpdateDecision(action=UpdateAction.ADD_NEW, candidate=candidate), user_id=USER
        )
        assert extracted is not None
        screen.learning = learning
        [done] = await store.remember_batch(project, [remember_plan(fact(text + "!"))], screen)
        assert isinstance(done, Remembered) and done.merged_ids == (extracted.id,)
        assert (await store.get_memory(extracted.id)).superseded_by == done.memory.id


def _write(content: str, key: str, *, last: bool) -> WriteManual:
    return WriteManual(FACT, key, content, (), 0.5, Scope.PROJECT, USER, last=last)


def _fails_after_writing(content: str, key: str) -> ManualPlan[MemoryItem]:
    item: MemoryItem = yield _write(content, key, last=False)
    yield _write(content + " Twice.", key + "_2", last=True)
    raise InvalidArgumentError(f"refused after writing {item.key}")


def _writes_after_its_last(content: str, key: str) -> ManualPlan[MemoryItem]:
    item: MemoryItem = yield _write(content, key, last=True)
    yield Supersede(item.id, item.id, "wrong")
    return item


def _fails_after_its_last(content: str, key: str) -> ManualPlan[MemoryItem]:
    item: MemoryItem = yield _write(content, key, last=True)
    raise InvalidArgumentError(f"refused after writing {item.key}")


def _writes(content: str, key: str) -> ManualPlan[MemoryItem]:
    item: MemoryItem = yield _write(content, key, last=True)
    return item


async def test_a_plan_refused_after_writing_twice_leaves_nothing(
    store: Store, project: str
) -> None:
    done = await store.remember_batch(
        project,
        [
            _writes("Uses SQLite 3.", "database"),
            _fails_after_writing("Builds with make.", "build"),
            _writes("Logs go to stderr.", "logs"),
        ],
    )
    assert isinstance(done[1], InvalidArgumentError)
    items, _ = await store.list_memories(project, include_deleted=True)
    assert sorted(m.key for m in items) == ["database", "logs"]


async def test_a_plan_that_breaks_its_last_write_fails_the_whole_batch(
    store: Store, project: str
) -> None:
    for broken in (_writes_after_its_last, _fails_after_its_last):
        try:
            await store.remember_batch(
                project,
                [_writes("Uses SQLite 3.", "database"), broken("Builds with make.", "build")],
            )
        except RuntimeError:
            pass
        else:
            raise AssertionError("the batch was written")
        assert (await store.list_memories(project, include_deleted=True))[1] == 0


async def test_find_anchors_reads_what_find_anchor_reads_for_each(
    store: Store, project: str
) -> None:
    await seed(store)
    await remember_many(
        store,
        project,
        [
            fact("Uses SQLite 3.", "database"),
            style("Prefers tabs.", "indent"),
            fact("Builds fast."),
        ],
    )
    anchors = [
        FindAnchor(FACT, "database", Scope.PROJECT, USER),
        FindAnchor(FACT, "caches", Scope.PROJECT, USER),
        FindAnchor(STYLE, "indent", Scope.USER, USER),
        FindAnchor(STYLE, "indent", Scope.USER, "bob"),
        FindAnchor(FACT, "nothing_here", Scope.PROJECT, USER),
        FindAnchor(FACT, "database", Scope.PROJECT, USER),
    ]
    one_by_one = [
        await store.find_anchor(project, a.memory_type, a.key, a.scope, a.user_id) for a in anchors
    ]
    together = await store.find_anchors(project, anchors)
    assert together == one_by_one
    assert [len(found) for found in together] == [1, 1, 1, 0, 0, 1]


async def test_each_writer_of_one_statement_is_kept_once_one_by_one_and_in_a_batch(
    store: Store, project: str
) -> None:
    said = "Deploys run through the GitHub Actions workflow."
    first = await remember(
        store,
        project,
        user_id="alice",
        memory_type=FACT,
        key="",
        content=said,
        tags=(),
        importance=0.8,
        scope=Scope.PROJECT,
    )
    assert first.memory.writers == ("alice",)
    bob = Statement("bob", FACT, "", said, (), 0.8, Scope.PROJECT)
    done = await remember_many(store, project, [bob, fact(said), bob])
    assert all(isinstance(d, Remembered) for d in done)
    remembered = [d for d in done if isinstance(d, Remembered)]
    assert {d.memory.id for d in remembered} == {first.memory.id}
    assert [d.outcome.value for d in remembered] == ["unchanged"] * 3
    assert remembered[-1].memory.writers == ("alice", "bob")
    history = await store.history(first.memory.id)
    assert [v.writers for v in history] == [("alice",), ("alice", "bob")]
    assert {v.content for v in history} == {said}
    # Another statement names only its own writer.
    other = await remember_many(store, project, [fact("Releases are tagged from main.")])
    assert isinstance(other[0], Remembered) and other[0].memory.writers == (USER,)
