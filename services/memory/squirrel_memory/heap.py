"""Handing freed heap memory back to the system after a large one-time build."""

from __future__ import annotations

import ctypes


def release_free_memory() -> None:
    """Return the C heap's free pages to the system (glibc `malloc_trim(0)`): after a build
    frees its temporary buffers, glibc otherwise keeps them resident in the process. A no-op
    without glibc."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError, TypeError):  # no glibc; Windows takes no None
        return
    trim(0)
