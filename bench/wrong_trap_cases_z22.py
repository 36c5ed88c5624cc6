# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `z22`: what the project is, said from a file a hook printed into the
session (a start-of-session hook that shows an instruction file, a README or a plan) when the
file is not the project's own root file, is cut in the middle of a sentence, is a template, is
followed by the hook's other output, or was pasted by the user (`bench/wrong_traps.py` runs
them); beside them, sessions where a hook shows the root instruction file whole up to its
overview, so the right fact may be said.

Written blind, before any rule for them and before any of them ran, from the shapes a
session-start hook can print: a line naming the file (`--- Content from CLAUDE.md ---`, `==>
AGENTS.md <==`) and the file's text, each file often cut to its first characters; the user's
own instruction file from their home folder, a sub-folder's or a sibling checkout's file, a
planning note, a scaffold's placeholder, the hook's own later sections (recent commits, open
issues); a stale overview the session then rewrites; the same text typed by the user from
another repository.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Edit, Read, Run, Say, Trap, one_session


def _hook(body: str) -> str:
    """A start-of-session hook's text as older Claude Code hosts wrap it into the first turn."""
    return f"<session-start-hook>Session started at: 2026-11-02 09:14:03\nGit branch: main\n\n{body}</session-start-hook>"


_GO_TESTS = "ok  \tgithub.com/rin/pathwarden/internal/scan\t0.412s\nok  \tgithub.com/rin/pathwarden/cmd/pathwarden\t0.118s\n"

HOME_FILE_PRINTED = Trap(
    "hook-prints-home-folder-notes",
    "Go",
    "a start hook prints the user's own `~/.claude/CLAUDE.md`, whose overview describes another project (a Django shop); the project is a Go CLI",
    one_session(
        "/home/rin/src/pathwarden",
        Ask(
            _hook(
                "--- Content from ~/.claude/CLAUDE.md ---\n# My notes\n\n## Project Overview\n\nstorefront is a Django web shop with a Celery worker and a Postgres database, deployed to Heroku.\n\n## Habits\n\n- Keep replies short.\n"
            )
        ),
        Ask("Run the tests and tell me if the scanner package passes."),
        Run("go test ./...", _GO_TESTS),
        Say("Both packages pass."),
    ),
    wrong=(
        (
            r"\b(?:django|celery|heroku|storefront|web shop)\b",
            "the overview is the user's home-folder notes about another project; this one is a Go CLI",
        ),
    ),
)

SUBFOLDER_FILE_PRINTED = Trap(
    "hook-prints-nested-service-notes",
    "TypeScript",
    "a start hook prints `services/ledger/CLAUDE.md`, a sub-folder's file whose overview describes one Kotlin service of a TypeScript monorepo",
    one_session(
        "/home/ana/src/harbor-suite",
        Ask(
            _hook(
                "--- Content from services/ledger/CLAUDE.md ---\n# CLAUDE.md\n\n## Project Overview\n\nledger is a Kotlin service on Ktor that books double-entry transactions into Postgres.\n\n## Commands\n\n- `./gradlew test`\n"
            )
        ),
        Ask("Is the web app's build green?"),
        Read(
            "package.json",
            '{\n  "name": "harbor-suite",\n  "private": true,\n  "workspaces": ["apps/*", "services/*"],\n  "scripts": { "build": "turbo run build" }\n}\n',
        ),
        Run(
            "npm run build",
            "> harbor-suite build\n> turbo run build\n\n Tasks:    4 successful, 4 total\n",
        ),
        Say("The build is green."),
    ),
    wrong=(
        (
            r"\b(?:kotlin|ktor|double-entry)\b",
            "the overview is one sub-folder service's file; the repository is a TypeScript monorepo",
        ),
    ),
)

PLAN_NOTE_PRINTED = Trap(
    "hook-prints-context-note",
    "JavaScript",
    "a start hook prints `.claude/CONTEXT.md`, a planning note whose overview describes a rewrite not begun; the project is an Electron app in JavaScript",
    one_session(
        "/home/oli/src/notewell",
        Ask(
            _hook(
                "--- Content from .claude/CONTEXT.md ---\n# Context\n\n## Overview\n\nnotewell is a desktop note-taking app written in Rust on Tauri, with a SQLite store.\n\n## Next steps\n\n- Start the Tauri shell.\n"
            )
        ),
        Ask("Start the app so I can check the sidebar."),
        Read(
            "package.json",
            '{\n  "name": "notewell",\n  "main": "main.js",\n  "scripts": { "start": "electron ." },\n  "devDependencies": { "electron": "^33.0.0" }\n}\n',
        ),
        Run("npm start", "> notewell@0.4.0 start\n> electron .\n\n[main] window ready\n"),
        Say("The app is running."),
    ),
    wrong=(
        (
            r"\b(?:tauri|written in rust|rust on)\b",
            "the note plans a rewrite; notewell is an Electron app in JavaScript",
        ),
    ),
)

