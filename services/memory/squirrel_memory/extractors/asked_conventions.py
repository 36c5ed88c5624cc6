"""A named convention the user asks to put in place: "Add commitlint so our commit messages
follow Conventional Commits", "How can I automate conventional commits in this repo?",
"Liste moi plusieurs solutions pour automatiser … en appliquant 'conventional commit'".

Asking to set up, enforce, automate or apply a convention known by its name says the user
wants the project's work to follow it, whether or not the session got that far. The rule, the
same in every ecosystem and in the languages it knows the verbs of:

- the sentence is the user's own (`told_sentences`: typed, not a long paste, not taken back);
- it names a convention from `_CONVENTIONS` (commit, version, changelog and code-style
  conventions known by a proper name; "a convention" in general names none);
- a verb of putting it in place is in the same sentence (set up, enforce, automate, apply,
  follow, adopt, configure, use; French, German and Spanish forms too);
- it is no doubt or comparison ("should we use …?", "is it worth …", "… or …", "vs"), no
  question of what the convention is ("what is semver?"), no negation ("we don't follow …",
  "stop using gitmoji": a prohibition is read by the instruction rules).

One memory per convention: "The user wants the project to follow Conventional Commits (they
asked: “…”)."
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_memory.extractors.told_layout import told_sentences
from squirrel_memory.extractors.wording import key_slug
from squirrel_memory.models import StoredEvent

KEY_PREFIX = "pref:convention:"
#: A standing choice the user made for the project's work, as a decision they answered.
IMPORTANCE = 0.6
MAX_SAID_CHARS = 240

#: Conventions known by a proper name, and the name a memory gives each.
_CONVENTIONS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), name)
    for pattern, name in (
        (r"\bconventional[ -]?commits?\b", "Conventional Commits"),
        (r"\bgitmoji\b", "gitmoji"),
        (r"\bsemantic versioning\b|\bsemver\b", "Semantic Versioning"),
        (r"\bkeep a changelog\b", "Keep a Changelog"),
        (r"\bconventional (?:changelog|branch(?:es| names?)?)\b", "Conventional Changelog"),
        (r"\bpep ?8\b", "PEP 8"),
        (r"\bpsr-?12\b", "PSR-12"),
        (r"\bairbnb(?:'s)? (?:javascript )?style(?: guide)?\b", "the Airbnb style guide"),
        (r"\bgoogle(?:'s)? (?:python |java |c\+\+ )?style(?: guide)?\b", "Google's style guide"),
        (r"\bnumpy(?:doc| docstrings?| style docstrings?)\b", "NumPy-style docstrings"),
        (r"\bgoogle[ -]style docstrings?\b", "Google-style docstrings"),
    )
)
#: Putting a convention in place, in the languages the rule knows.
_PUT_IN_PLACE = re.compile(
    r"\b(?:set(?:s|ting)? up|enforc\w*|automat\w*|apply\w*|appli\w*|follow\w*|adopt\w*|"
    r"configur\w*|us(?:e|es|ing)|respect\w*|lint\w*|validat\w*|check(?:s|ing)? (?:that|for)|"
    r"switch(?:es|ing)? to|mov(?:e|ing) to|stick(?:s|ing)? to|comply\w*|conform\w*|"
    r"mettre en place|mets en place|utilis\w*|suivr\w*|suivant|"
    r"einricht\w*|erzwing\w*|anwend\w*|befolg\w*|verwend\w*|nutz\w*|"
    r"aplic\w*|segu\w*|sigue\w*|usar|usando|configurar)\b",
    re.IGNORECASE,
)
#: A doubt, a comparison or a question of what the convention is: no choice made.
_DOUBT = re.compile(
    r"\b(?:should (?:we|i)|shall we|could we|would it|is it worth|worth it|whether|or not|vs\.?|"
    r"versus|pros and cons|what(?:'s| is| are)|explain|difference|compare|instead of|"
    r"faut-il|devrait-on|est-ce que|sollten wir|ob|deberíamos|debería)\b|\bor\b[^.?!]*\?",
    re.IGNORECASE,
)
_NEGATED = re.compile(
    r"\b(?:don't|do not|doesn't|never|no longer|not|stop|stopped|without|drop|remove|"
    r"ne pas|n'utilise|pas de|nicht|kein\w*|no (?:uses|usamos|usar))\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class AskedConvention:
    """A convention the user asked to put in place: key, statement, the message's event."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def asked_convention(sentence: str) -> str | None:
    """The convention a sentence of the user's asks to put in place (its name), or None."""
    if len(sentence) > MAX_SAID_CHARS or _DOUBT.search(sentence) or _NEGATED.search(sentence):
        return None
    named = [name for pattern, name in _CONVENTIONS if pattern.search(sentence)]
    if len(named) != 1 or not _PUT_IN_PLACE.search(sentence):
        return None  # two conventions in one sentence: a comparison, whatever its words
    return named[0]


def asked_conventions(events: list[StoredEvent]) -> list[AskedConvention]:
    """The conventions the user's sentences in `events` ask to put in place, one each."""
    found: dict[str, AskedConvention] = {}
    for event, sentence in told_sentences(events):
        name = asked_convention(sentence)
        if name is None:
            continue
        key = f"{KEY_PREFIX}{key_slug(name)}"
        if key not in found:
            said = sentence.rstrip(" .")
            content = f"The user wants the project to follow {name} (they asked: “{said}”)."
            found[key] = AskedConvention(key, content, (event.id,))
    return list(found.values())
