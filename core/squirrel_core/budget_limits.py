"""What budget a caller may ask for: the limits of `context_budget_tokens` and its check.

Every edge that takes a budget (MCP tools, the gRPC API, the CLI, the UI) checks it here, with
one message that says what to send instead; packing under the budget is `budget`.
"""

from __future__ import annotations

import math

from squirrel_core.errors import InvalidArgumentError

MIN_BUDGET_TOKENS = 48
"""Smallest budget accepted: room for both footers, so a cut response always says it was cut."""

MAX_BUDGET_TOKENS = 32_000
"""Largest budget accepted; anything above is a mistake, not a context size."""


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
