"""What a task and a memory's key are about: subject stems, and the subjects a key names.

The task context keeps a memory whose key names a subject of the task (`recipe:test` for "add
an endpoint and its tests", `module:billing` for "fix the billing export"), however little else
of its wording matches (`task_context`)."""

from __future__ import annotations

import re

from squirrel_memory.retrieval import is_generic
from squirrel_memory.storage.search_terms import STOP_WORDS

#: Most words one part of a key (between `:` or `@`) holds when it names a subject
#: (`recipe:test`, `module:billing`, `tests_folder`): a longer part is a phrase cut from the
#: memory's text (`pref:simplest_reuse_existing`, `architecture:auto-discovery_from_agent_plugin`,
#: an error's fingerprint), whose every word would otherwise be a subject.
MAX_SUBJECT_WORDS = 2
_KEY_PART = re.compile(r"[:@]")
_KEY_TOKEN = re.compile(r"[a-z0-9]+")
#: Words of a memory key that say what kind of memory it is, not what it is about.
_KEY_KIND_WORDS = frozenset(
    {"recipe", "pref", "pitfall", "module", "command", "commands", "run", "repo", "rule"}
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


_KEY_WORD = re.compile(r"[a-z]+")


def key_subjects(key: str) -> frozenset[str]:
    """The stems of the words of a key that name its subject (`recipe:test` → {"test"};
    `endpoint:inventory` → {"endpoint", "inventory"}); a part of the key that is a phrase
    (more than `MAX_SUBJECT_WORDS` words: `pref:simplest_reuse_existing`,
    `pitfall:typeerror-cachemanager-b472b9a6`) names none."""
    named = [
        part
        for part in _KEY_PART.split(key.lower())
        if len(_KEY_TOKEN.findall(part)) <= MAX_SUBJECT_WORDS
    ]
    return frozenset(
        subject_stem(word)
        for part in named
        for word in _KEY_WORD.findall(part)
        if len(word) >= 3
        and word not in _KEY_KIND_WORDS
        and word not in STOP_WORDS
        and not is_generic(word)
    )
