# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `z24`: seven shapes a reading of real sessions showed, each written as
blind traps in several ecosystems and hosts (`bench/wrong_traps.py` runs them), beside sessions
where the same rule must still fire:

- a principle the user states about the software being built (what it must do for its own
  users) kept as an instruction to the assistant;
- a one-off instruction for the task at hand ("write the test first" for this fix, "don't
  modify any files" for this review) kept as a standing habit;
- a hesitation over what the user sees ("hmm, no tests folder") read as a ban;
- another tool's role prompt, pasted into a message, taken as the user's own rules;
- a host's own continuation line ("Continue if you have next steps, or stop and ask for
  clarification …") kept as the user's rule;
- a test command stated without the argument it ran with (`go test ./...` as `go test`);
- a `!` inside a code name (`dbg!`, `println!`, `!!`) taken as the end of the user's sentence.

Written blind, before any rule for them and before any of them ran.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Edit, Read, Run, Say, Trap, one_session

# -- a principle of the software being built --------------------------------------------------

PRODUCT_FLOW_GO = Trap(
    "product-must-not-stop-its-users",
    "Go",
    "the user says the hook tool being built must never stop its users' flow; it is what the product does, not how the assistant works",
    one_session(
        "/home/lena/src/gitnote",
        Ask(
            "the pre-commit hook failed on my machine and blocked the commit. the overriding directive is to not get in the way of the user (in terms of stopping their flow), so on an error we should log and let the commit through. can you change hooks/precommit.go?"
        ),
        Read(
            "hooks/precommit.go",
            "package hooks\n\nfunc PreCommit() error {\n\tif err := snapshot(); err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n",
        ),
        Edit(
            "hooks/precommit.go",
            "\tif err := snapshot(); err != nil {\n\t\treturn err\n\t}",
            '\tif err := snapshot(); err != nil {\n\t\tlog.Printf("gitnote: snapshot failed: %v", err)\n\t}',
        ),
        Run("go test ./...", "ok  \tgitnote/hooks\t0.014s\n"),
        Say("A failed snapshot is now logged and the commit goes through."),
    ),
    wrong=(
        (
            r"get in the way of the user|stopping their flow",
            "the user states how the tool being built treats its own users; it is no rule for the assistant",
        ),
    ),
)

PRODUCT_USERS_PY = Trap(
    "app-must-never-block-its-users",
    "Python",
    "the user says the app must never make its users wait on the network and must show cached data first; it designs the product",
    one_session(
        "/home/amir/src/feedly-lite",
        Ask(
            "Users on slow connections complain. The app must never block the user while the feed loads: always show the user the cached items first, then refresh. Please change feed/views.py."
        ),
        Read(
            "feed/views.py",
            "def feed(request):\n    items = fetch_remote(request.user)\n    return render(request, 'feed.html', {'items': items})\n",
        ),
        Edit(
            "feed/views.py",
            "    items = fetch_remote(request.user)",
            "    items = cached_items(request.user)\n    schedule_refresh(request.user)",
        ),
        Run(
            "python -m pytest -q",
            "........                                                 [100%]\n8 passed in 0.31s\n",
        ),
        Say("The feed now renders the cached items and refreshes in the background."),
        host="codex",
    ),
    wrong=(
        (
            r"block the user|show the user the cached",
            "the user states how the app treats its own users; it is no rule for the assistant",
        ),
    ),
)

PRODUCT_BESIDE_RULE_TS = Trap(
    "product-principle-beside-a-standing-rule",
    "TypeScript",
    "must stay right: beside a sentence on what the product does for its users, the user gives a standing rule for the assistant (never push to main)",
    one_session(
        "/home/noor/src/pollster",
        Ask(
            "The widget should never show the user a raw error, only a friendly message. Fix src/widget.ts for that. And from now on, never push to main directly, open a PR instead."
        ),
        Read(
            "src/widget.ts",
            "export function render(err?: Error) {\n  return err ? err.stack : 'ok';\n}\n",
        ),
        Edit(
            "src/widget.ts",
            "return err ? err.stack : 'ok';",
            "return err ? 'Something went wrong.' : 'ok';",
        ),
        Run(
            "npm test",
            "> pollster@0.3.0 test\n> vitest run\n\n Test Files  4 passed (4)\n      Tests  19 passed (19)\n",
        ),
        Say("The widget shows a friendly message; I will open a PR rather than push to main."),
    ),
    wrong=(
        (
            r"show the user a raw error",
            "the widget's behaviour towards its users is the product's, no rule for the assistant",
        ),
    ),
    may=(r"push[^\n]{0,30}\bmain\b",),
)

# -- a one-off instruction for the task at hand -----------------------------------------------

TEST_FIRST_FOR_THIS_FIX_RUST = Trap(
    "write-the-test-first-for-this-fix",
    "Rust",
    "`let's fix it. write the test first, I think it's in src/lexer.rs`: the order of this one fix, said once",
    one_session(
        "/home/olga/src/tinyjson",
        Ask("the lexer drops the last digit of a number at end of input"),
        Read(
            "src/lexer.rs",
            "pub fn number(s: &str) -> &str {\n    &s[..s.len() - 1]\n}\n",
        ),
        Say('The slice drops the last byte; `number("12")` returns `"1"`.'),
        Ask("let's fix it. write the test first, I think it's a local change in src/lexer.rs?"),
        Edit(
            "src/lexer.rs",
            "pub fn number(s: &str) -> &str {\n    &s[..s.len() - 1]\n}",
            'pub fn number(s: &str) -> &str {\n    s\n}\n\n#[test]\nfn keeps_last_digit() {\n    assert_eq!(number("12"), "12");\n}',
        ),
        Run(
            "cargo test",
            "running 5 tests\n.....\ntest result: ok. 5 passed; 0 failed; 0 ignored\n",
        ),
        Say("Test added and the fix makes it pass."),
    ),
    wrong=(
        (
            r"write the test first",
            "the user ordered the steps of this one fix; nothing says every change is written test first",
        ),
    ),
)

NO_EDITS_FOR_THIS_REVIEW_PY = Trap(
    "dont-modify-files-for-this-review",
    "Python",
    "`Look at the failing CI job and tell me why. Don't modify any files.`: a limit on this one request",
    one_session(
        "/home/ravi/src/invoicer",
        Ask("Look at why test_totals fails on CI and tell me why. Don't modify any files."),
        Run(
            "python -m pytest -q tests/test_totals.py",
            "F                                                        [100%]\nFAILED tests/test_totals.py::test_rounding - assert 10.01 == 10.0\n1 failed in 0.08s\n",
            code=1,
        ),
        Read("invoicer/totals.py", "def total(lines):\n    return sum(l.amount for l in lines)\n"),
        Say("`total` sums floats without rounding; the test expects cents rounded."),
        host="codex",
    ),
    wrong=(
        (
            r"modify any files|(?:never|don'?t) (?:modify|change|edit)",
            "the user limited this one look at a failure; it is no standing rule",
        ),
    ),
)

NO_EDITS_FOR_THIS_QUESTION_GO = Trap(
    "dont-change-code-for-this-question",
    "Go",
    "`Just explain how the retry loop works. Do not change any code.`: the form of one answer",
    one_session(
        "/home/jon/src/pushd",
        Ask("Just explain how the retry loop in queue/retry.go works. Do not change any code."),
        Read(
            "queue/retry.go",
            "package queue\n\nfunc Retry(n int, f func() error) (err error) {\n\tfor i := 0; i < n; i++ {\n\t\tif err = f(); err == nil {\n\t\t\treturn nil\n\t\t}\n\t}\n\treturn err\n}\n",
        ),
        Run(
            "git log --oneline -3 -- queue/retry.go",
            "9c1e2f0 queue: retry with a bound\n41aa0b7 queue: first cut\n",
        ),
        Say("`Retry` calls `f` up to `n` times and returns the last error."),
    ),
    wrong=(
        (
            r"change any code|(?:never|don'?t|do not) (?:change|modify|edit)",
            "the user limited this one explanation; it is no standing rule",
        ),
    ),
)

TEST_FIRST_STAYS_KT = Trap(
    "test-first-as-a-standing-rule",
    "Kotlin",
    "must stay right: `from now on, always write the test first, then the fix` is a standing rule",
    one_session(
        "/home/ines/src/ledgerkt",
        Ask(
            "from now on, always write the test first, then the fix. Now: Money.plus loses the currency."
        ),
        Read(
            "src/main/kotlin/Money.kt",
            'data class Money(val cents: Long, val currency: String) {\n    operator fun plus(o: Money) = Money(cents + o.cents, "")\n}\n',
        ),
        Edit(
            "src/main/kotlin/Money.kt",
            'Money(cents + o.cents, "")',
            "Money(cents + o.cents, currency)",
        ),
        Run(
            "./gradlew test",
            "> Task :test\n\nBUILD SUCCESSFUL in 6s\n4 actionable tasks: 2 executed, 2 up-to-date\n",
        ),
        Say("Added a failing test first, then fixed `plus`."),
        host="codex",
    ),
    wrong=(
        (
            r"fix first|tests? (?:after|last)\b",
            "the user's rule puts the test before the fix",
        ),
    ),
    may=(r"test first",),
)

# -- a hesitation read as a ban -----------------------------------------------------------------

HMM_NO_FOLDER_GO = Trap(
    "hmm-no-folder-after-a-listing",
    "Go",
    "`hmm, no tests folder`: the user notes what a listing did not show, no ban",
    one_session(
        "/home/pia/src/geofence",
        Ask("where are the integration tests?"),
        Run("ls", "README.md\ngo.mod\ngo.sum\ninternal\nmain.go\n"),
        Say("There is no separate folder; the listing shows only `internal/` and `main.go`."),
        Ask("hmm, no tests folder"),
        Run("go test ./...", "ok  \tgeofence/internal/zone\t0.011s\n"),
        Say("The tests live beside the code in `internal/zone`."),
    ),
    wrong=(
        (
            r"\bno tests folder|never[^\n]{0,20}tests folder",
            "the user noticed a folder missing; nothing bans a tests folder",
        ),
    ),
)

HMM_NO_BRANCH_AGAIN_TS = Trap(
    "hmm-no-branch-again",
    "TypeScript",
    "`Hmm, no shadow branch again`: the user notes the tool under test did not make its branch",
    one_session(
        "/home/kit/src/snapline",
        Ask("run the snapshot command and check that it makes its branch"),
        Run("npx tsx src/cli.ts snapshot && git branch --list 'snap/*'", "snapshot saved\n"),
        Say("The snapshot ran, but no `snap/*` branch is listed."),
        Ask("Hmm, no shadow branch again"),
        Read("src/snapshot.ts", "export async function snapshot() {\n  await save();\n}\n"),
        Say("`snapshot` saves but never calls `createBranch`; that is why no branch appears."),
        host="codex",
    ),
    wrong=(
        (
            r"\bno shadow branch|never[^\n]{0,30}shadow branch",
            "the user noticed the branch missing; nothing bans a shadow branch",
        ),
    ),
)

HMM_NO_LOG_PY = Trap(
    "hmm-no-log-file",
    "Python",
    "`hmm, no log file` after a run: what the run did not write",
    one_session(
        "/home/eli/src/scrapey",
        Ask("run the scraper once and show me the log"),
        Run("python -m scrapey --once && ls logs/", "fetched 12 pages\n"),
        Say("The run finished; `logs/` is empty."),
        Ask("hmm, no log file"),
        Read("scrapey/logging.py", "import logging\n\nlogging.basicConfig(level=logging.INFO)\n"),
        Say("Logging goes to stderr only; no file handler is configured."),
    ),
    wrong=(
        (
            r"\bno log file|never[^\n]{0,20}log file",
            "the user noticed a file missing; nothing bans log files",
        ),
    ),
)

NO_MOCKS_STAYS_PY = Trap(
    "no-mocks-as-a-standing-ban",
    "Python",
    "must stay right: `no mocks in the integration tests, ever` is a ban the user means",
    one_session(
        "/home/eli/src/scrapey",
        Ask(
            "no mocks in the integration tests, ever. Add a test for the fetcher against the local server."
        ),
        Read("tests/integration/test_fetch.py", "def test_placeholder():\n    assert True\n"),
        Edit(
            "tests/integration/test_fetch.py",
            "def test_placeholder():\n    assert True",
            "def test_fetch(local_server):\n    assert fetch(local_server.url).status == 200",
        ),
        Run(
            "python -m pytest -q tests/integration",
            "..                                                       [100%]\n2 passed in 0.40s\n",
        ),
        Say("Added an integration test against the local server, no mocks."),
    ),
    wrong=(
        (
            r"\buse mocks\b|mocks? (?:are|is) (?:fine|ok|allowed)",
            "the user bans mocks in the integration tests",
        ),
    ),
    may=(r"\bmocks?\b",),
)

# -- another tool's role prompt pasted --------------------------------------------------------

ROLE_PROMPT_PASTED_TS = Trap(
    "release-bot-role-prompt-pasted",
    "TypeScript",
    "the user pastes the role prompt of their release bot to debug it; its rules are the bot's, not the user's",
    one_session(
        "/home/sam/src/shipbot",
        Ask(
            "# Release bot\n\nYou are the release assistant for this repository. You own the changelog and the tags.\n\n## Rules\n\nNever tag a release on a Friday.\nAlways reply in JSON.\nDo not mention internal ticket numbers.\n\nthat's the prompt in prompts/release.md. the bot still answers in prose, can you see why in src/bot.ts?"
        ),
        Read(
            "src/bot.ts",
            "const prompt = readFileSync('prompts/releases.md', 'utf8');\nexport const ask = (q: string) => llm(prompt, q);\n",
        ),
        Run("grep -rn release.md src/", "src/bot.ts:1:// prompt: prompts/release.md\n"),
        Say(
            "`src/bot.ts` reads `prompts/releases.md`, not `prompts/release.md`, so the bot runs without its prompt."
        ),
    ),
    wrong=(
        (
            r"reply in JSON|tag a release on a Friday|internal ticket numbers",
            "the pasted prompt is the release bot's; the user did not set these rules for the assistant",
        ),
    ),
)

ROLE_PROMPT_WHOLE_MESSAGE_PY = Trap(
    "agent-role-prompt-as-the-message",
    "Python",
    "a manager agent's role prompt arrives as the whole user message (`# Triage manager\\n\\nYou manage …`); its rules are the agent role's",
    one_session(
        "/home/ops/src/triage",
        Ask(
            "# Triage manager\n\nYou manage incoming issues through labels and assignees. You own priorities and routing.\n\n## Role\n\nDelegate technical work to workers.\nDo not investigate the code yourself.\nNever close an issue without a linked fix.\nAsk the user only for missing scope or access."
        ),
        Run(
            "gh issue list --limit 5",
            "41\tOPEN\tCrash on empty config\tbug\n40\tOPEN\tAdd --json flag\tenhancement\n",
        ),
        Say("Two open issues: #41 (bug) goes to a worker, #40 is queued."),
        host="codex",
    ),
    wrong=(
        (
            r"investigate the code|close an issue without|delegate technical work",
            "the message is a manager agent's role prompt; its rules are not the user's habits",
        ),
    ),
)

OWN_RULES_AFTER_PASTE_STAY = Trap(
    "own-rule-after-a-pasted-prompt",
    "Go",
    "must stay right: after asking about a pasted bot prompt, the user gives their own rule in their own words (`from now on, always run go vet before committing`)",
    one_session(
        "/home/sam/src/tagger",
        Ask(
            'Our lint bot\'s prompt says: "You are a linter. Never suggest renames." It keeps suggesting renames, can you check cmd/lint.go? Also, from now on, always run go vet before committing.'
        ),
        Read("cmd/lint.go", 'package cmd\n\nvar prompt = "You are a linter."\n'),
        Run("go vet ./...", ""),
        Say("`cmd/lint.go` sends only the first sentence of the prompt; `go vet ./...` is clean."),
    ),
    wrong=(
        (
            r"suggest renames",
            "the bot's prompt was quoted; it is no rule of the user's",
        ),
    ),
    may=(r"go vet",),
)

# -- a host's own continuation line -------------------------------------------------------------

HOST_CONTINUE_LINE_CLAUDE = Trap(
    "host-continue-or-ask-line",
    "TypeScript",
    "the host's line `Continue if you have next steps, or stop and ask for clarification if you are unsure how to proceed.` arrives as a user turn",
    one_session(
        "/home/dev/src/nimbusish",
        Ask("build step two of the plan: the upload endpoint"),
        Read("src/upload.ts", "export async function upload() {}\n"),
        Say("Step two needs the storage binding; I have added the endpoint skeleton."),
        Ask(
            "Continue if you have next steps, or stop and ask for clarification if you are unsure how to proceed."
        ),
        Run(
            "npm test",
            "> nimbusish@0.1.0 test\n> vitest run\n\n Test Files  2 passed (2)\n      Tests  6 passed (6)\n",
        ),
        Say("The endpoint is in place and the tests pass."),
    ),
    wrong=(
        (
            r"ask for clarification|continue if you have next steps",
            "the host wrote this line, not the user",
        ),
    ),
)

HOST_SUMMARIZE_LINE_CODEX = Trap(
    "host-continue-lines-in-codex",
    "Rust",
    "the same host lines (`Summarize the task tool output above and continue with your task.`, `Continue if you have next steps, …`) as user turns of a Codex session",
    one_session(
        "/home/dev/src/tilecache",
        Ask("add an LRU bound to the tile cache"),
        Read("src/cache.rs", "pub struct Cache { map: HashMap<u64, Tile> }\n"),
        Say("I will bound the map with an LRU list."),
        Ask("Summarize the task tool output above and continue with your task."),
        Ask(
            "Continue if you have next steps, or stop and ask for clarification if you are unsure how to proceed."
        ),
        Run("cargo test", "running 3 tests\n...\ntest result: ok. 3 passed; 0 failed; 0 ignored\n"),
        Say("The cache is now bounded."),
        host="codex",
    ),
    wrong=(
        (
            r"ask for clarification|continue if you have next steps|summari[sz]e the task tool",
            "the host wrote these lines, not the user",
        ),
    ),
)

# -- a test command without the argument it ran with -------------------------------------------

GO_TEST_PACKAGES_KEPT = Trap(
    "go-test-of-some-packages-before-lint",
    "Go",
    "`go test ./cmd/app/... -run Explain -v` then `mise run lint` before finishing: stated as `go test`, a run of the root package only",
    one_session(
        "/home/ana/src/explainer",
        Ask("fix the explain output for empty checkpoints"),
        Read(
            "cmd/app/explain.go",
            "package app\n\nfunc Explain(ids []string) string {\n\treturn ids[0]\n}\n",
        ),
        Edit(
            "cmd/app/explain.go",
            "\treturn ids[0]",
            '\tif len(ids) == 0 {\n\t\treturn ""\n\t}\n\treturn ids[0]',
        ),
        Run("go build ./cmd/app/... 2>&1 | head -20", ""),
        Run(
            "go test ./cmd/app/... -run Explain -v 2>&1 | tail -50",
            "=== RUN   TestExplainEmpty\n--- PASS: TestExplainEmpty (0.00s)\nPASS\nok  \texplainer/cmd/app\t0.012s\n",
        ),
        Run("mise run lint 2>&1 | head -30", "[lint] $ golangci-lint run\n0 issues.\n"),
        Say("Empty checkpoints now explain as an empty string; tests and lint pass."),
    ),
    wrong=(
        (
            r"`go test`",
            "what ran was `go test ./cmd/app/... -run Explain`; a bare `go test` runs only the root package",
        ),
    ),
)

GO_TEST_WHOLE_MODULE_CODEX = Trap(
    "go-test-every-package-codex",
    "Go",
    "must stay right: `go test ./...` run to finish a change is stated with its `./...`",
    one_session(
        "/home/ana/src/ratelimit",
        Ask("make the limiter's burst configurable, then run the tests"),
        Read("limiter.go", "package ratelimit\n\nconst burst = 10\n"),
        Edit("limiter.go", "const burst = 10", "var Burst = 10"),
        Run("go test ./...", "ok  \tratelimit\t0.009s\nok  \tratelimit/internal/clock\t0.004s\n"),
        Run("go vet ./...", ""),
        Say("`Burst` is now a variable; tests and vet pass."),
        host="codex",
    ),
    wrong=(
        (
            r"`go (?:test|vet)`",
            "what ran was `go test ./...` / `go vet ./...`, every package; a bare `go test` runs only the root one",
        ),
    ),
    may=(r"go test \./\.\.\.",),
)

CARGO_WORKSPACE_KEPT = Trap(
    "cargo-test-of-the-workspace",
    "Rust",
    "`cargo test --workspace` and `cargo clippy --workspace` in a workspace: the `--workspace` must survive",
    one_session(
        "/home/tove/src/meshkit",
        Ask("rename Mesh::verts to vertices everywhere and check the workspace"),
        Read("crates/core/src/mesh.rs", "pub struct Mesh { pub verts: Vec<[f32; 3]> }\n"),
        Edit("crates/core/src/mesh.rs", "pub verts:", "pub vertices:"),
        Run(
            "cargo test --workspace",
            "running 9 tests\n.........\ntest result: ok. 9 passed; 0 failed; 0 ignored\n\nrunning 4 tests\n....\ntest result: ok. 4 passed; 0 failed; 0 ignored\n",
        ),
        Run(
            "cargo clippy --workspace",
            "    Checking meshkit-core v0.2.0\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 2.1s\n",
        ),
        Say("Renamed; the whole workspace tests and lints clean."),
    ),
    wrong=(
        (
            r"`cargo (?:test|clippy)`",
            "what ran was over the whole workspace (`--workspace`); a bare `cargo test` at the root tests one package",
        ),
    ),
    may=(r"cargo test --workspace",),
)

# -- a `!` inside a code name -------------------------------------------------------------------

DBG_BANG_RUST = Trap(
    "dbg-macro-in-a-rule",
    "Rust",
    "`never leave dbg! calls in committed code`: `dbg!` is a macro's name, the sentence goes on after it",
    one_session(
        "/home/olga/src/tinyjson",
        Ask("never leave dbg! calls in committed code. now tidy up src/parse.rs"),
        Read("src/parse.rs", "pub fn parse(s: &str) -> Value {\n    dbg!(s);\n    value(s)\n}\n"),
        Edit("src/parse.rs", "    dbg!(s);\n", ""),
        Run(
            "cargo test", "running 5 tests\n.....\ntest result: ok. 5 passed; 0 failed; 0 ignored\n"
        ),
        Say("Removed the `dbg!` call; tests pass."),
    ),
    wrong=(
        (
            r"\bleave dbg!?\s*\.?\s*$|\bnever leave dbg\.",
            "the rule is cut at the macro's `!`: it says to never leave `dbg` instead of never leaving `dbg!` calls",
        ),
    ),
)

PRINTLN_BANG_RUST_CODEX = Trap(
    "println-macro-in-a-rule-codex",
    "Rust",
    "`always remove println! calls before committing`: the rule goes on after `println!`",
    one_session(
        "/home/olga/src/tinyjson",
        Ask("always remove println! calls before committing. the lexer has a few, clean them up"),
        Read("src/lexer.rs", 'pub fn lex(s: &str) {\n    println!("lexing {s}");\n}\n'),
        Edit("src/lexer.rs", '    println!("lexing {s}");\n', ""),
        Run(
            "cargo test", "running 5 tests\n.....\ntest result: ok. 5 passed; 0 failed; 0 ignored\n"
        ),
        Say("Removed the `println!` calls."),
        host="codex",
    ),
    wrong=(
        (
            r"\bremove println!?\s*\.?\s*$|\bremove println\.",
            "the rule is cut at the macro's `!`: it loses `calls before committing`",
        ),
    ),
)

DOUBLE_BANG_KOTLIN = Trap(
    "not-null-operator-in-a-rule",
    "Kotlin",
    "`never use the !! operator in Kotlin code, use requireNotNull instead`: `!!` is an operator, not the sentence's end",
    one_session(
        "/home/ines/src/ledgerkt",
        Ask("never use the !! operator in our code, use requireNotNull instead. fix Account.kt"),
        Read("src/main/kotlin/Account.kt", "fun owner(a: Account) = a.owner!!.name\n"),
        Edit(
            "src/main/kotlin/Account.kt",
            "a.owner!!.name",
            'requireNotNull(a.owner) { "no owner" }.name',
        ),
        Run("./gradlew test", "> Task :test\n\nBUILD SUCCESSFUL in 5s\n"),
        Say("Replaced `!!` with `requireNotNull`."),
    ),
    wrong=(
        (
            r"\bnever use\s*\.?\s*$|\bnever use the\s*\.?\s*$|^\W*never use\.\W*$",
            "the rule is cut at the `!!`: `Never use.` says nothing",
        ),
    ),
)

NOT_EQUAL_STAYS_PY = Trap(
    "not-equal-in-a-rule-stays",
    "Python",
    "must stay right: `always compare with is not None, never != None` keeps its operator",
    one_session(
        "/home/eli/src/scrapey",
        Ask("always compare with is not None, never != None. fix scrapey/pages.py"),
        Read("scrapey/pages.py", "def ok(p):\n    return p != None\n"),
        Edit("scrapey/pages.py", "return p != None", "return p is not None"),
        Run(
            "python -m pytest -q",
            "....                                                     [100%]\n4 passed in 0.05s\n",
        ),
        Say("Replaced the comparison."),
        host="codex",
    ),
    wrong=(
        (
            r"^\W*(?:always compare with is not none, )?never\s*\.?\s*$",
            "the rule is cut at the operator",
        ),
    ),
    may=(r"is not None",),
)

CASES: tuple[Trap, ...] = (
    PRODUCT_FLOW_GO,
    PRODUCT_USERS_PY,
    PRODUCT_BESIDE_RULE_TS,
    TEST_FIRST_FOR_THIS_FIX_RUST,
    NO_EDITS_FOR_THIS_REVIEW_PY,
    NO_EDITS_FOR_THIS_QUESTION_GO,
    TEST_FIRST_STAYS_KT,
    HMM_NO_FOLDER_GO,
    HMM_NO_BRANCH_AGAIN_TS,
    HMM_NO_LOG_PY,
    NO_MOCKS_STAYS_PY,
    ROLE_PROMPT_PASTED_TS,
    ROLE_PROMPT_WHOLE_MESSAGE_PY,
    OWN_RULES_AFTER_PASTE_STAY,
    HOST_CONTINUE_LINE_CLAUDE,
    HOST_SUMMARIZE_LINE_CODEX,
    GO_TEST_PACKAGES_KEPT,
    GO_TEST_WHOLE_MODULE_CODEX,
    CARGO_WORKSPACE_KEPT,
    DBG_BANG_RUST,
    PRINTLN_BANG_RUST_CODEX,
    DOUBLE_BANG_KOTLIN,
    NOT_EQUAL_STAYS_PY,
)
