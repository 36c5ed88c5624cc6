"""Argument checks shared by the MCP tools and the gRPC API: budgets, text, types, tags."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from squirrel_core.budget_limits import validate_budget
from squirrel_core.errors import InvalidArgumentError
from squirrel_core.read_shapes import MEMORY_TYPES, SEARCH_TOP_K_MAX, MemoryTypeName

VIEW_BUDGET_DEFAULT: Final = 256
TASK_BUDGET_DEFAULT: Final = 400
SEARCH_BUDGET_DEFAULT: Final = 400
SEARCH_TOP_K_DEFAULT: Final = 5
MAX_QUERY_CHARS: Final = 2000
MAX_TASK_CHARS: Final = 4000
MAX_MEMORY_CHARS: Final = 4000
MAX_TAGS: Final = 20
MAX_ID_CHARS: Final = 200
MAX_REASON_CHARS: Final = 1000


def budget_for(value: object, alias: object, default: int) -> int:
    """The budget to apply from `context_budget_tokens` and its alias `max_tokens` (None: unset)."""
    if value is not None and alias is not None and value != alias:
        raise InvalidArgumentError(
            "context_budget_tokens and max_tokens are the same setting; send only one of them."
        )
    return validate_budget(
        value if value is not None else alias,
        default,
        name="context_budget_tokens" if value is not None or alias is None else "max_tokens",
    )


def required_text(value: object, field: str, limit: int) -> str:
    """`value` stripped; refused when not a string, empty, holding NUL bytes, or over `limit`."""
    if not isinstance(value, str):
        raise InvalidArgumentError(f"{field} must be a string.")
    text = value.strip()
    if not text:
        raise InvalidArgumentError(f"{field} must not be empty.")
    if "\x00" in text:
        raise InvalidArgumentError(f"{field} must not contain NUL bytes.")
    if len(text) > limit:
        raise InvalidArgumentError(
            f"{field} is {len(text):,} characters; keep it under {limit:,} (a summary is enough)."
        )
    return text


def optional_text(value: str | None, field: str, limit: int) -> str | None:
    """Like `required_text`, but None or blank means absent."""
    if value is None or not value.strip():
        return None
    return required_text(value, field, limit)


def memory_types(values: Sequence[MemoryTypeName] | None) -> tuple[MemoryTypeName, ...]:
    """Requested memory types without repeats, order kept; none means every type."""
    if not values:
        return MEMORY_TYPES
    return tuple(dict.fromkeys(values))


def top_k_for(value: int | None) -> int:
    """The page size of a search: 1 - `SEARCH_TOP_K_MAX`; None or 0 means the default."""
    if value is None or value == 0:
        return SEARCH_TOP_K_DEFAULT
    if isinstance(value, bool) or not 1 <= value <= SEARCH_TOP_K_MAX:
        raise InvalidArgumentError(
            f"top_k must be between 1 and {SEARCH_TOP_K_MAX} (got {value}); page with the cursor"
            " for more results."
        )
    return value


def tag_list(tags: Sequence[str] | None) -> list[str]:
    """Non-blank tags, stripped; at most `MAX_TAGS`."""
    cleaned = [t.strip() for t in (tags or []) if t.strip()]
    if len(cleaned) > MAX_TAGS:
        raise InvalidArgumentError(f"tags may list at most {MAX_TAGS} tags")
    for tag in cleaned:
        required_text(tag, "tags", MAX_ID_CHARS)
    return cleaned
