"""Problems a subagent found in the project's code and reported, kept as pitfalls.

Much of a session's reading is delegated: a subagent explores the code and hands back a report,
and the report often says what is wrong ("**Conclusion:** a component's own
`pythonDependencies` are silently ignored during installation."). Nothing failed, so no rule
for failures fires; the finding is still what a later session should know before it touches
that code. A report is read where the session shows it: the launcher's result in the parent
session (Claude Code's `Agent` tool, `Task` before 2.1), the `<result>` of a background agent's
task notification, the message a subagent hands back, and the last reply of a subagent's own
transcript. A sentence of it becomes a pitfall when all of these hold:

- it states a problem: something silently ignored or dropped, not handled, never called or
  collected, a bug, a race, a leak;
- it is stated as found: under a label the report gives its findings ("Conclusion:", "Bug:",
  "Finding:", "Gap:", "Risk:", "Root cause:", or such a word in the heading above it), or with
  a strong problem word ("silently", "bug", "never called") beside a name from the code;
- it guesses nothing ("might", "probably", "could", "would", "seems"), offers nothing to check
  ("Hypothesis: …", "To verify: …", "If … is never called, …"), plans nothing ("Let me …",
  "Next …"), recommends nothing ("should", "consider"), asks nothing, speaks of no one's steps
  ("I", "we", "you"), and does not say the problem is none or gone ("Not a bug", "by design",
  "now fixed");
- it is about the project: no path outside its root, none in a dependency's folder
  (`node_modules/`, `site-packages/`, `vendor/` …), no "upstream" or "third-party" code, and the
  subagent looked at no other place (`elsewhere.replies_elsewhere`);
- nobody took it back: no later reply calls the report wrong (a false alarm, a false positive),
  and the user's next message does not answer "no" or "that's wrong".

The memory says who found it and where ("Found by a subagent reading the code (<files>): …"):
the code may change after the report. The files are those the sentence or its section names
inside the project. A report gives at most `MAX_PER_REPORT` findings, an episode
`MAX_FINDINGS`; one said twice (the handback and the relayed result) is kept once, and so is a
section's conclusion ("Conclusion: …", "In short: …") once that section gave a finding: it says
again what the section found, and would take the place of the problem the next section found.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from squirrel_core.events import EventType, is_user_voice
from squirrel_core.subagent_tools import HANDBACK_TOOL, SUBAGENT_TOOLS
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.elsewhere import replies_elsewhere
from squirrel_memory.extractors.wording import key_slug, sentence, without_bold
from squirrel_memory.models import StoredEvent

MIN_CHARS = 30
MAX_CHARS = 300
MAX_PER_REPORT = 3
MAX_FINDINGS = 4
MAX_FILES = 2
#: As a pitfall from an error the user pasted: seen in the code, not in a run.
IMPORTANCE = 0.5
PREFIX = "Found by a subagent reading the code"

_RESULT = re.compile(r"<result>(?P<body>.*?)(?:</result>|\Z)", re.DOTALL)
_LAUNCHED = re.compile(r"^\s*(?:async agent launched|agent is running|launched)", re.IGNORECASE)

#: The label a report gives its findings, at the head of a sentence or in a heading.
_LABEL = re.compile(
    r"^(?:(?:the\s+)?(?:key\s+|critical\s+|main\s+|important\s+)?(?:conclusion|finding|bug|"
    r"gap|risk|root cause|defect|flaw)s?|(?:this is\s+)?a\s+(?:critical|key|important)\s+"
    r"finding)\s*[:—–-]\s*",
    re.IGNORECASE,
)
_HEADING_LABEL = re.compile(
    r"\b(?:conclusions?|findings?|bugs?|gaps?|risks?|root cause|defects?|flaws?|not recursive|"
    r"not handled|problems? found|issues? found)\b",
    re.IGNORECASE,
)
#: A section's conclusion: it restates what the section found.
_CONCLUSION = re.compile(
    r"^\W*(?:the\s+)?(?:conclusion|summary|in short|in summary|bottom line|net effect)s?\s*[:—–-]",
    re.IGNORECASE,
)
#: What went unhandled, as a participle ("is not handled", "are never collected").
_UNDONE = (
    r"(?:handled|installed|validated|checked|called|used|applied|propagated|supported|collected|"
    r"prompted(?: for)?|configured|awaited|closed|escaped|freed|released|reset|saved|persisted|"
    r"recursive|processed|forwarded|passed(?: on| through)?|loaded|cleaned up|removed|updated|"
    r"invalidated|retried|logged|guarded|locked|sanitized|sanitised|initiali[sz]ed|registered|"
    r"included|copied|flushed|verified|enforced|respected|honou?red|read|set|reached|invoked|"
    r"executed|run|caught|reported)"
)
_PROBLEM = re.compile(
    r"\bsilently\s+(?:ignored|dropped|skipped|discarded|swallowed|lost|fails?|overwritten|"
    r"truncated)\b"
    r"|\b(?:is|are|was|were|gets?|get|will be|won'?t be)\s+(?:never|not)\s+(?:\w+ly\s+)?"
    rf"{_UNDONE}\b"
    r"|\b(?:is|are|will be)\s+(?:silently\s+)?(?:ignored|dropped|skipped|discarded|swallowed|"
    r"lost)\b"
    rf"|\bnever\s+(?:gets?\s+)?{_UNDONE}\b"
    r"|\b(?:a|the)\s+(?:real\s+)?(?:bug|race condition|memory leak|resource leak|deadlock|"
    r"off-by-one(?: error)?|security hole|vulnerability)\b",
    re.IGNORECASE,
)
#: A problem word strong enough to stand without a label, beside a name from the code.
_STRONG = re.compile(
    r"\bsilently\b|\bnever\s+(?:gets?\s+)?\w+ed\b|\b(?:bug|race condition|memory leak|"
    r"resource leak|deadlock|off-by-one|security hole|vulnerability)\b",
    re.IGNORECASE,
)
_CODE_NAME = re.compile(r"`[^`]+`|\b[\w.-]+/[\w./-]+|\b\w+\.(?:[a-z]{1,4})\b(?!\s)")
_HEDGE = re.compile(
    r"\b(?:might|may|maybe|probably|perhaps|likely|unlikely|seems?|appears?|could|possibly|"
    r"potentially|would|i think|suspect|guess|unclear|not sure|assuming|presumably|if so)\b",
    re.IGNORECASE,
)
#: A sentence that offers a problem to check, asks about one or sets one as a condition: not
#: a finding ("Hypothesis: …", "To verify: …", "If `x` is never called, …").
_UNCONFIRMED = re.compile(
    r"^(?:hypothes[ie]s|theory|theories|unverified|unconfirmed|untested|assumption|suspicion|"
    r"guess|candidate|question|open question|to (?:verify|check|confirm|investigate)|verify|"
    r"check(?:\s+(?:whether|if))?|if|whether|unless|in case|possible|possibly|potential|"
    r"previously|formerly|fixed)\b",
    re.IGNORECASE,
)
#: A problem said to be none, or no longer one ("Not a bug: …", "…; now fixed", "by design").
_NO_PROBLEM = re.compile(
    r"\b(?:not an?|no)\s+(?:real\s+)?(?:bug|problem|issue|defect|gap|risk)\b|\bnon-issue\b|"
    r"\b(?:(?:now|was|were|been|already|is|are)\s+(?:fixed|resolved)|by design|as intended|"
    r"intentional(?:ly)?|expected behaviou?r|as expected|false (?:alarm|positive))\b",
    re.IGNORECASE,
)
_PLAN = re.compile(
    r"^(?:let me|let's|i'll|i will|we need|we'll|we should|next|now|first|then|todo|to fix|"
    r"step \d|plan)\b",
    re.IGNORECASE,
)
_ADVICE = re.compile(
    r"\b(?:should|recommend(?:ed|ation)?|consider|suggest(?:ed|ion)?|needs? to be|must be|"
    r"would need|worth (?:checking|verifying|fixing))\b",
    re.IGNORECASE,
)
_PERSONAL = re.compile(
    r"\b(?:i|i'm|i've|i'd|my|me|we|we're|we've|our|us|you|your|you're)\b", re.IGNORECASE
)
#: A sentence about a dependency's code rather than the project's.
DEPENDENCY_CODE = re.compile(
    r"(?:^|[\s`(/])(?:node_modules|site-packages|dist-packages|vendor|third_party|\.venv|"
    r"\.cargo|go/pkg/mod|Pods)/|\b(?:upstream|third-party|3rd-party)\b",
    re.IGNORECASE,
)
_PATH = re.compile(r"(?<![\w:/])(?:/|\.\./|\./)?(?:[\w.@-]+/)+[\w.@-]+\.\w{1,6}\b")
#: A later reply or message that takes the report back.
_TAKEN_BACK = re.compile(
    r"\b(?:agent|subagent|report|exploration|finding|analysis)'?s?\b[^.!?\n]{0,80}?\b(?:was|is|"
    r"were|are)\s+(?:wrong|incorrect|mistaken|inaccurate|not (?:right|correct|accurate))\b|"
    r"\bfalse (?:alarm|positive)s?\b",
    re.IGNORECASE,
)
_USER_NO = re.compile(
    r"^\s*(?:no\b|nope\b|wrong\b|incorrect\b|not true\b|that'?s (?:not (?:true|right|correct)|"
    r"wrong))",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*\"'(])")
_FENCE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_HEADING = re.compile(r"^\s*#{1,6}\s+(?P<title>.+)$")
#: Words left out of a finding's key.
_KEY_DROP = frozenset(
    str.split(
        "a an the is are was were be will been of in on at to for from by with and or it its "
        "this that they them their there when if"
    )
)


@dataclass(frozen=True, slots=True)
class SubagentFinding:
    """A problem a subagent reported: key, statement, the files it names, the report's event."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    files: tuple[str, ...]


