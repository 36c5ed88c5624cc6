"""A file's text as the session last saw it: a read of a file that the session edited later is
read as the file stood after those edits.

A session often reads a file and then changes it: it ports `app.py` from one framework to
another, moves the `test` script of `package.json` to another runner, drops a dependency. The
read still shows the old text, and a rule reading it would state what the session itself just
undid ("Built with Flask" after the port). So, before the project-fact rules read them, the
reads of a file that later successful edits of the same file changed get those edits applied,
in order:

- a whole-file write (Claude Code's `Write`, a patch's added file, a shell here-document
  `cat > CLAUDE.md <<'EOF' … EOF`): its text;
- a replacement (`Edit`, `MultiEdit`'s edits) or a patch's hunk (Codex's `apply_patch`): made
  where its old text is found in the read; where it is not (a partial read), the old text's
  lines the new text does not keep are removed.

Only edits that did not fail count, and only for the same file (by its path in the project).
The edits themselves are what the session wrote, and rules read them as they are.

A file can also change in ways whose new text the session never shows (`shell_changes.py`): a
command writes it (a redirection `>> AGENTS.md`, `sed -i`, `tee`, a copy onto it), a script's
output says it updated it, or a later status or diff lists it as changed with no edit of the
session's own to explain that. A read before such a change no longer says what the file holds:
its text is dropped (the read itself stays, so what it shows was touched still counts), unless
a later whole write or read shows the text again. So is the text of the file as its host
loaded it or a command printed it (`cat AGENTS.md`) before such a change.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from squirrel_core.events import LOADED_FILE, EventType
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.file_reads import file_text, read_output, shell_read_paths
from squirrel_memory.extractors.patch_edits import patch_body
from squirrel_memory.extractors.shell_changes import changed_unseen
from squirrel_memory.models import StoredEvent

_PATCH_FILE = re.compile(r"^\*\*\* (?:Update|Add|Delete) File: (?P<path>.+?)\s*$")


@dataclasses.dataclass(frozen=True, slots=True)
class _Change:
    """One edit of a file: the file's whole new text (a write), or the (old, new) text pairs it
    replaced (an edit's strings, a patch's hunks)."""

    whole: str | None = None
    pairs: tuple[tuple[str, str], ...] = ()
    #: A change whose new text is not known (a shell command's, a script's): `made` when the
    #: command itself wrote the file, else only seen (a status or diff line, a script's report).
    unseen: bool = False
    made: bool = False
    #: Only the assistant's words: any edit of the session's own after the read explains it.
    said: bool = False

    def apply(self, text: str | None) -> str | None:
        """`text` after the edit (None: not known): a write's text; each replacement made where
        its old text is found, else the old text's lines that the new text does not keep
        removed; an unseen change's text is not known."""
        if self.whole is not None:
            return self.whole
        if self.unseen or text is None:
            return None
        for old, new in self.pairs:
            if old and old in text:
                text = text.replace(old, new, 1)
                continue
            gone = _lines(old) - _lines(new)
            text = "\n".join(line for line in text.splitlines() if line.strip() not in gone)
        return text


def _lines(text: str) -> set[str]:
    return {s for line in text.splitlines() if (s := line.strip())}


def _hunks(body: list[str]) -> list[tuple[str, str]]:
    """A patch's hunks of one file as (old, new) texts, context lines in both."""
    pairs: list[tuple[str, str]] = []
    old: list[str] = []
    new: list[str] = []
    for line in [*body, "@@"]:
        if line.startswith("@@"):
            if old or new:
                pairs.append(("\n".join(old), "\n".join(new)))
            old, new = [], []
        elif line.startswith("-"):
            old.append(line[1:])
        elif line.startswith("+"):
            new.append(line[1:])
        elif line.startswith(" "):
            old.append(line[1:])
            new.append(line[1:])
    return pairs


