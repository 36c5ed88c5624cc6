"""Read commands, their outcomes, user requests and touched files out of stored events."""

from __future__ import annotations

import functools
import re
import shlex
from dataclasses import dataclass
from datetime import datetime
from pathlib import PurePosixPath
from typing import Any

from squirrel_core.events import EventType, Origin, is_user_voice
from squirrel_core.shell_words import MAX_LINE_CHARS
from squirrel_memory.models import StoredEvent

#: How much command output is scanned for an error line; outputs are capped upstream anyway.
MAX_OUTPUT_SCAN_CHARS = 20_000

_NOISE_PREFIXES = (
    "caveat: the messages below were generated",
    "<command-name>",
    "<command-message>",
    "<local-command-stdout>",
    "<local-command-stderr>",
    "<bash-stdout>",
    "<bash-stderr>",
    "<system-reminder>",
    "[request interrupted",
    "this session is being continued from a previous conversation",
)
#: Context an IDE or harness injects into a user turn; not something the user wrote.
_CONTEXT_TAGS = re.compile(
    r"<(ide_[a-z_]+|system-reminder)>.*?(?:</\1>|$)", re.DOTALL | re.IGNORECASE
)
_BASH_INPUT = re.compile(r"^\s*<bash-input>(.*?)</bash-input>\s*$", re.DOTALL)

#: Tokens that only wrap the real tool (`uv run pytest` is pytest run through uv).
_RUNNER_PREFIXES: tuple[tuple[str, ...], ...] = (
    ("uv", "run"),
    ("poetry", "run"),
    ("pipenv", "run"),
    ("pdm", "run"),
    ("hatch", "run"),
    ("rye", "run"),
    ("pnpm", "exec"),
    ("yarn", "exec"),
    ("bundle", "exec"),
    ("python", "-m"),
    ("python3", "-m"),
    ("uvx",),
    ("npx",),
    ("bunx",),
    ("pnpx",),
    ("sudo",),
    ("time",),
)
_ENV_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
#: Builtins whose operands set shell variables (`export A=1`): those assignments are environment.
_DECLARES = frozenset({"export", "declare", "local", "readonly", "typeset", "alias"})
#: `env` options whose value is the next word.
_ENV_VALUED_OPTIONS = frozenset({"-u", "--unset", "-C", "--chdir", "-S", "--split-string"})
#: A word a command can start with (not a redirection or a pipe).
_COMMAND_WORD = re.compile(r"^[\w./~+@-]")
_REDIRECTION = re.compile(r"^\d?>>?|^<|^2>&1$")
#: Commands up to this long are cached by `normalize_command`.
_CACHED_COMMAND_CHARS = 2_000
_SEGMENT_SPLIT = re.compile(r"(?:(?<!\s)\s+)?(?:&&|\|\||;|\n)\s*")


@dataclass(frozen=True, slots=True)
class CommandRun:
    """One shell command with its outcome (`ok` is None while the outcome is unknown)."""

    event_id: str
    timestamp: datetime
    command: str
    ok: bool | None
    output: str
    by_user: bool = False
    session_id: str | None = None
    #: The folder the shell was in, when the transcript says.
    cwd: str | None = None

    @property
    def segments(self) -> list[list[str]]:
        """The command split into simple commands, each tokenised, wrappers and env removed."""
        return [tokens for part in split_segments(self.command) if (tokens := core_tokens(part))]

    @property
    def normalized(self) -> str:
        """A stable form used to tell whether two runs are "the same command"."""
        return normalize_command(self.command)


def split_segments(command: str) -> list[str]:
    """Split a shell line on `&&`, `||`, `;` and newlines, dropping pipes' right-hand sides."""
    parts: list[str] = []
    for raw in _SEGMENT_SPLIT.split(command.strip()):
        head = raw.split(" | ", 1)[0].strip().lstrip("(").rstrip(")").strip()
        if head:
            parts.append(head)
    return parts


