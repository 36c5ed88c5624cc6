"""The files a host loads through its instruction files' imports (`@AGENTS.md` in CLAUDE.md).

Claude Code and Gemini CLI expand an `@path` written in CLAUDE.md or GEMINI.md into the file it
names (relative to the importing file, up to `MAX_HOPS` imports deep), so a repository whose
CLAUDE.md is the single line `@AGENTS.md` has AGENTS.md in every Claude Code session: what
Squirrel read only from it would be echoed to that host. An `@` inside a code span or a fenced
block, an e-mail address, a path outside the project or a file that does not exist is no
import; Codex does not expand imports, so its files are taken as they are. An instruction file
that holds nothing but imports (CLAUDE.md made of `@AGENTS.md`) says nothing of its own to any
host (`bare_importers`): what was read only from it is left out for every host, the imported
file standing for it (loaded by the host, or read from it). A cloned repository
is not the user's to vouch for: a named pipe or a device where an instruction file was
expected is skipped, never waited on.
"""

from __future__ import annotations

import io
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Final

import structlog

from squirrel_core.regular_files import NotAFileError, open_regular

log = structlog.get_logger()

#: How many imports deep a host follows (Claude Code's documented limit).
MAX_HOPS: Final = 5
#: The most of an instruction file read for its imports.
MAX_CHARS: Final = 64_000
#: The most files one host's list grows to.
MAX_FILES: Final = 32
#: The most instruction files whose imports are kept between hook calls (by path, size and
#: modification time: an edited file is read again).
CACHED_FILES: Final = 64
_FENCE_OPEN = ("```", "~~~")
_FENCE_CLOSE = re.compile(r"(?:```|~~~)[ \t]*")
_CODE_SPAN = re.compile(r"`[^`\n]*`")
#: `@path` at a word's start: not an e-mail address (`me@host.org`), not `@@`, not `@~/…`.
_IMPORT = re.compile(r"(?<![\w@`/.-])@((?:\.{1,2}/)?[\w.-]+(?:/[\w.-]+)*)")
_cache: OrderedDict[tuple[str, int, int], tuple[tuple[str, ...], bool]] = OrderedDict()
_cache_lock = threading.Lock()


def with_imports(root: str, files: Sequence[str]) -> tuple[str, ...]:
    """`files` (project-relative instruction files a host loads) and, after them, every file
    of the project they import, followed `MAX_HOPS` deep; the files as given when none import."""
    base = Path(root)
    found: dict[str, None] = dict.fromkeys(files)
    frontier = list(files)
    for _ in range(MAX_HOPS):
        following: list[str] = []
        for name in frontier:
            for imported in _imports(base, name):
                if imported not in found and len(found) < MAX_FILES:
                    found[imported] = None
                    following.append(imported)
        if not following:
            break
        frontier = following
    return tuple(found)


def _imports(base: Path, name: str) -> list[str]:
    """The project files `name` imports, project-relative, in the order it names them."""
    path = base / name
    try:
        written, _ = _written_imports(path)
        root = base.resolve()
        folder = path.resolve().parent
    except NotAFileError:
        log.warning("import_skipped", reason="not_a_file")  # a pipe or a device: never read
        return []
    except OSError:
        return []  # missing, a folder, or unreadable
    out: list[str] = []
    for spec in written:
        target = (folder / spec).resolve()
        try:
            relative = target.relative_to(root).as_posix()
            if target.is_file() and relative not in out:
                out.append(relative)
        except (ValueError, OSError):
            continue  # outside the project, or unreadable
    return out


def bare_importers(root: str, files: Sequence[str]) -> tuple[str, ...]:
    """Those of `files` (project-relative) that hold nothing but imports: one `@path` or more
    and, around them, only blank space. A missing, unreadable or special file is none."""
    base = Path(root)
    found: list[str] = []
    for name in files:
        try:
            _, bare = _written_imports(base / name)
        except NotAFileError:
            log.warning("import_skipped", reason="not_a_file")
            continue
        except OSError:
            continue
        if bare:
            found.append(name)
    return tuple(found)


def _written_imports(path: Path) -> tuple[tuple[str, ...], bool]:
    """The `@path`s written in the prose of the regular file at `path` (its first `MAX_CHARS`
    characters), as written, and whether the file holds nothing else. A pipe or a device put
    where an instruction file was expected is refused without waiting on it (`open_regular`).
    A file read before with the same size and modification time is not read again: the last
    `CACHED_FILES` files' imports are kept."""
    with open_regular(path) as handle:
        seen = os.fstat(handle.fileno())
        key = (os.fspath(path), seen.st_mtime_ns, seen.st_size)
        with _cache_lock:
            if (cached := _cache.get(key)) is not None:
                _cache.move_to_end(key)
                return cached
        with io.TextIOWrapper(handle, encoding="utf-8", errors="replace") as text:
            raw = text.read(MAX_CHARS)
    prose = _CODE_SPAN.sub(" ", _outside_fences(raw))
    written = tuple(match.group(1).rstrip(".") for match in _IMPORT.finditer(prose))
    bare = bool(written) and not _IMPORT.sub(" ", raw).strip()
    with _cache_lock:
        _cache[key] = (written, bare)
        _cache.move_to_end(key)
        while len(_cache) > CACHED_FILES:
            _cache.popitem(last=False)
    return written, bare


def _outside_fences(text: str) -> str:
    """`text` with its fenced blocks (a line opening with three backticks or tildes, through
    the next line that is only such a fence) blanked, in one pass over its lines; an opening
    fence never closed leaves the rest as it is."""
    lines = text.split("\n")
    opened: int | None = None
    for index, line in enumerate(lines):
        if opened is None:
            if line.startswith(_FENCE_OPEN):
                opened = index
        elif _FENCE_CLOSE.fullmatch(line):
            lines[opened : index + 1] = [""] * (index + 1 - opened)
            opened = None
    return "\n".join(lines)
