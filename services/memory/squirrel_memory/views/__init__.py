"""The spec's views (user_style, project_brief, pitfalls): built from memories, cached, kept fresh.

A view is rebuilt when it is stale by the spec's rules (older than its TTL, or enough new events
since it was built), when the memories it is built from changed (any add, update or delete
resets its `view_meta` at once, and a stamp of those memories is checked on every read, so even
a change made by another process is never served stale), or when the cached copy does not fit
the requested budget. Cached copies live in `view_meta` and `<repo>/.ctx/views/<name>.json`.
Markdown is built deterministically; every list shows the most useful memories first
(importance, then evidence and recency: `view_order.py`), and the brief leads with what the
project is and its stack.

With an `LlmWriter` (an Anthropic key configured), Claude writes a normalised summary per item
and the markdown when a view is rebuilt (spec §5.2), so a cached view costs no call. Its
markdown is kept only when its estimate fits the budget; otherwise the lines are packed here
from its summaries. Pitfall items keep their stored content (summaries only shape the markdown).
On any failure of the call the deterministic view stands; `written_by` says who wrote it.
"""

from squirrel_memory.views.blocks import brief_modules, key_fact, merge_style
from squirrel_memory.views.builder import DEFAULT_BUDGET_TOKENS, GlobalStyleSource, Views
from squirrel_memory.views.cache import ViewStore
from squirrel_memory.views.models import (
    STALE_RULES,
    BudgetReport,
    ModuleSummary,
    PitfallItem,
    PitfallsView,
    ProjectBriefView,
    StaleRule,
    StyleItem,
    UserStyleView,
    ViewMode,
    ViewName,
)

__all__ = [
    "DEFAULT_BUDGET_TOKENS",
    "STALE_RULES",
    "BudgetReport",
    "GlobalStyleSource",
    "ModuleSummary",
    "PitfallItem",
    "PitfallsView",
    "ProjectBriefView",
    "StaleRule",
    "StyleItem",
    "UserStyleView",
    "ViewMode",
    "ViewName",
    "ViewStore",
    "Views",
    "brief_modules",
    "key_fact",
    "merge_style",
]
