"""Error fingerprints: the first meaningful error line of a failed command, normalised; the line
that says a test run selected nothing; the first line printed, when no line looks like an error."""

from __future__ import annotations

import hashlib
import re

from squirrel_memory.extractors.activity import MAX_OUTPUT_SCAN_CHARS
from squirrel_memory.extractors.output_explanations import is_progress
from squirrel_memory.extractors.summary_lines import is_summary

MAX_FINGERPRINT_CHARS = 160

_EXCEPTION_LINE = re.compile(
    r"^(?:E\s+)?(?P<cls>[A-Za-z_](?:[\w.]|::)*(?:Error|Exception|Exit|Failure|Warning|Interrupt))"
    # (.NET writes a blank before the colon: `Microsoft.Data.Sqlite.SqliteException : …`)
    r"(?: ?:\s*(?P<msg>.*))?$"
    # Elixir and Erlang: `** (Postgrex.Error) FATAL 3D000 …`
    r"|^\*\* \((?P<ex_cls>[\w.]+)\)\s*(?P<ex_msg>.*)$"
)
_ERROR_LINE = re.compile(
    r"(?:\b(?i:error)(?:\[[\w-]+\])?:|\bERROR\b|\bFAILED\b|\bfatal:|command not found|"
    # A build tool's log line at an error level: `[error] (Compile / scalafmtCheck) …`.
    r"^\[(?i:error|severe|fatal)\]\s|"
    r"No such file or directory|\bpanic:|\bFAIL\b|✗|\berror\s+TS\d+|\b[A-Z]{1,3}\d{3,4}\b|"
    # A build engine's coded error (`… .targets(166,5): error NETSDK1045: …`).
    r"\berror [A-Z]{4,10}\d{3,5}: |"
    # A requirement a resolver could not meet: `- Root composer.json requires PHP extension
    # ext-intl * but it is missing from your system.`, `x 1.2 requires y>=2, but you have y 1.9`.
    r"\brequires? [^\n]{1,200}?,? but (?:it is missing|you have|it is not installed)\b|"
    # Compiler diagnostics: `./main.go:12:2: undefined: Foo`.
    r"^\.{0,2}/?[\w./-]+\.\w+:\d+:\d+:\s|"
    # Shell and parser errors: `./deploy.sh: line 28: syntax error near unexpected token`.
    r"^\S+: line \d+: |(?<![Nn]o )\bsyntax error\b|"
    # A POSIX shell's error, numbered by its line: `sh: 1: vendor/bin/phpunit: not found`.
    r"^(?:\S*/)?(?:ba|da|k|z)?sh: \d+: |"
    # Kotlin's compiler (`e: file:///src/A.kt:3:9 Unresolved reference: x`, and with no place:
    # `e: Inconsistent JVM-target compatibility detected …`) and R's
    # (`Error in `f(x)`: could not find function "f"`).
    r"^e: \S+:\d+|^e: [A-Z][a-z]+(?: \S+){2}|^Error in \S.*?: |"
    # A tool's error naming where it happened: `CMake Error at CMakeLists.txt:12 (find_package):`.
    r"\bError at \S+:\d+|"
    # A program's error, its name first: `docker: Error response from daemon: …`.
    r"^[a-z][\w.-]{1,30}: Error\b|"
    # What a tool looked for and did not find, said in a sentence: `A compatible SDK was not
    # found.`
    r"^(?:A|An|The|No) [^\n]{1,80}? (?:was|were) not found\b|"
    # An error raised, its class and place told first, its message on the next line:
    # `Execution error (FileNotFoundException) at app.core/load (core.clj:1).`
    r"^[A-Z][a-z]+ error \([\w.$]+\) at \S)",
)
#: The line that tells an error's class and place, its message on the next line.
_RAISED_AT = re.compile(r"^[A-Z][a-z]+ error \(([\w.$]+)\) at \S")
#: A line that only announces an error, the explanation is on a line after it: a heading with
#: nothing after its colon (`NoMethodError:`, `There was 1 error:`, `[ERROR] COMPILATION
#: ERROR :`, `error: [GHC-88464]`) or a build step's status (`> Task :compileKotlin FAILED`).
_HEADING = re.compile(r":\s*(?:\[[\w-]+\])?$|^> Task \S+ FAILED$")
#: Lines after a heading searched for the error it announces.
_HEADING_REACH = 4
_SKIP_LINE = re.compile(
    r"^(?:[=_-]+.*[=_-]+|\s*\^+\s*|WARN .*pre-release.*|\s*\|.*|Traceback.*|…?\[truncated.*\]"
    # A usage banner says how to call the program, not what went wrong: the error is the line
    # after it (`pytest: error: unrecognized arguments: -n`).
    r"|(?:ERROR:\s*)?(?i:usage):\s.*)$"
)
_LOCATION_PREFIX = re.compile(r"^(?:\S+:\d+(?::\d+)?\s*[-:]?\s*)")
#: A path, tried only where a run of path characters starts (a path inside the run would have
#: matched from its start), so a long run is read once, not once per character.
_PATH = re.compile(r"(?<![\w.~/-])(?:[A-Za-z]:)?(?:[\w.~-]*/)+[\w.@-]+")
#: A file named without its folder (`test_x.py::case`): the same file as `<path>` elsewhere.
_BARE_FILE = re.compile(
    r"(?<![\w<./-])[\w-]+\.(?:py|pyi|js|jsx|mjs|cjs|ts|tsx|go|rs|rb|ex|exs|java|kt|scala|cs|"
    r"php|swift|c|cc|cpp|h|hpp|dart|zig|vue|svelte|json|ya?ml|toml|md|sh|html|css)(?![\w])"
)
_HEX = re.compile(r"\b0x[0-9a-fA-F]+\b|\b[0-9a-f]{7,40}\b")
_NUMBER = re.compile(r"\b\d+(?:\.\d+)?\b")
_SPACES = re.compile(r"\s+")


