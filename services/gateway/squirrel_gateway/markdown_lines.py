"""One markdown line per memory in a gateway answer, shortened as its budget's detail says.

The MCP tools, the gRPC API (`responses.py`) and the hooks' context (`hook_context.py`) render
their memories with these, so a memory reads the same wherever it is shown; a flagged memory's
line carries its ⚠ mark (`squirrel_core.hazards`), and a memory from the team's memory its
"(team: alice)" mark (`team_mark`, naming the teammate who contributed it when known). Both are
in the line, so a budget counts their tokens.
"""

from __future__ import annotations

from collections.abc import Sequence

from squirrel_core.budget import SHORT_REASON_CHARS, Detail, short_content_chars, shorten
from squirrel_core.budget_limits import MAX_BUDGET_TOKENS
from squirrel_core.hazards import describe, flags_of
from squirrel_core.read_shapes import team_mark_text
from squirrel_gateway.schemas import (
    ModuleSummary,
    PitfallItem,
    SearchResult,
    SelectedMemory,
    UserStyleItem,
)


def raise_budget_hint(budget: int) -> str:
    """How to see the items a view's budget left out."""
    if budget >= MAX_BUDGET_TOKENS:
        return "The rest do not fit in the largest budget; use search_project_memory for them."
    bigger = min(MAX_BUDGET_TOKENS, budget * 2)
    return f"Call again with context_budget_tokens={bigger} to see more."


def one_line(text: str) -> str:
    return " ".join(text.split())


def _content(text: str, detail: Detail) -> str:
    flat = one_line(text)
    return shorten(flat, short_content_chars()) if detail >= Detail.SHORT_CONTENT else flat


def _reason(text: str, detail: Detail) -> str:
    flat = one_line(text)
    return shorten(flat, SHORT_REASON_CHARS) if detail >= Detail.SHORT_REASONS else flat


def _files(paths: Sequence[str], detail: Detail) -> str:
    if detail >= Detail.NO_FILES:
        return ""
    return ", ".join(f"`{one_line(p)}`" for p in paths)


def flag_mark(content: str) -> str:
    """` ⚠ <hazards>` for flagged memory text (`squirrel_core.hazards`), else nothing."""
    flags = flags_of(content)
    return f" ⚠ flagged: {describe(flags)}" if flags else ""


def team_mark(from_team: bool, contributor: str = "") -> str:
    """`(team: alice) ` for a memory from the team's memory (a joined laptop's merged answer),
    naming the teammate who contributed it when the team server said (`(team) ` when not)."""
    mark = team_mark_text(from_team, contributor)
    return f"{mark} " if mark else ""


def render_selected(memory: SelectedMemory, detail: Detail = Detail.FULL) -> str:
    text = _content(memory.content, detail)
    mark = team_mark(memory.from_team, memory.contributor)
    line = f"- [{memory.type}] {mark}{text}{flag_mark(memory.content)}"
    reason = _reason(memory.reason, detail)
    line = f"{line} — why: {reason}" if reason else line
    refs = _files(memory.source_refs, detail)
    return f"{line} Source: {refs}" if refs else line


def render_style(item: UserStyleItem, detail: Detail = Detail.FULL) -> str:
    return f"- {team_mark(item.from_team)}{_content(item.summary, detail)}{flag_mark(item.summary)}"


def render_brief(entry: str | ModuleSummary, detail: Detail = Detail.FULL, mark: str = "") -> str:
    """A key fact or module of the brief; `mark` is a team fact's `team_mark`."""
    if isinstance(entry, str):
        return f"- {mark}{_content(entry, detail)}{flag_mark(entry)}"
    paths = _files(entry.paths, detail)
    where = f" ({paths})" if paths else ""
    return f"- Module **{one_line(entry.name)}**{where}: {_content(entry.summary, detail)}"


def render_pitfall(item: PitfallItem, detail: Detail = Detail.FULL) -> str:
    files = _files(item.file_paths, detail)
    line = f"- {team_mark(item.from_team, item.contributor)}{_content(item.content, detail)}"
    return line + (f" (in {files})" if files else "") + flag_mark(item.content)


def render_search_result(result: SearchResult, detail: Detail = Detail.FULL) -> str:
    line = (
        f"- [{result.type}] {team_mark(result.from_team, result.contributor)}"
        f"{_content(result.content, detail)}"
        f" (score {result.score:.2f},"
        f" {result.memory_id}){flag_mark(result.content)}"
    )
    reason = _reason(result.reason, detail)
    if reason:
        line += f" — {reason}"
    files = _files(result.source.file_paths, detail)
    if files:
        line += f" Files: {files}"
    refs = _files(result.source.source_refs, detail)
    if refs:
        line += f" Source: {refs}"
    return line
