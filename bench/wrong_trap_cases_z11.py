# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `z11`: a test fixture's tree stated as the project's layout, an
instruction file stated as it was before the session changed it, and the steps a command or
a runbook takes when something fails stated as its steps (`bench/wrong_traps.py` runs them).

Written blind, from the kinds of wrong claim a second round of independent judges found on
the held-out and fresh projects (a test-fixture folder's layout stated as the whole
project's; an instruction file's contents stated as they were before the session itself
changed and committed that file; a command's failure-handling list stated as the steps the
command runs), before any of these traps ran and with no rule changed for them.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Edit, Read, Run, Say, Trap, Write, one_session

_NESTED_FIXTURE = (
    "tests/fixtures/nested_project\n"
    "tests/fixtures/nested_project/setup.cfg\n"
    "tests/fixtures/nested_project/src\n"
    "tests/fixtures/nested_project/src/app\n"
    "tests/fixtures/nested_project/src/app/__init__.py\n"
    "tests/fixtures/nested_project/lib\n"
    "tests/fixtures/nested_project/lib/vendored.py\n"
)

FIXTURE_TREE = Trap(
    "fixture-tree-is-not-the-layout",
    "Python",
    "the tree of a test fixture (a small project the importer is tested on) is listed in full",
    one_session(
        "/home/noor/src/importer",
        Ask("The importer skips packages nested under src/. Fix it."),
        Run("ls", "README.md\nimporter\npyproject.toml\ntests\n"),
        Run("find tests/fixtures/nested_project -maxdepth 3", _NESTED_FIXTURE),
        Read(
            "importer/walk.py",
            "def packages(root):\n    return [p for p in root.iterdir() if (p / '__init__.py').exists()]\n",
        ),
        Edit(
            "importer/walk.py",
            "    return [p for p in root.iterdir() if (p / '__init__.py').exists()]",
            "    return [p.parent for p in root.rglob('__init__.py')]",
        ),
        Run("python -m pytest -q", "......\n6 passed in 0.12s"),
        Say(
            "Nested packages are found now; the fixture under `tests/fixtures/nested_project` covers it."
        ),
    ),
    wrong=(
        (
            r"(?<![/\w.])(?:src|lib)/(?!app/__init__)|(?<![/\w.])setup\.cfg",
            "`src/`, `lib/` and `setup.cfg` are a test fixture's, not the importer's own layout",
        ),
    ),
)

_MONOREPO_FIXTURE = "apps\ngo.work\npackages\n"

FIXTURE_MONOREPO = Trap(
    "fixture-monorepo-is-not-the-project",
    "Go",
    "a `testdata/` workspace of apps and packages is listed and read; the project is one module",
    one_session(
        "/home/noor/src/modpick",
        Ask("modpick picks the wrong go.mod inside nested workspaces; please fix."),
        Run("ls", "go.mod\nmain.go\nresolve.go\nresolve_test.go\ntestdata\n"),
        Run("ls testdata/workspace", _MONOREPO_FIXTURE),
        Run(
            "cat testdata/workspace/go.work",
            "go 1.22\n\nuse (\n\t./apps/web\n\t./packages/auth\n)\n",
        ),
        Read(
            "resolve.go",
            'package main\n\nfunc nearest(dir string) string {\n\treturn findUp(dir, "go.mod")\n}\n',
        ),
        Edit(
            "resolve.go",
            '\treturn findUp(dir, "go.mod")',
            '\tif w := findUp(dir, "go.work"); w != "" {\n\t\treturn w\n\t}\n\treturn findUp(dir, "go.mod")',
        ),
        Run("go test ./...", "ok  \tgithub.com/noor/modpick\t0.210s"),
        Say("The resolver now prefers an enclosing go.work; `testdata/workspace` exercises it."),
    ),
    wrong=(
        (
            # (not inside a name in backticks: the bench names the project's folder after the trap)
            r"\b(?:project|repository|repo|modpick)\b[^\n`]{0,60}\b(?:monorepo|go workspace|workspace of)\b|(?<![/\w.])(?:apps|packages)/(?:web|auth)",
            "the workspace of apps and packages is a test fixture; modpick is one Go module",
        ),
    ),
    may=(r"\bGo\b",),
)

FIXTURE_SITE = Trap(
    "fixture-site-is-not-the-app",
    "TypeScript",
    "a `__fixtures__` Next.js site a bundler plugin is tested on is listed and its config read",
    one_session(
        "/home/noor/src/asset-hash",
        Ask("The plugin breaks on Next's app router, look into it."),
        Run(
            "ls",
            "package.json\nsrc\ntsconfig.json\nvitest.config.ts\n",
        ),
        Run(
            "ls src/__fixtures__/next-app",
            "app\nnext.config.js\npackage.json\npublic\n",
        ),
        Read(
            "src/__fixtures__/next-app/next.config.js",
            "module.exports = { experimental: { appDir: true } };\n",
        ),
        Read(
            "package.json",
            '{\n  "name": "asset-hash",\n  "type": "module",\n  "scripts": { "test": "vitest run" },\n  "devDependencies": { "typescript": "^5.5.0", "vitest": "^2.0.0" }\n}\n',
        ),
        Run("npx vitest run", " ✓ src/plugin.test.ts (9 tests) 41ms\n Test Files  1 passed (1)"),
        Say("The app-router case passes against the fixture site."),
    ),
    wrong=(
        (
            r"(?:built with|uses|is a|project)[^\n]{0,40}\bNext(?:\.js)?\b|(?<![/\w.])(?:app|public)/\s|(?<![/\w.])next\.config\.js(?![^\n]*__fixtures__)",
            "the Next.js site is a test fixture; the project is a TypeScript bundler plugin",
        ),
    ),
    may=(r"TypeScript",),
)

