"""The languages a root `CMakeLists.txt` read in a session declares: a CMake build names the
languages it compiles in its `project()` call (`project(rivet VERSION 1.2 LANGUAGES C)`, or
the short form `project(ringbuf C)`) and may add one later (`enable_language(CXX)`). What it
declares says more than the "C/C++" a `CMakeLists.txt` alone gives: `LANGUAGES C` is a C
project, `LANGUAGES CXX` a C++ one, `LANGUAGES C CXX` both. A `project()` that names none (CMake
then enables C and C++ both), `LANGUAGES NONE` or a name given by a variable says nothing, and
the statement stays as the code files make it."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from squirrel_memory.extractors.about import last_root_reads
from squirrel_memory.models import StoredEvent

#: CMake's language names → the names the language statement uses.
_LANGUAGES = {
    "C": "C",
    "CXX": "C++",
    "CUDA": "CUDA",
    "OBJC": "Objective-C",
    "OBJCXX": "Objective-C++",
    "Fortran": "Fortran",
    "ASM": "Assembly",
    "ASM-ATT": "Assembly",
    "ASM_NASM": "Assembly",
    "ASM_MASM": "Assembly",
    "Swift": "Swift",
    "CSharp": "C#",
    "HIP": "HIP",
}
#: The keywords of `project()` that take values of their own.
_KEYWORDS = frozenset({"VERSION", "DESCRIPTION", "HOMEPAGE_URL", "LANGUAGES"})
_PROJECT = re.compile(r'^\s*project\s*\(((?:"[^"]*"|[^)"])*)\)', re.IGNORECASE | re.MULTILINE)
_ENABLE = re.compile(r"^\s*enable_language\s*\(([^)]*)\)", re.IGNORECASE | re.MULTILINE)
_WORD = re.compile(r'"[^"]*"|[^\s"]+')


def declared_languages(text: str) -> tuple[str, ...]:
    """The languages a `CMakeLists.txt` text declares, in its order (`C`, `C++`); () when its
    `project()` names none or the text has no `project()`."""
    project = _PROJECT.search(_without_comments(text))
    if project is None:
        return ()
    words = _WORD.findall(project.group(1))[1:]  # the first is the project's name
    if "LANGUAGES" in words:
        named = []
        for word in words[words.index("LANGUAGES") + 1 :]:
            if word in _KEYWORDS:
                break
            named.append(word)
    elif not _KEYWORDS.intersection(words):
        named = words  # the short form: `project(ringbuf C)`
    else:
        return ()
    if not named or not all(word in _LANGUAGES for word in named):
        return ()  # `NONE`, a variable, a name CMake does not know: nothing said
    for enabled in _ENABLE.findall(_without_comments(text)):
        named.extend(word for word in _WORD.findall(enabled) if word in _LANGUAGES)
    return tuple(dict.fromkeys(_LANGUAGES[word] for word in named))


def _without_comments(text: str) -> str:
    return re.sub(r"#[^\n]*", "", text)


def cmake_languages(events: list[StoredEvent]) -> tuple[str, ...]:
    """The languages the root `CMakeLists.txt` the session last read declares; () if none."""
    reads = last_root_reads(events, lambda path: PurePosixPath(path).name == "CMakeLists.txt")
    return next((declared_languages(text) for _event, text in reads.values()), ())