def first_error_line(output: str) -> str:
    """The first meaningful error line of `output` as printed (empty when none looks like one)."""
    return _first_error_line(output)


#: The frame a tool draws around a diagnostic (`│ Error: Inconsistent dependency lock file`):
#: not part of what the line says.
_FRAME = "│┃║"


def _first_error_line(output: str) -> str:
    lines = [
        line.strip().lstrip(_FRAME).strip() for line in output[:MAX_OUTPUT_SCAN_CHARS].splitlines()
    ]
    lines = [line for line in lines if line and not _SKIP_LINE.match(line)]
    lines = _without_progress(lines)
    first = _chosen(lines, stated=False)
    if first and not is_summary(first):
        return first
    if not first and not any(is_summary(line) for line in lines):
        return ""
    # The line chosen only says that something failed (or none was chosen beside such a line):
    # a line that states the error itself says more; without one, the summary stays.
    return _chosen(lines, stated=True) or first


def _chosen(lines: list[str], *, stated: bool) -> str:
    """The first exception line, else the first error line, with what it announces; `stated`:
    one that states the error, never a summary, else a line `_STATED` knows (or "")."""
    for test in (_EXCEPTION_LINE.match, _ERROR_LINE.search):
        for n, line in enumerate(lines):
            if test(line) and not (stated and is_summary(line)):
                found = _explained(lines, n, stated=stated)
                if not (stated and is_summary(found)):
                    return found
    if not stated:
        return ""
    for n, line in enumerate(lines):
        if (_announced(lines, n) or _STATED.search(line)) and not is_summary(line):
            return _explained(lines, n, stated=True)
    return ""


