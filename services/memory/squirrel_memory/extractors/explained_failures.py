"""A failure the assistant explained, kept as a finding when the session shows what it names.

After trouble the assistant often says why, in a sentence that names the failure or its root
cause, and then a sentence that says how the tool behaves or what the change does:

    "The lint failure is due to `staticcheck` SA5011 errors in `checkpoint_test.go`. The
    linter doesn't understand that `t.Fatal()` stops execution, so it thinks …"
    "The root cause is the same: on the cloud service a new connection's `SELECT` may not see
    rows another replica wrote. Adding `SETTINGS sequential = 1` to the read forces …"
    "Updating wrangler from 4.23.0 to 4.65.0 fixed the internal error."

Such an explanation is a finding (`learned.py` words and keeps it) when a rule can tell it from a
guess, the same in every ecosystem:

- its cause is read by its shape (`stated_causes`: "… is due to / caused by …", "the problem is
  that …", "<x> fails because …"), or it names the root cause behind a label ("The root cause
  (of …) is (the same): …"), or it says with hindsight that a change fixed an error
  ("<changing something> fixed the <…> error");
- what it names is in what the session saw before the reply: a code-like word of the cause (a
  code span, an identifier, a flag, a version) is in an earlier command, output or edit — a
  cause the session never saw evidence of is a hypothesis;
- it speaks of no one ("I", "we", "you"), hedges nothing ("probably", "might", "I think"), and is
  not a plan or a question. "May" describes a behaviour only when the next sentence says what
  the change does and that change is in an edit or a command of the session.

The next sentence of the paragraph joins the finding when it says how something behaves (a
negation, "only", "requires" …, with a subject that is not a pronoun; its ", so …" consequence
left off) or what the change does ("Adding `x` to … forces …", its longest code span found in
an edit or a command).
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.stated_causes import HEDGE, PERSON, PRONOUN, stated_cause
from squirrel_memory.extractors.wording import without_bold

MAX_CHARS = 320
#: A label naming the root cause: the cause follows the colon.
_ROOT_CAUSE = re.compile(
    r"^the (?:real |actual |underlying )?root cause(?: of [^:;]{1,80}?)? (?:is|was)"
    r"(?: the same| simple)?\s*:\s+(?P<cause>.+)$",
    re.IGNORECASE,
)
#: Changing something, as the first words of a sentence.
_CHANGE = (
    r"(?:adding|setting|passing|using|excluding|pinning|removing|renaming|updating|upgrading|"
    r"downgrading|bumping|switching|replacing|installing|reinstalling|clearing|deleting|moving|"
    r"disabling|enabling)"
)
#: "<changing something> fixed the <…> error", said with hindsight.
_FIXED = re.compile(
    rf"^(?P<change>{_CHANGE}\b.{{3,140}}?)\s+(?:fixed|resolved|solved)\s+(?:the|this|that)\s+"
    r"(?:[\w-]+\s+){0,3}?(?:errors?|failures?|issues?|problems?|crash(?:es)?|bugs?|warnings?)"
    r"\b[^;:]{0,60}$",
    re.IGNORECASE,
)
_MECHANISM = re.compile(rf"^{_CHANGE}\b", re.IGNORECASE)
#: How something behaves: the words of a rule.
_RULE = re.compile(
    r"\b(?:does not|doesn'?t|don'?t|do not|can'?t|cannot|isn'?t|aren'?t|is not|are not|won'?t|"
    r"only|requires?|needs?|always|never|instead of|by default|expects?|forces?|ensures?)\b",
    re.IGNORECASE,
)
#: A consequence clause after the behaviour: left off ("…, so it thinks …").
_SO = re.compile(r"(?:,|(?<![\s,]))\s+so\s+(?:it|they|the|this|that|a|an)\b.*$", re.IGNORECASE)
#: "May" describes a behaviour; the other hedges are guesses.
_MAY = re.compile(r"\bmay\b", re.IGNORECASE)
_SPAN = re.compile(r"`([^`]+)`")
#: A word only code would use: an identifier with digits or underscores, a dotted name, a flag,
#: a version.
_CODE_WORD = re.compile(
    r"(?<![\w-])(?:[A-Z]{2,}\d+|\w+_\w+|[A-Za-z]\w*\.\w+(?:\.\w+)*|--?[a-z][\w-]+|\d+\.\d+(?:\.\d+)*)"
    r"(?![\w-])"
)


def _flat(text: str) -> str:
    return " ".join(text.split()).strip()


def _words(text: str) -> set[str]:
    """The code-like words `text` names: its code spans and the words only code would use."""
    found = {span.strip().lower() for span in _SPAN.findall(text) if len(span.strip()) >= 2}
    found |= {word.lower() for word in _CODE_WORD.findall(_SPAN.sub(" ", text))}
    return found


def _seen(text: str, evidence: str) -> bool:
    """Whether a code-like word of `text` is in `evidence` (lowercased)."""
    return any(word in evidence for word in _words(text))


def _guess(text: str) -> bool:
    return bool(PERSON.search(text) or HEDGE.search(_MAY.sub("", text)))


def _behaviour(sentence: str) -> str:
    """How something behaves, as the next sentence says it (its consequence left off), or ""."""
    said = _SO.sub("", _flat(sentence)).rstrip(" .")
    if not said or PRONOUN.match(said) or not _RULE.search(said) or said.count("`") % 2:
        return ""
    if _guess(said) or _MAY.search(said) or said.endswith("?"):
        return ""
    return said


def _mechanism(sentence: str, evidence: str) -> str:
    """What a change does, as the next sentence says it, when the session made that change."""
    said = _flat(sentence).rstrip(" .")
    if not _MECHANISM.match(said) or said.count("`") % 2 or said.endswith("?"):
        return ""
    spans = sorted((span.strip().lower() for span in _SPAN.findall(said)), key=len)
    # the change itself (its longest code span), not a word it shares with anything
    if not spans or spans[-1] not in evidence or _guess(said):
        return ""
    return said


def explained(sentence: str, following: str, evidence: str, *, after_trouble: bool) -> str:
    """The finding a sentence of a reply states about a failure (with the next sentence of its
    paragraph when that says how something behaves or what the change does), or "".
    `evidence` is what the session saw before the reply, lowercased; a cause counts only
    `after_trouble` (a failure, or the user reporting one), a fix said with hindsight always."""
    flat = without_bold(_flat(sentence))
    if not flat or flat.endswith(("?", ":")) or flat.count("`") % 2:
        return ""
    fixed = _FIXED.match(flat)
    if fixed:
        said = flat.rstrip(" .")
        return said + "." if not _guess(said) and _seen(fixed.group("change"), evidence) else ""
    if not after_trouble:
        return ""
    root = _ROOT_CAUSE.match(flat)
    if root:
        said = root.group("cause").rstrip(" .")
        said = said[0].upper() + said[1:]
    else:
        _, cause = stated_cause(flat)
        if not cause or PRONOUN.match(flat):
            return ""  # "This happens because …" names nothing a later reader would recognise
        said = flat.rstrip(" .")
    if PERSON.search(said) or HEDGE.search(_MAY.sub("", said)) or not _seen(said, evidence):
        return ""
    mechanism = _mechanism(following, evidence)
    if _MAY.search(said) and not mechanism:
        return ""  # "may" with nothing the session did about it is a guess
    joined = mechanism or _behaviour(following)
    if joined:
        said = f"{said}; {joined[0].lower()}{joined[1:]}"
    return f"{said}." if len(said) < MAX_CHARS else ""
