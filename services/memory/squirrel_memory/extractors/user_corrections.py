"""The user correcting the assistant, kept as a pitfall that says what holds instead.

Sessions with no failed command still hold lessons: right after the assistant said or did
something, the user puts it right ("no, not the staging bucket — the release one", "that's wrong
because the cache is per user", "it's not a JSONL file, it's one JSON document"). The mistake
is one a later session can make again, so the correction is kept, with the files the assistant
was working on when it was made. A message counts when all of these hold:

- it is the user's own (typed or queued), and it answers the assistant: the event before it is
  the assistant's reply or action;
- it is short and the user's own words: no code block, no quoted (`>`) lines, no pasted log or
  several paragraphs (someone else's text pasted in is not the user correcting);
- its first sentence (or its first two, for "it's not X. it's Y") has a correction's shape:
  "no, not X — Y", "(it's|that's) not X, (it's|but) Y", "X is not Y, it's Z", "that's wrong
  because …", "that's not right: …";
- it guesses nothing ("I think", "maybe", "probably"), asks nothing, plans nothing ("let's",
  "we'll"), reports no state of the work ("it's not working, it still fails", "no, not yet",
  "that's not what I asked") and is not about a dependency ("upstream", "third-party",
  `node_modules/`);
- it names something of its own (a file, symbol, command, value or plain noun): "no, not that
  one, the other one" or "no, the other file" says nothing without its context;
- the user does not take it back later in the session ("never mind", "you were right", "my
  bad", "ignore that", "scratch that": `taken_back`).

The pitfall reads "The user corrected the assistant (working on <files>): <correction>"
(`pitfall:corrected:…`); at most `MAX_CORRECTIONS` per episode. The same correction said in
another language is read by `tongue_corrections` and quoted in the user's words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.events import EventType, Origin
from squirrel_core.host_tools import CHANGE_TOOLS, READ_TOOLS
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.elsewhere import outside_root
from squirrel_memory.extractors.tongue_corrections import taken_back_in, tongue_correction
from squirrel_memory.extractors.wording import key_slug, sentence
from squirrel_memory.models import StoredEvent

MAX_MESSAGE_CHARS = 400
MAX_CORRECTIONS = 2
MAX_FILES = 2
#: Below a pitfall a run showed (0.5): one message, the user's word for it.
IMPORTANCE = 0.45
PREFIX = "The user corrected the assistant"

#: The user's own typing: a correction is never an answer to a question the assistant asked.
_OWN = frozenset({str(Origin.TYPED), str(Origin.QUEUED)})
#: What the user's message can answer without the assistant having acted before it.
_NOT_ACTIONS = frozenset({EventType.USER_MESSAGE, EventType.COMMIT, EventType.COMPACTION_SUMMARY})
#: Tools whose input names a file the assistant was working on: every host's file reads and
#: changes (`squirrel_core.host_tools`), made or not.
_FILE_TOOLS = READ_TOOLS | CHANGE_TOOLS
_PART = r"[^,;.!?—–\n]{2,80}?"
_SEP = r"\s*(?:[,;:.]|\s[—–-])\s*"
_SHAPES = (
    # no, not X — Y
    re.compile(rf"^no[,.!]?\s+not\s+(?P<wrong>{_PART}){_SEP}(?P<right>.{{3,160}})$", re.I),
    # it's not X, it's Y / that's not X but Y / X is not Y, it's Z
    re.compile(
        rf"^(?:no[,.!]?\s+)?(?P<wrong>(?:it|that|this|they|(?:the\s+)?[\w`'./-]+(?:\s[\w`'./-]+)?)"
        rf"(?:'s|'re|\s+is|\s+are)\s+not\s+{_PART}){_SEP}(?:but\s+)?"
        r"(?P<right>(?:it|that|this|they|we|you|use|the)\b.{3,160})$",
        re.I,
    ),
    # that's wrong because … / that's not right: …
    re.compile(
        r"^(?:no[,.!]?\s+)?(?P<wrong>(?:that|this|it)(?:'s|\s+is)\s+(?:wrong|not right|not "
        r"correct|incorrect))(?:\s*[,:;—–-]\s*|\s+)(?P<right>(?:because|since|as)\b.{8,160}|"
        r"(?!because)\w.{8,160})$",
        re.I,
    ),
)
_HEDGE = re.compile(
    r"\b(?:i think|i guess|i believe|maybe|might|probably|perhaps|not sure|possibly|i suspect|"
    r"could be|seems?)\b",
    re.I,
)
_PLAN = re.compile(r"\b(?:let'?s|we'?ll|we will|i'?ll|next step|for now|later)\b", re.I)
_DEPENDENCY = re.compile(
    r"\b(?:upstream|third-party|3rd[- ]party)\b|(?:^|[\s`/])(?:node_modules|site-packages|"
    r"vendor|third_party)/",
    re.I,
)
_TAKEN_BACK = re.compile(
    r"\b(?:never ?mind|you were right|you'?re right after all|my bad|my mistake|i was wrong|"
    r"ignore (?:that|my last|what i said)|scratch that|forget (?:that|what i said))\b",
    re.I,
)
#: The work's state or the request, not a fact put right ("it's not working, it still fails",
#: "no, not yet", "that's not what I asked"): true of that moment only.
_STATUS = re.compile(
    r"\bnot\s+(?:yet|now|working|fixed|done|finished|resolved|solved|passing|compiling|"
    r"what i (?:asked|meant|wanted|said))\b",
    re.I,
)
_PASTED = re.compile(r"```|^\s*>", re.M)
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
#: Words left out of a correction's key.
_KEY_DROP = frozenset(
    str.split(
        "a an the is are was were be not no it its it's that's this that they them there but "
        "because since as wrong right correct incorrect"
    )
)

_WORD = re.compile(r"[\w`'./-]+")
#: Words that point at something in the conversation without naming it.
_VAGUE = _KEY_DROP | frozenset(
    str.split(
        "no not one ones other another the this that these those it its it's that's "
        "file files thing things way version place folder directory function method class line "
        "lines command value here there instead different same else just please i you we me "
        "meant mean want wanted said use used using do did first last previous next new old "
        "other's of in on to for with from again actually still also oh one's what which"
    )
)


@dataclass(frozen=True, slots=True)
class UserCorrection:
    """A correction: key, statement, the user's message (and the assistant's last act), files."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    files: tuple[str, ...]


