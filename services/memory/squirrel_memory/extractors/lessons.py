"""What a failure taught: the assistant's diagnosis, the output's own explanation, the edit.

A pitfall is worth keeping for its lesson: why the command failed and what difference got it
past the failure. Three rules read that from the session, the same for every ecosystem:

- `diagnosis`: the sentence of the assistant's reply after the failure that explains it
  ("The workflow is failing on formatting checks.", "This fails because the column is not
  nullable."), also after a lead-in ("I see the issue - <cause>", "Found the problem:
  <cause>"), never a plan ("Let me fix …"), a reaction ("Perfect!") or what the session saw
  ("the issue is that we can see the link is missing": a symptom, not its cause) or where
  the trouble is ("the issue is in the `render` function": a place, not a cause);
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
from typing import Any

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import MAX_OUTPUT_SCAN_CHARS, relative_path
from squirrel_memory.extractors.file_reads import cut_at_ingest, file_text, whole_read_output
from squirrel_memory.extractors.patch_edits import patch_body, patch_edits
from squirrel_memory.extractors.stated_causes import stated_cause
from squirrel_memory.extractors.summary_lines import is_summary
from squirrel_memory.extractors.wording import without_bold
from squirrel_memory.markdown_links import unlinked
from squirrel_memory.models import StoredEvent

MAX_DIAGNOSIS_CHARS = 220
MAX_EXPLANATION_CHARS = 160
#: A resolver's conflict is said by at most this many of the lines that cause it.
MAX_CONFLICT_LINES = 2
MAX_DIFF_LINE_CHARS = 80
#: An edit says its difference when it changed at most this many lines.
#: A replaced line longer than this is shown by the words that changed in it.
MAX_WHOLE_LINE_CHARS = 60
MAX_DIFF_LINES = 2

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(])")
#: A sentence that explains a failure: a cause, a negation, what it fails on.
_DIAGNOSES = re.compile(
    r"\b(?:because|due to|caused by|since the|"
    r"the (?:real |actual |root )?(?:issue|problem|cause|reason|error) (?:is|was)|"
    r"(?:error|failure|exception|crash) (?:comes|came|stems|stemmed) from|"
    r"the (?:error|failure|message) (?:means|says)|"
    r"(?:is|are|was|were) (?:failing|failed) (?:on|at|because|due)|failing on|fails? on|"
    r"fails? (?:when|if|because)|there (?:is|are|were|was) (?:\w+ ){0,4}(?:errors?|failures?|"
    r"conflicts?)|(?:is|are) (?:missing|not installed|not set|not found|not on|not in|"
    r"required|expected|deprecated|outdated|stale)|doesn'?t (?:exist|have|support|match|"
    r"accept)|does not (?:exist|have|support|match|accept)|isn'?t (?:installed|set|"
    r"supported|allowed|available|running|started|reachable)|is not (?:installed|set|supported|"
    r"allowed|available|running|started|reachable)|(?:is|was) (?:down|unreachable)|"
    r"can'?t (?:find|resolve|import|open|connect)|cannot (?:find|resolve|import|open|connect)|"
    r"expects?|mismatch|conflicts? with)\b",
    re.IGNORECASE,
)
#: A plan, a next step or a reaction: not a diagnosis.
_PLAN = re.compile(
    r"^(?:let me|let's|i'll|i will|i'm going|i need|i should|"
    r"(?:now|next|first|then),? (?:let|let's|i|i'll|we|we'll)\b|"
    r"great|perfect|excellent|good|ok|okay|sure|done|all|i see|i can see|looking|checking|"
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
#: The output's own explanation of an error.
_EXPLAINS = re.compile(
    r"^(?:hint|help|note|tip|suggestion|caused by|reason|did you mean|perhaps you meant|"
    r"to fix|try)\b[:\s]",
    re.IGNORECASE,
)
#: A note on how to see more (`note: run with `RUST_BACKTRACE=1` … to display a backtrace`,
#: `Run with --stacktrace option …`): not why it failed.
_SEE_MORE = re.compile(
    r"\b(?:backtrace|stack ?trace|--info|--debug|--verbose)\b|\bfor more (?:information|details)\b",
    re.IGNORECASE,
)
#: A build's own statement of why it failed: the line after `* What went wrong:`, or the
#: reason after `[ERROR] Failed to execute goal … on project NAME:`.
_BUILD_CAUSE = re.compile(
    r"^\* What went wrong:[ \t]*\n[ \t]*(\S[^\n]*)$|"
    r"^\[ERROR\] Failed to execute goal (?:\S+(?: \([^)\n]*\))? )?on project [^:\s]+: ([^\n]+)$",
    re.MULTILINE,
)
#: Gradle's cause line that only names the task that failed.
_TASK_ONLY = re.compile(r"^Execution failed for task\b", re.IGNORECASE)
#: A dependency resolver's reason for a conflict: the lines under `The conflict is caused by:`,
#: a `Because … depends on …` derivation, or `Cannot install A and B because … conflicting …`.
_CONFLICT_HEADING = re.compile(r"^(?:the )?conflict is caused by:$", re.IGNORECASE)
_CONFLICT_LINE = re.compile(
    r"^(?:error:\s*|[╰─▶│×]+\s*)?((?:cannot|could not|unable to) (?:install|resolve)\b.*"
    r"\bconflict\w*\b.*|because \S.*\bdepends on\b.*)$",
    re.IGNORECASE,
)
#: A compiler's own error line, said after its location (`src/x.ts(3,10): `, `a.c:3:5: `): an
#: error with a code (`error[E0308]: mismatched types`, `error TS2305: …`), an exception with its
#: message (`** (CompileError) lib/x.ex:3: undefined function foo/0`), a located
#: `error: cannot find symbol`. The message is the cause; the code's line is kept whole.
_LOCATION = r"(?:[\w./\\-]+\.\w+(?::\d+){1,2}|[\w./\\-]+\.\w+\(\d+,\s*\d+\)):\s*"
_COMPILE_ERROR = re.compile(
    rf"^(?:{_LOCATION})?(?P<coded>(?:fatal )?error(?:\[[A-Z]+\d+\]|\s+[A-Z]+\d{{2,}}):\s*\S.*)$|"
    r"^(?:\*\*\s*)?\((?P<name>[A-Z]\w*(?:Error|Exception))\)\s+"
    rf"(?:{_LOCATION})?(?P<raised>\S.*)$|"
    rf"^{_LOCATION}(?:fatal )?error:\s*(?P<located>\S.*)$",
)
#: Lines that report progress, not an error.
_PROGRESS = re.compile(
    r"(?:\.{3}|…)\s*$|^(?:==>|-->|>>>|»|\[\d+/\d+\])|"
    # A build tool's log line at an information level: `[info] welcome to sbt 1.9.9 …`.
    r"^\[(?:info|debug|trace|success)\]\s|"
    # A package script's banner (`> ledger@0.4.0 test`, `> vitest run`), a build step's.
    r"^> \S|"
    # A build tool's status line: `-- Detecting CXX compiler ABI info`, `-- Found Threads: TRUE`.
    r"^-- \S|"
    # What a tool did, said once it is done: `Got dependencies!`, `Generated ledger app`.
    r"^(?:got|resolved|downloaded|fetched|compiled|built|installed|generated|linked|"
    r"bundled|loaded)\b|"
    # The verb may follow the tool's name: `go: downloading example.com/mod v1.9.0`.
    r"^(?:(?!(?i:warn|error|fatal|fail|panic))[\w.-]+: )?"
    r"(?:checking|getting|running|compiling|building|downloading|installing|resolving|"
    r"fetching|loading|starting|analy[sz]ing|collecting|preparing|updating|generating|"
    r"processing|scanning|waiting|linking|bundling|transforming|formatting|linting|"
    r"type-?checking|testing|executing|creating|writing|reading|using|found \d+ files?)\b|"
    r"\b(?:fine|ok|done|passed|success(?:ful)?|up to date|up-to-date)[.!]?\s*$",
    re.IGNORECASE,
)
_ERRORISH = re.compile(r"error|fail|fatal|denied|not found|no such|exception|panic", re.I)
#: A summary counting no problem (`errors: 0, warnings: 0`, `38 tests, 0 failures`, `No issues
#: found!`): the run went well so far, whatever words it counts.
_NOTHING_WRONG = re.compile(
    r"\b(?:errors?|failures?|failed)\s*[:=]?\s*0\b|\b0\s+(?:errors?|failures?|failed)\b|"
    r"\bno (?:issues|errors|problems)\b",
    re.IGNORECASE,
)
_SOMETHING_WRONG = re.compile(
    r"\b[1-9]\d*\s+(?:errors?|failures?|failed)\b|\b(?:errors?|failures?|failed)\s*[:=]\s*[1-9]",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Reply:
    """One assistant reply: when, in which session, what it said."""

    event_id: str
    timestamp: datetime
    session_id: str | None
    text: str


@dataclass(frozen=True, slots=True)
class Edit:
    """One edit by the assistant: the file, the text replaced and the text written."""

    event_id: str
    timestamp: datetime
    session_id: str | None
    path: str
    before: str
    after: str


def is_progress(line: str) -> bool:
    """Whether an output line reports progress ("Checking 3 source files ...", "==> fine")
    rather than an error."""
    text = line.strip()
    if _NOTHING_WRONG.search(text) and not _SOMETHING_WRONG.search(text):
        return True
    return bool(text) and bool(_PROGRESS.search(text)) and not _ERRORISH.search(text)


def replies(events: list[StoredEvent]) -> list[Reply]:
    """The assistant's replies of `events`, in order."""
    return [
        Reply(e.id, e.timestamp, e.session_id, text)
        for e in events
        if e.event_type == EventType.ASSISTANT_RESPONSE
        and isinstance(text := e.content.get("text"), str)
        and text.strip()
    ]


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


