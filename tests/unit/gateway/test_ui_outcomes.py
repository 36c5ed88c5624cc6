"""The browser's memory page shows the memory's outcome history and whether it is stale."""

from __future__ import annotations

from datetime import UTC, datetime

from google.protobuf.timestamp_pb2 import Timestamp

from squirrel.v1 import memory_pb2, memory_service_pb2
from squirrel_gateway.ui.pages import memory_page

NOW = datetime(2026, 11, 1, tzinfo=UTC)


def stamp(day: int) -> Timestamp:
    ts = Timestamp()
    ts.FromDatetime(datetime(2026, 10, day, tzinfo=UTC))
    return ts


def reply(
    *outcomes: tuple[str, str], stale: bool = False
) -> memory_service_pb2.GetMemoryHistoryResponse:
    return memory_service_pb2.GetMemoryHistoryResponse(
        memory=memory_pb2.MemoryItem(memory_id="mem_1", content="Lint with `ruff check src`."),
        outcomes=[
            memory_service_pb2.MemoryOutcome(
                session_id=session, outcome=outcome, version=1, served_at=stamp(n + 1),
                judged_at=stamp(n + 2), channel="session_start" if n == 0 else "prompt",
            )
            for n, (session, outcome) in enumerate(outcomes)
        ],
        stale=stale,
    )  # fmt: skip


def test_each_session_served_the_memory_is_listed_with_its_outcome() -> None:
    page = memory_page("/p", reply(("s-1", "used"), ("s-2", "contradicted"), stale=True), "t", NOW)
    outcomes = page.split("<h2>Outcomes</h2>")[1]
    assert "1 used, 1 contradicted" in outcomes
    assert outcomes.index("s-1") < outcomes.index("s-2")
    # Where each session was shown it: the first at its start, the second with a prompt.
    assert outcomes.index("session start") < outcomes.index("a prompt")
    assert "⚠ stale" in page
    assert "Confirm it still holds" in page


def test_a_memory_never_judged_says_so_and_is_not_stale() -> None:
    page = memory_page("/p", reply(), "t", NOW)
    assert "No processed session has been served this memory yet" in page
    assert "⚠ stale" not in page and "Confirm it still holds" not in page


def test_session_ids_are_escaped() -> None:
    page = memory_page("/p", reply(("<script>x</script>", "unused")), "t", NOW)
    assert "<script>x" not in page and "&lt;script&gt;" in page


def test_the_activity_page_shows_what_each_projects_served_memories_became() -> None:
    from squirrel_gateway.ui.activity import activity_page  # noqa: PLC0415

    status = memory_service_pb2.GetProcessingStatusResponse(
        projects=[
            memory_service_pb2.ProjectProcessingStatus(
                project_id="/src/<app>",
                outcomes=memory_service_pb2.OutcomeSummary(
                    sessions=3, served=9, used=4, missed=1, contradicted=1, unused=2, pending=1,
                    stale=1,
                ),
            ),
            memory_service_pb2.ProjectProcessingStatus(project_id="/src/quiet"),
        ]
    )  # fmt: skip
    page = activity_page(status, None, [], "t")
    table = page.split("What served memories became")[1].split("</table>")[0]
    cells = [c.split("</td>")[0] for c in table.split("<td>")[1:]]
    assert cells[1:] == ["3", "9", "4", "1", "1", "2", "1", "1"]
    assert "&lt;app&gt;" in cells[0] and "<app>" not in table
    assert "/src/quiet" not in table  # never served: no row


def test_the_activity_page_has_no_outcome_table_before_anything_was_served() -> None:
    from squirrel_gateway.ui.activity import activity_page  # noqa: PLC0415

    status = memory_service_pb2.GetProcessingStatusResponse(
        projects=[memory_service_pb2.ProjectProcessingStatus(project_id="/src/app")]
    )
    assert "What served memories became" not in activity_page(status, None, [], "t")
