# ruff: noqa: E501  (transcript text: a message or an output is kept as one string a line)
"""Made-up sessions where the user states a preference once or twice, as a correction of what
the assistant just did or proposed, or with emphasis (`bench/corrections_study.py` runs them),
written from how people talk to a coding assistant before any rule was read or run on them:
a correction right after an edit or a command ("no — don't mock the database, we got burned
by that"), a rule said in capitals or with "I told you before", the user refusing a tool call
and saying why, the user turning down a proposal with a reason, and corrections in French,
German, Spanish, Portuguese, Chinese and Japanese. Traps that must not become the user's
style: a correction about this task only ("no, the other file", "not that test", "undo the
last change"), a correction of a fact of the code (where the config lives), frustration with
no rule in it, a review comment pasted from someone else, and a correction the user takes
back later in the session. Claude Code, Codex and Gemini CLI sessions, many ecosystems.
"""

from __future__ import annotations

from dataclasses import dataclass

from bench.trap_transcripts import Ask, Edit, Read, Refused, Run, Say, Session, Step, Write

#: The kinds of case: how the session shows the preference, or `trap` when it shows none.
KINDS = ("corrected", "emphasis", "refused", "rejected", "trap")


@dataclass(frozen=True)
class Want:
    """A preference the session shows: a note, the patterns one user_style memory must all
    match (case-insensitive regexes), whether a line of the session-start text must state it
    too, and patterns that state it wrong (the opposite, or the task's detail as the rule)."""

    note: str
    states: tuple[str, ...]
    start: bool = True
    wrong: tuple[str, ...] = ()


@dataclass(frozen=True)
class Case:
    """One made-up project: its kind, ecosystem, sessions, the preferences it shows and the
    patterns no user_style memory may match (what must not become the user's style)."""

    name: str
    kind: str
    ecosystem: str
    sessions: tuple[Session, ...]
    wants: tuple[Want, ...] = ()
    must_not: tuple[str, ...] = ()


def _one(cwd: str, host: str, *steps: Step) -> tuple[Session, ...]:
    return (Session(host, cwd, steps),)


PY_OK = "........................                                    [100%]\n24 passed in 1.93s"
JS_OK = " Test Files  9 passed (9)\n      Tests  61 passed (61)\n   Duration  2.41s"
GO_OK = "ok  \texample.com/relay/internal/queue\t0.388s"
RS_OK = "running 12 tests\ntest result: ok. 12 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.04s"
JV_OK = "BUILD SUCCESSFUL in 17s\n6 actionable tasks: 3 executed, 3 up-to-date"
EX_OK = "Finished in 0.6 seconds (0.2s async, 0.4s sync)\n31 tests, 0 failures"
RB_OK = "Finished in 2.1 seconds (files took 1.4 seconds to load)\n19 examples, 0 failures"
PHP_OK = "OK (22 tests, 57 assertions)"
CS_OK = "Passed!  - Failed:     0, Passed:    48, Skipped:     0, Total:    48, Duration: 3 s"

