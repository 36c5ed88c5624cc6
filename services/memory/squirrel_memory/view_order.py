"""Which memories a view shows first: the most useful, not merely the most important.

Usefulness adds to a memory's importance how much evidence stands behind it (source events,
repository references, versions: each re-observation adds one) and how recent it is next to the
newest memory of the same list (so the order does not drift with the wall clock, and a project
whose sessions are a year old is ranked the same today as then). A memory the user wrote by hand
gets a small bonus. Importance is the memory's importance as ranking weighs it: with the
outcomes of the sessions it was served to (`OutcomeBook.importance`), as the searches rank, so a
memory that helped rises in the views too and one served unused sinks slowly. The weights keep
importance first: evidence and recency settle what importance
leaves close, and never lift a memory more than a quarter of the importance scale.

The project brief also groups its facts: what the project is, then its stack (language first,
then framework or runtime, then libraries, database and the like), then how it is worked on
(commands, CI, ports, entry points), then everything else; each group in usefulness order.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime

from squirrel_memory.models import MemoryItem, MemorySource

EVIDENCE_WEIGHT = 0.12
EVIDENCE_CAP = 20  # this much evidence earns the whole weight
RECENCY_WEIGHT = 0.08
RECENCY_HALF_LIFE_DAYS = 30.0
MANUAL_BONUS = 0.04

OVERVIEW = frozenset({"overview", "purpose", "about", "description", "summary", "what"})
LANGUAGE = frozenset({"language", "languages"})
FRAMEWORK = frozenset({"framework", "frameworks", "stack", "runtime", "platform"})
STACK = frozenset(
    {
        "libraries",
        "library",
        "database",
        "databases",
        "db",
        "datastore",
        "queue",
        "job_queue",
        "versions",
        "version",
        "toolchain",
        "package_manager",
        "dependencies",
    }
)
WORKFLOW = frozenset(
    {
        "ci",
        "port",
        "ports",
        "dev_server",
        "server",
        "entry_point",
        "entrypoint",
        "build",
        "scripts",
        "tasks",
        "migrations",
        "migration",
        "workflow",
        "deploy",
        "deployment",
    }
)
_SEGMENT = re.compile(r"[:/]")


def evidence(item: MemoryItem) -> int:
    """Distinct source events, repository references and re-observations behind a memory."""
    return len(set(item.source_event_ids)) + len(set(item.source_refs)) + max(item.version - 1, 0)


def score(
    importance: float, proof: int, updated_at: datetime, newest: datetime, manual: bool
) -> float:
    """Importance plus bounded evidence and recency terms (see the module docstring)."""
    backing = math.log1p(min(max(proof, 0), EVIDENCE_CAP)) / math.log1p(EVIDENCE_CAP)
    age_days = max((newest - updated_at).total_seconds(), 0.0) / 86_400
    fresh = math.pow(0.5, age_days / RECENCY_HALF_LIFE_DAYS)
    bonus = MANUAL_BONUS if manual else 0.0
    return importance + EVIDENCE_WEIGHT * backing + RECENCY_WEIGHT * fresh + bonus


Weigh = Callable[[MemoryItem], float]
"""A memory's importance as ranking weighs it (`OutcomeBook.importance`: its outcomes added)."""


def stored_importance(item: MemoryItem) -> float:
    """The importance the memory was written with (no outcomes weighed)."""
    return item.importance


def usefulness(item: MemoryItem, newest: datetime, weigh: Weigh = stored_importance) -> float:
    return score(
        weigh(item),
        evidence(item),
        item.updated_at,
        newest,
        item.source is MemorySource.MANUAL,
    )


def by_usefulness(
    items: Iterable[MemoryItem], weigh: Weigh = stored_importance
) -> list[MemoryItem]:
    """Most useful first; ties by recency, then id (deterministic). `weigh` gives each memory's
    importance (with its outcomes, as the searches rank)."""
    listed = list(items)
    if not listed:
        return []
    newest = max(i.updated_at for i in listed)
    return sorted(
        listed, key=lambda i: (-usefulness(i, newest, weigh), -i.updated_at.timestamp(), i.id)
    )


def fact_group(item: MemoryItem) -> int:
    """0 what the project is; its stack: 1 language, 2 framework or runtime, 3 libraries,
    database and the like; 4 how it is worked on (commands, CI, ports); 5 the rest."""
    words = {s.strip().lower() for s in _SEGMENT.split(item.key)} | {t.lower() for t in item.tags}
    if words & OVERVIEW:
        return 0
    for group, names in enumerate((LANGUAGE, FRAMEWORK, STACK), start=1):
        if words & names:
            return group
    if words & WORKFLOW or any(w.endswith("_command") or w == "command" for w in words):
        return 4
    return 5


def brief_order(facts: Sequence[MemoryItem], weigh: Weigh = stored_importance) -> list[MemoryItem]:
    """Facts for the brief: by group (what, language, framework, other stack, workflow, rest),
    each group by usefulness."""
    ranked = by_usefulness(facts, weigh)
    position = {item.id: n for n, item in enumerate(ranked)}
    return sorted(ranked, key=lambda i: (fact_group(i), position[i.id]))
