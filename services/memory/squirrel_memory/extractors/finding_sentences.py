"""What one sentence of the assistant's reply states as a finding about how the project's tools
behave, rather than a note on the work at hand (`learned` reads a session's replies with it):

- it opens as an explanation ("the issue/problem/reason is that …", "this is because …",
  "it turns out …") or behind the label an assistant puts before a finding ("Note: …",
  "Heads up: …", "Gotcha: …", "Caveat: …", "That's why: …", "Here's what's going on: …");
- it states a rule of behaviour: a negation, "only", "requires", "instead of", "by default",
  "is ignored", "must be <done>" ("must be given `--project …`"; "must be the cache" guesses),
  "overrides", "resets when …";
- it speaks of no one (no "I", "we", "you": those describe the session's own steps; "your"
  before a file or a code span names the project's file, said "the project's `tsconfig.json`")
  and not of the session's own change ("this change must be deployed"), hedges nothing ("might",
  "probably": a guess is not a finding), and is not about a test's expectation (a failing
  test restated);
- it can be quoted whole.

Three more shapes count only where `learned` says the session had trouble (a rule of a named
thing also in the answer to a question), because only trouble makes them a cause rather than a
remark:

- a tool's behaviour by itself: "the deploy host doesn't automatically check out git submodules",
  "the runner does not load `.env` on its own";
- a dismissal: what looked like a failure is not one ("those diagnostics are just the local
  language server not finding the headers - not real issues", "the warning is harmless");
- a rule of a named thing the session ran or read: "Release-plz requires a change to packaged
  files before creating a release PR", "- the formatter v3 installs only `fmt`" — its subject
  names something (a code span, or a word no prose would write: with a hyphen, dot, digit or a
  capital past the sentence's start, or the program of a command the session ran) that is in
  what the session saw, it is no exclamation, no label ("Critical finding: …") and no status
  line behind a mark ("❌ …"), and its verb states a rule (requires, needs, only, does not,
  won't, cannot, never). A plain noun ("the function doesn't handle …") names the work at
  hand, not a tool; it is the weakest shape, tried last, and gives way to the same finding
  said as a cause. This one also counts in the answer to a question the user asked ("How do I
  run only the feature tests?": "The Feature suite needs the `pdo_sqlite` extension …"), an
  answer's lead word left off ("No: npm never lets …", "Right: …"); a subject of one word in
  lower case, seen in the session and not a common word, names a program ("npm").

No shape counts when the sentence says what has or has not happened to a thing so far ("`pkg`
has never been published to PyPI", "the key has not been rotated yet", "is not released yet"):
that is the situation when it was said, which the session itself may change an hour later, not
how anything behaves (`situation`); and a rule of a named thing right after such a sentence is
its consequence, which holds no longer than it (`learned` leaves it out).

Each finding is worded as found in a session (`FOUND_PREFIX`): a finding about the project's own
code may stop holding once the code changes.
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.finding_tongues import (
    MIN_UNSPACED_CHARS,
    UNSPACED,
    not_a_finding,
    opens_a_cause,
    tongue,
)
from squirrel_memory.extractors.wording import sentence

MIN_CHARS = 30
MAX_CHARS = 220
FOUND_PREFIX = "Found in a session: "
#: A past participle after "must be": a rule ("must be given", "must be run"), not a guess
#: ("it must be the cache").
_PARTICIPLE = r"(?:\w+(?:ed|en)|set|run|built|kept|put|made|done|read|shut)\b"
_OPENING = re.compile(
    r"^(?:[\w!,' ]{0,40}?\b)?(?:the (?:real |actual |root |underlying )?(?:issue|problem|reason|"
    r"catch|cause|culprit) (?:is|was) that|this is because|that'?s because|it turns out"
    r"(?: that)?|turns out(?: that)?|(?:note|heads[- ]up|gotcha|caveat)\s*:|"
    # a label that announces the explanation: "That's why: …", "Here's what's going on: …"
    r"(?:that'?s|this is|here'?s) why\s*:|here'?s what(?:'s| is)? (?:going on|happening)\s*:|"
    r"here'?s what happened\s*:)"
    r"\s+(?P<finding>.+)$",
    re.IGNORECASE,
)
_PERSONAL = re.compile(
    r"\b(?:i|i'm|i've|i'd|my|me|we|we're|we've|our|us|you|your|you're)\b|"
    r"\b(?:the|this|that|a) (?:test|tests|mock|assertion)\b|\bexpected\b",
    re.IGNORECASE,
)
_HEDGE = re.compile(
    r"\b(?:might|may|maybe|probably|perhaps|likely|seems?|must be(?! " + _PARTICIPLE + r")|could|"
    r"possibly|i think|"
    r"guess|somehow)\b",
    re.IGNORECASE,
)
_RULE = re.compile(
    r"\b(?:does not|doesn'?t|don'?t|do not|can'?t|cannot|isn'?t|aren'?t|is not|are not|won'?t|"
    r"only|requires?|needs?|always|never|instead of|by default|expects?|(?:is|are) ignored|"
    r"must(?: not)? be " + _PARTICIPLE + r"|overrides?|ignores?|skips?|"
    r"(?:resets?|reset|is lost|are lost) "
    r"(?:when|on|after|whenever))\b",
    re.IGNORECASE,
)


#: What has or has not happened so far: "has never been published", "hasn't been run yet",
#: "is not released yet". A state at the time, not a rule of behaviour.
_SITUATION = re.compile(
    r"\b(?:has|have|had) (?:never|not|not yet|yet to|already) been\b|"
    r"\b(?:hasn'?t|haven'?t|hadn'?t) (?:yet )?been\b|"
    r"\b(?:is|are|was|were)(?: not|n'?t) (?:\w+ed |\w+en )?yet\b|\bnot yet\b",
    re.IGNORECASE,
)


def situation(text: str) -> bool:
    """Whether a sentence says what has or has not happened to something so far ("`x` has
    never been published"): the situation when it was said, not how anything behaves."""
    return bool(_SITUATION.search(text))


#: How a tool behaves by itself: "X doesn't check out submodules automatically".
BY_ITSELF = re.compile(
    r"\b(?:does not|doesn'?t|do not|don'?t|won'?t|will not|never)\s+(?:[\w`'./-]+\s+){0,8}?"
    r"(?:automatically|by itself|by default|on (?:its|their) own)\b|"
    r"\b(?:does not|doesn'?t|do not|don'?t|won'?t|will not)\s+(?:automatically|"
    r"(?:by itself|by default|on (?:its|their) own),?)\s+\w+",
    re.IGNORECASE,
)
#: What looked like a failure is not one, or is only the echo of another.
_NOT_REAL = re.compile(
    r"\bnot (?:real|actual|genuine) (?:build |compile |compiler )?(?:errors?|issues?|problems?|"
    r"failures?)\b|\b(?:is|are) (?:harmless|a false positive|false positives|spurious|"
    r"safe to ignore)\b|"
    # a failure that only follows from another one: "the `final` failures are only aggregate
    # failures caused by those jobs"
    r"\b(?:is|are) only (?:an? )?(?:aggregate|downstream|follow-on|knock-on|cascading|"
    r"secondary) (?:failures?|errors?)\b",
    re.IGNORECASE,
)
#: A rule of a named thing: up to four words of subject, then the words of a rule.
_NAMED_RULE = re.compile(
    r"^(?P<subject>(?:`[^`]+`|[^\s`]+)(?:\s+(?:`[^`]+`|[^\s`]+)){0,3}?)\s+"
    r"(?:requires|needs|only\s+[a-z]+s|[a-z]+s\s+only|does not|doesn'?t|won'?t|will not|cannot|"
    r"can'?t|never)\b",
    re.IGNORECASE,
)
#: A one-word answer or acknowledgement before a rule ("No: …", "Right — …", "Yes, …"): left
#: off, the rule follows it.
_ANSWER_LEAD = re.compile(
    r"^(?:yes|yep|no|nope|right|correct|exactly|indeed)\s*(?:[:,]|[-–—])\s+", re.IGNORECASE
)
#: A sentence whose subject is only a pronoun: it names nothing of its own.
_PRONOUN_OPENS = re.compile(r"^(?:it|this|that|these|those|they|there)\b", re.IGNORECASE)
#: Words that stand for no named thing when they open a sentence.
_PRONOUN_WORD = re.compile(
    r"^(?:everything|nothing|something|anything|everyone|nobody|none|each|every|both|all|some|"
    r"any|one|the|this|that|these|those|there|which|what|who|files?|tests?|code)$"
)
#: A link citing where a rule is documented, at the sentence's end: left off.
_CITED = re.compile(r"(?<!\s)\s*\[[^\]]+\]\(https?://[^)\s]+\)\.?\s*$")
#: A clause that qualifies the one before it: not a finding of its own.
_QUALIFIES = re.compile(r"(?:but|unless|except|only|otherwise|though|although|so)\b", re.I)
#: The session's own change named: a note on the work, not a finding.
_THE_WORK = re.compile(r"\b(?:this|the|my|that) (?:change|fix|patch|pr|commit|edit)s?\b", re.I)
#: Where a sentence may end: after `.`, `!` or `?` and a blank, or right after a full stop of
#: Chinese and Japanese.
_STOPS = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])\s*")
#: A part whose last word, before its stop, is in a script other than Latin (Cyrillic, Greek).
_LAST_NON_LATIN = re.compile(r"[^\W\d_\u0000-\u024f][\W_]*$")
#: A list item's marker, left off.
_ITEM = re.compile(r"^(?:[-*\u2022]|\d+[.)])\s+")
#: A word no prose would write: a hyphen, dot, slash, underscore, @ or digit inside it.
_JOINED = re.compile(r"^[A-Za-z@][\w@]*(?:[-./_@][\w@]+)+$|^[A-Za-z]+\d[\w]*$")
#: A plan or an aside, not a statement of cause.
_PLAN = re.compile(r"^(?:let me|let's|i'll|i will|we need|we'll|now|next|first)\b", re.I)
#: A cause whose subject is only a pronoun ("It doesn't restart automatically."): nothing for a
#: later reader to recognise.
_VAGUE_SUBJECT = re.compile(
    r"^(?:it|this|that|they|these|those|there|which)\s+(?:does|doesn'?t|do|don'?t|did|didn'?t|"
    r"is|isn'?t|are|aren'?t|was|wasn'?t|were|won'?t|will|can'?t|cannot|never|just|only)\b",
    re.IGNORECASE,
)
#: "your local X" in a dismissal is the project's local X to any later reader.
_YOUR = re.compile(r"\byour\b", re.IGNORECASE)
#: "your `tsconfig.json`", "your src/app.ts": a file of the project the assistant names to the
#: user, not a person's own thing (never a home or absolute path: "your ~/.bashrc").
_YOUR_FILE = re.compile(
    r"\b([Yy])our\s+(?=`(?![~/])[^`\n]+`|(?![~/])[\w.-]+/[\w./-]*\w|[\w-]+\.[A-Za-z]{1,6}\b)"
)


