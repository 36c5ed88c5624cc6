"""What a failure taught: the assistant's diagnosis, the output's own explanation, the edit.

A pitfall is worth keeping for its lesson: why the command failed and what difference got it
past the failure. Three rules read that from the session, the same for every ecosystem (this
module holds the first and the replies' sentences; `output_explanations` the second,
`differences` the third):

- `diagnosis`: the sentence of the assistant's reply after the failure that explains it
  ("The workflow is failing on formatting checks.", "This fails because the column is not
  nullable.", "The tests don't read `.env` at all: …", "The failures only show up when …",
  "The push was stopped by the pre-push hook: …"), also after a lead-in ("I see the issue -
  <cause>", "Found the problem: <cause>", "Here's what's going on: <cause>"), never a plan
  ("Let me fix …"), a reaction ("Perfect!") or what the session saw ("the issue is that we
  can see the link is missing": a symptom, not its cause) or where the trouble is ("the
  issue is in the `render` function": a place, not a cause);
- `explanation`: the line of the output that explains the error (`hint: Use -f if you really
  want to add them.`, `help: …`, `note: …`, `Caused by: …`, `Did you mean …?`), or its cause
  as a resolver or a compiler states it (`cause_line`: the lines under `The conflict is caused
  by:`, `error[E0308]: mismatched types`, the message after `** (CompileError)`);
- `edits` and `difference`: what an edit between the failure and the pass changed, when it is
  small enough to say (`continue-on-error: true` added), `naming_edit`: a larger edit whose
  changed lines name what failed (the module, the setting), said by its file, and
  `argument_change`: the flags or
  arguments that differ between the failing and the passing command.

Progress lines ("Checking 3 source files ...", "==> fine", "Getting extensions …") are never
an error's signature (`is_progress`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime

from squirrel_core.events import EventType
from squirrel_memory.extractors.stated_causes import stated_cause
from squirrel_memory.extractors.wording import without_bold
from squirrel_memory.markdown_links import unlinked
from squirrel_memory.models import StoredEvent

MAX_DIAGNOSIS_CHARS = 220

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(])")
#: A sentence that explains a failure: a cause, a negation, what it fails on.
_DIAGNOSES = re.compile(
    r"\b(?:because|due to|caused by|since the|"
    r"the (?:real |actual |root )?(?:issue|problem|cause|reason|error) (?:is|was)|"
    r"(?:error|failure|exception|crash|panic) (?:comes|came|stems|stemmed) from|"
    r"the (?:error|failure|message) (?:means|says)|"
    r"(?:is|are|was|were) (?:failing|failed) (?:on|at|because|due)|failing on|fails? on|"
    r"fails? (?:when|if|because)|there (?:is|are|were|was) (?:\w+ ){0,4}(?:errors?|failures?|"
    r"conflicts?)|(?:is|are) (?:missing|not installed|not set|not found|not on|not in|"
    r"required|expected|deprecated|outdated|stale)|doesn'?t (?:exist|have|support|match|"
    r"accept)|does not (?:exist|have|support|match|accept)|(?:isn|aren)'?t (?:installed|set|"
    r"supported|allowed|available|running|started|reachable|importable|exported|registered|"
    r"loaded|enabled|included)|"
    r"(?:is|are) not (?:installed|set|supported|allowed|available|running|started|reachable|"
    r"importable|exported|registered|loaded|enabled|included)|"
    # what a tool or a process leaves undone: "the tests don't read `.env`", "a process that
    # doesn't own that connection"
    r"(?<!\bi )(?<!\bwe )(?<!\byou )(?<!\bthey )"
    r"(?:doesn'?t|does not|don'?t|do not) (?:read|load|own|pick up|inherit|forward|export)|"
    # a failure that shows only under a condition: "The failures only show up when …"
    r"(?:failures?|errors?|crash(?:es)?) (?:only )?(?:shows? up|happens?|occurs?|appears?) "
    r"(?:when|if|under|while)|"
    # what stopped it: "The push was stopped by the repository's pre-push hook"
    r"(?:is|are|was|were|got) (?:stopped|rejected|blocked|refused|aborted) by"
    r"(?! (?:me|us|you|them|the user)\b)|"
    r"(?:is|was) (?:down|unreachable)|"
    r"can'?t (?:find|resolve|import|open|connect)|cannot (?:find|resolve|import|open|connect)|"
    r"(?:can'?t|cannot) run (?:on|under|with)|"
    r"expects?|mismatch|conflicts? with)\b",
    re.IGNORECASE,
)
#: A plan, a next step or a reaction: not a diagnosis.
_PLAN = re.compile(
    r"^(?:let me|let's|i'll|i will|i'm going|i need|i should|"
    r"(?:now|next|first|then),? (?:let|let's|i|i'll|we|we'll)\b|"
    r"great|perfect|excellent|good|ok|okay|sure|done|i see|i can see|looking|checking|"
    # "All done", "All tests pass"; not "All three checks fail for one reason: …"
    r"all(?!\s+(?:\w+\s+){0,2}(?:fail|fails|failed|failing)\b)|"
    r"running|(?:the )?tests? (?:now )?pass)",
    re.IGNORECASE,
)
#: A lead-in that announces the cause after a dash or a colon ("I see the issue - …", "Found
#: the problem: …", "Ah, got it —"): the cause is what follows it.
_LEAD_IN = re.compile(
    r"^(?:(?:ah|oh|ok|okay|right)[,!.]?\s+)?(?:(?:now )?i (?:see|found|spotted|get)|"
    r"(?:i'?ve )?found|got|there'?s)(?: (?:it|the|what'?s the|what the))?"
    r"(?: (?:real |root )?(?:issue|problem|cause|bug|culprit|reason|error))?(?: (?:now|here))?"
    r"\s*(?:[-–—:]|\.\.\.|…)\s+",
    re.IGNORECASE,
)
#: A guess, not a diagnosis: "This might be because the cache is stale", "probably …", "I
#: suspect …" ("could not connect" and "may not" of a rule stay statements).
_GUESS = re.compile(
    r"\b(?:might|maybe|perhaps|probably|possibly|presumably|likely|seems?|seemingly|"
    r"appears? to|could be|may be|may have|must be|not sure|guess|suspect|i think|i believe)\b",
    re.IGNORECASE,
)
#: A later reply that takes an earlier explanation back: "The cache was not the problem.",
#: "that wasn't it", "I was wrong".
_TAKES_BACK = re.compile(
    r"\b(?:was|is|were|are)(?:n'?t| not) (?:the|a|what) (?:real |actual |root )?(?:problem|issue|"
    r"cause|culprit|reason|bug)\b|\b(?:that|this) (?:was|is)n'?t it\b|"
    r"\bi was (?:wrong|mistaken)\b|\bwrong (?:diagnosis|guess|assumption)\b",
    re.IGNORECASE,
)
#: A reply that names another cause as the real one: "The real cause is that …".
_REAL_CAUSE = re.compile(
    r"\bthe (?:real|actual) (?:problem|issue|cause|culprit|reason)\b", re.IGNORECASE
)
_SPAN = re.compile(r"`([^`\n]+)`")
#: What the session itself saw ("we can see the link is missing"): a symptom, not a cause.
_OBSERVED = re.compile(r"\b(?:we|i|you) (?:can |could )?(?:see|saw|notice|noticed)\b", re.I)
#: Where the trouble is ("the issue is in the `render` function"): a place, not a cause.
_LOCATED = re.compile(
    r"\bthe (?:issue|problem|bug|error|cause) (?:is|was|lies|must be) "
    r"(?=(?:in|with|inside|within|somewhere)\b)",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Reply:
    """One assistant reply: when, in which session, what it said."""

    event_id: str
    timestamp: datetime
    session_id: str | None
    text: str


def replies(events: list[StoredEvent]) -> list[Reply]:
    """The assistant's replies of `events`, in order."""
    return [
        Reply(e.id, e.timestamp, e.session_id, text)
        for e in events
        if e.event_type == EventType.ASSISTANT_RESPONSE
        and isinstance(text := e.content.get("text"), str)
        and text.strip()
    ]


