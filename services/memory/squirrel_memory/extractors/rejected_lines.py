"""A line the user quoted back and called untrue, which the assistant then removed: kept as what
the user says is not so, never as the claim.

The assistant writes a line into a file ("Many tests start a local server. Use `--jobs=1` to
avoid port conflicts."), the user copies that line back and says it is wrong ("this is not
true"), and the assistant takes it out. The claim is the mistake a later session could make
again (the line may still stand in another file it came from), so what is kept is the claim
marked as untrue, with the file it was removed from. A message counts when all of these hold,
the same in every ecosystem:

- it is the user's own (typed or queued) and answers the assistant: the event before it is the
  assistant's reply or action;
- it is a quote and a verdict, nothing else: one line (or two) copied from somewhere, each
  perhaps behind the line number and `+`/`-` marker an editor's diff shows or a `>`, and one
  line that only says it is not so ("this is not true", "that's wrong", "this is incorrect");
- before the user's next message the assistant edits a file of the project so that the quoted
  text, which the edit's old text holds, is gone from its new text: the correction was taken
  (an assistant that argues back or edits something else keeps nothing);
- the user does not take it back later in the session (`user_corrections.taken_back`).

The pitfall reads `"<claim>" is not true, the user says; it was removed from <file>.`: the
verdict follows the claim directly, so no reading of the memory states the claim alone. And no
other memory of the episode states it (`without_rejected`): one that holds a sentence of the
claim, or a clause of it before or after a colon (the file's line as the session wrote, read or
quoted it before the correction), is left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.events import EventType, Origin
from squirrel_memory.extractors.differences import edits
from squirrel_memory.extractors.elsewhere import outside_root
from squirrel_memory.extractors.user_corrections import taken_back
from squirrel_memory.extractors.wording import key_slug
from squirrel_memory.models import MemoryCandidate, StoredEvent

#: Above a correction in the user's words alone (0.45): the removal shows it was taken.
IMPORTANCE = 0.5
MAX_QUOTE_CHARS = 300
MAX_QUOTED_LINES = 2
MAX_REJECTED = 2

_OWN = frozenset({str(Origin.TYPED), str(Origin.QUEUED)})
_NOT_ACTIONS = frozenset({EventType.USER_MESSAGE, EventType.COMMIT, EventType.COMPACTION_SUMMARY})
#: A line that only says the quoted text is not so.
_VERDICT = re.compile(
    r"^(?:no[,.!]?\s+)?(?:this|that|it|this line|that line|this part|that part)"
    r"(?:'s|’s|\s+is|\s+was)\s+(?:not\s+(?:true|correct|right|accurate|the case)|untrue|false|"
    r"wrong|incorrect|inaccurate)|^(?:this|that|it)\s+isn[’']t\s+(?:true|correct|right|accurate)",
    re.IGNORECASE,
)
_VERDICT_TAIL = re.compile(r"[\s.!]*$")
#: What an editor or a mail client puts before a copied line: its number and diff marker, `>`.
_LINE_MARK = re.compile(r"^\s*(?:\d+\s*[+>-]\s?|\d+\s*[→|:]\s?|[+>-]\s?)?")
#: Emphasis and a leading label ("**IMPORTANT**:", "NOTE:"), left out of the kept claim.
_EMPHASIS = re.compile(r"\*\*|__")
_LABEL = re.compile(r"^[A-Z][A-Z ]{2,15}:\s+")
_SPACE = re.compile(r"\s+")
_KEY_DROP = frozenset(str.split("a an the is are to of and or in on for with use"))


@dataclass(frozen=True, slots=True)
class RejectedLine:
    """A quoted claim the user called untrue: key, statement, events, the file it left."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    files: tuple[str, ...]
    #: The claim as the user quoted it, emphasis and label off.
    claim: str = ""


