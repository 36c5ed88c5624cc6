"""A plan of steps is driven to its result; an error answering a step is raised inside the plan
at that step, so the plan can catch it (a batch rolls back one plan and goes on)."""

from __future__ import annotations

import asyncio
from collections.abc import Generator
from typing import Any

import pytest

from squirrel_core.errors import NotFoundError
from squirrel_memory.storage.revisions import drive, drive_async


def _plan(log: list[str]) -> Generator[str, Any, list[Any]]:
    got = [(yield "a")]
    try:
        got.append((yield "fails"))
    except NotFoundError as exc:
        log.append(f"caught {exc}")
        got.append("recovered")
    got.append((yield "b"))
    return got


def _answer(step: str) -> str:
    if step == "fails":
        raise NotFoundError("no memory x")
    return step.upper()


async def _answer_async(step: str) -> str:
    return _answer(step)


def test_answers_come_back_and_an_error_is_raised_at_its_step() -> None:
    log: list[str] = []
    assert drive(_plan(log), _answer) == ["A", "recovered", "B"]
    assert log == ["caught no memory x"]


def test_the_async_driver_does_the_same() -> None:
    log: list[str] = []
    assert asyncio.run(drive_async(_plan(log), _answer_async)) == ["A", "recovered", "B"]
    assert log == ["caught no memory x"]


def test_an_error_the_plan_does_not_catch_reaches_the_caller() -> None:
    def plan() -> Generator[str, Any, None]:
        yield "fails"
        raise AssertionError("not reached")

    with pytest.raises(NotFoundError, match="no memory x"):
        drive(plan(), _answer)


def test_a_plan_without_steps_returns_at_once() -> None:
    def plan() -> Generator[str, Any, int]:
        return 7
        yield "never"

    assert drive(plan(), _answer) == 7
