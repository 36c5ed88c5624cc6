"""The C and C++ unit-test framework a code file includes, by the framework's own header."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.test_headers import included_test_frameworks
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)

ACUTEST = (
    "// Test the moment calculator.\n#include <acutest.h>\n\n#include <plasma_array.h>\n"
    '#include <lua.h>\n#include "check.h"\n\nvoid test_1x1v(void) { TEST_CHECK(1); }\n'
    'TEST_LIST = {\n  {"test_1x1v", test_1x1v},\n  {NULL, NULL},\n};\n'
)
GTEST = (
    '#include "ledger/posting.hpp"\n#include <gtest/gtest.h>\n\n'
    "TEST(Posting, Balances) { EXPECT_EQ(0, balance()); }\n"
)
CATCH2 = '#include <catch2/catch_test_macros.hpp>\n\nTEST_CASE("balances") { REQUIRE(true); }\n'


@pytest.mark.parametrize(
    ("text", "language", "framework"),
    [(ACUTEST, "C", "acutest"), (GTEST, "C++", "GoogleTest"), (CATCH2, "C++", "Catch2")],
    ids=["c-acutest", "cpp-googletest", "cpp-catch2"],
)
def test_a_frameworks_own_header_names_it(text: str, language: str, framework: str) -> None:
    assert included_test_frameworks(text, language) == {("testing", framework)}


def test_a_read_with_line_numbers_is_read_the_same() -> None:
    numbered = "".join(f"{n:>6}\t{line}\n" for n, line in enumerate(GTEST.splitlines(), 1))
    assert included_test_frameworks(numbered, "C++") == {("testing", "GoogleTest")}


@pytest.mark.parametrize(
    ("text", "language"),
    [
        # Headers any project may have of its own, and a runtime linked in.
        ('#include "check.h"\n#include <unity.h>\n#include "test.h"\n#include <lua.h>\n', "C"),
        # A framework's header named in another language's text.
        ('"""Wraps `#include <acutest.h>` tests."""\n#include <gtest/gtest.h>\n', "Python"),
        # A header whose name only starts like a framework folder's.
        ("#include <gtest_helpers.h>\n#include <catch2_compat.h>\n", "C++"),
    ],
    ids=["own-headers", "other-language", "look-alike-names"],
)
def test_no_framework_from_other_headers_or_other_languages(text: str, language: str) -> None:
    assert included_test_frameworks(text, language) == set()


@pytest.mark.parametrize(
    ("path", "text", "run", "framework"),
    [
        ("unit/ctest_moments.c", ACUTEST, "make build/unit/ctest_moments", "acutest"),
        ("tests/posting_test.cpp", GTEST, "cmake --build build", "GoogleTest"),
    ],
    ids=["c-make", "cpp-cmake"],
)
def test_a_test_file_read_states_its_framework_and_never_ctest(
    path: str, text: str, run: str, framework: str
) -> None:
    session = Session("/home/dev/plasma", "plasma", T0)
    session.user("Merge the two tests into one file.")
    session.read(path, text)
    session.edit_lines(path, "old", "new")
    session.run(run, 0, "cc -o build/unit/ctest_moments -lluajit-5.1\n")
    found = session.extracted()

    testing = [c.content for c in found if c.key == "testing"]
    assert testing == [f"Tests are written with {framework}."]
    for memory in found:
        assert "CTest" not in memory.content and "Lua" not in memory.content
