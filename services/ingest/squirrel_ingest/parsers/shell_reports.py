"""The reports hosts wrap a shell command's output in, and the exit code they carry.

Codex opens its answer with header lines (`Exit code: 1`, `Wall time: …`, … then `Output:`);
Gemini CLI's `run_shell_command` wraps the output in `Command:` / `Directory:` lines before it
and `Error:` / `Exit Code:` / `Process Group PGID:` lines after it (later versions drop the
head and keep only the tail lines that say something, always closing on the PGID line). Each
decoder returns what the command printed, as a shell tool's result reads elsewhere, and any
other text unchanged.
"""

from __future__ import annotations

import json
import re

from squirrel_ingest.parsers.base import text_of

_CODEX_EXITED = re.compile(r"(?:Process exited with code|Exit code:?) (-?\d{1,9})\b")
_CODEX_RUNNING = re.compile(r"Process running with session ID")
# The lines a Codex shell answer opens with before `Output:` and what the command printed.
_CODEX_HEADER = re.compile(
    r"(?:Exit code:? -?\d{1,9}|Wall time:? .*|Total output lines: \d+|Chunk ID: .*"
    r"|Process exited with code -?\d{1,9}|Process running with session ID .*"
    r"|Original token count: \d+)"
)
_CODEX_HEADER_LIMIT = 6
# Codex's own note that it cut a long output, on the first line after `Output:` then a blank one.
_TOTAL_LINES = re.compile(r"\ATotal output lines: \d+\n\n")
#: How far into a report the exit code or the still-running notice is looked for.
_SCAN_CHARS = 2_000

_GEMINI_EXIT_CODE = re.compile(r"Exit Code: (-?\d{1,9})\b")
# After the output (`Output:`, or `Stdout:` then `Stderr:`), one line each of these.
_GEMINI_TAIL = ("Error: ", "Exit Code: ", "Signal: ", "Background PIDs: ", "Process Group PGID: ")
_GEMINI_STREAMS = ("Output: ", "Stdout: ", "Stderr: ")
_NOTHING = frozenset({"(empty)", "(none)", ""})


def codex_exit_code(report: str) -> int | None:
    """The exit code a Codex shell answer states near its top, or `None`."""
    match = _CODEX_EXITED.search(report[:_SCAN_CHARS])
    return int(match.group(1)) if match else None


def codex_still_running(report: str) -> bool:
    """Whether a Codex shell answer says the command is still running in a session."""
    return _CODEX_RUNNING.search(report[:_SCAN_CHARS]) is not None


def codex_output(report: str) -> str:
    """What a shell command printed, without the header lines Codex puts before `Output:` nor
    the `Total output lines: N` note (then a blank line) it may open the output with."""
    lines = report.split("\n", _CODEX_HEADER_LIMIT + 1)
    for index, line in enumerate(lines[: _CODEX_HEADER_LIMIT + 1]):
        if line == "Output:":
            return _TOTAL_LINES.sub("", "\n".join(lines[index + 1 :]), count=1) if index else report
        if not _CODEX_HEADER.fullmatch(line):
            return report
    return report


#: How Codex answers for a command that failed in its sandbox: "failed in sandbox: <output>",
#: "failed in sandbox MacosSeatbelt with execution error: sandbox denied exec error, exit code:
#: 1, stdout: …, stderr: …".
_SANDBOX_FAILED = "failed in sandbox"
_SANDBOX_EXIT = re.compile(r"\bexit code: (\d+)\b")


def codex_answer(raw: object, *, scan_text: bool) -> tuple[str, int | None, bool | None]:
    """Output text, exit code and failure flag from the output shapes Codex has used."""
    if isinstance(raw, dict) and "success" in raw:
        return text_of(raw.get("content")), None, raw.get("success") is False
    if not isinstance(raw, str):
        return text_of(raw), None, None
    text = raw
    exit_code: int | None = None
    if raw.startswith("{") and '"output"' in raw[:200]:
        try:
            wrapped = json.loads(raw)
        except (ValueError, RecursionError):
            wrapped = None
        if isinstance(wrapped, dict) and isinstance(wrapped.get("output"), str):
            text = wrapped["output"]
            metadata = wrapped.get("metadata")
            code = metadata.get("exit_code") if isinstance(metadata, dict) else None
            exit_code = code if isinstance(code, int) and not isinstance(code, bool) else None
    if exit_code is None and scan_text:
        exit_code = codex_exit_code(text)
    if text.startswith(_SANDBOX_FAILED):
        # Codex's own line for a command its sandbox stopped or that failed inside it.
        code = _SANDBOX_EXIT.search(text.split("\n", 1)[0])
        return text, int(code.group(1)) if code and exit_code is None else exit_code, True
    return text, exit_code, None


def gemini_exit_code(report: str) -> int | None:
    """The `Exit Code:` a Gemini CLI shell report states, or `None`."""
    match = _GEMINI_EXIT_CODE.search(report)
    return int(match.group(1)) if match else None


def gemini_output(report: str) -> str:
    """What the command printed, out of the report `run_shell_command` answers with (whole, or
    in the later short form that opens on `Output:` and closes on `Process Group PGID:`): the
    output itself, then an `Error:` that is not `(none)`."""
    lines = report.split("\n")
    if lines[0].startswith("Command: "):
        start = 2 if len(lines) > 1 and lines[1].startswith("Directory: ") else 1
    elif lines[0].startswith(_GEMINI_STREAMS) and lines[-1].startswith("Process Group PGID: "):
        # The shorter report of later versions: no `Command:`/`Directory:` head, and only the
        # lines that say something (`Exit Code:` when not 0) before the closing PGID line.
        start = 0
    else:
        return report
    end = len(lines)
    while end > start and lines[end - 1].startswith(_GEMINI_TAIL):
        end -= 1
    body = lines[start:end]
    if end == len(lines) or not body or not body[0].startswith(_GEMINI_STREAMS):
        return report
    parts: list[list[str]] = []
    for line in body:
        label = next((name for name in _GEMINI_STREAMS if line.startswith(name)), None)
        if label is not None and (not parts or label != "Output: "):
            parts.append([line[len(label) :]])
        else:
            parts[-1].append(line)
    texts = ["\n".join(part) for part in parts]
    errors = [line[len("Error: ") :] for line in lines[end:] if line.startswith("Error: ")]
    kept = [text for text in [*texts, *errors] if text.strip() not in _NOTHING]
    return "\n".join(kept)
