"""Problems the session diagnosed and then changed something for, kept as a lesson.

Most lessons come without a failed command: the user says something is wrong ("the release task
hangs", "CI is red again"), or the assistant reads a failed job's log, and the assistant says
why ("The problem is that the task runner does not forward stdin to the prompt.", "The deploy
hangs because the service is never stopped.") and then changes something. That becomes a
pitfall, "When <trigger>: <cause>; <what was changed>.", when all three are in one turn (before
the user takes the floor again):

- the problem: the user's message reports trouble (something hangs, fails, is broken, an
  error, a warning), or the parent agent's prompt that opens a subagent's transcript does (the
  subagent's turn; the prompt relays what the user or a check reported), a check failed, or a
  command's output that succeeded shows an error line (a fetched log);
- the cause: a sentence of a reply (`stated_causes`), the main agent's or a subagent's that
  looked only at this project, that explains (`the problem/issue/cause is that …`, `this
  happens because …`, `<something> hangs/fails/breaks because …`, `<cause>, so <something>
  hangs`, `the failure is caused by …`, `found the problem: …`, `<checker> wants …`), speaks
  of no one's steps ("I", "we", "you"), hedges nothing ("probably", "might", "I suspect") and
  is neither a plan, a question nor an item of a to-do list or of a plan;
- the change: an edit of a file inside the project, or a command that changes something (seen
  through a prefix program, `<wrapper> ps aux` looks) and ran without failing (one that failed,
  or that the host refused to run, changed nothing), made
  in that turn after the problem (the first after the cause when there is one), or in the next
  turn when the user's message only says to go ahead ("yes, fix it"): said by its lines when
  it is small, else by the files it touched.

The trigger is the symptom the cause sentence names ("The deploy hangs because …": "the deploy
hangs"), else the user's own sentence of the report when it names no one, else where a reply
said it fails ("the lint job is failing on the format check"), else the error line of the
fetched log. Never kept: a cause the session took back (a later reply says it was not
the problem, or that the real problem is another, or the command that failed before it fails
again after it) or the user rejected (the next message says
no, or that it still fails), a cause with no change after it (a hypothesis), a change outside
the project (another repository's problem), a turn with no problem in it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.differences import Edit, changed_lines, edits
from squirrel_memory.extractors.elsewhere import outside_root, replies_elsewhere
from squirrel_memory.extractors.pitfalls import first_error_line
from squirrel_memory.extractors.reported import changing_commands, local_paths
from squirrel_memory.extractors.stated_causes import (
    HEDGE,
    PERSON,
    PRONOUN,
    SENTENCE,
    contrast,
    headed_cause,
    reported_defect,
    sentences,
    stated_cause,
)
from squirrel_memory.extractors.user_turns import opens_with_report, user_turns
from squirrel_memory.extractors.wording import key_slug, sentence
from squirrel_memory.models import StoredEvent

MAX_TRIGGER_CHARS = 100
MAX_ERROR_CHARS = 120
MAX_FILES = 2
#: Lessons kept per episode.
MAX_LESSONS = 3

#: "The CI run is failing on the lint step": where the problem shows, a trigger of its own.
_FAILING_ON = re.compile(
    r"^(?P<trigger>(?!(?:it|this|that|they)\b)[^,;:]{3,60}? (?:is|are|was|were) failing "
    r"(?:on|at|in) [^,;:]{3,80}?)\.?$",
    re.IGNORECASE,
)
#: A reply taking back a cause: it was not the problem, or the real one is another.
_RETRACTS = re.compile(
    r"\b(?:(?:that|this|it) (?:was|is)n'?t (?:the|it|actually)|(?:was|is) not (?:the|actually "
    r"the) (?:problem|issue|cause)|wasn'?t the (?:problem|issue|cause)|the (?:real|actual) "
    r"(?:problem|issue|cause)|i was wrong|my (?:earlier|previous|first) (?:diagnosis|"
    r"assumption|guess)|(?:that|this) didn'?t (?:fix|help|work)|still (?:hangs|fails|failing|"
    r"broken))\b",
    re.IGNORECASE,
)
#: The user's next message rejecting what was said or done.
_REJECTS = re.compile(
    r"^\W*(?:no\b|nope\b|wrong\b|not quite\b|that'?s not\b|that is not\b|that isn'?t\b|"
    r"this isn'?t\b|undo\b|revert\b)|\bstill (?:hangs?|fails?|failing|broken|not|does ?n[o']t|"
    r"the same|happening|there)\b|\b(?:did|does) ?n[o']t (?:fix|help|work)\b",
    re.IGNORECASE,
)
#: A user message reporting trouble.
_TROUBLE = re.compile(
    r"\b(?:does ?n[o']t work|did ?n[o']t work|not working|hangs?|hanging|hung|stuck|freezes|"
    r"broken|breaks|fail(?:s|ed|ing|ure)?|errors?|crash(?:es|ed)?|exception|traceback|"
    r"times? out|timed out|timeouts?|warnings?|is red|went red|"
    r"never (?:finishes|returns|starts))\b",
    re.IGNORECASE,
)
#: Work on how errors are handled or said: a feature, not a report of trouble.
_ABOUT_ERRORS = re.compile(
    r"\b(?:errors?|failures?|warnings?|exceptions?|crash)[- ](?:handling|handler|messages?|"
    r"reporting|reports?|codes?|types?|pages?|states?|cases?|paths?|logging)\b",
    re.IGNORECASE,
)
#: "Why does <x> hang?", "why is <x> failing on CI?": a report asked as a question.
_WHY = re.compile(
    r"^why (?P<aux>does|do|did|is|are) (?P<subject>[^?]{3,70}?) (?P<verb>hang|fail|break|crash|"
    r"freeze|time out|error|stall|failing|hanging|broken|stuck|red)(?P<rest>[^?]{0,60})\?$",
    re.IGNORECASE,
)
#: The user's request around a report ("can you fix it", "please look"), not the symptom.
#: How a user opens a report ("I just noticed that", "I'm getting"): not the symptom.
_NOTICED = re.compile(
    r"^(?:i (?:just |now |also )?(?:noticed|found out|found|see|saw|realised|realized|think)"
    r"(?: that)?|i(?:'m| am) (?:getting|seeing)|(?:i|we) (?:get|got|see|keep getting))\s+",
    re.IGNORECASE,
)
#: "my build", "our deploy": the project's.
_OWN = re.compile(r"\b(?:my|our)\b(?=\s)", re.IGNORECASE)
#: The user's own words: letters, code spans and plain punctuation (no log line, no path).
_PROSE = re.compile(r"^[\w`'\" ,.!-]+$")
_ASKS = re.compile(
    r"^(?:(?:hey|hi|ok|okay|so|hmm|ah|also|and|but)\W+)*(?:please|pls|can you|could you|would "
    r"you|help|fix|look|check|investigate|debug|why|what|how)\b",
    re.IGNORECASE,
)

KEY_PREFIX = "pitfall:diagnosed:"


_RUNS = frozenset({EventType.COMMAND_RUN, EventType.TEST_RUN, EventType.TOOL_RESULT})


#: A short message that tells the assistant to go ahead with what it proposed.
_GO = re.compile(
    r"^\W*(?:yes|yeah|yep|yup|sure|ok|okay|go ahead|go for it|do it|please do|sounds good|"
    r"lgtm|perfect|great|fix it|please fix|apply it|make the change|implement (?:it|that|this|"
    r"the fix)|(?:make|open|create|send) (?:a |the )?(?:pr|pull request))\b",
    re.IGNORECASE,
)
MAX_APPROVAL_CHARS = 80
#: The first line of a command's output when the host did not run it (a sandbox refused it, the
#: process could not start): no exit code comes with it.
_REFUSED = re.compile(
    r"\b(?:failed|denied|not permitted|refused|rejected|blocked)\b|\bSandbox\(", re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class Diagnosed:
    """A lesson from a diagnosed problem: key, statement, the events behind it, files changed."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    files: tuple[str, ...]
    #: The reply that stated the cause.
    cause_id: str


