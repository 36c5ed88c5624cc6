"""Pitfalls: a command that failed then passed after a change, and the error's fingerprint."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from squirrel_memory.extractors.activity import MAX_OUTPUT_SCAN_CHARS, CommandRun

MAX_FINGERPRINT_CHARS = 160

_EXCEPTION_LINE = re.compile(
    r"^(?:E\s+)?(?P<cls>[A-Za-z_][\w.]*(?:Error|Exception|Exit|Failure|Warning|Interrupt))"
    r"(?::\s*(?P<msg>.*))?$"
)
_ERROR_LINE = re.compile(
    r"(?:\b(?i:error)(?:\[[\w-]+\])?:|\bERROR\b|\bFAILED\b|\bfatal:|command not found|"
    r"No such file or directory|\bpanic:|\bFAIL\b|✗|\berror\s+TS\d+|\b[A-Z]{1,3}\d{3,4}\b)",
)
_SKIP_LINE = re.compile(
    r"^(?:[=_-]+.*[=_-]+|\s*\^+\s*|WARN .*pre-release.*|\s*\|.*|Traceback.*|…?\[truncated.*\])$"
)
_LOCATION_PREFIX = re.compile(r"^(?:\S+:\d+(?::\d+)?\s*[-:]?\s*)")
_PATH = re.compile(r"(?:[A-Za-z]:)?(?:[\w.~-]*/)+[\w.@-]+")
_HEX = re.compile(r"\b0x[0-9a-fA-F]+\b|\b[0-9a-f]{7,40}\b")
_NUMBER = re.compile(r"\b\d+(?:\.\d+)?\b")
_SPACES = re.compile(r"\s+")


def _first_error_line(output: str) -> str:
    lines = [line.strip() for line in output[:MAX_OUTPUT_SCAN_CHARS].splitlines()]
    lines = [line for line in lines if line and not _SKIP_LINE.match(line)]
    for line in lines:
        if _EXCEPTION_LINE.match(line):
            return line
    for line in lines:
        if _ERROR_LINE.search(line):
            return line
    return ""


def error_fingerprint(output: str) -> str:
    """The first meaningful error line of `output`, with paths, hex ids and numbers normalised.

    Python exception lines (`ImportError: cannot import name …`) win over generic `error:` /
    `FAILED` / lint-code lines. Empty when no line looks like an error.
    """
    line = _first_error_line(output)
    if not line:
        return ""
    line = re.sub(r"^E\s+", "", line)
    if not _EXCEPTION_LINE.match(line):
        line = _LOCATION_PREFIX.sub("", line, count=1) if _PATH.match(line) else line
    line = _PATH.sub("<path>", line)
    line = _HEX.sub("<hex>", line)
    line = _NUMBER.sub("<n>", line)
    line = _SPACES.sub(" ", line).strip()
    return line[:MAX_FINGERPRINT_CHARS]


def fingerprint_key(fingerprint: str) -> str:
    """`pitfall:<slug>-<hash>`: readable, and equal for equal fingerprints."""
    slug = re.sub(r"[^a-z0-9]+", "-", fingerprint.lower().replace("<n>", "").replace("<path>", ""))
    slug = slug.strip("-")[:40].rstrip("-") or "error"
    digest = hashlib.sha256(fingerprint.encode()).hexdigest()[:8]
    return f"pitfall:{slug}-{digest}"


@dataclass(frozen=True, slots=True)
class FixedFailure:
    """A failing run, the later passing run of the same command, and what ran in between."""

    failed: CommandRun
    passed: CommandRun
    fingerprint: str
    between_event_ids: tuple[str, ...]


def _same_command(failed: CommandRun, passed: CommandRun) -> bool:
    """Equal normalised commands, or a passing broader run (`pytest`) of a failing narrow one."""
    if failed.normalized == passed.normalized:
        return True
    fail_words, pass_words = failed.normalized.split(), passed.normalized.split()
    return (
        bool(pass_words)
        and len(pass_words) < len(fail_words)
        and fail_words[: len(pass_words)] == pass_words
    )


def fixed_failures(runs: list[CommandRun]) -> list[FixedFailure]:
    """Each failing command that later passes, paired with its first later passing run.

    Only the first failure of a run of identical failures is reported (its fingerprint is
    what the user hit first).
    """
    found: list[FixedFailure] = []
    claimed: set[str] = set()
    for i, failed in enumerate(runs):
        if failed.ok is not False or failed.event_id in claimed:
            continue
        for j in range(i + 1, len(runs)):
            passed = runs[j]
            if passed.ok and _same_command(failed, passed):
                between = runs[i + 1 : j]
                claimed.update(r.event_id for r in between if _same_command(r, passed))
                found.append(
                    FixedFailure(
                        failed=failed,
                        passed=passed,
                        fingerprint=error_fingerprint(failed.output)
                        or f"{failed.normalized[:60]}: non-zero exit",
                        between_event_ids=tuple(r.event_id for r in between),
                    )
                )
                break
    return found