CORRECTED = (
    Case(
        "no-mock-db",
        "corrected",
        "Python/pytest",
        _one(
            "/home/ines/src/ledgerly",
            "claude",
            Ask("Add tests for the new refund endpoint in ledgerly/api/refunds.py."),
            Write(
                "tests/api/test_refunds.py",
                "from unittest.mock import MagicMock, patch\n\n\n@patch('ledgerly.api.refunds.db')\ndef test_refund_created(db):\n    db.session.add = MagicMock()\n    resp = client.post('/refunds', json={'charge': 'ch_1', 'amount': 500})\n    assert resp.status_code == 201\n",
            ),
            Run("pytest tests/api/test_refunds.py -q", "1 passed in 0.21s"),
            Say("I added a test for the refund endpoint; the database session is mocked."),
            Ask(
                "no — don't mock the database in these tests, we got burned by that last year when the mocked tests passed and the migration broke prod. Use the real test database through the `db` fixture."
            ),
            Write(
                "tests/api/test_refunds.py",
                "def test_refund_created(client, db):\n    resp = client.post('/refunds', json={'charge': 'ch_1', 'amount': 500})\n    assert resp.status_code == 201\n    assert db.query(Refund).count() == 1\n",
            ),
            Run("pytest tests/api/test_refunds.py -q", "1 passed in 0.64s"),
            Say("The test now runs against the real test database through the `db` fixture."),
        ),
        (
            Want(
                "Does not mock the database in tests; uses the real test database.",
                (r"mock", r"database|\bdb\b"),
                wrong=(r"\b(use|add) (a )?mock(ed)? (of the )?(database|db)",),
            ),
        ),
    ),
    Case(
        "no-docstrings-everywhere",
        "corrected",
        "Python/FastAPI",
        _one(
            "/home/raul/code/shipments",
            "codex",
            Ask("Split parse_manifest in shipments/manifest.py into smaller helpers."),
            Edit(
                "shipments/manifest.py",
                "def parse_manifest(raw):\n    lines = raw.splitlines()",
                'def _split_lines(raw):\n    """Split the raw manifest into lines."""\n    return raw.splitlines()\n\n\ndef _parse_header(line):\n    """Parse the header line."""\n    return line.split(";")\n\n\ndef parse_manifest(raw):\n    """Parse a manifest."""\n    lines = _split_lines(raw)',
            ),
            Run("pytest -q", PY_OK),
            Say("parse_manifest is split into _split_lines and _parse_header, each documented."),
            Ask(
                "stop adding docstrings to every function. Private helpers don't need one; only the public API gets a docstring."
            ),
            Edit(
                "shipments/manifest.py",
                '    """Split the raw manifest into lines."""\n',
                "",
            ),
            Say("Removed the docstrings from the private helpers."),
        ),
        (
            Want(
                "No docstrings on private helpers; only the public API gets one.",
                (r"docstring",),
                wrong=(r"add (a )?docstrings? to (every|each|all)",),
            ),
        ),
    ),
    Case(
        "only-touch-changed-lines",
        "corrected",
        "TypeScript/React",
        _one(
            "/home/mei/src/atlas-web",
            "claude",
            Ask("The tooltip in src/components/MapPin.tsx shows the raw id; show the place name."),
            Read(
                "src/components/MapPin.tsx",
                "export function MapPin({place}:{place:Place}){\n  return <Pin title={place.id} />\n}\n",
            ),
            Edit(
                "src/components/MapPin.tsx",
                "export function MapPin({place}:{place:Place}){\n  return <Pin title={place.id} />\n}",
                "export function MapPin({ place }: { place: Place }) {\n  return <Pin title={place.name} />;\n}",
            ),
            Say("The tooltip shows the place name now. I also ran the formatter over the file."),
            Ask(
                "why did you reformat the whole file? only touch the lines you change. Formatting churn makes the review unreadable."
            ),
            Edit(
                "src/components/MapPin.tsx",
                "export function MapPin({ place }: { place: Place }) {\n  return <Pin title={place.name} />;\n}",
                "export function MapPin({place}:{place:Place}){\n  return <Pin title={place.name} />\n}",
            ),
            Run("pnpm vitest run src/components", JS_OK),
            Say("Reverted the formatting; only the title line changed."),
        ),
        (
            Want(
                "Touches only the lines the change needs; no reformatting of whole files.",
                (r"reformat|formatt", r"lines?|only|whole"),
            ),
        ),
    ),
    Case(
        "pnpm-not-npm",
        "corrected",
        "JavaScript/pnpm",
        _one(
            "/home/sol/code/trailmix",
            "claude",
            Ask("Add date-fns and use it to format the dates on the trip card."),
            Run(
                "npm install date-fns",
                "added 1 package, and audited 612 packages in 3s\nfound 0 vulnerabilities",
            ),
            Say("Installed date-fns with npm; next I'll update TripCard."),
            Ask(
                "I told you before: pnpm, not npm. You just created a package-lock.json next to our pnpm-lock.yaml. Remove it and install with pnpm."
            ),
            Run(
                "rm package-lock.json && pnpm add date-fns",
                "Packages: +1\nProgress: resolved 613, reused 612, downloaded 1, added 1, done",
            ),
            Edit("src/TripCard.jsx", "{trip.start}", "{format(trip.start, 'd MMM')}"),
            Run("pnpm test", JS_OK),
            Say("package-lock.json removed; date-fns added with pnpm and used in TripCard."),
        ),
        (Want("Uses pnpm, never npm, for packages.", (r"pnpm",)),),
    ),
    Case(
        "no-any-types",
        "corrected",
        "TypeScript/Node",
        _one(
            "/home/ade/src/webhooks",
            "gemini",
            Ask("Type the payload handler in src/handlers/stripe.ts."),
            Edit(
                "src/handlers/stripe.ts",
                "export async function handle(event) {",
                "export async function handle(event: any): Promise<any> {",
            ),
            Say("handle is typed now."),
            Ask(
                "you keep writing `any` — use proper types. Stripe ships its own: Stripe.Event. Same goes for everything in this repo, no `any`."
            ),
            Edit(
                "src/handlers/stripe.ts",
                "export async function handle(event: any): Promise<any> {",
                "export async function handle(event: Stripe.Event): Promise<HandlerResult> {",
            ),
            Run("npx tsc --noEmit", ""),
            Say("handle takes a Stripe.Event and returns a HandlerResult; tsc is clean."),
        ),
        (Want("No `any` in TypeScript; proper types.", (r"\bany\b", r"type")),),
    ),
    Case(
        "never-push-main",
        "corrected",
        "Go",
        _one(
            "/home/pita/src/relay",
            "claude",
            Ask("Fix the off-by-one in the retry counter in internal/queue/retry.go and ship it."),
            Edit("internal/queue/retry.go", "if attempt > max {", "if attempt >= max {"),
            Run("go test ./internal/queue/...", GO_OK),
            Run(
                'git commit -am "Fix retry off-by-one" && git push origin main',
                "[main 7d2e1f0] Fix retry off-by-one\nTo github.com:pita/relay.git\n   a1b2c3d..7d2e1f0  main -> main",
            ),
            Say("Fixed and pushed to main."),
            Ask(
                "wait, revert that; we never push to main directly. Everything goes through a branch and a PR, even one-liners."
            ),
            Run(
                "git revert --no-edit HEAD && git push origin main && git switch -c fix/retry-off-by-one && git cherry-pick 7d2e1f0 && git push -u origin fix/retry-off-by-one",
                "[main 9e8f7a6] Revert \"Fix retry off-by-one\"\nbranch 'fix/retry-off-by-one' set up to track 'origin/fix/retry-off-by-one'.",
            ),
            Say("Reverted on main; the fix is on fix/retry-off-by-one, ready for a PR."),
        ),
        (
            Want(
                "Never pushes to main directly; a branch and a pull request.",
                (r"main", r"push|branch|pr\b|pull request"),
            ),
        ),
    ),
    Case(
        "no-new-files",
        "corrected",
        "Python/Flask",
        _one(
            "/home/joa/src/pantry",
            "codex",
            Ask("We need a slugify helper for the recipe URLs."),
            Write(
                "pantry/slug.py",
                "import re\n\n\ndef slugify(text):\n    return re.sub(r'[^a-z0-9]+', '-', text.lower()).strip('-')\n",
            ),
            Say("Added pantry/slug.py with slugify."),
            Ask(
                "please don't create new files for small helpers like this, put it in pantry/utils.py with the others. I don't want the package to grow a module per function."
            ),
            Run("rm pantry/slug.py", ""),
            Edit(
                "pantry/utils.py",
                "def to_cents(amount):",
                "def slugify(text):\n    return re.sub(r'[^a-z0-9]+', '-', text.lower()).strip('-')\n\n\ndef to_cents(amount):",
            ),
            Run("pytest -q", PY_OK),
            Say("slugify now lives in pantry/utils.py."),
        ),
        (
            Want(
                "Small helpers go into the existing utils module, not new files.",
                (r"new (files?|modules?)|module per|file per", r"helper|utils"),
            ),
        ),
    ),
    Case(
        "guard-not-force-unwrap",
        "corrected",
        "Swift/iOS",
        _one(
            "/home/noa/dev/Tidy",
            "claude",
            Ask("Load the saved filter in FiltersViewModel.swift on init."),
            Edit(
                "Tidy/Filters/FiltersViewModel.swift",
                "init(store: FilterStore) {",
                "init(store: FilterStore) {\n        self.filter = store.load()!",
            ),
            Say("The view model loads the saved filter on init."),
            Ask(
                "you keep force-unwrapping optionals. Don't — it's a crash waiting to happen. Use guard let or a default, every time."
            ),
            Edit(
                "Tidy/Filters/FiltersViewModel.swift",
                "self.filter = store.load()!",
                "self.filter = store.load() ?? .default",
            ),
            Run("xcodebuild test -scheme Tidy -quiet", "** TEST SUCCEEDED **"),
            Say("No force unwrap now; it falls back to the default filter."),
        ),
        (
            Want(
                "No force-unwrapped optionals; guard let or a default.",
                (r"unwrap|!\B", r"optional|guard|default"),
            ),
        ),
    ),
    Case(
        "explicit-types-not-var",
        "corrected",
        "C#/.NET",
        _one(
            "/home/ola/src/Roster",
            "codex",
            Ask("Add a method on ShiftService that returns the open shifts of a week."),
            Edit(
                "src/Roster/ShiftService.cs",
                "    public IReadOnlyList<Shift> All() => _shifts;",
                "    public IReadOnlyList<Shift> All() => _shifts;\n\n    public IReadOnlyList<Shift> OpenIn(Week week)\n    {\n        var open = _shifts.Where(s => s.Week == week && s.IsOpen);\n        var list = open.ToList();\n        return list;\n    }",
            ),
            Run("dotnet test", CS_OK),
            Say("OpenIn returns the open shifts of a week."),
            Ask(
                "Don't use `var` everywhere. We write explicit types unless the type is obvious from the right-hand side (new Foo())."
            ),
            Edit(
                "src/Roster/ShiftService.cs",
                "        var open = _shifts.Where(s => s.Week == week && s.IsOpen);\n        var list = open.ToList();",
                "        IEnumerable<Shift> open = _shifts.Where(s => s.Week == week && s.IsOpen);\n        List<Shift> list = open.ToList();",
            ),
            Run("dotnet test", CS_OK),
            Say("Explicit types now."),
        ),
        (Want("Explicit types instead of `var`, unless obvious.", (r"\bvar\b",)),),
    ),
    Case(
        "small-commits-twice",
        "corrected",
        "Rust/cargo",
        (
            Session(
                "claude",
                "/home/lev/src/tilemap",
                (
                    Ask("Add PNG export and fix the off-by-one in the chunk loader."),
                    Edit("src/export.rs", "", "pub fn to_png(map: &Map) -> Vec<u8> { todo!() }"),
                    Edit("src/chunk.rs", "for y in 0..=h {", "for y in 0..h {"),
                    Run("cargo test", RS_OK),
                    Run(
                        'git add -A && git commit -m "PNG export, chunk fix"',
                        "[main 3c4d5e6] PNG export, chunk fix\n 2 files changed, 9 insertions(+), 1 deletion(-)",
                    ),
                    Say("Both done and committed."),
                    Ask(
                        "Please keep commits small — one logical change per commit. Split that into two."
                    ),
                    Run(
                        'git reset HEAD~1 && git add src/chunk.rs && git commit -m "Fix off-by-one in chunk loader" && git add src/export.rs && git commit -m "Add PNG export"',
                        "[main 4a5b6c7] Fix off-by-one in chunk loader\n[main 5b6c7d8] Add PNG export",
                    ),
                    Say("Split into two commits."),
                ),
            ),
            Session(
                "claude",
                "/home/lev/src/tilemap",
                (
                    Ask("Rename Tile::kind to Tile::terrain and add the lava terrain."),
                    Edit("src/tile.rs", "pub kind: Kind,", "pub terrain: Terrain,"),
                    Edit("src/terrain.rs", "    Water,", "    Water,\n    Lava,"),
                    Run("cargo test", RS_OK),
                    Say("Renamed and added Lava. Shall I commit both together?"),
                    Ask("Again: small commits. The rename is one, lava is another."),
                    Run(
                        'git add src/tile.rs && git commit -m "Rename Tile::kind to terrain" && git add src/terrain.rs && git commit -m "Add lava terrain"',
                        "[main 6c7d8e9] Rename Tile::kind to terrain\n[main 7d8e9f0] Add lava terrain",
                    ),
                    Say("Two commits."),
                ),
            ),
        ),
        (
            Want(
                "Small commits, one logical change each.",
                (r"commit", r"small|one (logical )?change|split"),
            ),
        ),
    ),
)