def report_of(event: StoredEvent, last_replies: frozenset[str]) -> str:
    """The subagent's report `event` carries, or "" (`last_replies`: `last_replies(events)`)."""
    content = event.content
    if event.event_type == EventType.TOOL_RESULT and content.get("tool") in SUBAGENT_TOOLS:
        output = content.get("output")
        if isinstance(output, str) and not _LAUNCHED.match(output) and not content.get("is_error"):
            return output
    if event.event_type == EventType.TOOL_CALL and content.get("tool") == HANDBACK_TOOL:
        given = content.get("input")
        message = given.get("message") if isinstance(given, dict) else None
        return message if isinstance(message, str) else ""
    if event.event_type == EventType.USER_MESSAGE and not is_user_voice(event.origin):
        text = content.get("text")
        if isinstance(text, str) and "<task-notification>" in text:
            match = _RESULT.search(text)
            return match.group("body") if match else ""
    if event.event_type == EventType.ASSISTANT_RESPONSE and event.id in last_replies:
        text = content.get("text")
        return text if isinstance(text, str) else ""
    return ""


def last_replies(events: list[StoredEvent]) -> frozenset[str]:
    """The last reply of each subagent in `events` (its report to the parent)."""
    last: dict[str, str] = {}
    for event in events:
        if event.sidechain and event.event_type == EventType.ASSISTANT_RESPONSE:
            last[event.agent_id or event.session_id or ""] = event.id
    return frozenset(last.values())


