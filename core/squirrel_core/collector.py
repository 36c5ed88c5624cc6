"""The cyclic garbage collector of a long-lived service process, set once the service serves.

CPython collects its youngest generation each time 700 more container objects (tuples, lists,
dicts, class instances) have been made than freed. A search makes hundreds that are alive at
once (its hits, candidates, scores and the reply), so searches kept setting off collections that
walk every young object then alive: sampled over the memory service answering searches of 400
memories (`bench.search_perf`), the collector took about 0.09 ms of a search's CPU, next to
nothing of an empty one's, and 0.03 ms with this threshold. Objects freed by their reference
count do not count towards it, so raising it leaves only cycles (rare in this code) waiting
longer to be freed.

The objects made while starting (modules, settings, the servicer, the opened projects) live as
long as the process: they are moved out of the collector's scans (`gc.freeze`) once, so a full
collection walks only what was made since.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 10_000
"""Container objects made (net of those freed) between two collections of the youngest
generation (CPython's default: 700)."""


def settle_collector(young: int = YOUNG_THRESHOLD) -> None:
    """Collects once, freezes what survives out of later scans, and raises the youngest
    generation's threshold to `young` (the older generations' are kept)."""
    if young < 1:
        raise ValueError("young must be at least 1")
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(young, older, oldest)
