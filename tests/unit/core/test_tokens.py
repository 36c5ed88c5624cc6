"""Token estimation and the footers."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from squirrel_core.tokens import (
    CHARS_PER_TOKEN,
    SAFETY_MARGIN,
    estimate_tokens,
    format_budget_footer,
    format_token_footer,
    text_units,
    tokens_for_units,
)


def test_empty_text_costs_nothing() -> None:
    assert estimate_tokens("") == 0


def test_any_non_empty_text_costs_at_least_one_token() -> None:
    assert estimate_tokens("a") == 1


def test_ascii_text_costs_chars_over_four_plus_the_margin_rounded_up() -> None:
    text = "x" * 401
    assert estimate_tokens(text) == math.ceil(401 * (1 + SAFETY_MARGIN) / CHARS_PER_TOKEN)


def test_non_ascii_characters_cost_their_utf8_length() -> None:
    assert text_units("📏") == 4
    assert text_units("é") == 2
    assert estimate_tokens("📏" * 100) == estimate_tokens("x" * 400)


def test_lone_surrogates_do_not_crash_the_estimate() -> None:
    assert estimate_tokens("\ud800abc") > 0


@given(st.text(), st.text())
def test_units_add_up_over_concatenation(a: str, b: str) -> None:
    assert text_units(a + b) == text_units(a) + text_units(b)


@given(st.integers(min_value=0, max_value=10**7))
def test_estimate_grows_with_length(units: int) -> None:
    assert tokens_for_units(units + 1) >= tokens_for_units(units)


def test_token_footer_uses_thousands_separators() -> None:
    assert format_token_footer(1234) == "📏 ~1,234 tokens"
    assert format_token_footer(7) == "📏 ~7 tokens"


def test_budget_footer_reports_use_counts_and_how_to_get_more() -> None:
    footer = format_budget_footer(310, 400, 3, 9, "Raise the budget.")
    assert footer == "⚡ Budget: ~310/400 tokens used. 3 of 9 items shown. Raise the budget."


def test_budget_footer_without_hint_ends_after_the_counts() -> None:
    assert format_budget_footer(1200, 4000, 0, 2, "  ") == (
        "⚡ Budget: ~1,200/4,000 tokens used. 0 of 2 items shown."
    )
