"""What a task and a memory's key are about: subject stems, and the subjects a key names.

The task context keeps a memory whose key names a subject of the task (`recipe:test` for "add
an endpoint and its tests", `module:billing` for "fix the billing export"), however little else
of its wording matches (`task_context`). A part of a key of one or two words names its subject.
A longer part is a phrase cut from the memory's text (`pref:simplest_reuse_existing`,
`coverage_needs_the_pytest_cov_plugin`) or an error's fingerprint: its words name a subject only
where the memory's text says the task's word too ("coverage" for "… with coverage": the text
says "Coverage needs …"), never on the key alone ("reuse" for "could we reuse …", which the
text of `pref:simplest_reuse_existing` does not say). A word further into a phrase than its
first telling word is what the phrase says of its head, not what it is about ("agent" in
`pref:sessionmanager_not_agent_specific`): it names a subject only where the caller has found
the memory close in meaning to the task too (`close`). So is the second word of a part of two
("table" of `invoices_table`: what kind of thing the first word names; "drop the audit_log
table" is not about the invoices table). A key's second part that says how the memory was
learned (`labelled`, `found`, `caveat` … of `pitfall:labelled:…`: `retrieval.framing`) names
nothing. And a word the memory's text says only inside a hyphenated compound the task does not
say ("table" of "Write table-driven tests.", "read" of "read-only") is not the text saying it
(`compound_only`): "count the rows in the notes table" is not about table-driven tests."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from squirrel_memory.models import MemoryItem
from squirrel_memory.retrieval import is_generic, stem, text_terms
from squirrel_memory.retrieval.framing import FRAME_KEY_KINDS, FRAME_KEY_PARTS
from squirrel_memory.storage.search_terms import STOP_WORDS

#: Most words one part of a key (between `:` or `@`) holds when it names a subject
#: (`recipe:test`, `module:billing`, `tests_folder`): a longer part is a phrase.
MAX_SUBJECT_WORDS = 2
_KEY_PART = re.compile(r"[:@]")
_KEY_TOKEN = re.compile(r"[a-z0-9]+")
_KEY_WORD = re.compile(r"[a-z]+")
#: Words of a memory key that say what kind of memory it is, not what it is about, and those
#: that say how it was learned (`pitfall:corrected:…`, `project:closing:…`: `retrieval.framing`).
_KEY_KIND_WORDS = frozenset(
    {"recipe", "pref", "pitfall", "module", "command", "commands", "run", "repo", "rule"}
    | {"corrected", "learned", "closing", "reported"}
)
#: Endings a subject word drops so that its forms meet (`migration`, `migrate` → `migrat`).
_SUBJECT_SUFFIXES = ("ions", "ion", "ing", "ed", "es", "s", "e")


def subject_stem(word: str) -> str:
    """A word of a task or key as a subject: `migrations`, `migration` and `migrate` are one
    (`migrat`), `tests` and `testing` are `test`; the stem keeps at least four letters."""
    lowered = word.lower()
    for suffix in _SUBJECT_SUFFIXES:
        if lowered.endswith(suffix) and len(lowered) - len(suffix) >= 4:
            return lowered[: -len(suffix)]
    return lowered


def _stem_list(part: str) -> list[str]:
    return [
        subject_stem(word)
        for word in _KEY_WORD.findall(part)
        if len(word) >= 3
        and word not in _KEY_KIND_WORDS
        and word not in STOP_WORDS
        and not is_generic(word)
    ]


def _stems(part: str) -> frozenset[str]:
    return frozenset(_stem_list(part))


@dataclass(frozen=True, slots=True)
class KeySubjects:
    """The subject stems of a key: those its short parts name, and those of its phrases."""

    named: frozenset[str]
    phrased: frozenset[str]
    #: The first telling word of each phrase (`coverage` of `coverage_needs_the_pytest_cov_…`).
    heads: frozenset[str] = frozenset()


def key_subjects(key: str) -> KeySubjects:
    """`recipe:test` → named {"test"}; `endpoint:inventory` → named {"endpoint", "inventory"};
    `pitfall:corrected:invoices_table` → named {"invoic"}, phrased {"table"} (a part of two
    words is a compound: its first word names what, the second what kind of thing);
    `pref:simplest_reuse_existing` → phrased {"simplest", "reus"} (more than
    `MAX_SUBJECT_WORDS` words in its part). A second part that says how the memory was learned
    (`labelled` of `pitfall:labelled:…`: `retrieval.framing.FRAME_KEY_PARTS`) names nothing."""
    named: set[str] = set()
    phrased: set[str] = set()
    heads: set[str] = set()
    parts = _KEY_PART.split(key.lower())
    for place, part in enumerate(parts):
        if place == 1 and part in FRAME_KEY_PARTS and parts[0] in FRAME_KEY_KINDS:
            continue
        short = len(_KEY_TOKEN.findall(part)) <= MAX_SUBJECT_WORDS
        stems = _stem_list(part)
        if short:
            # A compound ("invoices table", "tests folder"): the second word alone is only
            # the kind of thing ("table", "folder"), which other things are too.
            named.update(stems[:1])
            phrased.update(stems[1:])
            continue
        phrased.update(stems)
        if stems:
            heads.add(stems[0])
    return KeySubjects(frozenset(named), frozenset(phrased - named), frozenset(heads - named))


def names_subject(
    item: MemoryItem,
    task_terms: Sequence[str],
    subjects: frozenset[str],
    *,
    close: bool = True,
) -> bool:
    """Whether `item`'s key names one of the task's `subjects` (stems of `task_terms`): a short
    part of it does, or a phrase of it does and the memory's own text (not its key) holds the
    task's word: the phrase's head, or (when `close`: the memory is close in meaning to the
    task) any of its words."""
    found = key_subjects(item.key)
    if found.named & subjects:
        return True
    shared = found.phrased & subjects
    if not close:
        shared &= found.heads
    if not shared:
        return False
    bound = compound_only(item.content, task_terms)
    return any(
        subject_stem(t) in shared and stem(t) not in bound for t in text_terms(task_terms, item)
    )


#: A hyphenated compound of words ("table-driven", "read-only", "thread-safe", "write-ahead").
_COMPOUND = re.compile(r"(?<![\w-])[^\W\d_]+(?:-[^\W\d_]+)+(?![\w-])")
_TEXT_WORD = re.compile(r"[^\W_]+")


def compound_only(content: str, task_terms: Sequence[str]) -> frozenset[str]:
    """The light stems of the words `content` says only inside hyphenated compounds the task
    does not say (its terms hold no compound's words one after the other): "table" of "Write
    table-driven tests." for a task about the notes table. Inside a compound a word says what
    kind of thing the compound's head is ("table-driven tests" are tests), not its own sense."""
    lowered = content.lower()
    if "-" not in lowered:
        return frozenset()
    said = " " + " ".join(t.lower() for t in task_terms) + " "
    inside: set[str] = set()
    for match in _COMPOUND.finditer(lowered):
        parts = match.group(0).split("-")
        if f" {' '.join(parts)} " not in said:
            inside.update(stem(p) for p in parts)
    if not inside:
        return frozenset()
    alone = {stem(w) for w in _TEXT_WORD.findall(_COMPOUND.sub(" ", lowered))}
    return frozenset(inside - alone)
