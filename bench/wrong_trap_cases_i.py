# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, ninth part: what a session tried and dropped, said once or only guessed —
a one-off request taken for a habit, a test runner that is not installed, a framework the
project does not declare, an assistant's guess that a search then contradicted, and a
dependency's own tests read for the project's (`bench/wrong_traps.py` runs them).

Every trap was written, its `wrong` and `may` patterns included, before any rule ran on it.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Read, Run, Say, Session, Trap, Write

_CARGO = '[package]\nname = "sluice"\nversion = "0.4.0"\nedition = "2021"\n\n[dependencies]\nclap = { version = "4", features = ["derive"] }\n'

ONE_OFF_SKIP = Trap(
    "one-off-skip-tests",
    "Rust",
    "the user asks once, for one hurried change, to skip the tests; every other session runs them",
    (
        Session(
            "claude",
            "/home/dev/src/sluice",
            (
                Ask("Add a --dry-run flag to the copy command."),
                Read("Cargo.toml", _CARGO),
                Write(
                    "src/cli.rs",
                    "#[derive(clap::Parser)]\npub struct Copy {\n    #[arg(long)]\n    pub dry_run: bool,\n}\n",
                ),
                Run(
                    "cargo test",
                    "   Compiling sluice v0.4.0\n    Finished test [unoptimized + debuginfo] target(s) in 4.2s\n     Running unittests src/main.rs\n\nrunning 12 tests\ntest result: ok. 12 passed; 0 failed; 0 ignored",
                ),
                Say("Added `--dry-run`; `cargo test` passes (12 tests)."),
            ),
        ),
        Session(
            "claude",
            "/home/dev/src/sluice",
            (
                Ask(
                    "Quick one, I'm about to go into a meeting: fix the typo in the help text of "
                    "--dry-run. Skip the tests this time, just commit it."
                ),
                Write(
                    "src/cli.rs",
                    "#[derive(clap::Parser)]\npub struct Copy {\n    /// Show what would be copied\n    #[arg(long)]\n    pub dry_run: bool,\n}\n",
                ),
                Run(
                    "git commit -am 'Fix --dry-run help text'",
                    "[main 4e1c2aa] Fix --dry-run help text\n 1 file changed, 1 insertion(+)",
                ),
                Say("Fixed the help text and committed it without running the tests."),
            ),
        ),
        Session(
            "claude",
            "/home/dev/src/sluice",
            (
                Ask("Make copy skip files that are already identical."),
                Write(
                    "src/copy.rs",
                    "pub fn same(a: &[u8], b: &[u8]) -> bool {\n    a == b\n}\n",
                ),
                Run(
                    "cargo test",
                    "    Finished test [unoptimized + debuginfo] target(s) in 3.1s\n     Running unittests src/main.rs\n\nrunning 13 tests\ntest result: ok. 13 passed; 0 failed; 0 ignored",
                ),
                Say("Identical files are skipped now; `cargo test` passes (13 tests)."),
            ),
        ),
    ),
    wrong=(
        (
            r"(skip|don'?t run|do not run|without running) (the )?tests",
            "the user skipped the tests once, for one hurried change; the other sessions run them",
        ),
    ),
    may=(r"cargo test",),
)

