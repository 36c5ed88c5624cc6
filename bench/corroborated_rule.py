"""What the assistant said about the project, kept only where the session's own tool output
says the same.

Through a session the assistant states what it read or found: "`config.Load` reads
`GATEWAY_PORT` and falls back to 8080.", "The `Repo` module uses the `Ecto.Adapters.Postgres`
adapter.", after a failed run "`mix test` fails because `priv/repo/seeds.exs` expects the
`users` table.". A senior engineer takes such a sentence as a fact only when what it names is
in front of them: here, in what the session's tools returned before the sentence. The rule
reads the sentence's shape and what it names, never its topic words, the same in every
ecosystem:

- the sentence is a main-agent reply's, about this project (`elsewhere`), outside code
  blocks, tables and quoted lines, and nobody takes the reply back
  (`subagent_findings.taken_back`);
- it states something (`report_sentences.stated_shape`): built on a verb, not asked, guessed,
  planned, addressed to the user or told as anyone's step ("I added …", "Let me …", "Now …
  passes"), not a negation of a fix, and its subject is not only a pronoun;
- it names at least one **specific term** (`terms`: a code span, a path, a dotted,
  snake_case, camelCase or `::` name, a flag, a version or number, a proper name inside the
  sentence) within its first words, and names no path outside the project or in a
  dependency's folder;
- every specific term is **corroborated**: it occurs, as a whole word, in what a tool
  returned before the reply (a file read, a search, a command's output) — not in what the
  assistant itself wrote (an edit's or a write's echo, a command's own text) nor in the
  user's words. A sentence whose term the session shows only in the assistant's own edit is
  a claim about the change, not a fact the project already had;
- it is not a line that output holds as it stands (a file's words quoted).

A sentence that states a cause (`stated_causes`) in a reply after a failed command or tool call
is a pitfall; any other is a project fact. The memory says where it holds and where it comes
from ("Stated in the session and shown by its tools (`internal/config/`): …"): the folder is
the deepest one every project path it names shares, else the one the corroborating reads
share. A reply gives at most `MAX_PER_REPLY` statements, an episode `MAX_STATEMENTS`, each
once.

The rules extractor does not run this rule: `bench/corroborated_facts.py` measures it, and most
of what it keeps beyond the other rules read as the session's moment rather than a durable fact
(docs/benchmarks.md, "Assistant sentences kept only where the session's tool output says the
same").
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from squirrel_core.events import EventType, is_user_voice
from squirrel_core.host_tools import CHANGE_TOOLS
from squirrel_core.subagent_tools import SUBAGENT_TOOLS
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.elsewhere import replies_elsewhere
from squirrel_memory.extractors.report_sentences import report_points, stated_shape
from squirrel_memory.extractors.report_statements import in_project, named_paths
from squirrel_memory.extractors.stated_causes import stated_cause
from squirrel_memory.extractors.subagent_findings import DEPENDENCY_CODE, taken_back
from squirrel_memory.extractors.wording import key_slug
from squirrel_memory.models import StoredEvent

#: Importance of a corroborated statement: the assistant's word that the tools back, below a
#: fact a manifest or a file shows (0.5 and up) and beside the other statements of replies.
IMPORTANCE = 0.35
PREFIX = "Stated in the session and shown by its tools"
KEY_PREFIX = "project:corroborated:"
PITFALL_KEY_PREFIX = "pitfall:corroborated:"
#: The first specific term must come within this many words: the sentence is about it.
MAX_SUBJECT_WORDS = 6
#: Statements kept per reply and per episode.
MAX_PER_REPLY = 3
MAX_STATEMENTS = 10
#: A term shorter than this (outside a code span) is too common to corroborate anything.
MIN_TERM_CHARS = 2

#: The events of a command the shell ran: its command line and what it printed.
_RUNS = frozenset((EventType.COMMAND_RUN, EventType.TEST_RUN))
_SPAN = re.compile(r"`([^`\n]+)`")
_TOKEN = re.compile(r"[^\s,;()\[\]{}\"'“”‘’<>]+")
#: A token that is a name of code or data rather than a word of prose.
_CODE_LIKE = re.compile(
    r"[A-Za-z0-9]/[A-Za-z0-9_.]"  # a path
    r"|[A-Za-z0-9_]\.[A-Za-z_]"  # a dotted name or a file with its extension
    r"|\w_\w"  # snake_case
    r"|[a-z][A-Z]"  # camelCase
    r"|::|->"  # a qualified name
    r"|^--?[A-Za-z]"  # a flag
    r"|\d"  # a number or a version
)
#: Abbreviations that look dotted but name nothing.
_NOT_NAMES = frozenset(("e.g", "i.e", "etc", "vs", "a.k.a", "cf", "approx"))
#: A capitalised word inside the sentence: a proper name (a tool, a framework, a service).
_PROPER = re.compile(r"^[A-Z][A-Za-z0-9+#-]*[A-Za-z0-9+#]$")
#: A short all-capitals word: a word of the trade ("PR", "CLI", "SQL"), not a name.
_ACRONYM = re.compile(r"^[A-Z]{2,4}s?$")
#: A reaction opening the sentence ("Good, …", "Perfect!"): the session's moment, not a fact.
_REACTION = re.compile(
    r"^(?:great|perfect|excellent|good|nice|ok|okay|sure|done|yes|alright|awesome)\b", re.I
)
#: The state a change of the session just left ("… is now ignored", "`x` is still used", "has
#: been added", "66 tests pass"): what the session did, not what the project was.
_MOMENT = re.compile(
    r"\b(?:now|still|no longer|anymore|unchanged|(?:has|have|had) been|successfully|as planned|"
    r"pass|passing)\b",
    re.I,
)
#: A change of the session said not to have worked ("that didn't fix it"): its attempt.
_NOT_FIXED = re.compile(
    r"\b(?:not|n't|never)\s+(?:\w+\s+)?(?:fix|fixed|work|worked|help|helped|solve|solved|"
    r"resolve|resolved)\b",
    re.I,
)
_BRACKETED = re.compile(r"\([^()]*\)")
#: A markdown link: its text is said, its address only cites.
_LINK = re.compile(r"\[([^\]]*)\]\([^)\s]*\)")
_TRIM = re.compile(r"^[^\w./~@$-]+|[^\w/+#)]+$")


@dataclass(frozen=True, slots=True)
class Corroborated:
    """A statement of a reply that the session's tool output backs."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    files: tuple[str, ...]
    #: Whether it states a cause after a failure (a pitfall) rather than a fact.
    pitfall: bool
    #: The sentence as the assistant said it.
    said: str


