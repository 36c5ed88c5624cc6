# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `z11b`: the kinds of `z11` in other shapes (`bench/wrong_traps.py`
runs them): a test fixture's tree shown by `tree` or `ls -R`, or summed up by the assistant; an
instruction file rewritten through the shell or patched by Codex; what to do when a step
fails written inline or as a task of its own.

Written blind like `z11`, before any of these traps ran and with no rule changed for them.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Edit, Read, Run, Say, Trap, one_session

_TREE = (
    "test/fixtures/rails_app\n"
    "├── Gemfile\n"
    "├── app\n"
    "│   ├── controllers\n"
    "│   └── models\n"
    "├── config\n"
    "│   └── routes.rb\n"
    "└── db\n"
    "    └── schema.rb\n\n"
    "6 directories, 3 files\n"
)

FIXTURE_TREE_COMMAND = Trap(
    "fixture-tree-command",
    "Ruby",
    "`tree` of a fixture Rails app a linter gem is tested on; the gem itself is a plain library",
    one_session(
        "/home/ines/src/routelint",
        Ask("routelint misses nested resources in routes.rb; fix it."),
        Run("ls", "Gemfile\nREADME.md\nlib\nroutelint.gemspec\ntest\n"),
        Run("tree test/fixtures/rails_app", _TREE),
        Read(
            "lib/routelint/parser.rb",
            "module Routelint\n  class Parser\n    def resources(node)\n      node.children\n    end\n  end\nend\n",
        ),
        Edit(
            "lib/routelint/parser.rb",
            "      node.children",
            "      node.children.flat_map { |c| [c, *resources(c)] }",
        ),
        Run("bundle exec rake test", "12 runs, 30 assertions, 0 failures, 0 errors, 0 skips"),
        Say("Nested resources are found now."),
    ),
    wrong=(
        (
            r"\b(?:Rails|rails) (?:app|application|project)\b(?![^\n]*fixture)|(?<![/\w.])(?:app/(?:controllers|models)|config/routes\.rb|db/schema\.rb)",
            "the Rails app is a test fixture; routelint is a Ruby gem",
        ),
    ),
    may=(r"\bRuby\b",),
)

_LS_R = (
    "spec/fixtures/site:\n_config.yml\n_posts\nindex.md\n\n"
    "spec/fixtures/site/_posts:\n2024-01-01-hello.md\n"
)

FIXTURE_LS_R = Trap(
    "fixture-ls-recursive",
    "Python",
    "`ls -R` of a Jekyll site a Markdown converter is tested on",
    one_session(
        "/home/ines/src/mdport",
        Ask("Front matter dates come out wrong in the converted posts. Look at it."),
        Run("ls", "mdport\npyproject.toml\nspec\n"),
        Run("ls -R spec/fixtures/site", _LS_R),
        Read("mdport/front.py", "def date_of(meta):\n    return meta['date']\n"),
        Edit("mdport/front.py", "    return meta['date']", "    return parse_date(meta['date'])"),
        Run("python -m pytest -q spec", "....\n4 passed in 0.05s"),
        Say("Dates are parsed now."),
    ),
    wrong=(
        (
            r"\bJekyll\b(?![^\n]*fixture)|(?<![/\w.])_config\.yml|(?<![/\w.])_posts/",
            "the Jekyll site is a test fixture; mdport is a Python converter",
        ),
    ),
    may=(r"\bPython\b",),
)

FIXTURE_SUMMED_UP = Trap(
    "fixture-summed-up-by-the-assistant",
    "Go",
    "the assistant sums up a fixture module's layout in its own words",
    one_session(
        "/home/ines/src/vendorcheck",
        Ask("What does the sample module under testdata look like? The vendor check trips on it."),
        Run(
            "find testdata/sample -type f",
            "testdata/sample/go.mod\ntestdata/sample/cmd/sample/main.go\ntestdata/sample/internal/store/store.go\ntestdata/sample/vendor/modules.txt\n",
        ),
        Say(
            "The layout: `cmd/sample/` holds the entry point, `internal/store/` the storage code, and `vendor/` the vendored modules."
        ),
        Run("go test ./...", "ok  \texample.com/vendorcheck\t0.120s"),
    ),
    wrong=(
        (
            r"^(?![^\n]*(?:testdata|sample|fixture))[^\n]*(?<![/\w.])(?:cmd/sample|internal/store)/",
            "that layout is the `testdata/sample` module's, not vendorcheck's",
        ),
    ),
)

_HEREDOC = (
    "cat > CLAUDE.md <<'EOF'\n"
    "# Working here\n\n"
    "- Run the tests with `just test`.\n"
    "- Format with `just fmt`.\n"
    "EOF"
)

