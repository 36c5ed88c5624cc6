"""A check whose exit status a pipe hid: `make test 2>&1 | tail -50` exits with `tail`'s status,
0, however the tests went; what it printed still says they failed.

A run is read as failed, though its exit status was 0, when all of these hold:

- its first command is a check or a build (tests, lint, format, type-check, build: what can
  fail), and its output goes on into a filter that only shows part of it (`head`, `tail`,
  `grep`, `less`, `tee`, `sed`, `awk`, `cut`, `sort`, `uniq`, `wc`), with no `pipefail`;
- one of the last lines it printed is a failure summary: `FAIL`/`FAILED` opening a line,
  `--- FAIL`, a task runner's `ERROR task failed`, `N failed` or `N errors` for N above
  zero, `make: ***`, `npm ERR!`, `error: could not compile`, `Process completed with exit code N`.

A summary anywhere else (a test named `test_fail_fast`, `0 failed`, a log line quoting an
error) does not count, and a command that only reads (`cat log | grep FAIL`) is no check.
"""

from __future__ import annotations

import re
import shlex

from squirrel_core import commands as command_table

#: Purposes whose run can fail: a check or a build.
_CAN_FAIL = frozenset({"test", "lint", "format", "typecheck", "build"})
#: A pipe into a filter that shows part of the output (and exits 0 on its own).
_FILTER_PIPE = re.compile(
    r"(?<!\|)\|(?!\|)\s*(?:head|tail|grep|egrep|rg|less|more|tee|sed|awk|cut|sort|uniq|wc)\b"
)
#: Last lines read for a failure summary.
TAIL_LINES = 30
_SUMMARY = re.compile(
    r"^\s*(?:FAIL(?:ED)?\b|--- FAIL\b|make(?:\[\d+\])?: \*\*\*|npm ERR!|"
    r"error: could not compile\b)"
    r"|\bERROR task failed\b"
    r"|(?<![\w.])[1-9]\d* (?:failed|failures|errors?)\b"
    r"|\bProcess completed with exit code [1-9]"
)


def _first_command(command: str) -> list[str]:
    head = re.split(r"\||&&|;", command, maxsplit=1)[0]
    try:
        return shlex.split(head)
    except ValueError:
        return head.split()


def masked_failure(command: str, output: str) -> bool:
    """Whether a run that exited 0 failed all the same: a check piped into a filter whose last
    lines show a failure summary."""
    if "pipefail" in command or not _FILTER_PIPE.search(command):
        return False
    use = command_table.classify_tokens(_first_command(command))
    if use is None or use.purpose not in _CAN_FAIL:
        return False
    return any(_SUMMARY.search(line) for line in output.splitlines()[-TAIL_LINES:])
