"""The C and C++ unit-test framework a code file includes, by the framework's own header.

C and C++ have no package manifest that declares a test framework: a test file says it by the
header it includes (`#include <acutest.h>`, `#include <gtest/gtest.h>`, `#include
<catch2/catch_test_macros.hpp>`). Only a header that is the framework's own name counts, in a
file of C or C++ code; a header any project might have of its own (`check.h`, `unity.h`,
`test.h`), a runtime linked in (`lua.h`, `Python.h`), and a test file's name (`ctest_*.c` is no
sign of CMake's CTest) say nothing.
"""

from __future__ import annotations

import re

#: `#include <acutest.h>` and `#include "gtest/gtest.h"`, after a read's line number.
_INCLUDE = re.compile(
    r"^[ \t]*(?:\d+[ \t]*(?:→|\t)[ \t]*)?#[ \t]*include[ \t]*[<\"](?P<header>[\w./+-]+)[>\"]",
    re.MULTILINE,
)
#: The languages whose code is read for them.
C_FAMILY = frozenset({"C", "C++", "Objective-C", "CUDA"})
#: A framework's header → its name; a folder (`catch2/`) stands for every header in it.
_HEADERS: dict[str, str] = {
    "acutest.h": "acutest",
    "cmocka.h": "cmocka",
    "criterion/": "Criterion",
    "CUnit/": "CUnit",
    "greatest.h": "greatest",
    "munit.h": "µnit",
    "utest.h": "utest.h",
    "gtest/": "GoogleTest",
    "gmock/": "GoogleTest",
    "catch2/": "Catch2",
    "catch.hpp": "Catch2",
    "doctest.h": "doctest",
    "doctest/": "doctest",
    "boost/test/": "Boost.Test",
}


def included_test_frameworks(text: str, language: str | None) -> set[tuple[str, str]]:
    """("testing", framework) for each test framework a C or C++ `text` includes."""
    if language not in C_FAMILY:
        return set()
    found: set[tuple[str, str]] = set()
    for match in _INCLUDE.finditer(text):
        header = match.group("header")
        folder = header.split("/", 1)[0] + "/" if "/" in header else ""
        name = _HEADERS.get(header) or (_HEADERS.get(folder) if folder else None)
        if name:
            found.add(("testing", name))
    return found
