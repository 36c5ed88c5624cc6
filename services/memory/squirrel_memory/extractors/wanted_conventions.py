"""The commit convention a user asks the work to apply, in any wording and a few languages.

"set up commitlint to enforce Conventional Commits", "automate the commits in this repo
applying the 'conventional commit' practices" (said in French, Spanish, German, Portuguese or
Italian as well): a request whose object is to apply, follow, enforce or automate the
Conventional Commits convention says the user wants that convention for the repository's
commits, whatever the task at hand. Turned down ("we don't follow conventional commits") it
says nothing of the kind. A question ("what are conventional commits?", "should we
use conventional commits?") asks, it wants nothing; a quoted line or a fenced block is pasted
text. The instruction is the one "use conventional commits" states, under its key.
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.clauses import clauses
from squirrel_memory.extractors.instruction_keys import instruction_key
from squirrel_memory.extractors.preferences import (
    STANDING_IMPORTANCE,
    STANDING_TAG,
    StatedPreference,
)
from squirrel_memory.models import Scope

CONTENT = "Commit messages follow Conventional Commits."
KEY = instruction_key("commit message conventional")
_CONVENTION = re.compile(r"conventional[- ]commits?\b", re.IGNORECASE)
#: Verbs of applying, following, enforcing or automating a convention, in the languages read.
_APPLYING = re.compile(
    r"\b(?:apply|applying|follow|following|enforce|enforcing|use|using|adopt|adopting|"
    r"automate|automating|respect|respecting|stick to|comply with|"
    r"appliqu\w*|respect\w*|suiv\w*|utilis\w*|automatis\w*|adopt\w*|"
    r"aplica\w*|aplicando|segui\w*|sigue\w*|usa\w*|automatiz\w*|"
    r"anwend\w*|befolg\w*|verwend\w*|einhalt\w*|automatisier\w*|"
    r"applica\w*|segu\w*|automatizz\w*)\b",
    re.IGNORECASE,
)
#: Words that turn the convention down ("we don't follow conventional commits", "stop using …",
#: "sans conventional commits"): no wish for it.
_REFUSED = re.compile(
    r"\b(?:not|never|no longer|stop|stopped|without|instead of|rather than|pas|plus|sans|nicht|"
    r"kein\w*|ohne|sin|nunca|non|senza|dont|wont|cant)\b|\wn['’]t\b",
    re.IGNORECASE,
)


def wanted_convention(text: str) -> StatedPreference | None:
    """The commit convention a user message asks the work to apply, as a standing instruction
    of the user's, or None."""
    for written, _ in clauses(text):  # code blocks and quoted lines left out
        flat = " ".join(written.split())
        if flat.endswith("?"):
            continue
        named = _CONVENTION.search(flat)
        before = flat[: named.start()] if named else ""
        if named and _APPLYING.search(before) and not _REFUSED.search(before):
            return StatedPreference(
                key=KEY,
                content=CONTENT,
                tags=("preference", "git", STANDING_TAG),
                scope=Scope.USER,
                importance=STANDING_IMPORTANCE,
                standing=True,
            )
    return None
