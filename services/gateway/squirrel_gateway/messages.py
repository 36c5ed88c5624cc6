"""squirrel.v1 messages ⇄ the gateway's records: enum names, timestamps, items and outputs."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Final

from google.protobuf.timestamp_pb2 import Timestamp

from squirrel.v1 import memory_pb2, views_pb2
from squirrel_core.errors import InvalidArgumentError
from squirrel_core.read_shapes import MEMORY_TYPES, MemoryTypeName
from squirrel_gateway.schemas import (
    ModuleSummary,
    PitfallItem,
    PitfallsView,
    ProjectBriefView,
    SearchResult,
    SearchSource,
    SelectedMemory,
    TaskContext,
    UserStyleItem,
    UserStyleView,
    ViewMode,
)

_TYPE_PREFIX: Final = "MEMORY_TYPE_"
_MODE_PREFIX: Final = "VIEW_MODE_"

_TYPE_BY_NAME: Final[dict[MemoryTypeName, memory_pb2.MemoryType.ValueType]] = {
    name: memory_pb2.MemoryType.Value(_TYPE_PREFIX + name.upper()) for name in MEMORY_TYPES
}
_NAME_BY_TYPE: Final = {value: name for name, value in _TYPE_BY_NAME.items()}
_MODE_BY_NAME: Final[dict[ViewMode, views_pb2.ViewMode.ValueType]] = {
    "core": views_pb2.VIEW_MODE_CORE,
    "full": views_pb2.VIEW_MODE_FULL,
}
_NAME_BY_MODE: Final = {value: name for name, value in _MODE_BY_NAME.items()}


# --- enums ------------------------------------------------------------------------------------


def memory_type_value(name: MemoryTypeName) -> memory_pb2.MemoryType.ValueType:
    """The protobuf enum value of a memory type name (`pitfall` -> MEMORY_TYPE_PITFALL)."""
    return _TYPE_BY_NAME[name]


def memory_type_name(value: int) -> MemoryTypeName | None:
    """The name of a protobuf memory type; None for UNSPECIFIED or a value this build lacks."""
    return _NAME_BY_TYPE.get(memory_pb2.MemoryType.ValueType(value))


def memory_type_names(values: Iterable[int], *, field: str) -> tuple[MemoryTypeName, ...]:
    """Names of requested types, order kept; an UNSPECIFIED or unknown value is refused."""
    names: list[MemoryTypeName] = []
    for value in values:
        name = memory_type_name(value)
        if name is None:
            raise InvalidArgumentError(
                f"{field} holds {value}, which is not a memory type; send MEMORY_TYPE_USER_STYLE,"
                " MEMORY_TYPE_PROJECT_FACT, MEMORY_TYPE_PITFALL or MEMORY_TYPE_RECIPE."
            )
        names.append(name)
    return tuple(names)


def view_mode_value(mode: ViewMode) -> views_pb2.ViewMode.ValueType:
    return _MODE_BY_NAME[mode]


def view_mode_name(value: int, *, default: ViewMode = "core") -> ViewMode:
    """The name of a requested view mode; UNSPECIFIED means `default`, unknown is refused."""
    if value == views_pb2.VIEW_MODE_UNSPECIFIED:
        return default
    mode = _NAME_BY_MODE.get(views_pb2.ViewMode.ValueType(value))
    if mode is None:
        raise InvalidArgumentError(
            f"mode {value} is not a view mode; send VIEW_MODE_CORE or VIEW_MODE_FULL."
        )
    return mode


# --- timestamps -------------------------------------------------------------------------------


def to_datetime(stamp: Timestamp, *, default: datetime | None = None) -> datetime:
    """An aware UTC datetime; an unset timestamp gives `default` (or the epoch)."""
    if stamp.seconds == 0 and stamp.nanos == 0 and default is not None:
        return default
    return stamp.ToDatetime(tzinfo=UTC)


def to_timestamp(moment: datetime) -> Timestamp:
    stamp = Timestamp()
    stamp.FromDatetime(moment)
    return stamp


def _unit(value: float) -> float:
    """Clamped to 0.0 - 1.0 (schemas refuse anything else; a NaN counts as 0)."""
    return min(1.0, max(0.0, value)) if math.isfinite(value) else 0.0


def _texts(values: Iterable[str]) -> list[str]:
    return [str(v) for v in values]


# --- memory service items -> records ----------------------------------------------------------


def selected_memories(
    items: Sequence[views_pb2.SelectedMemory],
) -> tuple[list[SelectedMemory], int]:
    """Records for the items whose type this build knows, and how many were skipped."""
    kept: list[SelectedMemory] = []
    for item in items:
        kind = memory_type_name(item.type)
        if kind is None:
            continue
        kept.append(
            SelectedMemory(
                memory_id=item.memory_id,
                type=kind,
                key=item.key,
                content=item.content,
                importance=_unit(item.importance),
                reason=item.reason,
                source_refs=_texts(item.source_refs),
                contributor=item.contributor,
            )
        )
    return kept, len(items) - len(kept)


def user_style_items(items: Sequence[views_pb2.UserStyleItem]) -> list[UserStyleItem]:
    return [
        UserStyleItem(
            key=item.key,
            summary=item.summary,
            tags=_texts(item.tags),
            importance=_unit(item.importance),
            last_updated_at=to_datetime(item.last_updated_at),
            source_memory_ids=_texts(item.source_memory_ids),
        )
        for item in items
    ]


def module_summaries(modules: Sequence[views_pb2.ProjectModule]) -> list[ModuleSummary]:
    return [ModuleSummary(name=m.name, paths=_texts(m.paths), summary=m.summary) for m in modules]


def pitfall_items(items: Sequence[views_pb2.PitfallItem]) -> list[PitfallItem]:
    return [
        PitfallItem(
            key=item.key,
            content=item.content,
            tags=_texts(item.tags),
            importance=_unit(item.importance),
            file_paths=_texts(item.file_paths),
            contributor=item.contributor,
        )
        for item in items
    ]


def search_results(items: Sequence[views_pb2.SearchResult]) -> tuple[list[SearchResult], int]:
    """Records for the results whose type this build knows, and how many were skipped."""
    kept: list[SearchResult] = []
    for item in items:
        kind = memory_type_name(item.type)
        if kind is None:
            continue
        kept.append(
            SearchResult(
                memory_id=item.memory_id,
                handle=item.handle,
                type=kind,
                key=item.key,
                content=item.content,
                tags=_texts(item.tags),
                importance=_unit(item.importance),
                recency_days=max(0, item.recency_days),
                score=item.score if math.isfinite(item.score) else 0.0,
                reason=item.reason,
                source=SearchSource(
                    episode_ids=_texts(item.source.episode_ids),
                    file_paths=_texts(item.source.file_paths),
                    source_refs=_texts(item.source.source_refs),
                ),
                from_team=item.from_team,
                contributor=item.contributor,
            )
        )
    return kept, len(items) - len(kept)


# --- budgeted outputs -> gateway responses ----------------------------------------------------


def budget_report(
    *, budget: int, token_estimate: int, shown: int, total: int, capped: bool
) -> views_pb2.BudgetReport:
    return views_pb2.BudgetReport(
        budget_tokens=budget,
        token_estimate=token_estimate,
        items_shown=shown,
        items_total=total,
        capped=capped,
    )


def task_context_message(
    output: TaskContext, report: views_pb2.BudgetReport
) -> views_pb2.TaskContext:
    return views_pb2.TaskContext(
        project_id=output.project_id,
        user_id=output.user_id or "",
        task_description=output.task_description,
        generated_at=to_timestamp(output.generated_at),
        token_estimate=output.token_estimate,
        has_relevant_memory=output.has_relevant_memory,
        selected_memories=[
            views_pb2.SelectedMemory(
                memory_id=m.memory_id,
                type=memory_type_value(m.type),
                key=m.key,
                content=m.content,
                importance=m.importance,
                reason=m.reason,
                source_refs=m.source_refs,
                contributor=m.contributor,
            )
            for m in output.selected_memories
        ],
        markdown=output.markdown,
        budget=report,
    )


def user_style_message(
    output: UserStyleView, report: views_pb2.BudgetReport
) -> views_pb2.UserStyleView:
    return views_pb2.UserStyleView(
        mode=view_mode_value(output.mode),
        project_id=output.project_id,
        user_id=output.user_id or "",
        generated_at=to_timestamp(output.generated_at),
        token_estimate=output.token_estimate,
        items=[
            views_pb2.UserStyleItem(
                key=i.key,
                summary=i.summary,
                tags=i.tags,
                importance=i.importance,
                last_updated_at=to_timestamp(i.last_updated_at),
                source_memory_ids=i.source_memory_ids,
            )
            for i in output.items
        ],
        markdown=output.markdown,
        budget=report,
    )


def project_brief_message(
    output: ProjectBriefView, report: views_pb2.BudgetReport
) -> views_pb2.ProjectBriefView:
    return views_pb2.ProjectBriefView(
        mode=view_mode_value(output.mode),
        project_id=output.project_id,
        generated_at=to_timestamp(output.generated_at),
        token_estimate=output.token_estimate,
        modules=[
            views_pb2.ProjectModule(name=m.name, paths=m.paths, summary=m.summary)
            for m in output.modules
        ],
        key_facts=output.key_facts,
        markdown=output.markdown,
        budget=report,
        key_fact_contributors=output.key_fact_contributors,
    )


def pitfalls_message(
    output: PitfallsView, report: views_pb2.BudgetReport
) -> views_pb2.PitfallsView:
    return views_pb2.PitfallsView(
        project_id=output.project_id,
        generated_at=to_timestamp(output.generated_at),
        token_estimate=output.token_estimate,
        has_relevant_pitfalls=output.has_relevant_pitfalls,
        items=[
            views_pb2.PitfallItem(
                key=p.key,
                content=p.content,
                tags=p.tags,
                importance=p.importance,
                file_paths=p.file_paths,
                contributor=p.contributor,
            )
            for p in output.items
        ],
        markdown=output.markdown,
        budget=report,
    )


def search_result_messages(results: Sequence[SearchResult]) -> list[views_pb2.SearchResult]:
    return [
        views_pb2.SearchResult(
            memory_id=r.memory_id,
            handle=r.handle,
            type=memory_type_value(r.type),
            key=r.key,
            content=r.content,
            tags=r.tags,
            importance=r.importance,
            recency_days=r.recency_days,
            score=r.score,
            reason=r.reason,
            source=views_pb2.ResultSource(
                episode_ids=r.source.episode_ids,
                file_paths=r.source.file_paths,
                source_refs=r.source.source_refs,
            ),
            from_team=r.from_team,
            contributor=r.contributor,
        )
        for r in results
    ]