def _projects_own(flat: str) -> str:
    """`flat` with each "your" before a file or a code span said as "the project's": the
    assistant naming the project's own file to the user ("your `tsconfig.json` sets …")."""
    return _YOUR_FILE.sub(
        lambda m: "The project's " if m.group(1) == "Y" else "the project's ", flat
    )


def finding(text: str) -> str:
    """The finding one sentence states, as a sentence of its own, or ""."""
    match = _OPENING.match(" ".join(text.split()))
    if match is None:
        return _opened_in_tongue(text)
    found = match.group("finding").strip()
    said = _stated(found)
    first, _, after = found.partition("; ")
    if not said and after and not _QUALIFIES.match(after):
        # a later clause about the work at hand ("…; the test alias runs them itself") leaves
        # the first one a finding of its own, unless it qualifies it ("…; but only …")
        said = _stated(first)
    return said


def insight_sentences(paragraph: str) -> list[str]:
    """The sentences of a paragraph in any script: split after `.`, `!` or `?` (or the full
    stops of Chinese and Japanese, `。`, `！`, `？`, with no blank after them) where the next one
    opens with a capital letter, a letter of a script without case, or a code span; or, after
    a word in a script other than Latin, with a Latin letter (a name: "… релиза. npm …")."""
    found: list[list[str]] = []
    for part in _STOPS.split(paragraph):
        if not part:
            continue  # the end of a paragraph after a full stop of Chinese or Japanese
        opens = part[:1]
        # a letter of a script without case (Han, kana, Hangul) opens a sentence as a capital does
        starts = (opens.isalpha() and not opens.islower()) or opens == "`"
        # a Latin word after a sentence in another script is a name opening the next one
        named = opens.isascii() and opens.isalpha() and bool(found)
        if found and not starts and not (named and _LAST_NON_LATIN.search(found[-1][-1])):
            found[-1].append(part)
        else:
            found.append([part])
    return [" ".join(parts) for parts in found]