def quoted_claim(text: str) -> str:
    """The text the user's message quotes and calls untrue (its markers off), or ""."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if not 2 <= len(lines) <= MAX_QUOTED_LINES + 1 or "```" in text:
        return ""
    verdicts = [i for i, line in enumerate(lines) if _whole_verdict(line)]
    if len(verdicts) != 1 or verdicts[0] not in (0, len(lines) - 1):
        return ""
    quoted = [_LINE_MARK.sub("", line, count=1).strip() for line in lines]
    claim = " ".join(q for i, q in enumerate(quoted) if i != verdicts[0] and q)
    if not claim or len(claim) > MAX_QUOTE_CHARS or _whole_verdict(claim):
        return ""
    return claim


def _whole_verdict(line: str) -> bool:
    """Whether `line` is a verdict and nothing more."""
    said = line.strip()
    found = _VERDICT.match(said)
    return found is not None and bool(_VERDICT_TAIL.fullmatch(said[found.end() :]))


def _flat(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def rejected_lines(events: list[StoredEvent]) -> list[RejectedLine]:
    """The lines the user quoted and called untrue in `events` that the assistant removed."""
    kept: list[RejectedLine] = []
    for index, event in enumerate(events):
        if event.event_type != EventType.USER_MESSAGE or event.sidechain:
            continue
        text = event.content.get("text")
        answered = index > 0 and events[index - 1].event_type not in _NOT_ACTIONS
        if event.origin not in _OWN or not answered or not isinstance(text, str):
            continue
        claim = quoted_claim(text)
        if not claim or taken_back(events, index):
            continue
        removed = _removal(events, index, _flat(claim))
        if removed is None:
            continue
        path, edit_id = removed
        said = _LABEL.sub("", _flat(_EMPHASIS.sub("", claim))).rstrip(" :;,.")
        key = f"pitfall:untrue:{key_slug(said, _KEY_DROP) or 'claim'}"
        if any(k.key == key for k in kept):
            continue
        content = f'"{said}" is not true, the user says; it was removed from {path}.'
        kept.append(RejectedLine(key, content, (event.id, edit_id), (path,), said))
        if len(kept) == MAX_REJECTED:
            break
    return kept


def _removal(events: list[StoredEvent], index: int, claim: str) -> tuple[str, str] | None:
    """The project file and edit that took `claim` out after the user's message at `index`
    and before the user's next one, or None."""
    turn: list[StoredEvent] = []
    for event in events[index + 1 :]:
        if event.event_type == EventType.USER_MESSAGE and event.origin in _OWN:
            break
        turn.append(event)
    for edit in edits(turn):
        if not edit.path or outside_root(edit.path, events[index].project_id):
            continue
        if claim in _flat(edit.before) and claim not in _flat(edit.after):
            return edit.path, edit.event_id
    return None


#: A sentence of a claim short enough to be said in passing is no sign of stating it.
MIN_CLAIM_SENTENCE_CHARS = 20
_CLAIM_SENTENCE = re.compile(r"(?<=[.!?;:])\s+")
_PLAIN = re.compile(r"[`*_\"'“”‘’]")


def without_rejected(
    found: list[MemoryCandidate], events: list[StoredEvent]
) -> list[MemoryCandidate]:
    """`found` without the candidates that state a claim the user called untrue in `events`
    (a sentence of it, ignoring case, emphasis and quotes), the untrue pitfall itself aside."""
    rejected = rejected_lines(events)
    if not rejected:
        return found
    said = [
        plain
        for line in rejected
        for part in _CLAIM_SENTENCE.split(line.claim)
        if len(plain := _plain(part).rstrip(" .:;,")) >= MIN_CLAIM_SENTENCE_CHARS
    ]
    keys = {line.key for line in rejected}
    return [
        c for c in found if c.key in keys or not any(part in _plain(c.content) for part in said)
    ]


def _plain(text: str) -> str:
    return _flat(_PLAIN.sub("", text)).lower()
