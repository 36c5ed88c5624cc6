# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `z16`: what the session-start text could state as the project's when it
is a test fixture's, a sample's or a stale file's (`bench/wrong_traps.py` runs them): a test suite
run only inside a fixture app, a commit log of a fixture repository the tests build, a fixture
project's own instruction file, a fixture's package manager, a sample app's dev server run at its
folder, a fixture's CI workflow, a contributing guide the session itself changed, and a sample
project's lint failure fixed by moving to its folder, and the assistant's answer about the code
that the same session then made untrue; and a fixture's tree listed from inside its folder, whose
names carry no sign of the fixture.

The session start is injected as truth before the user says anything, so what it states needs
more than what search may offer: these were written blind, before any rule for them and before
any of them ran, from the ways a session can show a part of the repository that is not the
project itself.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Edit, Read, Run, Say, Trap, one_session

_RSPEC_OUT = "Randomized with seed 4821\n..........\n\nFinished in 0.41 seconds (files took 1.2 seconds to load)\n10 examples, 0 failures\n"

FIXTURE_APP_SUITE = Trap(
    "fixture-app-suite-only-run",
    "Python",
    "the only test run is the fixture Rails app's `bundle exec rspec`; the project is a Python log parser",
    one_session(
        "/home/marta/src/railslog",
        Ask(
            "The parser misreads the new Rails 8 log lines. Regenerate the fixture app's logs and check."
        ),
        Run("ls", "pyproject.toml\nrailslog\ntests\n"),
        Run("ls tests/fixtures/rails_app", "Gemfile\nGemfile.lock\napp\nconfig\nlog\nspec\n"),
        Run("cd tests/fixtures/rails_app && bundle exec rspec", _RSPEC_OUT),
        Run(
            "cp tests/fixtures/rails_app/log/test.log tests/data/rails8.log && wc -l tests/data/rails8.log",
            "212 tests/data/rails8.log\n",
        ),
        Say(
            "The fixture app's specs pass and wrote a fresh Rails 8 log to `tests/data/rails8.log`."
        ),
    ),
    wrong=(
        (
            # Mended after its first runs: the fixture folder may be named before the command
            # too ("In `tests/fixtures/rails_app/`, to run the tests: …"), which is true there.
            r"^(?![^\n]*fixtures)[^\n]*(?:run the tests|tests? (?:run|are run|are written) with)"
            r"[^\n]*(?:rspec|RSpec)",
            "rspec ran only inside the fixture Rails app; railslog is a Python package",
        ),
        (r"\b(?:Ruby|Rails) project\b|Built with Rails", "Rails is the fixture app's"),
    ),
)

_FIXTURE_LOG = "a1b2c3d feat: add parser\ne4f5a6b fix: handle empty input\n0c1d2e3 chore: bump deps\n9f8e7d6 feat: first cut\n"

FIXTURE_REPO_LOG = Trap(
    "fixture-repository-commit-log",
    "Go",
    "the tests build a fixture repository whose log is conventional; the project's own log is plain",
    one_session(
        "/home/ola/code/changelogr",
        Ask("TestConventional fails on the fixture repo; see what its log looks like."),
        Run(
            "git log --oneline -4",
            "7d1e0aa Handle merge commits\n3c9b2f1 Read tags in order\n8a7e6d5 Add the CLI\n1f0e9d8 Start the project\n",
        ),
        Run("git -C testdata/conventional-repo log --oneline -4", _FIXTURE_LOG),
        Run(
            "go test ./...",
            "ok  \tgithub.com/ola/changelogr\t0.214s\nok  \tgithub.com/ola/changelogr/internal/parse\t0.031s\n",
        ),
        Say(
            "The fixture repository's log is conventional (`feat:`, `fix:`, `chore:`); the test expected a `docs:` entry it does not have. Fixed the expectation."
        ),
    ),
    wrong=(
        (
            r"Commit subjects start with a Conventional Commits prefix",
            "that is the fixture repository's log; changelogr's own commits are plain sentences",
        ),
    ),
    may=(r"go test \./\.\.\.",),
)

_FIXTURE_AGENTS = "# Agent rules\n\n- Always use yarn, never npm.\n- Run `yarn lint` before every commit.\n- Keep components in `src/components/`.\n"

