# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `y`: the user's habits stated wrong, over ecosystems: a rule quoted
from a former lead the user disagrees with, a sarcastic complaint, a habit the user dropped, a
rule taken back in a later session, a double negative, a file frozen for one day, a sibling
project's convention, a hypothetical, a rule the assistant proposed and the user turned down,
the assistant's own promise, a question that reads like a rule, a pasted answer's advice, a
permission worded as an obligation, a wish about the replies' tone, a rule taken back in the
same prompt, an idiom ('never mind'), and 'not always' (`bench/wrong_traps.py` runs them).

Every trap was written, its `wrong` and `may` patterns included, before any rule ran on it.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Edit, Read, Run, Say, Session, Trap

#: A line that does not turn the habit down: what follows must not be said as a plain rule.
_NEG = (
    r"^(?![^\n]*\b(?:don't|do not|never|no longer|not|no|stop\w*|used to|instead|if|disagree\w*)\b)"
)

QUOTED_OLD_LEAD = Trap(
    "quoted-old-lead-rule",
    "Go",
    "the user quotes a former lead's rule ('never commit without a ticket number in the "
    "message') and says they never bought it; their own rule is to run `go vet` before finishing",
    (
        Session(
            "claude",
            "/home/ines/code/ledgerd",
            (
                Ask(
                    "My old tech lead always said 'never commit without a ticket number in the message'. I never bought it, most of our commits here have no ticket. "
                    "Anyway: the balance endpoint returns 500 when the account has no entries. Fix it, and please always run `go vet ./...` before you tell me you're done."
                ),
                Read(
                    "internal/api/balance.go",
                    'func (h *Handler) Balance(w http.ResponseWriter, r *http.Request) {\n\tentries, err := h.store.Entries(r.Context(), chi.URLParam(r, "id"))\n'
                    "\tif err != nil {\n\t\thttp.Error(w, err.Error(), 500)\n\t\treturn\n\t}\n\twriteJSON(w, sum(entries[0:]))\n}\n",
                ),
                Edit(
                    "internal/store/entries.go",
                    "\tif len(rows) == 0 {\n\t\treturn nil, ErrNotFound\n\t}\n",
                    "\tif len(rows) == 0 {\n\t\treturn []Entry{}, nil\n\t}\n",
                ),
                Run(
                    "go test ./...",
                    "ok  \tgithub.com/ines/ledgerd/internal/api\t0.044s\nok  \tgithub.com/ines/ledgerd/internal/store\t0.102s\n",
                ),
                Run("go vet ./...", ""),
                Say(
                    "The store returned `ErrNotFound` for an account with no entries; it now returns an empty list, so the balance is 0. Tests and `go vet ./...` pass."
                ),
                Run(
                    'git commit -am "Balance of an account with no entries is 0"',
                    "[main 7d2c41e] Balance of an account with no entries is 0\n 1 file changed, 1 insertion(+), 1 deletion(-)\n",
                ),
            ),
        ),
    ),
    wrong=(
        (
            _NEG + r"[^\n]*ticket number",
            "the ticket-number rule is the former lead's; the user never bought it",
        ),
    ),
    may=(r"go vet",),
)

