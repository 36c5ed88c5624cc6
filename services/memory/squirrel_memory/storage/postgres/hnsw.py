"""The HNSW graph's build parameters on Postgres: defaults and the limits pgvector takes.

Kept apart from `vectors` (which needs the Postgres driver) so the settings are checked at the
memory service's start on any install.
"""

from __future__ import annotations

from squirrel_core.errors import InvalidArgumentError

DEFAULT_HNSW_M = 16  # pgvector's defaults: recall@10 0.95 at ef_search 400 over 100,000 memories,
DEFAULT_EF_CONSTRUCTION = 64  # a third of m 32 / ef_construction 128's build (docs/benchmarks.md)
HNSW_M_RANGE = (2, 100)  # pgvector's limits
EF_CONSTRUCTION_RANGE = (4, 1000)


def check_hnsw(m: int, ef_construction: int) -> None:
    """`InvalidArgumentError` (one line naming the settings) unless pgvector takes this graph:
    m from 2 to 100, ef_construction from 4 to 1000 and at least twice m."""
    if not HNSW_M_RANGE[0] <= m <= HNSW_M_RANGE[1]:
        raise InvalidArgumentError(
            f"storage.postgres_hnsw_m must be from {HNSW_M_RANGE[0]} to {HNSW_M_RANGE[1]} (got {m})"
        )
    low, high = EF_CONSTRUCTION_RANGE
    if not low <= ef_construction <= high:
        raise InvalidArgumentError(
            f"storage.postgres_hnsw_ef_construction must be from {low} to {high} "
            f"(got {ef_construction})"
        )
    if ef_construction < 2 * m:
        raise InvalidArgumentError(
            f"storage.postgres_hnsw_ef_construction ({ef_construction}) must be at least twice "
            f"storage.postgres_hnsw_m ({m}), as pgvector requires"
        )