FIXTURE_INSTRUCTION_FILE = Trap(
    "fixture-project-instruction-file",
    "TypeScript",
    "an `AGENTS.md` inside a fixture project the tool reads is read; the user never says its rules",
    one_session(
        "/home/ravi/src/agentlint",
        Ask("agentlint should flag rules that contradict each other. Try it on the yarn fixture."),
        Read("tests/fixtures/yarn-project/AGENTS.md", _FIXTURE_AGENTS),
        Run(
            "pnpm exec tsx src/cli.ts tests/fixtures/yarn-project",
            "tests/fixtures/yarn-project/AGENTS.md: 0 contradictions\n",
        ),
        Run("pnpm test", " Test Files  4 passed (4)\n      Tests  31 passed (31)\n"),
        Say("No contradictions in the yarn fixture; the suite passes."),
        host="codex",
    ),
    wrong=(
        (
            r"(?:always use yarn|never npm|use `?yarn|yarn lint)(?![^\n]*fixture)",
            "the rules are the fixture project's, not the user's or agentlint's",
        ),
    ),
    may=(r"pnpm test",),
)

FIXTURE_PACKAGE_MANAGER = Trap(
    "fixture-package-manager",
    "Python",
    "the session runs `poetry lock` inside a fixture project; the project itself uses uv",
    one_session(
        "/home/li/src/lockdiff",
        Ask("Refresh the poetry fixture's lock file so the diff test has a new one to compare."),
        Read(
            "pyproject.toml",
            '[project]\nname = "lockdiff"\nversion = "0.4.0"\nrequires-python = ">=3.11"\n\n[tool.uv]\ndev-dependencies = ["pytest>=8"]\n',
        ),
        Run(
            "cd tests/fixtures/poetry_app && poetry lock",
            "Resolving dependencies... (1.2s)\n\nWriting lock file\n",
        ),
        Run(
            "uv run pytest -q",
            "........                                                 [100%]\n8 passed in 0.33s\n",
        ),
        Say("Refreshed the poetry fixture's lock file; the diff tests pass."),
    ),
    wrong=(
        (
            r"(?:run through|managed with|uses?|package manager(?: is)?:?) `?poetry\b(?![^\n]*fixture)",
            "poetry is the fixture project's; lockdiff uses uv",
        ),
    ),
    may=(r"uv run pytest",),
)

SAMPLE_DEV_SERVER = Trap(
    "sample-app-dev-server",
    "JavaScript",
    "the dev server that ran is the sample app's under `examples/`; the project is a component library",
    one_session(
        "/home/ana/src/tinytable",
        Ask("Show the new sticky header in the example app."),
        Run("ls", "examples\npackage.json\nsrc\ntest\n"),
        Read(
            "examples/playground/package.json",
            '{\n  "name": "playground",\n  "private": true,\n  "scripts": { "dev": "next dev", "build": "next build" },\n  "dependencies": { "next": "15.1.0", "tinytable": "file:../.." }\n}\n',
        ),
        Run(
            "cd examples/playground && npm run dev",
            "  ▲ Next.js 15.1.0\n  - Local:        http://localhost:3000\n\n ✓ Ready in 1.8s\n",
        ),
        Run(
            "npm test",
            "> tinytable@2.3.0 test\n> node --test test/\n\n# tests 14\n# pass 14\n# fail 0\n",
        ),
        Say("The playground shows the sticky header at http://localhost:3000."),
    ),
    wrong=(
        (
            r"Built with Next\.js|^(?:- )?To (?:start|run)[^\n]*: `npm run dev`",
            "Next.js and its dev server are the sample app's; tinytable is a library",
        ),
    ),
    may=(r"npm test",),
)

_FIXTURE_CI = "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci && npm test\n"

FIXTURE_CI_WORKFLOW = Trap(
    "fixture-ci-workflow",
    "Rust",
    "a CI workflow read under a fixture folder the tool parses; the project has no CI of its own",
    one_session(
        "/home/jon/code/wfcheck",
        Ask(
            "wfcheck misses the `npm ci && npm test` step in the node fixture; fix the step parser."
        ),
        Read("tests/fixtures/node/.github/workflows/ci.yml", _FIXTURE_CI),
        Run(
            "cargo test",
            "running 12 tests\n............\ntest result: ok. 12 passed; 0 failed; 0 ignored\n",
        ),
        Say("The step parser now splits `&&` chains; the node fixture's two steps are found."),
    ),
    wrong=(
        (
            r"CI runs on GitHub Actions|CI \([^)]*\) runs|\bnpm (?:ci|test)\b(?![^\n]*fixture)",
            "the workflow is the fixture's; wfcheck is a Rust tool tested with cargo",
        ),
    ),
    may=(r"cargo test",),
)