#: A small edit changes at most this many lines, none longer than this (characters).
MAX_CHANGED_LINES = 2
MAX_CHANGED_LINE_CHARS = 80


def changed_lines(edit: Edit) -> tuple[list[str], list[str]]:
    """The lines `edit` removed and added (stripped, in order), or two empty lists when it is
    not small: more than `MAX_CHANGED_LINES` on a side, a line longer than
    `MAX_CHANGED_LINE_CHARS`, or a backquote (which could not be quoted in a code span)."""
    before = [line.strip() for line in edit.before.splitlines() if line.strip()]
    after = [line.strip() for line in edit.after.splitlines() if line.strip()]
    removed = [line for line in before if line not in after]
    added = [line for line in after if line not in before]
    if not (removed or added) or max(len(removed), len(added)) > MAX_CHANGED_LINES:
        return [], []
    if any("`" in line or len(line) > MAX_CHANGED_LINE_CHARS for line in removed + added):
        return [], []
    return removed, added


def edits(events: list[StoredEvent]) -> list[Edit]:
    """The edits the assistant's tool calls of `events` made, with the text they replaced and
    wrote (an edit's `old_string`/`new_string`, each of a multi-edit, a new file's content,
    each hunk of an `apply_patch` body: `patch_edits`). A file written whole that the session
    read whole before (and did not change since) replaced the text that read showed, as a
    patch rewriting it says: what such a write changed is told the same on every host."""
    found: list[Edit] = []
    # The text of each file as its session last read it whole, by (session, path).
    shown: dict[tuple[str | None, str], str] = {}
    for event in events:
        if event.event_type == EventType.TOOL_RESULT:
            text = whole_read_output(event)
            if text is not None and event.file_paths and not cut_at_ingest(event):
                where = relative_path(event.file_paths[0], event.project_id)
                shown[(event.session_id, where)] = file_text(text)
            continue
        if event.event_type != EventType.TOOL_CALL:
            continue
        data = event.content.get("input")
        if not isinstance(data, dict):
            continue
        path = _text(data.get("file_path")) or _text(data.get("path"))
        if not path:
            hunks = [
                Edit(event.id, event.timestamp, event.session_id, relative, before, after)
                for patched, before, after in patch_edits(patch_body(data))
                if (relative := relative_path(patched, event.project_id))
            ]
            for hunk in hunks:
                shown.pop((event.session_id, hunk.path), None)
            found.extend(hunks)
            continue
        pairs: list[tuple[str, str]] = []
        if "old_string" in data or "new_string" in data:
            pairs.append((_text(data.get("old_string")), _text(data.get("new_string"))))
        for item in data.get("edits") or []:
            if isinstance(item, dict):
                pairs.append((_text(item.get("old_string")), _text(item.get("new_string"))))
        relative = relative_path(path, event.project_id)
        if not pairs and isinstance(data.get("content"), str):
            pairs.append((shown.get((event.session_id, relative), ""), data["content"]))
        shown.pop((event.session_id, relative), None)  # changed since it was read
        found.extend(
            Edit(event.id, event.timestamp, event.session_id, relative, before, after)
            for before, after in pairs
        )
    return found


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
    r"what (?:happened|went wrong))\s*:\s+(?=\S)",
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


