"""A failure and its fix told in the summary of a continued conversation, kept as a lesson.

When a conversation runs out of context the host writes a summary of it and the session goes on
from there (Claude Code's "This session is being continued from a previous conversation …").
The records of what failed are gone; the summary keeps them in a part of its own, each failure
under a title with an `Error:` line and a `Fix:` line:

    4. Errors and fixes:
       - **Publish refused**:
         - Error: `npm publish` failed with `E402 Payment Required`
         - Fix: Published with `npm publish --access public`

Such a pair is the lesson a later session needs, the same for every ecosystem and tool. It
becomes a pitfall, "<error>; the fix: <fix>", when all of these hold:

- it stands in the part whose heading is "Errors and fixes" of a compaction summary, with an
  `Error:` line and a `Fix:` line (a part that only says no error happened gives nothing);
- the error is a failure of something named: a code span (a command, a message, a file) and a
  failure word ("failed", "error", "refused", "not found" …). A slip of the assistant's own
  ("Renamed the package instead of the module") or a failed edit of its tools is none;
- no line of the item gives the user's word on it ("User feedback: …"): that is a correction
  of a proposal, or a fix the user turned down, which the user's own words tell better;
- the fix was made, not planned or guessed ("Need to upgrade …", "not done yet", "might");
- the continued session does not show it failing again: no later run of the command the error
  names fails.

A fix that runs the failed command another way (`npm publish --access public` after `npm
publish` failed) says how the command is run here, and is tagged as such (`fix:variant`), like
the same lesson read from the runs themselves (`fix_attribution`).

At most `MAX_LESSONS` per episode; one lesson a key (a summary repeated in the next
continuation is one lesson).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.events import EventType, Origin
from squirrel_memory.extractors.pitfalls import first_error_line
from squirrel_memory.extractors.stated_causes import HEDGE
from squirrel_memory.extractors.wording import key_slug, sentence, without_bold
from squirrel_memory.models import StoredEvent

MAX_LESSONS = 3
MAX_PART_CHARS = 240
MIN_PART_CHARS = 12

#: The part's heading: "4. Errors and fixes:", "## Errors and Fixes", "**Errors and fixes**".
_HEADING = re.compile(
    r"^\s*(?P<marks>#{1,6}\s*)?(?:\d{1,2}[.)]\s*)?\**\s*errors?\s+(?:and|&)\s+fix(?:es)?\s*:?"
    r"\s*\**\s*:?\s*$",
    re.IGNORECASE,
)
#: A numbered heading at the line's start ("5. Problem Solving:"), and a markdown heading.
_NUMBERED = re.compile(r"^\d{1,2}[.)]\s+\S")
_MARKDOWN = re.compile(r"^(?P<marks>#{1,6})\s+\S")
#: A labelled line of an item: "- Error: …", "- **Fix**: …", "- User feedback: …".
_LABEL = re.compile(
    r"^\s*(?:[-*+]\s+)?\**(?P<label>error|problem|issue|fix|solution|resolution|"
    r"user feedback|user response|user)\**\s*:\s*\**\s*(?P<body>.*)$",
    re.IGNORECASE,
)
#: An item's title: "- **Publish refused**:" (a bullet whose text is bold and ends the line).
_TITLE = re.compile(r"^\s*(?:[-*+]|\d{1,2}[.)])\s+\*\*[^*]+\*\*\s*:?\s*$")
_CODE_SPAN = re.compile(r"`([^`\n]{2,120})`")
#: A failure of something: said by its failure word.
_FAILURE = re.compile(
    r"\b(?:fail(?:s|ed|ing|ure)?|errors?|refused|rejected|denied|not found|cannot|can'?t|"
    r"unable|crash(?:es|ed|ing)?|exception|panic(?:s|ked)?|timed out|times out|broke|broken|"
    r"missing|unresolved|undefined|invalid)\b|\bE\d{3,4}\b",
    re.IGNORECASE,
)
#: The assistant's own tools failing (an edit whose text was not found): no lesson of the
#: project's.
_OWN_TOOLS = re.compile(
    r"\b(?:old_string|string to replace|has not been read|not been read yet|edit tool|"
    r"write tool|read tool|tool call|tool use)\b",
    re.IGNORECASE,
)
#: A fix still to do, tried without success, or none.
_NOT_DONE = re.compile(
    r"^(?:need(?:s|ed)? to|to\b|should|will|would|todo|pending|planned|next|none|n/?a|no fix)\b|"
    r"\bnot (?:done|made|applied|fixed|resolved)(?: yet)?\b|\bnot yet\b|\bstill (?:fail|broken|"
    r"open|pending)|\bdid ?n[o']t (?:help|work|fix)|\bunresolved\b|\bworkaround pending\b",
    re.IGNORECASE,
)
_KEY_DROP = frozenset(str.split("a an the is are was were of in on at to for from by with and or"))


@dataclass(frozen=True, slots=True)
class SummaryFix:
    """A failure and its fix a continued conversation's summary told: key, lesson, events."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    files: tuple[str, ...] = ()
    #: The fix is the failed command run another way (`npm publish --access public` for a
    #: failed `npm publish`): a lesson of how the command is run here.
    variant: bool = False


