"""Which pitfalls a session starts with: a trap whose trigger recurs, not a one-off.

The session start has room for a few lines, and a pitfall line is long. A pitfall earns one
when its trigger recurs:
- its error was met on more than one run, in one session or in several (`MET_AGAIN_TAG`, or
  "(seen in N sessions)" in a pitfall written before the tag);
- or it says how a command must be run here (its fix was a setup step, another form of the
  command, another folder or the formatter, or the run rewrote the files itself and passed
  again: `fix:setup`, `fix:variant`, `fix:folder`, `fix:formatter`, `fix:rewrote`; a word the
  shell expanded before the program ran, `shell`; a check that kept
  its old output until another command ran, `stale`): the command is the trigger, and every
  session runs it again;
- or it states a standing condition of the repository that every session meets again when it
  does that work: the remote refuses every push to a protected branch (`protected`), the
  agent's sandbox refuses a write the step needs (`sandbox`: git's `.git/index.lock`), the
  version is written in several files a bump must change together (`version`), the commit
  hooks run checks a commit must pass (`commit-gate`);
- or a later session used it or met its error anyway (`heeded`, from its outcomes).
A one-off — one failure whose fix was an edit of the code, or was never seen (a test failing
once while its code changed, a type error the edit cleared) — waits to be asked: search, the
per-prompt context and the pitfalls view asked for a task or a path still give it. In the
foresight replay such one-offs took the budget of the recipes a later session ran. A pitfall the
user wrote, or a model, is not judged by this rule.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from squirrel_memory.extractors.pitfall_memories import COMMIT_GATE_TAG, MET_AGAIN_TAG
from squirrel_memory.models import MemoryItem, MemorySource, MemoryType

__all__ = ["HOW_TO_RUN_TAGS", "STANDING_TAGS", "earns_the_start"]

#: The lessons that say how a command must be run here, whatever the code says: the fixes of a
#: failed run (`extractors.pitfall_memories`), and the shell's and a stale check's lessons
#: (`extractors.finders`).
HOW_TO_RUN_TAGS: Final = frozenset(
    {"fix:setup", "fix:variant", "fix:folder", "fix:formatter", "fix:rewrote", "shell", "stale"}
)
#: The pitfalls that state a standing condition rather than one failure: a protected branch
#: (`extractors.denied_access`, `pitfall:denied:protected:<branch>`), the agent's sandbox that
#: refuses a write every session's step needs (`pitfall:denied:sandbox:<folder>`), and the files
#: a version bump must change together (`extractors.version_files`), and a commit gate whose
#: hooks stopped a commit (`extractors.pitfall_memories`): every commit meets its checks again.
STANDING_TAGS: Final = frozenset({"protected", "version", "sandbox", COMMIT_GATE_TAG})
_SEEN_IN = re.compile(r"\(seen in \d+ sessions\)")


def earns_the_start(item: MemoryItem, heeded: Callable[[MemoryItem], bool]) -> bool:
    """Whether `item` may open a session: anything but a rules' pitfall, and a rules' pitfall
    whose trigger recurs (met again, a way of running a command, or used or met again since it
    was served: `heeded`)."""
    if item.type != MemoryType.PITFALL or item.source != MemorySource.RULES:
        return True
    tags = set(item.tags)
    return (
        MET_AGAIN_TAG in tags
        or bool(tags & HOW_TO_RUN_TAGS)
        or bool(tags & STANDING_TAGS)
        or bool(_SEEN_IN.search(item.content))
        or heeded(item)
    )