def insight(text: str) -> str:
    """A sentence of an insight block (the label announces an explanation, in any language),
    as a finding, or "": not a question, a lead-in, a guess, a plan, nor about anyone's steps
    or the session's own change."""
    flat = _projects_own(_ITEM.sub("", " ".join(text.split()).strip()))
    lang = tongue(flat)
    if lang is not None:
        return _in_tongue(lang, flat)
    if not MIN_CHARS <= len(flat) <= MAX_CHARS or flat.count("`") % 2 or len(flat.split()) < 4:
        return ""
    if flat.endswith((":", "?")) or _PLAN.match(flat) or _HEDGE.search(flat) or situation(flat):
        return ""
    if _PERSONAL.search(flat) or _THE_WORK.search(flat) or _PRONOUN_OPENS.match(flat):
        return ""  # "This means …" leans on the sentence before it
    return sentence(f"{FOUND_PREFIX}{flat}") or ""


def _in_tongue(lang: str, flat: str) -> str:
    """A sentence in a language other than English (`lang`, `finding_tongues`) as a finding, or
    "": not a question, a lead-in, a guess, a plan, a status line, nor about the speaker's
    steps (a sentence that tells them in its tail, "… — я проверил …", included)."""
    fewest = MIN_UNSPACED_CHARS if lang in UNSPACED else MIN_CHARS
    if not fewest <= len(flat) <= MAX_CHARS or flat.count("`") % 2:
        return ""
    if lang not in UNSPACED and len(flat.split()) < 4:
        return ""
    if flat.rstrip(".").endswith((":", "?", "：", "？")) or not_a_finding(lang, flat):
        return ""
    return sentence(f"{FOUND_PREFIX}{flat}") or ""


