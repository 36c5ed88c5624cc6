"""Which modules a session starts with: one a later session went back to, not every one read.

A module memory says what a part of the code does, in the words of the file or README that
speaks for it, with the files it holds. At a session start it is a guess that the session will
work there, and the assistant opens the file itself when a task leads to it. In the foresight
replay 28 of the 35 module lines the session starts served went unused (the session touched
none of their files), and they were the longest lines of the brief. So a module opens a session
only once a session it was served to used it (`heeded`: a file it names was read or written
after it was served, from its outcomes); until then it waits to be asked: search, the per-prompt
context (a prompt naming one of its files) and the brief view asked for outside a session start
still give it. A module the user or a model wrote is not judged by this rule, nor is any other
fact.
"""

from __future__ import annotations

from collections.abc import Callable

from squirrel_memory.models import MemoryItem, MemorySource, MemoryType

__all__ = ["MODULE_PREFIX", "earns_a_start"]

#: The key of a module memory (`extractors.module_facts`).
MODULE_PREFIX = "module:"


def earns_a_start(item: MemoryItem, heeded: Callable[[MemoryItem], bool]) -> bool:
    """Whether `item` may be in the brief a session starts with: anything but a rules' module,
    and a rules' module that a session it was served to used (`heeded`)."""
    if item.type != MemoryType.PROJECT_FACT or not item.key.startswith(MODULE_PREFIX):
        return True
    return item.source != MemorySource.RULES or heeded(item)
