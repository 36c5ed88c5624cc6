"""What the views are: their names, staleness rules, item caps and the values they return."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Literal

from squirrel_memory.llm.read_prompts import WrittenBy

ViewMode = Literal["core", "full"]


class ViewName(StrEnum):
    """The spec's views."""

    USER_STYLE = "user_style"
    PROJECT_BRIEF = "project_brief"
    PITFALLS = "pitfalls"


@dataclass(frozen=True, slots=True)
class StaleRule:
    """A view is stale after `ttl_seconds`, or once `max_new_events` arrived since it was built."""

    ttl_seconds: int
    max_new_events: int


STALE_RULES: dict[ViewName, StaleRule] = {
    ViewName.USER_STYLE: StaleRule(3600, 200),
    ViewName.PROJECT_BRIEF: StaleRule(600, 100),
    ViewName.PITFALLS: StaleRule(600, 50),
}
# (core, full) item caps
STYLE_ITEMS = (5, 20)
FACT_ITEMS = (5, 15)
MODULE_ITEMS = (3, 8)
PITFALL_ITEMS = 10


@dataclass(frozen=True, slots=True)
class BudgetReport:
    """What the budget did to a view."""

    budget_tokens: int
    token_estimate: int
    items_shown: int
    items_total: int
    capped: bool


@dataclass(frozen=True, slots=True)
class StyleItem:
    """One normalised coding-style preference (spec §5.2 `items[]`)."""

    key: str
    summary: str
    tags: tuple[str, ...]
    importance: float
    last_updated_at: datetime
    source_memory_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class UserStyleView:
    """Spec §5.2 `UserStyleView`."""

    mode: ViewMode
    project_id: str
    user_id: str | None
    generated_at: datetime
    token_estimate: int
    items: tuple[StyleItem, ...]
    markdown: str
    budget: BudgetReport
    type: str = "user_style_view"
    written_by: WrittenBy = WrittenBy.RULES


@dataclass(frozen=True, slots=True)
class ModuleSummary:
    """One module of the project brief."""

    name: str
    paths: tuple[str, ...]
    summary: str
    memory_id: str = ""
    """The memory the module line was rendered from."""


@dataclass(frozen=True, slots=True)
class ProjectBriefView:
    """Spec §5.3 `ProjectBriefView`."""

    mode: ViewMode
    project_id: str
    generated_at: datetime
    token_estimate: int
    modules: tuple[ModuleSummary, ...]
    key_facts: tuple[str, ...]
    markdown: str
    budget: BudgetReport
    type: str = "project_brief_view"
    written_by: WrittenBy = WrittenBy.RULES
    key_fact_ids: tuple[str, ...] = ()
    """The memory each of `key_facts` was rendered from, in the same order."""


@dataclass(frozen=True, slots=True)
class PitfallItem:
    """One known trap (spec §5.4 `items[]`)."""

    key: str
    content: str
    tags: tuple[str, ...]
    importance: float
    file_paths: tuple[str, ...]
    memory_id: str


@dataclass(frozen=True, slots=True)
class PitfallsView:
    """Spec §5.4 `PitfallsView`."""

    project_id: str
    generated_at: datetime
    token_estimate: int
    has_relevant_pitfalls: bool
    items: tuple[PitfallItem, ...]
    markdown: str
    budget: BudgetReport
    type: str = "pitfalls_view"
    written_by: WrittenBy = WrittenBy.RULES
