"""A problem and its fix the assistant set out under labels, kept as a lesson.

Having found why something goes wrong, the assistant often sets the finding out under bold
labels, in a pull request's review or in the summary of the work:

    **The Bug:** Channels are flushed in batches of 100 (`CHANNEL_BATCH_SIZE`), so the last
    channels stay in the buffer while the first full batch of programmes is sent.
    **The Fix:** Adding `this.flushChannels()` right before `this.flushPrograms()` delivers the
    remaining channels before the programmes that reference them.

Nothing failed in the session, so no rule for failures sees it; the pair is still the lesson a
later session needs (trigger and cause, and the difference that fixed it). It becomes a pitfall,
"<problem>; the fix: <fix>", when all of these hold, the same for every ecosystem:

- one reply of the main agent (not one about another place: `elsewhere`) holds a problem label
  ("Problem:", "The bug:", "Root cause:", "Cause:") with its text on the same line, and after
  it, before the next problem label, a fix label ("Fix:", "The solution:", "Workaround:") with
  its text on the same line;
- the problem is stated, not asked, guessed ("probably", "might"), planned or told of as anyone's
  steps ("I", "we", "you");
- the fix is one change, not a choice ("move it or make it aware"), guessed or advised
  ("should", "consider");
- the fix is real: the session changed a file other than a document (a note or a plan is no
  fix) before the reply, in the same turn, or the fix names in backticks a piece of code an
  output the session saw shows (the diff of the pull request under review).

The problem is kept up to `MAX_PROBLEM_CHARS` (its first sentences), the fix is its first
sentence. At most `MAX_LESSONS` per episode.

Asked why something fails, the assistant may instead open its answer by saying what kind of
failure it is and set the fix out under a plain label further down:

    This is a generated-docs drift failure, not a unit-test failure.
    …
    Fix: run `make docs` on the PR branch and commit the regenerated documentation files.

That pair is kept too ("A failure diagnosed in a session: a generated-docs drift failure, not a
unit-test failure; the fix: …") when the user's last message reports or asks about a failure,
the answer's first line is that one sentence ("This is a/an <kind> failure|error|issue|problem",
its kind named in a few words, optionally ", not a <kind> …"), a "Fix:" label (plain or bold)
at a line's start follows, and the fix names in backticks something an earlier command or
output of the session shows; the fix is tested as above (stated, one change, not advised).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.events import EventType, is_user_voice
from squirrel_memory.extractors.elsewhere import replies_elsewhere
from squirrel_memory.extractors.stated_causes import HEDGE, PERSON
from squirrel_memory.extractors.wording import key_slug, sentence, without_bold
from squirrel_memory.models import StoredEvent

MAX_PROBLEM_CHARS = 280
MAX_FIX_CHARS = 220
MIN_CHARS = 20
MAX_LESSONS = 3

_FENCE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
_MARKUP = r"^\s*(?:[-*+]\s+|\d{1,2}[.)]\s+|#{1,6}\s+)?"
#: "**The Bug:** …", "- **Problem**: …", "**Root cause:** …".
_PROBLEM_LABEL = re.compile(
    _MARKUP + r"\*\*(?:the\s+)?(?:problem|bug|root cause|cause)\s*:?\s*\*\*\s*:?\s*(?P<body>.*)$",
    re.IGNORECASE,
)
#: "**The Fix:** …", "**Solution**: …", "**Workaround:** …".
_FIX_LABEL = re.compile(
    _MARKUP + r"\*\*(?:the\s+)?(?:fix|solution|resolution|workaround)\s*:?\s*\*\*\s*:?\s*"
    r"(?P<body>.*)$",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(*])")
#: The kind of failure an answer opens with: "This is a generated-docs drift failure, not a
#: unit-test failure." (a kind named in one to six words).
_KIND = r"(?:[\w`'./+-]+ ){1,6}?(?:failure|error|issue|problem|breakage|regression)"
_DIAGNOSIS = re.compile(
    rf"^(?:this|that|it) is (?:an? |the )?(?P<kind>{_KIND}(?:,? not (?:an? |the )?{_KIND})?)\.$",
    re.IGNORECASE,
)
#: A fix under a plain label at a line's start: "Fix: run `…`".
_PLAIN_FIX = re.compile(_MARKUP + r"(?:the\s+)?fix\s*:\s+(?P<body>\S.*)$", re.IGNORECASE)
#: A user message that reports or asks about a failure.
_TROUBLE = re.compile(
    r"\b(?:fail(?:s|ed|ing|ure|ures)?|errors?|broken|breaks?|crash(?:es|ed)?)\b", re.IGNORECASE
)
DIAGNOSED_PREFIX = "A failure diagnosed in a session: "
#: What an earlier event shows, at most (characters).
MAX_SEEN_CHARS = 20_000
_PLAN = re.compile(r"^(?:let me|let's|i'll|i will|we need|we'll|next|todo|to do|step)\b", re.I)
#: Advice or a choice of changes: a proposal, not the fix made.
_PROPOSED = re.compile(
    r"\b(?:should|consider|recommend(?:ed)?|suggest(?:ed)?|option|alternatively)\b|\bor\b",
    re.IGNORECASE,
)
_CODE_SPAN = re.compile(r"`([^`\n]{3,80})`")
_DOCUMENT = re.compile(r"\.(?:md|mdx|markdown|txt|rst|adoc)$", re.IGNORECASE)
_KEY_DROP = frozenset(
    str.split("a an the is are was were be of in on at to for from by with and or it its this that")
)


@dataclass(frozen=True, slots=True)
class LabelledFix:
    """A labelled problem and fix: key, the lesson, the reply it was said in, files (none)."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    files: tuple[str, ...] = ()


