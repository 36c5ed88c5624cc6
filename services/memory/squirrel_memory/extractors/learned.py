"""What the assistant learned: its own explanations of how something behaves, kept offline.

When a session hits a surprise, the assistant says what it found: "The issue is that Next.js
doesn't serve `index.html` files from subdirectories in `public/`." Each sentence of its replies
is read for a finding (`finding_sentences`): one opened as an explanation or said in an insight
block ("★ Insight ───" … "───", in any language), and, only right after trouble, a cause or a
rule of a named thing the session saw. Trouble is the user's last message reporting a problem
("still doesn't work", a pasted error, "any other issues?") or a command or tool call that
failed since it; a rule of a named thing also counts in the answer to a question the user
asked. After a tool's behaviour by itself, the small edit the assistant made before the user's
next message is the fix the memory names. A finding a later reply takes back, or said before a
command that failed fails again, is not kept; nor is what has (not) happened so far ("`x` has
never been published"), or a rule of a named thing said right after it, its consequence.

The memory says it was found in a session ("Found in a session: …"): a finding about the
project's own code may stop holding once the code changes. Findings that say the same thing
in other words are kept once. Where things live and how they are wired is `placements.py`;
what only a model can tell apart goes through the model path.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from squirrel_core.events import EventType, is_user_voice
from squirrel_memory.extractors.differences import changed_lines, edits
from squirrel_memory.extractors.elsewhere import replies_elsewhere
from squirrel_memory.extractors.explained_failures import explained
from squirrel_memory.extractors.finding_sentences import (
    BY_ITSELF,
    FOUND_PREFIX,
    finding,
    insight,
    insight_sentences,
    named_rule,
    situation,
    stated_cause,
)
from squirrel_memory.extractors.finding_tongues import tongue
from squirrel_memory.extractors.instruction_words import instruction_words
from squirrel_memory.extractors.lessons import takes_back
from squirrel_memory.extractors.wording import key_slug, plain_apostrophes, without_bold
from squirrel_memory.models import StoredEvent

#: Findings kept per episode: opened as an explanation, and causes stated after trouble.
MAX_FINDINGS = 3
MAX_STATED_CAUSES = 2
#: Rules of a named thing stated after trouble, kept per episode (the weakest shape: the first
#: to give way when a cause says the same).
MAX_NAMED_RULES = 2
#: Failures the assistant explained (`explained_failures`), kept per episode.
MAX_EXPLAINED = 2
#: What one event shows as evidence for an explanation (its text, lowercased), at most.
MAX_EVIDENCE_CHARS = 20_000
IMPORTANCE = 0.4
#: Two findings sharing this share of the shorter one's words say the same thing.
SAME_SHARE = 0.5

#: Words left out of a finding's key.
_KEY_DROP = frozenset(
    str.split(
        "a an the t s is are was were be been of in on at to for from by with and or it its "
        "this that these those there when which"
    )
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`])")
#: A user message reporting trouble: something does not work, an error, a failure, issues, or a
#: request to investigate one.
_TROUBLE = re.compile(
    r"\b(?:does ?n[o']t work|did ?n[o']t work|not working|still (?:does ?n[o']t|fails?|failing|"
    r"broken|not)|broken|fail(?:s|ed|ing|ure)?|errors?|issues?|problems?|warnings?|"
    r"diagnostics?|crash(?:es|ed)?|exception|traceback|investigate)\b",
    re.IGNORECASE,
)
#: The label that opens an insight block of a reply (an output style that explains as it
#: works) and the rule that closes it: every sentence between them is offered as an
#: explanation, in whatever language the reply is written.
_INSIGHT_OPENS = re.compile(r"^`?★ ?insight\b", re.IGNORECASE)
_INSIGHT_CLOSES = re.compile(r"^`?[─━]{8,}`?$")
#: A user's message that asks a question: the answer's rule of a named thing is a finding.
_ASKED = re.compile(
    r"\?$|^(?:how|why|what|where|which|when|does|do|is|are|can|should)\b", re.IGNORECASE
)
FIX_JOIN = "; the fix made: "


@dataclass(frozen=True, slots=True)
class Learned:
    """A finding the assistant stated: key, the sentence, and the reply it was said in."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def _failed(event: StoredEvent) -> bool:
    if event.event_type not in (EventType.TOOL_RESULT, EventType.COMMAND_RUN, EventType.TEST_RUN):
        return False
    code = event.content.get("exit_code")
    return event.content.get("is_error") is True or (isinstance(code, int) and code != 0)


def _fix_after(events: list[StoredEvent], start: int) -> tuple[str, str]:
    """(the fix, its event id) of the first small edit after `events[start]` and before the
    user's next message: a line it added, in the file it changed; ("", "") when none."""
    ids: set[str] = set()
    for event in events[start + 1 :]:
        if event.event_type == EventType.USER_MESSAGE and is_user_voice(event.origin):
            break
        ids.add(event.id)
    for edit in edits([e for e in events if e.id in ids]):
        _, added = changed_lines(edit)
        if added:
            line = added[0].rstrip(",;")
            # a path outside the project's root (another checkout's) is named by its file
            where = edit.path.rsplit("/", 1)[-1] if edit.path.startswith(("/", "~")) else edit.path
            return f"`{line}` in {where}", edit.event_id
    return "", ""