def terms(said: str) -> list[str]:
    """The specific terms `said` names, in order: its code spans, then the code-like tokens
    and proper names of its prose (not its first word, which any sentence capitalises)."""
    said = _LINK.sub(r"\1", said)  # a link's address cites; its text is what is said
    found = [span.strip() for span in _SPAN.findall(said) if any(c.isalnum() for c in span)]
    prose = _SPAN.sub(" ", said)
    for position, match in enumerate(_TOKEN.finditer(prose)):
        token = _TRIM.sub("", match.group())
        if len(token) < MIN_TERM_CHARS or token.lower().rstrip(".") in _NOT_NAMES:
            continue
        if _ACRONYM.match(token):
            continue  # "PR", "CLI", "API": words of the trade, not names of this project
        if _CODE_LIKE.search(token) or (position > 0 and _PROPER.match(token)):
            found.append(token.rstrip("/") or token)
    return list(dict.fromkeys(found))


def subject_term(said: str, named: list[str]) -> bool:
    """Whether one of the terms `named` is among the first `MAX_SUBJECT_WORDS` words."""
    opening = " ".join(said.split()[:MAX_SUBJECT_WORDS])
    return any(term in opening for term in named)


def shown(term: str, output: str) -> bool:
    """Whether `term` occurs in `output` as a whole word (a proper name in any case)."""
    if not term:
        return False
    edge = r"(?<![A-Za-z0-9_])" if term[0].isalnum() or term[0] == "_" else ""
    tail = r"(?![A-Za-z0-9_])" if term[-1].isalnum() or term[-1] == "_" else ""
    flags = re.IGNORECASE if _PROPER.match(term) else 0
    if re.search(edge + re.escape(term) + tail, output, flags):
        return True
    # A span with spaces (a command, a phrase) is shown when each of its words is.
    words = term.split()
    return len(words) > 1 and all(shown(word, output) for word in words if len(word) > 1)


def tool_output(event: StoredEvent, answered: set[str]) -> str:
    """What a tool returned in `event` from the project, or "": a tool result's output (with
    the paths the call read), or a command run's output when no tool result of the same call
    came before it (`answered`: the call ids of those seen, which this adds to); never the
    command line (the assistant's own text: a here-document writes files), what a call that
    changed files echoes, or a subagent's report (another agent's words, not the project's)."""
    call = event.content.get("tool_use_id")
    if event.event_type in _RUNS:
        code = event.content.get("exit_code")
        if (isinstance(call, str) and call in answered) or not isinstance(code, int):
            return ""  # its output was read with its result, or it never ran
        output = event.content.get("output")
        return output if isinstance(output, str) else ""
    if event.event_type != EventType.TOOL_RESULT:
        return ""
    if isinstance(call, str):
        answered.add(call)
    tool = event.content.get("tool")
    if tool in CHANGE_TOOLS or tool in SUBAGENT_TOOLS:
        return ""
    output = event.content.get("output")
    if not isinstance(output, str) or not output.strip():
        return ""
    # A read that returned names the file it read: its path is shown as surely as its text.
    named = [relative_path(p, event.project_id) for p in event.file_paths or ()]
    return "\n".join((*named, output)) if not _failed(event) else output


