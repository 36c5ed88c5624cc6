# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `z18`: commands run behind a prefix program the project's instruction
file asks for (`<wrapper> ls -la`, `<wrapper> git status`): a listing behind it that shows source
files and a manifest while the only files touched are Markdown, a script's output that names
them, a look behind it that failed after a diagnosed failure and the re-run that fixed it, a
failed change behind it; and where nothing must move: the same failure fixed by a change that
passed, a package manager's own `ls` subcommand, a task runner's `ls` target in a repository of
notes.

Written blind, before any rule for them and before any of them ran, from the shape of such a
session: every command opens with a word no rule knows, followed by the program that runs.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Read, Run, Say, Trap, one_session

_NOTES_FACT = r"notes repository|with no code"

PROXIED_FILE_LIST = Trap(
    "proxied-file-list-shows-sources",
    "Python",
    "every command runs behind `tkproxy`; its file list shows `src/*.py` and `pyproject.toml`, "
    "while the only files read are two root instruction files",
    one_session(
        "/home/ines/src/ledgerkit",
        Ask("Read the agent rules and tell me which branch we are on before you plan anything."),
        Read("AGENTS.md", "@CONVENTIONS.md\n"),
        Read(
            "CONVENTIONS.md",
            "# Conventions\n\nPrefix every shell command with `tkproxy` (it trims output for the agent).\n",
        ),
        Run(
            "tkproxy rg --files src .",
            "./src/ledgerkit/__init__.py\n./src/ledgerkit/parse.py\n./src/ledgerkit/report.py\n./pyproject.toml\n./AGENTS.md\n./CONVENTIONS.md\n",
        ),
        Run("tkproxy git branch --show-current", "main\n"),
        Say("We are on `main`. The package lives in `src/ledgerkit/`."),
        host="codex",
    ),
    wrong=((_NOTES_FACT, "the wrapped listing shows a Python package and its manifest"),),
)

WRAPPED_LONG_LISTING = Trap(
    "wrapped-long-listing-go-module",
    "Go",
    "`qx ls -la` shows `go.mod`, `main.go` and `internal/`; the session reads two Markdown files",
    one_session(
        "/home/tomas/code/pathfox",
        Ask("Skim the readme and the contributing guide, then check the tree is clean."),
        Read("README.md", "# pathfox\n\nFinds the shortest route through a tile map.\n"),
        Read(
            "CONTRIBUTING.md",
            "# Contributing\n\nRun every command through `qx`, our sandbox shim.\n",
        ),
        Run(
            "qx ls -la",
            "total 40\ndrwxr-xr-x  6 tomas tomas 4096 Dec  1 10:02 .\n-rw-r--r--  1 tomas tomas  212 Dec  1 10:02 CONTRIBUTING.md\n-rw-r--r--  1 tomas tomas  318 Dec  1 10:02 README.md\n-rw-r--r--  1 tomas tomas   61 Dec  1 10:02 go.mod\n-rw-r--r--  1 tomas tomas 1840 Dec  1 10:02 main.go\ndrwxr-xr-x  3 tomas tomas 4096 Dec  1 10:02 internal\n",
        ),
        Run("qx git status", "On branch main\nnothing to commit, working tree clean\n"),
        Say("The tree is clean."),
    ),
    wrong=((_NOTES_FACT, "the wrapped listing shows a Go module"),),
)

SCRIPT_PRINTED_INVENTORY = Trap(
    "script-printed-inventory-crate",
    "Rust",
    "a project script (no lister by name) prints `Cargo.toml` and `src/*.rs`; the session reads "
    "two Markdown files",
    one_session(
        "/home/wren/dev/tidepool",
        Ask("What files does the inventory script report? Read the notes on it first."),
        Read("README.md", "# tidepool\n\nA tide table calculator.\n"),
        Read("NOTES.md", "# Notes\n\n`./scripts/inventory` prints what the repository holds.\n"),
        Run(
            "./scripts/inventory",
            "Cargo.toml\nCargo.lock\nsrc/main.rs\nsrc/tides.rs\nREADME.md\nNOTES.md\n",
        ),
        Say("It reports the crate's manifest, lock file and two source files."),
    ),
    wrong=((_NOTES_FACT, "the script's output shows a Rust crate"),),
)

_LOCK = "fatal: Unable to create '/home/dana/src/quillmap/.git/index.lock': File exists.\n\nAnother git process seems to be running in this repository.\n"

COMMIT_RACE_RETRIED = Trap(
    "commit-race-retried-behind-shim",
    "Markdown",
    "the add and the commit raced for the lock; a wrapped process listing then failed; the "
    "commit was simply run again",
    one_session(
        "/home/dana/src/quillmap",
        Ask("Commit the updated spec documents."),
        Run("shx git add specs/routing.md specs/storage.md", ""),
        Run('shx git commit -m "Update the routing and storage specs"', _LOCK, 128),
        Say(
            "The commit failed because the add and the commit raced for the index lock at the same time."
        ),
        Run(
            "shx ls .git/index.lock",
            "ls: cannot access '.git/index.lock': No such file or directory\n",
            2,
        ),
        Run("shx ps aux | grep git", "ps: permission denied\n", 1),
        Run("shx git status --short", "M  specs/routing.md\nM  specs/storage.md\n"),
        Say("The lock is gone; retrying the commit."),
        Run(
            'shx git commit -m "Update the routing and storage specs"',
            "[main 4e1d2c9] Update the routing and storage specs\n 2 files changed, 14 insertions(+)\n",
        ),
        Say("Committed."),
        host="codex",
    ),
    wrong=(
        (
            r"the change made: `[^`]*\b(?:ps aux|ls \.git|git status)",
            "a look that failed is no change; running the commit again fixed it",
        ),
    ),
)

