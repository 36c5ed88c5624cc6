"""A file read in the session: which tools read files, their output, and its text."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import PurePosixPath
from typing import Any

from squirrel_core.events import LOADED_FILE, EventType, Origin
from squirrel_core.host_tools import READ_TOOLS as HOST_READ_TOOLS
from squirrel_core.prefix_programs import behind_prefix
from squirrel_memory.extractors.activity import core_tokens, relative_path, split_segments
from squirrel_memory.extractors.elsewhere import outside_root
from squirrel_memory.models import StoredEvent

#: Tools whose result is a file's content, on every host (`squirrel_core.host_tools`).
READ_TOOLS = HOST_READ_TOOLS
#: Tools whose result lists files: a pattern's matches, a folder's entries, a search's hits.
LISTING_TOOLS = frozenset({"Glob", "LS", "Grep"})
#: Programs whose output lists files: what they list is what the folder holds.
LISTERS = frozenset({"ls", "find", "fd", "tree", "git", "rg", "grep"})
#: Programs that print a file named as their argument (`cat a.ts`, `sed -n 10,40p a.ts`).
SHELL_READERS = frozenset({"cat", "sed", "head", "tail", "nl", "less", "more", "bat"})
#: A path-like argument: a folder in it, or a file's suffix.
PATH_ARGUMENT = re.compile(r"^(?:[\w.@+-]+/)+[\w.@+-]+$|^[\w@+-][\w.@+-]*\.[A-Za-z]\w{0,9}$")
#: Longest file output read for its text (characters); what matters is near the top.
MAX_READ_CHARS = 200_000

#: `     1→text` (Claude Code's Read) or `     1\ttext` (`cat -n`): the first line of a file.
_FIRST_LINE = re.compile(r"^\s*1(?:→|\t)")
#: Any numbered line of a file read.
_NUMBERED = re.compile(r"^\s*(?P<line>\d+)(?:→|\t)")
_REMINDER = re.compile(r"<system-reminder>.*?(?:</system-reminder>|\Z)", re.DOTALL)
#: A read that wraps the file in tags, its lines numbered `1: text`:
#: `<path>/x/README.md</path>\n<type>file</type>\n<content>\n1: # x\n…</content>`.
_WRAPPED = re.compile(r"<path>([^<\n]{1,1000})</path>\n<type>file</type>\n<content>\n")
_WRAPPED_LINE = re.compile(r"(\d{1,7}): ?")
#: A file the user attached to a message (`@README.md`), as the host wrote it in: the read's
#: input, then the wrapped file, or "Result of calling the Read tool:" and its numbered lines.
_ATTACHED = re.compile(
    r"Called the Read tool with the following input: (\{[^\n]{0,1000}\})\n"
    r"(?:(?=<path>)|Result of calling the Read tool:\n(?=\s*1(?:→|\t)))"
)
#: The mark ingest leaves where it cut a long tool output (`parsers.kept_values.cap_text`).
_INGEST_CUT = re.compile(r"\n?…\[truncated \d+ chars\]\s*$")


def unwrapped_read(output: str) -> str:
    """A read wrapped in tags with `N: ` numbering (`_WRAPPED`) as a numbered read
    (`N→text`), up to its closing tag; any other output as it is."""
    found = _WRAPPED.match(output)
    if found is None:
        return output
    body, _, _ = output[found.end() : found.end() + MAX_READ_CHARS].partition("</content>")
    lines: list[str] = []
    for line in body.splitlines():
        numbered = _WRAPPED_LINE.match(line)
        if numbered is None:
            break  # the host's own note after the file ("(End of file - total 80 lines)")
        lines.append(f"{numbered.group(1)}→{line[numbered.end() :]}")
    return "\n".join(lines)


def attached_file_texts(event: StoredEvent) -> list[tuple[str, str]]:
    """(path, text from the file's first line) of each file the user attached to a message
    (`_ATTACHED`), read whole from its first line."""
    text = event.content.get("text")
    if event.event_type != EventType.USER_MESSAGE or not isinstance(text, str):
        return []
    if "Called the Read tool" not in text or loaded_text(event) is not None:
        return []
    found: list[tuple[str, str]] = []
    for attached in _ATTACHED.finditer(text[:MAX_READ_CHARS]):
        wrapped = _WRAPPED.match(text, attached.end())
        path = wrapped.group(1) if wrapped else _read_path(attached.group(1))
        rest = text[attached.end() : attached.end() + MAX_READ_CHARS]
        output = unwrapped_read(rest) if wrapped else _numbered_run(rest)
        if path and output and _FIRST_LINE.match(output):
            found.append((path, file_text(output)))
    return found


def _read_path(arguments: str) -> str | None:
    """The file a Read's input names (`{"file_path": "…"}`), else None."""
    try:
        parsed = json.loads(arguments)
    except ValueError:
        return None
    path = parsed.get("file_path", parsed.get("filePath")) if isinstance(parsed, dict) else None
    return path if isinstance(path, str) and path else None


def _numbered_run(text: str) -> str:
    """The numbered lines `text` opens with (`     1→…`), up to the first line without one."""
    lines: list[str] = []
    for line in text.splitlines():
        if not _NUMBERED.match(line):
            break
        lines.append(line)
    return "\n".join(lines)


def read_output(event: StoredEvent) -> str | None:
    """The output of a successful file read, or None for any other event. An instruction file
    the host loaded into the session itself (`loaded_file`, Codex's `AGENTS.md`, a sub-folder's
    `CLAUDE.md`) is a whole read of that file: the session had its text as a Read would give it.
    """
    content: dict[str, Any] = event.content
    loaded = loaded_text(event)
    if loaded is not None:
        return loaded
    output = content.get("output")
    if (
        event.event_type != EventType.TOOL_RESULT
        or content.get("tool") not in READ_TOOLS
        or content.get("is_error")
        or not isinstance(output, str)
    ):
        return None
    return unwrapped_read(output)


def loaded_text(event: StoredEvent) -> str | None:
    """The text of an instruction file the host put into the transcript, else None."""
    content: dict[str, Any] = event.content
    text = content.get("text")
    if (
        event.event_type != EventType.USER_MESSAGE
        or event.origin != str(Origin.HARNESS)
        or not isinstance(content.get(LOADED_FILE), str)
        or not isinstance(text, str)
    ):
        return None
    return text


def from_first_line(output: str) -> bool:
    """Whether a read's output starts at the file's first line (or is not numbered at all)."""
    return bool(_FIRST_LINE.match(output)) or not _NUMBERED.match(output)


def partial_read(event: StoredEvent) -> bool:
    """Whether a read's result says it returned only part of the file (`partial`, with the
    `lines` it returned): a Read with an offset or limit, `head -n 40 f`, `sed -n '1,80p' f`."""
    return event.content.get("partial") is True


def cut_at_ingest(event: StoredEvent) -> bool:
    """Whether ingest cut the read's long output: the file went on past the mark."""
    output = event.content.get("output")
    return isinstance(output, str) and _INGEST_CUT.search(output[-80:]) is not None


def whole_read_output(event: StoredEvent) -> str | None:
    """The output of a successful file read of the whole file (from its first line, not said
    to be partial), else None."""
    output = read_output(event)
    if output is None or partial_read(event) or not from_first_line(output):
        return None
    return output


def head_read_text(event: StoredEvent) -> str | None:
    """The file text a successful read from the file's first line shows, else None. A partial
    read's text ends at its last blank line, so a paragraph, table or recipe the read cut short
    is not taken for the whole of it; what the read did not reach is never read as absent."""
    output = read_output(event)
    if output is None or not from_first_line(output):
        return None
    text = file_text(output)
    if not partial_read(event):
        return text
    lines = text.splitlines()
    blank = max((i for i, line in enumerate(lines) if not line.strip()), default=0)
    return "\n".join(lines[:blank])


def numbered_lines(output: str) -> list[tuple[int, str]]:
    """(line number, text) of a Read tool's output: its own numbering when at least half its
    lines carry one, else counted from 1 when it starts at the file's first line; none else."""
    lines = output.splitlines()
    numbered = [(m, line) for line in lines if (m := _NUMBERED.match(line))]
    if numbered and len(numbered) >= len(lines) // 2:
        return [(int(m["line"]), line[m.end() :]) for m, line in numbered]
    return list(enumerate(lines, 1)) if from_first_line(output) else []


def file_text(output: str) -> str:
    """A Read tool's output as the file's text: line-number prefixes and injected reminders
    removed (output without numbering is returned as it is)."""
    text = _REMINDER.sub("", output[:MAX_READ_CHARS])
    lines = text.splitlines()
    numbered = sum(1 for line in lines if _NUMBERED.match(line))
    if not lines or numbered < max(1, len(lines) // 2):
        return text
    return "\n".join(_NUMBERED.sub("", line, count=1) for line in lines)


def listing_output(event: StoredEvent) -> str | None:
    """The output of a listing or a search (a Glob, LS or Grep result, or a command run with
    `ls`, `find`, `git`, `grep` … in it, behind a prefix program or not:
    `squirrel_core.prefix_programs`), or None for any other event."""
    content: dict[str, Any] = event.content
    output = content.get("output")
    if not isinstance(output, str):
        return None
    if event.event_type == EventType.TOOL_RESULT:
        return output if content.get("tool") in LISTING_TOOLS else None
    command = content.get("command")
    if event.event_type not in (EventType.COMMAND_RUN, EventType.TEST_RUN):
        return None
    if not isinstance(command, str):
        return None
    programs = {
        behind_prefix(tokens, LISTERS)[0]  # `<wrapper> ls -la` lists as `ls -la` does
        for part in split_segments(command)
        if (tokens := core_tokens(part))
    }
    return output if programs & LISTERS else None


def shell_read_paths(event: StoredEvent) -> list[str]:
    """The files a command that ran cleanly printed by name (`cat a.ts`, `sed -n 1,40p a.ts`,
    `head -50 src/b.py`), as the command named them; [] for any other event."""
    content: dict[str, Any] = event.content
    command = content.get("command")
    if event.event_type != EventType.COMMAND_RUN or not isinstance(command, str):
        return []
    if content.get("is_error") is True or content.get("exit_code") not in (None, 0):
        return []
    return [name for part in split_segments(command) for name in step_read_paths(core_tokens(part))]


def step_read_paths(tokens: list[str]) -> list[str]:
    """The files one simple command (its words, `core_tokens`) prints by name, as it names
    them: `cat a.ts`, `sed -n 1,40p a.ts`; [] for a command that is not such a reader."""
    if not tokens or tokens[0] not in SHELL_READERS:
        return []
    arguments = _sed_files(tokens[1:]) if tokens[0] == "sed" else tokens[1:]
    return [t for t in arguments if PATH_ARGUMENT.match(t) and not t.startswith("-")]


def _sed_files(arguments: list[str]) -> list[str]:
    """The files a `sed` call prints: its script left out, whatever slashes it holds (the first
    operand, `s/foo/bar/g`, unless `-e`/`-f` gave it; a script file `-f` names is not shown);
    none when it edits them in place (`-i`)."""
    if any(a == "--in-place" or a.startswith(("-i", "--in-place=")) for a in arguments):
        return []
    files: list[str] = []
    scripted = False
    skip = False
    for argument in arguments:
        if skip:
            skip = False
        elif argument in ("-e", "--expression", "-f", "--file"):
            scripted = skip = True
        elif argument.startswith(("--expression=", "--file=")) or (
            argument[:2] in ("-e", "-f") and len(argument) > 2
        ):
            scripted = True
        elif argument.startswith("-"):
            continue
        elif not scripted:
            scripted = True  # the first operand is the script
        else:
            files.append(argument)
    return files


def printed_paths(events: Iterable[StoredEvent]) -> dict[str, str]:
    """Project paths a listing or a search printed (one per line, `path` or `path:line:…`),
    each with the event that printed it; any other output (a build's, a test run's, a file's
    text) lists nothing, whatever its lines start with."""
    found: dict[str, str] = {}
    for event in events:
        output = listing_output(event)
        if output is None or event.content.get("is_error") is True:
            continue
        folder = _listed_folder(event)
        # `cd tests/fixtures/site && ls`: the names printed are that folder's, not the root's;
        # after a `cd` out of the project (or to a folder a variable names) they are no one's.
        base = _moved_into(event)
        if base is None:
            continue
        for line in output.splitlines()[:2000]:
            word = line.strip().split(":", 1)[0]
            if folder is not None and line.rstrip().endswith(":") and " " not in word:
                folder = word  # `ls a b`, `ls -R a`: the names below are `a`'s
            elif folder and "/" not in word:
                word = f"{folder.rstrip('/')}/{word}"
            if base and word and not word.startswith(("/", "~")):
                word = f"{base}/{word.removeprefix('./')}"
            if not word or " " in word or outside_root(word, event.project_id):
                continue
            rel = relative_path(word, event.project_id).removeprefix("./").rstrip("/")
            if not rel or rel.startswith("/") or ".." in rel.split("/"):
                continue
            found.setdefault(rel, event.id)
            for parent in PurePosixPath(rel).parents:
                if str(parent) != ".":
                    found.setdefault(str(parent), event.id)
    return found


def _moved_into(event: StoredEvent) -> str | None:
    """The project folder a command's line moves into before it lists (`cd web && ls`,
    `cd tests/fixtures/site && ls && ls blog`): its first segment's `cd` to a relative folder
    inside the project; "" when it opens otherwise; None when it moves out of the project or
    to a folder it does not name plainly (`cd /tmp`, `cd ..`, `cd $HOME`)."""
    command = event.content.get("command")
    parts = split_segments(command) if isinstance(command, str) else []
    tokens = core_tokens(parts[0]) if len(parts) > 1 else []
    if len(tokens) != 2 or tokens[0] != "cd":
        return ""
    folder = tokens[1].removeprefix("./").rstrip("/")
    if folder == event.project_id.rstrip("/"):
        return ""
    if folder.startswith("/") and not outside_root(folder, event.project_id):
        folder = relative_path(folder, event.project_id).removeprefix("./").rstrip("/")
        return None if folder.startswith("/") else folder
    if not folder or folder.startswith(("/", "~", "-", "$")) or ".." in folder.split("/"):
        return None
    return folder


def _listed_folder(event: StoredEvent) -> str | None:
    """For a command that is one `ls`, the folder whose entries its bare names are: its one
    folder argument ("" for the shell's own folder); None for any other listing or search,
    whose lines name paths whole."""
    command = event.content.get("command")
    parts = split_segments(command) if isinstance(command, str) else []
    if len(parts) == 2 and core_tokens(parts[0])[:1] == ["cd"]:
        parts = parts[1:]  # `cd web && ls src`: the `ls` names a folder of `web`
    tokens = core_tokens(parts[0]) if len(parts) == 1 else []
    if not tokens or tokens[0] != "ls":
        return None
    named = [t for t in tokens[1:] if not t.startswith("-")]
    if len(named) > 1 or any(c in "".join(named) for c in "*?["):
        return "" if len(named) > 1 else None
    return named[0] if named and named[0] not in (".", "./") else ""


def shown_paths(events: Iterable[StoredEvent]) -> dict[str, str]:
    """The project paths `events` showed: those a listing or a search printed and the files a
    command printed by name (`sed -n 1,40p src/a.ts`), each with the event that showed it."""
    events = list(events)
    shown = printed_paths(events)
    for event in events:
        for named in shell_read_paths(event):
            if not outside_root(named, event.project_id):
                rel = relative_path(named, event.project_id).removeprefix("./")
                shown.setdefault(rel, event.id)
    return shown


#: A shell line's simple commands, pipes kept: split on `&&`, `||`, `;` and newlines.
_LINE_PARTS = re.compile(r"\s*(?:&&|\|\||;|\n)\s*")
#: Programs that print their arguments: a marker between the files a line prints.
_ECHOES = frozenset({"echo", "printf"})
#: `sed -n '1,40p'` (or `1p`): lines from the file's first.
_SED_FROM_TOP = re.compile(r"^1(?:,\d+)?p$")


def _shown_from_top(tokens: list[str], piped: str) -> tuple[str, bool] | None:
    """(file, whether the whole of it) when one simple command prints a file from its first
    line: `cat f` (whole unless piped into `head`), `head [-n N] f`, `sed -n '1,Np' f`."""
    program, arguments = tokens[0], tokens[1:]
    files = [a for a in arguments if PATH_ARGUMENT.match(a) and not a.startswith("-")]
    if program == "cat" and len(files) == 1 and len(arguments) == 1:
        return files[0], not piped.lstrip().startswith(("head", "sed"))
    if program == "head" and len(files) == 1:
        return files[0], False
    if program == "sed" and "-n" in arguments and len(files) == 1:
        scripts = [a for a in arguments if _SED_FROM_TOP.match(a)]
        return (files[0], False) if scripts else None
    return None


def shown_file_texts(event: StoredEvent) -> list[tuple[str, str]]:
    """(file as the command named it, the text it shows from the file's first line) for each
    file a command that ran cleanly at the project root printed: a lone reader's whole output
    (`cat README.md`, `head -40 src/lib.rs`), or, on a line that prints markers between files
    (`ls src; echo ---; cat src/lib.rs; echo ---main---; head -20 src/main.rs`), the output
    between one marker and the next when one reader ran there. A text cut short (`head`, a
    `sed` range) ends at its last blank line, as a partial read's does."""
    content: dict[str, Any] = event.content
    command, output = content.get("command"), content.get("output")
    if event.event_type not in (EventType.COMMAND_RUN, EventType.TEST_RUN):
        return []
    if content.get("is_error") is True or content.get("exit_code") not in (None, 0):
        return []
    if not isinstance(command, str) or not isinstance(output, str) or not output.strip():
        return []
    parts: list[tuple[list[str], str]] = []
    for raw in _LINE_PARTS.split(command.strip()):
        head, _, piped = raw.partition(" | ")
        tokens = core_tokens(head.strip().lstrip("(").rstrip(")"))
        if tokens:
            parts.append((tokens, piped))
    if any(tokens[0] in ("cd", "pushd") for tokens, _ in parts):
        return []  # another folder's files
    # The output between the markers: chunks[i] is what ran after the i-th echo.
    chunks: list[list[str]] = [[]]
    markers = [" ".join(tokens[1:]).strip() for tokens, _ in parts if tokens[0] in _ECHOES]
    lines = output[:MAX_READ_CHARS].splitlines()
    at = 0
    for line in lines:
        if at < len(markers) and line.strip() == markers[at] and markers[at]:
            chunks.append([])
            at += 1
        else:
            chunks[-1].append(line)
    if at != len(markers):
        return []  # a marker not found: the output is not split as the line says
    shown: list[tuple[str, str]] = []
    group: list[tuple[list[str], str]] = []
    index = 0
    for tokens, piped in [*parts, (["echo"], "")]:
        if tokens[0] not in _ECHOES:
            group.append((tokens, piped))
            continue
        readers = [r for t, p in group if (r := _shown_from_top(t, p)) is not None]
        if len(group) == 1 and len(readers) == 1 and index < len(chunks):
            path, whole = readers[0]
            text = "\n".join(chunks[index])
            if not whole:
                kept = text.splitlines()
                text = "\n".join(
                    kept[: max((i for i, x in enumerate(kept) if not x.strip()), default=0)]
                )
            if text.strip():
                shown.append((path, text))
        group = []
        index += 1
    return shown