def _is_summary(event: StoredEvent) -> bool:
    return event.event_type == EventType.COMPACTION_SUMMARY or (
        event.event_type == EventType.USER_MESSAGE and event.origin == Origin.COMPACTION
    )


def _items(text: str) -> list[dict[str, str]]:
    """The labelled lines of each item of the summary's "Errors and fixes" part."""
    items: list[dict[str, str]] = []
    inside = False
    level = 0  # the part heading's markdown level (0: a numbered line)
    current: dict[str, str] = {}
    for line in text.splitlines():
        if heading := _HEADING.match(line):
            inside, current = True, {}
            level = len((heading["marks"] or "").strip())
            continue
        if not inside:
            continue
        markdown = _MARKDOWN.match(line)
        if (markdown and (not level or len(markdown["marks"]) <= level)) or (
            not level and _NUMBERED.match(line)
        ):
            inside = False  # the summary's next part
            continue
        if markdown or _TITLE.match(line):
            current = {}
            items.append(current)
            continue
        if (match := _LABEL.match(line)) is None:
            continue
        label = match["label"].lower()
        kind = "error" if label in ("error", "problem", "issue") else "fix"
        kind = "user" if label.startswith("user") else kind
        if kind == "error" and "error" in current:
            current = {}  # a second error with no title between: the next item
        if not current and (not items or items[-1]):
            items.append(current)
        current.setdefault(kind, match["body"].strip())
    return [item for item in items if item]


def _command_heads(error: str) -> list[str]:
    """The first two words of each code span of `error`: the commands it may name."""
    heads = []
    for span in _CODE_SPAN.findall(error):
        words = span.split()
        if words and re.fullmatch(r"[\w./-]+", words[0]):
            heads.append(" ".join(words[:2]))
    return heads


def _failed_again(heads: list[str], later: list[StoredEvent]) -> bool:
    """Whether a later run of a command `heads` names failed (the fix did not hold)."""
    for event in later:
        if event.event_type not in (EventType.COMMAND_RUN, EventType.TEST_RUN):
            continue
        command = str(event.content.get("command") or "").strip()
        if not any(command == h or command.startswith(f"{h} ") for h in heads):
            continue
        output = event.content.get("output")
        code = event.content.get("exit_code")
        if (isinstance(code, int) and code != 0) or (
            isinstance(output, str) and first_error_line(output)
        ):
            return True
    return False


def _lesson(item: dict[str, str]) -> tuple[str, str] | None:
    """(error, fix) of an item that holds a lesson, else None."""
    if "user" in item or "error" not in item or "fix" not in item:
        return None
    error, fix = without_bold(item["error"]).strip(), without_bold(item["fix"]).strip()
    if not (MIN_PART_CHARS <= len(error) <= MAX_PART_CHARS and len(fix) >= MIN_PART_CHARS):
        return None
    if not _CODE_SPAN.search(error) or not _FAILURE.search(error) or _OWN_TOOLS.search(error):
        return None
    # the error quotes what failed ("Could not find …"): only the fix's own words are a guess
    if _NOT_DONE.search(fix) or HEDGE.search(_CODE_SPAN.sub(" ", fix)):
        return None
    return error, fix[:MAX_PART_CHARS]


def summary_fixes(events: list[StoredEvent]) -> list[SummaryFix]:
    """The failures and fixes the compaction summaries of `events` told (in order)."""
    found: list[SummaryFix] = []
    for index, event in enumerate(events):
        text = event.content.get("text")
        if not _is_summary(event) or not isinstance(text, str):
            continue
        for item in _items(text):
            pair = _lesson(item)
            if pair is None:
                continue
            error, fix = pair
            if _failed_again(_command_heads(error), events[index + 1 :]):
                continue
            said, done = sentence(error), sentence(fix)
            if not said or not done:
                continue
            key = f"pitfall:summary:{key_slug(said, _KEY_DROP) or 'failure'}"
            if any(f.key == key for f in found):
                continue
            run_on = done[:1].lower() + done[1:] if done[1:2].islower() else done
            heads = _command_heads(error)
            variant = any(h in heads for h in _command_heads(fix))
            content = f"{said.rstrip('.')}; the fix: {run_on}"
            found.append(SummaryFix(key, content, (event.id,), variant=variant))
            if len(found) == MAX_LESSONS:
                return found
    return found
