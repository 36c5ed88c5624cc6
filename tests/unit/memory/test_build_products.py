"""What the project's build makes, as its output says (build_products)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from squirrel_memory.extractors.build_products import products
from tests.unit.memory.session_builder import Session

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)

#: (build command, a first product, a second product): the rule names none of them.
BUILDS = [
    ("make all", ("Server binary", "dist/ledger"), ("init CLI", "dist/init")),
    ("just build", ("Wasm module", "pkg/ledger_bg.wasm"), ("Docs site", "site/")),
    ("./build.sh", ("Signed package", "Ledger Daily.shortcut"), ("Helper", "out/helper")),
    ("npm run build", ("Extension bundle", "dist/extension.js"), ("Web view", "dist/view.js")),
]


def _facts(session: Session) -> list[str]:
    return [c.content for c in session.extracted() if c.key == "build_products"]


@pytest.mark.parametrize(("command", "first", "second"), BUILDS, ids=[b[0] for b in BUILDS])
def test_a_passing_build_that_lists_what_it_made_says_what_the_project_builds(
    command: str, first: tuple[str, str], second: tuple[str, str]
) -> None:
    session = Session("/home/dev/ledger", "s1", T0)
    session.run(
        command,
        0,
        f"🚀 Building {first[0]}...\nmkdir -p dist\n\x1b[32m✅ {first[0]} built: {first[1]}\x1b[0m\n"
        f"Building {second[0]}...\r\n✅ {second[0]} built: {second[1]}\r\n",
    )

    assert _facts(session) == [
        f"`{command}` builds, as its output says: {first[0]} `{first[1]}`; "
        f"{second[0]} `{second[1]}`."
    ]


@pytest.mark.parametrize(
    ("exit_code", "output"),
    [
        (1, "✅ Server binary built: dist/ledger\n✅ init CLI built: dist/init\nError 2\n"),
        (None, "✅ Server binary built: dist/ledger\n✅ init CLI built: dist/init\n"),
        (0, "✅ Server binary built: dist/ledger\nDone.\n"),  # one line: a step's log
        (0, "✅ Server binary built: dist/ledger\n✅ Server binary built: dist/ledger\n"),
        (0, "Successfully built: 4f3a2b\nImage was built: ledger:latest\n"),  # statuses
        (0, "Building Server binary...\nBuilding init CLI...\n"),  # steps begun
        (0, "dist/ledger built in 3s\ndist/init built in 1s\n"),  # timings
    ],
)
def test_a_failed_run_one_product_or_no_product_line_says_nothing(
    exit_code: int | None, output: str
) -> None:
    session = Session("/home/dev/ledger", "s1", T0)
    session.run("make all", exit_code, output)

    assert _facts(session) == []


def test_products_keep_the_printed_order_without_repeats() -> None:
    output = "a built: x\n\x1b[1mB lib built: y\x1b[0m\na built: x\nstatus: ok\n"

    assert products(output) == [("a", "x"), ("B lib", "y")]
