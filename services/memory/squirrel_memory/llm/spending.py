"""Spending caps for LLM calls: calls per rolling hour and tokens per rolling day, kept in a
file under the home's run folder so a restart does not reset them."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

from squirrel_memory.extractors.base import RetryableExtractionError
from squirrel_memory.llm.ledger import load_ledger, save_ledger

HOUR_SECONDS = 3600.0
DAY_SECONDS = 86_400.0


class BudgetExceededError(RetryableExtractionError):
    """A call would exceed the hourly call cap or the daily token cap; `retry_after` says when."""


class LlmBudget:
    """Counts LLM calls and tokens over rolling windows and refuses calls over the caps.

    `reserve(estimated_tokens)` is called before a request and counts the call;
    `record_tokens(n)` adds what the response reported. A cap of 0 allows nothing. The clock
    returns wall-clock seconds and is injectable for tests. With a `ledger` file the windows
    are read at start and written after each change, so they survive a restart. Safe to share
    between threads.
    """

    def __init__(
        self,
        *,
        calls_per_hour: int,
        tokens_per_day: int,
        clock: Callable[[], float] = time.time,
        ledger: Path | None = None,
    ) -> None:
        if calls_per_hour < 0 or tokens_per_day < 0:
            raise ValueError("budget caps must not be negative")
        self.calls_per_hour = calls_per_hour
        self.tokens_per_day = tokens_per_day
        self._clock = clock
        self._calls: deque[float] = deque()
        self._tokens: deque[tuple[float, int]] = deque()
        self._token_total = 0
        self._lock = threading.Lock()
        self._ledger = ledger
        self._load()

    def _load(self) -> None:
        data = load_ledger(self._ledger)
        now = self._clock()
        calls = data.get("calls")
        tokens = data.get("tokens")
        if isinstance(calls, list):
            self._calls.extend(
                sorted(float(t) for t in calls if isinstance(t, int | float) and t <= now)
            )
        if isinstance(tokens, list):
            for item in sorted(t for t in tokens if _token_entry(t) and t[0] <= now):
                self._tokens.append((float(item[0]), int(item[1])))
                self._token_total += int(item[1])
        self._expire(now)

    def _save(self) -> None:
        save_ledger(
            self._ledger,
            {"calls": list(self._calls), "tokens": [[t, n] for t, n in self._tokens]},
        )

    def _expire(self, now: float) -> None:
        while self._calls and now - self._calls[0] >= HOUR_SECONDS:
            self._calls.popleft()
        while self._tokens and now - self._tokens[0][0] >= DAY_SECONDS:
            self._token_total -= self._tokens.popleft()[1]

    def reserve(self, estimated_tokens: int = 0) -> None:
        """Count one call, or raise `BudgetExceededError` if it would go over a cap."""
        with self._lock:
            now = self._clock()
            self._expire(now)
            if len(self._calls) >= self.calls_per_hour:
                wait = HOUR_SECONDS - (now - self._calls[0]) if self._calls else HOUR_SECONDS
                raise BudgetExceededError("hourly LLM call cap reached", retry_after=wait)
            if self._token_total + max(0, estimated_tokens) > self.tokens_per_day:
                wait = DAY_SECONDS - (now - self._tokens[0][0]) if self._tokens else DAY_SECONDS
                raise BudgetExceededError("daily LLM token cap reached", retry_after=wait)
            self._calls.append(now)
            self._save()

    def record_tokens(self, tokens: int) -> None:
        """Add the tokens a finished call used (input + output)."""
        if tokens <= 0:
            return
        with self._lock:
            now = self._clock()
            self._expire(now)
            self._tokens.append((now, tokens))
            self._token_total += tokens
            self._save()

    def calls_in_last_hour(self) -> int:
        """Calls counted in the current rolling hour."""
        with self._lock:
            self._expire(self._clock())
            return len(self._calls)

    def tokens_in_last_day(self) -> int:
        """Tokens recorded in the current rolling day."""
        with self._lock:
            self._expire(self._clock())
            return self._token_total


def _token_entry(item: object) -> bool:
    return (
        isinstance(item, list)
        and len(item) == 2
        and isinstance(item[0], int | float)
        and isinstance(item[1], int)
        and item[1] > 0
    )
