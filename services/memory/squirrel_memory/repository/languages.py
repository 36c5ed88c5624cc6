"""Language shares of a repository, from the sizes of its tracked files.

Vendored, generated and dependency folders and files are left out, so a vendored copy of a
JavaScript library does not make an Elixir app "JavaScript". `primary_ecosystems` is what other
code asks (is `npx vitest run` the project's test command, or a sub-folder's?).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from squirrel_memory.code_files import language_of
from squirrel_memory.repository.snapshot import (
    NotARepositoryError,
    TrackedFile,
    head_of,
    take_snapshot,
)

#: A language below this share of the code is not a primary ecosystem (the largest always is).
PRIMARY_SHARE = 0.25

_EXCLUDED_DIRS = frozenset(
    {
        "node_modules",
        "bower_components",
        "jspm_packages",
        "vendor",
        "vendored",
        "third_party",
        "third-party",
        "thirdparty",
        "external",
        "externals",
        "deps",
        "_build",
        "target",
        "dist",
        "build",
        "out",
        ".venv",
        "venv",
        ".tox",
        ".nox",
        "site-packages",
        "__pycache__",
        "Pods",
        "Carthage",
        ".dart_tool",
        "coverage",
        "htmlcov",
        ".next",
        ".nuxt",
        ".svelte-kit",
        "generated",
        "__generated__",
        "gen",
        "fixtures",
        "testdata",
    }
)
_EXCLUDED_PATHS = ("priv/static/", "public/assets/", "public/build/", "static/dist/")
_GENERATED_SUFFIXES = (
    ".min.js",
    ".min.css",
    ".bundle.js",
    ".pb.go",
    "_pb2.py",
    "_pb2_grpc.py",
    "_pb2.pyi",
    ".g.dart",
    ".freezed.dart",
    ".generated.ts",
    ".designer.cs",
    ".d.ts",
)


@dataclass(frozen=True, slots=True)
class LanguageShare:
    """One language's tracked code: bytes and share of all counted code (0.0 - 1.0)."""

    language: str
    ecosystem: str
    bytes: int
    share: float


def is_excluded(path: str) -> bool:
    """True for vendored, generated, build and dependency files (never counted or read)."""
    parts = path.split("/")
    if any(part in _EXCLUDED_DIRS for part in parts[:-1]):
        return True
    if path.startswith(_EXCLUDED_PATHS) or any(f"/{p}" in path for p in _EXCLUDED_PATHS):
        return True
    return path.endswith(_GENERATED_SUFFIXES)


def language_shares(files: Iterable[TrackedFile]) -> list[LanguageShare]:
    """Languages of the tracked files by size, largest first (shares sum to 1)."""
    sizes: dict[tuple[str, str], int] = {}
    for tracked in files:
        found = language_of(tracked.path)
        if found is None or is_excluded(tracked.path):
            continue
        sizes[found] = sizes.get(found, 0) + max(tracked.size, 0)
    total = sum(sizes.values())
    if total == 0:
        return []
    ordered = sorted(sizes.items(), key=lambda item: (-item[1], item[0][0]))
    return [LanguageShare(lang, eco, size, size / total) for (lang, eco), size in ordered]


def ecosystem_shares(shares: Iterable[LanguageShare]) -> dict[str, float]:
    """Share of code per ecosystem (markup and styles left out), largest first."""
    found: dict[str, float] = {}
    for share in shares:
        if share.ecosystem:
            found[share.ecosystem] = found.get(share.ecosystem, 0.0) + share.share
    code = sum(found.values())
    if code <= 0:
        return {}
    return dict(sorted(((k, v / code) for k, v in found.items()), key=lambda kv: -kv[1]))


def primary_of(
    shares: Iterable[LanguageShare], min_share: float = PRIMARY_SHARE
) -> tuple[str, ...]:
    """The ecosystems holding at least `min_share` of the code (the largest always)."""
    by_ecosystem = ecosystem_shares(shares)
    return tuple(
        eco
        for index, (eco, share) in enumerate(by_ecosystem.items())
        if index == 0 or share >= min_share
    )


_CACHE_LOCK = threading.Lock()
_CACHE: dict[str, tuple[str, tuple[LanguageShare, ...]]] = {}


def repository_languages(root: str | Path) -> list[LanguageShare]:
    """Language shares of the repository at `root` at its HEAD (cached per commit)."""
    key = str(root)
    head = head_of(Path(root))
    if head is None:
        return []
    with _CACHE_LOCK:
        cached = _CACHE.get(key)
    if cached is not None and cached[0] == head:
        return list(cached[1])
    try:
        snapshot = take_snapshot(Path(root))
    except NotARepositoryError:
        return []
    shares = tuple(language_shares(snapshot.files.values()))
    with _CACHE_LOCK:
        _CACHE[key] = (snapshot.head, shares)
    return list(shares)


def primary_ecosystems(root: str | Path, min_share: float = PRIMARY_SHARE) -> tuple[str, ...]:
    """The main ecosystems of the repository at `root` (`("elixir",)` for a Phoenix app whose
    `assets/` hold some JavaScript); empty when it is not a git repository with commits."""
    return primary_of(repository_languages(root), min_share)
