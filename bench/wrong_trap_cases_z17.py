# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `z17`: what a subagent's report states as found, which the session
start could state as the project's (`bench/wrong_traps.py` runs them). A subagent searches in a
context window of its own and hands back a report (Claude Code's `Task` tool, `Agent` from 2.1;
with its own transcript beside the session's when the host keeps one): the report can describe a
sibling checkout the subagent wandered into, a folder outside the project, a guess, or a state
the session's own run or read then contradicts; and where nothing else is known, a start made
of its statements states them as truth. Some reports here are right and the session's own run
or read confirms them: those facts may still be stated.

A trap's `unsure` patterns are claims only a report made and nothing in the session checked: a
memory may keep them (search offers them, with who said them), no session-start line may state
them. These were written blind, before any rule for them and before any of them ran, from the
ways a session can take in another agent's word.

Made-up projects and sessions, written for this bench (licence: the project's own).
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Delegate, Read, Run, Say, Trap, one_session

# A report that describes a sibling checkout the subagent read (its own transcript shows it
# listing and reading `../design-tokens/`), not the project the session works in.
_SIBLING_REPORT = """## How the project is checked

- **Unit tests:** `yarn jest --ci`
- **Lint:** `yarn eslint src`
- The token build runs through `style-dictionary` with `config.json` as its entry.
"""

SIBLING_CHECKOUT_REPORT = Trap(
    "report-of-a-sibling-checkout",
    "Python",
    "a subagent read the sibling checkout `../design-tokens/` and reported its yarn commands as this Python project's",
    one_session(
        "/home/ines/src/palette-api",
        Ask(
            "How are the colour tokens built upstream? Send an agent to look, I want to know before touching the API."
        ),
        Delegate(
            "Find out how the design tokens are built and tested.",
            _SIBLING_REPORT,
            steps=(
                Run("ls ..", "design-tokens\npalette-api\n"),
                Read(
                    "/home/ines/src/design-tokens/package.json",
                    '{\n  "name": "design-tokens",\n  "scripts": {\n    "test": "jest --ci",\n    "lint": "eslint src",\n    "build": "style-dictionary build --config config.json"\n  }\n}\n',
                ),
                Say("The tokens project uses yarn and jest."),
            ),
        ),
        Run("ls", "pyproject.toml\npalette_api\ntests\n"),
        Say(
            "The tokens are built with style-dictionary in the other repository; nothing to change here yet."
        ),
    ),
    wrong=(
        (
            r"yarn jest|yarn eslint|style-dictionary",
            "the report is of the sibling checkout `design-tokens`; palette-api is a Python project",
        ),
    ),
)

_OUTSIDE_REPORT = """Found the deployment layout.

## Layout

- `/opt/deploy/ansible/roles/web/tasks/main.yml` — installs the service and its systemd unit
- `/opt/deploy/ansible/inventory/prod.ini` — the production hosts
- The service's unit file is templated from `roles/web/templates/unit.j2` and restarts on `notify`.
"""

FOLDER_OUTSIDE_THE_PROJECT = Trap(
    "report-about-a-deploy-tree",
    "Go",
    "the subagent's report lists files of a deployment tree outside the project as its layout",
    one_session(
        "/home/kofi/code/ledgerd",
        Ask("Where does the service get deployed from? Have a look around the machine."),
        Delegate(
            "Look for the deployment set-up of ledgerd on this machine.",
            _OUTSIDE_REPORT,
            tool="Agent",
        ),
        Run(
            "go test ./...",
            "ok  \tgithub.com/kofi/ledgerd\t0.311s\nok  \tgithub.com/kofi/ledgerd/internal/books\t0.092s\n",
        ),
        Say("The deployment lives outside the repository, under `/opt/deploy/ansible/`."),
    ),
    wrong=(
        (
            r"ansible|inventory/prod\.ini|unit\.j2|systemd",
            "the deployment tree is outside the project; it is no part of ledgerd's layout",
        ),
    ),
    may=(r"go test \./\.\.\.",),
)

_GUESS_REPORT = """## Summary

- Background jobs probably run through `celery`; `worker.py` likely defines the app.
- The queue is presumably `redis`, going by `docker-compose.yml`.
- `settings.py` reads `BROKER_URL` from the environment.
"""

GUESSED_STACK = Trap(
    "report-that-guesses-a-queue",
    "Python",
    "the report guesses the job runner and the broker; the session then reads `worker.py` and it is RQ",
    one_session(
        "/home/ana/src/mailbatch",
        Ask("What runs the background jobs here? I need to add a retry."),
        Delegate("Find what runs background jobs in this project.", _GUESS_REPORT),
        Read(
            "worker.py",
            "from redis import Redis\nfrom rq import Queue, Worker\n\nqueue = Queue('mail', connection=Redis.from_url(BROKER_URL))\n\nif __name__ == '__main__':\n    Worker([queue]).work()\n",
        ),
        Run("python -m pytest -q", "....\n4 passed in 0.21s\n"),
        Say(
            "The jobs run through RQ (`rq.Worker` in `worker.py`), not Celery; I'll add the retry there."
        ),
    ),
    wrong=(
        (r"celery", "a guess of the report; `worker.py` shows RQ"),
        (r"presumably|likely defines|probably run", "a guess stated as found"),
    ),
    may=(r"python -m pytest -q",),
)

_STALE_COMMAND_REPORT = """## How to check the project

- **Tests:** `make test`
- **Format:** `make fmt`
- The `Makefile` wraps `pytest` and `black`.
"""

REPORT_THE_RUN_CONTRADICTS = Trap(
    "report-whose-target-is-gone",
    "Python",
    "the report names `make test` and `make fmt`; the session runs `make test`, there is no such target, and `tox -e py312` is the test command",
    one_session(
        "/home/jun/src/geoclip",
        Ask("Run the tests before my change; send an agent to find how first."),
        Delegate("Find how this project runs its tests and formatter.", _STALE_COMMAND_REPORT),
        Run("make test", "make: *** No rule to make target 'test'.  Stop.\n", code=2),
        Run("ls", "pyproject.toml\ntox.ini\ngeoclip\ntests\n"),
        Run(
            "tox -e py312",
            "py312: commands[0]> pytest\n........\n8 passed in 0.44s\n  py312: OK (3.10 seconds)\n  congratulations :) (3.19 seconds)\n",
        ),
        Say("There is no Makefile target; `tox -e py312` runs the suite and it passes."),
    ),
    wrong=(
        (
            r"make test|make fmt|`Makefile` wraps",
            "the session's own run showed no `test` target; the tests run with `tox -e py312`",
        ),
    ),
    may=(r"tox -e py312",),
)

_CODE_REPORT = """## What I found

- **Archive install:** `install_archive()` calls `unpack_tree()`, which extracts every nested folder of the bundle to the plugins folder.
- **Listing:** `list_installed()` scans only one level under the plugins folder, so nested bundles are not listed on their own.
- `--json` output includes a `children` array with the name and version of each nested bundle.
"""

REPORT_ALONE_AT_THE_START = Trap(
    "only-an-agents-findings-known",
    "Python",
    "all the session has is a subagent's statements about the code; a start made of them states them as truth",
    one_session(
        "/home/ravi/src/bundlectl",
        Ask(
            "How are nested bundles installed? Send an agent to read the installer, I only want the answer."
        ),
        Delegate(
            "Read the installer and say how nested bundles are installed and listed.", _CODE_REPORT
        ),
        Run("git status --short", ""),
        Say(
            "Nested bundles are extracted whole and not listed on their own; see the summary above."
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*subagent)[^\n]*extracts every nested folder",
            "a subagent's statement stated as the assistant's or the project's own",
        ),
    ),
    unsure=(
        (
            r"install_archive|unpack_tree|list_installed|`children` array",
            "a subagent's statement nothing in the session checked, stated at the start",
        ),
    ),
)

_VERSIONS_REPORT = """Read `package.json` and the lock file.

- Node 18.19, TypeScript 5.3.3, Vite 4.5.2
- The app is a React SPA served from `src/main.tsx`.
"""

VERSIONS_THE_READ_CONTRADICTS = Trap(
    "report-of-older-toolchain",
    "TypeScript",
    "the report gives Vite 4.5 and Node 18; the session reads `package.json` and it pins Vite 5.2 and Node 20",
    one_session(
        "/home/lea/code/tidewatch",
        Ask("Which Vite are we on? An agent can check, then bump the plugin if needed."),
        Delegate("Read the build files and report the toolchain versions.", _VERSIONS_REPORT),
        Read(
            "package.json",
            '{\n  "name": "tidewatch",\n  "engines": { "node": ">=20.11" },\n  "devDependencies": {\n    "typescript": "5.4.5",\n    "vite": "5.2.11",\n    "vitest": "1.6.0"\n  },\n  "scripts": { "test": "vitest run" }\n}\n',
        ),
        Run("npx vitest run", " Test Files  6 passed (6)\n      Tests  41 passed (41)\n"),
        Say(
            "`package.json` pins Vite 5.2.11 and Node 20.11 or newer; the plugin is fine as it is."
        ),
    ),
    wrong=(
        (
            r"Vite 4\.5|Node 18|TypeScript 5\.3",
            "the report's versions; `package.json` pins Vite 5.2.11, Node >=20.11 and TypeScript 5.4.5",
        ),
    ),
    may=(r"vitest run",),
)

_PASSED_REPORT = """Done.

- `cargo nextest run --workspace` passes (212 tests).
- `cargo clippy --all-targets -- -D warnings` is clean.
"""

PASS_NOBODY_SAW = Trap(
    "agent-says-its-checks-pass",
    "Rust",
    "the subagent reports its commands passing; the session never runs them and runs only `cargo build`",
    one_session(
        "/home/olu/src/shardkv",
        Ask("Have an agent run the checks on the branch and tell me if it is green."),
        Delegate("Run the project's checks on this branch and report.", _PASSED_REPORT),
        Run(
            "cargo build",
            "   Compiling shardkv v0.3.0 (/home/olu/src/shardkv)\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 9.81s\n",
        ),
        Say("The agent reports the checks green; the build passes here too."),
    ),
    wrong=(
        (
            r"cargo build[^\n]*(?:fail|error)",
            "the build passed in the session",
        ),
    ),
    unsure=(
        (
            r"nextest|clippy",
            "only the subagent's word says these ran and passed; the session never ran them",
        ),
    ),
)

# Another checkout again, in the subagent's own transcript only: its brief names nothing outside
# the project, its report names no path, its steps `cd` into a sibling service.
_SIDE_REPORT = """## Checks

- **Tests:** `npm test` passes (38 tests).
- **Lint:** `npm run lint` is clean.
"""

SIBLING_IN_THE_SIDECHAIN = Trap(
    "agent-that-wandered-next-door",
    "Go",
    "the subagent's own steps ran the checks in the sibling Node service; the report reads as this Go project's",
    one_session(
        "/home/sam/src/fleetd",
        Ask("Check the client still works against our API; have an agent run its tests."),
        Delegate(
            "Run the API client's tests and report.",
            _SIDE_REPORT,
            steps=(
                Run("ls /home/sam/src", "fleet-client\nfleetd\n"),
                Run(
                    "cd /home/sam/src/fleet-client && npm test",
                    "> fleet-client@1.2.0 test\n> jest\n\nTests:       38 passed, 38 total\n",
                ),
                Run("cd /home/sam/src/fleet-client && npm run lint", "> eslint .\n"),
            ),
        ),
        Run("go vet ./...", ""),
        Say("The client's tests pass against the current API."),
    ),
    wrong=(
        (
            r"npm test|npm run lint",
            "the subagent ran them in the sibling `fleet-client`; fleetd is a Go service",
        ),
    ),
)

# Right reports, confirmed by the session's own run or read: these may still be stated.
_CONFIRMED_REPORT = """## How the project is checked

- **Tests:** `uv run pytest -q`
- `app/config.py` reads `DATABASE_URL` and `SECRET_KEY` from the environment.
"""

REPORT_THE_RUN_CONFIRMS = Trap(
    "agent-finding-then-checked",
    "Python",
    "the report's test command is right and the session runs it; the config statement is right and the session reads the file",
    one_session(
        "/home/nia/src/quillbox",
        Ask("Find out how to run the tests, then run them."),
        Delegate("Find how this project runs its tests.", _CONFIRMED_REPORT),
        Run("uv run pytest -q", "..........\n10 passed in 0.52s\n"),
        Read(
            "app/config.py",
            'import os\n\nDATABASE_URL = os.environ["DATABASE_URL"]\nSECRET_KEY = os.environ["SECRET_KEY"]\n',
        ),
        Say("The suite passes with `uv run pytest -q`."),
    ),
    wrong=((r"\bmake test\b|\bnpm test\b|\btox\b", "no such command was said or run"),),
    may=(r"uv run pytest -q",),
)

_CONFIRMED_VERSIONS = """Read `build.gradle.kts` and `gradle/wrapper/gradle-wrapper.properties`.

- Gradle 8.7, Kotlin 1.9.24, Java 21
- `./gradlew test` runs the JUnit 5 suite.
"""

VERSIONS_THE_READ_CONFIRMS = Trap(
    "agent-toolchain-read-again",
    "Kotlin",
    "the report's versions are right and the session reads the wrapper file, then runs the tests",
    one_session(
        "/home/eli/code/parcelkt",
        Ask("What Gradle and Kotlin are we on? Then run the tests."),
        Delegate("Read the build files and report the toolchain versions.", _CONFIRMED_VERSIONS),
        Read(
            "gradle/wrapper/gradle-wrapper.properties",
            "distributionUrl=https\\://services.gradle.org/distributions/gradle-8.7-bin.zip\n",
        ),
        Run(
            "./gradlew test",
            "> Task :test\n\nBUILD SUCCESSFUL in 14s\n4 actionable tasks: 2 executed, 2 up-to-date\n",
        ),
        Say("Gradle 8.7 and Kotlin 1.9.24; the tests pass."),
    ),
    wrong=((r"Gradle 7\.|Kotlin 2\.|Java 17", "no such version was said or read"),),
    may=(r"gradlew test",),
)

CASES: tuple[Trap, ...] = (
    SIBLING_CHECKOUT_REPORT,
    FOLDER_OUTSIDE_THE_PROJECT,
    GUESSED_STACK,
    REPORT_THE_RUN_CONTRADICTS,
    REPORT_ALONE_AT_THE_START,
    VERSIONS_THE_READ_CONTRADICTS,
    PASS_NOBODY_SAW,
    SIBLING_IN_THE_SIDECHAIN,
    REPORT_THE_RUN_CONFIRMS,
    VERSIONS_THE_READ_CONFIRMS,
)
