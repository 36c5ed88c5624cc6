"""bench/search_rankings.py's output: a ranking line changes with any change of a hit's text,
place or score, down to the last bit of the double."""

from __future__ import annotations

import math

from bench.search_rankings import memory_mark, ranking_line


def test_a_score_one_ulp_off_prints_another_line() -> None:
    score = 4.453059337010904
    hits = [(memory_mark("key", "content"), score)]
    nudged = [(memory_mark("key", "content"), math.nextafter(score, 0.0))]
    assert ranking_line(400, "lexical", 0, hits) != ranking_line(400, "lexical", 0, nudged)


def test_hits_are_named_by_their_text_and_kept_in_order() -> None:
    first, second = memory_mark("a", "one"), memory_mark("a", "two")
    assert first != second
    assert memory_mark("a", "one") == first
    line = ranking_line(10_000, "search", 3, [(first, 0.5), (second, 0.25)])
    assert line == f"10000 search q3: {first}:0.5 {second}:0.25"
    assert line != ranking_line(10_000, "search", 3, [(second, 0.5), (first, 0.25)])
