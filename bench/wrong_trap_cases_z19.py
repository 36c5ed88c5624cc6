# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `z19`: an instruction file stated as it was before the session changed
it through a shell command or a script (seen only in a status line, a diff, a redirection or an
in-place substitution), and a bullet list under a sentence naming a nested folder stated as the
project's top-level folders, or a layout stated for a code project whose manifest showed only in
a listing (`bench/wrong_traps.py` runs them). Beside them, the cases that must stay right: an
instruction file changed by an edit tool (its new text is known), a file changed by a script and
read again (the new read holds), a status that lists other files, and bullets at the top of a
layout section (root folders).

Written blind, before any rule for them and before any of them ran, from the ways a session can
change a file without an edit tool and the ways a list can sit under another folder.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Edit, Read, Run, Say, Trap, one_session

_DIFF_APPENDED = (
    "diff --git a/AGENTS.md b/AGENTS.md\nindex 3f2a1b0..9c8d7e6 100644\n--- a/AGENTS.md\n+++ b/AGENTS.md\n"
    "@@ -1 +1,8 @@\n @HANDBOOK.md\n+\n+## Checks\n+\n+- Run `tox -e lint` before every push.\n+- Keep the CLI's help text in sync with `docs/cli.md`.\n"
)

SCRIPT_APPENDS_TO_AGENTS = Trap(
    "agents-file-grown-by-a-script",
    "Python",
    "`AGENTS.md` was one `@HANDBOOK.md` line when read; a script then appended sections to it, seen only in status and diff",
    one_session(
        "/home/ines/src/tidewatch",
        Ask("Sync the agent rules from the handbook with the script, then commit."),
        Read("AGENTS.md", "@HANDBOOK.md\n"),
        Read(
            "HANDBOOK.md",
            "# Handbook\n\n- Write docstrings for every public function.\n- Prefer small pull requests.\n",
        ),
        Run("./scripts/sync_agent_rules.sh", "Updated AGENTS.md\n"),
        Run("git status --short", " M AGENTS.md\n"),
        Run("git diff AGENTS.md", _DIFF_APPENDED),
        Run("git add AGENTS.md", ""),
        Run(
            'git commit -m "Sync agent rules"',
            "[main 4e5f6a7] Sync agent rules\n 1 file changed, 7 insertions(+)\n",
        ),
        Say("The script updated `AGENTS.md` with the checks section; committed."),
        host="codex",
    ),
    wrong=(
        (
            r"only imports|instructions are kept in `?HANDBOOK",
            "the script appended its own sections to AGENTS.md after the read",
        ),
    ),
)

_CLAUDE_MAKE = (
    "# Rules\n\n- Run `make check` before every commit.\n- Keep handlers in `internal/http/`.\n"
)

SED_REWRITES_CLAUDE = Trap(
    "claude-file-rewritten-in-place",
    "Go",
    "CLAUDE.md said `make check`; the session moved to `just` and rewrote that line with `sed -i`",
    one_session(
        "/home/pavel/code/ferrylog",
        Ask("We switched from make to just. Fix the rules file and run the checks."),
        Read("CLAUDE.md", _CLAUDE_MAKE),
        Run("git rm -q Makefile", ""),
        Run("sed -i 's/make check/just check/' CLAUDE.md", ""),
        Run(
            "just check",
            "go vet ./...\ngo test ./...\nok  \tgithub.com/pavel/ferrylog\t0.122s\n",
        ),
        Say("CLAUDE.md now says `just check`; the checks pass."),
    ),
    wrong=(
        (
            r"`make check`(?![^\n]*(?:dropped|removed|no longer|instead))",
            "the session removed the Makefile and rewrote that line to `just check`",
        ),
    ),
    may=(r"just check",),
)

APPENDED_BY_REDIRECT = Trap(
    "claude-file-appended-by-echo",
    "Ruby",
    "CLAUDE.md was one `@docs/agents.md` line when read; the session appended a rule with `>>`",
    one_session(
        "/home/kofi/src/ledgerline",
        Ask("Add a rule that we always go through bundler, then run the specs."),
        Read("CLAUDE.md", "@docs/agents.md\n"),
        Read("docs/agents.md", "# Agents\n\n- Keep models thin; logic goes in `app/services/`.\n"),
        Run("echo '- Always run Ruby through `bundle exec`.' >> CLAUDE.md", ""),
        Run(
            "bundle exec rspec",
            "Randomized with seed 311\n.......\n\nFinished in 0.2 seconds\n7 examples, 0 failures\n",
        ),
        Say("Added the bundler rule to CLAUDE.md; specs pass."),
    ),
    wrong=(
        (
            r"only imports|instructions are kept in `?docs/agents",
            "the session appended its own rule to CLAUDE.md after the read",
        ),
    ),
    may=(r"bundle exec rspec",),
)

