"""Cached views to JSON and back; a damaged cache decodes to None and is rebuilt."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

import structlog

from squirrel_core.errors import InvalidArgumentError
from squirrel_memory.llm.read_prompts import WrittenBy
from squirrel_memory.views.arguments import checked_mode
from squirrel_memory.views.models import (
    BudgetReport,
    ModuleSummary,
    PitfallItem,
    PitfallsView,
    ProjectBriefView,
    StyleItem,
    UserStyleView,
)

log = structlog.get_logger()

V = TypeVar("V")


def to_json(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: to_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    return value


def decoded(decode: Callable[[dict[str, Any]], V], data: dict[str, Any] | None) -> V | None:
    """A cached view decoded, or None when there is none or it is damaged (then rebuilt)."""
    if data is None:
        return None
    try:
        return decode(data)
    except (KeyError, TypeError, ValueError, InvalidArgumentError):
        log.warning("view_cache_unreadable")
        return None


def _time(value: Any) -> datetime:
    return datetime.fromisoformat(str(value))


def _budget(data: dict[str, Any]) -> BudgetReport:
    return BudgetReport(**data)


def style_from_json(data: dict[str, Any]) -> UserStyleView:
    items = tuple(
        StyleItem(
            key=i["key"],
            summary=i["summary"],
            tags=tuple(i["tags"]),
            importance=float(i["importance"]),
            last_updated_at=_time(i["last_updated_at"]),
            source_memory_ids=tuple(i["source_memory_ids"]),
        )
        for i in data["items"]
    )
    return UserStyleView(
        mode=checked_mode(data["mode"]),
        project_id=data["project_id"],
        user_id=data["user_id"],
        generated_at=_time(data["generated_at"]),
        token_estimate=int(data["token_estimate"]),
        items=items,
        markdown=data["markdown"],
        budget=_budget(data["budget"]),
        written_by=WrittenBy(data.get("written_by", WrittenBy.RULES)),
    )


def brief_from_json(data: dict[str, Any]) -> ProjectBriefView:
    return ProjectBriefView(
        mode=checked_mode(data["mode"]),
        project_id=data["project_id"],
        generated_at=_time(data["generated_at"]),
        token_estimate=int(data["token_estimate"]),
        modules=tuple(
            ModuleSummary(m["name"], tuple(m["paths"]), m["summary"], m.get("memory_id", ""))
            for m in data["modules"]
        ),
        key_facts=tuple(data["key_facts"]),
        key_fact_ids=tuple(data.get("key_fact_ids", ())),
        markdown=data["markdown"],
        budget=_budget(data["budget"]),
        written_by=WrittenBy(data.get("written_by", WrittenBy.RULES)),
    )


def pitfalls_from_json(data: dict[str, Any]) -> PitfallsView:
    return PitfallsView(
        project_id=data["project_id"],
        generated_at=_time(data["generated_at"]),
        token_estimate=int(data["token_estimate"]),
        has_relevant_pitfalls=bool(data["has_relevant_pitfalls"]),
        items=tuple(
            PitfallItem(
                i["key"],
                i["content"],
                tuple(i["tags"]),
                float(i["importance"]),
                tuple(i["file_paths"]),
                i["memory_id"],
            )
            for i in data["items"]
        ),
        markdown=data["markdown"],
        budget=_budget(data["budget"]),
        written_by=WrittenBy(data.get("written_by", WrittenBy.RULES)),
    )
