"""`sqrl status` shows, per project, what became of the memories its last sessions were served."""

from __future__ import annotations

import io
from typing import Any

from squirrel_cli.console import Console
from squirrel_cli.status_view import outcome_row, print_status


def project(path: str, **outcomes: int) -> dict[str, Any]:
    counts = dict.fromkeys(
        ("sessions", "served", "used", "missed", "contradicted", "unused", "pending", "stale"), 0
    )
    counts.update(outcomes, last=20)
    return {"project": path, "initialised": True, "notice": None, "outcomes": counts}


def data(*projects: dict[str, Any]) -> dict[str, Any]:
    return {
        "home": "/h",
        "memory": {"text": "local"},
        "supervisor_pid": 1,
        "services": [],
        "projects": list(projects),
        "ingest": None,
        "hooks": {},
        "embedding_model": {"problem": None},
    }


def test_a_row_counts_each_outcome_and_flags_the_stale_ones() -> None:
    row = outcome_row(
        project("/p", sessions=3, served=9, used=4, missed=1, contradicted=1, unused=2,
                pending=1, stale=1)
    )  # fmt: skip
    assert row == ["/p", "3", "9 (+1 pending)", "4", "1", "1", "2", "⚠ 1"]
    assert outcome_row(project("/q", sessions=1, served=2, used=2))[-1] == "0"


def test_only_projects_served_anything_are_listed() -> None:
    out = io.StringIO()
    served = project("/served", sessions=2, served=5, used=5)
    print_status(data(served, project("/quiet")), {}, Console(out))
    text = out.getvalue()
    assert "Served memories" in text and "last 20 sessions" in text
    assert "/served" in text.split("Served memories")[1]
    assert "/quiet" not in text.split("Served memories")[1]


def test_nothing_is_shown_when_no_session_was_served() -> None:
    out = io.StringIO()
    print_status(data(project("/quiet")), {}, Console(out))
    assert "Served memories" not in out.getvalue()
