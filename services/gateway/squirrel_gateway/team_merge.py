"""How the team's answer and local memory's are merged: alternating, each memory once; the
project brief, each line with the memory it was rendered from; and the cursor of a merged
search page, which carries each side's own cursor."""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

from pydantic import BaseModel

from squirrel_core.errors import InvalidArgumentError
from squirrel_gateway.backend import ProjectBriefData

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)


def from_team(items: Sequence[M]) -> list[M]:
    """The team's items, each marked as the team's (`from_team`): every rendering of a memory
    then says so (`markdown_lines.team_mark`), so a teammate's memory never reads as the
    user's own."""
    return [item.model_copy(update={"from_team": True}) for item in items]


def alternate(first: Sequence[T], second: Sequence[T], key: Callable[[T], Hashable]) -> list[T]:
    """`first[0], second[0], first[1], …`, each key once (its first appearance wins)."""
    merged: list[T] = []
    seen: set[Hashable] = set()
    for index in range(max(len(first), len(second))):
        for side in (first, second):
            if index < len(side) and key(side[index]) not in seen:
                seen.add(key(side[index]))
                merged.append(side[index])
    return merged


def merged_brief(mine: ProjectBriefData, shared: ProjectBriefData) -> ProjectBriefData:
    """Local memory's brief and the team's, alternating; each line keeps the memory it was
    rendered from (named by the side whose line it is, local memory's first), and a fact only
    the team gave is marked as the team's, with the teammate who contributed it."""
    facts = alternate(list(mine.key_facts), list(shared.key_facts), lambda f: f)
    local = set(mine.key_facts)
    modules = alternate(list(mine.modules), list(shared.modules), lambda m: m.name)
    return ProjectBriefData(
        mode=mine.mode,
        project_id=mine.project_id,
        generated_at=max(shared.generated_at, mine.generated_at),
        modules=modules,
        key_facts=facts,
        total=max(len(facts) + len(modules), mine.total),
        key_fact_memory_ids=[mine.memory_id_of(f) or shared.memory_id_of(f) for f in facts],
        module_memory_ids=[mine.memory_id_of(m) or shared.memory_id_of(m) for m in modules],
        team_facts={f: shared.contributor_of(f) for f in facts if f not in local},
    )


def encode_cursor(team: str | None, local: str | None) -> str | None:
    if team is None and local is None:
        return None
    raw = json.dumps({"t": team, "l": local}).encode()
    return "tm_" + base64.urlsafe_b64encode(raw).decode()


def decode_cursor(cursor: str | None) -> tuple[str | None, str | None, bool]:
    """(team cursor, local cursor, whether each side still has more); a foreign cursor is
    refused."""
    if cursor is None:
        return None, None, True
    try:
        data = json.loads(base64.urlsafe_b64decode(cursor.removeprefix("tm_").encode()))
        if not cursor.startswith("tm_") or not isinstance(data, dict):
            raise ValueError(cursor)
        team, local = data.get("t"), data.get("l")
        if not all(v is None or isinstance(v, str) for v in (team, local)):
            raise ValueError(cursor)
    except (ValueError, binascii.Error, UnicodeDecodeError, RecursionError):
        raise InvalidArgumentError("cursor is not one this search returned") from None
    return team, local, False