@dataclass(frozen=True, slots=True)
class _Cause:
    event_id: str
    index: int
    trigger: str
    text: str
    #: What the check expected against what happened, said after the cause ("" if nothing).
    detail: str = ""


def _troubled(text: str) -> bool:
    """Whether a user's message reports trouble: not a feature about errors ("add error
    handling", "better failure messages")."""
    return bool(_TROUBLE.search(_ABOUT_ERRORS.sub(" ", text)))


def _stated(question: str) -> str:
    """A question about a symptom as the statement it asks about ("why does the release task
    hang?" → "the release task hangs"), or the text as it was."""
    match = _WHY.match(question.strip())
    if match is None:
        return question
    verb = match.group("verb")
    if match.group("aux").lower() in ("does", "do", "did"):
        verb = "times out" if verb.lower() == "time out" else f"{verb}s"
    else:
        verb = f"{match.group('aux').lower()} {verb}"
    return f"{match.group('subject')} {verb}{match.group('rest')}"


def _reported(text: str) -> str:
    """The sentence of a user's message that reports the trouble in nobody's words (`the
    release task hangs at the prompt`), or ""."""
    for line in text.splitlines():
        for raw in SENTENCE.split(" ".join(line.split())):
            said = re.sub(r"^(?:(?:hey|hi|oh|ok|okay|so|hmm|ah|also|and|but)\W+)+", "", raw.strip())
            said = _stated(said)
            said = _OWN.sub("the", _NOTICED.sub("", said)).rstrip(".!")
            if not _troubled(said) or _ASKS.match(said) or said.endswith("?"):
                continue
            if PERSON.search(said) or PRONOUN.match(said) or said.count("`") % 2:
                continue
            if not _PROSE.match(said) or len(said.split()) < 3:
                continue  # a pasted log line, not the user's own words
            if len(said) <= MAX_TRIGGER_CHARS:
                return said[:1].lower() + said[1:] if not said[:2].isupper() else said
    return ""


