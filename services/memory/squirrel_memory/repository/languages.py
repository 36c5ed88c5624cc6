"""Language shares of a repository, from the sizes of its tracked files.

Vendored, generated and dependency folders and files are left out, so a vendored copy of a
JavaScript library does not make an Elixir app "JavaScript", and a template's files (a path
with a `{{ placeholder }}`) do not make their stack the template repository's.
`primary_ecosystems` is what other code asks (is `npx vitest run` the project's test command,
or a sub-folder's?).
"""

from __future__ import annotations

import posixpath
import re
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
        "_vendor",
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
        ".build",
        "_opam",
        ".zig-cache",
        "zig-cache",
        "zig-out",
        ".stack-work",
        "dist-newstyle",
        ".cpcache",
        "elm-stuff",
        ".gradle",
        ".pub-cache",
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


#: Suffixes two kinds of file share, and what else in the repository shows the language they
#: are counted as (other suffixes of it, its manifests, names only it uses: `a.test.ts`): a
#: `.ts` file is TypeScript or an MPEG transport stream (a video test asset), a `.pl` file
#: Perl or Prolog. Without a sign of the language, such files count for
#: nothing: less is said rather than something wrong.
_SHARED_SUFFIXES: dict[str, tuple[frozenset[str], frozenset[str], tuple[str, ...]]] = {
    ".ts": (
        frozenset({".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".vue", ".svelte"}),
        frozenset({"package.json", "tsconfig.json", "deno.json", "deno.jsonc"}),
        (".test.ts", ".spec.ts", ".d.ts", ".config.ts"),
    ),
    ".pl": (
        frozenset({".pm", ".xs", ".pod"}),
        frozenset({"cpanfile", "makefile.pl", "build.pl", "dist.ini"}),
        (),
    ),
}


#: A header (`.h`) is C or C++: the sources beside it say which, and neither when they hold
#: both or none.
_C_SOURCES = frozenset({".c"})
_CPP_SOURCES = frozenset({".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx"})


def _header_language(suffixes: set[str]) -> tuple[str, str]:
    c, cpp = bool(suffixes & _C_SOURCES), bool(suffixes & _CPP_SOURCES)
    if cpp and not c:
        return ("C++", "c")
    if c and not cpp:
        return ("C", "c")
    return ("C/C++", "c")


def shown_shared_suffixes(paths: Iterable[str]) -> set[str]:
    """The shared suffixes (`_SHARED_SUFFIXES`) whose language the repository shows."""
    suffixes: set[str] = set()
    names: set[str] = set()
    for path in paths:
        if is_excluded(path):
            continue
        suffixes.add(posixpath.splitext(path)[1].lower())
        names.add(posixpath.basename(path).lower())
    return {
        shared
        for shared, (others, markers, endings) in _SHARED_SUFFIXES.items()
        if suffixes & others or names & markers or any(n.endswith(endings) for n in names)
    }


#: A template placeholder in a path (`{{cookiecutter.project_slug}}/`, `{% if x %}a.py{% endif
#: %}`): the file is a template's, what a generated project will hold, not this project's.
_PLACEHOLDER = re.compile(r"\{\{|\{%")


def is_excluded(path: str) -> bool:
    """True for vendored, generated, build and dependency files and a template's files (never
    counted or read)."""
    if _PLACEHOLDER.search(path):
        return True
    parts = path.split("/")
    if any(part in _EXCLUDED_DIRS for part in parts[:-1]):
        return True
    if path.startswith(_EXCLUDED_PATHS) or any(f"/{p}" in path for p in _EXCLUDED_PATHS):
        return True
    return path.endswith(_GENERATED_SUFFIXES)


def without_unshown(paths: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """(path, id) pairs of a listing, less the files of a shared suffix (a `.ts` video
    segment) whose language nothing else in the listing shows."""
    pairs = list(paths)
    shown = shown_shared_suffixes(path for path, _ in pairs)
    return [
        (path, ref)
        for path, ref in pairs
        if (suffix := posixpath.splitext(path)[1].lower()) not in _SHARED_SUFFIXES
        or suffix in shown
    ]


def language_shares(files: Iterable[TrackedFile]) -> list[LanguageShare]:
    """Languages of the tracked files by size, largest first (shares sum to 1)."""
    tracked_files = list(files)
    shown = shown_shared_suffixes(t.path for t in tracked_files)
    header = _header_language(
        {posixpath.splitext(t.path)[1].lower() for t in tracked_files if not is_excluded(t.path)}
    )
    sizes: dict[tuple[str, str], int] = {}
    for tracked in tracked_files:
        found = language_of(tracked.path)
        if found is None or is_excluded(tracked.path):
            continue
        suffix = posixpath.splitext(tracked.path)[1].lower()
        if suffix in _SHARED_SUFFIXES and suffix not in shown:
            continue
        if suffix == ".h":
            found = header
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
