"""The HNSW graph's build parameters on Postgres: defaults and the limits pgvector takes.

Kept apart from `vectors` (which needs the Postgres driver) so the settings are checked at the
memory service's start on any install.
"""

from __future__ import annotations

from squirrel_core.errors import InvalidArgumentError

PGVECTOR_GRAPH = (16, 64)
"""pgvector's own `m` and `ef_construction`: those of an index built without them."""
DEFAULT_HNSW_M = 16
DEFAULT_EF_CONSTRUCTION = 128
"""Over 100,000 MiniLM-shaped vectors searched with questions, recall@10 0.999 at `ef_search`
400 against pgvector's 64's 0.976 (0.998 against 0.979 over 250,000, there at twice the search
time), and at 200 as much as 64 at 400, for twice the build (docs/benchmarks.md, "HNSW on a
sentence model's vectors")."""
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
