"""The first-pass bench prints one row per index and size, from a real FaissIndex."""

from __future__ import annotations

from bench.index_first_pass import NAMES, measure


def test_each_index_gets_a_row_and_the_flat_first_pass_returns_the_exact_top_k() -> None:
    rows = measure(3_000, 8, 10, seed=3)  # above the size where the int8 pass starts
    assert len(rows) == len(NAMES)
    cells = [[c.strip() for c in row.strip("|").split("|")] for row in rows]
    assert [c[1] for c in cells] == list(NAMES)
    assert [c[2] for c in cells] == ["flat", "flat", "ivf"]
    # The flat index's int8 pass gives the full scan's hits (its ids checked against the scan's).
    assert cells[1][6] == "1.000"
    assert cells[0][5] == "1.00x"
