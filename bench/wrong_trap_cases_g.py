# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, seventh part: a project that moved on between sessions — its test runner,
its database and its package manager — where what an earlier session showed is stale by the
last one (`bench/wrong_traps.py` runs them).

Every trap was written, its `wrong` and `may` patterns included, before any rule ran on it.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Read, Run, Say, Session, Trap, Write

_JEST_PACKAGE = '{\n  "name": "lanes",\n  "scripts": {"test": "jest"},\n  "devDependencies": {"jest": "^29.7.0", "ts-jest": "^29.1.2"}\n}\n'
_VITEST_PACKAGE = '{\n  "name": "lanes",\n  "scripts": {"test": "vitest run"},\n  "devDependencies": {"vitest": "^1.6.0"}\n}\n'

RUNNER_MOVED = Trap(
    "jest-then-vitest-sessions",
    "Node/TypeScript",
    "Jest in the first session; the next session replaces it with Vitest and only Vitest runs "
    "after that",
    (
        Session(
            "claude",
            "/home/dev/src/lanes",
            (
                Ask("Add a test for the lane merge with an empty list."),
                Read("package.json", _JEST_PACKAGE),
                Write(
                    "src/merge.test.ts",
                    "import { merge } from './merge';\n\ntest('empty', () => {\n  expect(merge([])).toEqual([]);\n});\n",
                ),
                Run(
                    "npx jest",
                    "PASS src/merge.test.ts\n  ✓ empty (2 ms)\n\nTest Suites: 1 passed, 1 total\nTests:       4 passed, 4 total",
                ),
                Say("Added the test; `npx jest` passes."),
            ),
        ),
        Session(
            "claude",
            "/home/dev/src/lanes",
            (
                Ask("Move the tests from Jest to Vitest and drop Jest completely."),
                Read("package.json", _JEST_PACKAGE),
                Write("package.json", _VITEST_PACKAGE),
                Write(
                    "src/merge.test.ts",
                    "import { expect, test } from 'vitest';\nimport { merge } from './merge';\n\ntest('empty', () => {\n  expect(merge([])).toEqual([]);\n});\n",
                ),
                Run(
                    "npm uninstall jest ts-jest && npm install -D vitest",
                    "removed 281 packages, added 46 packages in 9s",
                ),
                Run(
                    "npm test",
                    "> lanes@0.2.0 test\n> vitest run\n\n ✓ src/merge.test.ts (4)\n\n Test Files  1 passed (1)\n      Tests  4 passed (4)",
                ),
                Say("Jest is gone; the tests run with Vitest (`npm test`)."),
            ),
        ),
        Session(
            "claude",
            "/home/dev/src/lanes",
            (
                Ask("Run the tests, I changed merge.ts."),
                Run(
                    "npm test",
                    "> lanes@0.2.0 test\n> vitest run\n\n ✓ src/merge.test.ts (5)\n\n Test Files  1 passed (1)\n      Tests  5 passed (5)",
                ),
                Say("All 5 pass."),
            ),
        ),
    ),
    wrong=(
        (
            r"tests? (are )?(written|run) with jest|test(ing)?: jest|`npx jest`\W*$|to run the tests: `npx jest`",
            "Jest was replaced by Vitest in the second session",
        ),
    ),
    may=(r"vitest|npm test",),
)

_SQLITE_SETTINGS = "DATABASES = {\n    'default': {\n        'ENGINE': 'django.db.backends.sqlite3',\n        'NAME': BASE_DIR / 'db.sqlite3',\n    }\n}\n"
_POSTGRES_SETTINGS = "DATABASES = {\n    'default': {\n        'ENGINE': 'django.db.backends.postgresql',\n        'NAME': 'kennel',\n        'HOST': 'localhost',\n    }\n}\n"

DATABASE_MOVED = Trap(
    "sqlite-then-postgres-sessions",
    "Python/Django",
    "Django settings on SQLite in the first session; the second session moves them to "
    "PostgreSQL and migrates",
    (
        Session(
            "codex",
            "/home/dev/src/kennel",
            (
                Ask("Where is the database configured?"),
                Read("kennel/settings.py", _SQLITE_SETTINGS),
                Say("In `kennel/settings.py`: SQLite, in `db.sqlite3` at the project root."),
            ),
        ),
        Session(
            "codex",
            "/home/dev/src/kennel",
            (
                Ask("Switch the database to Postgres (database kennel on localhost) and migrate."),
                Read("kennel/settings.py", _SQLITE_SETTINGS),
                Write("kennel/settings.py", _POSTGRES_SETTINGS),
                Run(
                    "python manage.py migrate",
                    "Operations to perform:\n  Apply all migrations: admin, auth, contenttypes, dogs, sessions\nRunning migrations:\n  Applying dogs.0001_initial... OK",
                ),
                Say("Settings now use PostgreSQL (`kennel` on localhost); migrations applied."),
            ),
        ),
    ),
    wrong=(
        (
            r"data layer: (\w+, )*sqlite|database is sqlite|(project|app)\W+(\w+\W+){0,3}(uses|on) sqlite",
            "the second session moved the database to PostgreSQL",
        ),
    ),
    may=(r"postgres",),
)

MANAGER_MOVED = Trap(
    "npm-then-pnpm-sessions",
    "Node",
    "npm in the first session; the user switches the project to pnpm in the second and uses "
    "only pnpm from then on",
    (
        Session(
            "claude",
            "/home/dev/src/dials",
            (
                Ask("Run the tests and the linter."),
                Run(
                    "npm test",
                    "> dials@1.0.0 test\n> node --test\n\n✔ dial rounds (1.1ms)\nℹ tests 3\nℹ pass 3",
                ),
                Run("npm run lint", "> dials@1.0.0 lint\n> eslint .\n"),
                Say("Tests and lint pass."),
            ),
        ),
        Session(
            "claude",
            "/home/dev/src/dials",
            (
                Ask(
                    "We're moving this repo to pnpm. Remove the npm lockfile, install with pnpm "
                    "and use pnpm from now on."
                ),
                Run(
                    "rm package-lock.json && pnpm import && pnpm install",
                    "WARN  Moving package-lock.json to pnpm-lock.yaml\nPackages: +212\nDone in 4.1s",
                ),
                Run(
                    "pnpm test",
                    "> dials@1.0.0 test /home/dev/src/dials\n> node --test\n\n✔ dial rounds (1.0ms)\nℹ tests 3\nℹ pass 3",
                ),
                Run("pnpm run lint", "> dials@1.0.0 lint /home/dev/src/dials\n> eslint .\n"),
                Say(
                    "Switched to pnpm: `pnpm-lock.yaml` replaces `package-lock.json`; tests and lint pass."
                ),
            ),
        ),
        Session(
            "claude",
            "/home/dev/src/dials",
            (
                Ask("Run the tests again please."),
                Run(
                    "pnpm test",
                    "> dials@1.0.0 test /home/dev/src/dials\n> node --test\n\nℹ tests 3\nℹ pass 3",
                ),
                Say("All 3 pass."),
            ),
        ),
    ),
    wrong=(
        (
            r"run through npm\b|\bnpm,? its package manager|to run the tests: `npm test`|to lint: `npm run lint`",
            "the project moved to pnpm in the second session",
        ),
    ),
    may=(r"pnpm",),
)

CASES = (RUNNER_MOVED, DATABASE_MOVED, MANAGER_MOVED)