SARCASTIC_COMMENTS = Trap(
    "sarcastic-comments",
    "Java",
    "the user mocks a reviewer's wish ('oh sure, always add more comments') and has the "
    "assistant strip the Javadoc it added to the DTOs' getters",
    (
        Session(
            "codex",
            "/home/tomas/src/roster-service",
            (
                Ask(
                    "Add a `nickname` field to PlayerDto with its getter and setter, and map it in PlayerMapper."
                ),
                Edit(
                    "src/main/java/org/roster/dto/PlayerDto.java",
                    "    private String name;\n",
                    "    private String name;\n    private String nickname;\n\n    /**\n     * Returns the nickname.\n     * @return the nickname\n     */\n    public String getNickname() { return nickname; }\n",
                ),
                Run(
                    "./mvnw -q test",
                    "[INFO] Tests run: 64, Failures: 0, Errors: 0, Skipped: 0\n[INFO] BUILD SUCCESS\n",
                ),
                Say("Added `nickname` with its accessors and mapped it; 64 tests pass."),
                Ask(
                    "Oh sure, always add more comments, that's exactly what this codebase needs. "
                    "A Javadoc that says 'Returns the nickname' on a getter is noise. Strip the ones you added to the DTO."
                ),
                Edit(
                    "src/main/java/org/roster/dto/PlayerDto.java",
                    "    /**\n     * Returns the nickname.\n     * @return the nickname\n     */\n    public String getNickname()",
                    "    public String getNickname()",
                ),
                Run(
                    "./mvnw -q test",
                    "[INFO] Tests run: 64, Failures: 0, Errors: 0, Skipped: 0\n[INFO] BUILD SUCCESS\n",
                ),
                Say("Removed the getter's doc comment; tests still pass."),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:sarcas\w*|mock\w*|noise|don't|do not|no|never|not|strip\w*|remov\w*)\b)[^\n]*\b(?:always )?add (?:more )?comments",
            "'oh sure, always add more comments' is sarcasm: the user wants fewer comments",
        ),
    ),
)

DROPPED_SQUASH = Trap(
    "dropped-squash-habit",
    "PHP",
    "the user used to squash every branch and now keeps the full history (`--no-ff`)",
    (
        Session(
            "claude",
            "/home/lea/www/invoicer",
            (
                Ask(
                    "The feature/pdf-footer branch is reviewed. Merge it into main. I used to squash everything before merging, "
                    "now I keep the full history, so no squashing: merge with --no-ff."
                ),
                Run("git checkout main", "Switched to branch 'main'\n"),
                Run(
                    "git merge --no-ff feature/pdf-footer",
                    "Merge made by the 'ort' strategy.\n src/Pdf/Footer.php | 24 ++++++++++++++++++++++--\n 1 file changed, 22 insertions(+), 2 deletions(-)\n",
                ),
                Run(
                    "vendor/bin/phpunit",
                    "PHPUnit 10.5.9 by Sebastian Bergmann and contributors.\n\n..............................  30 / 30 (100%)\n\nOK (30 tests, 71 assertions)\n",
                ),
                Say(
                    "Merged `feature/pdf-footer` into main with a merge commit; the 30 tests pass."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:used to|no squash\w*|don't|do not|never|not|no longer|instead of)\b)[^\n]*\bsquash",
            "the user dropped squashing; they keep the full history now",
        ),
    ),
    may=(r"no-ff|full history",),
)

RETRACTED_NEXT_SESSION = Trap(
    "retracted-next-session",
    "Kotlin",
    "the user bans wildcard imports in one session and takes it back in the next ('wildcard "
    "imports are fine, ignore what I said yesterday')",
    (
        Session(
            "claude",
            "/home/arvid/dev/tally-android",
            (
                Ask(
                    "Never use wildcard imports in Kotlin files. Add a `formatCents` helper to the money utils."
                ),
                Edit(
                    "app/src/main/java/se/tally/money/Money.kt",
                    "package se.tally.money\n",
                    "package se.tally.money\n\nimport java.text.NumberFormat\nimport java.util.Locale\n\nfun formatCents(cents: Long, locale: Locale = Locale.getDefault()): String =\n    NumberFormat.getCurrencyInstance(locale).format(cents / 100.0)\n",
                ),
                Run(
                    "./gradlew testDebugUnitTest",
                    "> Task :app:testDebugUnitTest\n\nBUILD SUCCESSFUL in 38s\n31 actionable tasks: 6 executed, 25 up-to-date\n",
                ),
                Say("Added `formatCents` with explicit imports; unit tests pass."),
            ),
        ),
        Session(
            "claude",
            "/home/arvid/dev/tally-android",
            (
                Ask(
                    "Actually, wildcard imports are fine, ignore what I said yesterday: ktlint's config allows them now and the Compose files need a dozen imports each. "
                    "Add a `parseCents` next to formatCents."
                ),
                Edit(
                    "app/src/main/java/se/tally/money/Money.kt",
                    "import java.text.NumberFormat\nimport java.util.Locale\n",
                    "import java.text.*\nimport java.util.Locale\n",
                ),
                Run(
                    "./gradlew testDebugUnitTest",
                    "> Task :app:testDebugUnitTest\n\nBUILD SUCCESSFUL in 35s\n31 actionable tasks: 5 executed, 26 up-to-date\n",
                ),
                Say("Added `parseCents`; unit tests pass."),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:fine|allowed|ok)\b)[^\n]*\b(?:never|don't|do not|avoid|no)\b[^\n]*wildcard imports",
            "the user took the ban on wildcard imports back the next day",
        ),
    ),
)

DOUBLE_NEGATIVE_MOCKS = Trap(
    "double-negative-mocks",
    "Node/TypeScript",
    "'it's not that I never want mocks' and 'don't stop running prettier': double negatives "
    "that a naive reader flips",
    (
        Session(
            "codex",
            "/home/keiko/src/pantry-api",
            (
                Ask(
                    "The stock repository test mocks the whole database client. It's not that I never want mocks, I just don't want them for the repository layer: "
                    "run those tests against the real SQLite file in test/fixtures. And don't stop running prettier on the files you touch just because it's slow."
                ),
                Read(
                    "test/stockRepository.test.ts",
                    "jest.mock('../src/db');\nimport { StockRepository } from '../src/stockRepository';\n",
                ),
                Edit(
                    "test/stockRepository.test.ts",
                    "jest.mock('../src/db');\nimport { StockRepository } from '../src/stockRepository';\n",
                    "import { openDb } from '../src/db';\nimport { StockRepository } from '../src/stockRepository';\n\nconst db = openDb('test/fixtures/pantry.sqlite');\n",
                ),
                Run(
                    "npx jest test/stockRepository.test.ts",
                    "PASS test/stockRepository.test.ts\n  StockRepository\n    ✓ lists items below threshold (14 ms)\n    ✓ decrements on use (6 ms)\n\nTests:       2 passed, 2 total\n",
                ),
                Run(
                    "npx prettier --write test/stockRepository.test.ts",
                    "test/stockRepository.test.ts 118ms\n",
                ),
                Say(
                    "The repository tests now open the fixture SQLite file instead of mocking the client; both pass, and the file is formatted."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"\b(?:never|don't|do not|avoid|no)\b[^\n]{0,12}\b(?:use |want )?mocks?\b(?![^\n]*repositor)",
            "the user wants no mocks only in the repository layer, not everywhere",
        ),
        (
            r"^(?![^\n]*\bdon't stop\b)[^\n]*\b(?:stop|don't|do not|never|skip)\b[^\n]{0,20}\brun\w* prettier",
            "'don't stop running prettier' asks to keep running it",
        ),
    ),
    may=(r"prettier|repositor",),
)

FILE_FROZEN_TODAY = Trap(
    "file-frozen-today",
    "Ruby",
    "'never touch config/routes.rb today, Priya is mid-refactor on it': a file frozen for one day",
    (
        Session(
            "claude",
            "/home/sam/rails/harbor",
            (
                Ask(
                    "Add a JSON endpoint for berth availability. Never touch config/routes.rb today, Priya is mid-refactor on it; "
                    "I'll wire the route myself tomorrow. Put the action on BerthsController."
                ),
                Edit(
                    "app/controllers/berths_controller.rb",
                    "class BerthsController < ApplicationController\n",
                    "class BerthsController < ApplicationController\n  def availability\n    render json: Berth.available_on(params.require(:date))\n  end\n\n",
                ),
                Run(
                    "bin/rails test test/controllers/berths_controller_test.rb",
                    "Running 6 tests in a single process\n......\n\nFinished in 0.412s, 14.56 runs/s, 31.55 assertions/s.\n6 runs, 13 assertions, 0 failures, 0 errors, 0 skips\n",
                ),
                Say(
                    "Added `BerthsController#availability`; its route is left for you. Controller tests pass."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"\b(?:never|don't|do not|avoid)\b[^\n]{0,30}config/routes\.rb",
            "routes.rb was frozen for one day only",
        ),
    ),
)

SIBLING_PROJECT_CONVENTION = Trap(
    "sibling-project-convention",
    "Rust",
    "the user says the sibling mobile repo always uses snake_case JSON keys, while here serde "
    "renames to camelCase",
    (
        Session(
            "codex",
            "/home/noor/code/relay-gateway",
            (
                Ask(
                    "In the mobile app's repo we always use snake_case for JSON keys; here it's camelCase, that's the web frontend's contract. "
                    "Add a `retryAfter` field to the RateLimited error body."
                ),
                Read(
                    "src/errors.rs",
                    '#[derive(Serialize)]\n#[serde(rename_all = "camelCase")]\npub struct RateLimited {\n    pub message: String,\n}\n',
                ),
                Edit(
                    "src/errors.rs",
                    "    pub message: String,\n}\n",
                    "    pub message: String,\n    pub retry_after: u64,\n}\n",
                ),
                Run(
                    "cargo test",
                    "   Compiling relay-gateway v0.9.0 (/home/noor/code/relay-gateway)\n    Finished test [unoptimized + debuginfo] target(s) in 9.12s\n"
                    "     Running unittests src/main.rs\n\nrunning 17 tests\ntest result: ok. 17 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n",
                ),
                Say(
                    "`RateLimited` now carries `retry_after`, serialised as `retryAfter`; 17 tests pass."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:mobile|other|sibling)\b)[^\n]*\bsnake_case\b[^\n]*json|^(?![^\n]*\b(?:mobile|other|sibling)\b)[^\n]*json[^\n]*\bsnake_case\b",
            "snake_case JSON keys are the sibling mobile repo's rule; here keys are camelCase",
        ),
    ),
)

HYPOTHETICAL_SIGNED_COMMITS = Trap(
    "hypothetical-signed-commits",
    "Elixir",
    "'if we ever go public with this, always sign commits and add a Signed-off-by line; for "
    "now just commit normally'",
    (
        Session(
            "claude",
            "/home/rui/src/beacon",
            (
                Ask(
                    "The heartbeat GenServer leaks a timer on restart. Fix it and commit. "
                    "If we ever go public with this, always sign commits and add a Signed-off-by line; for now just commit normally."
                ),
                Read(
                    "lib/beacon/heartbeat.ex",
                    "def init(state) do\n  :timer.send_interval(5_000, :beat)\n  {:ok, state}\nend\n",
                ),
                Edit(
                    "lib/beacon/heartbeat.ex",
                    "def init(state) do\n  :timer.send_interval(5_000, :beat)\n  {:ok, state}\nend\n",
                    "def init(state) do\n  {:ok, schedule(state)}\nend\n\ndefp schedule(state), do: Map.put(state, :ref, Process.send_after(self(), :beat, 5_000))\n",
                ),
                Run(
                    "mix test",
                    "Compiling 2 files (.ex)\n..........................\nFinished in 0.3 seconds (0.1s async, 0.2s sync)\n26 tests, 0 failures\n",
                ),
                Run(
                    'git commit -am "Heartbeat schedules one beat at a time"',
                    "[main 0b7e9f2] Heartbeat schedules one beat at a time\n 1 file changed, 4 insertions(+), 2 deletions(-)\n",
                ),
                Say(
                    "`init` used `:timer.send_interval`, which outlives the process; it now schedules each beat with `Process.send_after`. 26 tests pass; committed."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"\bsign(?:ed)? (?:the |your |all |every )?commits|signed-off-by|--signoff",
            "signing is for a day the project goes public, not a habit now, hypothesis and all",
        ),
    ),
)

PROPOSAL_REJECTED = Trap(
    "proposal-rejected",
    "C#/.NET",
    "the assistant asks 'should I always run `dotnet format` before each commit?' and the user "
    "says no, CI does that",
    (
        Session(
            "codex",
            "/home/dana/src/Pylon",
            (
                Ask("The CSV importer chokes on a BOM at the start of the file. Fix it."),
                Read(
                    "src/Pylon.Import/CsvImporter.cs",
                    "public IEnumerable<Row> Read(Stream s)\n{\n    using var reader = new StreamReader(s, new UTF8Encoding(false));\n",
                ),
                Edit(
                    "src/Pylon.Import/CsvImporter.cs",
                    "    using var reader = new StreamReader(s, new UTF8Encoding(false));\n",
                    "    using var reader = new StreamReader(s, Encoding.UTF8, detectEncodingFromByteOrderMarks: true);\n",
                ),
                Run(
                    "dotnet test",
                    "  Determining projects to restore...\n  All projects are up-to-date for restore.\n"
                    "Passed!  - Failed:     0, Passed:    58, Skipped:     0, Total:    58, Duration: 1 s - Pylon.Tests.dll (net8.0)\n",
                ),
                Say(
                    "The reader now detects the byte-order mark; 58 tests pass. Should I always run `dotnet format` before each commit from now on?"
                ),
                Ask("No, CI does that. Just run the tests."),
                Say("Understood, I'll leave formatting to CI."),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:no|not|don't|do not|never|leave|ci)\b)[^\n]*dotnet format",
            "the user turned down running `dotnet format` before each commit",
        ),
    ),
    may=(r"dotnet test",),
)

ASSISTANT_OWN_PROMISE = Trap(
    "assistant-own-promise",
    "Swift",
    "the assistant promises 'going forward I'll always prefer structs and never force-unwrap'; "
    "the user only asks for the next task",
    (
        Session(
            "claude",
            "/home/mika/dev/Skylog",
            (
                Ask("The flight list crashes when a log has no landing time. Fix it."),
                Read(
                    "Sources/Skylog/FlightRow.swift",
                    "var duration: TimeInterval {\n    landing!.timeIntervalSince(takeoff)\n}\n",
                ),
                Edit(
                    "Sources/Skylog/FlightRow.swift",
                    "    landing!.timeIntervalSince(takeoff)\n",
                    "    (landing ?? Date()).timeIntervalSince(takeoff)\n",
                ),
                Run(
                    "swift test",
                    "Building for debugging...\nTest Suite 'All tests' passed at 2026-05-04 09:02:11.431.\n\t Executed 37 tests, with 0 failures (0 unexpected) in 0.412 (0.430) seconds\n",
                ),
                Say(
                    "`duration` force-unwrapped `landing`; an open flight now counts up to now. 37 tests pass. "
                    "Going forward I'll always prefer structs over classes and never force-unwrap optionals."
                ),
                Ask("ok. Bump the version to 1.4.2 in the Info.plist."),
                Edit(
                    "Sources/Skylog/Info.plist",
                    "<string>1.4.1</string>",
                    "<string>1.4.2</string>",
                ),
                Say("Bumped to 1.4.2."),
            ),
        ),
    ),
    wrong=(
        (
            r"prefer structs|never force-unwrap",
            "the assistant's own promise, never stated or asked for by the user",
        ),
    ),
)

WHY_NEVER_QUESTION = Trap(
    "why-never-question",
    "Python",
    "'why do we never use f-strings in the logging calls?': a question that reads like a rule",
    (
        Session(
            "claude",
            "/home/olu/src/tidewatch",
            (
                Ask(
                    "Why do we never use f-strings in the logging calls? Is that a rule somewhere or just habit? "
                    "Also the gauge parser drops readings with a negative offset, fix that."
                ),
                Read(
                    "tidewatch/gauge.py",
                    'import logging\nlog = logging.getLogger(__name__)\n\ndef parse(line):\n    m = READING.match(line)\n    if not m or m["offset"].startswith("-"):\n        log.debug("skipped %s", line)\n        return None\n    return Reading(float(m["level"]), int(m["offset"]))\n',
                ),
                Say(
                    "It's lazy formatting: with `%s` arguments the message is only built when the record is emitted. "
                    "Nothing in the repository enforces it."
                ),
                Edit(
                    "tidewatch/gauge.py",
                    '    if not m or m["offset"].startswith("-"):\n',
                    "    if not m:\n",
                ),
                Run("python -m pytest -q", "......................\n22 passed in 0.31s\n"),
                Say("Negative offsets are parsed now; 22 tests pass."),
            ),
        ),
    ),
    wrong=(
        (
            r"\b(?:never|don't|do not|avoid|no)\b[^\n]{0,15}f-strings",
            "the user asked why, they stated no rule",
        ),
    ),
)

PASTED_ANSWER_ADVICE = Trap(
    "pasted-answer-advice",
    "Python",
    "the user pastes a forum answer ('you should always call session.expire_all() after a "
    "commit') and asks whether it holds here; the assistant says it does not",
    (
        Session(
            "codex",
            "/home/vera/work/orderbook",
            (
                Ask(
                    "Found this answer online:\n\n> You should always call `session.expire_all()` after every commit, otherwise SQLAlchemy serves you stale objects.\n\n"
                    "Is that true for us? We see stale prices in the quote endpoint."
                ),
                Read(
                    "orderbook/db.py",
                    "SessionLocal = sessionmaker(bind=engine, expire_on_commit=False)\n",
                ),
                Say(
                    "Not as a rule: sessions expire on commit by default. Here `expire_on_commit=False` turns that off, which is why the quote endpoint keeps old prices. "
                    "Turning it back on is the fix; no extra call needed."
                ),
                Edit(
                    "orderbook/db.py",
                    "SessionLocal = sessionmaker(bind=engine, expire_on_commit=False)\n",
                    "SessionLocal = sessionmaker(bind=engine)\n",
                ),
                Run("pytest -q", "...............................\n31 passed in 1.02s\n"),
                Say("Sessions expire on commit again; 31 tests pass."),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:not|no|don't|never)\b)[^\n]*(?:always|should)[^\n]*expire_all",
            "the advice was a pasted forum answer, and it does not hold here",
        ),
    ),
)

PERMISSION_SKIP_E2E = Trap(
    "permission-skip-e2e",
    "Node/TypeScript",
    "'feel free to skip the e2e tests for docs-only changes': a permission, said once beside a "
    "docs edit",
    (
        Session(
            "claude",
            "/home/jo/code/checkout-web",
            (
                Ask(
                    "Fix the typo in the README's setup section ('pnpm instal'). Feel free to skip the e2e tests for docs-only changes, they take nine minutes."
                ),
                Edit("README.md", "pnpm instal\n", "pnpm install\n"),
                Say("Fixed the typo; no tests run for a docs-only change."),
            ),
        ),
        Session(
            "claude",
            "/home/jo/code/checkout-web",
            (
                Ask(
                    "The coupon field accepts spaces around the code. Trim it, and run the unit tests and the e2e suite."
                ),
                Edit(
                    "src/checkout/coupon.ts",
                    "export const normalize = (code: string) => code.toUpperCase();\n",
                    "export const normalize = (code: string) => code.trim().toUpperCase();\n",
                ),
                Run(
                    "pnpm vitest run",
                    " ✓ src/checkout/coupon.test.ts (7 tests) 12ms\n\n Test Files  14 passed (14)\n      Tests  96 passed (96)\n",
                ),
                Run(
                    "pnpm playwright test",
                    "Running 41 tests using 4 workers\n  41 passed (8.7m)\n",
                ),
                Say("Codes are trimmed now; 96 unit tests and 41 e2e tests pass."),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:feel free|may|can|optional\w*|no need|don't have to|need not)\b)[^\n]*\bskip\w*\b[^\n]*\be2e\b",
            "skipping the e2e suite for docs-only changes is allowed, not required",
        ),
        (
            r"^(?![^\n]*\bdocs?\b)[^\n]*\bskip\w*\b[^\n]*\be2e\b",
            "the permission holds for docs-only changes only",
        ),
    ),
    may=(r"playwright|vitest",),
)

TONE_NOT_CODE = Trap(
    "tone-not-code",
    "Haskell",
    "'don't explain every line to me, I can read Haskell': a wish about the replies, not the "
    "code's comments",
    (
        Session(
            "codex",
            "/home/ilse/src/hexcalc",
            (
                Ask(
                    "Add a `Mod` operator to the expression evaluator. And don't explain every line to me in your replies, I can read Haskell; just say what changed."
                ),
                Edit(
                    "src/Eval.hs",
                    "eval (Div a b) = div <$> eval a <*> eval b\n",
                    "eval (Div a b) = div <$> eval a <*> eval b\n-- | Remainder; division by zero is an error, as for 'Div'.\neval (Mod a b) = mod <$> eval a <*> eval b\n",
                ),
                Run(
                    "cabal test",
                    "Build profile: -w ghc-9.6.4 -O1\nRunning 1 test suites...\nTest suite hexcalc-test: RUNNING...\nTest suite hexcalc-test: PASS\n1 of 1 test suites (1 of 1 test cases) passed.\n",
                ),
                Say("Added `Mod`; tests pass."),
            ),
        ),
    ),
    wrong=(
        (
            r"\b(?:comment|haddock|docstring|document)\w*",
            "the wish is about the replies' length, not the code's comments",
        ),
    ),
)

TAKEN_BACK_SAME_PROMPT = Trap(
    "taken-back-same-prompt",
    "Scala",
    "'from now on put the opening brace on its own line. Actually, scratch that, scalafmt "
    "decides': a rule taken back in the same prompt",
    (
        Session(
            "claude",
            "/home/nils/code/tariff",
            (
                Ask(
                    "From now on always put the opening brace on its own line. Actually, scratch that, scalafmt decides, don't fight it. "
                    "Add a `discounted` method to PriceTable."
                ),
                Edit(
                    "src/main/scala/tariff/PriceTable.scala",
                    "final case class PriceTable(rows: Vector[Row]) {\n",
                    "final case class PriceTable(rows: Vector[Row]) {\n  def discounted(pct: BigDecimal): PriceTable =\n    copy(rows = rows.map(r => r.copy(price = r.price * (1 - pct / 100))))\n\n",
                ),
                Run(
                    "sbt test",
                    "[info] welcome to sbt 1.9.9 (Eclipse Adoptium Java 17.0.10)\n[info] PriceTableSpec:\n[info] - discounted lowers every price\n[info] Tests: succeeded 19, failed 0, canceled 0, ignored 0, pending 0\n[info] All tests passed.\n[success] Total time: 14 s\n",
                ),
                Say("Added `discounted`; 19 tests pass."),
            ),
        ),
    ),
    wrong=(
        (
            r"brace on its own line",
            "the user took the brace rule back at once: scalafmt decides",
        ),
        (r"^(?:- )?add a `discounted` method", "adding `discounted` was the task at hand"),
    ),
)

NEVER_MIND_IDIOM = Trap(
    "never-mind-idiom",
    "C++/CMake",
    "'never mind the flaky socket test, fix the build first': an idiom, not a rule to ignore a test",
    (
        Session(
            "claude",
            "/home/bea/src/meshnet",
            (
                Ask(
                    "Never mind the flaky socket test for now, fix the build first: it fails on the new span header."
                ),
                Run(
                    "cmake --build build",
                    "[ 42%] Building CXX object src/CMakeFiles/meshnet.dir/frame.cpp.o\n"
                    "/home/bea/src/meshnet/src/frame.cpp:3:10: fatal error: span: No such file or directory\n    3 | #include <span>\ncompilation terminated.\n"
                    "gmake[2]: *** [src/CMakeFiles/meshnet.dir/build.make:76: src/CMakeFiles/meshnet.dir/frame.cpp.o] Error 1\n",
                    2,
                ),
                Edit(
                    "CMakeLists.txt",
                    "set(CMAKE_CXX_STANDARD 17)\n",
                    "set(CMAKE_CXX_STANDARD 20)\n",
                ),
                Run(
                    "cmake -S . -B build && cmake --build build",
                    "-- Configuring done (0.4s)\n-- Generating done (0.0s)\n[100%] Built target meshnet\n",
                ),
                Run(
                    "ctest --test-dir build",
                    "Test project /home/bea/src/meshnet/build\n1/3 Test #1: frame_test .......   Passed    0.02 sec\n"
                    "2/3 Test #2: socket_test ......***Failed    1.51 sec\n3/3 Test #3: router_test ......   Passed    0.04 sec\n\n67% tests passed, 1 tests failed out of 3\n",
                    8,
                ),
                Say(
                    "`<span>` needs C++20; the standard is raised and the build passes. `socket_test` still fails, as you expected."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"\bnever\b[^\n]{0,40}socket",
            "'never mind' is an idiom for 'leave it for now', not a rule",
        ),
        (
            r"\b(?:ignore|skip)\w*\b[^\n]{0,30}socket[_ ]test",
            "the flaky test was put aside for this task only",
        ),
    ),
)

NOT_ALWAYS_CHANGELOG = Trap(
    "not-always-changelog",
    "Dart/Flutter",
    "'we don't always need a changelog entry, only for user-facing changes': a scoped rule "
    "a naive reader flips into 'always'",
    (
        Session(
            "codex",
            "/home/yuki/dev/plantcare",
            (
                Ask(
                    "Refactor the watering scheduler's private helpers into their own file. "
                    "We don't always need a CHANGELOG entry, only for user-facing changes, so skip it for this one."
                ),
                Edit(
                    "lib/schedule/scheduler.dart",
                    "import 'package:plantcare/model/plant.dart';\n",
                    "import 'package:plantcare/model/plant.dart';\nimport 'package:plantcare/schedule/intervals.dart';\n",
                ),
                Run(
                    "flutter test",
                    "00:04 +48: All tests passed!\n",
                ),
                Say("Moved the interval helpers to `lib/schedule/intervals.dart`; 48 tests pass."),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(?:user-facing|only)\b)[^\n]*\balways\b[^\n]*changelog",
            "a changelog entry is for user-facing changes only",
        ),
        (
            r"^(?![^\n]*\b(?:user-facing|internal|refactor\w*|this one)\b)[^\n]*\b(?:skip|no|never|don't)\b[^\n]*changelog",
            "skipping the entry was for an internal change",
        ),
    ),
)

CASES = (
    QUOTED_OLD_LEAD,
    SARCASTIC_COMMENTS,
    DROPPED_SQUASH,
    RETRACTED_NEXT_SESSION,
    DOUBLE_NEGATIVE_MOCKS,
    FILE_FROZEN_TODAY,
    SIBLING_PROJECT_CONVENTION,
    HYPOTHETICAL_SIGNED_COMMITS,
    PROPOSAL_REJECTED,
    ASSISTANT_OWN_PROMISE,
    WHY_NEVER_QUESTION,
    PASTED_ANSWER_ADVICE,
    PERMISSION_SKIP_E2E,
    TONE_NOT_CODE,
    TAKEN_BACK_SAME_PROMPT,
    NEVER_MIND_IDIOM,
    NOT_ALWAYS_CHANGELOG,
)
