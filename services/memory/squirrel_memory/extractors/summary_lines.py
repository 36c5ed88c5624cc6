"""Summary lines: a line of a failed run's output that only reports that a run, build, step or
test failed (naming its target, its exit code, or pointing above), not the error itself."""

from __future__ import annotations

import re

#: A line that only reports that a run, build, step or test failed: it names the target, the
#: exit code, or points to the lines above (`make: *** [Makefile:12: test] Error 1`, `BUILD
#: FAILED in 3s`, `npm ERR! Test failed.  See above for more details.`, `FAIL  src/x.test.ts`).
#: A tool's own prefix (`npm ERR!`, `error:`, `[ERROR]`, `** (Mix)`) is left out first.
_SUMMARY_PREFIX = re.compile(
    r"^(?:(?:(?:npm|pnpm|yarn)\s+(?:ERR!|error)|ELIFECYCLE|\[(?i:error)\]|##\[error\]|"
    r"(?i:error|fatal)(?:\[[\w-]+\])?:?|FAILURE:|\*\* \(\w+\)|[✖×✗])\s*)+"
)
_SUMMARY = re.compile(
    # An exit code or status: `Command failed with exit code 1.`, `Process completed with exit
    # code 1.`, `Exit status 1`, `ld returned 1 exit status`, `make: *** [all] Error 2`.
    r"\bexit(?:ed)?(?: with)?(?: code| status)\s*:?\s*-?\d+\.?$|"
    r"\breturned (?:non-zero|-?\d+) exit status\b.*$|"
    r"^g?make(?:\[\d+\])?: \*\*\* \[[^\]]*\] Error \d+|\brecipe for target \S+ failed$|"
    # What failed, pointing to the lines above or a log: `Test failed.  See above for more
    # details.`, `Compilation error. See log for more details`, `errors have been logged`.
    r"\bsee (?:above|below|the log|log|the report|report)\b|\berrors have been logged\b|"
    r"\bdue to (?:\d+|one|a|an|several) previous errors?\b|"
    # A tool that stops after errors it printed above: `** (Mix) Can't continue due to errors
    # on dependencies`.
    r"^can'?t continue due to (?:previous )?errors\b|"
    r"^could not compile\b|^build failed\b|^build had \d+ command failures?\b|"
    r"^(?:the )?(?:build|compilation|tests?|test run|command|script|task|step|job)s? failed\.?$|"
    r"^(?:some |\d+ )?tests? failed\b(?:, to rerun\b.*)?|^\d+ targets? failed:?$|"
    r"^execution failed for task \S+$|^failed to execute goal\b|^there are test failures\b|"
    r"^compilation (?:failure|failed|error)\.?$|"
    r"^command failed:|\bsubcommand failed\.?$|^test result: FAILED\b|\baborted!$|"
    # A runner's count of what failed (`pre-commit: 3 checks failed, commit aborted`), a
    # test environment's status (`lint: FAIL code 1 (2.31 seconds)`, `evaluation failed :(`).
    r"^(?:[\w.-]+: )?\d+ (?:checks?|hooks?|steps?|jobs?|tasks?) failed\b|"
    r"^[\w.-]+: (?-i:FAIL) code -?\d+\b|^evaluation failed\b|"
    # A test runner's count: `Tests: 1 failed, 3 passed`, `Tests run: 3, Failures: 1`.
    r"^(?:tests?|test suites|test files|suites?)\s*:\s+\d+ failed\b|"
    r"^tests run: \d+, failures: \d+|^=*\s*\d+ failed\b(?:, \d+ \w+)* in [\d.]+s\b|"
    r"^FAILED \((?:failures|errors)=\d+.*\)$|"
    # A package manager's own lines about the script it ran: `npm ERR! code ELIFECYCLE`.
    r"^(?:code|errno) \w+$|^(?:a complete log of this run\b|this is probably not a problem)|"
    r"^lifecycle script \S+ failed\b|^failed at the \S+ \S+ script\b|^\S+@\d[\w.-]* \S+: |"
    r"^-> \[help \d+\]$|^(?:to see the full stack trace|re-run maven)\b|"
    # A target named, no error stated: `FAIL  src/x.test.ts`, `FAIL example.com/m [setup
    # failed]`, `--- FAIL: TestAdd (0.00s)`, `test a::b ... FAILED`, `case ... FAILED (4ms)`,
    # `FAILED tests/x.py::t`, `> Task :app:test FAILED`, `FAILED: build/main.o`.
    r"^(?-i:FAIL(?:ED)?):?\s+\S+(?:\s+(?:>|›)\s+.*)?(?:\s+\[[^\]]*\])?(?:\s+\(?[\d.]+\s*m?s\)?)?$|"
    r"^(?-i:FAIL)$|^--- (?-i:FAIL): \S+(?: \([\d.]+m?s\))?$|"
    r"\.\.\.\s*(?:FAILED|FAIL|failed|ERROR)(?:\s+\([\d.]+\s*m?s\))?$|"
    r"^(?-i:ERROR)\s+\S+::\S+$|^> Task \S+ FAILED$",
    re.IGNORECASE,
)


def is_summary(line: str) -> bool:
    """Whether an output line only reports that a run, build, step or test failed (naming its
    target, its exit code, or pointing above) instead of stating the error."""
    text = _SUMMARY_PREFIX.sub("", line.strip()).strip()
    if not text:
        return True
    return bool(_SUMMARY.search(text) or _SUMMARY.search(line.strip()))