def diagnosis(
    found: list[Reply], session: str | None, start: datetime, end: datetime | None
) -> tuple[str, str]:
    """(the sentence explaining a failure, its reply's event id) from the assistant's replies
    in `session` after `start` and before `end`; ("", "") when none explains it."""
    for reply in found:
        if reply.session_id != session or reply.timestamp < start:
            continue
        if end is not None and reply.timestamp > end:
            break
        sentence = _explaining_sentence(reply.text)
        if sentence:
            return sentence, reply.event_id
    return "", ""


def stated_sentences(text: str) -> Iterator[str]:
    """The sentences of a reply's prose that state something, in order: code blocks, links,
    list marks and bold left out, a lead-in ("I see the issue - …") cut off; never a short
    one, a question, one that introduces what follows (":"), a plan or a reaction
    ("Let me …", "Perfect!"), or what the session saw ("we can see …")."""
    prose = re.sub(r"```.*?(?:```|$)", " ", text, flags=re.DOTALL)
    prose = unlinked(prose)
    for paragraph in prose.split("\n"):
        flat = " ".join(re.sub(r"^\s*(?:[-*+•]|\d+[.)]|#+)\s+", "", paragraph).split())
        flat = without_bold(flat)
        for raw in _SENTENCE.split(flat):
            sentence = _LEAD_IN.sub("", raw.strip(), count=1)
            if len(sentence) < 12 or sentence.endswith((":", "?")) or _PLAN.match(sentence):
                continue
            if not _OBSERVED.search(sentence):
                yield sentence


