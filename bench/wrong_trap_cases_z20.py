# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `z20`: a package manager said to drive the project when it only
started an assistant add-on's helper server or printed its help, and a docs sentence read as
"how to release" (or build, or deploy) when its code span is a log line and the role word is
only a step's name (`bench/wrong_traps.py` runs them); beside them, sessions where the same
facts hold: a manager the project's install and tests run through, with its manifest read, and
a release section listing real commands.

Written blind, before any rule for them and before any of them ran, from the shapes a session
can show: a manager's `run <name> --help` at the root with no manifest of its ecosystem in
sight, while another ecosystem's tools build and test the project; an instruction file's
bullet asking to check that logs hold some entries, the entries quoted as their opening words
ending in an ellipsis.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Edit, Read, Run, Say, Trap, one_session

_ADDON_CONFIG = '{\n  "mcpServers": {\n    "docsearch": {\n      "command": "bun",\n      "args": ["run", "docsearch-server"]\n    }\n  }\n}\n'

ADDON_SERVER_PROBED = Trap(
    "addon-helper-server-probed",
    "Go",
    "`bun run <server> --help` ran twice at the root, only to start an assistant add-on's helper server; the project is a Go service built with go",
    one_session(
        "/home/ines/src/quayd",
        Ask("The docsearch add-on server keeps failing to reconnect. Why?"),
        Run("ls .claude/plugins/docsearch", "plugin.json\nservers.json\n"),
        Read(".claude/plugins/docsearch/servers.json", _ADDON_CONFIG),
        Run(
            "command -v bun && bun run docsearch-server --help 2>&1 | head -5",
            "/usr/local/bin/bun\nerror: could not open the cache folder: read-only file system\n",
        ),
        Say(
            "The server cannot write its cache folder here. Setting a writable cache folder should fix it."
        ),
        Ask("yes"),
        Edit(
            ".claude/plugins/docsearch/servers.json",
            '"args": ["run", "docsearch-server"]',
            '"args": ["run", "docsearch-server"],\n      "env": { "BUN_INSTALL_CACHE_DIR": "/tmp/bun-cache" }',
        ),
        Run(
            "mkdir -p /tmp/bun-cache && BUN_INSTALL_CACHE_DIR=/tmp/bun-cache bun run docsearch-server --help 2>&1 | tail -3",
            "docsearch-server 0.9.2\nUsage: docsearch-server [--port N]\n",
        ),
        Say("The add-on server starts now."),
    ),
    wrong=(
        (
            r"run through `?bun\b|\bbun\b[^\n]{0,20}package manager",
            "bun only started an assistant add-on's helper server; quayd is a Go service",
        ),
    ),
)

ADDON_SERVER_BESIDE_BUILD = Trap(
    "addon-server-version-beside-cargo",
    "Rust",
    "`uv run <tool> --version` twice at the root to check an add-on's helper, while cargo builds and tests the project",
    one_session(
        "/home/jon/code/tilepack",
        Ask("Check the lookup helper the assistant plugin uses still starts, then run the build."),
        Run("uv run lookup-helper --version", "lookup-helper 2.4.1\n"),
        Run(
            "cargo build",
            "   Compiling tilepack v0.3.0 (/home/jon/code/tilepack)\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 4.12s\n",
        ),
        Run("uv run lookup-helper --version", "lookup-helper 2.4.1\n"),
        Run(
            "cargo build",
            "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.08s\n",
        ),
        Run(
            "cargo test",
            "running 5 tests\n.....\ntest result: ok. 5 passed; 0 failed; 0 ignored\n",
        ),
        Say("The helper starts; the crate builds and its tests pass."),
        host="codex",
    ),
    wrong=(
        (
            r"run through `?uv\b|\buv\b[^\n]{0,20}package manager",
            "uv only printed an add-on helper's version; tilepack is a Rust crate built with cargo",
        ),
    ),
    may=(r"cargo (?:build|test)",),
)

ADDON_HELP_ONLY_CODEX = Trap(
    "helper-cli-help-twice",
    "Ruby",
    "`npm run <helper> --help` twice at the root (a Codex `shell` session); no package.json is seen and the project's specs run with bundle",
    one_session(
        "/home/marta/src/ledgerly",
        Ask("Which flags does the review helper take? Then run the specs."),
        Run(
            "npm run review-helper --help",
            "Usage: review-helper [--diff FILE] [--strict]\n",
        ),
        Run(
            "npm run review-helper -- --help",
            "Usage: review-helper [--diff FILE] [--strict]\n",
        ),
        Run(
            "bundle exec rspec",
            "Randomized with seed 123\n........\n\nFinished in 0.3 seconds\n8 examples, 0 failures\n",
        ),
        Say("The helper takes `--diff` and `--strict`; the specs pass."),
        host="codex-shell",
    ),
    wrong=(
        (
            r"run through `?npm\b|\bnpm\b[^\n]{0,20}package manager",
            "npm only printed a helper's usage; ledgerly's specs run with bundle and no package.json was seen",
        ),
    ),
)

