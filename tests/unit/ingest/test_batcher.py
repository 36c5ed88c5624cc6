"""Batches flush by size or age, keep read order, carry cursors, and bound what is buffered."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_core.events import Event, EventType, SourceCursor, SourcePosition, SourceTool
from squirrel_ingest.batcher import Batcher


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _event(n: int, path: str = "/t/a.jsonl", end: int | None = None) -> Event:
    return Event(
        source_tool=SourceTool.CLAUDE_CODE,
        event_type=EventType.USER_MESSAGE,
        timestamp=datetime(2026, 1, 1, tzinfo=UTC),
        content={"text": f"message {n}"},
        cwd="/repo",
        position=SourcePosition(path=path, inode=7, end_offset=end if end is not None else n * 10),
    )


def _cursor(path: str, offset: int) -> SourceCursor:
    return SourceCursor(SourceTool.CLAUDE_CODE, path, inode=7, offset=offset)


def _always(_project: str, _cursor: SourceCursor) -> bool:
    return True


def test_nothing_pending_means_no_flush_is_due() -> None:
    batcher = Batcher()

    assert batcher.seconds_until_due() is None
    assert not batcher.has_pending


def test_flush_is_due_once_the_batch_size_is_reached() -> None:
    clock = FakeClock()
    batcher = Batcher(max_batch_events=3, max_age_s=10, clock=clock)
    for n in range(1, 3):
        batcher.add("p", _event(n))
    assert batcher.seconds_until_due() == pytest.approx(10)

    batcher.add("p", _event(3))

    assert batcher.seconds_until_due() == 0.0


def test_flush_is_due_once_the_oldest_item_is_old_enough() -> None:
    clock = FakeClock()
    batcher = Batcher(max_batch_events=100, max_age_s=1.0, clock=clock)
    batcher.touch(_cursor("/t/a.jsonl", 5))
    clock.now += 0.4
    assert batcher.seconds_until_due() == pytest.approx(0.6)

    clock.now += 0.6

    assert batcher.seconds_until_due() == 0.0


def test_take_delivers_each_project_its_events_in_order_with_the_touched_cursors() -> None:
    batcher = Batcher()
    batcher.add("p1", _event(1))
    batcher.add("p2", _event(2))
    batcher.add("p1", _event(3))
    batcher.touch(_cursor("/t/a.jsonl", 30))

    deliveries = batcher.take(["p1", "p2", "p3"], _always)

    assert [(d.project_id, [e.content["text"] for e in d.events]) for d in deliveries] == [
        ("p1", ["message 1", "message 3"]),
        ("p2", ["message 2"]),
        ("p3", []),
    ]
    assert all(d.cursors == (_cursor("/t/a.jsonl", 30),) for d in deliveries)
    assert not batcher.has_pending


def test_cursors_that_do_not_advance_a_project_are_left_out() -> None:
    batcher = Batcher()
    batcher.touch(_cursor("/t/a.jsonl", 30))

    deliveries = batcher.take(["ahead", "behind"], lambda project, _c: project == "behind")

    assert [d.project_id for d in deliveries] == ["behind"]


def test_large_batches_are_chunked_without_splitting_one_line() -> None:
    batcher = Batcher(max_batch_events=2)
    events = [_event(1), _event(2, end=20), _event(3, end=20), _event(4, end=40), _event(5)]
    for event in events:
        batcher.add("p", event)
    batcher.touch(_cursor("/t/a.jsonl", 50))

    deliveries = batcher.take(["p"], _always)

    assert [[e.content["text"] for e in d.events] for d in deliveries] == [
        ["message 1", "message 2", "message 3"],
        ["message 4", "message 5"],
    ]
    # A cursor in the middle of a read would carry no parser state: only the last chunk has one.
    assert deliveries[0].cursors == ()
    assert deliveries[1].cursors == (_cursor("/t/a.jsonl", 50),)


def test_project_cursor_goes_only_to_its_project() -> None:
    batcher = Batcher()
    own = SourceCursor(SourceTool.GIT, "git:/repo", inode=0, offset=0, extra={"sha": "abc"})
    batcher.touch_project("p1", own)

    deliveries = batcher.take(["p1", "p2"], _always)

    assert [(d.project_id, d.cursors) for d in deliveries] == [("p1", (own,))]


def test_buffer_is_full_until_deliveries_settle() -> None:
    batcher = Batcher(max_batch_events=2, max_buffered_events=3)
    for n in range(3):
        batcher.add("p", _event(n + 1))
    assert batcher.is_full

    deliveries = batcher.take(["p"], _always)
    assert batcher.is_full  # in flight still counts
    for delivery in deliveries:
        batcher.settle(delivery)

    assert not batcher.is_full
    assert batcher.buffered_events == 0


@pytest.mark.parametrize(
    "kwargs",
    [{"max_batch_events": 0}, {"max_buffered_events": 0}, {"max_age_s": -1.0}],
)
def test_invalid_limits_are_rejected(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        Batcher(**kwargs)  # type: ignore[arg-type]