def _failed(event: StoredEvent) -> bool:
    code = event.content.get("exit_code")
    return event.content.get("is_error") is True or (isinstance(code, int) and code != 0)


def _fetched_error(event: StoredEvent) -> str:
    """The error line a command that succeeded printed (a fetched log), or ""."""
    if event.event_type != EventType.COMMAND_RUN or _failed(event):
        return ""
    output = event.content.get("output")
    return first_error_line(output) if isinstance(output, str) else ""


def _passed(event: StoredEvent) -> bool:
    """Whether a command ran and did not fail: one that failed, or that the host refused to run
    (no exit code, its output saying so), changed nothing."""
    if _failed(event):
        return False
    output = event.content.get("output")
    first = output.lstrip().split("\n", 1)[0] if isinstance(output, str) else ""
    return event.content.get("exit_code") is not None or not _REFUSED.search(first)


def _change(edit: Edit) -> str:
    """A small edit said by its lines ("removing `x`", "changing `a` to `b`"), or ""."""
    removed, added = changed_lines(edit)
    if not edit.before or not (removed or added):
        return ""
    if removed and added and len(removed) == len(added) == 1:
        return f"the change made: `{removed[0]}` became `{added[0]}` in {edit.path}"
    if added and not removed:
        return f"the change made: added `{added[0]}` in {edit.path}" if len(added) == 1 else ""
    if removed and not added and len(removed) == 1:
        return f"the change made: removed `{removed[0]}` from {edit.path}"
    return ""


def _inside(path: str) -> bool:
    """Whether a project-relative path stays in the project (`../other/x`, `a/../../x` leave)."""
    return bool(path) and not outside_root(path, "")


def diagnosed(events: list[StoredEvent]) -> list[Diagnosed]:
    """The lessons of `events`: each problem's stated cause and the change made for it."""
    found: dict[str, Diagnosed] = {}
    elsewhere = replies_elsewhere(events)
    all_edits = {e.event_id: e for e in edits(events)}
    turns = user_turns(events)
    for number, (first, end) in enumerate(turns):
        opener = events[first]
        report = ""
        if opens_with_report(opener):
            text = opener.content.get("text")
            report = _reported(text) if isinstance(text, str) else ""
            trouble = isinstance(text, str) and _troubled(text)
        else:
            trouble = False
        fetched, fetched_id = "", ""
        causes: list[_Cause] = []
        failing_on = ""  # where a reply said it shows ("CI is failing on the lint step")
        floor = first  # a change made before a cause was taken back answered that cause
        failed_runs: set[str] = set()
        for index in range(first + 1, end):
            event = events[index]
            if not fetched and (error := _fetched_error(event)):
                fetched, fetched_id = error, event.id
            if event.event_type in _RUNS and _failed(event):
                trouble = True  # a failing check: what is said after it may be its cause
                command = str(event.content.get("command") or "")
                if command and command in failed_runs and causes:
                    # The same command failed again after the cause was stated: the change
                    # it led to did not fix it, so the cause did not hold.
                    causes.clear()
                    floor = index
                failed_runs.add(command)
            text = event.content.get("text")
            if event.event_type != EventType.ASSISTANT_RESPONSE or not isinstance(text, str):
                continue
            if event.id in elsewhere:
                continue  # a subagent's finding about another folder is that folder's
            stated_here = len(causes)
            said_all = sentences(text)
            for position, said in enumerate(said_all):
                if not failing_on and (shows := _FAILING_ON.match(said)):
                    named = shows.group("trigger")
                    if not (PERSON.search(named) or HEDGE.search(named)):
                        failing_on = named
                if _RETRACTS.search(said):
                    causes.clear()  # taken back: only a cause stated after it counts
                    floor = index
                named_symptom, stated = stated_cause(said)
                if stated and (trouble or fetched):
                    detail = contrast(said_all[position + 1 : position + 4])
                    causes.append(_Cause(event.id, index, named_symptom, stated, detail))
            if len(causes) == stated_here:
                # A reply that puts its cause under a heading (`### Root cause`) diagnoses.
                problem, headed = headed_cause(text)
                if headed:
                    trigger = f"the {problem} shows up" if problem else ""
                    causes.append(_Cause(event.id, index, trigger, headed))
        by_user = ""
        if not causes and opens_with_report(opener):
            # The user's report names what the code gets wrong; the change answers it.
            text = opener.content.get("text")
            by_user = reported_defect(text) if isinstance(text, str) else ""
            if by_user:
                causes.append(_Cause(opener.id, first, "", by_user))
        if not causes or _rejected(events, turns, number):
            continue
        cause = causes[0]
        change, change_ids, files = _made(events, floor, end, cause.index, all_edits)
        if not change and _approved(events, turns, number):
            # "Want me to fix it?" — "yes": the next turn's change answers this cause, unless
            # the user rejects that one in turn.
            after, until = turns[number + 1]
            if not _rejected(events, turns, number + 1):
                change, change_ids, files = _made(events, after, until, after, all_edits)
        if not change:
            continue  # a hypothesis never acted on
        quoted = _shown(fetched, opener) if fetched else ""
        shown = f"`{quoted}` shows in a log" if quoted else ""
        trigger = cause.trigger or report or failing_on or shown
        if by_user:
            trigger = "the user reported it"
        if not trigger:
            continue
        trigger = trigger[:1].lower() + trigger[1:] if not trigger[:2].isupper() else trigger
        because = f"{cause.text} — {cause.detail}" if cause.detail else cause.text
        if by_user:
            content = sentence(f"Reported by the user: {because}; {change}")
        else:
            content = sentence(f"When {trigger}: {because}; {change}")
        if not content:
            continue
        ids = (opener.id, *([fetched_id] if fetched_id else []), cause.event_id, *change_ids)
        key = f"{KEY_PREFIX}{key_slug(f'{trigger} {cause.text}') or 'lesson'}"
        if key not in found:
            found[key] = Diagnosed(key, content, tuple(dict.fromkeys(ids)), files, cause.event_id)
        if len(found) == MAX_LESSONS:
            break
    return list(found.values())