EMPHASIS = (
    Case(
        "always-lint",
        "emphasis",
        "Go",
        _one(
            "/home/ike/src/gatekeeper",
            "gemini",
            Ask(
                "Add rate limiting per API key to the middleware in internal/http/limit.go. ALWAYS run the linter before you say it's done."
            ),
            Edit(
                "internal/http/limit.go",
                "func Limit(next http.Handler) http.Handler {",
                "func Limit(next http.Handler, perKey rate.Limit) http.Handler {",
            ),
            Run(
                "go test ./internal/http/...", "ok  \texample.com/gatekeeper/internal/http\t0.201s"
            ),
            Run("golangci-lint run ./...", ""),
            Say("Rate limiting per key is in; tests pass and golangci-lint is clean."),
        ),
        (Want("Runs the linter before calling work done.", (r"lint",)),),
    ),
    Case(
        "make-check-before-commit",
        "emphasis",
        "C/make",
        _one(
            "/home/bo/src/tinyjson",
            "claude",
            Ask(
                "IMPORTANT: never commit without running `make check` first. Now: fix the leak in parse_array when the input is truncated."
            ),
            Read(
                "src/array.c",
                'static jv parse_array(lexer *lx) {\n    jv *items = malloc(cap * sizeof(jv));\n    ...\n    if (tok == TOK_EOF) return jv_error("truncated");\n',
            ),
            Edit(
                "src/array.c",
                '    if (tok == TOK_EOF) return jv_error("truncated");',
                '    if (tok == TOK_EOF) {\n        free(items);\n        return jv_error("truncated");\n    }',
            ),
            Run("make check", "PASS: test_array\nPASS: test_object\n# TOTAL: 14\n# PASS:  14"),
            Run(
                'git commit -am "Free items when the array is truncated"',
                "[main 2b3c4d5] Free items when the array is truncated",
            ),
            Say("Leak fixed; make check passed before the commit."),
        ),
        (Want("Runs make check before every commit.", (r"make check|check", r"commit")),),
    ),
    Case(
        "no-io-inspect",
        "emphasis",
        "Elixir/Phoenix",
        _one(
            "/home/ava/src/kiln",
            "codex",
            Ask("Why does the order channel drop messages after a reconnect?"),
            Edit(
                "lib/kiln_web/channels/order_channel.ex",
                'def handle_in("sync", payload, socket) do',
                'def handle_in("sync", payload, socket) do\n    IO.inspect(payload, label: "sync")',
            ),
            Run("mix test test/kiln_web/channels", EX_OK),
            Say(
                "The client resends sync with the old cursor; the channel ignores it. I left an IO.inspect in to show it."
            ),
            Ask(
                "Reminder, and I mean it: no `IO.inspect` left in the code when you hand it back. Use Logger.debug if something must stay."
            ),
            Edit(
                "lib/kiln_web/channels/order_channel.ex",
                '    IO.inspect(payload, label: "sync")\n',
                "",
            ),
            Say("IO.inspect removed."),
        ),
        (Want("No IO.inspect left in handed-back code.", (r"IO\.inspect",)),),
    ),
    Case(
        "never-raw-sql",
        "emphasis",
        "PHP/Laravel",
        _one(
            "/home/dara/www/bookings",
            "gemini",
            Ask(
                "Add a report of bookings per room for a month. Make sure you NEVER use raw SQL strings — always the query builder or Eloquent."
            ),
            Edit(
                "app/Reports/RoomReport.php",
                "public function monthly(int $year, int $month)",
                "public function monthly(int $year, int $month): Collection\n    {\n        return Booking::query()->whereYear('starts_at', $year)->whereMonth('starts_at', $month)->groupBy('room_id')->selectRaw('room_id, count(*) as total')->get();\n    }",
            ),
            Run("php artisan test", PHP_OK),
            Say("Monthly report per room, written with the query builder."),
        ),
        (
            Want(
                "No raw SQL strings; the query builder or the ORM.",
                (r"raw sql|sql string|query builder|eloquent",),
            ),
        ),
    ),
    Case(
        "answers-without-preamble",
        "emphasis",
        "Python/Django",
        (
            Session(
                "claude",
                "/home/kit/src/clinic",
                (
                    Ask(
                        "What does the appointment reminder task do when the patient has no phone?"
                    ),
                    Read(
                        "clinic/tasks.py",
                        "def send_reminder(appt):\n    if not appt.patient.phone:\n        return email_reminder(appt)\n",
                    ),
                    Say(
                        "Great question! Let me walk you through it. First, some background on Celery tasks... It falls back to an email reminder."
                    ),
                    Ask(
                        "Please, no preamble. Just answer the question, first sentence. I really can't stand the 'great question' stuff."
                    ),
                    Say("It sends an email reminder instead."),
                ),
            ),
            Session(
                "claude",
                "/home/kit/src/clinic",
                (
                    Ask("Where is the no-show fee computed? Answer first, no preamble."),
                    Run(
                        "grep -rn no_show_fee clinic/",
                        "clinic/billing.py:44:def no_show_fee(appt):",
                    ),
                    Say("clinic/billing.py, no_show_fee (line 44)."),
                ),
            ),
        ),
        (
            Want(
                "Answers first, with no preamble.", (r"preamble|answer (first|directly)|straight",)
            ),
        ),
    ),
    Case(
        "ask-before-deleting",
        "emphasis",
        "Ruby/Rails",
        _one(
            "/home/cy/src/stockroom",
            "codex",
            Ask(
                "Clean up the unused partials under app/views/shared. Ask me before deleting anything, ALWAYS — some are rendered from engines you can't see."
            ),
            Run(
                "grep -rL render app/views/shared",
                "app/views/shared/_banner.html.erb\napp/views/shared/_legacy_nav.html.erb",
            ),
            Say("Two partials look unused: _banner and _legacy_nav. Shall I delete them?"),
            Ask("_legacy_nav yes, _banner no."),
            Run(
                "git rm app/views/shared/_legacy_nav.html.erb",
                "rm 'app/views/shared/_legacy_nav.html.erb'",
            ),
            Run("bin/rails test", RB_OK),
            Say("Deleted _legacy_nav; _banner stays."),
        ),
        (Want("Asks before deleting files.", (r"ask|confirm", r"delet|remov")),),
        (r"_banner|_legacy_nav|legacy.nav",),
    ),
)