def _opened_in_tongue(text: str) -> str:
    """A sentence in a language other than English that opens as an explanation and states a
    rule ("Причина в том, что `pytest` читает `conftest.py` лишь …"), as a finding, or ""."""
    flat = _projects_own(" ".join(text.split()).strip())
    lang = tongue(flat)
    if lang is None or not opens_a_cause(lang, flat):
        return ""
    return _in_tongue(lang, flat)


def _stated(found: str) -> str:
    found = _projects_own(found)
    if not MIN_CHARS <= len(found) <= MAX_CHARS or found.count("`") % 2:
        return ""
    if _PERSONAL.search(found) or _HEDGE.search(found) or not _RULE.search(found):
        return ""
    if situation(found):
        return ""
    if _THE_WORK.search(found):
        return ""  # a note on the session's own change ("this change must also be deployed")
    if found.endswith((":", "?")):
        return ""
    # Said as found at the time: a finding about the project's own code may not hold once
    # the code changes, so the memory says where it comes from rather than stating it as now.
    said = sentence(f"{FOUND_PREFIX}{found}")
    return said or ""


def stated_cause(text: str) -> str:
    """The cause one sentence states after trouble (a tool's behaviour by itself, or a
    dismissal of what looked like a failure), as a finding, or ""."""
    flat = " ".join(text.split()).strip()
    if not MIN_CHARS <= len(flat) <= MAX_CHARS or flat.count("`") % 2 or _PLAN.match(flat):
        return ""
    if flat.endswith((":", "?")) or _HEDGE.search(flat) or _VAGUE_SUBJECT.match(flat):
        return ""
    if situation(flat):
        return ""
    if _NOT_REAL.search(flat):
        flat = _YOUR.sub("the", flat)
    elif not BY_ITSELF.search(flat) or _PERSONAL.search(flat):
        return ""
    if re.search(r"\b(?:i|i'm|i've|we|we're|you|you're)\b", flat, re.IGNORECASE):
        return ""
    return sentence(f"{FOUND_PREFIX}{flat}") or ""