def _without_progress(lines: list[str]) -> list[str]:
    """`lines` without progress lines, except what an announcer heads: Gradle's "> Unable to
    make field …" under "* What went wrong:" is the error, whose `> ` would make it a build
    step's banner (kept without it)."""
    kept: list[str] = []
    chained = False  # the last line kept is what an announcer heads, or a cause under it
    for n, line in enumerate(lines):
        nested = line.removeprefix("> ")
        if chained and nested != line and not is_summary(nested):
            # A cause nested under the failure told above it (`Could not resolve all files
            # …` then `> Could not find com.example:lib:1.0.`): the innermost is what went
            # wrong.
            kept[-1] = nested
        elif not is_progress(line):
            kept.append(line)
            chained = _announced(lines, n)
        elif _announced(lines, n):
            kept.append(nested)
            chained = True
        else:
            chained = False
    return kept


def _announced(lines: list[str], at: int) -> bool:
    """Whether the line at `at` is what an announcer ("* What went wrong:") heads, past the
    few summaries it opens with ("Execution failed for task ':test'.")."""
    for n in range(at - 1, max(at - 1 - _HEADING_REACH, -1), -1):
        if _ANNOUNCER.search(lines[n]):
            return True
        if not is_summary(lines[n]):
            return False
    return False


def _is_error(line: str) -> bool:
    return bool(_EXCEPTION_LINE.match(line) or _ERROR_LINE.search(line))


def _explained(lines: list[str], n: int, *, stated: bool = False) -> str:
    """The error line at `n`, or what it announces: the next error line within reach, else
    the heading with the line that follows it (`NoMethodError: undefined method …`). `stated`:
    a summary is never what it announces, and a located error with words of its own needs no
    more (`a.go:2:8: missing go.sum entry for module …; to add:`)."""
    line = lines[n]
    raised = _RAISED_AT.match(line)
    if raised and n + 1 < len(lines) and not _is_error(lines[n + 1]):
        return f"{raised.group(1)}: {lines[n + 1]}"
    if not _HEADING.search(line):
        return line
    after = lines[n + 1 : n + 1 + _HEADING_REACH]
    for other in after:
        if _is_error(other) and not _HEADING.search(other) and not (stated and is_summary(other)):
            return other
    if stated and _LOCATED_MESSAGE.match(line):
        return line
    if after and _EXCEPTION_LINE.match(line) and line.endswith(":"):
        # `ActiveRecord::PendingMigrationError:` then its message, whatever the message ends with
        return f"{line} {after[0]}"
    if after and line.endswith((":", "]")) and not _HEADING.search(after[0]):
        # the line that says why (a solver's `rejecting: … (conflict: …)`), else the next one
        why = next((o for o in after[1:] if _REASON.search(o) and not _HEADING.search(o)), "")
        return f"{line} {why or after[0]}"
    return line


#: Words of a line that says why something failed, after a heading's first line of detail.
_REASON = re.compile(
    r"\b(?:conflict\w*|because|incompatible|required by|requires|no matching|mismatch\w*)\b",
    re.IGNORECASE,
)


#: A line that states an error in words no error pattern knows, looked for only beside a
#: summary: a located message (`add_test.go:12: got 3, want 4`), a panic or failed assertion,
#: a test runner's failed case (`● sum › adds`).
_STATED = re.compile(
    r"^\.{0,2}/?[\w./-]+\.\w+:\d+(?::\d+)?:\s*\S+(?:\s+\S+){1,}|"
    r"\bpanicked at\b|\bassertion\b.*\bfailed\b|^●\s+\S|"
    # A refusal stated in words: `lint: failed with ruff is not allowed, use …`.
    r"\b(?:is|are) not (?:allowed|permitted)\b|"
    # What is missing, stated beside a tool's "can't continue": `the dependency is not available`.
    r"\b(?:is|are) not available\b",
    re.IGNORECASE,
)
#: A line after which the error is told (`* What went wrong:`, `rake aborted!`).
_ANNOUNCER = re.compile(r"^\*?\s*what went wrong:$|\baborted!$", re.IGNORECASE)
#: A located error with words of its own before its last colon.
_LOCATED_MESSAGE = re.compile(r"^\.{0,2}/?[\w./-]+\.\w+:\d+(?::\d+)?:\s*\S+(?:\s+\S+){2,}")