def explanation(output: str, shown: str = "") -> str:
    """The output's own explanation of an error (`hint: …`, `help: …`, `Caused by: …`, the line
    after a build's `* What went wrong:`, the reason after `Failed to execute goal … :`, a
    resolver's conflict, a compiler's error message: `cause_line`), or "".

    A compiler's or a resolver's line that `shown` (the error the memory shows) already says is
    no explanation of it: the next one is looked for."""
    said = _BUILD_CAUSE.search(output[:MAX_OUTPUT_SCAN_CHARS])
    cause = (said.group(1) or said.group(2)).strip() if said else ""
    # "Execution failed for task ':app:compileJava'." names the task that failed, not why;
    # "Compilation failure" only says that the goal failed: beside the error shown it adds
    # nothing (alone, it is all the build said); the error shown is no explanation of itself.
    told = cause.rstrip(".") not in shown and not (shown and is_summary(cause))
    if told and len(cause.split()) >= 2 and not _TASK_ONLY.match(cause):
        return clipped(cause.rstrip("."), MAX_EXPLANATION_CHARS)
    cause = cause_line(output)
    if cause and cause.rstrip(".") not in shown:
        return clipped(cause.rstrip("."), MAX_EXPLANATION_CHARS)
    for raw in output[:MAX_OUTPUT_SCAN_CHARS].splitlines():
        line = raw.strip()
        # `To fix this you could try to:` introduces what follows; it says nothing itself.
        if _EXPLAINS.match(line) and len(line.split()) >= 3 and not line.endswith(":"):
            # `Note: Using configuration file …` says what the tool did, not why it failed.
            words = re.split(r"[:\s]", line, maxsplit=1)[1]
            if is_progress(words) or _SEE_MORE.search(line) or is_summary(words):
                continue
            return clipped(line.rstrip("."), MAX_EXPLANATION_CHARS)
    return ""


