"""The words a memory's own framing says: where it came from, not what it is about.

The extractors write a memory with a frame that says how it was learned: "The user corrected
the assistant (working on …): …", "Found in a session: …", "Closing report (…): …", "Subagent
report: …", "Found by a subagent reading the code (…): …", "A failure diagnosed in a session: …",
"…; the fix (an approved plan, carried out in the session): …", "…, as the assistant summarised
it: …", "…, in their words: “…”", "Code worked on in this project's sessions: …", and a key part
that says the same (`pitfall:corrected:…`, `pitfall:labelled:…`, `project:closing:…`:
`FRAME_KEY_PARTS`); a memory's tallies ("(worked in 3 sessions)") are not searched at all
(`storage.formats.searchable_content`). A task that says "the user", "session" or
"report" shares those words with every such memory, whatever it is about: a prompt asking to
"write down what the assistant corrected in the admin screen" shared "assistant" and
"corrected" with a correction about a feed parser and was given it. Like the words every
request uses (`queries.GENERIC_WORDS`), a word a memory holds only in its frame neither makes
it relevant to a task nor explains why it is (`framed_only`); the same word in the rest of its
text or key counts as before ("sessions" of "the session store expires sessions").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from squirrel_memory.models import MemoryItem
from squirrel_memory.retrieval.queries import stem
from squirrel_memory.storage.formats import fts_text, searchable_content, searchable_tags

FRAME_CACHE_SIZE = 20_000
"""Memory versions whose unframed word stems stay cached."""
#: The frames the extractors write around what a memory says, each as it is written: the
#: correction's lead (`extractors.user_corrections`), a finding's (`finding_sentences`), an earlier
#: assistant's closing report and a subagent's report (`closing_reports`, `report_statements`),
#: its summaries (`architecture`), a quoted instruction's "in their words" and the languages
#: the sessions worked on (`touched_languages`).
_FRAMES = re.compile(
    r"\bthe user corrected the assistant\b|^found in a session:|^closing report\b|"
    r"^subagent report\b|,? as the assistant summari[sz]ed (?:it|them)\b|,? in their words:|"
    r"^code worked on in this project's sessions:|^a failure diagnosed in a session:|"
    r"^found by a subagent reading the code\b|\(an approved plan, carried out in the session\)",
    re.IGNORECASE | re.MULTILINE,
)
#: The second part of a key that says how its memory was learned, or what kind of record it
#: is, never what it is about (`pitfall:corrected:`, `pitfall:labelled:`, `pitfall:found:`,
#: `project:closing:`, `recipe:asked:`, `pref:said:` …, as the extractors write them): a task
#: that says "labelled" or "found" shares that word with every such memory.
FRAME_KEY_PARTS = frozenset(
    {"corrected", "learned", "closing", "reported", "read", "labelled", "found", "caveat"}
    | {"diagnosed", "untrue", "stale", "plan", "reviewed", "asked", "said", "generated"}
    | {"missed_search", "session_request", "work_given_as", "routine", "procedure"}
)
#: The first parts of the keys whose second part may be one of `FRAME_KEY_PARTS`.
FRAME_KEY_KINDS = frozenset({"pitfall", "project", "recipe", "pref"})
_FRAME_KEY = re.compile(
    rf"^(?:{'|'.join(sorted(FRAME_KEY_KINDS))}):(?:{'|'.join(sorted(FRAME_KEY_PARTS))}):"
)
_WORD = re.compile(r"[^\W_]+")


@functools.lru_cache(maxsize=FRAME_CACHE_SIZE)
def _unframed_stems(
    memory_id: str, version: int, key: str, content: str, tags: tuple[str, ...]
) -> frozenset[str]:
    """The light stems of a memory's key, content and tags with their frames taken out."""
    unframed = (_FRAME_KEY.sub(" ", key), _FRAMES.sub(" ", searchable_content(content)))
    text = " ".join((*unframed, *searchable_tags(tags)))
    return frozenset(stem(w.lower()) for w in _WORD.findall(fts_text(text)))


def framed_only(terms: Sequence[str], item: MemoryItem) -> frozenset[str]:
    """The `terms` (words of a task the memory holds) it holds only in its frame."""
    if not terms:
        return frozenset()
    kept = _unframed_stems(item.id, item.version, item.key, item.content, tuple(item.tags))
    return frozenset(t for t in terms if stem(t.lower()) not in kept)
