"""The output's own explanation of an error: a hint, a note, a `Caused by:` line, a build's
statement of what went wrong, a resolver's conflict or a compiler's error message; and which
output lines only report progress (`is_progress`: "Checking 3 source files ...", "==> fine"),
never an error's signature. `lessons` reads the assistant's diagnosis beside it."""

from __future__ import annotations

import re

from squirrel_memory.extractors.activity import MAX_OUTPUT_SCAN_CHARS
from squirrel_memory.extractors.lessons import clipped
from squirrel_memory.extractors.summary_lines import is_summary

MAX_EXPLANATION_CHARS = 160
#: A resolver's conflict is said by at most this many of the lines that cause it.
MAX_CONFLICT_LINES = 2

#: The output's own explanation of an error.
_EXPLAINS = re.compile(
    r"^(?:hint|help|note|tip|suggestion|caused by|reason|did you mean|perhaps you meant|"
    r"to fix|try)\b[:\s]",
    re.IGNORECASE,
)
#: A suggestion's heading whose suggestion is the next line: "Did you mean this?".
_ASKS_ABOUT_NEXT = re.compile(
    r"^(?:did you mean|perhaps you meant)(?: (?:this|one of these|any of these))?\s*[?:]$",
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


def is_progress(line: str) -> bool:
    """Whether an output line reports progress ("Checking 3 source files ...", "==> fine")
    rather than an error."""
    text = line.strip()
    if _NOTHING_WRONG.search(text) and not _SOMETHING_WRONG.search(text):
        return True
    return bool(text) and bool(_PROGRESS.search(text)) and not _ERRORISH.search(text)


def explanation(output: str, shown: str = "") -> str:
    """The output's own explanation of an error (`hint: …`, `help: …`, `Caused by: …`, the line
    after a build's `* What went wrong:`, the reason after `Failed to execute goal … :`, a
    resolver's conflict, a compiler's error message: `cause_line`), or "".

    A compiler's or a resolver's line that `shown` (the error the memory shows) already says is
    no explanation of it: the next one is looked for; nor is a tool's stock hint above a more
    specific error (`_boilerplate`)."""
    said = _BUILD_CAUSE.search(output[:MAX_OUTPUT_SCAN_CHARS])
    cause = (said.group(1) or said.group(2)).strip() if said else ""
    # "Execution failed for task ':app:compileJava'." names the task that failed, not why;
    # "Compilation failure" only says that the goal failed: beside the error shown it adds
    # nothing (alone, it is all the build said); the error shown is no explanation of itself.
    told = cause.rstrip(".") not in shown and not (shown and is_summary(cause))
    if told and said is not None and shown:
        # The failure a cause nested under it explains (`> SDK location not found.`), shown as
        # the error: the line around it says less.
        rest = output[said.end() : said.end() + 1_000].lstrip("\n").split("\n", 1)[0]
        nested = rest.strip().removeprefix("> ").strip().rstrip(".")
        told = not (rest.strip().startswith("> ") and nested[:60] and nested[:60] in shown)
    if told and len(cause.split()) >= 2 and not _TASK_ONLY.match(cause):
        return clipped(cause.rstrip("."), MAX_EXPLANATION_CHARS)
    cause = cause_line(output)
    if cause and cause.rstrip(".") not in shown:
        return clipped(cause.rstrip("."), MAX_EXPLANATION_CHARS)
    lines = [raw.strip() for raw in output[:MAX_OUTPUT_SCAN_CHARS].splitlines()]
    message = _panic_message(lines)
    if message and message not in shown:
        return clipped(message, MAX_EXPLANATION_CHARS)
    for n, line in enumerate(lines):
        if _ASKS_ABOUT_NEXT.match(line):
            # "Did you mean this?" and the suggestion on the next line: the two are the hint
            after = next((a for a in lines[n + 1 :] if a), "")
            if after and not is_progress(after):
                return clipped(f"{line} {after}".rstrip("."), MAX_EXPLANATION_CHARS)
            continue
        # `To fix this you could try to:` introduces what follows; it says nothing itself.
        if _EXPLAINS.match(line) and len(line.split()) >= 3 and not line.endswith(":"):
            # `Note: Using configuration file …` says what the tool did, not why it failed.
            words = re.split(r"[:\s]", line, maxsplit=1)[1]
            if is_progress(words) or _SEE_MORE.search(line) or is_summary(words):
                continue
            if _boilerplate(line, shown, lines[n + 1 :]):
                continue
            if _narrated(line, shown, lines[n + 1 :]):
                continue
            return clipped(line.rstrip("."), MAX_EXPLANATION_CHARS)
    return ""


#: What names a thing of the project: a quoted or coded name, a number or version, a flag, a
#: dotted, snake_case or camelCase name, a setting's `=`, a path from a folder (`./x`, `/x`).
_NAMES_SOMETHING = re.compile(
    r"['\"`\d_=]|(?:^|\s)--?[a-z]|\w\.\w|[a-z][A-Z]|(?:^|\s)\.{0,2}/\w",
)


def _boilerplate(hint: str, shown: str, after: list[str]) -> bool:
    """Whether `hint` is a tool's stock advice printed before the error it would explain
    ("Hint: make sure your test modules/packages have valid Python names" above `No module
    named 'openpyxl'`): it names nothing, and the error shown after it names something."""
    said = re.split(r"[:\s]", hint, maxsplit=1)[1]
    if _NAMES_SOMETHING.search(said) or not _NAMES_SOMETHING.search(shown):
        return False
    return any(shown in line for line in after)


def _narrated(note: str, shown: str, after: list[str]) -> bool:
    """Whether `note` is a build's narration (`note: Building targets in dependency order`):
    a note printed before the error shown, which it cannot be about."""
    head = shown[:40]
    return note.lower().startswith("note:") and bool(head) and any(head in a for a in after)


#: A panic's heading whose message follows on the lines after it (`thread 'main' panicked at
#: build/find_normal.rs:190:5:`).
_PANIC_HEADING = re.compile(r"\bpanicked at \S+:\d+(?::\d+)?:$")
#: Lines of a panic's message read at most.
_PANIC_LINES = 4


def _panic_message(lines: list[str]) -> str:
    """The first sentence of the message a panic's heading announces on the lines after it
    (joined until a blank line), or "": a build script's panic says why the build failed."""
    for n, line in enumerate(lines):
        if not _PANIC_HEADING.search(line):
            continue
        after = lines[n + 1 : n + 1 + _PANIC_LINES + 1]
        start = next((k for k, a in enumerate(after) if a), len(after))
        message: list[str] = []
        for more in after[start:]:
            if not more or len(message) == _PANIC_LINES or _EXPLAINS.match(more):
                break  # (a note after the message is not part of it)
            message.append(more)
        text = " ".join(" ".join(message).split())
        first = re.split(r"(?<=[.!])\s", text, maxsplit=1)[0].rstrip(".")
        return first if len(first.split()) >= 3 and not is_progress(first) else ""
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