def _patched(patch: str, project_id: str) -> dict[str, _Change]:
    """Per file a patch updates or adds, its change."""
    bodies: dict[str, list[str]] = {}
    added: set[str] = set()
    current: list[str] | None = None
    for line in patch.splitlines():
        header = _PATCH_FILE.match(line)
        if header:
            path = relative_path(header["path"], project_id)
            current = bodies.setdefault(path, [])
            if line.startswith("*** Add File"):
                added.add(path)
        elif line.startswith("*** "):
            current = None
        elif current is not None:
            current.append(line)
    return {
        path: _Change(whole="\n".join(x[1:] for x in body if x.startswith("+")))
        if path in added
        else _Change(pairs=tuple(_hunks(body)))
        for path, body in bodies.items()
    }


#: A shell command that writes one file whole from a here-document: `cat > CLAUDE.md <<'EOF'`,
#: `cat <<EOF > notes.md`, `tee AGENTS.md <<EOF` (its text up to the closing tag).
_HEREDOC_WRITE = re.compile(
    r"\A\s*(?:cat\s*>\s*(?P<a>[^\s<>|;&]+)\s*<<-?\s*(?P<q1>['\"]?)(?P<t1>\w+)(?P=q1)"
    r"|cat\s*<<-?\s*(?P<q2>['\"]?)(?P<t2>\w+)(?P=q2)\s*>\s*(?P<b>[^\s<>|;&]+)"
    r"|tee\s+(?P<c>[^\s<>|;&-][^\s<>|;&]*)\s*(?:>\s*/dev/null\s*)?<<-?\s*(?P<q3>['\"]?)(?P<t3>\w+)(?P=q3))"
    r"[ \t]*\n(?P<body>.*?)\n?(?:^|(?<=\n))(?P<end>\w+)[ \t]*\Z",
    re.DOTALL | re.MULTILINE,
)


def _shell_write(given: dict[str, Any], project_id: str) -> dict[str, _Change]:
    """The file a here-document command wrote whole, as a change (`_HEREDOC_WRITE`)."""
    command = given.get("command", given.get("cmd"))
    if isinstance(command, list) and command and isinstance(command[-1], str):
        command = command[-1]  # an argv through `bash -lc`
    if not isinstance(command, str):
        return {}
    found = _HEREDOC_WRITE.match(command)
    if found is None or found["end"] != (found["t1"] or found["t2"] or found["t3"]):
        return {}
    path = relative_path(found["a"] or found["b"] or found["c"], project_id)
    return {path: _Change(whole=found["body"] + "\n")}


def _changes(event: StoredEvent) -> dict[str, _Change]:
    """The files an edit event changed and how (a shell here-document's write too); empty for
    any other event."""
    content: dict[str, Any] = event.content
    given = content.get("input")
    if event.event_type != EventType.TOOL_CALL or not isinstance(given, dict):
        return {}
    # The patch as the call's own input, or as the argument of a shell-form call (older Codex).
    patch = patch_body(given) if content.get("tool") == "apply_patch" else ""
    if patch:
        return _patched(patch, event.project_id)
    if "command" in given or "cmd" in given:
        return _shell_write(given, event.project_id)
    raw = given.get("file_path")
    if not isinstance(raw, str):
        return {}
    path = relative_path(raw, event.project_id)
    if isinstance(given.get("content"), str):
        return {path: _Change(whole=given["content"])}
    edits = given.get("edits")
    raw_pairs = (
        [(e.get("old_string"), e.get("new_string")) for e in edits if isinstance(e, dict)]
        if isinstance(edits, list)
        else [(given.get("old_string"), given.get("new_string"))]
    )
    pairs = tuple((o, n) for o, n in raw_pairs if isinstance(o, str) and isinstance(n, str))
    return {path: _Change(pairs=pairs)} if pairs else {}


