"""Budget packing: items, best first, shaped so the text's estimate stays within the budget."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from enum import IntEnum
from typing import Final, Generic, TypeVar

from squirrel_core.errors import InvalidArgumentError
from squirrel_core.tokens import (
    estimate_tokens,
    format_budget_footer,
    format_token_footer,
    text_units,
    tokens_for_units,
)

T = TypeVar("T")

_ITEM_SEPARATOR = "\n"
_FOOTER_SEPARATOR = "\n\n"


@dataclass(frozen=True, slots=True)
class Packed(Generic[T]):
    """The packed response: its text, the items it shows (a prefix of the input) and its cost.

    `capped` is True when the budget, not the supply of items, decided where the list ends.
    `cuts` names what the budget shortened in the items shown (e.g. "file lists dropped").
    `token_estimate` is an upper bound on `estimate_tokens(text)` and is what the footer reports.
    """

    text: str
    shown: tuple[T, ...]
    total: int
    token_estimate: int
    capped: bool
    cuts: tuple[str, ...] = ()


class Detail(IntEnum):
    """How fully an item is rendered; each step keeps less (a budget moves down them in turn)."""

    FULL = 0
    NO_FILES = 1
    """File lists (and other source lists) dropped."""
    SHORT_REASONS = 2
    """Reasons shortened with "…" as well."""
    SHORT_CONTENT = 3
    """The content shortened with "…" as well."""


CUT_NAMES: Final = {
    Detail.NO_FILES: "file lists dropped",
    Detail.SHORT_REASONS: "reasons shortened",
    Detail.SHORT_CONTENT: "content shortened",
}
"""What the budget footer says each step cut."""

SHORT_REASON_CHARS: Final = 60
"""A reason at `Detail.SHORT_REASONS` keeps at most this many characters."""

SHORT_CONTENT_CHARS: Final = 140
"""Content at `Detail.SHORT_CONTENT` keeps at least this many characters (more when the items
shown leave room: see `short_content_chars`)."""

_WIDEST_CONTENT: Final = 4000
_CONTENT_CHARS: ContextVar[int] = ContextVar("content_chars", default=SHORT_CONTENT_CHARS)


def short_content_chars() -> int:
    """How many characters content keeps at `Detail.SHORT_CONTENT` in the packing under way.

    Renderers call it when they shorten content. `pack` starts at `SHORT_CONTENT_CHARS` and,
    once it knows how many items it shows, widens it while they still fit, so shortened items
    use the room the budget leaves instead of stopping at a fixed length.
    """
    return _CONTENT_CHARS.get()


_MIN_KEPT_CHARS = 12
"""A forced item keeps at least this much of its line, or it is not worth showing."""

ELLIPSIS: Final = "…"


def shorten(text: str, limit: int) -> str:
    """`text` cut to at most `limit` characters (ellipsis included), at a word break when one
    is near, ending with "…"; unchanged when it is short enough."""
    if len(text) <= limit:
        return text
    if limit <= len(ELLIPSIS):
        return ELLIPSIS[:limit]
    cut = text[: limit - len(ELLIPSIS)]
    space = cut.rfind(" ")
    if space >= len(cut) * 2 // 3:
        cut = cut[:space]
    return cut.rstrip(" ,;:-—") + ELLIPSIS


def longest_cut(line: str, fits: Callable[[str], bool]) -> str | None:
    """The longest `shorten(line, n)` that `fits`, or None when even a short stub does not."""
    lo, hi = 0, len(line)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if fits(shorten(line, mid)) else (lo, mid - 1)
    if lo < min(len(line), _MIN_KEPT_CHARS) or not fits(shorten(line, lo)):
        return None
    return shorten(line, lo)


def pack(
    items: Sequence[T],
    render_item: Callable[[T, Detail], str],
    budget: int,
    header: str,
    *,
    total: int | None = None,
    how_to_get_more: str | Callable[[int], str] = "",
) -> Packed[T]:
    """Pack items, in the order given (best first), under `header` within `budget` tokens.

    Layout: the header, one rendered item per line, a blank line, then — when items were left
    out or shortened — the budget footer, and always the token footer last.

    A budget shapes the answer, never blanks it. All items at `Detail.FULL` when they fit;
    otherwise every item one step leaner (file lists dropped, then reasons shortened, then
    content shortened with "…"), and only then fewer items: the most items that fit at any
    step, at the fullest step that holds that many. `render_item(item, detail)` renders an
    item at a step (returning the same line where a step changes nothing). When items exist
    at least one is shown — if need be without the header and the hint, its line cut to the
    room left — for any budget of at least `budget_limits.MIN_BUDGET_TOKENS`. The budget footer
    says how many items are shown of how many and what was cut.

    `total` is how many items exist in all (for a page of search results it may exceed
    `len(items)`); it defaults to `len(items)`. `how_to_get_more` tells the reader how to see
    the rest (a continuation cursor, a bigger budget) and is shown in the budget footer; pass a
    function of the number of items shown when the hint depends on it (a cursor does).
    """
    if budget < 1:
        raise InvalidArgumentError("a budget must be at least 1 token")
    count_all = len(items) if total is None else max(total, len(items))
    shaper = _Shaper(items, render_item, budget, count_all, how_to_get_more)

    best: tuple[Detail, int] | None = None
    for detail in Detail:
        kept = shaper.fit_count(header, detail)
        if best is None or kept > best[1]:
            best = (detail, kept)
        if kept == len(items):
            break
    assert best is not None
    detail, kept = best
    if kept > 0 and detail is Detail.SHORT_CONTENT:
        return shaper.widened(header, kept)
    if kept > 0 or not items:
        if kept > 0 or shaper.fits(text_units(header), 0, cut="", hint=None):
            return shaper.finish(header, detail, kept)
    else:
        forced = shaper.force_one(header)
        if forced is not None:
            return forced

    # Nothing fits beside the footers: no header; then no hint; then the token footer alone.
    for hint in (shaper.hint(0), ""):
        if shaper.fits(0, 0, cut="", hint=hint):
            return _finish("", items[:0], count_all, budget, hint, cut="", capped=len(items) > 0)
    footer_only = _footer_only()
    return Packed(
        text=footer_only[0],
        shown=(),
        total=count_all,
        token_estimate=footer_only[1],
        capped=len(items) > 0,
    )


class _Shaper(Generic[T]):
    """The renderings of items at each step, and what fits of them in one budget."""

    def __init__(
        self,
        items: Sequence[T],
        render: Callable[[T, Detail], str],
        budget: int,
        total: int,
        how_to_get_more: str | Callable[[int], str],
    ) -> None:
        self.items = items
        self._render = render
        self.budget = budget
        self.total = total
        self._how = how_to_get_more
        self._pieces: dict[Detail, list[str]] = {}

    def hint(self, shown: int) -> str:
        return self._how(shown) if callable(self._how) else self._how

    def pieces(self, detail: Detail) -> list[str]:
        if detail not in self._pieces:
            self._pieces[detail] = [self._render(item, detail) for item in self.items]
        return self._pieces[detail]

    def cuts(self, detail: Detail, shown: int) -> str:
        """What rendering the first `shown` items at `detail` cut, for the budget footer."""
        names: list[str] = []
        for step in Detail:
            if 0 < step <= detail:
                before, after = self.pieces(Detail(step - 1)), self.pieces(step)
                if any(before[i] != after[i] for i in range(shown)):
                    names.append(CUT_NAMES[step])
        return ", ".join(names)

    def fits(self, body_units: int, shown: int, *, cut: str, hint: str | None) -> bool:
        text = self.hint(shown) if hint is None else hint
        more = shown < self.total or bool(cut)
        needed = _settle(
            body_units,
            more=more,
            budget=self.budget,
            shown=shown,
            total=self.total,
            hint=text,
            cut=cut,
        )
        return needed <= self.budget

    def fit_count(self, header: str, detail: Detail) -> int:
        """How many items, from the first, fit at `detail` (footers included)."""
        pieces = self.pieces(detail)
        cut = self.cuts(detail, len(pieces))  # the longest the footer's note can be
        units = text_units(header)
        sep = text_units(_ITEM_SEPARATOR)
        all_units = units + sum(
            sep * (1 if header or i else 0) + text_units(p) for i, p in enumerate(pieces)
        )
        if self.fits(all_units, len(pieces), cut=cut, hint=None):
            return len(pieces)
        kept = 0
        for i, piece in enumerate(pieces):
            candidate = units + (sep if header or i else 0) + text_units(piece)
            if not self.fits(candidate, i + 1, cut=cut, hint=None):
                break
            units, kept = candidate, i + 1
        return kept

    def finish(self, header: str, detail: Detail, kept: int) -> Packed[T]:
        rendered = self.pieces(detail)[:kept] if kept else []
        body = _ITEM_SEPARATOR.join(([header] if header else []) + rendered)
        return _finish(
            body,
            self.items[:kept],
            self.total,
            self.budget,
            self.hint(kept),
            cut=self.cuts(detail, kept),
            capped=kept < len(self.items),
        )

    def widened(self, header: str, kept: int) -> Packed[T]:
        """The first `kept` items at `Detail.SHORT_CONTENT`, their content as long as fits."""
        shown = self.items[:kept]
        cut = self.cuts(Detail.SHORT_CONTENT, kept)
        sep = text_units(_ITEM_SEPARATOR)

        def rendered(limit: int) -> list[str]:
            token = _CONTENT_CHARS.set(limit)
            try:
                return [self._render(item, Detail.SHORT_CONTENT) for item in shown]
            finally:
                _CONTENT_CHARS.reset(token)

        def fits(pieces: list[str]) -> bool:
            units = text_units(header) + sum(
                sep * (1 if header or i else 0) + text_units(p) for i, p in enumerate(pieces)
            )
            return self.fits(units, kept, cut=cut, hint=None)

        best = self.pieces(Detail.SHORT_CONTENT)[:kept]
        lo, hi = SHORT_CONTENT_CHARS, _WIDEST_CONTENT
        while lo < hi:  # the widest content that still fits (fits shrinks as the limit grows)
            mid = (lo + hi + 1) // 2
            pieces = rendered(mid)
            if fits(pieces):
                lo, best = mid, pieces
            else:
                hi = mid - 1
        body = _ITEM_SEPARATOR.join(([header] if header else []) + best)
        return _finish(
            body,
            shown,
            self.total,
            self.budget,
            self.hint(kept),
            cut=cut,
            capped=kept < len(self.items),
        )

    def force_one(self, header: str) -> Packed[T] | None:
        """The first item alone, its leanest line cut further to the room left: with the header
        and hint if they leave room, else without them, and with the footer's note of what was
        cut shortened to "shortened" at the very least; None if not even that fits."""
        line = self.pieces(Detail.SHORT_CONTENT)[0]
        cut = self.cuts(Detail.SHORT_CONTENT, 1)
        content = CUT_NAMES[Detail.SHORT_CONTENT]
        widest = cut if content in cut else ", ".join(c for c in (cut, content) if c)
        attempts = [
            (head, hint, note)
            for head, hint in ((header, self.hint(1)), ("", self.hint(1)), ("", ""))
            for note in (widest, "shortened")
        ]
        for head, hint, note in attempts:
            prefix = text_units(head) + (text_units(_ITEM_SEPARATOR) if head else 0)

            def fits(piece: str, prefix: int = prefix, hint: str = hint, note: str = note) -> bool:
                return self.fits(prefix + text_units(piece), 1, cut=note, hint=hint)

            shown = longest_cut(line, fits)
            if shown is None:
                continue
            said = cut if note == widest and shown == line else note  # what was cut, no more
            body = _ITEM_SEPARATOR.join([*([head] if head else []), shown])
            return _finish(
                body,
                self.items[:1],
                self.total,
                self.budget,
                hint,
                cut=said,
                capped=len(self.items) > 1,
            )
        return None


def _tail(
    n: int, *, more: bool, budget: int, shown: int, total: int, hint: str, cut: str = ""
) -> str:
    footer = format_token_footer(n)
    if more:
        return format_budget_footer(n, budget, shown, total, hint, cut=cut) + "\n" + footer
    return footer


def _settle(
    body_units: int,
    *,
    more: bool,
    budget: int,
    shown: int,
    total: int,
    hint: str,
    cut: str = "",
) -> int:
    """Smallest n (found by iteration) that is ≥ the estimate of body + footers reporting n."""
    separator = text_units(_FOOTER_SEPARATOR) if body_units else 0
    n = tokens_for_units(body_units)
    for _ in range(16):
        tail_units = text_units(
            _tail(n, more=more, budget=budget, shown=shown, total=total, hint=hint, cut=cut)
        )
        needed = tokens_for_units(body_units + separator + tail_units)
        if needed <= n:
            return n
        n = needed
    return n  # pragma: no cover - footers grow by digits only, so the loop settles in a few steps


def _finish(
    body: str,
    shown: Sequence[T],
    total: int,
    budget: int,
    hint: str,
    *,
    cut: str,
    capped: bool,
) -> Packed[T]:
    more = len(shown) < total or bool(cut)
    n = _settle(
        text_units(body),
        more=more,
        budget=budget,
        shown=len(shown),
        total=total,
        hint=hint,
        cut=cut,
    )
    tail = _tail(n, more=more, budget=budget, shown=len(shown), total=total, hint=hint, cut=cut)
    text = f"{body}{_FOOTER_SEPARATOR}{tail}" if body else tail
    return Packed(
        text=text,
        shown=tuple(shown),
        total=total,
        token_estimate=n,
        capped=capped,
        cuts=tuple(c for c in cut.split(", ") if c),
    )


def _footer_only() -> tuple[str, int]:
    n = 1
    for _ in range(16):
        needed = estimate_tokens(format_token_footer(n))
        if needed <= n:
            break
        n = needed
    return format_token_footer(n), n