_CLAUDE_BEFORE = (
    "# notes\n\n"
    "## Rules\n"
    "The coding rules live in `docs/RULES.md`; read them before changing code.\n"
)
_CLAUDE_AFTER_RULES = (
    "## Rules\n- No `unwrap()` outside tests.\n- Every public function has a doc comment.\n"
)

INSTRUCTIONS_MOVED = Trap(
    "instruction-file-changed-and-committed",
    "Rust",
    "CLAUDE.md says the rules live in `docs/RULES.md`; the session moves them into CLAUDE.md, removes the file and commits",
    one_session(
        "/home/noor/src/ferry",
        Ask(
            "Move the coding rules from docs/RULES.md into CLAUDE.md itself and delete docs/RULES.md, then commit."
        ),
        Read("CLAUDE.md", _CLAUDE_BEFORE),
        Read(
            "docs/RULES.md",
            "- No `unwrap()` outside tests.\n- Every public function has a doc comment.\n",
        ),
        Edit(
            "CLAUDE.md",
            "## Rules\nThe coding rules live in `docs/RULES.md`; read them before changing code.\n",
            _CLAUDE_AFTER_RULES,
        ),
        Run("git rm -q docs/RULES.md", ""),
        Run(
            'git commit -am "Keep the coding rules in CLAUDE.md"',
            "[main 4c1d2e9] Keep the coding rules in CLAUDE.md\n 2 files changed, 2 insertions(+), 3 deletions(-)\n delete mode 100644 docs/RULES.md",
        ),
        Say("The rules are in CLAUDE.md now and docs/RULES.md is gone (committed as 4c1d2e9)."),
    ),
    wrong=(
        (
            r"(?:rules|conventions|guidelines)[^\n]{0,40}\b(?:live|kept|are|found) in `?docs/RULES\.md|read (?:them|the rules|`?docs/RULES\.md`?) before changing code",
            "the session moved the rules into CLAUDE.md and deleted docs/RULES.md",
        ),
    ),
)

_AGENTS_BEFORE = "# Agents\n\nRun the tests with `make test` before every commit.\n"

INSTRUCTIONS_SED = Trap(
    "instruction-file-changed-through-the-shell",
    "Python",
    "AGENTS.md names `make test`; the user has it changed to `uv run pytest` with `sed`, and it is committed",
    one_session(
        "/home/noor/src/quota",
        Ask(
            "We dropped the Makefile. Update AGENTS.md to say uv run pytest instead of make test and commit it."
        ),
        Read("AGENTS.md", _AGENTS_BEFORE),
        Run("sed -i 's/`make test`/`uv run pytest`/' AGENTS.md", ""),
        Run(
            "cat AGENTS.md", "# Agents\n\nRun the tests with `uv run pytest` before every commit.\n"
        ),
        Run("uv run pytest -q", "...........\n11 passed in 0.40s"),
        Run(
            'git commit -am "AGENTS.md: tests run with uv run pytest"',
            "[main 91ab0c3] AGENTS.md: tests run with uv run pytest\n 1 file changed, 1 insertion(+), 1 deletion(-)",
        ),
        Say("AGENTS.md now says `uv run pytest`; committed."),
    ),
    wrong=(
        (
            r"`make test`(?![^\n]*(?:dropped|no longer|instead|replaced|removed))",
            "the Makefile is gone: the session changed AGENTS.md to `uv run pytest`",
        ),
    ),
    may=(r"uv run pytest",),
)

INSTRUCTIONS_REWRITTEN = Trap(
    "instruction-file-written-anew",
    "TypeScript",
    "GEMINI.md says to use yarn; the session writes the file anew for pnpm and commits",
    one_session(
        "/home/noor/src/lumen",
        Ask("We moved to pnpm. Rewrite GEMINI.md for it and commit."),
        Read("GEMINI.md", "# Working here\n\n- Install with `yarn`.\n- Test with `yarn test`.\n"),
        Write(
            "GEMINI.md",
            "# Working here\n\n- Install with `pnpm install`.\n- Test with `pnpm test`.\n",
        ),
        Run("pnpm test", " Test Files  4 passed (4)\n      Tests  23 passed (23)"),
        Run(
            'git commit -am "GEMINI.md: pnpm"',
            "[main 77e01fa] GEMINI.md: pnpm\n 1 file changed, 2 insertions(+), 2 deletions(-)",
        ),
        Say("GEMINI.md now tells to use pnpm; committed."),
    ),
    wrong=(
        (
            r"`yarn(?: test)?`(?![^\n]*(?:no longer|instead|moved|replaced))|\byarn\b[^\n]{0,30}package manager|package manager[^\n]{0,30}\byarn\b",
            "the session rewrote GEMINI.md for pnpm",
        ),
    ),
    may=(r"pnpm",),
)