def _failed(events: list[StoredEvent]) -> set[str]:
    """The tool calls whose result was an error (an edit that did not apply, a shell write
    that failed)."""
    return {
        str(e.content.get("tool_use_id"))
        for e in events
        if e.event_type in (EventType.TOOL_RESULT, EventType.COMMAND_RUN)
        and e.content.get("is_error") is True
    }


def latest_reads(events: list[StoredEvent]) -> list[StoredEvent]:
    """`events` (in time order) with each file read cut to the lines no later successful edit
    of that file removed; events nothing changed later are returned as they are."""
    failed = _failed(events)
    later: dict[str, list[tuple[int, _Change]]] = {}
    known: dict[str, set[str]] = {}  # per call, the files whose new text its input holds
    for index, event in enumerate(events):
        use = str(event.content.get("tool_use_id"))
        if use in failed:
            continue
        for path, change in _changes(event).items():
            later.setdefault(path, []).append((index, change))
            known.setdefault(use, set()).add(path)
        for path, made in changed_unseen(event).items():
            if path not in known.get(use, ()):  # a here-document's write, read from its call
                said = event.event_type == EventType.ASSISTANT_RESPONSE
                change = _Change(unseen=True, made=made, said=said)
                later.setdefault(path, []).append((index, change))
    if not later:
        return events
    out: list[StoredEvent] = []
    for index, event in enumerate(events):
        shown = _shown_elsewhere(event, index, later)
        if shown is not None:
            # A file its host loaded or a command printed, changed since unseen: not known.
            out.append(dataclasses.replace(event, content={**event.content, shown: ""}))
            continue
        changes = _read_changes(event, index, later)
        output = read_output(event) if changes else None
        if not changes or output is None or "output" not in event.content:
            out.append(event)
            continue
        text: str | None = file_text(output)
        numbered = text != output
        for change in changes:
            text = change.apply(text)
        if text is None:
            # Changed since in a way the session never showed: what the read said is not known.
            out.append(dataclasses.replace(event, content={**event.content, "output": ""}))
            continue
        if numbered:
            # Shown as the read showed it: each line behind its number.
            text = "".join(f"{n:6d}→{line}\n" for n, line in enumerate(text.splitlines(), 1))
        out.append(dataclasses.replace(event, content={**event.content, "output": text}))
    return out


def _shown_elsewhere(
    event: StoredEvent, index: int, later: dict[str, list[tuple[int, _Change]]]
) -> str | None:
    """The content field ("text" or "output") of a file's text shown other than by a read tool
    (its host loaded it, a command printed it) that a later unseen change made unknown."""
    content: dict[str, Any] = event.content
    loaded = content.get(LOADED_FILE)
    if event.event_type == EventType.USER_MESSAGE and isinstance(loaded, str):
        paths, field = [loaded], "text"
    elif event.event_type == EventType.COMMAND_RUN:
        paths, field = shell_read_paths(event), "output"
    else:
        return None
    for raw in paths:
        path = relative_path(raw, event.project_id).removeprefix("./")
        if any(c.unseen for c in _after(later.get(path, []), index)):
            return field
    return None


def _read_changes(
    event: StoredEvent, index: int, later: dict[str, list[tuple[int, _Change]]]
) -> list[_Change]:
    if event.event_type != EventType.TOOL_RESULT or not event.file_paths:
        return []
    path = relative_path(event.file_paths[0], event.project_id)
    return _after(later.get(path, []), index)


def _after(found: list[tuple[int, _Change]], index: int) -> list[_Change]:
    """The changes after `index`, in order, without a change only seen that an edit of the
    session's own between the two explains."""
    changes = [(at, change) for at, change in found if at > index]
    # A change only seen (a status or diff line, a script's report) is the session's own edit
    # when one of those lies between the read and the sight of it; the assistant's words may
    # also speak of an edit it makes next.
    return [
        change
        for at, change in changes
        if change.made
        or not change.unseen
        or not any(not c.unseen and (change.said or before < at) for before, c in changes)
    ]