def _tokenize(text: str) -> list[str]:
    """The words of `text` as a POSIX shell reads them. A quote left open (the first line of a
    here-document or a multi-line string: `--title "fix: x" --body "$(cat <<'EOF'`) ends the
    text with what it has read so far as one last word, so the words before it keep their
    quotes' grouping. Like every shell line, it is read up to `MAX_LINE_CHARS` (the lexer
    takes time that grows with the square of a word's length)."""
    lexer = shlex.shlex(text[:MAX_LINE_CHARS], posix=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    words: list[str] = []
    try:
        words.extend(lexer)
    except ValueError:
        if lexer.token:
            words.append(lexer.token)
    return words


def core_tokens(segment: str) -> list[str]:
    """Tokens of one simple command without its environment, redirections and runner wrappers.

    The environment is the assignments before the program (`CI=1 npm test`, `sudo A=1 cmd`)
    and `env …`'s own, and the operands of a builtin that sets variables (`export A=1`). An
    assignment after the program is one of its arguments and stays: `make CC=clang test`,
    `npm pkg set license=MIT`, `pip install black==24.3.0`, `terraform apply -var env=prod`
    are other commands than `make test`, `npm pkg set`, `pip install` or `terraform apply -var`.
    """
    tokens = _past_assignments(_tokenize(segment))
    if tokens and tokens[0] == "env":
        tokens = _after_env(tokens)
    tokens = [t for t in tokens if not _REDIRECTION.match(t)]
    changed = True
    while changed and tokens:
        changed = False
        for prefix in _RUNNER_PREFIXES:
            if len(tokens) > len(prefix) and tuple(tokens[: len(prefix)]) == prefix:
                tokens = _past_assignments(tokens[len(prefix) :])
                changed = True
                break
    if tokens and tokens[0] in _DECLARES:
        return [tokens[0], *(t for t in tokens[1:] if not _ENV_ASSIGNMENT.match(t))]
    return tokens


def _past_assignments(tokens: list[str]) -> list[str]:
    """`tokens` past the environment assignments they open with; none left when only
    assignments were given (`A=1`: the shell sets a variable, no command runs)."""
    n = 0
    while n < len(tokens) and _ENV_ASSIGNMENT.match(tokens[n]):
        n += 1
    return tokens[n:]


def _after_env(tokens: list[str]) -> list[str]:
    """The command `env [options] [NAME=value …] command …` runs (the options that take a
    value — `-u NAME`, `-C DIR`, `-S STRING` — skipped with it); the tokens as they are when it
    runs none (`env`, `env > file`, `env | sort`, `env A=1`)."""
    rest = tokens[1:]
    while rest and rest[0].startswith("-") and rest[0] != "--":
        option = rest.pop(0)
        if option in _ENV_VALUED_OPTIONS and rest:
            rest.pop(0)
    if rest and rest[0] == "--":
        rest.pop(0)
    rest = _past_assignments(rest)
    if not rest or not _COMMAND_WORD.match(rest[0]) or _REDIRECTION.match(rest[0]):
        return [t for t in tokens if not _ENV_ASSIGNMENT.match(t)]
    return rest


def normalize_command(command: str) -> str:
    """Drop `cd …` steps, env, wrappers, flags and directories so reruns compare equal.

    `cd test && uv run pytest /abs/test/test_x.py -xvs` and `uv run pytest test/test_x.py -v`
    both become `pytest test_x.py`. Ordinary commands are cached (every pass sees them again);
    a huge one is not kept.
    """
    if len(command) <= _CACHED_COMMAND_CHARS:
        return _normalize_cached(command)
    return _normalize(command)


@functools.lru_cache(maxsize=4096)
def _normalize_cached(command: str) -> str:
    return _normalize(command)


def _normalize(command: str) -> str:
    words: list[str] = []
    for tokens in (core_tokens(part) for part in split_segments(command)):
        if not tokens or tokens[0] == "cd":
            continue
        for token in tokens:
            if token.startswith("-"):
                continue
            words.append(PurePosixPath(token).name if "/" in token else token)
    return " ".join(words)[:300]


def event_text(event: StoredEvent) -> str:
    """The `text` of a message-like event, or an empty string."""
    value = event.content.get("text")
    return value if isinstance(value, str) else ""


def typed_command(event: StoredEvent) -> str | None:
    """The command the user typed into the assistant (`!cmd`, a `<bash-input>` message), when
    `event` is one."""
    if event.event_type != EventType.USER_MESSAGE or not is_user_voice(event.origin):
        return None
    match = _BASH_INPUT.match(event_text(event))
    return (match.group(1).strip() or None) if match else None


def is_noise_text(text: str) -> bool:
    """True for transcript plumbing that is not something the user said."""
    stripped = text.strip().lower()
    return not stripped or stripped.startswith(_NOISE_PREFIXES)


def user_words(event: StoredEvent) -> str:
    """The words of a user-voice message without injected context; empty when only plumbing
    is left (older rows were stored with reminders and IDE context inline)."""
    text = _CONTEXT_TAGS.sub(" ", event_text(event)).strip()
    return "" if is_noise_text(text) else text


def user_requests(events: list[StoredEvent]) -> list[tuple[StoredEvent, str]]:
    """What the user said, in order: user messages whose origin is the user's voice (typed,
    queued, slash-command arguments, answers). Subagent prompts, compaction summaries, host and
    hook text never count, whatever they say."""
    found: list[tuple[StoredEvent, str]] = []
    for event in events:
        if event.event_type != EventType.USER_MESSAGE or not is_user_voice(event.origin):
            continue
        text = user_words(event)
        if not text or _BASH_INPUT.match(text):
            continue
        found.append((event, text))
    return found


_FAILURE_WORDS = re.compile(
    r"error|fail|fatal|denied|not found|no such|exception|traceback|timed out|timeout|killed|"
    r"terminated|cannot|can't|unable|invalid|refused|abort|panic|warn|blocked|not permitted",
    re.IGNORECASE,
)
#: A tool call the user declined or interrupted did not run: it neither failed nor passed
#: (Claude Code's words; Codex's "exec command rejected by user"; Gemini CLI's cancelled call).
_DECLINED = re.compile(
    r"doesn't want to proceed with this tool use|tool use was rejected|"
    r"^(?:exec command|patch) rejected by user\b|^\[Operation Cancelled\]|"
    r"^\[Request interrupted by user",
    re.IGNORECASE | re.MULTILINE,
)


def _declined_with_feedback(event: StoredEvent) -> bool:
    """The user declining a Claude Code call with a message: the call did not run. The message
    is stored as the call's error, with no exit code; it is one line of prose, where a failed
    command prints output or an error line."""
    if event.source_tool != "claude_code" or event.content.get("exit_code") is not None:
        return False
    output = event.content.get("output")
    if not isinstance(output, str):
        return False
    text = output.strip()
    return 0 < len(text) <= 400 and "\n" not in text and not _FAILURE_WORDS.search(text)


#: The exit status of a command stopped by an interrupt (128 + SIGINT).
INTERRUPTED_EXIT = 130


def _result_fields(content: dict[str, Any]) -> tuple[bool | None, str]:
    output = content.get("output")
    text = output if isinstance(output, str) else ""
    if _DECLINED.search(text[:2_000]):
        return None, text
    exit_code = content.get("exit_code")
    is_error = content.get("is_error")
    if isinstance(exit_code, int) and not isinstance(exit_code, bool):
        return exit_code == 0 and is_error is not True, text
    if isinstance(is_error, bool):
        return not is_error, text
    return None, text


def is_hook_failure(event: StoredEvent) -> bool:
    """A hook's or validator's report of a failure (stored as a tool result of origin hook)."""
    return (
        event.event_type == EventType.TOOL_RESULT
        and event.origin == str(Origin.HOOK)
        and event.content.get("is_error") is True
    )


def commands(events: list[StoredEvent]) -> list[CommandRun]:
    """Every command run in `events`, outcomes joined from tool results by `tool_use_id`.

    Commands the user typed into the assistant (`<bash-input>` messages) count too; their
    outcome is unknown. A hook or validator that reported a failure is a failed run of
    `hook:<name>`: its errors are the session's errors. A command launched in the background
    is one run: the one its end made when that is known, else the launch, outcome unknown.
    """
    results: dict[str, dict[str, Any]] = {}  # read only for the calls that are commands
    ended: set[str] = set()  # background commands whose end made a run
    for event in events:
        use_id = event.content.get("tool_use_id")
        if not isinstance(use_id, str):
            continue
        if event.event_type == EventType.TOOL_RESULT:
            results[use_id] = event.content
        elif _is_run(event) and event.content.get("background") is not True:
            ended.add(use_id)
    runs: list[CommandRun] = []
    for event in events:
        if _is_run(event):
            command = event.content.get("command")
            use_id = event.content.get("tool_use_id")
            launched = event.content.get("background") is True
            if (
                not isinstance(command, str)
                or not command.strip()
                or (launched and use_id in ended)
            ):
                continue
            ok, output = _result_fields(event.content)
            if ok is None and not launched and isinstance(use_id, str) and use_id in results:
                ok, output = _result_fields(results[use_id])
            if ok is False and _declined_with_feedback(event):
                ok = None
            if event.content.get("exit_code") == INTERRUPTED_EXIT:
                ok = None  # stopped by an interrupt (Ctrl-C): it neither failed nor passed
            cwd = event.content.get("cwd")
            runs.append(
                CommandRun(
                    event.id,
                    event.timestamp,
                    command.strip(),
                    ok,
                    output,
                    session_id=event.session_id,
                    cwd=cwd if isinstance(cwd, str) and cwd.startswith("/") else None,
                )
            )
        elif event.event_type == EventType.TOOL_RESULT and is_hook_failure(event):
            tool = event.content.get("tool")
            report = event.content.get("output")
            runs.append(
                CommandRun(
                    event.id,
                    event.timestamp,
                    tool if isinstance(tool, str) and tool.startswith("hook:") else "hook:unknown",
                    False,
                    report if isinstance(report, str) else "",
                    session_id=event.session_id,
                )
            )
        elif (typed := typed_command(event)) is not None:
            runs.append(
                CommandRun(
                    event.id,
                    event.timestamp,
                    typed,
                    None,
                    "",
                    by_user=True,
                    session_id=event.session_id,
                )
            )
    return runs


def _is_run(event: StoredEvent) -> bool:
    return event.event_type in (EventType.COMMAND_RUN, EventType.TEST_RUN)


def relative_path(path: str, project_id: str) -> str:
    """`path` relative to the project root when it lies inside it, else unchanged."""
    root = project_id.rstrip("/")
    if root and path.startswith(root + "/"):
        return path[len(root) + 1 :]
    return path


def in_folder(path: str, folder: str) -> bool:
    """Whether `path` is `folder` or lies inside it (`folder` with or without its final `/`)."""
    root = folder.rstrip("/")
    return path == root or path.startswith(root + "/")


def outside_project(run: CommandRun, root: str) -> bool:
    """Whether `run` worked outside the project folder `root`: its shell was elsewhere, or it
    changes into another folder first (`cd ../lib && …`, `pushd ~/src/other`, `cd /srv/x`)."""
    if run.cwd is not None and not in_folder(run.cwd, root):
        return True
    return any(
        tokens[0] in ("cd", "pushd")
        and len(tokens) > 1
        and (
            tokens[1].startswith(("..", "~"))
            or (tokens[1].startswith("/") and not in_folder(tokens[1], root))
        )
        for tokens in run.segments
        if tokens
    )


def changed_files(events: list[StoredEvent]) -> list[str]:
    """Project-relative paths written by code changes, first-seen order, no repeats."""
    seen: dict[str, None] = {}
    for event in events:
        if event.event_type != EventType.CODE_CHANGE:
            continue
        path = event.content.get("path")
        candidates = [path] if isinstance(path, str) else list(event.file_paths)
        for item in candidates:
            if item:
                seen.setdefault(relative_path(item, event.project_id), None)
    return list(seen)


def touched_files(events: list[StoredEvent]) -> list[str]:
    """Project-relative paths any event names (read, written or searched)."""
    seen: dict[str, None] = {}
    for event in events:
        for item in event.file_paths:
            if item:
                seen.setdefault(relative_path(item, event.project_id), None)
    return list(seen)


def has_failure_then_success(runs: list[CommandRun]) -> bool:
    """True when some command failed and the same command later passed."""
    failed: set[str] = set()
    for run in runs:
        if run.ok is False:
            failed.add(run.normalized)
        elif run.ok and run.normalized in failed:
            return True
    return False
