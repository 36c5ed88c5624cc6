"""Errors the user pasted into a message (a deploy log, a browser console), with the cause the
assistant named and what was changed in answer.

Many failures never run inside the session: a hosted build, a browser, a phone. The user
pastes the log; the assistant names the cause ("Vercel doesn't have SSH keys set up, so it
can't clone via the `git@github.com:` URL") and changes something. That becomes a pitfall when
all three are there before the user speaks again: an error line in the user's own message (a
compiler's `error <code>:` line rather than the build tool's `FAILED` summary or a warning
printed before it), a sentence of an answer that explains it (a negation or a cause; the
summary after the change is preferred, said with hindsight; past its opening, a sentence that
gives a change its reason, "Changed `a` to `b` since `x` is now a `T`", read anywhere in the
answer's prose), and files edited or commands run that change something. A small edit is said
by its lines when every edit of the turn made the same one. What was done is reported, never
claimed as the fix: the outcome happened outside the session, unless the command the report
names (`` `make test` gives these errors ``) ran again after the change and passed, which is
said. An error line too long to quote whole is quoted without the file location it starts with.

When no sentence explains the error, a report that names its change with the failure that
change was causing ("Removed the dummy extension from setup.py that was causing the build
error", `causing_changes`) is both the cause and what was done, even when the change itself was
not seen (a session cut short): "<error> was reported from outside the session; the report's
fix: <sentence>". Unless the user's next message says the failure is still there ("still",
"again", "the same error", or the error line again).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.commands import typed_commands
from squirrel_core.events import EventType, is_user_voice
from squirrel_core.prefix_programs import behind_prefix
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.causing_changes import causing_change
from squirrel_memory.extractors.differences import Edit, changed_lines, edits
from squirrel_memory.extractors.evidence.state_looks import only_looks
from squirrel_memory.extractors.pitfalls import fingerprint_key, first_error_line, normalise_line
from squirrel_memory.extractors.stated_causes import HEDGE, PERSON
from squirrel_memory.extractors.stated_causes import sentences as prose_sentences
from squirrel_memory.extractors.toolchain import classify
from squirrel_memory.extractors.wording import sentence
from squirrel_memory.markdown_links import unlinked
from squirrel_memory.models import StoredEvent

#: Longest pasted message scanned, explanation kept, and changes named.
MAX_MESSAGE_CHARS = 20_000
MAX_CAUSE_CHARS = 260
MAX_CHANGES = 2
MAX_COMMAND_CHARS = 120
MAX_ERROR_CHARS = 120

_SENTENCE = re.compile(r"(?<=[.!?])\s+")
#: A sentence that explains: a negation or a causal word.
_EXPLAINS = re.compile(
    r"\b(?:doesn'?t|does not|don'?t|do not|can'?t|cannot|can not|isn'?t|is not|aren'?t|"
    r"are not|won'?t|wasn'?t|because|since|requires?|only works|is blocked|is missing|never|"
    r"disallows?|forbids?|the (?:problem|issue|cause|reason) (?:is|was))\b",
    re.IGNORECASE,
)
#: A compiler's or checker's error line (`error C2397:`, `error[E0308]:`, `error TS2345:`,
#: `main.c:3:5: error:`): what a pasted build log says went wrong, where a build tool's summary
#: (`FAILED: …`) or a warning printed first only point at it.
#: A line that names the error itself (`ValueError: …`, `fatal: …`), not only where it was.
_SAYS_ERROR = re.compile(r"error|exception|fatal|panic", re.IGNORECASE)
_DIAGNOSTIC = re.compile(r"\berror\b(?:\[[\w-]+\]|\s+[A-Z]{1,3}\d{3,5})?\s*:", re.IGNORECASE)
#: An opening that only reacts ("Exactly!", "Ah, I see."): one to three words, ending in `!` or
#: `.` (words apart by what is not a word: a long word cannot be split in ways to try).
_REACTION = re.compile(r"^\W*\w+(?:\W+\w+){0,2}\W*(?<=[!.])$")
#: A sentence about what follows from a change, not about the cause ("That way we don't …").
_CONSEQUENCE = re.compile(
    r"^(?:that way|this way|then|now|so that|in that case|this means)\b", re.I
)
#: The word that ties a sentence to the one before ("But now the pipeline tries …"): a memory
#: read alone has no sentence before.
_CONNECTIVE = re.compile(r"^(?:(?:but|and|so|well|ok(?:ay)?|ah|oh)\b,?\s+)?(?:now\b,?\s+)?", re.I)
_NEED_TO = re.compile(r"^(?:so\s+)?(?:we|you|i)(?:'ll| will)?\s+(?:need|have|want) to\s+", re.I)
#: A "remedy" that is only a next step of the investigation ("look at the implementation").
_LOOK_INTO = re.compile(
    r"^(?:look|check|investigate|read|see|find|examine|debug|understand|verify|explore)\b", re.I
)
#: Browser-console errors, which carry no `error:` of their own.
_CONSOLE_ERROR = re.compile(
    r"\bUncaught (?:\(in promise\) )?\w*(?:Error|Exception)\b|\bwas blocked\b|"
    r"\bFailed to (?:load|fetch|compile)\b|\bLoading failed for\b|"
    r"\bstatus(?: code)? of [45]\d\d\b|\b[45]\d\d \((?:Not Found|Forbidden|Unauthorized|"
    r"Internal Server Error|Bad Gateway|Bad Request)\)"
)
#: A log line's leading time (`12:38.301`, `[2026-03-02 09:00:01]`).
_TIMESTAMP = re.compile(
    r"^\[?(?:\d{4}-\d{2}-\d{2}[T ])?\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?"
    r"(?:Z|[+-]\d{2}:?\d{2})?\]?\s+"
)
#: A Markdown link (`[text](target)`, a target with one level of parentheses in it); neither
#: part runs past the next bracket, so a long run of `[` or of `[a](` is read in one pass.
#: A personal home folder at the start of a path (`/home/ann/`, `/Users/ann/`).
_HOME = re.compile(r"(?<![\w/])(?:/home|/Users)/[^/\s`'\"]+/")
#: A line that asks the assistant for something: the user's words, not the pasted output.
_REQUEST = re.compile(
    r"^\s*(?:(?:please|pls|can you|could you|would you|help me)\s+)?"
    r"(?:investigate|fix|look|check|debug|solve|resolve|find|figure|see|explain|why|what|how)\b",
    re.IGNORECASE,
)
#: Commands that only look: not a change made in answer to the error.
_LOOKING = frozenset(
    {"ls", "cat", "head", "tail", "grep", "rg", "find", "pwd", "echo", "wc", "which", "tree"}
    | {"less", "file", "stat", "du", "env", "printenv", "curl", "open"}
)
_CHECKS = frozenset({"test", "lint", "typecheck"})
_RUNS = frozenset({EventType.COMMAND_RUN, EventType.TEST_RUN})
#: Commands whose passing run after the change shows the report answered: checks and builds.
_RERUNNABLE = _CHECKS | {"build"}
#: git subcommands that look or record rather than change what the project does.
_GIT_RECORDING = frozenset(
    {"status", "log", "diff", "show", "branch", "remote", "fetch", "ls-files", "add", "rm"}
    | {"commit", "push", "pull", "stash", "tag", "checkout", "switch", "restore"}
)


@dataclass(frozen=True, slots=True)
class Reported:
    """A pitfall from a pasted error: key, statement, the events behind it, files changed."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    files: tuple[str, ...]