def _paths(text: str, project_id: str) -> list[str]:
    """The file paths `text` names, relative to the project root and normalised; an outside
    one as it is (`src/../../x.py` climbs out to `../x.py`)."""
    return [posixpath.normpath(relative_path(p, project_id)) for p in _PATH.findall(text)]


def _outside(path: str) -> bool:
    return path.startswith(("/", "~", "../")) or path == ".."


def problem(raw: str, *, labelled_section: bool = False) -> str:
    """The problem one sentence of a report states as found, without its label, or ""."""
    flat = " ".join(without_bold(raw).replace("__", "").split()).strip()
    if _UNCONFIRMED.match(flat) or _NO_PROBLEM.search(flat):
        return ""
    label = _LABEL.match(flat)
    body = flat[label.end() :] if label else flat
    if not MIN_CHARS <= len(body) <= MAX_CHARS or body.count("`") % 2:
        return ""
    if body.endswith(("?", ":")) or _PLAN.match(body) or _HEDGE.search(body):
        return ""
    if _ADVICE.search(body) or _PERSONAL.search(body) or DEPENDENCY_CODE.search(body):
        return ""
    if not _PROBLEM.search(body):
        return ""
    if not (label or labelled_section or (_STRONG.search(body) and _CODE_NAME.search(body))):
        return ""
    return sentence(body) or ""


