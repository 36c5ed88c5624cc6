# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `z23`: three shapes a reading of real sessions showed, each written as
blind traps in several ecosystems and hosts (`bench/wrong_traps.py` runs them), beside sessions
where the same rule must still fire:

- a file named by a command that throws its error output away (`2>/dev/null`) taken as shown,
  though the output never names it: a search or a `head` over several candidate files, one of
  them missing, and the project's language said from the missing manifest;
- a command that makes a checker write or print its own configuration (`--init`,
  `--generate-rcfile`, `--auto-gen-config`) counted as a check the project runs before a commit
  or to finish a change;
- a list the user gives to say how the code being written must behave ("In our case it would be
  like: 1. if …, always …") taken as the user's standing rules for the assistant.

Written blind, before any rule for them and before any of them ran.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Edit, Read, Run, Say, Trap, one_session

# -- a file named by a command whose errors were thrown away -------------------------------

_CARGO = '[package]\nname = "tilewalk"\nversion = "0.4.0"\nedition = "2021"\n\n[dependencies]\nserde = "1"\n'

SILENCED_SEARCH_RUST = Trap(
    "silenced-search-over-candidate-manifests",
    "Rust",
    "`rg -n edition Cargo.toml package.json pyproject.toml 2>/dev/null` prints only Cargo.toml's line; the other two files do not exist",
    one_session(
        "/home/ilse/src/tilewalk",
        Ask("Which Rust edition does this crate use? Then run the tests."),
        Run(
            "rg -n 'edition' Cargo.toml package.json pyproject.toml 2>/dev/null",
            'Cargo.toml:4:edition = "2021"\n',
        ),
        Run(
            "cargo test",
            "running 7 tests\n.......\ntest result: ok. 7 passed; 0 failed; 0 ignored\n",
        ),
        Say("The crate uses the 2021 edition; the 7 tests pass."),
        host="codex",
    ),
    wrong=(
        (
            r"\b(?:Python|JavaScript|TypeScript)\b[^\n]{0,60}\bproject\b|\bproject\b[^\n]{0,40}\b(?:Python|JavaScript|TypeScript)\b",
            "only Cargo.toml was shown; package.json and pyproject.toml were named by a silenced search and do not exist",
        ),
    ),
    may=(r"\bRust\b",),
)

_MIX = 'defmodule Beacon.MixProject do\n  use Mix.Project\n\n  def project do\n    [app: :beacon, version: "0.2.0", elixir: "~> 1.16", deps: deps()]\n  end\n\n  defp deps do\n    [{:jason, "~> 1.4"}]\n  end\nend\n'

SILENCED_GREP_AFTER_LOOKUP = Trap(
    "tool-lookup-then-quiet-grep",
    "Elixir",
    "`command -v elixir; grep -n deps mix.exs package.json 2>/dev/null`: the output is the lookup's path and mix.exs's line; package.json does not exist",
    one_session(
        "/home/omar/code/beacon",
        Ask("Is elixir installed here, and where are the deps declared?"),
        Run(
            "command -v elixir; grep -n 'deps' mix.exs package.json 2>/dev/null",
            '/usr/local/bin/elixir\nmix.exs:5:    [app: :beacon, version: "0.2.0", elixir: "~> 1.16", deps: deps()]\nmix.exs:8:  defp deps do\n',
        ),
        Read("mix.exs", _MIX),
        Run(
            "mix test",
            "Running ExUnit with seed: 4211, max_cases: 8\n\n......\nFinished in 0.1 seconds\n6 tests, 0 failures\n",
        ),
        Say("elixir is at /usr/local/bin/elixir; the deps are declared in mix.exs."),
    ),
    wrong=(
        (
            r"\b(?:JavaScript|TypeScript)\b",
            "package.json was named by a silenced grep and never shown; beacon is an Elixir project",
        ),
    ),
    may=(r"\bElixir\b",),
)

_PYPROJECT = '[project]\nname = "rainlog"\nversion = "1.3.0"\nrequires-python = ">=3.11"\n'

SILENCED_HEAD_OVER_TWO = Trap(
    "quiet-head-over-two-candidates",
    "Python",
    "`head -5 Gemfile pyproject.toml 2>/dev/null` shows only pyproject.toml under its `==>` header; there is no Gemfile",
    one_session(
        "/home/kai/src/rainlog",
        Ask("What is this project's name and version?"),
        Run(
            "head -5 Gemfile pyproject.toml 2>/dev/null",
            "==> pyproject.toml <==\n" + _PYPROJECT,
        ),
        Run(
            "python -m pytest -q",
            "......                                                   [100%]\n6 passed in 0.12s\n",
        ),
        Say("It is rainlog 1.3.0, for Python 3.11 and up."),
        host="codex-shell",
    ),
    wrong=(
        (
            r"\bRuby\b",
            "the Gemfile was named by a silenced head and never shown; rainlog is a Python project",
        ),
    ),
    may=(r"\bPython\b",),
)

SILENCED_GREP_C = Trap(
    "quiet-grep-cmake-beside-candidates",
    "C",
    "`grep -n project CMakeLists.txt Cargo.toml go.mod 2>/dev/null` prints only CMakeLists.txt's line; the other two files do not exist",
    one_session(
        "/home/rui/src/pixfold",
        Ask("What does the build file call this project? Then build it."),
        Run(
            "grep -n project CMakeLists.txt Cargo.toml go.mod 2>/dev/null",
            "CMakeLists.txt:2:project(pixfold C)\n",
        ),
        Read("src/fold.c", '#include "fold.h"\n\nint fold_rows(int n) { return n / 2; }\n'),
        Read("src/main.c", '#include "fold.h"\n\nint main(void) { return fold_rows(4) - 2; }\n'),
        Run(
            "cmake -S . -B build && cmake --build build",
            "-- Configuring done\n-- Generating done\n[100%] Built target pixfold\n",
        ),
        Say("The build file calls it pixfold, a C project; it builds."),
    ),
    wrong=(
        (
            r"\b(?:Rust|Go)\b[^\n]{0,40}\bproject\b|\b(?:Cargo\.toml|go\.mod)\b",
            "Cargo.toml and go.mod were named by a silenced grep and never shown; pixfold is a C project",
        ),
    ),
)

_PKG = '{\n  "name": "dashy",\n  "version": "2.0.1",\n  "scripts": { "test": "vitest run" },\n  "devDependencies": { "typescript": "^5.5.0", "vitest": "^2.1.0" }\n}\n'

SEARCH_NAMES_THE_FILE = Trap(
    "quiet-search-that-prints-the-manifest",
    "TypeScript",
    "must stay right: `grep -n name package.json pyproject.toml 2>/dev/null` prints package.json's line under its name; the TypeScript code is edited",
    one_session(
        "/home/eva/src/dashy",
        Ask("What is the package called? Then fix the off-by-one in src/range.ts."),
        Run(
            "grep -n '\"name\"' package.json pyproject.toml 2>/dev/null",
            'package.json:2:  "name": "dashy",\n',
        ),
        Read("package.json", _PKG),
        Read(
            "src/range.ts",
            "export function range(n: number): number[] {\n  return [...Array(n + 1).keys()];\n}\n",
        ),
        Edit("src/range.ts", "Array(n + 1)", "Array(n)"),
        Run(
            "npm test",
            "> dashy@2.0.1 test\n> vitest run\n\n Test Files  3 passed (3)\n      Tests  12 passed (12)\n",
        ),
        Say("It is `dashy`; the range is fixed and the 12 tests pass."),
    ),
    wrong=(
        (
            r"\bPython\b",
            "pyproject.toml was named by a silenced grep and never shown; dashy is a TypeScript package",
        ),
    ),
    may=(r"\bTypeScript\b",),
)

# -- a checker asked to write or print its own configuration -------------------------------

ESLINT_INIT_BEFORE_COMMIT = Trap(
    "linter-config-made-then-committed",
    "TypeScript",
    "`npx eslint --init` wrote the linter's configuration once; then `npm run lint` and `npm test` passed and the work was committed",
    one_session(
        "/home/noa/src/formkit",
        Ask("set up eslint with the recommended rules, make sure lint and tests pass, then commit"),
        Run(
            "npx eslint --init",
            "✔ How would you like to use ESLint? · problems\n✔ What type of modules does your project use? · esm\nSuccessfully created eslint.config.mjs file.\n",
        ),
        Run("npm run lint", "> formkit@0.3.0 lint\n> eslint src\n\n"),
        Run(
            "npm test",
            "> formkit@0.3.0 test\n> vitest run\n\n Test Files  4 passed (4)\n      Tests  19 passed (19)\n",
        ),
        Run(
            "git add -A && git commit -m 'chore: add eslint with the recommended rules'",
            "[main 3c1d2e9] chore: add eslint with the recommended rules\n 3 files changed, 41 insertions(+)\n",
        ),
        Say("ESLint is set up; lint and tests pass, and it is committed."),
    ),
    wrong=(
        (
            r"eslint --init|--init\b",
            "`eslint --init` only wrote a configuration once; it is no check run before a commit",
        ),
    ),
    may=(r"npm run lint",),
)

PYLINT_RCFILE_BEFORE_COMMIT = Trap(
    "lint-rcfile-written-then-committed",
    "Python",
    "`pylint --generate-rcfile > .pylintrc` wrote the linter's configuration once; then `pylint src` and `pytest` passed and the work was committed",
    one_session(
        "/home/ari/src/geodesy",
        Ask(
            "add a pylint config with the defaults, check the code passes it and the tests, then commit"
        ),
        Run("pylint --generate-rcfile > .pylintrc", ""),
        Run(
            "pylint src",
            "\n--------------------------------------------------------------------\nYour code has been rated at 10.00/10\n",
        ),
        Run(
            "pytest -q",
            "..........                                               [100%]\n10 passed in 0.31s\n",
        ),
        Run(
            "git add .pylintrc && git commit -m 'Add a pylint configuration'",
            "[main 9ab01f2] Add a pylint configuration\n 1 file changed, 520 insertions(+)\n",
        ),
        Say("The pylint configuration is in `.pylintrc`; the code rates 10/10 and the tests pass."),
        host="codex",
    ),
    wrong=(
        (
            r"generate-rcfile",
            "`pylint --generate-rcfile` only wrote a configuration once; it is no check run before a commit",
        ),
    ),
    may=(r"pylint src|pytest",),
)

RUBOCOP_TODO_BEFORE_COMMIT = Trap(
    "style-todo-file-made-then-committed",
    "Ruby",
    "`bundle exec rubocop --auto-gen-config` wrote the style checker's to-do configuration once; then rubocop and rspec passed and the work was committed",
    one_session(
        "/home/lea/src/shelfie",
        Ask("get rubocop green by generating the todo file, run the specs, then commit"),
        Run(
            "bundle exec rubocop --auto-gen-config",
            "Added inheritance from `.rubocop_todo.yml` in `.rubocop.yml`.\nCreated .rubocop_todo.yml.\n",
        ),
        Run(
            "bundle exec rubocop",
            "Inspecting 42 files\n..........................................\n\n42 files inspected, no offenses detected\n",
        ),
        Run(
            "bundle exec rspec",
            "Randomized with seed 4100\n.............\n\nFinished in 0.4 seconds\n13 examples, 0 failures\n",
        ),
        Run(
            "git add -A && git commit -m 'Generate the rubocop todo file'",
            "[main 77e2a10] Generate the rubocop todo file\n 2 files changed, 88 insertions(+)\n",
        ),
        Say("rubocop is green with the to-do file, and the specs pass; committed."),
    ),
    wrong=(
        (
            r"auto-gen-config",
            "`rubocop --auto-gen-config` only wrote a to-do configuration once; it is no check run before a commit",
        ),
    ),
    may=(r"bundle exec (?:rubocop|rspec)",),
)

TSC_INIT_TO_FINISH = Trap(
    "compiler-config-made-then-checked",
    "TypeScript",
    "`npx tsc --init` wrote the compiler's configuration after the last edit; then `npx tsc --noEmit` and `npx vitest run` passed (no commit)",
    one_session(
        "/home/sol/src/unitconv",
        Ask("add strict type-checking to this package and make sure it passes"),
        Read("src/convert.ts", "export const toKm = (m) => m / 1000;\n"),
        Edit("src/convert.ts", "(m) =>", "(m: number): number =>"),
        Run(
            "npx tsc --init --strict",
            "Created a new tsconfig.json with:\n  target: es2016\n  module: commonjs\n  strict: true\n",
        ),
        Run("npx tsc --noEmit", ""),
        Run("npx vitest run", " Test Files  2 passed (2)\n      Tests  6 passed (6)\n"),
        Say("Strict type-checking is on and passes; the tests pass."),
        host="codex",
    ),
    wrong=(
        (
            r"tsc --init|--init\b",
            "`tsc --init` only wrote a configuration once; it is no step that finishes a change",
        ),
    ),
    may=(r"tsc --noEmit|vitest run",),
)

GO_CHECKS_BEFORE_COMMIT = Trap(
    "vet-and-tests-then-committed",
    "Go",
    "must stay right: `go vet ./...` and `go test ./...` passed after the edit and the work was committed",
    one_session(
        "/home/ana/src/kvsnap",
        Ask("fix the nil map write in the store, run vet and the tests, then commit"),
        Read(
            "store/store.go",
            "package store\n\ntype Store struct{ m map[string]string }\n\nfunc (s *Store) Put(k, v string) { s.m[k] = v }\n",
        ),
        Edit(
            "store/store.go",
            "func (s *Store) Put(k, v string) { s.m[k] = v }",
            "func (s *Store) Put(k, v string) {\n\tif s.m == nil {\n\t\ts.m = map[string]string{}\n\t}\n\ts.m[k] = v\n}",
        ),
        Run("go vet ./...", ""),
        Run("go test ./...", "ok  \tkvsnap/store\t0.012s\n"),
        Run(
            "git commit -am 'store: allocate the map on first write'",
            "[main 1f0e2d3] store: allocate the map on first write\n 1 file changed, 4 insertions(+), 1 deletion(-)\n",
        ),
        Say("Fixed; vet and the tests pass, and it is committed."),
    ),
    wrong=(
        (
            r"--init\b|generate-rcfile|auto-gen-config",
            "no configuration was generated in this session",
        ),
    ),
    may=(r"go vet|go test",),
)

# -- a list that says how the code being written must behave ------------------------------

BEHAVIOUR_LIST_GO = Trap(
    "flag-handling-spelled-out-as-a-list",
    "Go",
    'the user spells out how the new flag handling must behave, as a numbered list under "In our case it would be like:"; its items are the task\'s design, not standing rules',
    one_session(
        "/home/ivo/src/tallyctl",
        Ask(
            "what I'm after is something like how git deals with a bad flag.\n"
            "In our case it would be like:\n"
            "1. if the flag is unknown, always print the usage\n"
            "2. never exit with status 0 when a flag is bad\n"
            "3. otherwise just run the command"
        ),
        Read("cmd/root.go", "package cmd\n\nfunc Execute() error { return rootCmd.Execute() }\n"),
        Edit(
            "cmd/root.go",
            "func Execute() error { return rootCmd.Execute() }",
            "func Execute() error {\n\tif err := rootCmd.Execute(); err != nil {\n\t\trootCmd.Usage()\n\t\treturn err\n\t}\n\treturn nil\n}",
        ),
        Run("go test ./...", "ok  \ttallyctl/cmd\t0.020s\n"),
        Say("A bad flag now prints the usage and the command exits non-zero."),
    ),
    wrong=(
        (
            r"always print the usage|never exit with status",
            "the list designs this change's flag handling; it is no rule for the assistant's work",
        ),
    ),
)

BEHAVIOUR_LIST_PYTHON = Trap(
    "retry-wrapper-spelled-out-as-a-list",
    "Python",
    'the user says how a retry wrapper must behave, as a bulleted list under "should behave like this:"',
    one_session(
        "/home/maya/src/fetchy",
        Ask(
            "Please add a retry wrapper around the HTTP client. It should behave like this:\n"
            "- if the request times out, always retry twice\n"
            "- never retry a 4xx response\n"
            "- log every attempt"
        ),
        Read(
            "fetchy/client.py",
            "import httpx\n\n\ndef get(url: str) -> httpx.Response:\n    return httpx.get(url)\n",
        ),
        Edit(
            "fetchy/client.py",
            "def get(url: str) -> httpx.Response:\n    return httpx.get(url)",
            "def get(url: str) -> httpx.Response:\n    return _with_retries(lambda: httpx.get(url))",
        ),
        Run(
            "pytest -q",
            ".......                                                  [100%]\n7 passed in 0.20s\n",
        ),
        Say("The client now retries timeouts twice and never retries a 4xx."),
        host="codex",
    ),
    wrong=(
        (
            r"retry twice|never retry",
            "the list designs the retry wrapper being written; it is no rule for the assistant's work",
        ),
    ),
)

BEHAVIOUR_LIST_TS = Trap(
    "cache-logic-spelled-out-as-a-list",
    "TypeScript",
    'the user gives the logic a cache must follow, as a numbered list under "Here\'s the logic I want for the cache:"',
    one_session(
        "/home/zoe/src/quotesvc",
        Ask(
            "Here's the logic I want for the quote cache:\n"
            "1. always look in the cache first\n"
            "2. if the entry is older than an hour, refetch it\n"
            "3. never cache error responses"
        ),
        Read("src/cache.ts", "export const cache = new Map<string, Quote>();\n"),
        Edit(
            "src/cache.ts",
            "export const cache = new Map<string, Quote>();",
            "export const cache = new Map<string, { quote: Quote; at: number }>();",
        ),
        Run("npm test", "> quotesvc@1.0.0 test\n> jest\n\nTests:       9 passed, 9 total\n"),
        Say("The cache is read first, refetches entries older than an hour and skips errors."),
    ),
    wrong=(
        (
            r"look in the cache first|never cache error",
            "the list designs the cache being written; it is no rule for the assistant's work",
        ),
    ),
)

BEHAVIOUR_LIST_RUST = Trap(
    "parser-rules-spelled-out-as-a-list",
    "Rust",
    'the user says how a line parser must work, as a list under "The parser should work as follows:"',
    one_session(
        "/home/finn/src/logsift",
        Ask(
            "The parser should work as follows:\n"
            "1. always skip blank lines\n"
            "2. never panic on a malformed line, return an error instead\n"
            "3. keep the line number on every record"
        ),
        Read(
            "src/parse.rs",
            "pub fn parse(input: &str) -> Vec<Record> {\n    input.lines().map(Record::from).collect()\n}\n",
        ),
        Edit(
            "src/parse.rs",
            "input.lines().map(Record::from).collect()",
            "input.lines().filter(|l| !l.trim().is_empty()).map(Record::from).collect()",
        ),
        Run(
            "cargo test", "running 4 tests\n....\ntest result: ok. 4 passed; 0 failed; 0 ignored\n"
        ),
        Say("Blank lines are skipped and malformed lines return an error with their line number."),
        host="codex-shell",
    ),
    wrong=(
        (
            r"skip blank lines|never panic",
            "the list designs the parser being written; it is no rule for the assistant's work",
        ),
    ),
)

WAYS_LIST_STAYS = Trap(
    "working-conventions-as-a-list",
    "Python",
    'must stay right: the user lists the team\'s conventions as a numbered list under "Our conventions:"; they are standing rules',
    one_session(
        "/home/tom/src/ledgerpy",
        Ask(
            "Our conventions:\n"
            "1. always run the formatter before committing\n"
            "2. never push straight to main\n\n"
            "Now please fix the rounding in ledger/money.py."
        ),
        Read("ledger/money.py", "def cents(x: float) -> int:\n    return int(x * 100)\n"),
        Edit("ledger/money.py", "return int(x * 100)", "return round(x * 100)"),
        Run(
            "pytest -q",
            "....                                                     [100%]\n4 passed in 0.05s\n",
        ),
        Say("Rounding fixed; the tests pass."),
    ),
    wrong=(
        (
            r"round\(x \* 100\)[^\n]*always",
            "the fix is this task's; no rule is drawn from it",
        ),
    ),
    may=(r"formatter before committing", r"push[^\n]*main"),
)

CASES: tuple[Trap, ...] = (
    SILENCED_SEARCH_RUST,
    SILENCED_GREP_AFTER_LOOKUP,
    SILENCED_HEAD_OVER_TWO,
    SILENCED_GREP_C,
    SEARCH_NAMES_THE_FILE,
    ESLINT_INIT_BEFORE_COMMIT,
    PYLINT_RCFILE_BEFORE_COMMIT,
    RUBOCOP_TODO_BEFORE_COMMIT,
    TSC_INIT_TO_FINISH,
    GO_CHECKS_BEFORE_COMMIT,
    BEHAVIOUR_LIST_GO,
    BEHAVIOUR_LIST_PYTHON,
    BEHAVIOUR_LIST_TS,
    BEHAVIOUR_LIST_RUST,
    WAYS_LIST_STAYS,
)
