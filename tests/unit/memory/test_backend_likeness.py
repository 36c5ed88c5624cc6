"""The two storage backends' likeness is measured for every pair of namesake modules, and
reported (as information: a pair that grows back to saying things twice shows in the table,
`python -m bench.backend_likeness`; no threshold is asserted)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.backend_likeness import STORAGE, likeness, shared_lines, table, worded_lines


def test_every_pair_of_namesake_backend_modules_is_measured_and_reported(
    record_property: pytest.RecordProperty, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = likeness()
    sqlite = {p.stem for p in (STORAGE / "sqlite").glob("*.py")} - {"__init__"}
    postgres = {p.stem for p in (STORAGE / "postgres").glob("*.py")} - {"__init__"}
    assert [r.name for r in rows] == sorted(sqlite & postgres)
    assert {"events", "memories", "store"} <= {r.name for r in rows}
    for row in rows:
        assert 0 < row.shared <= min(row.sqlite_lines, row.postgres_lines), row
        assert row.worded == len(row.said) <= row.shared, row
    record_property("backend_shared_lines", {r.name: r.shared for r in rows})
    with capsys.disabled():
        print("\n" + table(rows))


def test_the_measure_counts_the_lines_two_modules_hold_in_the_same_order(tmp_path: Path) -> None:
    text = "x = 1\n\nprint(x)\nx += 1\n"
    assert shared_lines(text, text) == 4
    assert shared_lines(text, "x = 2\ny = 3\n") == 0
    # Lines that moved count once: only those still in order.
    assert shared_lines("a\nb\nc\n", "c\na\nb\n") == 2
    # Different SQL around the same Python: the Python lines count, the SQL lines do not (and a
    # signature never does).
    left = 'def g(conn):\n    rows = conn.execute("SELECT 1 FROM t WHERE a = ?")\n    return rows\n'
    right = (
        'def g(conn):\n    rows = conn.execute("SELECT 1 FROM t WHERE a = %s")\n    return rows\n'
    )
    assert shared_lines(left, right) == 1


def test_imports_and_signature_lines_are_not_counted_as_alike() -> None:
    # Two modules that only import the same names and define the same signatures share nothing
    # but their blank lines: what both import or what a contract makes both declare is not code
    # said twice.
    left = (
        "from __future__ import annotations\n"
        "\n"
        "from shared import (\n"
        "    check_key,\n"
        "    kept_reply,\n"
        ")\n"
        "import json\n"
        "\n"
        "\n"
        "class Replies:\n"
        "    async def claim(\n"
        "        self, key: str, now: float\n"
        "    ) -> bool:\n"
        '        return self.conn.execute("SELECT 1 WHERE k = ?", (key,))\n'
    )
    right = left.replace('"SELECT 1 WHERE k = ?", (key,)', '"INSERT %s ON CONFLICT", [key]')
    assert shared_lines(left, right) == 4  # the three blank lines and `class Replies:`
    # A body line both say is still counted, and a one-line def keeps its body.
    left_body = "def f(x: int) -> int: return x + 1\n\ndef g(y):\n    z = y * 2\n    return z\n"
    right_body = "def f(x: int) -> int: return x + 1\n\ndef g(y):\n    z = y * 2\n    return -z\n"
    assert shared_lines(left_body, right_body) == 3  # `def f(...): return x + 1`, blank, `z = ...`
    # Text that is not Python (a fragment) is compared line by line, as before.
    assert shared_lines("a\nb\n", "a\nb\n") == 2


def test_worded_lines_are_the_shared_lines_that_say_something() -> None:
    # Blank lines and lone brackets are laid out alike in any two modules: not counted as
    # worded. A shared line with a name or a number is, in the left module's order.
    left = 'X = (\n    "CREATE TABLE t (a INTEGER)",\n)\n\ny = f(\n    1,\n)\n'
    right = 'X = (\n    "CREATE TABLE t (a bigint)",\n)\n\ny = f(\n    2,\n)\n'
    assert shared_lines(left, right) == 5  # `X = (`, `)`, blank, `y = f(`, `)`
    assert worded_lines(left, right) == ["X = (", "y = f("]
    assert worded_lines("(\n)\n\n", "(\n)\n\n") == []