def learned(events: list[StoredEvent]) -> list[Learned]:
    """The assistant's findings in `events`, each said once: at most `MAX_FINDINGS` it opened
    as an explanation, and after trouble at most `MAX_STATED_CAUSES` causes it stated (with
    the fix it made)."""
    kept: list[Learned] = []
    kinds: list[str] = []
    counts = {"opened": 0, "cause": 0, "explained": 0, "named": 0}
    trouble = asked = False
    evidence: list[str] = []
    elsewhere = replies_elsewhere(events)
    for index, event in enumerate(events):
        if event.event_type != EventType.ASSISTANT_RESPONSE:
            # what the session saw: the user's pasted output, commands, outputs and edits
            evidence.append(
                json.dumps(event.content, ensure_ascii=False, default=str)[:MAX_EVIDENCE_CHARS]
            )
        if event.event_type == EventType.USER_MESSAGE and is_user_voice(event.origin):
            trouble = bool(_TROUBLE.search(str(event.content.get("text") or "")))
            asked = bool(_ASKED.search(str(event.content.get("text") or "").strip()))
            continue
        trouble = trouble or _failed(event)
        if event.event_type != EventType.ASSISTANT_RESPONSE or event.id in elsewhere:
            continue  # a subagent's findings in another folder are that folder's
        text = event.content.get("text")
        if not isinstance(text, str):
            continue
        seen = "\n".join(evidence).lower()
        prose = re.sub(r"```.*?(?:```|$)", " ", plain_apostrophes(text), flags=re.DOTALL)
        inside = False  # within an insight block ("★ Insight ───" … "───")
        for paragraph in prose.split("\n"):
            if _INSIGHT_OPENS.match(paragraph.strip()):
                inside = True
                continue
            if inside and _INSIGHT_CLOSES.match(paragraph.strip()):
                inside = False
                continue
            flat = " ".join(without_bold(paragraph).split())
            # a paragraph in another language is parted as an insight block's, in any script
            parted = inside or tongue(flat) is not None
            said_here = insight_sentences(flat) if parted else _SENTENCE.split(flat)
            for at, raw in enumerate(said_here):
                said = finding(raw) if counts["opened"] < MAX_FINDINGS else ""
                if not said and inside and counts["opened"] < MAX_FINDINGS:
                    said = insight(raw)
                ids: tuple[str, ...] = (event.id,)
                cause = not said and trouble and counts["cause"] < MAX_STATED_CAUSES
                if cause and (said := stated_cause(raw)):
                    fix, fix_id = _fix_after(events, index) if BY_ITSELF.search(raw) else ("", "")
                    if fix:
                        said, ids = f"{said.rstrip('.')}{FIX_JOIN}{fix}.", (event.id, fix_id)
                kind = "opened" if said and not cause else "cause"
                if not said and counts["explained"] < MAX_EXPLAINED:
                    following = said_here[at + 1] if at + 1 < len(said_here) else ""
                    why = explained(raw, following, seen, after_trouble=trouble)
                    said, kind = (f"{FOUND_PREFIX}{why}" if why else ""), "explained"
                # a rule right after what has (not) happened so far is its consequence: it
                # holds no longer than that situation ("`x` has never been published. The
                # install can't resolve it.")
                leans = at > 0 and situation(said_here[at - 1])
                if not said and (trouble or asked) and counts["named"] < MAX_NAMED_RULES:
                    said, kind = ("" if leans else named_rule(raw, seen)), "named"
                if not said:
                    continue
                what = said.removeprefix(FOUND_PREFIX)
                key = f"pitfall:learned:{key_slug(what.split(FIX_JOIN)[0], _KEY_DROP) or 'finding'}"
                same = next(
                    (
                        n
                        for n, k in enumerate(kept)
                        if _same(what, k.content.removeprefix(FOUND_PREFIX))
                    ),
                    None,
                )
                if same is not None:
                    # a named thing's rule gives way to the same finding said as a cause
                    if kinds[same] == "named" and kind != "named":
                        counts[kinds[same]] -= 1
                        kept[same], kinds[same] = Learned(key, said, ids), kind
                        counts[kind] += 1
                    continue
                if _undone(events, index, what):
                    continue
                kept.append(Learned(key, said, ids))
                kinds.append(kind)
                counts[kind] += 1
    return kept


def _command(event: StoredEvent) -> str:
    return str(event.content.get("command") or "") if _failed(event) else ""


def _undone(events: list[StoredEvent], index: int, claim: str) -> bool:
    """Whether `claim`, said in the reply `events[index]`, did not hold before the user's next
    message: a later reply takes it back ("The cache was not the problem.", "the real cause is
    …": `lessons.takes_back`), or a command that failed before it in the turn fails again
    after it."""
    failed: set[str] = set()
    for event in reversed(events[:index]):
        if event.event_type == EventType.USER_MESSAGE and is_user_voice(event.origin):
            break
        failed.add(_command(event))
    failed.discard("")
    for event in events[index + 1 :]:
        if event.event_type == EventType.USER_MESSAGE and is_user_voice(event.origin):
            break
        if _command(event) in failed:
            return True
        text = event.content.get("text")
        if (
            event.event_type == EventType.ASSISTANT_RESPONSE
            and isinstance(text, str)
            and takes_back(text, claim)
        ):
            return True
    return False


def _same(first: str, second: str) -> bool:
    a, b = instruction_words(first), instruction_words(second)
    if not a or not b:
        return False
    return len(a & b) / min(len(a), len(b)) >= SAME_SHARE