_CONTRIBUTING_OLD = (
    "# Contributing\n\n## Tests\n\nRun the tests with `make test` before opening a pull request.\n"
)

STALE_CONTRIBUTING = Trap(
    "contributing-guide-changed-by-session",
    "Python",
    "CONTRIBUTING.md said `make test`; the session moves the project to `nox` and rewrites that line",
    one_session(
        "/home/sam/src/quillpy",
        Ask("We dropped the Makefile. Switch the contributing guide to nox and check it works."),
        Read("CONTRIBUTING.md", _CONTRIBUTING_OLD),
        Run("git rm -q Makefile", ""),
        Edit(
            "CONTRIBUTING.md",
            "Run the tests with `make test` before opening a pull request.",
            "Run the tests with `nox -s tests` before opening a pull request.",
        ),
        Run(
            "nox -s tests",
            "nox > Running session tests\nnox > pytest\n27 passed in 1.02s\nnox > Session tests was successful.\n",
        ),
        Say("CONTRIBUTING.md now says `nox -s tests`; the Makefile is gone."),
    ),
    wrong=(
        (
            r"`make test`(?![^\n]*(?:dropped|removed|no longer|instead))",
            "the session removed the Makefile and rewrote the guide to `nox -s tests`",
        ),
    ),
    may=(r"nox -s tests",),
)

SAMPLE_LINT_FOLDER = Trap(
    "sample-project-lint-folder",
    "Go",
    "golangci-lint fails at the root on a sample module and passes inside it; the project's own lint is `make lint`",
    one_session(
        "/home/ola/code/otelwrap",
        Ask("Lint everything before I tag."),
        Run("make lint", "golangci-lint run ./...\n0 issues.\n"),
        Run(
            "golangci-lint run ./examples/...",
            "ERRO [linters_context] typechecking error: pattern ./examples/...: directory prefix examples does not contain main module or its selected dependencies\n",
            1,
        ),
        Run("cd examples/httpserver && golangci-lint run", "0 issues.\n"),
        Say("Root lint is clean; the example is its own module, so it lints from its folder."),
    ),
    wrong=(
        (
            r"^(?:- )?To lint: `golangci-lint run`",
            "that is the example module's lint, run from its folder; the project lints with `make lint`",
        ),
    ),
    may=(r"make lint",),
)

_HANDLER = "import { fetchRates } from './rates';\n\nexport async function handler(req) {\n  const rates = await fetchRates(req.query.base);\n  return { status: 200, body: rates };\n}\n"

ANSWER_THEN_BUILT = Trap(
    "answer-about-the-code-then-built",
    "TypeScript",
    "the assistant answers that nothing caches the rates, then the same session adds the cache",
    one_session(
        "/home/ana/src/ratesapi",
        Ask("Is there any caching of the exchange rates in the handler?"),
        Read("src/handler.ts", _HANDLER),
        Run("grep -rn cache src/", "", 1),
        Say(
            "No. Nothing caches the rates: `handler` calls `fetchRates` on every request (src/handler.ts), and no file under src/ mentions a cache."
        ),
        Ask("Add a 60-second in-memory cache then."),
        Edit(
            "src/handler.ts",
            "  const rates = await fetchRates(req.query.base);",
            "  const rates = await cachedRates(req.query.base, 60_000);",
        ),
        Run(
            "npm test",
            "> ratesapi@1.2.0 test\n> vitest run\n\n Test Files  3 passed (3)\n      Tests  12 passed (12)\n",
        ),
        Say("Added a 60-second cache (`cachedRates`); the tests pass."),
    ),
    wrong=(
        (
            r"(?:nothing|no(?:thing)? (?:file )?)[^\n]{0,40}cach|\bnot cached\b|\bno cach",
            "the session added the cache after that answer",
        ),
    ),
    may=(r"npm test",),
)