_BUILD_LOCK = "Error: another build is running (lock file .build.lock exists)\n"

FAILED_KILL_BEHIND_SHIM = Trap(
    "failed-stop-then-build-again",
    "JavaScript",
    "a wrapped `kill` failed (not permitted); the build passed when run again after the watcher ended",
    one_session(
        "/home/omar/web/starchart",
        Ask("The build keeps failing with a lock error, can you look?"),
        Run("rx npm run build", _BUILD_LOCK, 1),
        Say("The build fails because the watcher still holds the lock file `.build.lock`."),
        Run("rx kill 48211", "kill: (48211) - Operation not permitted\n", 1),
        Run("sleep 5", ""),
        Run(
            "rx npm run build",
            "> starchart@0.9.0 build\n> vite build\n\n✓ 212 modules transformed.\n✓ built in 2.41s\n",
        ),
        Say("The watcher finished; the build passes now."),
    ),
    wrong=(
        (
            r"the change made: `[^`]*\bkill\b",
            "the kill was refused and changed nothing; the build passed once the watcher ended",
        ),
    ),
)

FIXED_THEN_RERUN = Trap(
    "stopped-server-then-migrated",
    "Python",
    "quiet case: the migration failed on a locked database; a wrapped look, then a wrapped stop "
    "that passed, then the migration passed",
    one_session(
        "/home/priya/src/seedbank",
        Ask("Apply the new migration."),
        Run("wr alembic upgrade head", "sqlite3.OperationalError: database is locked\n", 1),
        Say("The migration fails because the dev server holds the SQLite database open."),
        Run("wr ps aux | grep uvicorn", "priya 9120 uvicorn seedbank.app:app --reload\n"),
        Run("wr pkill -f uvicorn", ""),
        Run(
            "wr alembic upgrade head",
            "INFO  [alembic.runtime.migration] Running upgrade 3a1f -> 7c2e, add seed lots\n",
        ),
        Say("Stopped the dev server; the migration applied."),
        host="codex",
    ),
    wrong=(
        (
            r"the change made: `[^`]*\b(?:ps aux|grep uvicorn)",
            "the process listing only looked; stopping the server was the change",
        ),
    ),
    may=(r"pkill -f uvicorn",),
)

PACKAGE_MANAGER_LS = Trap(
    "package-tree-then-dedupe",
    "JavaScript",
    "quiet case: `npm ls` is npm's own subcommand (a look), `npm dedupe` the change",
    one_session(
        "/home/kai/web/tilegrid",
        Ask("Tests fail with two copies of react loaded, why?"),
        Run(
            "npm test",
            "Error: Invalid hook call. Hooks can only be called inside of the body of a function component.\n",
            1,
        ),
        Run(
            "npm ls react",
            "tilegrid@1.2.0 /home/kai/web/tilegrid\n├── react@18.3.1\n└─┬ tilegrid-theme@0.4.0\n  └── react@18.2.0\n",
        ),
        Say(
            "The tests fail because two copies of react are installed: the theme package pins its own."
        ),
        Run("npm dedupe", "removed 1 package, and audited 412 packages in 2s\n"),
        Run("npm test", "# tests 38\n# pass 38\n# fail 0\n"),
        Say("Deduplicated; one react remains and the tests pass."),
    ),
    wrong=(
        (
            r"the change made: `npm ls",
            "`npm ls` only shows the tree; `npm dedupe` changed it",
        ),
    ),
    may=(r"npm dedupe",),
)

TASK_RUNNER_LS_NOTES = Trap(
    "task-runner-listing-journal",
    "Markdown",
    "quiet case: `make ls` is a make target listing Markdown notes; nothing is code",
    one_session(
        "/home/ella/notes/fieldbook",
        Ask("List this month's entries and add one for today."),
        Read("README.md", "# fieldbook\n\nMy field notes, one file a day.\n"),
        Run("make ls", "journal/2026-12-01.md\njournal/2026-12-03.md\njournal/2026-12-05.md\n"),
        Read("journal/2026-12-05.md", "# 5 December\n\nHeron at the weir.\n"),
        Say("Three entries this month; today's is next."),
        host="codex",
    ),
    wrong=((r"written in (?!Markdown)|\bmake test\b", "a notes repository of Markdown files"),),
)

CASES: tuple[Trap, ...] = (
    PROXIED_FILE_LIST,
    WRAPPED_LONG_LISTING,
    SCRIPT_PRINTED_INVENTORY,
    COMMIT_RACE_RETRIED,
    FAILED_KILL_BEHIND_SHIM,
    FIXED_THEN_RERUN,
    PACKAGE_MANAGER_LS,
    TASK_RUNNER_LS_NOTES,
)