REFUSED = (
    Case(
        "refused-force-push",
        "refused",
        "Python/Django",
        _one(
            "/home/eli/src/clinicbook",
            "claude",
            Ask("Squash my last three commits into one and update the PR branch."),
            Run(
                "git rebase -i HEAD~3", "Successfully rebased and updated refs/heads/feat/waitlist."
            ),
            Refused(
                "git push --force origin feat/waitlist",
                "never plain force-push — use --force-with-lease, always. Someone else may have pushed to the branch.",
            ),
            Run(
                "git push --force-with-lease origin feat/waitlist",
                "+ 1a2b3c4...5d6e7f8 feat/waitlist -> feat/waitlist (forced update)",
            ),
            Say("Pushed with --force-with-lease."),
        ),
        (Want("Never plain force-push; --force-with-lease.", (r"force.with.lease|force.push",)),),
    ),
    Case(
        "refused-edit-applied-migration",
        "refused",
        "Python/Django",
        _one(
            "/home/fay/src/roomie",
            "claude",
            Ask("The listings.price column should allow nulls."),
            Refused("sed -i 's/null=False/null=True/' listings/migrations/0007_listing_price.py"),
            Ask(
                "Don't edit migrations that have already been applied. Always add a new migration for a schema change."
            ),
            Edit(
                "listings/models.py",
                "price = models.IntegerField()",
                "price = models.IntegerField(null=True)",
            ),
            Run(
                "python manage.py makemigrations listings",
                "Migrations for 'listings':\n  listings/migrations/0012_alter_listing_price.py\n    - Alter field price on listing",
            ),
            Run("python manage.py test listings", "Ran 31 tests in 2.114s\n\nOK"),
            Say("New migration 0012 makes price nullable."),
        ),
        (
            Want(
                "Never edits applied migrations; adds a new one.",
                (r"migration", r"new|edit|applied|existing"),
            ),
        ),
        (r"price|0007|0012|null",),
    ),
    Case(
        "refused-new-dependency",
        "refused",
        "TypeScript/Node",
        _one(
            "/home/gus/src/courier",
            "codex",
            Ask("Deep-merge the default options with the user's in src/options.ts."),
            Refused("npm install lodash.merge"),
            Ask("no new dependencies without asking me first. A ten-line function will do here."),
            Edit(
                "src/options.ts",
                "export const resolve = (o: Partial<Options>) => ({ ...DEFAULTS, ...o });",
                "export const resolve = (o: Partial<Options>): Options => deepMerge(DEFAULTS, o);",
            ),
            Run("npm test", JS_OK),
            Say("Wrote a small deepMerge in src/options.ts; no new package."),
        ),
        (
            Want(
                "No new dependencies without asking first.", (r"dependenc|package", r"ask|without")
            ),
        ),
        (r"lodash",),
    ),
    Case(
        "refused-node-modules",
        "refused",
        "JavaScript/Vue",
        _one(
            "/home/hal/src/tally",
            "gemini",
            Ask("The dev server fails with 'Cannot find module @vitejs/plugin-vue'."),
            Refused(
                "rm -rf node_modules && npm install",
                "Don't wipe node_modules, that takes forever here. Check the lockfile first and install the one package.",
            ),
            Run("grep plugin-vue package.json", '    "@vitejs/plugin-vue": "^5.0.4",'),
            Run("npm install @vitejs/plugin-vue", "added 1 package in 2s"),
            Say("Installed the missing plugin; the dev server starts."),
        ),
        (Want("Does not wipe node_modules; installs the one package.", (r"node_modules",)),),
    ),
    Case(
        "refused-sudo",
        "refused",
        "Python/pip",
        _one(
            "/home/ivo/src/pdfsplit",
            "codex",
            Ask("Install the package in editable mode so I can try the CLI."),
            Refused(
                "sudo pip install -e .",
                "never sudo pip. Use the project's venv: .venv/bin/pip.",
            ),
            Run(".venv/bin/pip install -e .", "Successfully installed pdfsplit-0.3.0"),
            Say("Installed into .venv in editable mode."),
        ),
        (Want("Never sudo pip; the project's virtualenv.", (r"sudo|venv|virtualenv",)),),
    ),
)

