"""The second bounds on what an event keeps, and the shorter form its identity is read from."""

from __future__ import annotations

from typing import Any

from squirrel_core.content_signature import content_signature
from squirrel_core.kept_text import (
    FIRST_INPUT_LIMIT,
    FIRST_TEXT_LIMIT,
    HEAD_KEPT,
    IDENTITY_KEY,
    INPUT_KEPT,
    KEPT_KEY,
    TAIL_KEPT,
    cut_end,
    first_content,
    first_form,
    identity_signature,
    keep_ends,
    marked,
)

LONG = "".join(f"line {n}: the handlers live in src/handlers.\n" for n in range(4_000))


def test_the_first_form_of_a_kept_text_is_what_the_first_bound_kept() -> None:
    whole = LONG[:20_000]
    for kept, limit in (
        (whole, FIRST_TEXT_LIMIT),  # kept whole
        (keep_ends(LONG), FIRST_TEXT_LIMIT),  # head and tail
        (cut_end(LONG, INPUT_KEPT), FIRST_INPUT_LIMIT),  # cut at the end, later
    ):
        source = whole if kept is whole else LONG
        assert first_form(kept, limit) == cut_end(source, limit)
    assert first_form("short", FIRST_INPUT_LIMIT) == "short"


def test_a_text_kept_whole_or_by_its_ends_is_bounded() -> None:
    huge = "x" * 10_000_000 + "Conclusion: done."

    kept = keep_ends(huge)

    assert len(kept) <= HEAD_KEPT + TAIL_KEPT + 40
    assert kept.startswith("x" * HEAD_KEPT) and kept.endswith("Conclusion: done.")
    assert keep_ends(LONG[:24_000]) == LONG[:24_000]


def test_only_content_past_a_first_bound_is_marked_and_known_by_its_first_form() -> None:
    short: dict[str, Any] = {"tool": "Agent", "input": {"prompt": "Explore."}}
    long = marked("tool_call", {"tool": "Agent", "input": {"prompt": LONG[:10_000]}})
    old = {"tool": "Agent", "input": {"prompt": cut_end(LONG[:10_000], FIRST_INPUT_LIMIT)}}

    assert marked("tool_call", short) is short
    assert long[KEPT_KEY] == 2
    assert first_content("tool_call", long) == old
    assert identity_signature("tool_call", long) == content_signature(old)


def test_a_signature_ingest_made_is_the_identity() -> None:
    signed = {"text": LONG[:9_000], KEPT_KEY: 2, IDENTITY_KEY: "a" * 64}
    forged = {"text": LONG[:9_000], KEPT_KEY: 2, IDENTITY_KEY: "not a signature"}

    assert identity_signature("user_message", signed) == "a" * 64
    assert identity_signature("user_message", forged) == content_signature(
        {"text": cut_end(LONG[:9_000], FIRST_TEXT_LIMIT)}
    )


def test_a_text_quoting_an_earlier_cut_is_read_as_text_where_ingest_kept_it() -> None:
    quoted = "The log ended:\n…[truncated 40 chars]"
    long_quote = LONG[:3_000] + "\n…[truncated 40 chars]"

    assert first_form(quoted, FIRST_INPUT_LIMIT) == quoted
    assert first_form(long_quote, FIRST_INPUT_LIMIT, exact=True) == cut_end(
        long_quote, FIRST_INPUT_LIMIT
    )
    content = marked("tool_call", {"tool": "Agent", "input": {"prompt": long_quote}})
    assert first_content("tool_call", content, exact=True) == {
        "tool": "Agent",
        "input": {"prompt": cut_end(long_quote, FIRST_INPUT_LIMIT)},
    }
