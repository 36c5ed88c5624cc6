"""The memories answering each kind of question (`intents.INTENTS`), per project, read again only
when the project's memories change.

A short question of a known kind ("what is this repository?") is answered by the memories whose
key says that kind. Finding them by a pattern over every key on each search cost more than the
rest of the search at 10,000 memories; the keys change only when a memory is added, updated or
deleted, so their answers are worked out once per change (`MemoryReader.key_mark` tells one)
and a search reads only the rows of the newest few answering memories.
"""

from __future__ import annotations

from squirrel_memory.models import MemoryType
from squirrel_memory.retrieval.intents import INTENTS, Intent, key_stems
from squirrel_memory.retrieval.reader import MemoryReader

INTENT_SAMPLE = 20
"""Most memories read for each intent of a question: those answering it, newest first."""


class IntentIndex:
    """Per project: the mark of its memories when read, and the ids answering each intent."""

    def __init__(self, reader: MemoryReader) -> None:
        self._reader = reader
        self._built: dict[str, tuple[str, dict[str, list[str]]]] = {}

    async def answering(self, project_id: str, intents: tuple[Intent, ...]) -> list[str]:
        """The ids of the newest `INTENT_SAMPLE` memories answering each of `intents`."""
        if not intents:
            return []
        mark = await self._reader.key_mark(project_id)
        built = self._built.get(project_id)
        if built is None or built[0] != mark:
            read_at, rows = await self._reader.memory_keys(project_id)
            built = (read_at, _by_intent(rows))
            self._built[project_id] = built
        ids = [i for intent in intents for i in built[1].get(intent.name, ())[:INTENT_SAMPLE]]
        return list(dict.fromkeys(ids))


def _by_intent(rows: list[tuple[str, str, str]]) -> dict[str, list[str]]:
    """intent name -> the ids of `rows` (id, type, key; newest first) answering it, in order."""
    found: dict[str, list[str]] = {intent.name: [] for intent in INTENTS}
    for memory_id, kind, key in rows:
        try:
            memory_type = MemoryType(kind)
        except ValueError:
            continue
        held = key_stems(key)
        for intent in INTENTS:
            answers = found[intent.name]
            if len(answers) < INTENT_SAMPLE and intent.rank_stems(memory_type, held) is not None:
                answers.append(memory_id)
    return found
