"""Budget packing: whole items, best first, into a text whose estimate stays within the budget."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from squirrel_core.errors import InvalidArgumentError
from squirrel_core.tokens import (
    estimate_tokens,
    format_budget_footer,
    format_token_footer,
    text_units,
    tokens_for_units,
)

T = TypeVar("T")

MIN_BUDGET_TOKENS = 48
"""Smallest budget accepted: room for both footers, so a cut response always says it was cut."""

MAX_BUDGET_TOKENS = 32_000
"""Largest budget accepted; anything above is a mistake, not a context size."""

_ITEM_SEPARATOR = "\n"
_FOOTER_SEPARATOR = "\n\n"


@dataclass(frozen=True, slots=True)
class Packed(Generic[T]):
    """The packed response: its text, the items it shows (a prefix of the input) and its cost.

    `capped` is True when the budget, not the supply of items, decided where the list ends.
    `token_estimate` is an upper bound on `estimate_tokens(text)` and is what the footer reports.
    """

    text: str
    shown: tuple[T, ...]
    total: int
    token_estimate: int
    capped: bool


def validate_budget(
    value: object,
    default: int,
    maximum: int = MAX_BUDGET_TOKENS,
    *,
    minimum: int = MIN_BUDGET_TOKENS,
    name: str = "context_budget_tokens",
) -> int:
    """The budget to use: `default` when `value` is None, else `value` if it is a sane integer.

    Rejects booleans, strings, non-integral or non-finite numbers, values ≤ 0, values below
    `minimum` (too small to hold even the token footer) and values above `maximum`, raising
    `InvalidArgumentError` with a message that says what to send instead.
    """
    if value is None:
        return default
    number: int
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidArgumentError(
            f"{name} must be a whole number of tokens between {minimum} and {maximum}"
            f" (got a {type(value).__name__}); omit it to use the default of {default}."
        )
    if isinstance(value, float):
        if not math.isfinite(value) or not value.is_integer():
            raise InvalidArgumentError(
                f"{name} must be a whole number of tokens between {minimum} and {maximum};"
                f" omit it to use the default of {default}."
            )
        number = int(value)
    else:
        number = value
    if number <= 0:
        raise InvalidArgumentError(
            f"{name} must be positive; send a number of tokens between {minimum} and {maximum}"
            f" or omit it to use the default of {default}."
        )
    if number < minimum:
        raise InvalidArgumentError(
            f"{name} must be at least {minimum} tokens (a smaller response cannot carry its"
            f" footer); the default is {default}."
        )
    if number > maximum:
        raise InvalidArgumentError(
            f"{name} must be at most {maximum:,} tokens; the default is {default}."
        )
    return number


def pack(
    items: Sequence[T],
    render_item: Callable[[T], str],
    budget: int,
    header: str,
    *,
    total: int | None = None,
    how_to_get_more: str | Callable[[int], str] = "",
) -> Packed[T]:
    """Pack whole items, in the order given (best first), under `header` within `budget` tokens.

    Layout: the header, one rendered item per line, a blank line, then — when fewer than `total`
    items are shown — the budget footer, and always the token footer last. Items are added until
    the next one would push the estimate of the FINAL text (footers included) over the budget;
    there are no half items, and an item too big for the room left ends the list.

    `total` is how many items exist in all (for a page of search results it may exceed
    `len(items)`); it defaults to `len(items)`. `how_to_get_more` tells the reader how to see
    the rest (a continuation cursor, a bigger budget) and is shown in the budget footer; pass a
    function of the number of items shown when the hint depends on it (a cursor does).

    When even the header and the footers do not fit, the response degrades in steps: drop the
    header, then the hint. The budget footer without a hint plus the token footer is the
    smallest valid response, and it fits any budget of at least `MIN_BUDGET_TOKENS`. Below
    that (budgets `validate_budget` refuses) the token footer alone is returned, over budget
    if it must be.
    """
    if budget < 1:
        raise InvalidArgumentError("a budget must be at least 1 token")
    count_all = len(items) if total is None else max(total, len(items))

    header_units = text_units(header)
    rendered: list[str] = []
    kept = 0
    units = header_units

    def hint_for(shown: int) -> str:
        return how_to_get_more(shown) if callable(how_to_get_more) else how_to_get_more

    def fits(body_units: int, shown: int, hint: str | None = None) -> bool:
        more = shown < count_all
        text = hint_for(shown) if hint is None else hint
        return (
            _settle(body_units, more=more, budget=budget, shown=shown, total=count_all, hint=text)
            <= budget
        )

    # Common case first: everything fits.
    all_rendered = [render_item(item) for item in items]
    all_units = header_units + sum(
        text_units(_ITEM_SEPARATOR) * (1 if header or i else 0) + text_units(piece)
        for i, piece in enumerate(all_rendered)
    )
    if fits(all_units, len(items)):
        rendered = all_rendered
        kept = len(items)
        units = all_units
    else:
        for i, piece in enumerate(all_rendered):
            sep = text_units(_ITEM_SEPARATOR) if (header or i) else 0
            candidate = units + sep + text_units(piece)
            if not fits(candidate, i + 1):
                break
            rendered.append(piece)
            units = candidate
            kept = i + 1

    if kept > 0 or fits(header_units, 0):
        body = _ITEM_SEPARATOR.join(([header] if header else []) + rendered)
        return _finish(
            body, items[:kept], count_all, budget, hint_for(kept), capped=kept < len(items)
        )

    # Degrade: no header; then no hint; then the token footer alone.
    for hint in (hint_for(0), ""):
        if fits(0, 0, hint):
            return _finish("", items[:0], count_all, budget, hint, capped=len(items) > 0)
    footer_only = _footer_only()
    return Packed(
        text=footer_only[0],
        shown=(),
        total=count_all,
        token_estimate=footer_only[1],
        capped=len(items) > 0,
    )


def _tail(n: int, *, more: bool, budget: int, shown: int, total: int, hint: str) -> str:
    footer = format_token_footer(n)
    if more:
        return format_budget_footer(n, budget, shown, total, hint) + "\n" + footer
    return footer


def _settle(body_units: int, *, more: bool, budget: int, shown: int, total: int, hint: str) -> int:
    """Smallest n (found by iteration) that is ≥ the estimate of body + footers reporting n."""
    separator = text_units(_FOOTER_SEPARATOR) if body_units else 0
    n = tokens_for_units(body_units)
    for _ in range(16):
        tail_units = text_units(
            _tail(n, more=more, budget=budget, shown=shown, total=total, hint=hint)
        )
        needed = tokens_for_units(body_units + separator + tail_units)
        if needed <= n:
            return n
        n = needed
    return n  # pragma: no cover - footers grow by digits only, so the loop settles in a few steps


def _finish(
    body: str, shown: Sequence[T], total: int, budget: int, hint: str, *, capped: bool
) -> Packed[T]:
    more = len(shown) < total
    n = _settle(
        text_units(body), more=more, budget=budget, shown=len(shown), total=total, hint=hint
    )
    tail = _tail(n, more=more, budget=budget, shown=len(shown), total=total, hint=hint)
    text = f"{body}{_FOOTER_SEPARATOR}{tail}" if body else tail
    return Packed(text=text, shown=tuple(shown), total=total, token_estimate=n, capped=capped)


def _footer_only() -> tuple[str, int]:
    n = 1
    for _ in range(16):
        needed = estimate_tokens(format_token_footer(n))
        if needed <= n:
            break
        n = needed
    return format_token_footer(n), n