EDIT_TOOL_GROWS_AGENTS = Trap(
    "agents-file-grown-by-an-edit",
    "Go",
    "AGENTS.md was one `@GUIDE.md` line; the session added a testing rule with an edit tool (its new text is known)",
    one_session(
        "/home/sara/code/quaymap",
        Ask("Add a rule that the tests always run with the race detector."),
        Read("AGENTS.md", "@GUIDE.md\n"),
        Edit(
            "AGENTS.md",
            "@GUIDE.md\n",
            "@GUIDE.md\n\n## Testing\n\n- Always run `go test -race ./...` before pushing.\n",
        ),
        Run("go test -race ./...", "ok  \tgithub.com/sara/quaymap\t1.311s\n"),
        Say("AGENTS.md now asks for `go test -race ./...`; it passes."),
        host="codex",
    ),
    wrong=(
        (
            r"only imports|instructions are kept in `?GUIDE",
            "the edit added a testing section to AGENTS.md",
        ),
    ),
    may=(r"go test -race",),
)

SCRIPT_THEN_READ_AGAIN = Trap(
    "claude-file-regenerated-then-read",
    "TypeScript",
    "CLAUDE.md was one import line; a script rewrote it and the session read it again (the new read holds)",
    one_session(
        "/home/mei/src/pinecrate",
        Ask("Regenerate the rules file from the template and show me what it says now."),
        Read("CLAUDE.md", "@NOTES.md\n"),
        Run("node scripts/render-rules.mjs", "Wrote CLAUDE.md\n"),
        Run("git status --short", " M CLAUDE.md\n"),
        Read(
            "CLAUDE.md",
            "@NOTES.md\n\n## Rules\n\n- Never edit `vendor/` by hand; run `pnpm vendor:sync` instead.\n",
        ),
        Run("pnpm test", " Test Files  3 passed (3)\n      Tests  19 passed (19)\n"),
        Say("CLAUDE.md now carries the vendor rule besides the import."),
    ),
    wrong=(
        (
            r"only imports|instructions are kept in `?NOTES",
            "the rewritten file, read again, holds its own rule",
        ),
    ),
    may=(r"vendor", r"pnpm test"),
)

OTHER_FILES_MODIFIED = Trap(
    "status-lists-other-files",
    "Rust",
    "AGENTS.md is one import line; the status lists other files as modified, never AGENTS.md",
    one_session(
        "/home/tomas/code/brineq",
        Ask("Where are the agent rules kept? Then run the tests."),
        Read("AGENTS.md", "@CONTRIBUTING.md\n"),
        Read(
            "CONTRIBUTING.md",
            "# Contributing\n\n- Run `cargo clippy -- -D warnings` before a pull request.\n",
        ),
        Run("git status --short", " M src/queue.rs\n?? notes.txt\n"),
        Run(
            "cargo test",
            "running 9 tests\n.........\ntest result: ok. 9 passed; 0 failed; 0 ignored\n",
        ),
        Say("The rules live in CONTRIBUTING.md; AGENTS.md only points there. Tests pass."),
        host="codex",
    ),
    wrong=(
        (
            r"instructions are kept in `?src/|only imports `?notes",
            "AGENTS.md imports CONTRIBUTING.md; nothing else",
        ),
    ),
    may=(r"only imports `?CONTRIBUTING",),
)

_AGENTS_WITH_FIXTURES = (
    "# Agent guide\n\n## Build\n\n- Run `cargo build` and `cargo test`.\n\n## Testing\n\n"
    "The sample crates the tests run against are located in `tests/samples/`:\n\n"
    "- `one-module/` - a crate with a single module\n- `with-macros/` - a crate that defines derive macros\n"
    "- `broken-toml/` - a crate whose manifest does not parse\n"
)

NESTED_BULLETS_CODEX = Trap(
    "sample-crates-listed-under-tests",
    "Rust",
    "the bullets under a sentence naming `tests/samples/` are that folder's entries; the root holds `src/` and `tests/`",
    one_session(
        "/home/nadia/code/cratewise",
        Ask("Which sample crates do the tests use? Add one with a build script later."),
        Run("ls", "Cargo.lock\nCargo.toml\nREADME.md\nsrc\ntests\n"),
        Read("AGENTS.md", _AGENTS_WITH_FIXTURES),
        Run(
            "cargo test",
            "running 14 tests\n..............\ntest result: ok. 14 passed; 0 failed; 0 ignored\n",
        ),
        Say("Three sample crates under `tests/samples/`; the suite passes."),
        host="codex",
    ),
    wrong=(
        (
            r"`(?:one-module|with-macros|broken-toml)/`",
            "those folders are in `tests/samples/`, not at the project's root",
        ),
    ),
    may=(r"cargo test",),
)