CUT_MID_SENTENCE = Trap(
    "hook-cuts-overview-short",
    "Go",
    "a start hook prints `CLAUDE.md` cut in the middle of its overview's sentence (a hook that keeps each file's first characters)",
    one_session(
        "/home/kai/src/ferryd",
        Ask(
            _hook(
                "--- Content from CLAUDE.md ---\n# CLAUDE.md\n\nThis file provides guidance to Claude Code (claude.ai/code) when working with code in this repository.\n\n## Project Overview\n\nferryd is a folder-sync daemon written in Go that mirrors folders to object storage, with its web dashboard in TypeScr"
            )
        ),
        Ask("Run the tests."),
        Run("go test ./...", "ok  \tgithub.com/kai/ferryd/sync\t0.301s\n"),
        Say("The tests pass."),
    ),
    wrong=(
        (
            r"\btypescr\b|typescr(?!ipt)",
            "the overview's sentence was cut by the hook; a cut word is no fact",
        ),
    ),
)

TYPED_FROM_ANOTHER_REPO = Trap(
    "user-pastes-overview-from-elsewhere",
    "Rust",
    "the user pastes another repository's instruction file (with the same `--- Content from CLAUDE.md ---` line) to ask for one like it; the project is a Rust crate",
    one_session(
        "/home/mia/src/tilecache",
        Ask(
            "This is what my other repo's hook prints at start. Can we write a CLAUDE.md like it here?\n\n--- Content from CLAUDE.md ---\n# CLAUDE.md\n\n## Project Overview\n\nnimbus is a Flask app that serves weather maps from a Redis cache.\n\n## Commands\n\n- `flask run`\n"
        ),
        Run(
            "cargo test",
            "running 9 tests\n.........\ntest result: ok. 9 passed; 0 failed; 0 ignored\n",
        ),
        Say("Here is a draft for this crate; the tests pass as it stands."),
    ),
    wrong=(
        (
            r"\b(?:flask|redis|weather maps|nimbus)\b",
            "the pasted overview is another repository's; tilecache is a Rust crate",
        ),
    ),
)

SIBLING_CHECKOUT_PRINTED = Trap(
    "hook-prints-sibling-checkout-notes",
    "Python",
    "a start hook prints a sibling checkout's `CLAUDE.md` by its absolute path; the project is a Python package",
    one_session(
        "/home/lee/src/quillpy",
        Ask(
            _hook(
                "--- Content from /home/lee/src/quill-ios/CLAUDE.md ---\n# CLAUDE.md\n\n## Project Overview\n\nquill-ios is an iPhone app in Swift and SwiftUI that syncs drafts through CloudKit.\n"
            )
        ),
        Ask("Run the test suite."),
        Read(
            "pyproject.toml",
            '[project]\nname = "quillpy"\nversion = "0.3.1"\ndescription = "Markdown draft tools"\nrequires-python = ">=3.11"\n',
        ),
        Run(
            "pytest -q",
            "........                                                                 [100%]\n8 passed in 0.21s\n",
        ),
        Say("All 8 tests pass."),
    ),
    wrong=(
        (
            r"\b(?:swift|swiftui|cloudkit|iphone app)\b",
            "the printed file is a sibling checkout's; quillpy is a Python package",
        ),
    ),
)

STALE_OVERVIEW_REWRITTEN = Trap(
    "hook-overview-then-rewritten",
    "Rust",
    "a start hook prints `CLAUDE.md` with an overview that says Python; the user says it is stale and the session rewrites it to say Rust",
    one_session(
        "/home/eva/src/graphlet",
        Ask(
            _hook(
                "--- Content from CLAUDE.md ---\n# CLAUDE.md\n\n## Project Overview\n\ngraphlet is a Python library for small graph algorithms, packaged with setuptools.\n\n## Notes\n\n- keep the API small\n"
            )
        ),
        Ask(
            "The overview in CLAUDE.md is stale: we moved to Rust last month. Fix it, then run the tests."
        ),
        Edit(
            "CLAUDE.md",
            "graphlet is a Python library for small graph algorithms, packaged with setuptools.",
            "graphlet is a Rust crate of small graph algorithms, built with Cargo.",
        ),
        Run(
            "cargo test",
            "running 14 tests\n..............\ntest result: ok. 14 passed; 0 failed; 0 ignored\n",
        ),
        Say("I updated the overview; the 14 tests pass."),
    ),
    wrong=(
        (
            r"\b(?:python library|setuptools)\b",
            "the printed overview was stale and the session rewrote it: graphlet is a Rust crate",
        ),
    ),
)