def correction(text: str) -> str:
    """The correction the user's message states, as one sentence, or ""."""
    flat = text.strip()
    if len(flat) > MAX_MESSAGE_CHARS or _PASTED.search(flat) or "\n\n" in flat:
        return ""
    flat = " ".join(flat.split())
    parts = _SENTENCE.split(flat)
    for part in (parts[0], " ".join(parts[:2])):
        said = part.rstrip(" .!")
        if said.endswith("?") or _HEDGE.search(said) or _PLAN.search(said) or _STATUS.search(said):
            continue
        if _DEPENDENCY.search(said):
            return ""
        for shape in _SHAPES:
            if shape.match(said):
                return (sentence(said) or "") if _names_something(said) else ""
    return ""


def _names_something(said: str) -> bool:
    """Whether the correction names something of its own (a file, symbol, command, value or
    plain noun): "no, not that one, the other one" says nothing without its context."""
    return any(
        word.strip("'`-.").lower() not in _VAGUE
        for word in _WORD.findall(said)
        if word.strip("'`-.")
    )


def _files(events: list[StoredEvent], start: int, end: int) -> tuple[str, ...]:
    """The project files the assistant read or changed in `events[start:end]`, newest first."""
    found: list[str] = []
    for event in reversed(events[start:end]):
        if event.event_type == EventType.CODE_CHANGE or (
            event.event_type == EventType.TOOL_CALL and event.content.get("tool") in _FILE_TOOLS
        ):
            found.extend(
                relative_path(p, event.project_id)
                for p in event.file_paths
                if not outside_root(p, event.project_id)
            )
    return tuple(dict.fromkeys(found))[:MAX_FILES]


def user_corrections(events: list[StoredEvent]) -> list[UserCorrection]:
    """The user's corrections of the assistant in `events` (in order) that were not taken back."""
    kept: list[UserCorrection] = []
    turn_start = 0
    for index, event in enumerate(events):
        if event.event_type != EventType.USER_MESSAGE or event.sidechain:
            continue
        answered = index > 0 and events[index - 1].event_type not in _NOT_ACTIONS
        start, turn_start = turn_start, index + 1
        text = event.content.get("text")
        if event.origin not in _OWN or not answered or not isinstance(text, str):
            continue
        said = correction(text) or tongue_correction(text)
        if not said or taken_back(events, index):
            continue
        files = _files(events, start, index)
        where = f" (working on {', '.join(files)})" if files else ""
        key = f"pitfall:corrected:{key_slug(said, _KEY_DROP) or 'correction'}"
        if any(k.key == key for k in kept):
            continue
        kept.append(UserCorrection(key, f"{PREFIX}{where}: {said}", (event.id,), files))
        if len(kept) == MAX_CORRECTIONS:
            break
    return kept


def taken_back(events: list[StoredEvent], index: int) -> bool:
    """Whether a later message of the user's takes back the one at `index`."""
    return any(
        e.event_type == EventType.USER_MESSAGE
        and e.origin in _OWN
        and isinstance(e.content.get("text"), str)
        and (bool(_TAKEN_BACK.search(e.content["text"])) or taken_back_in(e.content["text"]))
        for e in events[index + 1 :]
    )
