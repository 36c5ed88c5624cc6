"""A project that ships a library: public headers in a folder named after it (public_headers)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.public_headers import public_headers
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)

#: (project folder, include folder, header suffix): the rule names none of them.
LAYOUTS = [
    ("/home/dev/ledger", "ledger", "h"),
    ("/home/dev/fast-ledger", "fast_ledger", "hpp"),
    ("/Users/ana/src/Ledger", "ledger", "hh"),
]


def _seen(*paths: str) -> list[tuple[str, str]]:
    return [(path, f"e{at}") for at, path in enumerate(paths)]


@pytest.mark.parametrize(("root", "folder", "suffix"), LAYOUTS)
def test_headers_under_include_named_after_the_project_say_it_ships_a_library(
    root: str, folder: str, suffix: str
) -> None:
    seen = _seen(
        "README.md",
        f"include/{folder}/books.{suffix}",
        "src/books.c",
        f"include/{folder}/tensor.{suffix}",
        f"include/{folder}/books.{suffix}",
    )

    fact = public_headers(root, seen)

    assert fact is not None
    name = root.rsplit("/", 1)[-1]
    assert fact.content == (
        f"The project `{name}` ships a library: its public headers are in `include/{folder}/` "
        f"(`books.{suffix}`, `tensor.{suffix}`)."
    )
    assert fact.event_ids == ("e1", "e3")


def test_many_headers_are_counted_not_cut_off() -> None:
    seen = _seen(*(f"include/ledger/h{n}.h" for n in range(11)))

    fact = public_headers("/home/dev/ledger", seen)

    assert fact is not None
    assert fact.content.endswith("`h7.h` and 3 more).")


@pytest.mark.parametrize(
    "paths",
    [
        ("include/ledger/books.h",),  # one header
        ("include/books.h", "include/tensor.h"),  # a bare include folder
        ("include/other/books.h", "include/other/tensor.h"),  # another name
        ("vendor/include/ledger/a.h", "third_party/include/ledger/b.h"),  # not at the root
        ("include/ledger/detail/a.h", "include/ledger/detail/b.h"),  # not directly in it
        ("src/ledger/a.h", "src/ledger/b.h"),  # private headers beside the sources
        ("include/ledger/a.c", "include/ledger/b.txt"),  # no headers
    ],
)
def test_other_layouts_say_nothing(paths: tuple[str, ...]) -> None:
    assert public_headers("/home/dev/ledger", _seen(*paths)) is None


def test_a_folder_name_that_says_nothing_says_nothing() -> None:
    seen = _seen("include/src/a.h", "include/src/b.h")

    assert public_headers("/home/dev/src", seen) is None


def test_a_listed_include_folder_is_kept_from_a_session() -> None:
    session = Session("/home/dev/ledger", "s1", T0)
    session.run(
        "ls include/ledger",
        0,
        "ledger_books.h\nledger_tensor.h\n",
    )

    facts = [c.content for c in session.extracted() if c.key == "public_headers"]

    assert facts == [
        "The project `ledger` ships a library: its public headers are in `include/ledger/` "
        "(`ledger_books.h`, `ledger_tensor.h`)."
    ]
