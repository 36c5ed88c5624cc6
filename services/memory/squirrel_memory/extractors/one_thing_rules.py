"""A rule about one named thing of the project, said with a reason about that thing: the
project's constraint, not the user's way of working.

"IMPORTANT: the migration must not drop the legacy_members table, we still read from it" and
"Never edit deploy/values.yaml, ops owns that file" are worded as standing rules, yet each holds
for one thing of this project (a table, a file) because of what the project does with it; they
say nothing of how the user works anywhere else. Such a rule is told by its shape alone:

- the rule forbids something (`_FORBIDS`: "never", "must not", "don't", "do not", "shouldn't")
  and names a thing of the project: a name in code with an underscore (`legacy_members`) or a
  path (`deploy/values.yaml`), not a way of writing the rule says to use ("never use
  snake_case, it is hard to read");
- in the same sentence, after the rule, a clause of its own gives a reason that points back at
  the thing (`_POINTS_BACK`: "we still read from it", "ops owns that file", "because the
  importer needs them"), and is no further request ("…, and update it").

`rules` files such a rule as a project fact, never as the user's standing style.
"""

from __future__ import annotations

import re

#: A name in code with an underscore, or a path of two parts or more.
_THING = re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]*[a-z0-9]\b|\b[\w.-]+/[\w./-]*\w")
_FORBIDS = re.compile(
    r"\b(?:never|must\s+not|mustn't|don't|do\s+not|should\s+not|shouldn't|cannot|can't)\b",
    re.IGNORECASE,
)
#: Where a sentence's reason clause begins: a comma, a semicolon, a dash, "because", "since".
_REASON_MARK = re.compile(r"[,;]|\s[-–—]\s|\b(?:because|since)\b", re.IGNORECASE)
#: A reason clause's word pointing back at the thing: "it", "them", "that file".
_POINTS_BACK = re.compile(r"\b(?:it|them|(?:that|this|those|these)\s+[a-z]+)\b", re.IGNORECASE)
#: A clause that asks more is a further request, no reason.
_ASKS_MORE = re.compile(r"^\s*(?:and|then|also|but|or|please)\b", re.IGNORECASE)
#: A thing after "use" is a way of writing, not a thing of the project.
_USED = re.compile(r"\b(?:use|using)\s+`?$", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
MAX_SENTENCE_CHARS = 300


def about_one_thing(message: str) -> str | None:
    """The project thing a forbidding rule of `message` is about, when a reason pointing back
    at it follows the rule in its sentence (see the module's rules); else None."""
    for sentence in _SENTENCE_END.split(message):
        if len(sentence) > MAX_SENTENCE_CHARS:
            continue
        forbids = _FORBIDS.search(sentence)
        if forbids is None:
            continue
        thing = _THING.search(sentence, forbids.end())
        if thing is None or _USED.search(sentence, 0, thing.start()):
            continue
        mark = _REASON_MARK.search(sentence, thing.end())
        if mark is None:
            continue
        reason = sentence[mark.end() :]
        if not _ASKS_MORE.match(reason) and _POINTS_BACK.search(reason):
            return thing.group(0)
    return None