def _failed(event: StoredEvent) -> bool:
    code = event.content.get("exit_code")
    return event.content.get("is_error") is True or (isinstance(code, int) and code != 0)


def _folder(paths: Iterable[str]) -> str:
    """The deepest folder every path of `paths` lies in ("" for the project's root)."""
    folders = [posixpath.dirname(p) for p in paths if p]
    if not folders:
        return ""
    common = posixpath.commonpath(folders) if all(folders) else ""
    return "" if common in ("", ".") else common


def corroborated(events: list[StoredEvent]) -> list[Corroborated]:
    """The statements of the main agent's replies in `events` (in order) that the session's own
    tool output backs, term by term."""
    elsewhere = replies_elsewhere(events)
    outputs: list[str] = []
    answered: set[str] = set()
    read_paths: list[tuple[str, str]] = []  # (output, a project path the reading event names)
    kept: dict[str, Corroborated] = {}
    failed = changed = False
    user_said = ""
    for index, event in enumerate(events):
        if event.event_type == EventType.USER_MESSAGE and is_user_voice(event.origin):
            text = event.content.get("text")
            user_said = text if isinstance(text, str) else ""
            failed = changed = False
            continue
        if event.event_type == EventType.CODE_CHANGE and not event.sidechain:
            changed = True
        if output := tool_output(event, answered):
            outputs.append(output)
            failed = failed or _failed(event)
            for raw in event.file_paths or ():
                rel = relative_path(raw, event.project_id)
                if in_project(rel):
                    read_paths.append((output, rel))
            continue
        if (
            event.event_type != EventType.ASSISTANT_RESPONSE
            or event.sidechain
            or event.id in elsewhere
            or not outputs
            or (changed and not failed)
        ):
            continue
        text = event.content.get("text")
        if not isinstance(text, str) or taken_back(events, index):
            continue
        count = 0
        for found in _statements(
            text, event, outputs=outputs, user_said=user_said, read_paths=read_paths, failed=failed
        ):
            if found.key in kept or any(k.said == found.said for k in kept.values()):
                continue
            kept[found.key] = found
            count += 1
            if count == MAX_PER_REPLY or len(kept) == MAX_STATEMENTS:
                break
        if len(kept) >= MAX_STATEMENTS:
            break
    return list(kept.values())


def _statements(
    text: str,
    event: StoredEvent,
    *,
    outputs: list[str],
    user_said: str,
    read_paths: list[tuple[str, str]],
    failed: bool,
) -> list[Corroborated]:
    found: list[Corroborated] = []
    for label, raws in report_points(text):
        for raw in raws:
            said = backed(raw, label, outputs, user_said)
            if not said:
                continue
            named = named_paths(said, event.project_id)
            if not all(in_project(p) for p in named):
                continue
            named_terms = terms(said)
            corroborating = [p for out, p in read_paths if any(shown(t, out) for t in named_terms)]
            folder = _folder(named or corroborating)
            pitfall = failed and bool(stated_cause(said)[1])
            where = f" (`{folder}/`)" if folder else ""
            prefix = PITFALL_KEY_PREFIX if pitfall else KEY_PREFIX
            found.append(
                Corroborated(
                    f"{prefix}{key_slug(said, frozenset()) or 'statement'}",
                    f"{PREFIX}{where}: {said}",
                    (event.id,),
                    tuple(dict.fromkeys(named))[:2],
                    pitfall,
                    said,
                )
            )
    return found


def backed(raw: str, label: str, outputs: Sequence[str], user_said: str) -> str:
    """`raw`, a sentence of a reply under `label`, as a statement every specific term of which
    a tool's output in `outputs` shows, or ""."""
    said = stated_shape(raw, label, min_spans=0)
    if not said or DEPENDENCY_CODE.search(said):
        return ""
    prose = _SPAN.sub(" ", said)
    if _REACTION.match(said) or _MOMENT.search(prose) or _NOT_FIXED.search(prose):
        return ""
    if not stated_shape(_BRACKETED.sub(" ", said), label, min_spans=0):
        return ""  # its verb only in an aside: a fragment ("Show X (when `y` is given).")
    named = terms(said)
    if not named or not subject_term(said, named):
        return ""  # a sentence that names nothing specific is never kept
    if not all(any(shown(term, output) for output in outputs) for term in named):
        return ""
    probe = said.rstrip(".")
    if any(probe in output for output in outputs) or probe in " ".join(user_said.split()):
        return ""  # a file's words or the user's own, quoted
    return said