INSTRUCTIONS_HEREDOC = Trap(
    "instruction-file-rewritten-by-heredoc",
    "Rust",
    "CLAUDE.md names `make`; the session rewrites it through a heredoc for `just` and commits",
    one_session(
        "/home/ines/src/sparrow",
        Ask("We replaced the Makefile with a justfile. Rewrite CLAUDE.md to match and commit."),
        Read(
            "CLAUDE.md",
            "# Working here\n\n- Run the tests with `make test`.\n- Format with `make fmt`.\n",
        ),
        Run(_HEREDOC, ""),
        Run("just test", "test result: ok. 31 passed; 0 failed"),
        Run(
            'git commit -am "CLAUDE.md: just"',
            "[main 2b3c4d5] CLAUDE.md: just\n 1 file changed, 2 insertions(+), 2 deletions(-)",
        ),
        Say("CLAUDE.md now names the just recipes; committed."),
    ),
    wrong=(
        (
            r"`make (?:test|fmt)`(?![^\n]*(?:no longer|instead|replaced|was))",
            "the session rewrote CLAUDE.md for `just`",
        ),
    ),
    may=(r"just test",),
)

INSTRUCTIONS_CODEX_PATCH = Trap(
    "instruction-file-patched-by-codex",
    "TypeScript",
    "AGENTS.md names `npm run lint`; Codex patches it to `npm run check` and commits",
    one_session(
        "/home/ines/src/parcel-map",
        Ask("Our lint script is now called check. Update AGENTS.md and commit."),
        Read("AGENTS.md", "# Agents\n\n- Lint with `npm run lint` before committing.\n"),
        Edit(
            "AGENTS.md",
            "- Lint with `npm run lint` before committing.",
            "- Run `npm run check` before committing.",
        ),
        Run("npm run check", "> parcel-map@1.0.0 check\n> eslint . && tsc --noEmit\n"),
        Run(
            'git commit -am "AGENTS.md: npm run check"',
            "[main 6e5d4c3] AGENTS.md: npm run check\n 1 file changed, 1 insertion(+), 1 deletion(-)",
        ),
        Say("AGENTS.md now says `npm run check`; committed."),
        host="codex",
    ),
    wrong=(
        (
            r"`npm run lint`(?![^\n]*(?:no longer|instead|renamed|now))",
            "the session changed AGENTS.md: the script is `npm run check` now",
        ),
    ),
    may=(r"npm run check",),
)

_CI_COMMAND = (
    "---\ndescription: Run CI locally\n---\n\n"
    "1. Run `cargo fmt --check`.\n"
    "2. Run `cargo clippy -- -D warnings`.\n"
    "3. Run `cargo test`. If it fails, run `cargo clean` and `rm -rf target/debug/incremental`, then try once more.\n"
)

INLINE_ON_FAILURE = Trap(
    "what-to-do-on-failure-written-inline",
    "Rust",
    "a command file's step says inline what to run when it fails",
    one_session(
        "/home/ines/src/sparrow-ci",
        Ask("Run our /ci command."),
        Read(".claude/commands/ci.md", _CI_COMMAND),
        Run("cargo fmt --check", ""),
        Run("cargo clippy -- -D warnings", "    Finished `dev` profile in 3.2s"),
        Run("cargo test", "test result: ok. 18 passed; 0 failed"),
        Say("All three passed."),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:if|when|fails?|failure)\b)[^\n]*(?:`cargo clean`|rm -rf target/debug/incremental)",
            "`cargo clean` runs only when the tests fail",
        ),
    ),
    may=(r"cargo clippy",),
)

_MAKEFILE = (
    ".PHONY: deploy rollback\n\n"
    "deploy:\n\tkubectl apply -f k8s/\n\tkubectl rollout status deploy/api\n\n"
    "rollback:  ## only when a deploy fails\n\tkubectl rollout undo deploy/api\n"
)

ROLLBACK_TARGET = Trap(
    "a-rollback-target-is-not-the-deploy",
    "Go",
    "a Makefile's deploy target and, beside it, the rollback run when a deploy fails",
    one_session(
        "/home/ines/src/api",
        Ask("How is this deployed?"),
        Read("Makefile", _MAKEFILE),
        Run("go build ./...", ""),
        Say("`make deploy` applies the manifests and waits for the rollout."),
    ),
    wrong=(
        (
            r"(?:deploy|To deploy)[^\n]*`kubectl rollout undo(?![^\n]*(?:roll ?back|fails))",
            "`kubectl rollout undo` is the rollback, not a deploy step",
        ),
    ),
)

CASES: tuple[Trap, ...] = (
    FIXTURE_TREE_COMMAND,
    FIXTURE_LS_R,
    FIXTURE_SUMMED_UP,
    INSTRUCTIONS_HEREDOC,
    INSTRUCTIONS_CODEX_PATCH,
    INLINE_ON_FAILURE,
    ROLLBACK_TARGET,
)
