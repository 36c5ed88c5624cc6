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

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

import structlog

from squirrel_core.budget import longest_cut, validate_budget
from squirrel_core.errors import InvalidArgumentError
from squirrel_core.files import ensure_private_dir, write_private_file
from squirrel_core.tokens import estimate_tokens
from squirrel_memory.confirmations import Injectable, unflagged
from squirrel_memory.extractors.modules import module_name
from squirrel_memory.llm_prompts import Note, WrittenBy
from squirrel_memory.models import MemoryItem, MemorySource, MemoryType, Scope
from squirrel_memory.paths import ProjectPaths
from squirrel_memory.privacy import visible
from squirrel_memory.recurrence import is_tentative
from squirrel_memory.retrieval import MAX_QUERY_CHARS, Retriever, relevance_threshold
from squirrel_memory.scoring import path_match_score
from squirrel_memory.storage import MemoryChange, ViewMeta
from squirrel_memory.storage.checks import Clock, utc_now
from squirrel_memory.userstore import UserStyleItem as GlobalStyleItem
from squirrel_memory.view_order import brief_order, by_usefulness, evidence, score

if TYPE_CHECKING:
    from squirrel_memory.llm_writer import LlmWriter, ViewDraft

log = structlog.get_logger()

ViewMode = Literal["core", "full"]
V = TypeVar("V")
DEFAULT_BUDGET_TOKENS = 256
CACHE_FORMAT = 1
_NEVER = datetime(1970, 1, 1, tzinfo=UTC)
_LIST_LIMIT = 1000
_WORD = re.compile(r"[^\W_]+")


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
_VIEW_TYPES: dict[ViewName, MemoryType] = {
    ViewName.USER_STYLE: MemoryType.USER_STYLE,
    ViewName.PROJECT_BRIEF: MemoryType.PROJECT_FACT,
    ViewName.PITFALLS: MemoryType.PITFALL,
}
_TITLES: dict[ViewName, str] = {
    ViewName.USER_STYLE: "the user's coding style (how they like code written and work done)",
    ViewName.PROJECT_BRIEF: "project brief (key facts and modules of this repository)",
    ViewName.PITFALLS: "known pitfalls (traps hit in this project and what fixed them)",
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


class ViewStore(Protocol):
    """What views need from a project's store (every `Store` provides it)."""

    project_id: str

    async def list_memories(
        self,
        project_id: str,
        types: Sequence[MemoryType] | None = None,
        include_deleted: bool = False,
        limit: int = 50,
        offset: int = 0,
    ) -> tuple[list[MemoryItem], int]: ...
    async def count_events(self, project_id: str) -> int: ...
    async def get_view_meta(self, name: str) -> ViewMeta | None: ...
    async def put_view_meta(
        self, name: str, last_generated: datetime, events_count_at_gen: int, ttl: int
    ) -> None: ...
    def add_listener(self, listener: Any) -> None: ...
    def remove_listener(self, listener: Any) -> None: ...


class GlobalStyleSource(Protocol):
    """The global `user.db` style items (`SqliteUserStore` provides it)."""

    async def list_user_style(self, user_id: str) -> list[GlobalStyleItem]: ...


@dataclass(frozen=True, slots=True)
class _Cached:
    params: str
    stamp: str
    budget: int
    view: dict[str, Any]


class Views:
    """Builds and caches one project's views. Call `close()` to stop listening to the store."""

    def __init__(
        self,
        store: ViewStore,
        *,
        user_store: GlobalStyleSource | None = None,
        retriever: Retriever | None = None,
        views_dir: Path | None = None,
        clock: Clock = utc_now,
        pitfall_min_relevance: float | None = None,
        writer: LlmWriter | None = None,
        injectable: Injectable = unflagged,
    ) -> None:
        self._store = store
        self._injectable = injectable
        self._writer = writer
        self._user_store = user_store
        self._retriever = retriever
        self._dir = views_dir or ProjectPaths.for_project(store.project_id).views_dir
        self._clock = clock
        self._pitfall_min_relevance = pitfall_min_relevance
        self._listening = True
        store.add_listener(self._on_memory_change)

    @property
    def project_id(self) -> str:
        """The project whose views these are."""
        return self._store.project_id

    def close(self) -> None:
        """Stop invalidating on memory changes (calling it again does nothing)."""
        if self._listening:
            self._listening = False
            self._store.remove_listener(self._on_memory_change)

    async def invalidate(self, names: Sequence[ViewName] = tuple(ViewName)) -> None:
        """Mark views stale now (their next read rebuilds them) and drop their cached files."""
        for name in names:
            await self._store.put_view_meta(str(name), _NEVER, 0, STALE_RULES[name].ttl_seconds)
            self._cache_path(name).unlink(missing_ok=True)
        log.info("views_invalidated", project_id=self.project_id, count=len(names))

    async def _on_memory_change(self, change: MemoryChange) -> None:
        await self.invalidate()

    # -- user style ------------------------------------------------------------------------

    async def user_style(
        self,
        project_id: str,
        *,
        user_id: str | None = None,
        mode: str = "core",
        context_budget_tokens: int | None = None,
    ) -> UserStyleView:
        """Spec §5.2: this user's style, project memories refining the global `user.db` ones.

        Global items are merged only when `user_id` is given; user-scoped project memories of
        another user are left out.
        """
        self._check_project(project_id)
        view_mode = _mode(mode)
        budget = validate_budget(context_budget_tokens, DEFAULT_BUDGET_TOKENS)
        globals_ = await self._global_style(user_id)
        params = _params(ViewName.USER_STYLE, view_mode, user_id)
        extra = "|".join(f"{g.id}:{g.updated_at.isoformat()}" for g in globals_)
        cached, stamp = await self._cached(ViewName.USER_STYLE, params, budget, extra)
        hit = _decoded(_style_from_json, cached)
        if hit is not None:
            return hit
        memories = await self._live(MemoryType.USER_STYLE)
        if view_mode != "full":
            # Core mode is what a session starts with: standing rules only, not one-off wording
            # still waiting to recur (full mode and search still show those).
            memories = [m for m in memories if not is_tentative(m.tags)]
        items = merge_style(memories, globals_, user_id)
        limit = STYLE_ITEMS[1] if view_mode == "full" else STYLE_ITEMS[0]
        heading = "## User Coding Style"
        notes = [Note(i.key, "user_style", i.key, i.summary) for i in items[:limit]]
        draft = await self._draft(ViewName.USER_STYLE, heading, notes, budget)
        if draft is not None:
            items = [
                replace(i, summary=draft.summaries.get(i.key, i.summary)) if n < limit else i
                for n, i in enumerate(items)
            ]
        lines = [f"- {_one_line(i.summary)}" for i in items[:limit]]
        empty = "No coding-style preferences are recorded yet."
        markdown, shown = _written(draft, budget, len(lines)) or _pack(
            heading, lines, budget, empty
        )
        view = UserStyleView(
            mode=view_mode,
            project_id=project_id,
            user_id=user_id,
            generated_at=self._clock(),
            token_estimate=estimate_tokens(markdown),
            items=tuple(items[:shown]),
            markdown=markdown,
            budget=_report(budget, markdown, shown, len(items)),
            written_by=_author(draft),
        )
        await self._save(ViewName.USER_STYLE, params, stamp, budget, view)
        return view

    # -- project brief ---------------------------------------------------------------------

    async def project_brief(
        self, project_id: str, *, mode: str = "core", context_budget_tokens: int | None = None
    ) -> ProjectBriefView:
        """Spec §5.3: key facts ("Framework: FastAPI") and modules, from project facts."""
        self._check_project(project_id)
        view_mode = _mode(mode)
        budget = validate_budget(context_budget_tokens, DEFAULT_BUDGET_TOKENS)
        params = _params(ViewName.PROJECT_BRIEF, view_mode)
        cached, stamp = await self._cached(ViewName.PROJECT_BRIEF, params, budget)
        hit = _decoded(_brief_from_json, cached)
        if hit is not None:
            return hit
        facts = brief_order(_best_per_key(await self._live(MemoryType.PROJECT_FACT)))
        full = view_mode == "full"
        key_facts = [key_fact(m) for m in facts if not m.key.startswith("module:")][
            : FACT_ITEMS[full]
        ]
        modules = brief_modules(facts, project_id)[: MODULE_ITEMS[full]]
        heading = "## Project Overview"
        notes = [Note(f"f{n}", "project_fact", "fact", f) for n, f in enumerate(key_facts)] + [
            Note(f"d{n}", "module", m.name, _module_line(m)[2:]) for n, m in enumerate(modules)
        ]
        draft = await self._draft(ViewName.PROJECT_BRIEF, heading, notes, budget)
        if draft is not None:
            said = draft.summaries
            key_facts = [said.get(f"f{n}", f) for n, f in enumerate(key_facts)]
            modules = [
                replace(m, summary=said.get(f"d{n}", m.summary)) for n, m in enumerate(modules)
            ]
        lines = [f"- {_one_line(f)}" for f in key_facts] + [_module_line(m) for m in modules]
        empty = "No project facts are recorded yet."
        markdown, shown = _written(draft, budget, len(lines)) or _pack(
            heading, lines, budget, empty
        )
        facts_shown = min(shown, len(key_facts))
        view = ProjectBriefView(
            mode=view_mode,
            project_id=project_id,
            generated_at=self._clock(),
            token_estimate=estimate_tokens(markdown),
            modules=tuple(modules[: shown - facts_shown]),
            key_facts=tuple(key_facts[:facts_shown]),
            markdown=markdown,
            budget=_report(budget, markdown, shown, len(lines)),
            written_by=_author(draft),
        )
        await self._save(ViewName.PROJECT_BRIEF, params, stamp, budget, view)
        return view

    # -- pitfalls --------------------------------------------------------------------------

    async def pitfalls(
        self,
        project_id: str,
        *,
        scope_paths: Sequence[str] = (),
        task_description: str | None = None,
        context_budget_tokens: int | None = None,
    ) -> PitfallsView:
        """Spec §5.4: pitfalls touching `scope_paths` or relevant to the task (all without them).

        A pitfall is relevant when one of its files is in a scope path, one of its tags names
        a part of a scope path, or (with a task and a retriever) its relevance to the task
        clears `pitfall_min_relevance` (by default the calibrated task-context threshold).
        """
        self._check_project(project_id)
        budget = validate_budget(context_budget_tokens, DEFAULT_BUDGET_TOKENS)
        scopes = _clean_paths(scope_paths)
        task = _task(task_description)
        params = _params(ViewName.PITFALLS, task, *sorted(scopes))
        cached, stamp = await self._cached(ViewName.PITFALLS, params, budget)
        hit = _decoded(_pitfalls_from_json, cached)
        if hit is not None:
            return hit
        memories = await self._live(MemoryType.PITFALL)
        if scopes or task:
            relevance = await self._task_relevance(project_id, task)
            chosen = _relevant_pitfalls(memories, scopes, relevance, project_id)
        else:
            chosen = memories
        items = [
            PitfallItem(m.key, m.content, m.tags, m.importance, m.file_paths, m.id)
            for m in chosen[:PITFALL_ITEMS]
        ]
        heading = "## Known Pitfalls"
        notes = [
            Note(i.memory_id, "pitfall", i.key, i.content, _files(i.file_paths)) for i in items
        ]
        draft = await self._draft(ViewName.PITFALLS, heading, notes, budget)
        said = draft.summaries if draft is not None else {}
        lines = [_pitfall_line(i, said.get(i.memory_id)) for i in items]
        markdown, shown = _written(draft, budget, len(lines)) or _pack(
            heading, lines, budget, "No relevant pitfalls found."
        )
        view = PitfallsView(
            project_id=project_id,
            generated_at=self._clock(),
            token_estimate=estimate_tokens(markdown),
            has_relevant_pitfalls=bool(items),
            items=tuple(items[:shown]),
            markdown=markdown,
            budget=_report(budget, markdown, shown, len(items)),
            written_by=_author(draft),
        )
        await self._save(ViewName.PITFALLS, params, stamp, budget, view)
        return view

    async def _task_relevance(self, project_id: str, task: str) -> dict[str, float]:
        if not task or self._retriever is None:
            return {}
        ranked, vector_used = await self._retriever.rank(
            project_id, task, types=[MemoryType.PITFALL]
        )
        threshold = self._pitfall_min_relevance
        if threshold is None:
            threshold = relevance_threshold(vector_used)
        return {s.item.id: s.score.total for s in ranked if s.relevance >= threshold}

    async def _draft(
        self, name: ViewName, heading: str, notes: list[Note], budget: int
    ) -> ViewDraft | None:
        """Claude's summaries and markdown for a view being rebuilt (None: keep the rules')."""
        if self._writer is None or not notes:
            return None
        return await self._writer.view(_TITLES[name], heading, notes, budget)

    # -- cache -----------------------------------------------------------------------------

    def _check_project(self, project_id: str) -> None:
        if project_id != self._store.project_id:
            raise InvalidArgumentError("project_id does not match this store")

    async def _global_style(self, user_id: str | None) -> list[GlobalStyleItem]:
        if self._user_store is None or not user_id:
            return []
        return await self._user_store.list_user_style(user_id)

    async def _live(self, kind: MemoryType) -> list[MemoryItem]:
        items, _ = await self._store.list_memories(self.project_id, [kind], limit=_LIST_LIMIT)
        live = self._injectable([m for m in items if not m.deleted and visible(m)])
        return by_usefulness(live)

    async def _stamp(self, name: ViewName, extra: str) -> str:
        """Changes whenever a memory the view reads is added, updated or deleted."""
        latest, total = await self._store.list_memories(
            self.project_id, [_VIEW_TYPES[name]], include_deleted=True, limit=1
        )
        top = (
            f"{latest[0].id}:{latest[0].version}:{latest[0].updated_at.isoformat()}"
            if latest
            else ""
        )
        return hashlib.sha256(f"{total}|{top}|{extra}".encode()).hexdigest()[:32]

    async def _cached(
        self, name: ViewName, params: str, budget: int, extra: str = ""
    ) -> tuple[dict[str, Any] | None, str]:
        """(cached view JSON or None, current memory stamp)."""
        stamp = await self._stamp(name, extra)
        meta = await self._store.get_view_meta(str(name))
        if meta is None or await self._stale(name, meta):
            return None, stamp
        cached = self._read_cache(name)
        if cached is None or cached.params != params or cached.stamp != stamp:
            return None, stamp
        report = cached.view.get("budget", {})
        estimate, capped = report.get("token_estimate"), report.get("capped")
        if not isinstance(estimate, int) or estimate > budget:
            return None, stamp
        if capped and cached.budget != budget:
            return None, stamp
        log.info("view_served_from_cache", project_id=self.project_id, view=str(name))
        return cached.view, stamp

    async def _stale(self, name: ViewName, meta: ViewMeta) -> bool:
        rule = STALE_RULES[name]
        age = self._clock() - meta.last_generated
        if age >= timedelta(seconds=meta.ttl_seconds) or age < timedelta(0):
            return True
        events = await self._store.count_events(self.project_id)
        return events - meta.events_count_at_gen >= rule.max_new_events

    def _cache_path(self, name: ViewName) -> Path:
        return self._dir / f"{name}.json"

    def _read_cache(self, name: ViewName) -> _Cached | None:
        try:
            data = json.loads(self._cache_path(name).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if (
            not isinstance(data, dict)
            or data.get("format") != CACHE_FORMAT
            or not isinstance(data.get("params"), str)
            or not isinstance(data.get("stamp"), str)
            or not isinstance(data.get("budget"), int)
            or not isinstance(data.get("view"), dict)
        ):
            return None
        return _Cached(data["params"], data["stamp"], data["budget"], data["view"])

    async def _save(self, name: ViewName, params: str, stamp: str, budget: int, view: Any) -> None:
        events = await self._store.count_events(self.project_id)
        payload = {
            "format": CACHE_FORMAT,
            "params": params,
            "stamp": stamp,
            "budget": budget,
            "view": _to_json(asdict(view)),
        }
        ensure_private_dir(self._dir)
        write_private_file(
            self._cache_path(name),
            json.dumps(payload, ensure_ascii=False, sort_keys=True).encode("utf-8"),
        )
        await self._store.put_view_meta(
            str(name), view.generated_at, events, STALE_RULES[name].ttl_seconds
        )
        log.info("view_generated", project_id=self.project_id, view=str(name))


# -- building blocks (pure) ----------------------------------------------------------------


def _best_per_key(items: list[MemoryItem]) -> list[MemoryItem]:
    """One memory per key (the best-ranked), keeping rank order; a fact read from the
    repository (`repo:database`) and one seen in sessions (`database`) share a slot."""
    seen: set[str] = set()
    kept: list[MemoryItem] = []
    for item in items:
        slot = item.key.removeprefix("repo:")
        if slot not in seen:
            seen.add(slot)
            kept.append(item)
    return kept


def merge_style(
    memories: Sequence[MemoryItem], globals_: Sequence[GlobalStyleItem], user_id: str | None
) -> list[StyleItem]:
    """Project user-style memories merged over the global ones: on the same key the project's
    statement wins (it refines the global habit for this repository), tags are pooled and both
    ids are kept as sources. Most useful first (importance, evidence, recency), then key."""
    groups: dict[str, list[MemoryItem]] = {}
    for item in by_usefulness(memories):
        if item.scope is Scope.USER and user_id and item.user_id not in (None, user_id):
            continue
        groups.setdefault(item.key, []).append(item)
    merged: dict[str, StyleItem] = {}
    proof: dict[str, int] = {k: sum(evidence(m) for m in g) for k, g in groups.items()}
    manual = {k for k, g in groups.items() if any(m.source is MemorySource.MANUAL for m in g)}
    for key, group in groups.items():
        best = group[0]
        merged[key] = StyleItem(
            key=key,
            summary=best.content,
            tags=tuple(dict.fromkeys(t for m in group for t in m.tags)),
            importance=best.importance,
            last_updated_at=max(m.updated_at for m in group),
            source_memory_ids=tuple(m.id for m in group),
        )
    for glob in globals_:
        proof[glob.key] = proof.get(glob.key, 0) + 1
        if glob.source is MemorySource.MANUAL:
            manual.add(glob.key)
        local = merged.get(glob.key)
        if local is None:
            merged[glob.key] = StyleItem(
                glob.key, glob.content, glob.tags, glob.importance, glob.updated_at, (glob.id,)
            )
        else:
            merged[glob.key] = StyleItem(
                key=local.key,
                summary=local.summary,
                tags=tuple(dict.fromkeys((*local.tags, *glob.tags))),
                importance=max(local.importance, glob.importance),
                last_updated_at=max(local.last_updated_at, glob.updated_at),
                source_memory_ids=(*local.source_memory_ids, glob.id),
            )
    if not merged:
        return []
    newest = max(i.last_updated_at for i in merged.values())

    def rank(i: StyleItem) -> tuple[float, float, str]:
        useful = score(i.importance, proof[i.key], i.last_updated_at, newest, i.key in manual)
        return (-useful, -i.last_updated_at.timestamp(), i.key)

    return sorted(merged.values(), key=rank)


def key_fact(item: MemoryItem) -> str:
    """`framework` + "Built with FastAPI." → "Framework: Built with FastAPI."."""
    parts = item.key.split(":")
    first = parts[1] if parts[0] == "repo" and len(parts) > 1 else parts[0]  # repository facts
    head = first.replace("_", " ").replace("-", " ").strip()
    label = head[:1].upper() + head[1:] if head else "Fact"
    return f"{label}: {_one_line(item.content)}"


def brief_modules(facts: Sequence[MemoryItem], project_id: str) -> list[ModuleSummary]:
    """Modules from `module:*` facts, then from the files other facts name, most cited first."""
    modules: list[ModuleSummary] = []
    named: set[str] = set()
    for item in facts:
        if item.key.startswith("module:"):
            name = item.key.split(":", 1)[1].strip() or item.key
            named.add(name)
            modules.append(ModuleSummary(name, item.file_paths[:5], _one_line(item.content)))
    files: dict[str, dict[str, None]] = {}
    for item in facts:
        if item.key.startswith("module:"):
            continue
        for path in item.file_paths:
            found = module_name(path, project_id)
            if found and found not in named:
                files.setdefault(found, {})[path] = None
    for name in sorted(files, key=lambda n: (-len(files[n]), n)):
        paths = tuple(files[name])
        modules.append(ModuleSummary(name, paths[:5], f"{len(paths)} file(s) named by facts."))
    return modules


def _scope_hit(item: MemoryItem, scopes: Sequence[str], root: str) -> bool:
    if not scopes:
        return False
    if path_match_score(item.file_paths, (), scopes, root=root) > 0:
        return True
    parts = {w.lower() for s in scopes for w in _WORD.findall(s) if len(w) > 2}
    return any(t.lower() in parts for t in item.tags)


def _relevant_pitfalls(
    items: Sequence[MemoryItem], scopes: Sequence[str], relevance: dict[str, float], root: str
) -> list[MemoryItem]:
    """Pitfalls in a scope path or relevant to the task: closest paths first, then relevance,
    then usefulness (the order of `items`, kept by the stable sort)."""
    chosen = [m for m in items if m.id in relevance or _scope_hit(m, scopes, root)]

    def key(item: MemoryItem) -> tuple[float, float]:
        path = path_match_score(item.file_paths, (), scopes, root=root) if scopes else 0.0
        return (-path, -relevance.get(item.id, 0.0))

    return sorted(chosen, key=key)


# -- markdown and budget -------------------------------------------------------------------


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _module_line(module: ModuleSummary) -> str:
    paths = ", ".join(f"`{p}`" for p in module.paths[:3])
    where = f" ({paths})" if paths else ""
    return f"- Module **{_one_line(module.name)}**{where}: {module.summary}"


def _files(paths: Sequence[str]) -> str:
    return ", ".join(f"`{p}`" for p in paths[:3])


def _pitfall_line(item: PitfallItem, summary: str | None = None) -> str:
    files = _files(item.file_paths)
    return f"- {_one_line(summary or item.content)}" + (f" (in {files})" if files else "")


def _written(draft: ViewDraft | None, budget: int, items: int) -> tuple[str, int] | None:
    """Claude's markdown showing all `items`, when there is one and its estimate fits."""
    if draft is None or not draft.markdown or estimate_tokens(draft.markdown) > budget:
        return None
    return draft.markdown, items


def _author(draft: ViewDraft | None) -> WrittenBy:
    return WrittenBy.RULES if draft is None else WrittenBy.LLM


def _pack(header: str, lines: Sequence[str], budget: int, empty: str) -> tuple[str, int]:
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


def _report(budget: int, markdown: str, shown: int, total: int) -> BudgetReport:
    return BudgetReport(budget, estimate_tokens(markdown), shown, total, shown < total)


# -- arguments -----------------------------------------------------------------------------


def _mode(mode: str) -> ViewMode:
    if mode == "core":
        return "core"
    if mode == "full":
        return "full"
    raise InvalidArgumentError("mode must be 'core' or 'full'")


def _task(task: str | None) -> str:
    if task is None:
        return ""
    if not isinstance(task, str):
        raise InvalidArgumentError("task_description must be a string")
    return _one_line(task[:MAX_QUERY_CHARS].replace("\x00", " "))


def _clean_paths(paths: Sequence[str]) -> tuple[str, ...]:
    if isinstance(paths, str):
        raise InvalidArgumentError("scope_paths must be a list of paths")
    if len(paths) > 200:
        raise InvalidArgumentError("at most 200 scope_paths")
    cleaned: list[str] = []
    for path in paths:
        if not isinstance(path, str) or "\x00" in path or len(path) > 4096:
            raise InvalidArgumentError("scope_paths must be strings without NUL, under 4096 chars")
        if path.strip():
            cleaned.append(path.strip())
    return tuple(dict.fromkeys(cleaned))


def _params(name: ViewName, *parts: str | None) -> str:
    material = json.dumps([str(name), *parts], ensure_ascii=True)
    return hashlib.sha256(material.encode("ascii")).hexdigest()[:32]


# -- JSON round trip -----------------------------------------------------------------------


def _to_json(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: _to_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_to_json(v) for v in value]
    return value


def _decoded(decode: Callable[[dict[str, Any]], V], data: dict[str, Any] | None) -> V | None:
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


def _style_from_json(data: dict[str, Any]) -> UserStyleView:
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
        mode=_mode(data["mode"]),
        project_id=data["project_id"],
        user_id=data["user_id"],
        generated_at=_time(data["generated_at"]),
        token_estimate=int(data["token_estimate"]),
        items=items,
        markdown=data["markdown"],
        budget=_budget(data["budget"]),
        written_by=WrittenBy(data.get("written_by", WrittenBy.RULES)),
    )


def _brief_from_json(data: dict[str, Any]) -> ProjectBriefView:
    return ProjectBriefView(
        mode=_mode(data["mode"]),
        project_id=data["project_id"],
        generated_at=_time(data["generated_at"]),
        token_estimate=int(data["token_estimate"]),
        modules=tuple(
            ModuleSummary(m["name"], tuple(m["paths"]), m["summary"]) for m in data["modules"]
        ),
        key_facts=tuple(data["key_facts"]),
        markdown=data["markdown"],
        budget=_budget(data["budget"]),
        written_by=WrittenBy(data.get("written_by", WrittenBy.RULES)),
    )


def _pitfalls_from_json(data: dict[str, Any]) -> PitfallsView:
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
