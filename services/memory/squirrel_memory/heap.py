"""After a large one-time build: freed heap memory handed back to the system, and the objects
left kept out of the garbage collector's full passes."""

from __future__ import annotations

import ctypes
import gc


def release_free_memory() -> None:
    """Return the C heap's free pages to the system (glibc `malloc_trim(0)`): after a build
    frees its temporary buffers, glibc otherwise keeps them resident in the process. A no-op
    without glibc."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError, TypeError):  # no glibc; Windows takes no None
        return
    trim(0)


def freeze_long_lived() -> None:
    """Collect once, then move every object left to the collector's permanent generation
    (`gc.freeze`): a full collection would otherwise walk a loaded store's objects again each
    time (30-70 ms at 100,000 memories) and stall whichever search it lands in. Frozen objects
    are still freed when nothing refers to them; only cycles among them wait."""
    gc.collect()
    gc.freeze()