REJECTED = (
    Case(
        "no-base-class",
        "rejected",
        "Python/pytest",
        _one(
            "/home/jin/src/harvest",
            "claude",
            Ask("The three exporters (csv, json, xlsx) repeat the same header logic. Clean it up."),
            Say(
                "I suggest a BaseExporter class with the header logic, and CsvExporter, JsonExporter and XlsxExporter inheriting from it. Shall I go ahead?"
            ),
            Ask(
                "No, I don't want a base class for this — we prefer composition over inheritance here; every hierarchy we had turned into a pain. Make the header a plain function they call."
            ),
            Edit(
                "harvest/export/headers.py",
                "",
                "def header_row(columns):\n    return [c.title for c in columns if c.visible]\n",
            ),
            Run("pytest -q", PY_OK),
            Say("header_row is a function each exporter calls."),
        ),
        (
            Want(
                "Prefers composition over inheritance; no base classes.",
                (r"composition|inheritance|base class",),
                wrong=(r"\b(use|add|prefer) (a )?base class",),
            ),
        ),
        (r"csv|xlsx|exporter|header",),
    ),
    Case(
        "no-globals",
        "rejected",
        "Go",
        _one(
            "/home/kal/src/meter",
            "codex",
            Ask("The handlers all need the config. Wire it in."),
            Say(
                "The simplest way is a package-level `var Config *config.Config` set in main, which the handlers read. OK?"
            ),
            Ask(
                "No globals. Pass the config explicitly through the constructors — that's how everything in this codebase is done, and it keeps tests independent."
            ),
            Edit(
                "internal/api/server.go",
                "func NewServer() *Server {",
                "func NewServer(cfg *config.Config) *Server {",
            ),
            Run("go test ./...", GO_OK),
            Say("NewServer takes the config; handlers read it from the server."),
        ),
        (
            Want(
                "No global state; dependencies passed explicitly through constructors.",
                (r"global|explicit|constructor",),
            ),
        ),
    ),
    Case(
        "stdlib-not-gem",
        "rejected",
        "Ruby/Rails",
        _one(
            "/home/lou/src/parcel",
            "gemini",
            Ask("Parse the tracking CSV the carrier sends us every night."),
            Say(
                "I'd add the smarter_csv gem; it handles headers and chunking. Shall I add it to the Gemfile?"
            ),
            Ask(
                "Let's not pull in a gem for this. We keep dependencies minimal — write it with the standard library's CSV."
            ),
            Write(
                "app/services/tracking_import.rb",
                "require 'csv'\n\nclass TrackingImport\n  def call(path)\n    CSV.foreach(path, headers: true) { |row| upsert(row) }\n  end\nend\n",
            ),
            Run("bin/rails test", RB_OK),
            Say("TrackingImport reads the file with the standard CSV library."),
        ),
        (
            Want(
                "Keeps dependencies minimal; the standard library before a new gem.",
                (r"gem|dependenc|standard library|stdlib",),
            ),
        ),
        (r"smarter_csv",),
    ),
    Case(
        "no-feature-flag-library",
        "rejected",
        "Kotlin/Android",
        _one(
            "/home/mika/dev/steps",
            "claude",
            Ask("Hide the new leaderboard behind a flag."),
            Say(
                "I can set up a remote-config library for flags, or a BuildConfig field. Which do you prefer?"
            ),
            Ask(
                "BuildConfig field. And in general: no remote-config SDKs, we don't ship third-party trackers in this app."
            ),
            Edit(
                "app/build.gradle.kts",
                'buildConfigField("String", "API", "\\"prod\\"")',
                'buildConfigField("String", "API", "\\"prod\\"")\n        buildConfigField("boolean", "LEADERBOARD", "false")',
            ),
            Run("./gradlew testDebugUnitTest", JV_OK),
            Say("LEADERBOARD is a BuildConfig flag, off by default."),
        ),
        (
            Want(
                "No third-party remote-config or tracking SDKs.",
                (r"third.party|remote.config|tracker|sdk",),
            ),
        ),
        (r"leaderboard",),
    ),
)

