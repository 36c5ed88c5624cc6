"""Which command of a purpose the project moved on to: the recency rule recipes and the final
checks share.

A command stays the project's way to do something only while nothing replaced it: when
another command of the same purpose, in the same folder, passed over the whole project after
the command's last success and its own last run did not fail, the project moved on. It
replaced the command when it first passed after that success (the old one never ran again);
when both passed after each other, both are in use.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(slots=True)
class Passes:
    """When one command passed: its newest success, and its first and newest whole-project
    successes (no file, folder or test picked); `ended_ok` is how its last run with a known
    outcome ended."""

    last_ok: datetime | None = None
    first_whole_ok: datetime | None = None
    last_whole_ok: datetime | None = None
    ended_ok: bool | None = None

    def add(self, when: datetime, ok: bool | None, *, whole: bool) -> None:
        """Record one run of the command, in the order of the runs."""
        if ok is not None:
            self.ended_ok = ok
        if not ok:
            return
        self.last_ok = max(self.last_ok or when, when)
        if whole:
            self.first_whole_ok = min(self.first_whole_ok or when, when)
            self.last_whole_ok = max(self.last_whole_ok or when, when)


@dataclass(frozen=True, slots=True)
class MovedOn(Generic[T]):
    """The command the project moved on to, and whether it replaced the old one outright."""

    newer: T
    replaced: bool


def moved_on(current: Passes, rivals: Iterable[tuple[T, Passes]]) -> MovedOn[T] | None:
    """The rival (same purpose, same folder) that passed over the whole project after
    `current`'s last success and whose last run did not fail, the latest such; None when the
    project did not move on from `current`."""
    last = current.last_ok
    if last is None:
        return None
    later = [
        (passes.last_whole_ok, key, passes)
        for key, passes in rivals
        if passes is not current
        and passes.ended_ok
        and passes.last_whole_ok is not None
        and passes.last_whole_ok > last
    ]
    if not later:
        return None
    _, key, passes = max(later, key=lambda found: found[0])
    first = passes.first_whole_ok
    return MovedOn(key, first is not None and first > last)
