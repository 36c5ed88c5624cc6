"""The lexical statistics of a Postgres store: when a re-read keeps the words' counts."""

from __future__ import annotations

from squirrel_memory.storage.postgres.search import COUNTS_SECONDS, STATS_SECONDS, SearchStats


def _counted(total: int) -> SearchStats:
    stats = SearchStats().renewed(0.0, total, 12.0)
    stats.doc_freq["cache"] = 4_000
    stats.lexemes["cache"] = "'cach'"
    return stats


def test_a_reread_keeps_the_counts_while_the_total_barely_moved() -> None:
    stats = _counted(100_000)
    later = stats.renewed(STATS_SECONDS, 100_900, 12.5)
    assert later.total == 100_900 and later.avg_length == 12.5
    assert later.doc_freq == {"cache": 4_000} and later.lexemes == {"cache": "'cach'"}
    assert later.counted_at == 0.0 and later.taken_at == STATS_SECONDS


def test_the_counts_are_read_again_when_the_total_moved_or_they_are_old() -> None:
    assert _counted(100_000).renewed(STATS_SECONDS, 101_001, 12.0).doc_freq == {}
    assert _counted(100_000).renewed(COUNTS_SECONDS, 100_000, 12.0).doc_freq == {}
    written = _counted(100_000)
    written.changed(1_001)
    assert written.renewed(STATS_SECONDS, 100_000, 12.0).doc_freq == {}
    assert SearchStats().renewed(0.0, 5, 1.0).counted_at == 0.0
