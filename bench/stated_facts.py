"""The assistant's sentences of sessions with gold about their project, each labelled by that
gold and marked with what the product's rules keep of it: the data `bench/fact_probe.py`
classifies.

Sources are the learned study's sessions (`bench/data/learned_study/`, each session its own
project) and the answer key's tuning projects (a held-out project's key and transcripts are
never read). A source's sentences are its assistant replies in the project (a subagent's or a
reply about another place left out), code blocks taken off, cut at sentence ends, each wording
once per source; a sentence of fewer than four words, mostly not words, or the look of pasted
output is skipped.

A sentence is a **fact** (the `STANDING` label of the shared `Sentence`) when a gold
project_fact or pitfall item of its source states it (every concept of the item's match), a
**wrong** one (the `TASK` label) when a `wrong` entry of its source does and no item does, else
unlabelled. **Kept** is the product's decision: a project_fact or pitfall candidate of the
offline rules cites the sentence's reply and says most of its words.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from bench import fixture_pipeline
from bench.learned_study import STUDIES, load_sessions
from bench.standing_sentences import (
    TUNING,
    Sentence,
    Source,
    item_match,
    pattern_match,
    sentence,
    session_places,
    sources_by_group,
    tuning_projects,
    usable,
)
from bench.stored_events import stored
from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.elsewhere import replies_elsewhere
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import MemoryCandidate, MemoryType, StoredEvent

LEARNED_SETS = ("first", "second", "third")
GROUPS = (*LEARNED_SETS, TUNING)
#: Sets collected after a rule was written, read only when asked for (`--group`).
LATER_SETS = ("fourth",)
KINDS = ("project_fact", "pitfall")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(])")
_CODE_BLOCK = re.compile(r"```.*?(?:```|$)", re.DOTALL)
#: A sentence must have at least this many words to state a fact.
MIN_WORDS = 4


def sources(groups: Sequence[str] = GROUPS) -> list[Source]:
    """Every learned-study session and tuning project in `groups`: a fact is `standing`, a
    `wrong` entry `task`."""
    return sources_by_group(groups, _learned_sources, _tuning_sources)


def _learned_sources(group: str) -> list[Source]:
    path = STUDIES[group]
    kinds = _item_kinds(path)
    return [
        Source(
            group,
            session.name,
            session.paths,
            tuple(
                (i.note, i.matches)
                for i in session.items
                if kinds.get((session.name, i.note)) in KINDS
            ),
            tuple(w.matches for w in session.wrong),
        )
        for session in load_sessions(path)
    ]


def _item_kinds(path: Path) -> dict[tuple[str, str], str]:
    """Each learned-study item's `kind`, by session name and note (the loader keeps no kind)."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return {
        (str(raw.get("name")), str(item.get("note", ""))): str(item.get("kind", ""))
        for raw in data.get("session", [])
        for item in raw.get("item", [])
    }


def _tuning_sources() -> list[Source]:
    found = []
    for key, paths in tuning_projects():
        facts = tuple(
            (item.id, item_match(item.concepts)) for item in key.items if item.kind in KINDS
        )
        wrong = tuple(pattern_match(p.regex) for p in key.wrong)
        found.append(Source(TUNING, key.project, paths, facts, wrong))
    return found


def read(source: Source) -> list[Sentence]:
    """The source's assistant sentences, labelled, each with the product's decision."""
    root = f"/nonexistent/facts/{source.name}"
    events = stored(fixture_pipeline.parse(list(source.paths), root), root, source.name)
    facts = kept_facts(events)
    away = replies_elsewhere(events)
    replies = [
        e
        for e in events
        if e.event_type == "assistant_response" and not e.sidechain and e.id not in away
    ]
    places = session_places(events, replies)
    said = [(e.session_id or "", s) for e in replies for s in sentences_of(e)]
    found: list[Sentence] = []
    seen: set[str] = set()
    for event in replies:
        cited = [c.content for c in facts if event.id in c.source_event_ids]
        for body in sentences_of(event):
            if body.lower() in seen:
                continue
            seen.add(body.lower())
            recurs = len({o for o, t in said if o != (event.session_id or "") and t == body})
            found.append(sentence(source, body, cited, places[event.id], recurs))
    return found


def sentences_of(event: StoredEvent) -> list[str]:
    """A reply's prose sentences: code blocks off, cut at sentence ends, usable ones only."""
    text = event.content.get("text")
    if not isinstance(text, str):
        return []
    prose = _CODE_BLOCK.sub(" ", text)
    found: list[str] = []
    for paragraph in prose.split("\n"):
        line = " ".join(paragraph.replace("**", "").split()).lstrip("-*#> ")
        for part in _SENTENCE_END.split(line):
            if len(part.split()) >= MIN_WORDS and usable(part):
                found.append(part)
    return found


def kept_facts(events: list[StoredEvent]) -> list[MemoryCandidate]:
    """The project_fact and pitfall candidates the offline rules make of the events' episodes."""
    rules = RulesExtractor()
    found: list[MemoryCandidate] = []
    for episode in segment_episodes(events, now=datetime.now(UTC)):
        found.extend(rules.extract_sync(episode, events))
    return [c for c in found if c.type in (MemoryType.PROJECT_FACT, MemoryType.PITFALL)]
