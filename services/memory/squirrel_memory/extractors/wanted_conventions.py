"""A convention known by its name that the user asks the work to apply, in any wording and a
few languages.

"set up commitlint to enforce Conventional Commits", "automate the commits in this repo
applying the 'conventional commit' practices" (said in French, Spanish, German, Portuguese or
Italian as well), "bump the version following semver", "how can I enforce PSR-12 here?": a
request whose object is to apply, follow, enforce or automate a convention of `_CONVENTIONS`
(commits, versions, changelogs and code style known by a proper name) says the user wants it
for the repository's work, whatever the task at hand. Turned down ("we don't follow
conventional commits") it says nothing of the kind. A question asks and wants nothing ("what
are conventional commits?", "should we use semver?"), unless it asks how to put the convention
in place ("how can I automate conventional commits in this repo?"); a sentence naming two
conventions compares them; a quoted line or a fenced block is pasted text. The instruction is
the one its plain statement would be ("use conventional commits"), under that key.
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.clauses import clauses
from squirrel_memory.extractors.firmness import STANDING_IMPORTANCE, STANDING_TAG, StatedPreference
from squirrel_memory.extractors.instruction_keys import instruction_key
from squirrel_memory.models import Scope

#: Each convention: how it is named, the memory's statement, the words of its key.
_CONVENTIONS: tuple[tuple[re.Pattern[str], str, str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), content, instruction_key(key))
    for pattern, content, key in (
        (
            r"conventional[- ]commits?\b",
            "Commit messages follow Conventional Commits.",
            "commit message conventional",
        ),
        (r"\bgitmoji\b", "Commit messages use gitmoji.", "commit message gitmoji"),
        (
            r"\bsemantic versioning\b|\bsemver\b",
            "Versions follow Semantic Versioning.",
            "version semver",
        ),
        (
            r"\bkeep a changelog\b",
            "The changelog follows Keep a Changelog.",
            "changelog keep a changelog",
        ),
        (r"\bpep ?8\b", "Python code follows PEP 8.", "pep8"),
        (r"\bpsr-?12\b", "PHP code follows PSR-12.", "psr-12"),
    )
)
CONTENT, KEY = _CONVENTIONS[0][1], _CONVENTIONS[0][2]
#: German puts the verb last ("… damit wir Conventional Commits befolgen").
_VERB_LAST = re.compile(r"\b(?:anwend\w*|befolg\w*|verwend\w*|einhalt\w*|einhält)\b", re.I)
#: A question of how to put something in place: a request, not a doubt.
_HOW_TO = re.compile(
    r"^(?:how (?:can|could|do|would|should) (?:i|we|you)|how to|comment (?:puis-je|faire)|"
    r"wie kann ich|c[oó]mo (?:puedo|podemos))\b",
    re.IGNORECASE,
)
#: Verbs of applying, following, enforcing or automating a convention, in the languages read.
_APPLYING = re.compile(
    r"\b(?:apply|applies|applying|follow\w*|enforc\w*|use|uses|using|adopt\w*|"
    r"automat\w*|respect\w*|stick to|comply with|conform\w* to|"
    r"appliqu\w*|respect\w*|suiv\w*|utilis\w*|automatis\w*|adopt\w*|"
    r"aplica\w*|aplicando|segui\w*|sigu\w*|usa\w*|automatiz\w*|"
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
    """The convention a user message asks the work to apply, as a standing instruction
    of the user's, or None."""
    for written, _ in clauses(text):  # code blocks and quoted lines left out
        flat = " ".join(written.split())
        if flat.endswith("?") and not _HOW_TO.match(flat):
            continue
        named = [(found, c, k) for p, c, k in _CONVENTIONS if (found := p.search(flat))]
        if len(named) != 1:
            continue  # none, or two compared
        found, content, key = named[0]
        before, after = flat[: found.start()], flat[found.end() :]
        applied = _APPLYING.search(before) or _VERB_LAST.match(after.strip(" ,.!"))
        if applied and not _REFUSED.search(flat):
            return StatedPreference(
                key=key,
                content=content,
                tags=("preference", "convention", STANDING_TAG),
                scope=Scope.USER,
                importance=STANDING_IMPORTANCE,
                standing=True,
            )
    return None