ANSWER_THEN_BUILT_CODEX = Trap(
    "answer-about-the-cli-then-built",
    "Rust",
    "the assistant answers that the CLI has no JSON output, then the same session adds `--json`",
    one_session(
        "/home/jon/code/diskuse",
        Ask("does the CLI have a json output mode?"),
        Run("rg -n 'json' src/", "", 1),
        Run(
            "cargo run -q -- --help",
            "Usage: diskuse [OPTIONS] <PATH>\n\nOptions:\n  -d, --depth <N>  how deep to list\n  -h, --help       Print help\n",
        ),
        Say(
            "No: `diskuse` prints text only; there is no `--json` flag and nothing in src/ serialises to JSON."
        ),
        Ask("add --json please"),
        Edit(
            "src/main.rs",
            "    /// how deep to list",
            "    /// print JSON instead of text\n    #[arg(long)]\n    json: bool,\n    /// how deep to list",
        ),
        Run(
            "cargo test",
            "running 9 tests\n.........\ntest result: ok. 9 passed; 0 failed; 0 ignored\n",
        ),
        Say("Added `--json`; the tests pass."),
        host="codex",
    ),
    wrong=(
        (
            r"text only|no `?--json|(?:has|have) no json|nothing[^\n]{0,30}json",
            "the session added `--json` after that answer",
        ),
    ),
    may=(r"cargo test",),
)

FIXTURE_TREE_FROM_ITS_FOLDER = Trap(
    "fixture-tree-listed-from-its-folder",
    "Python",
    "the assistant moves into a fixture Django site and lists it; the project is a template linter",
    one_session(
        "/home/li/src/tmplint",
        Ask("tmplint misses the include in the fixture site's base template. Look at the site."),
        Run("ls", "pyproject.toml\ntests\ntmplint\n"),
        Run(
            "cd tests/fixtures/site && ls && ls blog templates",
            "blog\nmanage.py\nsite\ntemplates\n\nblog:\nmodels.py\nviews.py\nurls.py\n\ntemplates:\nbase.html\nblog\n",
        ),
        Say(
            "Layout:\n- `blog/` — the app: `models.py`, `views.py`, `urls.py`\n- `templates/` — `base.html` and the blog's templates\n- `manage.py` — the entry point\n\n`base.html` includes `partials/nav.html` through a variable, which tmplint does not follow."
        ),
        Run(
            "uv run pytest -q",
            "..........                                               [100%]\n10 passed in 0.21s\n",
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*fixtures)[^\n]*(?:`blog/`|`manage\.py`|`templates/`)",
            "`blog/`, `templates/` and `manage.py` are the fixture site's; tmplint is a linter package",
        ),
    ),
    may=(r"uv run pytest",),
)

FIXTURE_TREE_FROM_ITS_FOLDER_CODEX = Trap(
    "fixture-tree-listed-from-its-folder-codex",
    "Rust",
    "in a Codex rollout, the assistant lists a fixture workspace from inside it; the project is one crate",
    one_session(
        "/home/jon/code/cratemap",
        Ask("cratemap draws the fixture workspace without its `cli` member. Check the fixture."),
        Run("ls", "Cargo.toml\nsrc\ntests\n"),
        Run(
            "cd tests/fixtures/ws && ls crates && cat Cargo.toml",
            'cli\ncore\nutils\n[workspace]\nmembers = ["crates/*"]\n',
        ),
        Say(
            "The workspace has three members under `crates/`: `crates/cli`, `crates/core` and `crates/utils`; the glob `crates/*` was not expanded, so `cli` was missed."
        ),
        Run(
            "cargo test",
            "running 7 tests\n.......\ntest result: ok. 7 passed; 0 failed; 0 ignored\n",
        ),
        host="codex",
    ),
    wrong=(
        (
            r"^(?![^\n]*fixtures)[^\n]*(?:crates/(?:cli|core|utils)|\bworkspace\b[^\n]{0,40}members)",
            "the members are the fixture workspace's; cratemap is one crate",
        ),
    ),
    may=(r"cargo test",),
)

CASES: tuple[Trap, ...] = (
    FIXTURE_APP_SUITE,
    FIXTURE_REPO_LOG,
    FIXTURE_INSTRUCTION_FILE,
    FIXTURE_PACKAGE_MANAGER,
    SAMPLE_DEV_SERVER,
    FIXTURE_CI_WORKFLOW,
    STALE_CONTRIBUTING,
    SAMPLE_LINT_FOLDER,
    ANSWER_THEN_BUILT,
    ANSWER_THEN_BUILT_CODEX,
    FIXTURE_TREE_FROM_ITS_FOLDER,
    FIXTURE_TREE_FROM_ITS_FOLDER_CODEX,
)
