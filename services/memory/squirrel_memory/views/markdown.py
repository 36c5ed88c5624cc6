"""A view's markdown: its lines, packed within the token budget, and what the budget did."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from squirrel_core.budget import longest_cut
from squirrel_core.tokens import estimate_tokens
from squirrel_memory.llm.read_prompts import WrittenBy
from squirrel_memory.views.models import BudgetReport, ModuleSummary, PitfallItem

if TYPE_CHECKING:
    from squirrel_memory.llm.read_writer import ViewDraft


def one_line(text: str) -> str:
    return " ".join(text.split())


def module_line(module: ModuleSummary) -> str:
    paths = ", ".join(f"`{p}`" for p in module.paths[:3])
    where = f" ({paths})" if paths else ""
    return f"- Module **{one_line(module.name)}**{where}: {module.summary}"


def file_list(paths: Sequence[str]) -> str:
    return ", ".join(f"`{p}`" for p in paths[:3])


def pitfall_line(item: PitfallItem, summary: str | None = None) -> str:
    files = file_list(item.file_paths)
    return f"- {one_line(summary or item.content)}" + (f" (in {files})" if files else "")


def written(draft: ViewDraft | None, budget: int, items: int) -> tuple[str, int] | None:
    """Claude's markdown showing all `items`, when there is one and its estimate fits."""
    if draft is None or not draft.markdown or estimate_tokens(draft.markdown) > budget:
        return None
    return draft.markdown, items


def author(draft: ViewDraft | None) -> WrittenBy:
    return WrittenBy.RULES if draft is None else WrittenBy.LLM


def pack(header: str, lines: Sequence[str], budget: int, empty: str) -> tuple[str, int]:
    """Header plus whole lines while the estimate stays within `budget` (at least the first,
    shortened with "…" if it must be); (markdown, shown)."""
    if not lines:
        return f"{header}\n\n{empty}", 0
    text = f"{header}\n"
    shown = 0
    for line in lines:
        candidate = f"{text}\n{line}"
        if estimate_tokens(candidate) > budget:
            break
        text, shown = candidate, shown + 1
    if shown == 0:  # a budget shapes a view, never blanks it: the first line, shortened
        cut = longest_cut(lines[0], lambda piece: estimate_tokens(f"{text}\n{piece}") <= budget)
        if cut is not None:
            return f"{text}\n{cut}", 1
    return text, shown


def report(budget: int, markdown: str, shown: int, total: int) -> BudgetReport:
    return BudgetReport(budget, estimate_tokens(markdown), shown, total, shown < total)
