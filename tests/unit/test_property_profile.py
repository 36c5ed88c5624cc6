"""Property tests run under one Hypothesis profile (tests/conftest.py): no clocks, same draws."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


def test_the_profile_has_no_clock_and_draws_the_same_examples_each_run() -> None:
    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check
    assert settings.default.derandomize


seen: list[list[int]] = []


@given(st.lists(st.integers()))
def _record(values: list[int]) -> None:
    seen.append(values)


def test_two_runs_of_a_property_see_the_same_examples() -> None:
    _record()
    first = list(seen)
    seen.clear()
    _record()
    assert seen == first and len(first) > 1