def cause_line(output: str) -> str:
    """The line a resolver or a compiler gives as the cause of its failure, or "": the lines
    under `The conflict is caused by:` (`a 1 depends on c>=2; b 2 depends on c<2`), else a
    resolver's `Because … depends on …` or `Cannot install … conflicting dependencies`; else
    the first compiler error: a coded one whole (`error[E0308]: mismatched types`), else the
    message after an exception's name or a location's `error:` (`cannot find symbol`). Never
    a progress line (`Compiling foo v0.1.0`) nor a location line (`--> src/x.rs:3:5`)."""
    lines = [raw.strip() for raw in output[:MAX_OUTPUT_SCAN_CHARS].splitlines()]
    for n, line in enumerate(lines):
        if _CONFLICT_HEADING.match(line):
            under: list[str] = []
            for after in lines[n + 1 : n + 1 + MAX_CONFLICT_LINES + 1]:
                if not after or len(under) == MAX_CONFLICT_LINES:
                    break
                if not is_progress(after):
                    under.append(after.rstrip("."))
            if under:
                return "; ".join(under)
    for line in lines:
        if (found := _CONFLICT_LINE.match(line)) and not is_progress(line):
            return found.group(1)
    for line in lines:
        if not (found := _COMPILE_ERROR.match(line)):
            continue
        message = found["coded"] or found["raised"] or found["located"]
        said = message.split(":", 1)[1] if found["coded"] else message  # after the code
        if len(said.split()) >= 2 and not is_progress(message):
            return str(message)
    return ""


def _changed_lines(edit: Edit) -> tuple[list[str], list[str]]:
    before = [line.strip() for line in edit.before.splitlines() if line.strip()]
    after = [line.strip() for line in edit.after.splitlines() if line.strip()]
    removed = [line for line in before if line not in after]
    added = [line for line in after if line not in before]
    return removed, added


def difference(edit: Edit) -> str:
    """What a small edit changed, as a reader would say it ("adding `x: 1`", "changing `a` to
    `b`"); "" for a new file, a large edit or one whose lines cannot be shown in a code span."""
    if not edit.before:
        return ""
    removed, added = _changed_lines(edit)
    if not (removed or added) or len(removed) + len(added) > MAX_DIFF_LINES:
        return ""
    if any("`" in line or len(line) > MAX_DIFF_LINE_CHARS for line in removed + added):
        return ""
    if removed and added:
        old, new = _changed_words(removed[0], added[0])
        return f"changing `{old}` to `{new}`"
    if added:
        return " and ".join(f"adding `{line}`" for line in added)
    return " and ".join(f"removing `{line}`" for line in removed)


def _changed_words(old: str, new: str) -> tuple[str, str]:
    """The words that differ between a long line and its replacement (`ktn::path()` to
    `crate::path()` in a template's line), or the two lines whole when they are short or
    differ in more than a few words: a short line is its own context (`timeout = 30`)."""
    if max(len(old), len(new)) <= MAX_WHOLE_LINE_CHARS:
        return old, new
    before, after = old.split(), new.split()
    start = 0
    while start < min(len(before), len(after)) and before[start] == after[start]:
        start += 1
    end = 0
    while end < min(len(before), len(after)) - start and before[-1 - end] == after[-1 - end]:
        end += 1
    middle_old = before[start : len(before) - end]
    middle_new = after[start : len(after) - end]
    if not middle_old or not middle_new or max(len(middle_old), len(middle_new)) > 3:
        return old, new
    return " ".join(middle_old), " ".join(middle_new)