OTHER_LANGUAGES = (
    Case(
        "lazy-logging-fr",
        "corrected",
        "Python/Django",
        _one(
            "/home/lea/projets/bibliotheque",
            "claude",
            Ask("Ajoute un log quand un prêt est prolongé, dans prets/services.py."),
            Edit(
                "prets/services.py",
                "    pret.save()",
                '    pret.save()\n    logger.info(f"Prêt {pret.id} prolongé jusqu\'au {pret.fin}")',
            ),
            Say("J'ai ajouté un log info après la prolongation."),
            Ask(
                "Non, pas de f-strings dans les appels au logger : on utilise toujours le formatage %s du logging, c'est la règle chez nous."
            ),
            Edit(
                "prets/services.py",
                '    logger.info(f"Prêt {pret.id} prolongé jusqu\'au {pret.fin}")',
                '    logger.info("Prêt %s prolongé jusqu\'au %s", pret.id, pret.fin)',
            ),
            Run("python manage.py test prets", "Ran 18 tests in 1.022s\n\nOK"),
            Say("Corrigé : formatage %s."),
        ),
        (Want("Logger calls use %s formatting, not f-strings.", (r"f.string|%s|logg",)),),
    ),
    Case(
        "no-lombok-de",
        "corrected",
        "Java/Gradle",
        _one(
            "/home/jonas/src/lagerverwaltung",
            "codex",
            Ask("Leg eine Klasse Lagerplatz mit regal, fach und kapazitaet an."),
            Write(
                "src/main/java/de/lager/Lagerplatz.java",
                "package de.lager;\n\nimport lombok.Data;\n\n@Data\npublic class Lagerplatz {\n    private String regal;\n    private int fach;\n    private int kapazitaet;\n}\n",
            ),
            Say("Lagerplatz ist angelegt, mit @Data von Lombok."),
            Ask(
                "Nein, bitte keine Lombok-Annotationen, wir schreiben Getter und Konstruktoren explizit aus. Das hatten wir schon mal besprochen."
            ),
            Write(
                "src/main/java/de/lager/Lagerplatz.java",
                "package de.lager;\n\npublic final class Lagerplatz {\n    private final String regal;\n    private final int fach;\n    private final int kapazitaet;\n\n    public Lagerplatz(String regal, int fach, int kapazitaet) {\n        this.regal = regal;\n        this.fach = fach;\n        this.kapazitaet = kapazitaet;\n    }\n\n    public String getRegal() { return regal; }\n}\n",
            ),
            Run("./gradlew test", JV_OK),
            Say("Ohne Lombok, Getter und Konstruktor ausgeschrieben."),
        ),
        (Want("No Lombok; getters and constructors written out.", (r"lombok",)),),
        (r"lagerplatz|regal|kapazit",),
    ),
    Case(
        "pino-not-console-es",
        "corrected",
        "Node/Express",
        _one(
            "/home/lucia/src/reservas",
            "gemini",
            Ask("Registra cuando una reserva se cancela en src/routes/reservas.js."),
            Edit(
                "src/routes/reservas.js",
                "await reserva.cancelar();",
                "await reserva.cancelar();\n  console.log('reserva cancelada', reserva.id);",
            ),
            Say("Añadí un console.log al cancelar."),
            Ask(
                "No, no uses console.log; usa siempre el logger de pino (req.log), que si no se pierde en producción."
            ),
            Edit(
                "src/routes/reservas.js",
                "  console.log('reserva cancelada', reserva.id);",
                "  req.log.info({ reserva: reserva.id }, 'reserva cancelada');",
            ),
            Run("npm test", JS_OK),
            Say("Cambiado a req.log.info."),
        ),
        (Want("Logs with pino, never console.log.", (r"console\.log|pino",)),),
    ),
    Case(
        "no-double-bang-pt",
        "corrected",
        "Kotlin/Android",
        _one(
            "/home/tiago/dev/feira",
            "claude",
            Ask("Mostra o nome do vendedor no cabeçalho da banca."),
            Edit(
                "app/src/main/java/br/feira/BancaFragment.kt",
                "binding.titulo.text = banca.nome",
                "binding.titulo.text = banca.vendedor!!.nome",
            ),
            Say("O cabeçalho mostra o nome do vendedor."),
            Ask(
                "Não, não use `!!` — sempre trate o nulo com `?.let` ou `requireNotNull` com mensagem. Isso vale pro projeto todo."
            ),
            Edit(
                "app/src/main/java/br/feira/BancaFragment.kt",
                "binding.titulo.text = banca.vendedor!!.nome",
                "binding.titulo.text = banca.vendedor?.nome ?: banca.nome",
            ),
            Run("./gradlew testDebugUnitTest", JV_OK),
            Say("Sem `!!` agora."),
        ),
        (
            Want(
                "No `!!` in Kotlin; null handled with ?.let or requireNotNull.",
                (r"!!|requireNotNull|\?\.let",),
            ),
        ),
        (r"vendedor|cabe[cç]alho|banca",),
    ),
    Case(
        "logging-not-print-zh",
        "corrected",
        "Python/FastAPI",
        _one(
            "/home/chen/code/kucun",
            "codex",
            Ask("库存同步有时候少一条记录，帮我查一下 sync/worker.py。"),
            Edit(
                "sync/worker.py",
                "    for item in batch:",
                "    for item in batch:\n        print('syncing', item.sku)",
            ),
            Run("pytest tests/test_sync.py -q", "3 passed in 0.31s"),
            Say("加了 print 来看每条同步的记录。分页的最后一页被跳过了。"),
            Ask("不要用 print 调试，用 logging。我们一直是这样做的，print 会进到生产日志里。"),
            Edit(
                "sync/worker.py",
                "        print('syncing', item.sku)",
                "        logger.debug('syncing %s', item.sku)",
            ),
            Say("已改成 logger.debug，并修复了最后一页被跳过的问题。"),
        ),
        (Want("Debugs with logging, never print.", (r"print|logging",)),),
    ),
    Case(
        "no-unwrap-ja",
        "corrected",
        "Rust/cargo",
        _one(
            "/home/sato/src/kanri",
            "gemini",
            Ask("設定ファイルを読む関数を src/config.rs に追加してください。"),
            Edit(
                "src/config.rs",
                "pub fn load() {}",
                "pub fn load(path: &Path) -> Config {\n    let text = fs::read_to_string(path).unwrap();\n    toml::from_str(&text).unwrap()\n}",
            ),
            Say("load を追加しました。"),
            Ask(
                "いや、unwrap() は使わないでください。必ず ? でエラーを呼び出し元に返してください。"
            ),
            Edit(
                "src/config.rs",
                "pub fn load(path: &Path) -> Config {\n    let text = fs::read_to_string(path).unwrap();\n    toml::from_str(&text).unwrap()\n}",
                "pub fn load(path: &Path) -> Result<Config, Error> {\n    let text = fs::read_to_string(path)?;\n    Ok(toml::from_str(&text)?)\n}",
            ),
            Run("cargo test", RS_OK),
            Say("unwrap をやめて ? で返すようにしました。"),
        ),
        (Want("No unwrap(); errors returned with ?.", (r"unwrap",)),),
    ),
    Case(
        "german-emphasis-tests",
        "emphasis",
        "Python/pytest",
        _one(
            "/home/greta/src/fahrplan",
            "claude",
            Ask(
                "Bitte IMMER erst die Tests laufen lassen, bevor du sagst, dass es fertig ist. Jetzt: der Export der Verbindungen bricht bei Umlauten ab."
            ),
            Edit("fahrplan/export.py", "open(path, 'w')", "open(path, 'w', encoding='utf-8')"),
            Run("pytest -q", PY_OK),
            Say("Der Export schreibt jetzt UTF-8; die Tests laufen durch."),
        ),
        (
            Want(
                "Runs the tests before saying work is done.",
                (r"test", r"before|vor|fertig|done|immer|always"),
            ),
        ),
        (r"umlaut|utf-8|export",),
    ),
)