_PACKAGE_JSON = '{\n  "name": "chartkit",\n  "version": "1.4.0",\n  "packageManager": "pnpm@9.12.0",\n  "scripts": { "test": "vitest run", "build": "tsup" },\n  "devDependencies": { "vitest": "^2.1.0", "tsup": "^8.3.0" }\n}\n'

REAL_MANAGER = Trap(
    "manager-drives-install-and-tests",
    "TypeScript",
    "must stay right: `pnpm install` and `pnpm test` with package.json read; pnpm is the project's manager",
    one_session(
        "/home/ana/src/chartkit",
        Ask("Install and run the tests, please."),
        Read("package.json", _PACKAGE_JSON),
        Run(
            "pnpm install",
            "Lockfile is up to date, resolution step is skipped\nPackages: +142\nDone in 1.9s\n",
        ),
        Run(
            "pnpm test",
            "> chartkit@1.4.0 test\n> vitest run\n\n Test Files  6 passed (6)\n      Tests  48 passed (48)\n",
        ),
        Say("Installed; the 48 tests pass."),
    ),
    wrong=(
        (
            r"run through `?(?:npm|yarn|bun)\b",
            "chartkit runs through pnpm, never npm, yarn or bun",
        ),
    ),
    may=(r"run through `?pnpm",),
)

_AGENTS_LOGS = (
    "# Agent notes\n\n"
    "## Checking the ingest workflow\n\n"
    "- Run `./bin/ingestctl replay --since 1h` to replay the last hour.\n"
    "- Confirm the worker logs contain `Starting step for ...` entries for the fetch, transform, and publish steps.\n"
)

LOG_LINE_SPAN = Trap(
    "log-entries-under-a-workflow-check",
    "Python",
    "an instruction file's bullet asks to check logs for `Starting step for ...` entries; \"publish\" is only a step's name",
    one_session(
        "/home/li/src/streamhub",
        Ask("Read the agent notes and tell me how the design docs describe the ingest worker."),
        Read("AGENTS.md", _AGENTS_LOGS),
        Run("ls docs", "design.md\ningest.md\n"),
        Run(
            "grep -n worker docs/ingest.md",
            "12:The worker pulls batches from the queue.\n",
        ),
        Say("The ingest doc says the worker pulls batches from the queue."),
        host="codex-shell",
    ),
    wrong=(
        (
            r"says how to (?:release|publish)",
            "the sentence tells how to check log lines; no release is described",
        ),
    ),
)

_CLAUDE_LOGS = (
    "# Notes\n\n"
    "## Verifying a pipeline run\n\n"
    "- Make sure the output shows `Finished stage in ...` for the lint, build and deploy stages.\n"
    "- Check that the service log has `INFO Pipeline complete` at the end.\n"
)

LOG_LINE_SPAN_CLAUDE = Trap(
    "output-lines-under-a-verify-heading",
    "Java",
    "an instruction file asks to check output lines (`Finished stage in ...`, `INFO Pipeline complete`); build and deploy are stage names",
    one_session(
        "/home/ravi/src/orderflow",
        Ask("What does CLAUDE.md say about verifying a run?"),
        Read("CLAUDE.md", _CLAUDE_LOGS),
        Run(
            "./gradlew test",
            "> Task :test\n\nBUILD SUCCESSFUL in 6s\n4 actionable tasks: 1 executed, 3 up-to-date\n",
        ),
        Say("It asks to check the stage lines and the final log line."),
    ),
    wrong=(
        (
            r"says how to (?:build|deploy|lint)",
            "the sentences tell how to check output lines; build, lint and deploy are stage names",
        ),
    ),
    may=(r"\./gradlew test",),
)

_RELEASE_DOC = (
    "# Contributor notes\n\n"
    "## Releasing\n\n"
    "- Bump the version with `./scripts/bump-version.sh 2.1.0`.\n"
    "- Publish the package with `./scripts/cut-release.sh --sign`.\n"
)

REAL_RELEASE_SECTION = Trap(
    "release-section-with-commands",
    "Python",
    "must stay right: a release section listing real commands; the file says how to release",
    one_session(
        "/home/sam/src/quillpy",
        Ask("How do we cut a new version? Check AGENTS.md and run the tests."),
        Read("AGENTS.md", _RELEASE_DOC),
        Run("uv run pytest -q", "........                  [100%]\n8 passed in 0.21s\n"),
        Say("AGENTS.md gives the two release scripts; the tests pass."),
        host="codex",
    ),
    wrong=(
        (
            r"says how to (?:test|build|deploy)[^\n]*cut-release",
            "the release scripts cut a release; they neither test, build nor deploy",
        ),
    ),
    may=(r"says how to release",),
)

CASES: tuple[Trap, ...] = (
    ADDON_SERVER_PROBED,
    ADDON_SERVER_BESIDE_BUILD,
    ADDON_HELP_ONLY_CODEX,
    REAL_MANAGER,
    LOG_LINE_SPAN,
    LOG_LINE_SPAN_CLAUDE,
    REAL_RELEASE_SECTION,
)