def error_fingerprint(output: str) -> str:
    """The first meaningful error line of `output`, with paths, hex ids and numbers normalised.

    Python exception lines (`ImportError: cannot import name …`) win over generic `error:` /
    `FAILED` / lint-code lines. Empty when no line looks like an error.
    """
    line = _first_error_line(output)
    return normalise_line(line) if line else ""


def normalise_line(line: str) -> str:
    """An output line with its location prefix, paths, hex ids and numbers normalised."""
    line = re.sub(r"^E\s+", "", line.strip())
    if not _EXCEPTION_LINE.match(line):
        located = _PATH.match(line) or _BARE_FILE.match(line)
        line = _LOCATION_PREFIX.sub("", line, count=1) if located else line
    line = _PATH.sub("<path>", line)
    line = _HEX.sub("<hex>", line)
    line = _NUMBER.sub("<n>", line)
    line = _SPACES.sub(" ", line).strip()
    return line[:MAX_FINGERPRINT_CHARS]


_QUOTED = re.compile(r"'[^']{1,80}'|\"[^\"]{1,80}\"|`[^`]{1,80}`")
_NAMED = re.compile(r"\b(branch|tag|remote|ref|database|table|module|package|crate)\s+\S+", re.I)


def error_signature(fingerprint: str) -> str:
    """What stays the same when the same error happens again elsewhere: quoted names, branch,
    table and module names go, so `… branch 'a' has no upstream` and `… branch 'b' …` match;
    a file named with or without its folder is the same `<path>`."""
    text = _QUOTED.sub("<q>", fingerprint)
    text = _BARE_FILE.sub("<path>", text)
    text = _NAMED.sub(lambda m: f"{m.group(1).lower()} <name>", text)
    return " ".join(text.lower().split())


def fingerprint_key(fingerprint: str) -> str:
    """`pitfall:<slug>-<hash>`: readable, and equal for the same error signature."""
    signature = error_signature(fingerprint)
    slug = re.sub(r"[^a-z0-9]+", "-", re.sub(r"<\w+>", "", signature))
    slug = slug.strip("-")[:40].rstrip("-") or "error"
    digest = hashlib.sha256(signature.encode()).hexdigest()[:8]
    return f"pitfall:{slug}-{digest}"


#: A test run that selected nothing, in the words of common runners.
_NOTHING_RAN = re.compile(
    r"\bno tests? (?:ran|run|collected|(?:were |was )?found|to run|matche[sd]|was executed|"
    r"were executed)\b|"
    r"\bno test files? found\b|\b0 selected\b|\bno examples? found\b|"
    r"\bno tests? found for given includes\b|\bno tests? (?:were |was )?executed\b|"
    # A run that passed with nothing in it: its summary counts zero ("0 runs, 0 assertions",
    # "0 examples, 0 failures", "0 tests, 0 failures", "0 passing").
    r"^\s*0 (?:runs|examples|tests|specs),\s+0 (?:assertions|failures)\b|^\s*0 passing\b",
    re.IGNORECASE,
)


#: Go's line for a package without a test file (`?   example.com/app/cmd  [no test files]`).
_NO_TEST_FILES = re.compile(r"^\?\s+\S+\s+\[no test files\]$")


#: libtest's line under each test binary (`test result: ok. 9 passed; 0 failed; 0 ignored; …`).
_LIBTEST_RESULT = re.compile(r"^test result: \w+\. (\d+) passed; (\d+) failed\b")
#: XCTest's count line under each suite (`Executed 12 tests, with 0 failures (0 unexpected) …`).
_EXECUTED = re.compile(r"^\s*Executed (\d+) tests?, with \d+ failures?\b")