def related_edit(found: list[Edit], words: set[str]) -> Edit | None:
    """The small edit that most touches what the failure was about, or None: each of `words`
    (from the error or the diagnosis) its lines name counts, a name only code would use
    (`POOL_TIMEOUT`, `user_id`) three times a plain word, a changed line twice the lines
    around the change it quotes; the earlier edit wins a tie."""
    best: tuple[int, Edit | None] = (0, None)
    for edit in found:
        if not difference(edit):
            continue
        removed, added = _changed_lines(edit)
        changed = " ".join(removed + added).lower()
        around = f"{edit.before}\n{edit.after}".lower()
        score = 0
        for word in words:
            pattern = rf"(?<![\w-]){re.escape(word)}(?![\w-])"
            weight = 3 if re.search(r"[_.\d]", word) else 1
            if re.search(pattern, changed):
                score += 2 * weight
            elif re.search(pattern, around):
                score += weight
        if score > best[0]:
            best = (score, edit)
    return best[1]


def naming_edit(found: list[Edit], words: set[str]) -> Edit | None:
    """The first edit too large to quote whose changed lines name one of `words` that only
    code would use (`report_tool`, `POOL_TIMEOUT`, `v2.1`), or None: the change that was about
    the failure, said by its file when its lines cannot be."""
    names = [w for w in words if re.search(r"[_.\d]", w) and len(w) >= 5]
    for edit in found:
        if difference(edit) or not edit.before:
            continue
        removed, added = _changed_lines(edit)
        changed = " ".join(removed + added).lower()
        if any(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", changed) for n in names):
            return edit
    return None


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_WORD = re.compile(r"[A-Za-z_][\w-]{3,}")
_COMMON = _words(
    "error errors failed failure fails failing with from that this there have when which while "
    "file files line lines command found none true false null undefined check checks test tests "
    "expected actual should could would because type types value values name names module "
    "function called call calls used using into only your their about"
)


def telling(text: str) -> set[str]:
    """The words of an error or a diagnosis that could name what a fix changed."""
    return {w.lower() for w in _WORD.findall(text) if w.lower() not in _COMMON}


def argument_change(failed: tuple[str, ...], passed: tuple[str, ...]) -> str:
    """What differs between a failing command's words and the passing one's, said as a change
    of arguments ("with `-f` added", "with `--x` instead of `--y`", "without `--z`"); ""
    when the words are the same or everything changed. When free text changed as well (a
    prompt, a message), the options that changed are the difference (`--profile fast`
    added), each with its value: a re-run is not explained by the words it was asked."""
    before, after = list(failed), list(passed)
    if before == after or not before or not after or before[0] != after[0]:
        return ""
    added = [t for t in after if t not in before]
    removed = [t for t in before if t not in after]
    if not added and not removed:
        return "with its arguments in another order"
    changed = added + removed
    if len(changed) > 3 or any(len(t) > 60 or "`" in t or " " in t.strip() for t in changed):
        added, removed = _options(after, added), _options(before, removed)
        if not (added or removed) or len(added) + len(removed) > 4:
            return ""
        if any(len(t) > 60 or "`" in t for t in added + removed):
            return ""
    if added and removed:
        new = _joined(added)
        old = _joined(removed)
        return f"with `{new}` instead of `{old}`"
    if added:
        return f"with `{_joined(added)}` added"
    return f"without `{_joined(removed)}`"


def _joined(words: list[str]) -> str:
    """Words as typed: one holding a space keeps its quotes (`--features 'a b'`)."""
    return " ".join(f"'{w}'" if " " in w and "'" not in w else w for w in words)


def _options(words: list[str], changed: list[str]) -> list[str]:
    """The options among `changed` words of a command, each followed by its value when the
    value changed too (`--profile fast`), in the command's order."""
    changed_set = set(changed)
    found: list[str] = []
    for index, word in enumerate(words):
        if word not in changed_set or not word.startswith("-") or word in ("-", "--"):
            continue
        found.append(word)
        value = words[index + 1] if index + 1 < len(words) else ""
        if value and value in changed_set and not value.startswith("-") and "=" not in word:
            found.append(value)
    return found


def clipped(text: str, limit: int) -> str:
    """`text` whole, or "" when longer than `limit`: a sentence cut at a comma is a fragment
    that may say the opposite of the whole, and a cut-off one is worse than none."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else ""
