# ruff: noqa: E501  (transcript text: a message or an output is kept as one string a line)
"""Made-up users whose one habit comes back in each session in other words (`bench/habits_recurring.py`
runs them beside `bench/habits_recurring_cases.py`'s): how far to carry a batch of tasks, what
finishing means, what to ask about before doing it, which tool to use (after the assistant
used the other one), the language of the replies; and a user whose one-off requests only look
alike. Written from general knowledge of how people talk to a coding assistant, with the tenth
phrasebook (`bench/habits_book_tenth.py`), before any rule was read or run on them.
"""

from __future__ import annotations

from bench.habits_recurring_cases import JS_OK, PY_OK, RB_OK, RS_OK, Habit, User, _sessions, _work
from bench.trap_transcripts import Ask, Run, Say

REWORDED = (
    User(
        "no-check-ins",
        "repeated",
        "TypeScript/tsc",
        _sessions(
            "/home/ines/src/planner",
            "claude",
            _work(
                "There are 14 type errors after the upgrade. Work through all of them without checking in with me after each one.",
                "src/board/Column.tsx",
                "props.items.map((i) => <Card item={i} />)",
                "props.items.map((i: Item) => <Card key={i.id} item={i} />)",
                "pnpm tsc --noEmit",
                "",
                "All 14 are fixed; tsc is clean.",
            ),
            _work(
                "Here are five small tickets from the board (PLN-31 to PLN-35). Don't stop to ask me between them, just keep going until they're all done.",
                "src/board/Card.tsx",
                '<div className="card">',
                '<div className="card" role="listitem">',
                "pnpm test",
                JS_OK,
                "The five tickets are done.",
            ),
            _work(
                "Move every import of lodash to lodash-es. No need to confirm with me after each file.",
                "src/board/sort.ts",
                "import sortBy from 'lodash/sortBy';",
                "import { sortBy } from 'lodash-es';",
                "pnpm test",
                JS_OK,
                "All imports moved.",
            ),
        ),
        habits=(
            Habit(
                "Carries a batch to the end without asking after each step.",
                (r"ask|check(ing)? in|confirm|stop",),
                (r"^(please )?(always )?(ask|confirm with|check in with) me after each",),
            ),
        ),
    ),
    User(
        "rubocop-before-done",
        "repeated",
        "Ruby/Rails",
        _sessions(
            "/home/olu/code/bookings",
            "claude",
            _work(
                "Add a CSV export to the bookings index. Run rubocop before you say it's finished.",
                "app/controllers/bookings_controller.rb",
                "def index",
                "def index\n    respond_to do |format|\n      format.html\n      format.csv { send_data Booking.to_csv }\n    end",
                "bundle exec rubocop && bundle exec rspec",
                RB_OK,
                "Export added; rubocop and the specs pass.",
            ),
            _work(
                "The reminder mailer spec is flaky. Fix it, and make sure rubocop is clean before you tell me it's done.",
                "spec/mailers/reminder_mailer_spec.rb",
                "travel_to 1.day.from_now",
                "travel_to Time.zone.parse('2026-03-02 09:00')",
                "bundle exec rubocop && bundle exec rspec",
                RB_OK,
                "The spec pins the time now.",
            ),
            _work(
                "rename BookingCreator to Bookings::Create. dont call it done till rubocop is happy",
                "app/services/bookings/create.rb",
                "class BookingCreator",
                "module Bookings\n  class Create",
                "bundle exec rubocop && bundle exec rspec",
                RB_OK,
                "Renamed; rubocop is clean.",
            ),
        ),
        habits=(Habit("Runs rubocop before calling a task done.", (r"rubocop", r"done|finish")),),
    ),
    User(
        "pnpm-after-a-slip",
        "repeated",
        "TypeScript/pnpm",
        _sessions(
            "/home/ravi/src/storefront",
            "claude",
            (
                Ask("Add zod to the api package and validate the checkout body."),
                Run("npm install zod", "added 1 package in 2s"),
                Say("zod is installed and the checkout body is validated."),
                Ask("no, pnpm, not npm. we never use npm in this repo"),
                Run("rm package-lock.json && pnpm add zod", "+ zod 3.23.8"),
                Say("Switched to pnpm and removed package-lock.json."),
            ),
            _work(
                "Add vitest to the ui package, with pnpm please, as always.",
                "packages/ui/package.json",
                '"scripts": {',
                '"scripts": {\n    "test": "vitest run",',
                "pnpm --filter ui test",
                JS_OK,
                "vitest is set up in the ui package.",
            ),
            _work(
                "Upgrade react-query to v5. Remember: pnpm for everything.",
                "packages/ui/src/hooks/useCart.ts",
                "useQuery(['cart'], fetchCart)",
                "useQuery({ queryKey: ['cart'], queryFn: fetchCart })",
                "pnpm test",
                JS_OK,
                "Upgraded.",
            ),
        ),
        habits=(
            Habit("Uses pnpm, never npm.", (r"pnpm",), (r"(?<!never )use npm\b|prefers npm",)),
        ),
    ),
    User(
        "ask-before-removing",
        "repeated",
        "Python/uv",
        _sessions(
            "/home/mei/work/etl",
            "codex",
            _work(
                "Clean up the unused fixtures in tests/, but ask me before you delete anything.",
                "tests/conftest.py",
                "@pytest.fixture\ndef legacy_rows():",
                "",
                "uv run pytest -q",
                PY_OK,
                "I found six unused fixtures; I removed only the one inside conftest.py. Should I delete the five files?",
            ),
            _work(
                "The scripts/ folder has grown. Tidy it up; check with me before removing any file.",
                "scripts/README.md",
                "",
                "# scripts\n\n- backfill.py: reload one day\n",
                "uv run pytest -q",
                PY_OK,
                "I wrote a README; three scripts look dead, listed below. Delete them?",
            ),
            _work(
                "refactor the loaders module. don't delete stuff without asking me first, ok?",
                "etl/loaders.py",
                "def load_csv(path, sep=','):",
                "def load_csv(path: Path, sep: str = ',') -> list[Row]:",
                "uv run pytest -q",
                PY_OK,
                "Refactored; load_xml is unused, should I remove it?",
            ),
        ),
        habits=(
            Habit(
                "Asks before deleting anything.",
                (r"delet|remov", r"ask|check with|confirm"),
            ),
        ),
    ),
    User(
        "replies-in-portuguese",
        "repeated",
        "Rust/cargo",
        _sessions(
            "/home/joao/src/tally",
            "claude",
            (
                Ask(
                    "Explain how the parser recovers from a bad token. Answer in Portuguese, please."
                ),
                Run(
                    "sed -n 1,80p src/parser.rs",
                    "fn recover(&mut self) {\n    while !self.at(Token::Semi) { self.bump(); }\n}",
                ),
                Say("O parser avança até o próximo ponto e vírgula e recomeça dali."),
            ),
            _work(
                "Add a --json flag to the report command. Reply in Portuguese like last time.",
                "src/cli.rs",
                "struct Report {",
                "struct Report {\n    #[arg(long)]\n    json: bool,",
                "cargo test",
                RS_OK,
                "A flag --json foi adicionada ao comando report.",
            ),
            _work(
                "Fix the off-by-one in the line counter. Keep your replies in Portuguese.",
                "src/lexer.rs",
                "self.line = 0;",
                "self.line = 1;",
                "cargo test",
                RS_OK,
                "Corrigido: a contagem de linhas começa em 1.",
            ),
        ),
        habits=(Habit("Wants replies in Portuguese.", (r"portugu",)),),
    ),
    User(
        "look-alike-requests",
        "one-off",
        "Go",
        _sessions(
            "/home/sam/src/relay",
            "claude",
            _work(
                "Use rg to find every caller of DialTimeout and switch them to DialContext. Do all of them.",
                "internal/net/dial.go",
                'net.DialTimeout("tcp", addr, 2*time.Second)',
                'd.DialContext(ctx, "tcp", addr)',
                "go test ./...",
                "ok  \texample.com/relay/internal/net\t0.212s",
                "All four callers use DialContext now.",
            ),
            _work(
                "Delete the old v1 handlers; we dropped v1 last month, no need to ask.",
                "internal/api/router.go",
                'r.Mount("/v1", v1.Routes())',
                "",
                "go test ./...",
                "ok  \texample.com/relay/internal/api\t0.318s",
                "The v1 handlers are gone.",
            ),
        ),
        must_not=(r"\brg\b|DialContext|v1|without asking|no need to ask",),
    ),
)