def takes_back(text: str, claim: str = "") -> bool:
    """Whether a reply takes the explanation `claim` back: it says that was not the problem
    ("The cache was not the problem.", "that wasn't it"), or names the real cause and that
    cause does not name every code span of `claim` ("Actually, wait - the real issue is that
    `index.html` …" says again a claim about `index.html`)."""
    if _TAKES_BACK.search(text):
        return True
    if not _REAL_CAUSE.search(text):
        return False
    spans = {s.strip().lower() for s in _SPAN.findall(claim)}
    named = {s.strip().lower() for s in _SPAN.findall(text)}
    return not spans or not spans <= named


def _explaining_sentence(text: str) -> str:
    for sentence in stated_sentences(text):
        if _GUESS.search(sentence):
            continue  # a guess is not a finding, whatever a later step shows
        cue = _DIAGNOSES.search(_LOCATED.sub(" ", sentence))
        # else a cause said by its shape: "Root cause: …", "The culprit was …", "<cause>, so
        # the prompt waits forever", "The real reason: …"
        cue_end = cue.end() if cue else (1 if stated_cause(sentence)[1] else 0)
        if not cue_end:
            continue
        said = clipped(sentence, MAX_DIAGNOSIS_CHARS) or _first_clause(sentence, cue_end)
        if said:
            return _unlabelled(said.rstrip("."))
    return ""


#: A label before a cause ("Root cause: …", "The real reason: …", "What happened: …"): the
#: memory says the cause without it.
_CAUSE_LABEL = re.compile(
    r"^(?:(?:the )?(?:(?:real|actual|root|underlying) )?(?:cause|reason|problem|issue|culprit)|"
    r"what (?:happened|went wrong)|here'?s what(?:'s| is)? (?:going on|happening)|"
    r"here'?s what happened)\s*:\s+(?=\S)",
    re.IGNORECASE,
)


def _unlabelled(said: str) -> str:
    """`said` without a label before its cause, its first letter raised."""
    rest = _CAUSE_LABEL.sub("", said, count=1)
    return rest[:1].upper() + rest[1:] if rest != said else said


#: Where a sentence's first clause ends: a colon or a semicolon outside a code span.
_CLAUSE_END = re.compile(r"`[^`]*`|[;:](?=\s)")


def _first_clause(sentence: str, cue_end: int) -> str:
    """A sentence too long to keep, cut where its first clause ends (at a colon or a
    semicolon, never a comma, which may leave a fragment that says the opposite) when that
    clause holds the words that made it a diagnosis and says enough by itself ("The widget
    lost its state because the provider was autoDispose: when …" keeps the part before the
    colon); else ""."""
    for mark in _CLAUSE_END.finditer(sentence):
        if mark.group().startswith("`"):
            continue
        head = sentence[: mark.start()].strip()
        if mark.start() < cue_end or len(head.split()) < 6:
            return ""
        return clipped(head, MAX_DIAGNOSIS_CHARS)
    return ""


def clipped(text: str, limit: int) -> str:
    """`text` whole, or "" when longer than `limit`: a sentence cut at a comma is a fragment
    that may say the opposite of the whole, and a cut-off one is worse than none."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else ""