_README_NOTES = (
    "# Field notes\n\n## Layout\n\n- `journal/` - one note per day, named by date\n"
    "- `projects/` - one folder per running project\n- `people/` - a page per colleague\n\n"
    "## Templates\n\nThe forms live in `meta/forms/`:\n\n- `weekly/` - the weekly review questions\n"
    "- `meeting/` - the notes kept for every meeting\n"
)

NESTED_BULLETS_NOTES = Trap(
    "notes-forms-under-a-meta-folder",
    "Markdown notes",
    "the README's layout bullets are root folders; the forms' bullets sit under `meta/forms/`",
    one_session(
        "/home/lena/notes/fieldbook",
        Ask("Add a retro form beside the weekly one."),
        Read("README.md", _README_NOTES),
        Run("ls meta/forms", "meeting\nweekly\n"),
        Read("meta/forms/weekly/review.md", "# Weekly review\n\n- What went well?\n"),
        Read("journal/2026-03-02.md", "# 2 March\n\n- Started the retro form.\n"),
        Say("Added `meta/forms/retro/` beside the weekly form."),
    ),
    wrong=(
        (
            r"`(?:weekly|meeting)/`",
            "the forms are in `meta/forms/`, not at the notes' root",
        ),
    ),
    may=(r"`journal/`[^\n]*one note per day",),
)

_README_DATA = (
    "# scorecast\n\nForecasts match scores from past seasons.\n\n## Data\n\n"
    "Sample inputs are kept in `tests/data/`:\n\n- `premier/` - three seasons of league results\n"
    "- `cups/` - knockout rounds with extra time\n- `friendlies/` - matches with no standings\n"
)

NESTED_BULLETS_LISTED_MANIFEST = Trap(
    "sample-inputs-under-tests-data",
    "Python",
    "the README's bullets sit under `tests/data/`; the manifest showed only in a listing of the root",
    one_session(
        "/home/owen/src/scorecast",
        Ask("Which sample inputs do we have? I want a women's league one too."),
        Run("ls -a", ".\n..\n.gitignore\nREADME.md\npyproject.toml\nscorecast\ntests\nuv.lock\n"),
        Read("README.md", _README_DATA),
        Run(
            "uv run pytest -q",
            "..........                                               [100%]\n10 passed in 0.41s\n",
        ),
        Say("Three sample sets in `tests/data/`; I will add the new league beside them."),
    ),
    wrong=(
        (
            r"`(?:premier|cups|friendlies)/`",
            "those folders are in `tests/data/`, not at the project's root",
        ),
    ),
    may=(r"uv run pytest",),
)

_README_VAULT = (
    "# Reading log\n\n## Folders\n\n- `books/` - one note per book, with quotes\n"
    "- `papers/` - summaries of papers, by year\n- `queue/` - what to read next\n"
)

ROOT_BULLETS_CODEX = Trap(
    "reading-vault-folders",
    "Markdown notes",
    "the README's bullets sit at the top of its folders section: they are the root folders",
    one_session(
        "/home/ayo/notes/readlog",
        Ask("File the new paper summary where it belongs."),
        Read("README.md", _README_VAULT),
        Run("ls", "README.md\nbooks\npapers\nqueue\n"),
        Read("papers/2025/attention-sinks.md", "# Attention sinks\n\nSummary to come.\n"),
        Read("queue/next.md", "# Next\n\n- Attention sinks\n"),
        Say("Filed it under `papers/2025/` and took it off the queue."),
        host="codex",
    ),
    wrong=(
        (
            r"`(?:books|papers|queue)/[^`\n]+/`",
            "the folders are at the root; nothing nested is said",
        ),
    ),
    may=(r"`papers/`[^\n]*summaries of papers",),
)

CASES: tuple[Trap, ...] = (
    SCRIPT_APPENDS_TO_AGENTS,
    SED_REWRITES_CLAUDE,
    APPENDED_BY_REDIRECT,
    EDIT_TOOL_GROWS_AGENTS,
    SCRIPT_THEN_READ_AGAIN,
    OTHER_FILES_MODIFIED,
    NESTED_BULLETS_CODEX,
    NESTED_BULLETS_NOTES,
    NESTED_BULLETS_LISTED_MANIFEST,
    ROOT_BULLETS_CODEX,
)
