"""The views' arguments checked (mode, task, scope paths) and hashed into a cache key."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from squirrel_core.errors import InvalidArgumentError
from squirrel_memory.retrieval import MAX_QUERY_CHARS
from squirrel_memory.views.markdown import one_line
from squirrel_memory.views.models import ViewMode, ViewName


def checked_mode(mode: str) -> ViewMode:
    if mode == "core":
        return "core"
    if mode == "full":
        return "full"
    raise InvalidArgumentError("mode must be 'core' or 'full'")


def task_text(task: str | None) -> str:
    if task is None:
        return ""
    if not isinstance(task, str):
        raise InvalidArgumentError("task_description must be a string")
    return one_line(task[:MAX_QUERY_CHARS].replace("\x00", " "))


def clean_paths(paths: Sequence[str]) -> tuple[str, ...]:
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


def params_key(name: ViewName, *parts: str | None) -> str:
    material = json.dumps([str(name), *parts], ensure_ascii=True)
    return hashlib.sha256(material.encode("ascii")).hexdigest()[:32]