#: The user's own words before an error they quote in a sentence: words and spaces only, two
#: or more (a URL, a time or a path before it is part of the console's line).
_PROSE = re.compile(r"\s*[A-Za-z']+(?:\s+[A-Za-z']+)+\s+")


def _pasted_error(text: str) -> str:
    """The first error line of a pasted log: what command output shows (`fatal:`, exceptions,
    `ERROR`) or what a browser console shows (`Uncaught TypeError: …`, a blocked or failed
    load, a 4xx/5xx response). The user's own request ("fix the syntax error: …") is not the
    error when the pasted output holds one."""
    lines = text.splitlines()
    pasted = "\n".join(line for line in lines if not _REQUEST.match(line))
    found = (first_error_line(pasted) if len(pasted) < len(text) else "") or first_error_line(text)
    if found and not _SAYS_ERROR.search(found):
        diagnostic = next((x.strip() for x in pasted.splitlines() if _DIAGNOSTIC.search(x)), "")
        found = diagnostic or found
    if found:
        return found
    for line in text.splitlines():
        if (console := _CONSOLE_ERROR.search(line)) is not None:
            # "why if i open a project it says Failed to load project: …": the error is what
            # the console said, not the user's words before it
            said = line[: console.start()]
            return line[console.start() :].strip() if _PROSE.fullmatch(said) else line.strip()
    return ""