def _lines(report: str) -> list[tuple[str, str]]:
    """(heading, line) for each line of prose in `report`, under the heading above it."""
    heading = ""
    found: list[tuple[str, str]] = []
    for line in _FENCE.sub(" ", report).splitlines():
        if match := _HEADING.match(line):
            heading = match.group("title")
            continue
        text = _BULLET.sub("", line).strip()
        if text and not text.startswith(("|", ">")):
            found.append((heading, text))
    return found


def taken_back(events: list[StoredEvent], index: int) -> bool:
    """Whether a later main reply calls the report wrong, or the user's next message says no."""
    for event in events[index + 1 :]:
        text = event.content.get("text")
        if not isinstance(text, str):
            continue
        if event.event_type == EventType.USER_MESSAGE and is_user_voice(event.origin):
            if _USER_NO.match(text):
                return True
            continue
        if (
            event.event_type == EventType.ASSISTANT_RESPONSE
            and not event.sidechain
            and _TAKEN_BACK.search(text)
        ):
            return True
    return False


def _found_in(
    report: str, event: StoredEvent, kept: list[SubagentFinding]
) -> list[SubagentFinding]:
    project = event.project_id
    found: list[SubagentFinding] = []
    section, seen = "", []
    #: The sections that gave a finding: their conclusion says it again.
    told: set[str] = set()
    for heading, line in _lines(report):
        if heading != section:
            section, seen = heading, _paths(heading, project)
        seen.extend(_paths(line, project))
        labelled = bool(_HEADING_LABEL.search(heading))
        for raw in _SENTENCE.split(line):
            if heading in told and _CONCLUSION.match(raw):
                continue
            said = problem(raw, labelled_section=labelled)
            named = _paths(raw, project)
            if not said or any(_outside(p) for p in named):
                continue
            inside = [p for p in (*named, *seen) if not _outside(p)]
            files = tuple(dict.fromkeys(inside))[:MAX_FILES]
            where = f" ({', '.join(files)})" if files else ""
            key = f"pitfall:found:{key_slug(said, _KEY_DROP) or 'problem'}"
            if any(k.key == key for k in (*kept, *found)):
                continue
            found.append(SubagentFinding(key, f"{PREFIX}{where}: {said}", (event.id,), files))
            told.add(heading)
            if len(found) == MAX_PER_REPORT:
                return found
    return found


def subagent_findings(events: list[StoredEvent]) -> list[SubagentFinding]:
    """The problems the subagents of `events` (in order) reported finding in the project."""
    elsewhere = replies_elsewhere(events)
    last = last_replies(events)
    kept: list[SubagentFinding] = []
    for index, event in enumerate(events):
        if event.id in elsewhere:
            continue  # a subagent that looked at another place reports on that place
        report = report_of(event, last)
        if not report or taken_back(events, index):
            continue
        kept.extend(_found_in(report, event, kept))
        if len(kept) >= MAX_FINDINGS:
            return kept[:MAX_FINDINGS]
    return kept
