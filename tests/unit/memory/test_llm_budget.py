"""The LLM spending caps: calls per rolling hour, tokens per rolling day, injectable clock."""

from __future__ import annotations

from pathlib import Path

import pytest

from squirrel_memory.extractors.base import RetryableExtractionError
from squirrel_memory.llm.spending import BudgetExceededError, LlmBudget


class Clock:
    def __init__(self) -> None:
        self.now = 10_000.0

    def __call__(self) -> float:
        return self.now


def test_calls_over_the_hourly_cap_are_refused_until_the_hour_rolls() -> None:
    clock = Clock()
    budget = LlmBudget(calls_per_hour=2, tokens_per_day=10_000, clock=clock)
    budget.reserve()
    clock.now += 600
    budget.reserve()

    with pytest.raises(BudgetExceededError) as caught:
        budget.reserve()

    assert isinstance(caught.value, RetryableExtractionError)
    assert caught.value.retry_after == pytest.approx(3000)
    clock.now += 3000
    budget.reserve()
    assert budget.calls_in_last_hour() == 2


def test_tokens_over_the_daily_cap_are_refused_until_the_day_rolls() -> None:
    clock = Clock()
    budget = LlmBudget(calls_per_hour=100, tokens_per_day=1_000, clock=clock)
    budget.reserve(estimated_tokens=400)
    budget.record_tokens(700)

    with pytest.raises(BudgetExceededError):
        budget.reserve(estimated_tokens=400)

    budget.reserve(estimated_tokens=300)
    clock.now += 86_400
    assert budget.tokens_in_last_day() == 0
    budget.reserve(estimated_tokens=1_000)


def test_zero_caps_allow_nothing_and_negative_caps_are_rejected() -> None:
    with pytest.raises(BudgetExceededError):
        LlmBudget(calls_per_hour=0, tokens_per_day=100).reserve()
    with pytest.raises(ValueError):
        LlmBudget(calls_per_hour=-1, tokens_per_day=100)


def test_non_positive_token_reports_are_ignored() -> None:
    budget = LlmBudget(calls_per_hour=1, tokens_per_day=100, clock=Clock())
    budget.record_tokens(0)
    budget.record_tokens(-50)

    assert budget.tokens_in_last_day() == 0


def test_the_caps_survive_a_restart(tmp_path: Path) -> None:
    clock = Clock()
    ledger = tmp_path / "run" / "llm-spending-extractor.json"
    first = LlmBudget(calls_per_hour=2, tokens_per_day=1_000, clock=clock, ledger=ledger)
    first.reserve()
    first.record_tokens(900)
    first.reserve()
    assert ledger.stat().st_mode & 0o777 == 0o600
    clock.now += 60
    again = LlmBudget(calls_per_hour=2, tokens_per_day=1_000, clock=clock, ledger=ledger)
    assert again.calls_in_last_hour() == 2 and again.tokens_in_last_day() == 900
    with pytest.raises(BudgetExceededError):
        again.reserve()
    clock.now += 3600
    later = LlmBudget(calls_per_hour=2, tokens_per_day=1_000, clock=clock, ledger=ledger)
    assert later.calls_in_last_hour() == 0 and later.tokens_in_last_day() == 900


def test_a_damaged_ledger_reads_as_empty(tmp_path: Path) -> None:
    ledger = tmp_path / "llm-spending-extractor.json"
    ledger.write_text('{"calls": [1, "x"], "tokens": [[1]]')
    budget = LlmBudget(calls_per_hour=2, tokens_per_day=1_000, clock=Clock(), ledger=ledger)
    assert budget.calls_in_last_hour() == 0