_RELEASE_COMMAND = (
    "---\ndescription: Cut a patch release\n---\n\n"
    "## Steps\n"
    "1. Run `npm test`.\n"
    "2. Run `npm version patch`.\n"
    "3. Run `git push --follow-tags`.\n\n"
    "## If a step fails\n"
    "1. Run `git reset --hard HEAD~1` to drop the version commit.\n"
    "2. Run `npm run clean`.\n"
    "3. Tell the user which step failed.\n"
)

COMMAND_FAILURE_LIST = Trap(
    "a-commands-failure-list-is-not-its-steps",
    "JavaScript",
    "a slash command's file lists its steps and, apart, what to do if a step fails",
    one_session(
        "/home/noor/src/tinyq",
        Ask("What does our /release command do exactly?"),
        Read(".claude/commands/release.md", _RELEASE_COMMAND),
        Run(
            "git log --oneline -3",
            "a1b2c3d Fix the retry delay\n9f8e7d6 v1.4.2\n5a4b3c2 Add the dead-letter queue",
        ),
        Say(
            "`/release` runs the tests, bumps the patch version and pushes with tags; if a step fails it rolls the version commit back and cleans up."
        ),
    ),
    wrong=(
        (
            r"(?:release|/release)[^\n]*(?:`git reset --hard|`npm run clean)(?![^\n]*(?:fail|error|roll))",
            "`git reset --hard` and `npm run clean` run only if a step fails; they are no release step",
        ),
    ),
)

_DEPLOY_DOC = (
    "# Deploying\n\n"
    "## Deploy\n"
    "1. `fly deploy --strategy rolling`\n"
    "2. `fly status`\n\n"
    "## Rollback (only when the deploy fails)\n"
    "1. `fly releases`\n"
    "2. `fly deploy --image <previous image>`\n"
)

RUNBOOK_ROLLBACK = Trap(
    "a-runbooks-rollback-is-not-the-deploy",
    "Elixir",
    "a deploy runbook lists the deploy steps and, under its own heading, the rollback",
    one_session(
        "/home/noor/src/ledgerx",
        Ask("How do we deploy this? Check the docs."),
        Run("ls docs", "DEPLOYING.md\narchitecture.md\n"),
        Read("docs/DEPLOYING.md", _DEPLOY_DOC),
        Run("mix test", "Finished in 0.9 seconds\n42 tests, 0 failures"),
        Say("Deploys go through `fly deploy --strategy rolling`, then `fly status` to check."),
    ),
    wrong=(
        (
            r"(?:deploy|To deploy)[^\n]*`fly (?:releases|deploy --image)(?![^\n]*(?:roll ?back|fails))",
            "`fly releases` and a redeploy of the previous image are the rollback, not the deploy",
        ),
    ),
    may=(r"fly deploy --strategy rolling",),
)

_WORKFLOW = (
    "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n"
    "      - uses: actions/checkout@v4\n"
    "      - run: dotnet restore\n"
    "      - run: dotnet test --no-restore\n"
    "      - name: Dump the test logs\n"
    "        if: failure()\n"
    "        run: cat TestResults/*.log\n"
    "      - name: Open an issue\n"
    "        if: failure()\n"
    "        run: gh issue create --title 'CI failed' --body 'see the run'\n"
)

WORKFLOW_ON_FAILURE = Trap(
    "a-workflows-failure-steps-are-not-its-steps",
    "C#",
    "a CI workflow whose last two steps run only on failure",
    one_session(
        "/home/noor/src/Tally.Api",
        Ask("What does CI run? I want to run the same locally."),
        Read(".github/workflows/ci.yml", _WORKFLOW),
        Run("dotnet test", "Passed!  - Failed:     0, Passed:    57, Skipped:     0, Total:    57"),
        Say(
            "CI restores and runs `dotnet test --no-restore`; locally `dotnet test` does the same."
        ),
    ),
    wrong=(
        (
            r"(?:CI|workflow|checks?)[^\n]*(?:`cat TestResults|`gh issue create)(?![^\n]*fail)",
            "dumping the logs and opening an issue run only when CI fails",
        ),
    ),
    may=(r"dotnet test",),
)

CASES: tuple[Trap, ...] = (
    FIXTURE_TREE,
    FIXTURE_MONOREPO,
    FIXTURE_SITE,
    INSTRUCTIONS_MOVED,
    INSTRUCTIONS_SED,
    INSTRUCTIONS_REWRITTEN,
    COMMAND_FAILURE_LIST,
    RUNBOOK_ROLLBACK,
    WORKFLOW_ON_FAILURE,
)
