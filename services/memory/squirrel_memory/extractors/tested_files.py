"""The project's code files a test runner printed as it ran them.

A session that only runs the checks (`pnpm check && pnpm test`, `pytest`, `cargo test`) may
open no file and read no manifest, yet the runner prints the project's test files one a line,
each with its outcome. Those lines name the project's own code as surely as a search that
lists files (`searched_files`), and weigh the same as evidence of its language (less than files
touched). The rule is the same for every ecosystem; a line counts when it has one of the shapes
test runners print for a file they ran, and nothing else:

- Vitest, Jest and node's runners: a mark then the path (`✓ src/policy.test.ts (25 tests)`,
  `PASS src/a.test.js`, `FAIL src/b.spec.tsx`, `× src/c.test.ts`);
- pytest: the path then its results (`tests/test_api.py ..F.  [ 40%]`,
  `tests/test_api.py::test_get PASSED`);
- Cargo: the test binary of a file (`Running tests/cli.rs (target/debug/deps/cli-1a2b)`);
- RSpec: the failure's rerun line (`rspec ./spec/models/user_spec.rb:12 # User …`).

Paths are relative to the folder the runner ran in, so a line whose run moved away from the
project's root (`cd web && npm test`) or worked in another folder (`elsewhere.ran_elsewhere`)
gives nothing, and neither do absolute, home or `../` paths.
"""

from __future__ import annotations

import posixpath
import re

from squirrel_memory.extractors.activity import CommandRun
from squirrel_memory.extractors.elsewhere import moved_from_root, ran_elsewhere
from squirrel_memory.extractors.git_listed import folder_of

_PATH = r"(?:\./)?([A-Za-z0-9_@][A-Za-z0-9_@./-]*\.[A-Za-z0-9]+)"
#: The shapes of a line a test runner prints for one file it ran (module docstring).
_TESTED_LINE = re.compile(
    # Vitest, Jest, node --test: a mark, the path, then a count or a time at most.
    rf"^\s*(?:[✓✔✗✘×❯↓]|PASS|FAIL)\s+{_PATH}(?:\s+\(\d+[^()]*\)|\s+\d+(?:\.\d+)?\s?m?s)*\s*$"
    # pytest: the path, then its dots and letters (with the progress), or one test's outcome.
    rf"|^{_PATH}(?:\s+[.FEsxX]+(?:\s+\[\s*\d+%\])?|::\S+\s+(?:PASSED|FAILED|ERROR|SKIPPED|XFAIL"
    r"|XPASS)(?:\s+\[\s*\d+%\])?)\s*$"
    # Cargo: the test binary built from a file.
    rf"|^\s*Running\s+(?:unittests\s+)?{_PATH}\s+\([^()]+\)\s*$"
    # RSpec: the command that reruns one failed example.
    rf"|^rspec\s+{_PATH}:\d+\s+#"
)


def runner_printed_paths(runs: list[CommandRun], project_id: str) -> list[tuple[str, str]]:
    """(project-relative path, event id) for every file a test runner printed as it ran it in
    the project's root (module docstring), whatever the run's outcome: a failing test file is
    the project's as much as a passing one."""
    found: list[tuple[str, str]] = []
    for run in runs:
        if folder_of(run.cwd, project_id) != "" or ran_elsewhere(run.command, project_id):
            continue
        if moved_from_root(run.segments, project_id):
            continue
        for line in run.output.splitlines():
            match = _TESTED_LINE.match(line.rstrip())
            if match is None:
                continue
            path = posixpath.normpath(next(g for g in match.groups() if g is not None))
            if not path.startswith(("..", "/", "~")):
                found.append((path, run.event_id))
    return found