def _first_sentences(body: str, limit: int) -> str:
    """The first sentences of `body` that fit in `limit` characters (at least the first)."""
    kept = ""
    for part in _SENTENCE.split(body.strip()):
        joined = f"{kept} {part}".strip()
        if kept and len(joined) > limit:
            break
        kept = joined
    return kept


def _stated(text: str) -> bool:
    """Whether `text` states something: long enough, no question, guess, plan or person."""
    flat = without_bold(text)
    return (
        len(flat) >= MIN_CHARS
        and not flat.rstrip().endswith(("?", ":"))
        and not HEDGE.search(flat)
        and not PERSON.search(flat)
        and not _PLAN.match(flat)
    )


def _pairs(text: str) -> list[tuple[str, str]]:
    """(problem, fix) for each problem label of `text` followed by a fix label."""
    found: list[tuple[str, str]] = []
    problem = ""
    for line in _FENCE.sub(" ", text).splitlines():
        if match := _PROBLEM_LABEL.match(line):
            problem = match.group("body").strip()
            continue
        if problem and (match := _FIX_LABEL.match(line)):
            found.append((problem, match.group("body").strip()))
            problem = ""
    return found


def _diagnosed_pair(text: str) -> tuple[str, str] | None:
    """(kind of failure, fix) of an answer that opens by naming the kind of failure and sets a
    fix out under a "Fix:" label, else None."""
    lines = [line for line in _FENCE.sub(" ", text).splitlines() if line.strip()]
    if not lines or not (opening := _DIAGNOSIS.match(without_bold(lines[0]).strip())):
        return None
    for line in lines[1:]:
        if match := (_FIX_LABEL.match(line) or _PLAIN_FIX.match(line)):
            return opening["kind"], match["body"].strip()
    return None


def seen_text(event: StoredEvent) -> str:
    """What `event` showed before the reply: a command and its output, or a tool's output."""
    if event.event_type not in (EventType.TOOL_RESULT, EventType.COMMAND_RUN, EventType.TEST_RUN):
        return ""
    parts = (event.content.get("command"), event.content.get("output"))
    return "\n".join(p[:MAX_SEEN_CHARS] for p in parts if isinstance(p, str))


