# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `z11c`: a test fixture's layout in two more shapes (`bench/wrong_traps.py`
runs them): one `ls` of several fixture folders, whose output heads each folder, and the
assistant's report with a structure section about the fixture it explored.

Written blind like `z11`, before any of these traps ran and with no rule changed for them.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Read, Run, Say, Trap, one_session

_LS_FOLDERS = (
    "tests/fixtures/monorepo/apps:\nadmin\nweb\n\ntests/fixtures/monorepo/packages:\nui\nutils\n"
)

FIXTURE_FOLDERS_LISTED = Trap(
    "fixture-folders-listed-together",
    "TypeScript",
    "one `ls` of a fixture monorepo's `apps` and `packages`; the project is a single CLI package",
    one_session(
        "/home/ines/src/wsgraph",
        Ask(
            "wsgraph draws the workspace graph wrong for nested apps; check it against the fixture."
        ),
        Run("ls", "package.json\nsrc\ntests\ntsconfig.json\n"),
        Run("ls tests/fixtures/monorepo/apps tests/fixtures/monorepo/packages", _LS_FOLDERS),
        Read(
            "package.json",
            '{\n  "name": "wsgraph",\n  "bin": { "wsgraph": "dist/cli.js" },\n  "scripts": { "test": "vitest run" },\n  "devDependencies": { "typescript": "^5.5.0" }\n}\n',
        ),
        Run("npx vitest run", " ✓ tests/graph.test.ts (6 tests) 22ms\n Test Files  1 passed (1)"),
        Say("The graph is right for the fixture's nested apps now."),
    ),
    wrong=(
        (
            r"(?<![/\w.])(?:apps|packages)/(?:admin|web|ui|utils)?(?![\w/])|\b(?:project|repository|wsgraph)\b[^\n`]{0,60}\b(?:a monorepo|workspace of)",
            "`apps/` and `packages/` are the test fixture's; wsgraph is one package",
        ),
    ),
    may=(r"TypeScript",),
)

_REPORT = (
    "## Project structure\n\n"
    "- `lib/` — the library code\n"
    "- `bin/` — the command-line entry points\n"
    "- `spec/` — the specs\n\n"
    "This is the layout of `spec/fixtures/legacy_gem`, the old-style gem the upgrader is tested against."
)

FIXTURE_REPORT = Trap(
    "fixture-structure-in-a-report",
    "Ruby",
    "the assistant's report has a structure section that is the fixture gem's, said so at its end",
    one_session(
        "/home/ines/src/gemup",
        Ask("Look at the legacy gem fixture and tell me its structure."),
        Run("ls", "Gemfile\nexe\ngemup.gemspec\nlib\nspec\n"),
        Run("ls spec/fixtures/legacy_gem", "bin\nlib\nlegacy_gem.gemspec\nspec\n"),
        Say(_REPORT),
        Run("bundle exec rspec", "23 examples, 0 failures"),
    ),
    wrong=(
        (
            r"^(?![^\n]*(?:fixture|legacy_gem))[^\n]*`bin/`[^\n]*(?:entry|command)",
            "`bin/` holds the fixture gem's entry points; gemup's own are under `exe/`",
        ),
    ),
)

CASES: tuple[Trap, ...] = (FIXTURE_FOLDERS_LISTED, FIXTURE_REPORT)