#: A change given its reason: "(Fixed type comparisons: ) Changed `a` to `b` since `x` is now
#: a `T`", "Replaced `x` with `y` because …". The reason is the cause, the change what was done.
_CHANGED_SINCE = re.compile(
    r"^(?:[^:`]{0,60}:\s+)?(?P<change>(?:changed|replaced|switched|converted|wrapped|renamed|"
    r"moved|updated|cast|quoted|escaped|pinned|bumped)\s.{3,240}?)\s+(?:since|because|as)\s+"
    r"(?P<cause>[^;]{12,200}?)\.?$",
    re.IGNORECASE,
)


def _reasoned_change(answer: str) -> str:
    """The first sentence of an answer's prose (outside code, plans and to-do lists) that gives
    a change its reason, said as "<reason> (<change>)", or ""."""
    for said in prose_sentences(answer):
        match = _CHANGED_SINCE.match(said)
        if match is None or said.count("`") % 2:
            continue
        cause, change = match.group("cause"), match.group("change")
        if PERSON.search(cause) or HEDGE.search(said):
            continue
        return f"{cause.rstrip('.')} ({change[:1].lower()}{change[1:]})"
    return ""


def _cause(answer: str) -> str:
    """The sentences of an answer that explain an error, without markdown links, or ""."""
    prose = answer.split("```", 1)[0].split("\n\n", 1)[0]
    prose = unlinked(" ".join(prose.split()))
    sentences = [s.strip() for s in _SENTENCE.split(prose) if s.strip()]
    for index, text in enumerate(sentences):
        if _REACTION.match(text) or _CONSEQUENCE.match(text) or not _EXPLAINS.search(text):
            continue
        cause = _CONNECTIVE.sub("", text).rstrip(":")
        following = sentences[index + 1].rstrip(":") if index + 1 < len(sentences) else ""
        remedy = _NEED_TO.sub("", following) if _NEED_TO.match(following) else ""
        if remedy and not _LOOK_INTO.match(remedy):
            cause = f"{cause.rstrip('.')}; the remedy: {remedy[:1].lower()}{remedy[1:]}"
        return cause[:MAX_CAUSE_CHARS].rstrip(".")
    return _reasoned_change(answer)[:MAX_CAUSE_CHARS]


def changing_commands(command: str, root: str) -> list[str]:
    """The parts of a command that change something (not `git status`, `ls`, a commit …),
    as typed; quoted arguments (a commit message over several lines) stay whole. A part that
    names a path outside the project (another repository, a home folder) is left out."""
    found: list[str] = []
    inside = root.rstrip("/") + "/"
    for typed in typed_commands(command, cwd=root, project_root=root):
        # `<wrapper> ps aux` looks as `ps aux` does (`squirrel_core.prefix_programs`)
        tokens = list(behind_prefix(typed.words, _LOOKING))
        if not tokens or tokens[0] in ("cd", "pushd", "rm") or tokens[0] in _LOOKING:
            continue
        if any(t.startswith(("/", "~")) and not t.startswith(inside) for t in tokens[1:]):
            continue
        if tokens[0] == "git" and len(tokens) > 1 and tokens[1] in _GIT_RECORDING:
            continue
        if only_looks(tokens):
            continue  # `git rev-parse`, `cargo metadata`, `pkg-config --libs`: nothing changed
        use = classify(tokens)
        if use is not None and use.purpose in _CHECKS:
            continue  # re-running a check changes nothing
        if "\n" not in typed.text and len(typed.text) <= MAX_COMMAND_CHARS:
            found.append(typed.text)
    return found


