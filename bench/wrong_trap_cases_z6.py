# ruff: noqa: E501  (transcript text: replies and outputs are kept as one string a line)
"""Wrong-fact traps, part `z6`: a failed script of several steps whose failing step is easy to
mistake (`bench/wrong_traps.py` runs them): an `&&` chain that printed nothing, an error line
naming an earlier step's program while the headers say a later one ran, a re-run that changed
several steps at once, a fallback `a || b`, a last step that only compares two values, and a
script whose `gh` and `git push` steps failed while the steps between them passed.

Written with the rule that tells which step of a script failed (`extractors/script_steps.py`),
after its study (`bench/pitfall_shape_cases_e.py`). On the rules before it, two read wrong: the
chain that printed nothing gave "`cargo build …` failed with `cargo build: non-zero exit`;
re-running it with `--features sqlite` added worked" (the study's Go chain did), and the comparison gave "`test …` failed …; running `curl
-s --retry 3 …` first fixed it"; the rule as first written still read the comparison as the
failing step, and now names none there. The other four read 0 wrong before too: kept as guards.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Run, Say, Trap, one_session

SILENT_CHAIN = Trap(
    "silent-chain-flag",
    "Rust",
    "an `&&` chain fails with no output; the re-run adds a flag to its second step: which step failed nothing tells",
    one_session(
        "/home/kai/src/ledgerd",
        Ask("Check, build the server and seed the database."),
        Run(
            "cargo check -q && cargo build -q --bin ledgerd && ./target/debug/ledgerd seed --env dev",
            "",
            1,
        ),
        Run(
            "cargo check -q && cargo build -q --bin ledgerd --features sqlite && ./target/debug/ledgerd seed --env dev",
            "seeded 12 accounts",
        ),
        Say("Seeded."),
        host="codex",
    ),
    wrong=(
        (
            r"--features sqlite\b[^\n]*(?:worked|fixed)|(?:worked|fixed)[^\n]*--features sqlite",
            "nothing says the build step failed",
        ),
        (r"non-zero exit", "a failure with no output is no lesson"),
    ),
)

HEADERS_OVER_NAMES = Trap(
    "headers-over-named-program",
    "Python",
    "the error line names the first step's program (alembic's table), but the headers show the tests ran last",
    one_session(
        "/home/omar/src/billing",
        Ask("Migrate the test database and run the db tests."),
        Run(
            "echo '== migrate' && alembic upgrade head && echo '== tests' && pytest -q tests/db",
            "== migrate\nINFO  [alembic.runtime.migration] Running upgrade 3f2a -> 9c1d, add invoices\n== tests\nE   sqlalchemy.exc.OperationalError: (sqlite3.OperationalError) no such table: alembic_version\n1 error in 0.41s",
            1,
        ),
        Run(
            "echo '== migrate' && alembic upgrade head && echo '== tests' && pytest -q tests/db --db-url sqlite:///test.db",
            "== migrate\n== tests\n........ [100%]\n8 passed in 0.52s",
        ),
        Say("The tests opened an in-memory database; pointed at test.db they pass."),
    ),
    wrong=(
        (r"`alembic upgrade head` failed", "alembic ran and passed; the tests failed"),
        (r"`echo ", "a header is no command that failed"),
    ),
    may=(r"`pytest -q tests/db` failed",),
)

SEVERAL_CHANGED = Trap(
    "rerun-changed-three-steps",
    "Node",
    "a chain fails at its test step; the re-run changes the installer, the lint step and the test flags at once",
    one_session(
        "/home/tam/src/widgets",
        Ask("Install, lint and test."),
        Run(
            "npm ci && npm run lint && npm test",
            "added 912 packages in 14s\n> widgets@2.1.0 test\n> jest\n\n FAIL  src/Button.test.tsx\n  ● Test suite failed to run\n\n    Cannot find module 'jest-environment-jsdom' from 'node_modules/jest-config/build'\n\nTest Suites: 1 failed, 23 passed, 24 total",
            1,
        ),
        Run(
            "pnpm install && pnpm lint --fix && pnpm test -- --runInBand",
            "Done in 9.8s\n> widgets@2.1.0 test\n> jest --runInBand\n\nTest Suites: 24 passed, 24 total",
        ),
        Say("All green."),
    ),
    wrong=(
        (
            r"(?:running|re-running)[^\n]*(?:pnpm|--runInBand|--fix)[^\n]*(?:worked|fixed)",
            "three steps changed at once: no one of them is the fix",
        ),
        (r"`npm ci` failed|`npm run lint` failed", "the install and the lint passed"),
    ),
)

FALLBACK_CHAIN = Trap(
    "fallback-or-chain",
    "Make",
    "`make test || make test-verbose`: which of the two set the exit code nothing says; the re-run drops the fallback",
    one_session(
        "/home/rui/src/codec",
        Ask("Run the tests."),
        Run(
            "make -j8 && (make test || make test-verbose)",
            "cc -O2 -c src/frame.c -o build/frame.o\nctest --output-on-failure\n1/3 Test #1: frame_roundtrip ......   Passed\n2/3 Test #2: frame_limits .........***Failed\nmake: *** [Makefile:31: test] Error 8\nctest --verbose\nmake: *** [Makefile:34: test-verbose] Error 8",
            2,
        ),
        Run("make -j1 && make test", "ctest --output-on-failure\n3/3 tests passed"),
        Say("Passes with a serial build."),
    ),
    wrong=((r"make test-verbose", "the fallback is no step that failed alone"),),
)

COMPARED_LAST = Trap(
    "last-step-compares",
    "shell",
    'the last step only compares two values (`test "$a" = "$b"`): its failure tells nothing of which command failed',
    one_session(
        "/home/ada/src/relay",
        Ask("Check the deployed version matches HEAD."),
        Run(
            'deployed=$(curl -s https://relay.example.com/version)\ntest "$deployed" = "$(git rev-parse --short HEAD)"',
            "",
            1,
        ),
        Run(
            'deployed=$(curl -s --retry 3 https://relay.example.com/version)\ntest "$deployed" = "$(git rev-parse --short HEAD)"',
            "",
        ),
        Say("The deployed version matches HEAD."),
        host="codex",
    ),
    wrong=(
        (r"`test [^`]*` failed", "a comparison of two values is no command that failed"),
        (r"--retry 3[^\n]*(?:worked|fixed)", "nothing says the fetch failed"),
    ),
)

TOKEN_SCRIPT = Trap(
    "token-script-steps-between",
    "GitHub CLI/git",
    "a script whose `gh` and `git push` steps fail with 401 while `git rev-parse`, `printf` and `test` between them ran; the re-run unsets the tokens on both",
    one_session(
        "/home/ada/src/courier",
        Ask("Check the PR head is our parent, then push."),
        Run(
            'remote_head=$(gh pr view 88 --repo ada/courier --json headRefOid --jq .headRefOid) && local_parent=$(git rev-parse HEAD^) && printf \'remote_head=%s\\nlocal_parent=%s\\n\' "$remote_head" "$local_parent"\ngit push origin HEAD:fix/timeouts',
            "HTTP 401: Bad credentials (https://api.github.com/graphql)\nTry authenticating with:  gh auth login -h github.com\nremote: Invalid username or token. Password authentication is not supported for Git operations.\nfatal: Authentication failed for 'https://github.com/ada/courier.git/'",
            128,
        ),
        Run(
            'remote_head=$(env -u GITHUB_TOKEN -u GH_TOKEN gh pr view 88 --repo ada/courier --json headRefOid --jq .headRefOid) && local_parent=$(git rev-parse HEAD^) && printf \'remote_head=%s\\nlocal_parent=%s\\n\' "$remote_head" "$local_parent"\nenv -u GITHUB_TOKEN -u GH_TOKEN git push origin HEAD:fix/timeouts',
            "remote_head=41ac09d\nlocal_parent=41ac09d\nTo https://github.com/ada/courier.git\n   41ac09d..7be2f10  HEAD -> fix/timeouts",
        ),
        Say("Pushed."),
        host="codex",
    ),
    wrong=(
        (r"`git rev-parse[^`]*` failed|`printf[^`]*` failed|`local_parent=", "those steps passed"),
        (r"remote_head=\$\(", "an assignment's text is no command"),
        (r"re-running it as `[^`]*(?:&&|\n)", "the whole script is no lesson"),
    ),
    may=(r"env -u GITHUB_TOKEN -u GH_TOKEN",),
)

CASES: tuple[Trap, ...] = (
    SILENT_CHAIN,
    HEADERS_OVER_NAMES,
    SEVERAL_CHANGED,
    FALLBACK_CHAIN,
    COMPARED_LAST,
    TOKEN_SCRIPT,
)
