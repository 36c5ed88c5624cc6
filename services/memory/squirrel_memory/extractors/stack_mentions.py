"""Stack names a sentence of the assistant's mentions in passing, that the session never showed.

A summary of the layout often names the stack beside it: "Persistence is all in
`internal/store/`: it's backed by Postgres via sqlx, one file per table". The sentence is
the assistant's word; where no tool of the session printed or was given the database, the
framework or the test runner it names (no manifest, import, configuration or command output
said it), the rules that read what the project is built with have not established it, and a
memory quoting the sentence would state a stack fact nothing backs. Such a sentence is left
out whole: the layout it also states is not worth a wrong stack fact.

The names are the stack table's frameworks, databases, ORMs, queues, caches, search engines
and migration tools (as a person writes them, and by the package they are found under) and the
test frameworks the manifests know, matched as whole words; languages are not stack claims
here (a session on Go code need not print the word "Go").
"""

from __future__ import annotations

import re
from functools import cache

from squirrel_memory.extractors.manifests import LIBRARIES
from squirrel_memory.repository.stack import role_names

#: The roles of the stack table a sentence may not name unseen.
_ROLES = frozenset({"framework", "database", "orm", "queue", "cache", "search", "migrations"})
#: How a person shortens a name the table writes in full.
_SHORT = ("Postgres", "Mongo")
#: Names that are everyday words ("an echo of", "the next step", "Express the …"): never read
#: as a stack name, so a sentence using the word is not taken for a claim.
_EVERYDAY = frozenset(
    str.split(
        "echo fresh drift river slim nova dream amber lucky shelf remix express react rocket "
        "poem wisp servant cowboy jester prologue catalyst broadway bull ash oak cask zap fiber "
        "vapor tornado pyramid angular flutter hummingbird lustre electron diesel celery mocha "
        "gin chi ent warp goose motor next astro opium drizzle spring"
    )
)
#: Shorter names are read only as the table writes them (`RQ`, `Koa`, `JPA`).
MIN_LOOSE_CHARS = 4


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(names read in any case, names read only as written)."""
    names: set[str] = set(_SHORT) | set(role_names(_ROLES))
    names.update(display for kind, display in LIBRARIES.values() if kind == "testing")
    names = {n for n in names if "/" not in n and n.lower() not in _EVERYDAY}
    loose = {n.lower() for n in names if len(n) >= MIN_LOOSE_CHARS}
    exact = {n for n in names if len(n) < MIN_LOOSE_CHARS}
    return names_pattern(loose, re.IGNORECASE), names_pattern(exact, 0)


def names_pattern(names: set[str], flags: int) -> re.Pattern[str]:
    """`names` as whole words (not inside a path, a package name or a longer word), the
    longest first."""
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![\w.@/-])(?:{alternatives})(?![\w-]|\.\w)", flags)


def stack_names_in(text: str) -> list[str]:
    """The stack names `text` mentions, as written there."""
    loose, exact = _patterns()
    return [m.group(0) for pattern in (loose, exact) for m in pattern.finditer(text)]


def unshown_stack(text: str, seen: str) -> list[str]:
    """The stack names `text` mentions that `seen` (what the session's tools were given or
    printed) never holds, in any case."""
    lowered = seen.lower()
    return [name for name in stack_names_in(text) if name.lower() not in lowered]