HOOK_SECTIONS_AFTER_FILE = Trap(
    "hook-notes-then-open-issues",
    "Python",
    "a start hook prints a `CLAUDE.md` with no description, then its own sections (recent commits, open issues: a port to Go is proposed)",
    one_session(
        "/home/sam/src/batchq",
        Ask(
            _hook(
                "--- Content from CLAUDE.md ---\n# CLAUDE.md\n\n## Commands\n\n- `pytest -q`\n- `ruff check .`\n\n--- Open issues ---\n#41 batchq should be a Go service for speed: port the scheduler\n#38 flaky retry test\n"
            )
        ),
        Ask("Fix the flaky retry test."),
        Run(
            "pytest -q tests/test_retry.py",
            "...                                                                      [100%]\n3 passed in 0.09s\n",
        ),
        Say("The retry test passes now."),
    ),
    wrong=(
        (
            r"\bgo service\b|\bwritten in go\b|\bis a go\b",
            "a proposal in the hook's issue list, not what batchq is",
        ),
    ),
)

TEMPLATE_PRINTED = Trap(
    "hook-prints-scaffold-placeholder",
    "Elixir",
    "a start hook prints a scaffold's `CLAUDE.md` whose overview is a placeholder to fill in",
    one_session(
        "/home/noa/src/relaymix",
        Ask(
            _hook(
                "--- Content from CLAUDE.md ---\n# CLAUDE.md\n\n## Project Overview\n\n[Describe your project here: what it does, who uses it and the main technologies.]\n\n## Commands\n\n- TODO\n"
            )
        ),
        Ask("Run the tests."),
        Run(
            "mix test",
            "..........\nFinished in 0.2 seconds (0.1s async, 0.1s sync)\n10 tests, 0 failures\n",
        ),
        Say("All 10 tests pass."),
    ),
    wrong=(
        (
            r"describe your project|main technologies|who uses it",
            "the overview is a scaffold's placeholder, not a description",
        ),
    ),
)

ROOT_FILE_PRINTED = Trap(
    "hook-prints-root-notes-cut-later",
    "Elixir",
    "must stay right: a start hook prints the root `CLAUDE.md`, cut inside a later section; the overview before it is whole",
    one_session(
        "/home/ivo/src/queuebell",
        Ask(
            _hook(
                "--- Content from CLAUDE.md ---\n# CLAUDE.md\n\nThis file provides guidance to Claude Code (claude.ai/code) when working with code in this repository.\n\n## Project Overview\n\nqueuebell is a notification relay in Elixir on Phoenix: it takes webhook events and fans them out to email and chat channels.\n\n## Architecture\n\n- `lib/queuebell/router.ex`: picks the chann"
            )
        ),
        Ask("Run the tests."),
        Run(
            "mix test",
            "............\nFinished in 0.3 seconds (0.2s async, 0.1s sync)\n12 tests, 0 failures\n",
        ),
        Say("All 12 tests pass."),
    ),
    wrong=(
        (
            r"\bchann\b|picks the chann",
            "the architecture line was cut by the hook",
        ),
    ),
    may=(r"notification relay",),
)

HEAD_PRINTED_FILES = Trap(
    "start-hook-heads-two-files",
    "Python",
    "must stay right: a start hook runs `head` on the root `AGENTS.md` and a sub-folder's README (`==> file <==` lines); only the root file says what the project is",
    one_session(
        "/home/tom/src/sheetsync",
        Ask(
            _hook(
                "==> AGENTS.md <==\n# Agent guide\n\n## About\n\nsheetsync copies rows between spreadsheets and a Postgres database on a schedule.\n\n==> examples/demo-app/README.md <==\n# demo-app\n\ndemo-app is a Vue single-page app that shows the synced rows.\n"
            )
        ),
        Ask("Run the tests."),
        Run(
            "pytest -q",
            "..........                                                               [100%]\n10 passed in 0.44s\n",
        ),
        Say("All 10 tests pass."),
    ),
    wrong=(
        (
            r"\b(?:vue|single-page app)\b",
            "the Vue app is a sub-folder's example, not the project",
        ),
    ),
    may=(r"copies rows between spreadsheets",),
)

CASES: tuple[Trap, ...] = (
    HOME_FILE_PRINTED,
    SUBFOLDER_FILE_PRINTED,
    PLAN_NOTE_PRINTED,
    CUT_MID_SENTENCE,
    TYPED_FROM_ANOTHER_REPO,
    SIBLING_CHECKOUT_PRINTED,
    STALE_OVERVIEW_REWRITTEN,
    HOOK_SECTIONS_AFTER_FILE,
    TEMPLATE_PRINTED,
    ROOT_FILE_PRINTED,
    HEAD_PRINTED_FILES,
)
