"""The pure building blocks of views: merged style items, key facts, modules, relevant pitfalls."""

from __future__ import annotations

import re
from collections.abc import Sequence

from squirrel_memory.models import MemoryItem, MemorySource, Scope
from squirrel_memory.scoring import path_match_score
from squirrel_memory.user_memories.userstore import UserStyleItem as GlobalStyleItem
from squirrel_memory.view_order import Weigh, by_usefulness, evidence, score, stored_importance
from squirrel_memory.views.markdown import one_line
from squirrel_memory.views.models import ModuleSummary, StyleItem

_WORD = re.compile(r"[^\W_]+")


def best_per_key(items: list[MemoryItem]) -> list[MemoryItem]:
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
    memories: Sequence[MemoryItem],
    globals_: Sequence[GlobalStyleItem],
    user_id: str | None,
    weigh: Weigh = stored_importance,
) -> list[StyleItem]:
    """Project user-style memories merged over the global ones: on the same key the project's
    statement wins (it refines the global habit for this repository), tags are pooled and both
    ids are kept as sources. Most useful first (importance as `weigh` gives it, evidence,
    recency), then the place in the file a rule was read from, then key."""
    groups: dict[str, list[MemoryItem]] = {}
    for item in by_usefulness(memories, weigh):
        if item.scope is Scope.USER and user_id and item.user_id not in (None, user_id):
            continue
        groups.setdefault(item.key, []).append(item)
    merged: dict[str, StyleItem] = {}
    proof: dict[str, int] = {k: sum(evidence(m) for m in g) for k, g in groups.items()}
    manual = {k for k, g in groups.items() if any(m.source is MemorySource.MANUAL for m in g)}
    weight = {k: weigh(g[0]) for k, g in groups.items()}
    place = {k: _place(g[0]) for k, g in groups.items()}
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
        weight[glob.key] = max(weight.get(glob.key, 0.0), glob.importance)
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

    def rank(i: StyleItem) -> tuple[float, float, tuple[str, int], str]:
        useful = score(weight[i.key], proof[i.key], i.last_updated_at, newest, i.key in manual)
        return (-useful, -i.last_updated_at.timestamp(), place.get(i.key, _NO_PLACE), i.key)

    return sorted(merged.values(), key=rank)


_NO_PLACE = ("", 0)
_REF = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+)")


def _place(memory: MemoryItem) -> tuple[str, int]:
    """Where a rule read from a file stands in it (its first `path:line` source): rules of one
    file that tie on everything else keep the file's order, the order its author gave them."""
    for ref in memory.source_refs:
        match = _REF.match(ref)
        if match:
            return match.group("path"), int(match.group("line"))
    return _NO_PLACE


def key_fact(item: MemoryItem) -> str:
    """`framework` + "Built with FastAPI." → "Framework: Built with FastAPI."."""
    parts = item.key.split(":")
    first = parts[1] if parts[0] == "repo" and len(parts) > 1 else parts[0]  # repository facts
    head = first.replace("_", " ").replace("-", " ").strip()
    label = head[:1].upper() + head[1:] if head else "Fact"
    return f"{label}: {one_line(item.content)}"


#: A module memory written by earlier versions: only its files, nothing of what it does.
_FILE_LIST = re.compile(r"^Module `[^`]+`: [\w./@+-]+(?:, [\w./@+-]+)*(?: and \d+ more)?\.$")


def brief_modules(facts: Sequence[MemoryItem], project_id: str) -> list[ModuleSummary]:
    """Modules from `module:*` facts that say what the module does, most important first; a
    module memory that only lists its files (as earlier versions wrote them) is left out."""
    del project_id  # modules are named by their facts
    modules: list[ModuleSummary] = []
    for item in facts:
        if item.key.startswith("module:") and not _FILE_LIST.match(one_line(item.content)):
            name = item.key.split(":", 1)[1].strip() or item.key
            modules.append(
                ModuleSummary(name, item.file_paths[:5], one_line(item.content), item.id)
            )
    return modules


def _scope_hit(item: MemoryItem, scopes: Sequence[str], root: str) -> bool:
    if not scopes:
        return False
    if path_match_score(item.file_paths, (), scopes, root=root) > 0:
        return True
    parts = {w.lower() for s in scopes for w in _WORD.findall(s) if len(w) > 2}
    return any(t.lower() in parts for t in item.tags)


def relevant_pitfalls(
    items: Sequence[MemoryItem], scopes: Sequence[str], relevance: dict[str, float], root: str
) -> list[MemoryItem]:
    """Pitfalls in a scope path or relevant to the task: closest paths first, then relevance,
    then usefulness (the order of `items`, kept by the stable sort)."""
    chosen = [m for m in items if m.id in relevance or _scope_hit(m, scopes, root)]

    def key(item: MemoryItem) -> tuple[float, float]:
        path = path_match_score(item.file_paths, (), scopes, root=root) if scopes else 0.0
        return (-path, -relevance.get(item.id, 0.0))

    return sorted(chosen, key=key)
