"""A failure's cause read from the reply that explains it and says what it changed.

After a failure the assistant often says what was wrong without a cue word ("because", "the
problem is"), then in the same reply what it changed: "The test compared a Decimal with a
float; money values must be cast to Decimal before comparing. I changed the assertion to
`Decimal('10.10')`." What makes the first sentence the cause is the reply's shape, the same in
every ecosystem and language. A sentence of a reply is the cause when all of these hold:

- a run of the same intent passed after the failure (`failure_causes` asks only then, and only
  when no other rule found a cause): the change the reply speaks of held;
- its reply is the first after the last try of the failure and before the next try;
- a later sentence of the same reply says what the assistant changed, in the first person
  ("I changed …", "I've moved …", "So I removed …") or as the change that fixes it ("Fix: …",
  "Keeping the connection open fixes it");
- it comes before that sentence, states something (`lessons.stated_sentences`), speaks of no
  one, hedges nothing ("probably", "might", "not sure"), is no instruction ("Add `x` …"), no
  outcome said again ("the build fails", "now it works"), nothing left undone ("… yet"), nor
  what a test checks (the work of a test written first);
- it shares a word with the failing output (`lessons.telling`: "Decimal" in `assert
  Decimal('10.098') == 10.1`): it speaks of what failed.

A label before it ("What happened: …") is left off.
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.differences import telling
from squirrel_memory.extractors.lessons import MAX_DIAGNOSIS_CHARS, clipped, stated_sentences
from squirrel_memory.extractors.output_explanations import is_progress

#: The assistant saying what it changed: "I changed …", "I've moved …", "So I removed …".
_CHANGED = re.compile(
    r"^(?:so,? |and |then,? )?i(?:'ve| have)? (?:also )?(?:changed|added|removed|replaced|"
    r"moved|set|cast|switched|marked|declared|pinned|renamed|wrapped|made|updated|took|used|"
    r"put|dropped|deleted|enabled|disabled|bumped|fixed|converted|turned|kept|passed|"
    r"registered|imported|reverted|rewrote|annotated|split|extracted|restored|raised|"
    r"lowered|quoted|escaped)\b",
    re.IGNORECASE,
)
#: The change said as what fixes it: "Fix: …", "Fixed by …", "Keeping one connection open fixes
#: it".
_FIXES = re.compile(
    r"^(?:fix(?:ed)?(?: by)?\s*:|fixed by\b)|^\w+ing\b.{3,200}\b(?:fixes|fixed|solves|solved|"
    r"resolves|resolved) (?:it|this|that|the (?:error|failure|problem|issue|build|tests?))\b",
    re.IGNORECASE,
)
#: A label a reply puts before the cause.
_LABEL = re.compile(r"^(?:what (?:happened|went wrong)|why|explanation)\s*:\s*", re.IGNORECASE)
_SPAN = re.compile(r"`[^`]*`")
#: The assistant or the user: a sentence about someone's steps is not a cause.
_PERSON = re.compile(
    r"\b(?:i|i'm|i've|i'll|i'd|we|we're|we've|we'll|let's|me|my|our|us|you|your)\b",
    re.IGNORECASE,
)
_GUESS = re.compile(
    r"\b(?:might|may|maybe|perhaps|possibly|probably|likely|unlikely|could|would|seems?|"
    r"appears?|suspect|guess|think|assume|wonder|presumably|not sure|not certain|unclear)\b",
    re.IGNORECASE,
)
#: The outcome said again, what holds now, or something not done yet: not a cause.
_OUTCOME = re.compile(
    r"\b(?:now|yet|fail\w*|pass|passes|passed|passing|succeed\w*|success\w*|works?|worked|"
    r"working|green|red)\b",
    re.IGNORECASE,
)
#: What a test checks: the work of a test written first, not what was wrong.
_TEST_WORK = re.compile(
    r"\b(?:tests?|specs?|assertions?|cases?)\b[^.;]{0,40}?\b(?:checks?|expects?|asserts?|"
    r"verif(?:y|ies)|covers?|wants?|describes?|exercises?)\b|\bnew (?:tests?|specs?|cases?)\b",
    re.IGNORECASE,
)
_INSTRUCTION = re.compile(
    r"^(?:add|remove|change|update|fix|use|run|install|set|make|try|replace|move|rename|"
    r"delete|create|check|ensure|call|import|wrap|switch|revert|bump|pin|drop|keep|put|"
    r"define|declare|edit|pass|configure|enable|disable|here|this|that|it)\b",
    re.IGNORECASE,
)
MIN_WORDS = 6


def fixing_reply_cause(text: str, output: str) -> str:
    """The sentence of a reply that says what was wrong before the reply says what it
    changed (see the module), or ""."""
    said = list(stated_sentences(text))
    change = next((k for k, s in enumerate(said) if _CHANGED.match(s) or _FIXES.match(s)), None)
    if change is None:
        return ""
    failed = telling(output)
    for sentence in said[:change]:
        flat = _LABEL.sub("", sentence.strip()).rstrip(".")
        prose = _SPAN.sub(" x ", flat)
        if len(flat.split()) < MIN_WORDS or flat.count("`") % 2 or is_progress(flat):
            continue
        if _PERSON.search(prose) or _GUESS.search(prose) or _OUTCOME.search(prose):
            continue
        if _INSTRUCTION.match(prose) or _TEST_WORK.search(prose):
            continue
        if not telling(flat) & failed:
            continue
        if kept := clipped(flat, MAX_DIAGNOSIS_CHARS):
            return kept[:1].upper() + kept[1:]
    return ""