TRAPS = (
    Case(
        "trap-other-file",
        "trap",
        "Python/pytest",
        _one(
            "/home/ria/src/billing",
            "claude",
            Ask("Add a test for the late fee."),
            Edit(
                "tests/test_invoice.py",
                "",
                "def test_late_fee():\n    assert late_fee(days=10) == 5\n",
            ),
            Say("Added test_late_fee to tests/test_invoice.py."),
            Ask("no, the other file — tests/test_billing.py, not test_invoice.py."),
            Edit(
                "tests/test_billing.py",
                "",
                "def test_late_fee():\n    assert late_fee(days=10) == 5\n",
            ),
            Run("pytest tests/test_billing.py -q", "1 passed in 0.05s"),
            Say("Moved it to tests/test_billing.py."),
        ),
        must_not=(r"test_billing|test_invoice|other file|late.fee",),
    ),
    Case(
        "trap-signup-test",
        "trap",
        "TypeScript/Playwright",
        _one(
            "/home/sam/src/onboard",
            "codex",
            Ask("The e2e test is flaky, can you look?"),
            Read(
                "e2e/login.spec.ts",
                "test('login', async ({ page }) => {\n  await page.goto('/login');\n});\n",
            ),
            Say("The login test waits on a fixed timeout; I'd replace it with a locator wait."),
            Ask("not that test, the signup one."),
            Read(
                "e2e/signup.spec.ts",
                "test('signup', async ({ page }) => {\n  await page.waitForTimeout(2000);\n});\n",
            ),
            Edit(
                "e2e/signup.spec.ts",
                "  await page.waitForTimeout(2000);",
                "  await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();",
            ),
            Run("npx playwright test e2e/signup.spec.ts", "  1 passed (3.1s)"),
            Say("The signup test now waits for the welcome heading."),
        ),
        must_not=(r"signup|login|that test",),
    ),
    Case(
        "trap-undo-last",
        "trap",
        "Go",
        _one(
            "/home/tom/src/pager",
            "gemini",
            Ask("Make the page size configurable in internal/list/page.go."),
            Edit(
                "internal/list/page.go",
                "const pageSize = 50",
                'var pageSize = env.Int("PAGE_SIZE", 50)',
            ),
            Edit("internal/list/sort.go", "sort.Slice(", "sort.SliceStable("),
            Say("Page size comes from PAGE_SIZE; I also made the sort stable."),
            Ask("undo the last change."),
            Edit("internal/list/sort.go", "sort.SliceStable(", "sort.Slice("),
            Run("go test ./internal/list/...", "ok  \texample.com/pager/internal/list\t0.101s"),
            Say("The sort change is undone."),
        ),
        must_not=(r"undo|revert|sort|stable|last change",),
    ),
    Case(
        "trap-config-location",
        "trap",
        "Python/Django",
        _one(
            "/home/uma/src/tickets",
            "claude",
            Ask("Turn on secure cookies in production."),
            Edit(
                "tickets/settings/base.py",
                "SESSION_COOKIE_SECURE = False",
                "SESSION_COOKIE_SECURE = True",
            ),
            Say("SESSION_COOKIE_SECURE is on in settings/base.py."),
            Ask(
                "no, the production config lives in tickets/settings/prod.py, not base.py — base is shared with dev."
            ),
            Edit(
                "tickets/settings/base.py",
                "SESSION_COOKIE_SECURE = True",
                "SESSION_COOKIE_SECURE = False",
            ),
            Edit(
                "tickets/settings/prod.py",
                "DEBUG = False",
                "DEBUG = False\nSESSION_COOKIE_SECURE = True",
            ),
            Run(
                "python manage.py check --deploy --settings=tickets.settings.prod",
                "System check identified no issues (0 silenced).",
            ),
            Say("Moved it to settings/prod.py."),
        ),
        must_not=(r"settings|prod\.py|base\.py|cookie",),
    ),
    Case(
        "trap-frustration",
        "trap",
        "Rust/cargo",
        _one(
            "/home/vic/src/parsley",
            "codex",
            Ask("Fix the parser so trailing commas are accepted in arrays."),
            Edit(
                "src/parse.rs",
                "if tok == Tok::Comma { expect_value()?; }",
                "if tok == Tok::Comma { skip(); }",
            ),
            Run(
                "cargo test",
                "test arrays::trailing_comma ... FAILED\ntest result: FAILED. 11 passed; 1 failed",
                101,
            ),
            Say("Trailing commas should be accepted now."),
            Ask("this is wrong, try again."),
            Edit(
                "src/parse.rs",
                "if tok == Tok::Comma { skip(); }",
                "if tok == Tok::Comma { skip(); if peek() == Tok::RBracket { break; } expect_value()?; }",
            ),
            Run("cargo test", RS_OK),
            Say("Fixed: a comma followed by ] ends the array."),
        ),
        must_not=(r"wrong|try again|trailing|comma",),
    ),
    Case(
        "trap-pasted-review",
        "trap",
        "Python/pytest",
        _one(
            "/home/wes/src/timesheet",
            "claude",
            Ask(
                "Marta left this on the PR, can you address it?\n\n> **marta-k** commented on `timesheet/clock.py` line 12:\n> Please never call `datetime.now()` without a timezone in this module — use `datetime.now(tz=UTC)`. Also I'd rename `clk` to `clock`.\n"
            ),
            Edit("timesheet/clock.py", "start = datetime.now()", "start = datetime.now(tz=UTC)"),
            Run("pytest -q", PY_OK),
            Say("clock.py uses datetime.now(tz=UTC) now; I left the rename for a separate change."),
        ),
        must_not=(r"datetime|timezone|\bclk\b|rename",),
    ),
    Case(
        "trap-taken-back",
        "trap",
        "JavaScript/Node",
        _one(
            "/home/xia/src/beacon",
            "gemini",
            Ask("Add a health route to src/server.js."),
            Edit(
                "src/server.js",
                "app.listen(PORT);",
                "app.get('/health', (req, res) => res.send('ok'));\n\napp.listen(PORT);",
            ),
            Say("Added GET /health."),
            Ask("don't use semicolons, we don't use them in this codebase."),
            Edit(
                "src/server.js",
                "app.get('/health', (req, res) => res.send('ok'));",
                "app.get('/health', (req, res) => res.send('ok'))",
            ),
            Say("Semicolons removed."),
            Run("grep -c ';$' src/*.js", "src/db.js:41\nsrc/server.js:12\nsrc/queue.js:30"),
            Ask(
                "ah wait, scratch that — I was thinking of the other repo. This one does use semicolons, put it back."
            ),
            Edit(
                "src/server.js",
                "app.get('/health', (req, res) => res.send('ok'))",
                "app.get('/health', (req, res) => res.send('ok'));",
            ),
            Run("npm test", JS_OK),
            Say("Semicolon back."),
        ),
        must_not=(r"semicolon",),
    ),
    Case(
        "trap-scoped-to-pr",
        "trap",
        "Java/Spring",
        _one(
            "/home/yan/src/payroll",
            "codex",
            Ask("Rename EmployeeDto to EmployeeView across the service."),
            Run(
                "grep -rl EmployeeDto src",
                "src/main/java/pay/api/EmployeeController.java\nsrc/main/java/pay/payments/PaymentService.java",
            ),
            Edit("src/main/java/pay/payments/PaymentService.java", "EmployeeDto", "EmployeeView"),
            Say("Renamed in the controller and in PaymentService."),
            Ask(
                "don't touch the payments package in this PR, Lena is refactoring it right now. Leave it for later."
            ),
            Edit("src/main/java/pay/payments/PaymentService.java", "EmployeeView", "EmployeeDto"),
            Run("./gradlew test", JV_OK),
            Say("PaymentService is left as it was; the rename covers the rest."),
        ),
        must_not=(r"payments?|this pr|lena|employee",),
    ),
    Case(
        "trap-one-value",
        "trap",
        "Python/FastAPI",
        _one(
            "/home/zoe/src/quotes",
            "claude",
            Ask("Start the dev server so I can try the new endpoint."),
            Run(
                "uvicorn quotes.app:app --reload --port 8000",
                "ERROR:    [Errno 98] Address already in use",
                1,
            ),
            Say("Port 8000 is taken; shall I stop whatever holds it?"),
            Ask("no, use 8081 for this one, the other thing on 8000 is my other project."),
            Run(
                "uvicorn quotes.app:app --reload --port 8081",
                "INFO:     Uvicorn running on http://127.0.0.1:8081 (Press CTRL+C to quit)",
            ),
            Say("Running on http://127.0.0.1:8081."),
        ),
        must_not=(r"8081|8000|port",),
    ),
    Case(
        "trap-rejected-plan-this-time",
        "trap",
        "TypeScript/Next.js",
        _one(
            "/home/ada/src/storefront",
            "gemini",
            Ask("The product page is slow. Ideas?"),
            Say(
                "Two options: (1) cache the product query with revalidate: 60, (2) move reviews to a client component loaded after the page."
            ),
            Ask("Not the cache, prices change too often today with the sale. Do option 2."),
            Edit(
                "app/product/[id]/page.tsx",
                "<Reviews id={id} />",
                "<Suspense fallback={<ReviewsSkeleton />}><Reviews id={id} /></Suspense>",
            ),
            Run("pnpm test", JS_OK),
            Say("Reviews load after the page now."),
        ),
        must_not=(r"cache|revalidate|sale|reviews",),
    ),
)

CASES = CORRECTED + EMPHASIS + REFUSED + REJECTED + OTHER_LANGUAGES + TRAPS
