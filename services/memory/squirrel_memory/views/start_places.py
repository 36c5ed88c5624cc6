"""Which placements a session starts with: one a later session went back to, not every folder a
reply or a file named.

A placement says where a part of the project lives ("Where: `api/`: the HTTP handlers"), read
from a reply that listed folders, a subagent's report or a file's own words (`where:` keys,
`extractors.placements`). At a session start it is a guess that the session will work there,
like a module (`views.start_modules`), and a weak one: a listing run from inside a test fixture's
or a sample's folder prints names that carry no sign of it (`blog/`, `manage.py` of the fixture
site the linter is tested on), so the reply's layout reads as the project's own when injected
before the user says anything. So a rules' placement opens a session only once a session it was
served to used it (`heeded`: a file it names was read or written after it was served); until
then it waits to be asked: search, the per-prompt context (a prompt naming its folder) and the
brief view asked for outside a session start still give it. A placement the user or a model
wrote is not judged by this rule, nor is any other fact.
"""

from __future__ import annotations

from collections.abc import Callable

from squirrel_memory.extractors.placements import KEY_PREFIX as PLACE_PREFIX
from squirrel_memory.models import MemoryItem, MemorySource, MemoryType

__all__ = ["PLACE_PREFIX", "earns_a_place"]


def earns_a_place(item: MemoryItem, heeded: Callable[[MemoryItem], bool]) -> bool:
    """Whether `item` may be among the facts a session starts with: anything but a rules'
    placement, and a rules' placement that a session it was served to used (`heeded`)."""
    if item.type != MemoryType.PROJECT_FACT or not item.key.startswith(PLACE_PREFIX):
        return True
    return item.source != MemorySource.RULES or heeded(item)