NEXTEST_MISSING = Trap(
    "nextest-not-installed",
    "Rust",
    "the assistant tries `cargo nextest run`, which is not installed here, and the tests then "
    "run with `cargo test`",
    (
        Session(
            "codex",
            "/home/dev/src/sluice",
            (
                Ask("Run the test suite and fix whatever fails."),
                Read("Cargo.toml", _CARGO),
                Run(
                    "cargo nextest run",
                    "error: no such command: `nextest`\n\n\tView all installed commands with `cargo --list`\n\tFind a package to install `nextest` with `cargo search cargo-nextest`",
                    101,
                ),
                Run(
                    "cargo test",
                    '   Compiling sluice v0.4.0\n     Running unittests src/main.rs\n\nrunning 13 tests\ntest copy::tests::same_bytes ... FAILED\n\nfailures:\n\n---- copy::tests::same_bytes stdout ----\nthread \'copy::tests::same_bytes\' panicked at src/copy.rs:9:9:\nassertion failed: same(b"a", b"a")\n\ntest result: FAILED. 12 passed; 1 failed; 0 ignored',
                    101,
                ),
                Write(
                    "src/copy.rs",
                    "pub fn same(a: &[u8], b: &[u8]) -> bool {\n    a.len() == b.len() && a == b\n}\n",
                ),
                Run(
                    "cargo test",
                    "     Running unittests src/main.rs\n\nrunning 13 tests\ntest result: ok. 13 passed; 0 failed; 0 ignored",
                ),
                Say(
                    "`cargo nextest` is not installed here, so I used `cargo test`; fixed `same`, all 13 pass."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"(run|runs|running) (the )?tests? with `?cargo nextest|test(s|ing)?: `?cargo nextest|`cargo nextest run`\W*$",
            "nextest is not installed: the tests ran with `cargo test`",
        ),
    ),
    may=(r"cargo test",),
)

_GEMFILE = "source 'https://rubygems.org'\n\ngem 'rails', '~> 7.1.3'\ngem 'pg', '~> 1.5'\ngem 'puma', '>= 5.0'\n\ngroup :development, :test do\n  gem 'debug'\nend\n"

RSPEC_GUESSED = Trap(
    "minitest-after-a-guess",
    "Ruby/Rails",
    "the assistant guesses RSpec, bundler says it is not in the bundle, and the tests run with "
    "`bin/rails test` (Minitest)",
    (
        Session(
            "claude",
            "/home/dev/src/depot",
            (
                Ask("Add a validation that a product's price is positive, with a test."),
                Read("Gemfile", _GEMFILE),
                Write(
                    "app/models/product.rb",
                    "class Product < ApplicationRecord\n  validates :price, numericality: { greater_than: 0 }\nend\n",
                ),
                Write(
                    "test/models/product_test.rb",
                    "require 'test_helper'\n\nclass ProductTest < ActiveSupport::TestCase\n  test 'price must be positive' do\n    assert_not Product.new(price: 0).valid?\n  end\nend\n",
                ),
                Run(
                    "bundle exec rspec",
                    "bundler: command not found: rspec\nInstall missing gem executables with `bundle install`",
                    127,
                ),
                Run(
                    "bin/rails test",
                    "Running 24 tests in a single process (parallelization threshold is 50)\nRun options: --seed 4412\n\n# Running:\n\n........................\n\nFinished in 0.81s, 29.6 runs/s, 41.9 assertions/s.\n24 runs, 34 assertions, 0 failures, 0 errors, 0 skips",
                ),
                Say(
                    "This app uses Minitest, not RSpec: the new test passes with `bin/rails test` (24 runs)."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"(tests?|specs?) (are )?(written|run) with `?(bundle exec )?rspec|test(s|ing)?: `?(bundle exec )?rspec|(uses|built with|framework:?) rspec",
            "RSpec is not in the bundle: the tests are Minitest, run with `bin/rails test`",
        ),
    ),
    may=(r"bin/rails test|minitest",),
)

GUESS_CONTRADICTED = Trap(
    "guessed-redis-not-found",
    "Python/Flask",
    "the assistant guesses the app caches in Redis; the search it runs finds no Redis anywhere "
    "and the cache is an in-process dict",
    (
        Session(
            "claude",
            "/home/dev/src/atlas",
            (
                Ask("Why are the tile responses stale after an update?"),
                Say(
                    "It is probably the Redis cache in front of the tile endpoint keeping old entries. Let me check where the cache lives."
                ),
                Run("grep -rni redis --include=*.py --include=*.txt --include=*.toml .", "", 1),
                Read(
                    "atlas/tiles.py",
                    "from functools import lru_cache\n\nfrom flask import Blueprint\n\nbp = Blueprint('tiles', __name__)\n\n\n@lru_cache(maxsize=512)\ndef render(z: int, x: int, y: int) -> bytes:\n    ...\n",
                ),
                Say(
                    "There is no Redis in this project: the cache is `functools.lru_cache` on `render` in `atlas/tiles.py`, which never expires. I'll clear it when a layer is updated."
                ),
                Write(
                    "atlas/tiles.py",
                    "from functools import lru_cache\n\nfrom flask import Blueprint\n\nbp = Blueprint('tiles', __name__)\n\n\n@lru_cache(maxsize=512)\ndef render(z: int, x: int, y: int) -> bytes:\n    ...\n\n\ndef layer_updated() -> None:\n    render.cache_clear()\n",
                ),
                Run(
                    "python -m pytest -q",
                    "........                                                                 [100%]\n8 passed in 0.41s",
                ),
                Say("`layer_updated` now clears the tile cache; 8 tests pass."),
            ),
        ),
    ),
    wrong=(
        (
            r"redis(?! \w+ not| is not| isn'?t)(?<!no redis)",
            "a search found no Redis in the project; the cache is an in-process `lru_cache`",
        ),
    ),
    may=(r"lru_cache|pytest",),
)

_PACKAGE = '{\n  "name": "pennant",\n  "type": "module",\n  "scripts": {"test": "node --test"},\n  "dependencies": {"ms": "^2.1.3"}\n}\n'

DEPENDENCY_TESTS = Trap(
    "dependency-tests-read",
    "Node",
    "the assistant reads a dependency's own Mocha test under node_modules to see how it parses "
    "durations; the project's tests use the Node test runner",
    (
        Session(
            "claude",
            "/home/dev/src/pennant",
            (
                Ask("Does ms() accept '1.5h'? Add support for durations in the config if so."),
                Read("package.json", _PACKAGE),
                Read(
                    "node_modules/ms/tests.js",
                    "const assert = require('assert');\nconst ms = require('./');\n\ndescribe('ms(string)', function () {\n  it('should work with decimals', function () {\n    assert.strictEqual(ms('1.5h'), 5400000);\n  });\n});\n",
                ),
                Say("`ms` accepts decimals such as `1.5h` (its own Mocha tests cover it)."),
                Write(
                    "src/config.js",
                    "import ms from 'ms';\n\nexport function timeout(value) {\n  return typeof value === 'string' ? ms(value) : value;\n}\n",
                ),
                Write(
                    "test/config.test.js",
                    "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport { timeout } from '../src/config.js';\n\ntest('durations', () => {\n  assert.equal(timeout('1.5h'), 5400000);\n});\n",
                ),
                Run(
                    "npm test",
                    "> pennant@1.2.0 test\n> node --test\n\n✔ durations (0.9ms)\nℹ tests 7\nℹ pass 7\nℹ fail 0",
                ),
                Say("Config durations accept strings like `1.5h`; `npm test` passes (7 tests)."),
            ),
        ),
    ),
    wrong=(
        (
            r"mocha",
            "Mocha is the dependency's own test framework; the project's tests use `node --test`",
        ),
    ),
    may=(r"npm test|node --test",),
)

CASES = (ONE_OFF_SKIP, NEXTEST_MISSING, RSPEC_GUESSED, GUESS_CONTRADICTED, DEPENDENCY_TESTS)