def _names(subject: str, seen: str) -> bool:
    """Whether a rule's subject names something the session saw (`seen`, lowercased): a code
    span, a joined word, a capitalised word past the sentence's start, or its first word when
    that is capitalised and seen as a word of its own."""
    spans = re.findall(r"`([^`]+)`", subject)
    if any(span.strip().lower() in seen for span in spans if len(span.strip()) >= 2):
        return True
    words = [w.strip(".,;:()'\"") for w in re.sub(r"`[^`]*`", " ", subject).split()]
    for at, word in enumerate(words):
        if len(word) < 3 or word.lower() not in seen:
            continue
        # past the start a capital names something ("the Vite bundler"); an acronym ("the old
        # URL") is a common noun
        if _JOINED.match(word) or (at > 0 and word[0].isupper() and not word.isupper()):
            return True
        # a capitalised first word names a program the session ran ("Composer won't …"), not
        # any word it saw ("Session metadata doesn't …")
        ran = rf"\"command\": \"{re.escape(word.lower())}(?![\w-])"
        if at == 0 and word[0].isupper() and re.search(ran, seen):
            return True
        # a sentence no prose would open in lower case, its whole subject one word: a
        # program's name ("npm never lets …"), seen as a word of its own
        alone = at == 0 and len(words) == 1 and word.islower()
        if alone and not _PRONOUN_WORD.match(word) and _word_in(word, seen):
            return True
    return False


def _word_in(word: str, seen: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", seen) is not None


def named_rule(text: str, seen: str) -> str:
    """The rule one sentence states of a named thing the session saw, as a finding, or ""."""
    flat = _CITED.sub("", _ITEM.sub("", " ".join(text.split()).strip()))
    flat = _ANSWER_LEAD.sub("", flat, count=1)
    if not MIN_CHARS <= len(flat) <= MAX_CHARS or flat.count("`") % 2 or _PLAN.match(flat):
        return ""
    if flat.endswith((":", "?")) or _HEDGE.search(flat) or _PERSONAL.search(flat):
        return ""
    if situation(flat):
        return ""
    if not (flat[:1].isalnum() or flat[:1] == "`"):
        return ""  # a status line behind a mark ("❌ Module name doesn't match …")
    match = _NAMED_RULE.match(flat)
    if match is None or _VAGUE_SUBJECT.match(flat) or re.search(r"!\W*$", flat):
        return ""  # an exclamation is emphasis, not a finding
    subject = match.group("subject")
    if ":" in subject.replace("`", "") or not _names(subject, seen):
        return ""  # a label's words ("Critical finding: …") are no subject
    return sentence(f"{FOUND_PREFIX}{flat}") or ""