def _diagnosed(text: str, seen: list[str]) -> str | None:
    """The lesson of an answer that names the kind of failure and its fix, else None."""
    pair = _diagnosed_pair(text)
    if pair is None:
        return None
    kind, raw_fix = pair
    fix = _SENTENCE.split(raw_fix, maxsplit=1)[0]
    if not _stated(fix) or _PROPOSED.search(fix) or len(fix) > MAX_FIX_CHARS:
        return None
    if not _shown(fix, seen) or PERSON.search(kind) or HEDGE.search(kind):
        return None
    said, done = sentence(kind), sentence(fix)
    if not said or not done:
        return None
    run_on = done[:1].lower() + done[1:] if done[1:2].islower() else done
    return f"{DIAGNOSED_PREFIX}a {said[:1].lower()}{said[1:].rstrip('.')}; the fix: {run_on}"


def _edited(event: StoredEvent) -> bool:
    """Whether `event` is a change of a file other than a document (a note or a plan written is
    no fix)."""
    if event.event_type != EventType.CODE_CHANGE:
        return False
    path = event.content.get("path")
    paths = [path] if isinstance(path, str) else list(event.file_paths or ())
    return not paths or any(not _DOCUMENT.search(p) for p in paths)


def _shown(fix: str, outputs: list[str]) -> bool:
    """Whether a code span of `fix` appears in an output the session saw."""
    spans = [s.strip() for s in _CODE_SPAN.findall(fix)]
    return any(span in output for span in spans for output in outputs)


def labelled_fixes(events: list[StoredEvent]) -> list[LabelledFix]:
    """The labelled problems and their fixes the main agent stated in `events` (in order)."""
    elsewhere = replies_elsewhere(events)
    found: list[LabelledFix] = []
    outputs: list[str] = []
    seen: list[str] = []
    changed = False
    trouble = False
    for event in events:
        if event.event_type == EventType.USER_MESSAGE and is_user_voice(event.origin):
            changed = False
            trouble = bool(_TROUBLE.search(str(event.content.get("text") or "")))
            continue
        if shown := seen_text(event):
            seen.append(shown)
        if event.event_type == EventType.TOOL_RESULT:
            output = event.content.get("output")
            if isinstance(output, str):
                outputs.append(output)
            continue
        changed = changed or (not event.sidechain and _edited(event))
        text = event.content.get("text")
        if (
            event.event_type != EventType.ASSISTANT_RESPONSE
            or event.sidechain
            or event.id in elsewhere
            or not isinstance(text, str)
        ):
            continue
        for raw_problem, raw_fix in _pairs(text):
            problem = _first_sentences(raw_problem, MAX_PROBLEM_CHARS)
            fix = _SENTENCE.split(raw_fix, maxsplit=1)[0]
            if not (_stated(problem) and _stated(fix)) or _PROPOSED.search(fix):
                continue
            if len(fix) > MAX_FIX_CHARS or not (changed or _shown(fix, outputs)):
                continue
            said, done = sentence(problem), sentence(fix)
            if not said or not done:
                continue
            key = f"pitfall:labelled:{key_slug(said, _KEY_DROP) or 'problem'}"
            if any(f.key == key for f in found):
                continue
            # "Adding …" runs on lowered; a name or an acronym ("CI now …") keeps its capitals.
            run_on = done[:1].lower() + done[1:] if done[1:2].islower() else done
            content = f"{said.rstrip('.')}; the fix: {run_on}"
            found.append(LabelledFix(key, content, (event.id,)))
            if len(found) == MAX_LESSONS:
                return found
        if trouble and (lesson := _diagnosed(text, seen)) is not None:
            key = f"pitfall:labelled:{key_slug(lesson, _KEY_DROP) or 'failure'}"
            if all(f.key != key for f in found):
                found.append(LabelledFix(key, lesson, (event.id,)))
                if len(found) == MAX_LESSONS:
                    return found
    return found