def no_package_tested(output: str) -> str:
    """The first line of a test run's output when every line it printed names a package
    without a test file (no test anywhere: a build tag or a folder left them out), the last
    suite count when it is zero (XCTest prints the outermost suite's count last: a filter that
    matched no test), or the first result when every test binary's ran none (`cargo test
    --lib` of a crate whose tests are all under `tests/`), else ""."""
    lines = [raw.strip() for raw in output[:MAX_OUTPUT_SCAN_CHARS].splitlines() if raw.strip()]
    if lines and all(_NO_TEST_FILES.match(line) for line in lines):
        return lines[0]
    counts = [(line, found) for line in lines if (found := _EXECUTED.match(line))]
    if counts and counts[-1][1].group(1) == "0":
        return counts[-1][0]
    # libtest prints one result per test binary: none of them ran a test.
    results = [(line, found) for line in lines if (found := _LIBTEST_RESULT.match(line))]
    if results and all(found.group(1) == found.group(2) == "0" for _, found in results):
        return results[0][0]
    return ""


def selected_nothing(output: str) -> bool:
    """Whether a test run's output says its selection matched no test, error line or not."""
    scanned = output[:MAX_OUTPUT_SCAN_CHARS]
    return bool(_NOTHING_RAN.search(scanned)) or bool(no_package_tested(scanned))


def selected_nothing_line(output: str) -> str:
    """The line saying a test run's selection matched nothing, whatever else it printed."""
    for raw in output[:MAX_OUTPUT_SCAN_CHARS].splitlines():
        if _NOTHING_RAN.search(raw):
            return raw.strip().lstrip(">").strip().strip("=").strip()
    return no_package_tested(output)


def nothing_ran(output: str) -> str:
    """The line of a test run's output that says no test was selected (its banner's rules
    stripped), or "" (also when an error line explains the failure better)."""
    if first_error_line(output):
        return ""
    for raw in output[:MAX_OUTPUT_SCAN_CHARS].splitlines():
        if _NOTHING_RAN.search(raw):
            line = raw.strip().strip("=").strip()
            return re.sub(r"^collecting \.\.\.\s*", "", line, flags=re.IGNORECASE)
    return no_package_tested(output)


_BANNER = re.compile(r"^[=_*#~-]{3,}.*$|^\s*$")
#: A heading that introduces what follows ("Options:", "Next steps:"): not what went wrong.
_INTRO = re.compile(r"^[\w ()/-]{1,40}:$")
#: A log line at an information level (`INFO    -  Cleaning site directory`, `[DEBUG] …`): what
#: the tool was doing, not what went wrong.
_INFO_LOG = re.compile(
    r"^(?:\[?(?:INFO|DEBUG|TRACE)\]?(?:\s+-|\s*:|\s)|\[(?i:info|debug|trace|success)\]\s)"
)


def first_line(output: str) -> str:
    """The first line printed that is not a banner, a rule or the exit status."""
    for raw in output[:MAX_OUTPUT_SCAN_CHARS].splitlines():
        line = raw.strip()
        if (
            line
            and not line.lower().startswith("exit code")
            and not _BANNER.match(line)
            and not is_progress(line)
            and not _INTRO.match(line)
            and not _INFO_LOG.match(line)
            and not _SUCCEEDED.match(line)
            and not _POINTER.match(line)
        ):
            return line
    return ""


#: A line that only points elsewhere (`Read more about this behavior here: <https://…>`,
#: `For more information, see …`, a bare address): what failed is said on another line.
_POINTER = re.compile(
    r"^(?:(?:read|learn|find out|see) more\b|for more (?:information|details|info)\b"
    r"|more (?:information|details|info)\s*(?:at|:)|<?https?://\S+>?$)",
    re.IGNORECASE,
)


#: A short line that says a step went well (`Build succeeded.`): not what failed.
_SUCCEEDED = re.compile(
    r"^(?:[\w:-]+\s+){0,3}(?:succeeded|successful|successfully|completed successfully)\b"
    r"[^\n]{0,30}$",
    re.IGNORECASE,
)