def local_paths(line: str, root: str) -> str:
    """`line` with the project's own paths relative to its root and other paths in a home
    folder written from `~`: where one machine keeps the checkout says nothing to another."""
    inside = root.rstrip("/") + "/"
    if len(inside) > 1:
        line = line.replace(inside, "")
    return _HOME.sub("~/", line)


def _shorter(text: str, limit: int) -> str:
    """`text` up to the last clause boundary (or word) within `limit`, without an ellipsis."""
    if len(text) <= limit:
        return text
    head = text[:limit]
    cut = max(head.rfind(mark) for mark in (". ", "; ", ", ", " (", ": "))
    return (head[:cut] if cut > limit // 3 else head.rsplit(" ", 1)[0]).rstrip(" .,;:(")


def _said(made: list[Edit]) -> str:
    """The lines the turn's edits changed, when every edit made the same small change
    (`` `old` became `new` ``, `` added `line` ``); "" otherwise."""
    said: set[str] = set()
    for edit in made:
        removed, added = changed_lines(edit)
        if removed and edit.before and len(removed) == len(added):
            pairs = zip(removed, added, strict=True)
            said.add(" and ".join(f"`{old}` became `{new}`" for old, new in pairs))
        elif added and not removed and edit.before:
            said.add(" and ".join(f"added `{line}`" for line in added))
        else:
            return ""
    return said.pop() if len(said) == 1 else ""


#: A diagnostic's leading location (`pkg/a_test.go:76:31: `, `src/x.rs:3: `).
_LOCATION = re.compile(r"^(?P<file>[\w./-]+\.\w+):\d+(?::\d+)?:\s+(?=\S)")
_SPAN = re.compile(r"`([^`\n]{2,80})`")


def _quoted(line: str) -> str:
    """An error line as quoted: whole when it fits, else without its leading file location
    (said after it), else shortened at a clause boundary."""
    if len(line) > MAX_ERROR_CHARS and (where := _LOCATION.match(line)):
        rest = line[where.end() :]
        if len(rest) <= MAX_ERROR_CHARS:
            return f"`{rest}` (in {where.group('file')})"
    return f"`{_shorter(line, MAX_ERROR_CHARS)}`"


#: The user's next message saying the failure is not gone.
_NOT_GONE = re.compile(
    r"\b(?:still|again|same (?:error|problem|issue|failure)|not fixed|(?:does|did)n'?t (?:work|"
    r"help|fix)|(?:does|did) not (?:work|help|fix))\b",
    re.IGNORECASE,
)


def _report_fix(answers: list[tuple[str, str]]) -> tuple[str, str] | None:
    """(answer id, sentence) of the first sentence of `answers` that names a change with the
    failure it was causing (`causing_changes`), or None."""
    for answer_id, answer in answers:
        for said in prose_sentences(answer):
            if (found := causing_change(said)) is not None:
                return answer_id, found[0]
    return None


def _taken_back(reply: str, error: str) -> bool:
    """Whether the user's next message `reply` says the failure is not gone: "still", "the same
    error", or the error line again."""
    return bool(_NOT_GONE.search(reply)) or normalise_line(error) in normalise_line(reply)


def _named_check(text: str, root: str) -> str:
    """The check the user's report names in backticks (`` `mise run test:ci` gives … ``), or "":
    running it again after the change shows whether the change answered the report."""
    for span in _SPAN.findall(text):
        for typed in typed_commands(span, cwd=root, project_root=root):
            use = classify(list(typed.words))
            if use is not None and use.purpose in _RERUNNABLE:
                return typed.text
    return ""


def _ran(event: StoredEvent, command: str) -> bool:
    """Whether `event` ran `command` as typed (perhaps with its output piped on)."""
    ran = str(event.content.get("command") or "")
    return event.event_type in _RUNS and (ran == command or ran.startswith(f"{command} "))


def _passed(event: StoredEvent) -> bool:
    """Whether a run passed: exit code 0 and no error line in what it printed."""
    output = event.content.get("output")
    return (
        event.content.get("exit_code") == 0
        and event.content.get("is_error") is not True
        and not (isinstance(output, str) and first_error_line(output))
    )


def reported_pitfalls(events: list[StoredEvent]) -> list[Reported]:
    """Pitfalls from errors the user pasted, in the order they were reported."""
    found: dict[str, Reported] = {}
    all_edits = {e.event_id: e for e in edits(events)}
    for index, event in enumerate(events):
        text = event.content.get("text") if event.event_type == EventType.USER_MESSAGE else None
        if not isinstance(text, str) or not is_user_voice(event.origin):
            continue
        error = _pasted_error(text[:MAX_MESSAGE_CHARS])
        if not error:
            continue
        files: list[str] = []
        commands: list[str] = []
        made: list[Edit] = []
        ids = [event.id]
        check = _named_check(text, event.project_id)
        rerun = ""
        # (answer event id, text), before and after the first change of the turn.
        before: list[tuple[str, str]] = []
        after: list[tuple[str, str]] = []
        reply = ""
        for later in events[index + 1 :]:
            if later.event_type == EventType.USER_MESSAGE and is_user_voice(later.origin):
                reply = str(later.content.get("text") or "")
                break
            answer = later.content.get("text")
            if later.event_type == EventType.ASSISTANT_RESPONSE and isinstance(answer, str):
                (after if files or commands else before).append((later.id, answer))
            elif later.id in all_edits:
                made.append(all_edits[later.id])
                rerun = ""  # a run before this change says nothing of it
            elif later.event_type == EventType.CODE_CHANGE:
                path = later.content.get("path")
                for raw in [path] if isinstance(path, str) else list(later.file_paths):
                    rel = relative_path(raw, later.project_id)
                    if rel and not rel.startswith(("/", "~")) and rel not in files:
                        files.append(rel)
                        ids.append(later.id)
            elif check and made and _ran(later, check):
                rerun = later.id if _passed(later) else ""
            if later.event_type == EventType.COMMAND_RUN:
                command = later.content.get("command")
                typed = changing_commands(str(command or ""), later.project_id)
                new = [c for c in typed if c not in commands]
                if new:
                    commands.extend(new)
                    ids.append(later.id)
        named = next(((i, c) for i, a in [*after, *before] if (c := _cause(a))), None)
        # With no cause explained, the report's "Removed x, which was causing the error" is
        # the cause and the change at once, even when the change itself was not seen; unless
        # the user's next message says the failure is still there.
        told = None if named else _report_fix([*after, *before])
        if told is not None and _taken_back(reply, error):
            told = None
        if told is None and (named is None or not (files or commands)):
            continue
        ids.append((named or told or ("", ""))[0])
        cause = named[1] if named else ""
        said = _said(made) if files else ""
        done = [f"editing {', '.join(files[:MAX_CHANGES])}"] if files else []
        done[:1] = [f"{done[0]} ({said})"] if done and said else done[:1]
        done += [f"`{c}`" for c in commands[:MAX_CHANGES]]
        line = local_paths(_TIMESTAMP.sub("", re.sub(r"^E\s+", "", error)), event.project_id)
        shown = _quoted(line.replace("`", "'"))
        passed = f"; `{check}` passed after it" if rerun else ""
        if rerun:
            ids.append(rerun)
        if told is not None:
            fix = told[1][:1].lower() + told[1][1:] if told[1][1:2].islower() else told[1]
            # the report's change is what was done: a command run beside it (a check, a
            # look at the result) is not named as done
            said_done = f"; done in answer: {done[0]}" if files else ""
            content = sentence(
                f"{shown} was reported from outside the session; the report's fix: {fix}"
                f"{said_done}{passed}"
            )
        else:
            content = sentence(
                f"{shown} was reported from outside the session; the cause named: {cause}; "
                f"done in answer: {', '.join(done)}{passed}"
            )
        key = fingerprint_key(normalise_line(error))
        if content and key not in found:
            found[key] = Reported(key, content, tuple(ids), tuple(files))
    return list(found.values())
