"""MCP tool outputs as pydantic models: the spec's JSON shapes (§5.2–§5.6) plus budget fields."""

from __future__ import annotations

from typing import Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from squirrel_core.read_shapes import MemoryTypeName

ViewMode = Literal["core", "full"]
"""`core`: a compact view for session start; `full`: a richer view for big decisions."""


class _Shape(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# --- items (shared with the backend, which returns them in score order) ---


class SelectedMemory(_Shape):
    """One memory chosen for a task, with why it matters (spec §5.5)."""

    memory_id: str
    type: MemoryTypeName
    key: str
    content: str
    importance: float = Field(ge=0.0, le=1.0)
    reason: str
    from_team: bool = Field(
        default=False,
        description="From the team's memory (a teammate's), not this laptop's own.",
    )
    contributor: str = Field(
        default="",
        description="The teammate who contributed it (their team name), for a memory from "
        "the team's memory; empty when not known.",
    )
    source_refs: list[str] = Field(
        default_factory=list,
        description="Where the memory was read: `path:line` in the repository or `commit:<sha>`.",
    )


class UserStyleItem(_Shape):
    """One normalised user-style preference (spec §5.2)."""

    key: str
    summary: str
    tags: list[str] = Field(default_factory=list)
    importance: float = Field(ge=0.0, le=1.0)
    last_updated_at: AwareDatetime
    source_memory_ids: list[str] = Field(default_factory=list)
    from_team: bool = Field(
        default=False,
        description="From the team's memory (a teammate's), not this laptop's own.",
    )


class ModuleSummary(_Shape):
    """One module of the project brief (spec §5.3)."""

    name: str
    paths: list[str] = Field(default_factory=list)
    summary: str


class PitfallItem(_Shape):
    """One known trap (spec §5.4)."""

    key: str
    content: str
    tags: list[str] = Field(default_factory=list)
    importance: float = Field(ge=0.0, le=1.0)
    file_paths: list[str] = Field(default_factory=list)
    from_team: bool = Field(
        default=False,
        description="From the team's memory (a teammate's), not this laptop's own.",
    )
    contributor: str = Field(
        default="",
        description="The teammate who contributed it (their team name), for a memory from "
        "the team's memory; empty when not known.",
    )


class SearchSource(_Shape):
    """Where a search result came from."""

    episode_ids: list[str] = Field(default_factory=list)
    file_paths: list[str] = Field(default_factory=list)
    source_refs: list[str] = Field(
        default_factory=list,
        description="Where the memory was read: `path:line` in the repository or `commit:<sha>`.",
    )


class SearchResult(_Shape):
    """One search hit with its score and the reason it matched (spec §5.6)."""

    memory_id: str
    handle: str = Field(
        default="",
        description="The memory's shortest handle unique in the project, as `sqrl` lists show it.",
    )
    type: MemoryTypeName
    key: str
    content: str
    tags: list[str] = Field(default_factory=list)
    importance: float = Field(ge=0.0, le=1.0)
    recency_days: int = Field(ge=0)
    score: float
    reason: str
    source: SearchSource = Field(default_factory=SearchSource)
    from_team: bool = Field(
        default=False,
        description="From the team's memory (a teammate's), not this laptop's own.",
    )
    contributor: str = Field(
        default="",
        description="The teammate who contributed it (their team name), for a memory from "
        "the team's memory; empty when not known.",
    )


# --- tool outputs ---


class TaskContext(_Shape):
    """`get_task_context` output (spec §5.5); `selected_memories` only holds what was shown."""

    type: Literal["task_context"] = "task_context"
    project_id: str
    user_id: str | None
    task_description: str
    generated_at: AwareDatetime
    token_estimate: int = Field(
        ge=0, description="Estimated tokens of `markdown`, footers included."
    )
    has_relevant_memory: bool
    selected_memories: list[SelectedMemory]
    markdown: str = Field(description="What to read: the memories, then the budget and 📏 footers.")


class UserStyleView(_Shape):
    """`get_user_style_view` output (spec §5.2)."""

    type: Literal["user_style_view"] = "user_style_view"
    mode: ViewMode
    project_id: str
    user_id: str | None
    generated_at: AwareDatetime
    token_estimate: int = Field(
        ge=0, description="Estimated tokens of `markdown`, footers included."
    )
    items: list[UserStyleItem]
    markdown: str = Field(description="What to read: the preferences, then the footers.")


class ProjectBriefView(_Shape):
    """`get_project_brief_view` output (spec §5.3)."""

    type: Literal["project_brief_view"] = "project_brief_view"
    mode: ViewMode
    project_id: str
    generated_at: AwareDatetime
    token_estimate: int = Field(
        ge=0, description="Estimated tokens of `markdown`, footers included."
    )
    modules: list[ModuleSummary]
    key_facts: list[str]
    key_fact_from_team: list[bool] = Field(
        default_factory=list,
        description="For each of `key_facts`, in the same order: whether it came from the "
        "team's memory (a teammate's), not this laptop's own.",
    )
    key_fact_contributors: list[str] = Field(
        default_factory=list,
        description="For each of `key_facts`, in the same order: the teammate who contributed "
        "it (their team name, as its `(team: name)` mark shows it); empty for the user's own "
        "facts and when not known.",
    )
    markdown: str = Field(description="What to read: key facts and modules, then the footers.")


class PitfallsView(_Shape):
    """`get_pitfalls_view` output (spec §5.4)."""

    type: Literal["pitfalls_view"] = "pitfalls_view"
    project_id: str
    generated_at: AwareDatetime
    token_estimate: int = Field(
        ge=0, description="Estimated tokens of `markdown`, footers included."
    )
    has_relevant_pitfalls: bool
    items: list[PitfallItem]
    markdown: str = Field(description="What to read: the pitfalls, then the footers.")


class SearchResponse(_Shape):
    """`search_project_memory` output (spec §5.6) plus paging and budget fields."""

    query: str
    results: list[SearchResult]
    total: int = Field(ge=0, description="How many memories matched in all.")
    next_cursor: str | None = Field(
        description="Pass as `cursor` with the same query to get the results after these."
    )
    token_estimate: int = Field(
        ge=0, description="Estimated tokens of `markdown`, footers included."
    )
    markdown: str = Field(description="What to read: the results, then the footers.")


class RememberResponse(_Shape):
    """`remember` output: the memory written and what happened to it."""

    type: Literal["remember_result"] = "remember_result"
    memory_id: str
    action: Literal["ADD_NEW", "UPDATE_EXISTING", "NOOP", "DELETE_AND_ADD"]
    version: int = Field(ge=1)
    outcome: Literal["added", "updated", "merged", "unchanged"] = Field(
        "added",
        description="added; updated (the memory on the key you named changed, previous version"
        " in its history); merged (the same memory as `merged_ids`, by near-duplicate wording);"
        " unchanged.",
    )
    merged_ids: list[str] = Field(default_factory=list)
    markdown: str


class ForgetResponse(_Shape):
    """`forget` output: whether the memory was marked deleted now (False if it already was)."""

    type: Literal["forget_result"] = "forget_result"
    memory_id: str
    deleted: bool
    markdown: str