def _shown(error: str, event: StoredEvent) -> str:
    """The error line as it can be quoted (project paths relative), or "" when too long: a
    line cut short may say something else."""
    line = local_paths(error, event.project_id).replace("`", "'")
    return line if len(line) <= MAX_ERROR_CHARS else ""


def _rejected(events: list[StoredEvent], turns: list[tuple[int, int]], number: int) -> bool:
    """Whether the user's next message rejects what the turn said or did."""
    if number + 1 >= len(turns):
        return False
    text = events[turns[number + 1][0]].content.get("text")
    return isinstance(text, str) and bool(_REJECTS.search(text[:300]))


def _approved(events: list[StoredEvent], turns: list[tuple[int, int]], number: int) -> bool:
    """Whether the user's next message only says to go ahead ("yes", "go ahead, fix it")."""
    if number + 1 >= len(turns):
        return False
    text = events[turns[number + 1][0]].content.get("text")
    return isinstance(text, str) and len(text) <= MAX_APPROVAL_CHARS and bool(_GO.match(text))


def _made(
    events: list[StoredEvent], first: int, end: int, after: int, all_edits: dict[str, Edit]
) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """(how the change is said, its events, the files) of the turn's changes inside the project:
    the first small edit after the cause, else the turn's files, else the commands run."""
    made: list[tuple[int, Edit]] = []
    files: dict[str, str] = {}
    commands: list[tuple[str, str]] = []
    for index in range(first + 1, end):
        event = events[index]
        if event.id in all_edits and _inside(all_edits[event.id].path):
            made.append((index, all_edits[event.id]))
        elif event.event_type == EventType.CODE_CHANGE:
            path = event.content.get("path")
            for raw in [path] if isinstance(path, str) else list(event.file_paths):
                rel = relative_path(raw, event.project_id)
                if _inside(rel):
                    files.setdefault(rel, event.id)
        elif event.event_type == EventType.COMMAND_RUN and index > after and _passed(event):
            command = str(event.content.get("command") or "")
            for typed in changing_commands(command, event.project_id):
                commands.append((typed, event.id))
    later = [(i, e) for i, e in made if i > after]
    for _, edit in later[:1]:
        if said := _change(edit):
            return said, (edit.event_id,), (edit.path,)
    if later or files:
        paths = list(dict.fromkeys([*(e.path for _, e in later), *files]))
        ids = tuple(dict.fromkeys([*(e.event_id for _, e in later), *files.values()]))
        return f"the change made: editing {', '.join(paths[:MAX_FILES])}", ids, tuple(paths)
    if commands:
        return f"the change made: `{commands[0][0]}`", (commands[0][1],), ()
    return "", (), ()
