"""A change the assistant's report names together with the failure it was causing.

A report of what was fixed often ties the change to the failure in one clause: "Removed the
stale `go.work` file, which was causing the build error", "Deleted the duplicate
`tests/unit/conftest.py` that was causing the import errors". The clause is the cause of the
failure the user reported, said with hindsight by the one who made the change; the records of
the change itself may be gone (a session cut short, a subagent's edit). `causing_change` reads
such a sentence by its shape, the same in every ecosystem:

- it opens with a change in the past tense ("Removed", "Deleted", "Pinned", "Renamed" …), the
  report's own words, not a plan ("I'll remove"), a question or a guess ("might have been
  causing", "probably");
- the clause says the thing changed was causing (or was behind, or was the cause of) a failure
  named as one ("the build error", "these import errors", "the crash");
- it names nothing outside the project (a path in a home folder or another absolute path) and
  does not say the failure was elsewhere ("there", "in the fork").
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.stated_causes import HEDGE

MAX_SENTENCE_CHARS = 260

#: "<Removed …>(,) which/that was causing the <failure>".
_CAUSING = re.compile(
    r"^(?P<change>(?:removed|deleted|dropped|reverted|renamed|moved|replaced|changed|pinned|"
    r"unpinned|bumped|downgraded|upgraded|corrected|fixed|disabled|excluded|cleared|restored|"
    r"deduplicated|unset)\s.{3,200}?),?\s+(?:which|that)\s+(?:was|were)\s+(?:causing|behind|"
    r"responsible for|the (?:root )?cause of)\s+(?P<failure>(?:the|this|these|those|that|a|an|"
    r"all)\s+(?:[\w`'./-]+\s+){0,4}?(?:errors?|failures?|crash(?:es)?|exceptions?|warnings?|"
    r"problems?|issues?|breakage|panics?))\b(?P<rest>.*)$",
    re.IGNORECASE,
)
#: The failure placed somewhere else than the project.
_ELSEWHERE = re.compile(
    r"^\s*(?:there|over there|in (?:the|that|their|his|her|your) (?:fork|clone|checkout|copy|"
    r"other (?:repo|repository|project)))\b",
    re.IGNORECASE,
)
#: A path outside the project: a home folder or another absolute path.
_OUTSIDE = re.compile(r"(?<![\w.])(?:~/|/(?:home|Users|tmp|var|opt|etc|usr)/)")


def causing_change(text: str) -> tuple[str, str] | None:
    """(the sentence, the failure it names) when `text` says a change was made to a thing that
    was causing a failure, else None."""
    said = " ".join(text.split())
    if len(said) > MAX_SENTENCE_CHARS or (match := _CAUSING.match(said)) is None:
        return None
    if HEDGE.search(said) or _OUTSIDE.search(said) or _ELSEWHERE.match(match["rest"]):
        return None
    return said.rstrip("."), match["failure"]
