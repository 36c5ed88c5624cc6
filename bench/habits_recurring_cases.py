# ruff: noqa: E501  (transcript text: a message or an output is kept as one string a line)
"""Made-up users of several sessions each (`bench/habits_recurring.py` runs them), written from
how people work with a coding assistant, before any rule was read or run on them: a habit shown
(a) as the same request said again across sessions with no rule word ("do all of them, then
commit", "done = tests green and pushed", "keep it short"), (b) as the way the user hands work
over (an approved plan, an issue link, a checklist, a spec file, review comments), (c) as what
the user's commits show in every session (conventional or plain subjects, files staged by name,
a sign-off); and one-offs that must not become habits (a request made once, an instruction
about one task, a report or a pasted document, mixed evidence). Several ecosystems and hosts;
some users write in French, German, Spanish, Portuguese, Japanese or Chinese.
"""

from __future__ import annotations

from dataclasses import dataclass

from bench.trap_transcripts import Ask, Edit, Run, Say, Session, Step

#: The shapes a user's case takes.
SHAPES = ("repeated", "handover", "actions", "one-off")


@dataclass(frozen=True)
class Habit:
    """A habit the sessions show: a note, the patterns one user_style memory must all match
    (case-insensitive regexes), and patterns that state it wrong."""

    note: str
    states: tuple[str, ...]
    wrong: tuple[str, ...] = ()


@dataclass(frozen=True)
class User:
    """One made-up user: shape, ecosystem, sessions, habits and what must not become one."""

    name: str
    shape: str
    ecosystem: str
    sessions: tuple[Session, ...]
    habits: tuple[Habit, ...] = ()
    must_not: tuple[str, ...] = ()


def _work(
    ask: str, path: str, old: str, new: str, test: str, out: str, reply: str, *more: Step
) -> tuple[Step, ...]:
    """One task of a session: the request, an edit, the tests run, the reply, then `more`."""
    return (Ask(ask), Edit(path, old, new), Run(test, out), Say(reply), *more)


def _commit(files: str, subject: str, flags: str = "") -> Run:
    """The assistant's commit of `files` (staged as given) with `subject`."""
    shown = f"[main 4f1c2ab] {subject}\n 2 files changed, 14 insertions(+), 3 deletions(-)"
    extra = f" {flags}" if flags else ""
    return Run(f'git add {files} && git commit{extra} -m "{subject}"', shown)


def _sessions(cwd: str, host: str, *tasks: tuple[Step, ...]) -> tuple[Session, ...]:
    """One session per task, in the project at `cwd`, written by `host`."""
    return tuple(Session(host, cwd, steps) for steps in tasks)


PY_OK = "........................                                    [100%]\n24 passed in 1.93s"
JS_OK = " Test Files  9 passed (9)\n      Tests  61 passed (61)\n   Duration  2.41s"
GO_OK = "ok  \texample.com/ledger/internal/api\t0.412s"
RS_OK = "running 18 tests\ntest result: ok. 18 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.05s"
EX_OK = "Finished in 0.8 seconds (0.3s async, 0.5s sync)\n42 tests, 0 failures"
RB_OK = "Finished in 3.2 seconds (files took 1.9 seconds to load)\n27 examples, 0 failures"
JV_OK = "BUILD SUCCESSFUL in 14s\n5 actionable tasks: 2 executed, 3 up-to-date"
KT_OK = "BUILD SUCCESSFUL in 21s\n9 actionable tasks: 4 executed, 5 up-to-date"
PHP_OK = "OK (38 tests, 91 assertions)"

REPEATED = (
    User(
        "batch-then-commit",
        "repeated",
        "Python/pytest",
        _sessions(
            "/home/ana/src/invoicer",
            "claude",
            _work(
                "Fix the four failing tests in tests/api/. Do all of them, then commit.",
                "invoicer/api/totals.py",
                "return round(total, 1)",
                "return round(total, 2)",
                "pytest tests/api -q",
                PY_OK,
                "All four pass now; the rounding and the two date parsers were off.",
                _commit(
                    "invoicer/api/totals.py invoicer/api/dates.py",
                    "Fix rounding and date parsing in the API",
                ),
            ),
            _work(
                "Here's the ruff output from CI, 11 warnings. Go through the whole list and make one commit at the end.",
                "invoicer/pdf.py",
                "import os, sys",
                "import os",
                "ruff check .",
                "All checks passed!",
                "The 11 warnings are gone.",
                _commit("invoicer/pdf.py invoicer/mail.py", "Clear the lint warnings"),
            ),
            _work(
                "Three small things from the review: rename `calc` to `compute_total`, drop the unused `legacy` arg, and add a docstring to `Invoice`. Finish all three, then commit.",
                "invoicer/models.py",
                "def calc(self, legacy=None):",
                "def compute_total(self):",
                "pytest -q",
                PY_OK,
                "Done, all three.",
                _commit("invoicer/models.py", "Apply review notes on Invoice"),
            ),
        ),
        habits=(
            Habit(
                "Carries a batch of tasks to the end, then commits once.",
                (r"\ball\b|whole|every|batch", r"commit"),
                (r"commit (after )?each|one commit per",),
            ),
        ),
    ),
    User(
        "done-means-pushed",
        "repeated",
        "TypeScript/pnpm",
        _sessions(
            "/home/kai/code/dashboard",
            "claude",
            _work(
                "Add a loading skeleton to the orders table. It's done when pnpm test is green and the branch is pushed.",
                "src/orders/OrdersTable.tsx",
                "if (!data) return null;",
                "if (!data) return <TableSkeleton rows={8} />;",
                "pnpm test",
                JS_OK,
                "Skeleton added, tests green, pushed to feat/orders-skeleton.",
                Run(
                    "git push -u origin feat/orders-skeleton",
                    "branch 'feat/orders-skeleton' set up to track 'origin/feat/orders-skeleton'.",
                ),
            ),
            _work(
                "The date filter ignores the timezone. Fix it — done means tests green and pushed.",
                "src/filters/date.ts",
                "new Date(value)",
                "zonedTimeToUtc(value, tz)",
                "pnpm test",
                JS_OK,
                "Fixed and pushed.",
                Run(
                    "git push",
                    "To github.com:kai/dashboard.git\n   3e1d2a0..9b7c6f1  fix/date-filter-tz -> fix/date-filter-tz",
                ),
            ),
            _work(
                "Swap the chart lib's tooltip for ours. Tell me when tests pass and it's pushed.",
                "src/charts/Line.tsx",
                "<Tooltip />",
                "<ChartTooltip />",
                "pnpm test",
                JS_OK,
                "Tests pass, pushed.",
                Run(
                    "git push",
                    "To github.com:kai/dashboard.git\n   9b7c6f1..0a4e2d3  feat/tooltip -> feat/tooltip",
                ),
            ),
        ),
        habits=(
            Habit(
                "Finished means the tests pass and the branch is pushed.",
                (r"test", r"push"),
            ),
        ),
    ),
    User(
        "short-answers",
        "repeated",
        "Go",
        _sessions(
            "/home/wen/src/ledger",
            "codex",
            (
                Ask("Why does the handler return 502 when the upstream times out? Keep it short."),
                Run(
                    "grep -n Timeout internal/api/proxy.go",
                    "41:\tclient := &http.Client{Timeout: 2 * time.Second}",
                ),
                Say("The client times out after 2 s and the proxy maps any client error to 502."),
            ),
            (
                Ask("What does the auth middleware do with expired tokens? Short answer please."),
                Run(
                    "sed -n 1,60p internal/api/auth.go",
                    "func Auth(next http.Handler) http.Handler {\n\t// expired: 401 with WWW-Authenticate\n}",
                ),
                Say("It answers 401 with a WWW-Authenticate header."),
            ),
            (
                Ask("Explain the retry loop in the ledger sync, briefly."),
                Run(
                    "sed -n 80,120p internal/sync/sync.go",
                    "for attempt := 0; attempt < 5; attempt++ {\n\tif err = push(); err == nil { break }\n\ttime.Sleep(backoff(attempt))\n}",
                ),
                Say("Up to 5 tries with exponential backoff; it stops at the first success."),
            ),
        ),
        habits=(Habit("Wants short answers.", (r"short|brief|concise",)),),
    ),
    User(
        "anyhow-errors",
        "repeated",
        "Rust/cargo",
        _sessions(
            "/home/tomas/src/fetchr",
            "claude",
            _work(
                "Add a config loader for fetchr.toml. Errors via anyhow with context, please.",
                "src/config.rs",
                "pub fn load() {}",
                'pub fn load(path: &Path) -> anyhow::Result<Config> {\n    let text = fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;\n    Ok(toml::from_str(&text)?)\n}',
                "cargo test",
                RS_OK,
                "The loader is in src/config.rs.",
            ),
            _work(
                "Port the fetch command to async. Same error handling: anyhow and .context() on every fallible call.",
                "src/fetch.rs",
                "fn fetch(url: &str) -> Vec<u8> {",
                "async fn fetch(url: &str) -> anyhow::Result<Vec<u8>> {",
                "cargo test",
                RS_OK,
                "fetch is async now.",
            ),
            _work(
                "Write the export subcommand; errors with anyhow context like the rest of the crate.",
                "src/export.rs",
                "",
                "pub async fn export(out: &Path) -> anyhow::Result<()> {\n    todo!()\n}",
                "cargo test",
                RS_OK,
                "export is in.",
            ),
        ),
        habits=(
            Habit("Errors are handled with anyhow and context.", (r"anyhow", r"context|error")),
        ),
    ),
    User(
        "tests-before-handback-fr",
        "repeated",
        "Python/Django",
        _sessions(
            "/home/claire/projets/cantine",
            "claude",
            _work(
                "Corrige le bug de pagination sur la liste des menus, et lance les tests avant de me rendre la main.",
                "menus/views.py",
                "paginate_by = 0",
                "paginate_by = 20",
                "python manage.py test menus",
                "Ran 14 tests in 0.412s\n\nOK",
                "La pagination est corrigée ; les 14 tests passent.",
            ),
            _work(
                "Ajoute le champ allergènes au formulaire de plat. Lance toute la suite de tests avant de me répondre.",
                "menus/forms.py",
                'fields = ["nom", "prix"]',
                'fields = ["nom", "prix", "allergenes"]',
                "python manage.py test",
                "Ran 88 tests in 3.104s\n\nOK",
                "Champ ajouté, 88 tests OK.",
            ),
            _work(
                "Renomme `get_menu` en `menu_du_jour`, puis fais tourner les tests avant de me rendre la main.",
                "menus/services.py",
                "def get_menu(",
                "def menu_du_jour(",
                "python manage.py test",
                "Ran 88 tests in 3.087s\n\nOK",
                "Renommé partout, les tests passent.",
            ),
        ),
        habits=(Habit("Runs the tests before handing back.", (r"test", r"avant|before")),),
    ),
    User(
        "small-commits-de",
        "repeated",
        "Java/Gradle",
        _sessions(
            "/home/jonas/dev/lagerverwaltung",
            "claude",
            _work(
                "Bau den CSV-Export auf Streams um. Bitte kleine Commits, einen pro Schritt.",
                "src/main/java/de/lager/export/CsvExport.java",
                "List<String> lines = new ArrayList<>();",
                "Stream<String> lines = items.stream().map(this::line);",
                "./gradlew test",
                JV_OK,
                "Umgebaut in drei Commits.",
                _commit(
                    "src/main/java/de/lager/export/CsvExport.java",
                    "CSV-Export auf Streams umgestellt",
                ),
            ),
            _work(
                "Migration auf JUnit 5: wieder kleine Commits, je Schritt einer.",
                "build.gradle",
                "testImplementation 'junit:junit:4.13.2'",
                "testImplementation 'org.junit.jupiter:junit-jupiter:5.10.2'",
                "./gradlew test",
                JV_OK,
                "Migriert, vier Commits.",
                _commit("build.gradle", "JUnit 5 als Testabhängigkeit"),
            ),
            _work(
                "Jetzt das Refactoring des Parsers, kleine Commits pro Schritt.",
                "src/main/java/de/lager/io/Parser.java",
                "public Object parse(String s)",
                "public Artikel parse(String zeile)",
                "./gradlew test",
                JV_OK,
                "Fertig, fünf Commits.",
                _commit("src/main/java/de/lager/io/Parser.java", "Parser gibt Artikel zurück"),
            ),
        ),
        habits=(Habit("Small commits, one per step.", (r"commit", r"klein|small|schritt|step")),),
    ),
    User(
        "ask-before-deps-es",
        "repeated",
        "JavaScript/npm",
        _sessions(
            "/home/lucia/proyectos/reservas",
            "claude",
            _work(
                "Añade validación al formulario de registro; pregúntame antes de instalar cualquier paquete.",
                "src/registro/validar.js",
                "export function validar(datos) {}",
                "export function validar(datos) {\n  return datos.email.includes('@') && datos.clave.length >= 8;\n}",
                "npm test",
                JS_OK,
                "Validación añadida sin paquetes nuevos.",
            ),
            _work(
                "Necesito exportar las reservas a CSV. Si hace falta una librería nueva, pregúntame antes.",
                "src/reservas/exportar.js",
                "",
                "export const aCsv = (filas) => filas.map((f) => Object.values(f).join(',')).join('\\n');",
                "npm test",
                JS_OK,
                "Exportación hecha a mano, sin librerías.",
            ),
        ),
        habits=(
            Habit(
                "Asks to be asked before any new dependency is added.",
                (r"pregunt|\bask", r"paquete|librer|dependenc|package|instal"),
            ),
        ),
    ),
    User(
        "diff-first",
        "repeated",
        "Python/FastAPI",
        _sessions(
            "/home/priya/work/gateway",
            "gemini",
            (
                Ask("Rename the settings module to config. Show me the diff before you apply it."),
                Say(
                    "Here is the diff: settings.py -> config.py, 7 imports updated. Shall I apply it?"
                ),
                Ask("go"),
                Edit(
                    "gateway/main.py",
                    "from gateway.settings import Settings",
                    "from gateway.config import Settings",
                ),
                Run("pytest -q", PY_OK),
                Say("Applied; tests pass."),
            ),
            (
                Ask(
                    "Change the retry policy to exponential backoff. Diff first, then I'll say go."
                ),
                Say("Proposed diff: retry.py, fixed 1 s delay -> 0.5 * 2**attempt, capped at 8 s."),
                Ask("go"),
                Edit("gateway/retry.py", "delay = 1.0", "delay = min(0.5 * 2**attempt, 8.0)"),
                Run("pytest -q", PY_OK),
                Say("Done."),
            ),
            (
                Ask(
                    "Split the upload view into parse and store. Let me see the diff before you write anything."
                ),
                Say(
                    "Diff: views/upload.py gets parse_upload() and store_upload(); the view calls both."
                ),
                Ask("ok go"),
                Edit(
                    "gateway/views/upload.py",
                    "async def upload(req):",
                    "async def upload(req):\n    return await store_upload(await parse_upload(req))",
                ),
                Run("pytest -q", PY_OK),
                Say("Split and applied."),
            ),
        ),
        habits=(
            Habit("Wants to see the diff before it is applied.", (r"diff", r"before|first|approv")),
        ),
    ),
    User(
        "format-credo",
        "repeated",
        "Elixir/mix",
        _sessions(
            "/home/ines/src/clubhouse",
            "claude",
            _work(
                "Add the invite flow to the Accounts context. Run mix format and mix credo before you hand it back.",
                "lib/clubhouse/accounts.ex",
                "  def register(attrs) do",
                "  def invite(email, inviter) do\n    %Invite{email: email, inviter_id: inviter.id} |> Repo.insert()\n  end\n\n  def register(attrs) do",
                "mix test",
                EX_OK,
                "Invite flow in; mix format and credo are clean.",
                Run(
                    "mix format && mix credo --strict",
                    "Checking 41 source files ...\n\nAnalysis took 0.6 seconds\n212 mods/funs, found no issues.",
                ),
            ),
            _work(
                "Make event RSVPs cancellable. Then mix format and credo it.",
                "lib/clubhouse/events.ex",
                "def rsvp(event, user) do",
                "def cancel_rsvp(event, user) do\n    Repo.delete_all(from r in Rsvp, where: r.event_id == ^event.id and r.user_id == ^user.id)\n  end\n\n  def rsvp(event, user) do",
                "mix test",
                EX_OK,
                "Cancel is in; format and credo clean.",
                Run(
                    "mix format && mix credo --strict",
                    "Checking 42 source files ...\n\n213 mods/funs, found no issues.",
                ),
            ),
            _work(
                "Paginate the members list; finish with mix format + credo.",
                "lib/clubhouse_web/live/member_live/index.ex",
                "members = Accounts.list_members()",
                'members = Accounts.list_members(page: params["page"] || 1)',
                "mix test",
                EX_OK,
                "Paginated, format and credo pass.",
                Run(
                    "mix format && mix credo --strict",
                    "Checking 42 source files ...\n\nfound no issues.",
                ),
            ),
        ),
        habits=(Habit("Runs the formatter and credo before handing back.", (r"format", r"credo")),),
    ),
    User(
        "one-spec-file",
        "repeated",
        "Ruby/Rails",
        _sessions(
            "/home/sam/apps/shopfront",
            "codex",
            _work(
                "Fix the `recent` scope on Order. Just run the spec for it, the full suite takes 20 minutes.",
                "app/models/order.rb",
                "scope :recent, -> { order(:created_at) }",
                "scope :recent, -> { order(created_at: :desc) }",
                "bundle exec rspec spec/models/order_spec.rb",
                RB_OK,
                "Fixed; order_spec passes.",
            ),
            _work(
                "The receipt mailer needs the VAT line. Only run the mailer spec, not the whole suite.",
                "app/mailers/receipt_mailer.rb",
                "@total = order.total",
                "@total = order.total\n    @vat = order.vat_amount",
                "bundle exec rspec spec/mailers/receipt_mailer_spec.rb",
                RB_OK,
                "VAT line added; mailer spec green.",
            ),
            _work(
                "Cart#merge drops quantities. Fix it and run just cart_spec.",
                "app/models/cart.rb",
                "items.merge(other.items)",
                "items.merge(other.items) { |_, a, b| a + b }",
                "bundle exec rspec spec/models/cart_spec.rb",
                RB_OK,
                "Quantities add up now.",
            ),
        ),
        habits=(
            Habit(
                "Runs only the spec file of the change, not the whole suite.",
                (r"spec|suite|test", r"only|just|whole|full|single|one"),
                (r"run the (whole|full) suite",),
            ),
        ),
    ),
    User(
        "plan-before-code-pt",
        "repeated",
        "Kotlin/Gradle",
        _sessions(
            "/home/rafa/dev/entregas",
            "claude",
            (
                Ask(
                    "Quero cache no repositório de usuários. Primeiro me explica o plano, depois mexe no código."
                ),
                Say(
                    "Plano: um cache Caffeine de 10 min em UserRepository.findById, invalidado no save."
                ),
                Ask("ok, pode fazer"),
                Edit(
                    "src/main/kotlin/entregas/UserRepository.kt",
                    "fun findById(id: Long): User?",
                    "fun findById(id: Long): User? = cache.get(id) { db.find(it) }",
                ),
                Run("./gradlew test", KT_OK),
                Say("Feito."),
            ),
            (
                Ask("Adiciona paginação na API de entregas. Me explica o plano antes de codar."),
                Say("Plano: page e size como query params, padrão 20, resposta com total."),
                Ask("beleza, vai"),
                Edit(
                    "src/main/kotlin/entregas/EntregaController.kt",
                    "fun listar(): List<Entrega>",
                    "fun listar(page: Int = 0, size: Int = 20): Pagina<Entrega>",
                ),
                Run("./gradlew test", KT_OK),
                Say("Paginação feita."),
            ),
        ),
        habits=(
            Habit(
                "Wants the plan explained before any code changes.",
                (r"plan", r"antes|before|primeiro|first"),
            ),
        ),
    ),
    User(
        "answers-in-japanese",
        "repeated",
        "PHP/Composer",
        _sessions(
            "/home/yuki/src/kintai",
            "claude",
            _work(
                "打刻APIのバリデーションを直してください。回答は日本語でお願いします。",
                "src/Api/PunchController.php",
                "if ($time) {",
                "if ($time !== null && $time <= new DateTimeImmutable()) {",
                "vendor/bin/phpunit",
                PHP_OK,
                "バリデーションを修正しました。テストは通っています。",
            ),
            _work(
                "月次レポートのCSVの文字化けを直して。説明は日本語で。",
                "src/Report/MonthlyCsv.php",
                "fputcsv($out, $row);",
                "fputcsv($out, array_map(fn ($v) => mb_convert_encoding($v, 'SJIS-win', 'UTF-8'), $row));",
                "vendor/bin/phpunit",
                PHP_OK,
                "Shift_JISで出力するようにしました。",
            ),
            _work(
                "有給の残日数がマイナスになるバグ、原因と修正を日本語で教えてください。",
                "src/Leave/Balance.php",
                "return $granted - $used;",
                "return max(0, $granted - $used);",
                "vendor/bin/phpunit",
                PHP_OK,
                "取得日数が付与日数を超えるとマイナスになっていました。0で下限を設けました。",
            ),
        ),
        habits=(Habit("Wants answers in Japanese.", (r"日本語|japanese",)),),
    ),
    User(
        "short-answers-zh",
        "repeated",
        "Python/Flask",
        _sessions(
            "/home/lin/code/kaoqin",
            "claude",
            (
                Ask("为什么登录接口在生产环境返回 500？简短回答。"),
                Run("grep -n SECRET_KEY app/config.py", "12:SECRET_KEY = os.environ['SECRET_KEY']"),
                Say("生产环境没有设置 SECRET_KEY，读取时抛出 KeyError。"),
            ),
            (
                Ask("这个装饰器 login_required 是怎么判断过期的？简短点。"),
                Run(
                    "sed -n 1,40p app/auth.py",
                    "def login_required(f):\n    # exp claim checked against utcnow()\n    ...",
                ),
                Say("比较 token 的 exp 和当前 UTC 时间。"),
            ),
        ),
        habits=(Habit("Wants short answers.", (r"简短|short|brief|concise",)),),
    ),
    User(
        "test-first",
        "repeated",
        "Python/pytest",
        _sessions(
            "/home/noor/src/scheduler",
            "claude",
            (
                Ask(
                    "Shifts that cross midnight get counted twice. Write a failing test for it first, then fix it."
                ),
                Edit(
                    "tests/test_shifts.py",
                    "",
                    "def test_overnight_shift_counted_once():\n    assert hours(Shift('22:00', '06:00')) == 8\n",
                ),
                Run(
                    "pytest tests/test_shifts.py -q",
                    "F\nFAILED tests/test_shifts.py::test_overnight_shift_counted_once - assert 16 == 8\n1 failed in 0.09s",
                    1,
                ),
                Edit("scheduler/shifts.py", "return end - start", "return (end - start) % DAY"),
                Run("pytest tests/test_shifts.py -q", "1 passed in 0.05s"),
                Say("Test first (red), then the fix (green)."),
            ),
            (
                Ask(
                    "Holidays aren't excluded from the weekly total. Test first, then the fix, like last time."
                ),
                Edit(
                    "tests/test_weekly.py",
                    "",
                    "def test_holiday_excluded():\n    assert weekly_total(week_with_holiday) == 32\n",
                ),
                Run("pytest tests/test_weekly.py -q", "F\n1 failed in 0.08s", 1),
                Edit(
                    "scheduler/weekly.py",
                    "days = week.days",
                    "days = [d for d in week.days if not d.holiday]",
                ),
                Run("pytest tests/test_weekly.py -q", "1 passed in 0.04s"),
                Say("Red then green."),
            ),
            (
                Ask(
                    "The CSV import accepts negative hours. Start with a test that shows it, then fix."
                ),
                Edit(
                    "tests/test_import.py",
                    "",
                    "def test_negative_hours_rejected():\n    with pytest.raises(ValueError):\n        parse_row(['ana', '-3'])\n",
                ),
                Run("pytest tests/test_import.py -q", "F\n1 failed in 0.07s", 1),
                Edit(
                    "scheduler/importer.py",
                    "hours = float(row[1])",
                    "hours = float(row[1])\n    if hours < 0:\n        raise ValueError(row)",
                ),
                Run("pytest tests/test_import.py -q", "1 passed in 0.04s"),
                Say("Rejected now, with a test."),
            ),
        ),
        habits=(Habit("Writes a failing test before the fix.", (r"test", r"first|before|fail")),),
    ),
    User(
        "remove-obsolete-tests",
        "repeated",
        "TypeScript/Jest",
        _sessions(
            "/home/mo/src/billing-ui",
            "claude",
            (
                Ask(
                    "I removed the legacy coupon field. Update the form; the test that checks the coupon field covers what we dropped, so delete that test rather than fixing it."
                ),
                Edit("src/CheckoutForm.tsx", "<CouponField />", ""),
                Edit(
                    "src/CheckoutForm.test.tsx",
                    "it('shows the coupon field', () => {",
                    "it.skip('shows the coupon field', () => {",
                ),
                Say("Form updated; I skipped the coupon test."),
                Ask("Not skip, delete it. It tests behaviour we removed."),
                Edit("src/CheckoutForm.test.tsx", "it.skip('shows the coupon field', () => {", ""),
                Run("npx jest", "Tests:       44 passed, 44 total"),
                Say("Deleted."),
            ),
            (
                Ask(
                    "The old CSV export is gone. Tests that assert the CSV button exists test removed behaviour, remove them."
                ),
                Edit("src/ExportMenu.test.tsx", "it('offers CSV', () => {", ""),
                Run("npx jest", "Tests:       43 passed, 43 total"),
                Say("Removed the two CSV tests."),
            ),
        ),
        habits=(
            Habit(
                "A test of behaviour that was removed is deleted, not fixed or skipped.",
                (r"test", r"remov|delet|drop"),
                (r"skip",),
            ),
        ),
    ),
)

_PLAN = """Implement the following plan:

# Plan: {title}

## Context
{context}

## Change
{change}

## Verification
{check}
"""

HANDOVER = (
    User(
        "approved-plans",
        "handover",
        "Python/pytest",
        _sessions(
            "/home/ana/src/invoicer",
            "claude",
            _work(
                _PLAN.format(
                    title="Credit notes",
                    context="Customers need partial refunds; today only full refunds exist.",
                    change="- Add `CreditNote` model referencing an invoice\n- `POST /invoices/{id}/credit-notes`",
                    check="- `pytest tests/api/test_credit_notes.py`\n- credit notes show on the invoice PDF",
                ),
                "invoicer/models.py",
                "class Invoice(Base):",
                "class CreditNote(Base):\n    invoice_id = Column(ForeignKey('invoice.id'))\n\n\nclass Invoice(Base):",
                "pytest tests/api/test_credit_notes.py -q",
                PY_OK,
                "Implemented as planned; verification passes.",
            ),
            _work(
                _PLAN.format(
                    title="Late fees",
                    context="Overdue invoices get no fee today.",
                    change="- `late_fee()` on Invoice: 1.5 % per month overdue\n- shown as its own line",
                    check="- `pytest tests/test_fees.py`",
                ),
                "invoicer/fees.py",
                "",
                "def late_fee(invoice, today):\n    months = max(0, (today - invoice.due).days // 30)\n    return invoice.total * Decimal('0.015') * months\n",
                "pytest tests/test_fees.py -q",
                PY_OK,
                "Late fees in, per the plan.",
            ),
            _work(
                _PLAN.format(
                    title="Email retries",
                    context="Mail sends fail silently on SMTP timeouts.",
                    change="- retry 3 times with backoff in `send_invoice`\n- log the final failure",
                    check="- `pytest tests/test_mail.py`",
                ),
                "invoicer/mail.py",
                "smtp.send(msg)",
                "for attempt in range(3):\n        try:\n            return smtp.send(msg)\n        except TimeoutError:\n            time.sleep(2**attempt)",
                "pytest tests/test_mail.py -q",
                PY_OK,
                "Retries done as planned.",
            ),
        ),
        habits=(
            Habit(
                "Hands work over as an approved plan (Context, Change, Verification) to implement as written.",
                (r"plan", r"implement|approved|context|verification|follow|written"),
            ),
        ),
    ),
    User(
        "issue-links",
        "handover",
        "Go",
        _sessions(
            "/home/wen/src/ledger",
            "claude",
            _work(
                "Pick up https://github.com/wen-lab/ledger/issues/41 — read the thread first, the last comment changes the scope.",
                "internal/api/accounts.go",
                "func ListAccounts(w http.ResponseWriter, r *http.Request) {",
                'func ListAccounts(w http.ResponseWriter, r *http.Request) {\n\tif r.URL.Query().Get("archived") == "" {',
                "go test ./...",
                GO_OK,
                "Done per the issue's last comment (archived hidden by default).",
            ),
            _work(
                "Next one: https://github.com/wen-lab/ledger/issues/57. Read the issue and its comments before starting.",
                "internal/sync/sync.go",
                "const batch = 100",
                "const batch = 500",
                "go test ./...",
                GO_OK,
                "Batch raised to 500 as agreed in the thread.",
            ),
            _work(
                "https://github.com/wen-lab/ledger/issues/63 is yours. Context is all in the issue.",
                "internal/api/export.go",
                'w.Header().Set("Content-Type", "text/plain")',
                'w.Header().Set("Content-Type", "text/csv")',
                "go test ./...",
                GO_OK,
                "Fixed the content type.",
            ),
        ),
        habits=(
            Habit(
                "Hands work over as issue links; the issue thread holds the context.", (r"issue",)
            ),
        ),
    ),
    User(
        "checklists",
        "handover",
        "TypeScript/Vite",
        _sessions(
            "/home/kai/code/dashboard",
            "claude",
            _work(
                "Today's list:\n- [ ] sort the customers table by last order\n- [ ] empty state for no results\n- [ ] fix the navbar overlap on mobile\nTick them off as you go.",
                "src/customers/CustomersTable.tsx",
                "rows.sort(byName)",
                "rows.sort(byLastOrder)",
                "pnpm test",
                JS_OK,
                "- [x] sort by last order\n- [x] empty state\n- [x] navbar overlap",
            ),
            _work(
                "- [ ] rename `useData` to `useOrders`\n- [ ] remove the unused `dayjs` import\n- [ ] add aria-labels to the icon buttons\nSame as usual, tick them off as you go.",
                "src/hooks/useData.ts",
                "export function useData()",
                "export function useOrders()",
                "pnpm test",
                JS_OK,
                "- [x] useOrders\n- [x] dayjs import\n- [x] aria-labels",
            ),
        ),
        habits=(
            Habit(
                "Hands work over as a checklist, ticked off item by item.",
                (r"checklist|check list|list|\[ \]", r"tick|check.{0,10}off|item|each"),
            ),
        ),
    ),
    User(
        "ticket-branches",
        "handover",
        "Java/Maven",
        _sessions(
            "/home/jonas/dev/payments",
            "claude",
            (
                Ask(
                    "Ticket PAY-212: refunds over 10k need a second approver. Branch named after the ticket."
                ),
                Run("git switch -c PAY-212", "Switched to a new branch 'PAY-212'"),
                Edit(
                    "src/main/java/pay/RefundService.java",
                    "if (amount > 0) {",
                    "if (amount.compareTo(LIMIT) > 0) {\n            requireSecondApprover(refund);\n        }\n        if (amount.signum() > 0) {",
                ),
                Run("mvn -q test", "Tests run: 64, Failures: 0, Errors: 0, Skipped: 0"),
                Say("On branch PAY-212; tests pass."),
            ),
            (
                Ask("PAY-219: the webhook retries forever on 410. Branch = ticket id, as always."),
                Run("git switch -c PAY-219", "Switched to a new branch 'PAY-219'"),
                Edit(
                    "src/main/java/pay/WebhookSender.java",
                    "if (status >= 400) retry();",
                    "if (status >= 400 && status != 410) retry();",
                ),
                Run("mvn -q test", "Tests run: 66, Failures: 0, Errors: 0, Skipped: 0"),
                Say("Done on PAY-219."),
            ),
        ),
        habits=(
            Habit(
                "Each ticket gets its own branch named after the ticket id.", (r"branch", r"ticket")
            ),
        ),
    ),
    User(
        "spec-files",
        "handover",
        "Rust/cargo",
        _sessions(
            "/home/tomas/src/fetchr",
            "claude",
            (
                Ask("The spec is in docs/specs/0007-rate-limit.md. Implement it as written."),
                Run(
                    "cat docs/specs/0007-rate-limit.md",
                    "# 0007 Rate limit\nA token bucket per host, 5 requests/s, burst 10.",
                ),
                Edit(
                    "src/limit.rs", "", "pub struct Bucket { rate: f64, burst: u32, tokens: f64 }"
                ),
                Run("cargo test", RS_OK),
                Say("Token bucket per host as specified."),
            ),
            (
                Ask("docs/specs/0008-resume.md is next. Implement what it says, nothing more."),
                Run(
                    "cat docs/specs/0008-resume.md",
                    "# 0008 Resume\nResume partial downloads with Range requests when the server sends Accept-Ranges.",
                ),
                Edit(
                    "src/fetch.rs",
                    "let req = client.get(url);",
                    'let req = client.get(url).header(RANGE, format!("bytes={}-", have));',
                ),
                Run("cargo test", RS_OK),
                Say("Resume implemented per 0008."),
            ),
            (
                Ask("Spec 0009 (docs/specs/0009-mirrors.md): implement it."),
                Run(
                    "cat docs/specs/0009-mirrors.md", "# 0009 Mirrors\nTry mirrors in order on 5xx."
                ),
                Edit(
                    "src/fetch.rs",
                    "return Err(e);",
                    "if let Some(next) = mirrors.next() { continue; }\n        return Err(e);",
                ),
                Run("cargo test", RS_OK),
                Say("Mirrors done."),
            ),
        ),
        habits=(
            Habit(
                "Hands work over as spec files to implement as written.",
                (r"spec", r"implement|written|docs/specs"),
            ),
        ),
    ),
    User(
        "failing-test-handover",
        "handover",
        "Python/pytest",
        _sessions(
            "/home/noor/src/scheduler",
            "codex",
            (
                Ask(
                    "Make this pass:\n\n```python\ndef test_split_shift_two_rows():\n    assert len(export_rows(split_shift)) == 2\n```"
                ),
                Edit(
                    "scheduler/export.py",
                    "return [row(shift)]",
                    "return [row(part) for part in shift.parts]",
                ),
                Run("pytest tests/test_export.py -q", "3 passed in 0.06s"),
                Say("Passes."),
            ),
            (
                Ask(
                    "New failing test, make it pass without touching the test:\n\n```python\ndef test_week_starts_monday():\n    assert week_of(date(2026, 3, 4)).start == date(2026, 3, 2)\n```"
                ),
                Edit(
                    "scheduler/weekly.py",
                    "start = day - timedelta(days=(day.weekday() + 1) % 7)",
                    "start = day - timedelta(days=day.weekday())",
                ),
                Run("pytest tests/test_weekly.py -q", "4 passed in 0.05s"),
                Say("Green."),
            ),
        ),
        habits=(Habit("Hands work over as a failing test to make pass.", (r"test", r"pass")),),
    ),
    User(
        "plan-handover-de",
        "handover",
        "Go",
        _sessions(
            "/home/jonas/dev/zaehler",
            "claude",
            _work(
                "Setze folgenden Plan um:\n\n# Plan: Zählerstände importieren\n\n## Kontext\nDie Ablesungen kommen als CSV vom Dienstleister.\n\n## Änderung\n- `import.Read(r io.Reader)` liest die CSV\n\n## Prüfung\n- `go test ./internal/import/...`",
                "internal/import/read.go",
                "",
                "func Read(r io.Reader) ([]Ablesung, error) {\n\treturn parse(csv.NewReader(r))\n}",
                "go test ./internal/import/...",
                "ok  \texample.com/zaehler/internal/import\t0.210s",
                "Plan umgesetzt, Prüfung grün.",
            ),
            _work(
                "Setze folgenden Plan um:\n\n# Plan: Plausibilitätsprüfung\n\n## Kontext\nAblesungen kleiner als die vorige sind Tippfehler.\n\n## Änderung\n- `Check(prev, next)` gibt einen Fehler zurück\n\n## Prüfung\n- `go test ./internal/check/...`",
                "internal/check/check.go",
                "",
                "func Check(prev, next Ablesung) error {\n\tif next.Wert < prev.Wert {\n\t\treturn ErrRueckwaerts\n\t}\n\treturn nil\n}",
                "go test ./internal/check/...",
                "ok  \texample.com/zaehler/internal/check\t0.180s",
                "Umgesetzt.",
            ),
        ),
        habits=(Habit("Hands work over as a plan to implement.", (r"plan",)),),
    ),
    User(
        "review-comments",
        "handover",
        "Python/Django",
        _sessions(
            "/home/claire/projets/cantine",
            "claude",
            _work(
                "Address the review comments on PR #88:\n> menus/views.py L40: use select_related here\n> menus/models.py L12: this default should be a callable",
                "menus/views.py",
                "Plat.objects.filter(menu=menu)",
                "Plat.objects.select_related('menu').filter(menu=menu)",
                "python manage.py test menus",
                "Ran 14 tests in 0.398s\n\nOK",
                "Both comments addressed.",
            ),
            _work(
                "Review comments on PR #91 to address:\n> commandes/forms.py L7: validate quantity > 0\n> commandes/views.py L55: missing login_required",
                "commandes/forms.py",
                "quantite = forms.IntegerField()",
                "quantite = forms.IntegerField(min_value=1)",
                "python manage.py test commandes",
                "Ran 9 tests in 0.301s\n\nOK",
                "Addressed.",
            ),
            _work(
                "PR #95 review, please address:\n> menus/api.py L18: return 404, not None",
                "menus/api.py",
                "return None",
                "raise Http404",
                "python manage.py test menus",
                "Ran 15 tests in 0.402s\n\nOK",
                "Done.",
            ),
        ),
        habits=(
            Habit(
                "Hands work over as review comments on a PR to address.", (r"review", r"comment")
            ),
        ),
    ),
)


def _log(*subjects: str) -> Run:
    """`git log --oneline` showing `subjects`, newest first."""
    lines = "\n".join(f"{(0x9A0C1E + i * 7919):07x} {s}" for i, s in enumerate(subjects))
    return Run("git log --oneline -5", lines)


ACTIONS = (
    User(
        "conventional-commits",
        "actions",
        "TypeScript/pnpm",
        _sessions(
            "/home/kai/code/api-client",
            "claude",
            _work(
                "Add a timeout option to the client, then commit.",
                "src/client.ts",
                "constructor(base: string)",
                "constructor(base: string, opts: { timeoutMs?: number } = {})",
                "pnpm test",
                JS_OK,
                "Committed.",
                _log(
                    "fix(auth): refresh the token on 401",
                    "feat(client): retry idempotent requests",
                    "chore(deps): bump undici to 6.19",
                ),
                _commit("src/client.ts test/client.test.ts", "feat(client): add a timeout option"),
            ),
            _work(
                "The paginator skips the last page. Fix and commit.",
                "src/paginate.ts",
                "while (page < total)",
                "while (page <= total)",
                "pnpm test",
                JS_OK,
                "Fixed and committed.",
                _commit(
                    "src/paginate.ts test/paginate.test.ts", "fix(paginate): include the last page"
                ),
            ),
            _work(
                "Bump zod to 3.23 and commit it.",
                "package.json",
                '"zod": "^3.22.4"',
                '"zod": "^3.23.8"',
                "pnpm test",
                JS_OK,
                "Bumped and committed.",
                _commit("package.json pnpm-lock.yaml", "chore(deps): bump zod to 3.23"),
            ),
        ),
        habits=(
            Habit(
                "Commit subjects follow conventional commits (type(scope): subject).",
                (r"conventional|type\(scope\)|feat|type prefix",),
                (r"no (type )?prefix",),
            ),
        ),
    ),
    User(
        "plain-imperative-commits",
        "actions",
        "Python/pytest",
        _sessions(
            "/home/priya/work/gateway",
            "claude",
            _work(
                "Log the request id on every error response. Commit when done.",
                "gateway/errors.py",
                'return JSONResponse({"error": str(exc)}, status_code=500)',
                'log.error("request_failed", request_id=req.state.id)\n    return JSONResponse({"error": str(exc)}, status_code=500)',
                "pytest -q",
                PY_OK,
                "Committed.",
                _log(
                    "Add retry to the upstream fetcher",
                    "Fix off-by-one in the pager",
                    "Remove the unused debug flag",
                ),
                _commit(
                    "gateway/errors.py tests/test_errors.py",
                    "Log the request id on error responses",
                ),
            ),
            _work(
                "Cap uploads at 20 MB, commit it.",
                "gateway/views/upload.py",
                "MAX = None",
                "MAX = 20 * 1024 * 1024",
                "pytest -q",
                PY_OK,
                "Committed.",
                _commit("gateway/views/upload.py tests/test_upload.py", "Cap uploads at 20 MB"),
            ),
            _work(
                "Drop the python 3.9 shim and commit.",
                "gateway/compat.py",
                "if sys.version_info < (3, 10):",
                "",
                "pytest -q",
                PY_OK,
                "Done.",
                _commit("gateway/compat.py", "Drop the Python 3.9 shim"),
            ),
        ),
        habits=(
            Habit(
                "Commit subjects are plain imperative sentences with no type prefix.",
                (r"imperative|no (type )?prefix|plain",),
                (r"conventional|feat\(|fix\(",),
            ),
        ),
    ),
    User(
        "stage-by-name",
        "actions",
        "Go",
        _sessions(
            "/home/wen/src/ledger",
            "codex",
            _work(
                "Add the archived flag to accounts and commit.",
                "internal/store/accounts.go",
                "Name string",
                "Name     string\n\tArchived bool",
                "go test ./...",
                GO_OK,
                "Committed.",
                _commit(
                    "internal/store/accounts.go internal/store/accounts_test.go",
                    "Add the archived flag to accounts",
                ),
            ),
            _work(
                "Sort exports by date, commit.",
                "internal/api/export.go",
                "sort.Slice(rows, byID)",
                "sort.Slice(rows, byDate)",
                "go test ./...",
                GO_OK,
                "Committed.",
                _commit("internal/api/export.go", "Sort exports by date"),
            ),
            _work(
                "Handle an empty sync batch and commit the fix.",
                "internal/sync/sync.go",
                "last := batch[len(batch)-1]",
                "if len(batch) == 0 {\n\t\treturn nil\n\t}\n\tlast := batch[len(batch)-1]",
                "go test ./...",
                GO_OK,
                "Committed.",
                _commit(
                    "internal/sync/sync.go internal/sync/sync_test.go", "Handle an empty sync batch"
                ),
            ),
        ),
        habits=(
            Habit(
                "A commit stages only the files the change touched, by name.",
                (r"git add|stag", r"by name|named|touched|only|specific|explicit|changed"),
                (r"git add -A|git add \.|add all",),
            ),
        ),
    ),
    User(
        "signed-off",
        "actions",
        "C/Make",
        _sessions(
            "/home/ola/src/tinyhttpd",
            "claude",
            _work(
                "Reject header lines over 8 KiB, then commit.",
                "src/parse.c",
                "if (len > MAX_LINE)",
                "if (len > 8192)",
                "make test",
                "PASS: 31/31",
                "Committed.",
                _commit("src/parse.c", "parse: reject header lines over 8 KiB", "-s"),
            ),
            _work(
                "Close idle keep-alive sockets after 15 s. Commit.",
                "src/conn.c",
                "#define IDLE_SECS 0",
                "#define IDLE_SECS 15",
                "make test",
                "PASS: 32/32",
                "Committed.",
                _commit("src/conn.c", "conn: close idle keep-alive sockets after 15 s", "-s"),
            ),
            _work(
                "Fix the leak in the MIME table and commit.",
                "src/mime.c",
                "return;",
                "free(table);\n    return;",
                "make test",
                "PASS: 32/32",
                "Committed.",
                _commit("src/mime.c", "mime: free the table on reload", "-s"),
            ),
        ),
        habits=(Habit("Commits carry a sign-off (git commit -s).", (r"sign|-s\b",)),),
    ),
    User(
        "branch-per-task",
        "actions",
        "Ruby/Rails",
        _sessions(
            "/home/sam/apps/shopfront",
            "claude",
            (
                Ask("Add a wishlist count to the header."),
                Run(
                    "git switch -c feature/wishlist-count",
                    "Switched to a new branch 'feature/wishlist-count'",
                ),
                Edit(
                    "app/views/layouts/_header.html.erb",
                    "<%= link_to 'Wishlist', wishlist_path %>",
                    '<%= link_to "Wishlist (#{current_user.wishlist.count})", wishlist_path %>',
                ),
                Run("bundle exec rspec spec/views", RB_OK),
                Run(
                    "git push -u origin feature/wishlist-count",
                    "branch 'feature/wishlist-count' set up to track 'origin/feature/wishlist-count'.",
                ),
                Say("On feature/wishlist-count, pushed."),
            ),
            (
                Ask("Orders CSV should include the shipping method."),
                Run(
                    "git switch -c feature/orders-csv-shipping",
                    "Switched to a new branch 'feature/orders-csv-shipping'",
                ),
                Edit(
                    "app/services/orders_csv.rb",
                    "[o.id, o.total]",
                    "[o.id, o.total, o.shipping_method]",
                ),
                Run("bundle exec rspec spec/services", RB_OK),
                Run(
                    "git push -u origin feature/orders-csv-shipping",
                    "branch 'feature/orders-csv-shipping' set up to track 'origin/feature/orders-csv-shipping'.",
                ),
                Say("Pushed on its own branch."),
            ),
            (
                Ask("Guest checkout loses the cart on login; fix it."),
                Run(
                    "git switch -c fix/guest-cart-merge",
                    "Switched to a new branch 'fix/guest-cart-merge'",
                ),
                Edit(
                    "app/controllers/sessions_controller.rb",
                    "session[:cart_id] = nil",
                    "current_user.cart.merge!(Cart.find_by(id: session.delete(:cart_id)))",
                ),
                Run("bundle exec rspec spec/requests", RB_OK),
                Run(
                    "git push -u origin fix/guest-cart-merge",
                    "branch 'fix/guest-cart-merge' set up to track 'origin/fix/guest-cart-merge'.",
                ),
                Say("Fixed on fix/guest-cart-merge."),
            ),
        ),
        habits=(Habit("Each task goes on a branch of its own, pushed.", (r"branch",)),),
    ),
    User(
        "fixes-trailer",
        "actions",
        "Python/pytest",
        _sessions(
            "/home/ana/src/invoicer",
            "claude",
            _work(
                "Issue #31: due dates ignore weekends. Fix and commit.",
                "invoicer/dates.py",
                "return issued + timedelta(days=30)",
                "return next_business_day(issued + timedelta(days=30))",
                "pytest -q",
                PY_OK,
                "Committed.",
                Run(
                    'git commit -am "Skip weekends in due dates" -m "Fixes #31"',
                    "[main 1b2c3d4] Skip weekends in due dates\n 1 file changed, 2 insertions(+), 1 deletion(-)",
                ),
            ),
            _work(
                "Issue #34, the PDF footer overlaps the totals. Fix it and commit.",
                "invoicer/pdf.py",
                "FOOTER_Y = 40",
                "FOOTER_Y = 20",
                "pytest -q",
                PY_OK,
                "Committed.",
                Run(
                    'git commit -am "Move the PDF footer below the totals" -m "Fixes #34"',
                    "[main 2c3d4e5] Move the PDF footer below the totals\n 1 file changed, 1 insertion(+), 1 deletion(-)",
                ),
            ),
        ),
        habits=(
            Habit(
                'Commits close their issue with a "Fixes #N" line.', (r"fixes #|closes #|issue",)
            ),
        ),
    ),
    User(
        "pull-rebase",
        "actions",
        "Kotlin/Gradle",
        _sessions(
            "/home/rafa/dev/entregas",
            "claude",
            (
                Ask("Pull the latest main and fix the failing delivery test."),
                Run(
                    "git pull --rebase origin main",
                    "Successfully rebased and updated refs/heads/main.",
                ),
                Edit("src/main/kotlin/entregas/Prazo.kt", "plusDays(2)", "plusDays(3)"),
                Run("./gradlew test", KT_OK),
                Say("Rebased and fixed."),
            ),
            (
                Ask("Get up to date with main, then add the courier name to the receipt."),
                Run(
                    "git pull --rebase origin main",
                    "Successfully rebased and updated refs/heads/main.",
                ),
                Edit(
                    "src/main/kotlin/entregas/Recibo.kt",
                    "val linhas = listOf(id, total)",
                    "val linhas = listOf(id, total, entregador.nome)",
                ),
                Run("./gradlew test", KT_OK),
                Say("Done."),
            ),
        ),
        habits=(Habit("Updates from main by rebasing.", (r"rebase",)),),
    ),
    User(
        "typo-reports",
        "actions",
        "Markdown/MkDocs",
        _sessions(
            "/home/ola/src/handbook",
            "claude",
            (
                Ask("typo in docs/setup.md: enviroment -> environment"),
                Edit("docs/setup.md", "enviroment", "environment"),
                Say("Fixed."),
            ),
            (
                Ask("typo: docs/deploy.md 'recieve' -> 'receive'"),
                Edit("docs/deploy.md", "recieve", "receive"),
                Say("Fixed."),
            ),
            (
                Ask("typo in index.md, seperate -> separate"),
                Edit("docs/index.md", "seperate", "separate"),
                Say("Fixed."),
            ),
        ),
        habits=(
            Habit("Reports typos as 'typo: wrong -> right' and wants just that fix.", (r"typo",)),
        ),
    ),
)

ONE_OFFS = (
    User(
        "batch-once",
        "one-off",
        "Python/pytest",
        _sessions(
            "/home/ana/src/invoicer",
            "claude",
            _work(
                "Fix the two failing tests in tests/pdf. Do both, then commit.",
                "invoicer/pdf.py",
                "FONT = 'Arial'",
                "FONT = 'DejaVuSans'",
                "pytest tests/pdf -q",
                PY_OK,
                "Both pass; committed.",
                _commit("invoicer/pdf.py", "Use a font that ships with the image"),
            ),
            _work(
                "Why is the invoice number not zero-padded?",
                "invoicer/numbers.py",
                "return str(n)",
                "return f'{n:06d}'",
                "pytest -q",
                PY_OK,
                "It was formatted with str(); now padded to 6 digits.",
            ),
            _work(
                "Add a currency column to the export.",
                "invoicer/export.py",
                "['id', 'total']",
                "['id', 'total', 'currency']",
                "pytest -q",
                PY_OK,
                "Added.",
            ),
        ),
        must_not=(r"commit", r"\bboth\b|\ball\b"),
    ),
    User(
        "short-readme-once",
        "one-off",
        "TypeScript/pnpm",
        _sessions(
            "/home/kai/code/api-client",
            "claude",
            _work(
                "Rewrite the README intro. Keep it short, two sentences.",
                "README.md",
                "# api-client\n\nThis library is a client.",
                "# api-client\n\nA typed client for the Orders API. Retries, timeouts and pagination built in.",
                "pnpm test",
                JS_OK,
                "Rewritten.",
            ),
            _work(
                "Add a `baseUrl` check that throws on a missing scheme.",
                "src/client.ts",
                "this.base = base;",
                "if (!/^https?:\\/\\//.test(base)) throw new TypeError('baseUrl needs a scheme');\n    this.base = base;",
                "pnpm test",
                JS_OK,
                "Done.",
            ),
        ),
        must_not=(r"short|brief|concise|two sentences",),
    ),
    User(
        "port-this-once",
        "one-off",
        "Go",
        _sessions(
            "/home/wen/src/ledger",
            "claude",
            _work(
                "Start the API on port 8081 for this one, 8080 is taken by the mock.",
                "cmd/api/main.go",
                'addr := ":8080"',
                'addr := env("ADDR", ":8080")',
                "go test ./...",
                GO_OK,
                "ADDR=:8081 works now.",
            ),
            _work(
                "Add a health endpoint.",
                "internal/api/health.go",
                "",
                "func Health(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(204) }",
                "go test ./...",
                GO_OK,
                "Added /healthz.",
            ),
        ),
        must_not=(r"8081|\bport\b",),
    ),
    User(
        "customer-report",
        "one-off",
        "Python/Django",
        _sessions(
            "/home/claire/projets/cantine",
            "claude",
            _work(
                'A parent wrote in: "the app always crashes when I upload a photo of the menu from my phone, never on the laptop". Can you find out why?',
                "menus/uploads.py",
                "img = Image.open(f)",
                "img = ImageOps.exif_transpose(Image.open(f))",
                "python manage.py test menus",
                "Ran 15 tests in 0.41s\n\nOK",
                "HEIC photos from phones weren't handled; now converted.",
            ),
            _work(
                "Add an 'archived' flag to menus.",
                "menus/models.py",
                "nom = models.CharField(max_length=80)",
                "nom = models.CharField(max_length=80)\n    archive = models.BooleanField(default=False)",
                "python manage.py test menus",
                "Ran 15 tests in 0.40s\n\nOK",
                "Added.",
            ),
        ),
        must_not=(r"crash|photo|upload|phone|laptop",),
    ),
    User(
        "squash-once",
        "one-off",
        "Ruby/Rails",
        _sessions(
            "/home/sam/apps/shopfront",
            "claude",
            _work(
                "For this PR, squash the commits into one before pushing.",
                "app/models/coupon.rb",
                "validates :code",
                "validates :code, uniqueness: true",
                "bundle exec rspec spec/models/coupon_spec.rb",
                RB_OK,
                "Squashed into one and pushed.",
                Run(
                    "git reset --soft main && git commit -m 'Make coupon codes unique'",
                    "[coupon-unique 7d8e9f0] Make coupon codes unique",
                ),
            ),
            _work(
                "Show the coupon on the receipt.",
                "app/views/receipts/show.html.erb",
                "<%= @order.total %>",
                "<%= @order.total %> <%= @order.coupon&.code %>",
                "bundle exec rspec spec/views",
                RB_OK,
                "Shown.",
            ),
        ),
        must_not=(r"squash",),
    ),
    User(
        "plan-once",
        "one-off",
        "Python/pytest",
        _sessions(
            "/home/priya/work/gateway",
            "claude",
            _work(
                _PLAN.format(
                    title="Request ids",
                    context="Logs can't be joined across services.",
                    change="- middleware sets X-Request-Id",
                    check="- `pytest tests/test_ids.py`",
                ),
                "gateway/middleware.py",
                "",
                "async def request_id(req, call_next):\n    req.state.id = req.headers.get('x-request-id') or uuid4().hex\n    return await call_next(req)",
                "pytest tests/test_ids.py -q",
                PY_OK,
                "Implemented.",
            ),
            _work(
                "The health check should not log. Quiet it.",
                "gateway/health.py",
                "log.info('health')",
                "",
                "pytest -q",
                PY_OK,
                "Quiet now.",
            ),
            _work(
                "Bump httpx and run the tests.",
                "pyproject.toml",
                '"httpx>=0.26"',
                '"httpx>=0.27"',
                "pytest -q",
                PY_OK,
                "Bumped; green.",
            ),
        ),
        must_not=(r"\bplan\b",),
    ),
    User(
        "mixed-commit-style",
        "one-off",
        "TypeScript/pnpm",
        _sessions(
            "/home/mo/src/billing-ui",
            "claude",
            _work(
                "Fix the currency rounding and commit.",
                "src/money.ts",
                "Math.round(x)",
                "Math.round(x * 100) / 100",
                "pnpm test",
                JS_OK,
                "Committed.",
                _commit("src/money.ts", "fix: round currency to cents"),
            ),
            _work(
                "Add the invoice link and commit.",
                "src/InvoiceRow.tsx",
                "<td>{id}</td>",
                "<td><a href={`/invoices/${id}`}>{id}</a></td>",
                "pnpm test",
                JS_OK,
                "Committed.",
                _commit("src/InvoiceRow.tsx", "Link invoice ids to their page"),
            ),
            _work(
                "Remove the beta banner, commit.",
                "src/App.tsx",
                "<BetaBanner />",
                "",
                "pnpm test",
                JS_OK,
                "Committed.",
                Run(
                    'git add -A && git commit -m "Remove beta banner"',
                    "[main 5e6f7a8] Remove beta banner",
                ),
            ),
        ),
        must_not=(r"conventional|type prefix|imperative|no prefix", r"git add|stag"),
    ),
    User(
        "pasted-contributing",
        "one-off",
        "Go",
        _sessions(
            "/home/wen/src/ledger",
            "claude",
            (
                Ask(
                    "Our CONTRIBUTING says:\n> Always run `make lint` before pushing. Never commit generated files.\nIs the first part still true now that CI lints?"
                ),
                Run("cat Makefile", "lint:\n\tgolangci-lint run ./..."),
                Say(
                    "CI runs the same `golangci-lint run`, so it is redundant locally but still catches things sooner."
                ),
            ),
            _work(
                "Rename `acct` to `account` in the store package.",
                "internal/store/accounts.go",
                "func Get(acct string)",
                "func Get(account string)",
                "go test ./...",
                GO_OK,
                "Renamed.",
            ),
        ),
        must_not=(r"make lint|generated files",),
    ),
    User(
        "no-tests-this-time-de",
        "one-off",
        "Python/pytest",
        _sessions(
            "/home/jonas/dev/prototyp",
            "claude",
            (
                Ask(
                    "Bau einen schnellen Prototyp für den Upload. Diesmal bitte ohne Tests, ist nur zum Zeigen."
                ),
                Edit(
                    "app/upload.py", "", "def upload(datei):\n    return speicher.ablegen(datei)\n"
                ),
                Say("Prototyp steht, ohne Tests."),
            ),
            _work(
                "Jetzt die Fehlerbehandlung für zu große Dateien.",
                "app/upload.py",
                "return speicher.ablegen(datei)",
                "if datei.groesse > MAX:\n        raise ZuGross()\n    return speicher.ablegen(datei)",
                "pytest -q",
                PY_OK,
                "Eingebaut, Tests grün.",
            ),
        ),
        must_not=(r"ohne tests|without tests|no tests|skip.{0,10}tests",),
    ),
    User(
        "english-this-time-es",
        "one-off",
        "JavaScript/npm",
        _sessions(
            "/home/lucia/proyectos/reservas",
            "claude",
            (
                Ask(
                    "Explícame el flujo de reservas. Responde en inglés esta vez, es para un compañero que no habla español."
                ),
                Run(
                    "sed -n 1,40p src/reservas/flujo.js",
                    "export async function reservar(sala, hora) { /* ... */ }",
                ),
                Say(
                    "The booking flow checks the room's calendar, holds the slot for 5 minutes and confirms on payment."
                ),
            ),
            _work(
                "Añade un test para la reserva doble.",
                "test/reservas.test.js",
                "",
                "test('rechaza reserva doble', () => { /* ... */ });",
                "npm test",
                JS_OK,
                "Test añadido.",
            ),
        ),
        must_not=(r"ingl|english",),
    ),
    User(
        "repeated-in-one-session",
        "one-off",
        "Rust/cargo",
        _sessions(
            "/home/tomas/src/fetchr",
            "claude",
            (
                Ask("The status endpoint must return 404 for an unknown job, not 500."),
                Edit(
                    "src/api.rs",
                    "Err(e) => StatusCode::INTERNAL_SERVER_ERROR",
                    "Err(Error::NotFound) => StatusCode::NOT_FOUND,\n        Err(_) => StatusCode::INTERNAL_SERVER_ERROR",
                ),
                Run("cargo test", RS_OK),
                Say("Unknown jobs answer 404."),
                Ask("And the cancel endpoint too: 404 for an unknown job, not 500."),
                Edit(
                    "src/api.rs",
                    "cancel(id).map_err(|_| StatusCode::INTERNAL_SERVER_ERROR)",
                    "cancel(id).map_err(status_of)",
                ),
                Run("cargo test", RS_OK),
                Say("Cancel too."),
            ),
            _work(
                "Add a --quiet flag.",
                "src/main.rs",
                "verbose: bool,",
                "verbose: bool,\n    #[arg(long)]\n    quiet: bool,",
                "cargo test",
                RS_OK,
                "Added.",
            ),
        ),
        must_not=(r"404|unknown job",),
    ),
    User(
        "emphasis-about-one-table",
        "one-off",
        "Elixir/mix",
        _sessions(
            "/home/ines/src/clubhouse",
            "claude",
            _work(
                "IMPORTANT: the migration must not drop the legacy_members table, we still read from it. Add the new members table alongside.",
                "priv/repo/migrations/20260301_add_members.exs",
                "",
                "def change do\n    create table(:members) do\n      add :email, :string\n    end\n  end",
                "mix test",
                EX_OK,
                "New table added; legacy_members untouched.",
            ),
            _work(
                "List members by join date.",
                "lib/clubhouse/accounts.ex",
                "order_by: m.name",
                "order_by: m.inserted_at",
                "mix test",
                EX_OK,
                "Sorted.",
            ),
        ),
        must_not=(r"legacy_members|drop",),
    ),
    User(
        "table-once",
        "one-off",
        "Python/pytest",
        _sessions(
            "/home/noor/src/scheduler",
            "gemini",
            (
                Ask(
                    "Compare the three schedulers we tried (cron, APScheduler, Celery beat) as a table."
                ),
                Say(
                    "| scheduler | persistence | retries |\n|---|---|---|\n| cron | no | no |\n| APScheduler | yes | no |\n| Celery beat | yes | yes |"
                ),
            ),
            _work(
                "Move the nightly job to 02:00.",
                "scheduler/jobs.py",
                "hour=3",
                "hour=2",
                "pytest -q",
                PY_OK,
                "Moved.",
            ),
        ),
        must_not=(r"\btable\b",),
    ),
    User(
        "staging-mixed",
        "one-off",
        "Go",
        _sessions(
            "/home/wen/src/notes-api",
            "claude",
            _work(
                "Add tags to notes and commit.",
                "internal/notes/note.go",
                "Body string",
                "Body string\n\tTags []string",
                "go test ./...",
                GO_OK,
                "Committed.",
                Run(
                    'git add -A && git commit -m "Add tags to notes"',
                    "[main 3a4b5c6] Add tags to notes",
                ),
            ),
            _work(
                "Trim note titles, commit.",
                "internal/notes/note.go",
                "n.Title = t",
                "n.Title = strings.TrimSpace(t)",
                "go test ./...",
                GO_OK,
                "Committed.",
                _commit("internal/notes/note.go", "Trim note titles"),
            ),
        ),
        must_not=(r"git add|stag",),
    ),
    User(
        "issue-link-once",
        "one-off",
        "TypeScript/Vite",
        _sessions(
            "/home/kai/code/dashboard",
            "claude",
            _work(
                "See https://github.com/kai/dashboard/issues/9 for context: the export button does nothing in Safari.",
                "src/export/button.tsx",
                "window.open(url)",
                "location.assign(url)",
                "pnpm test",
                JS_OK,
                "Works in Safari now.",
            ),
            _work(
                "Make the sidebar collapsible.",
                "src/Sidebar.tsx",
                "<aside>",
                "<aside data-collapsed={collapsed}>",
                "pnpm test",
                JS_OK,
                "Collapsible.",
            ),
            _work(
                "Dark mode for the charts.",
                "src/charts/theme.ts",
                "background: '#fff'",
                "background: 'var(--bg)'",
                "pnpm test",
                JS_OK,
                "Done.",
            ),
        ),
        must_not=(r"issue|github\.com",),
    ),
)

#: Short requests said again (under five content words) and one-offs that look like them.
SHORT_REPEATS = (
    User(
        "no-new-deps-fr",
        "repeated",
        "Python/Django",
        _sessions(
            "/home/claire/dev/agenda",
            "claude",
            _work(
                "Ajoute le tri par date dans la liste des rendez-vous. Pas de nouvelle dépendance.",
                "agenda/views.py",
                "rdv = Rdv.objects.all()",
                "rdv = Rdv.objects.order_by('debut')",
                "pytest -q",
                PY_OK,
                "Tri ajouté, rien d'installé.",
            ),
            _work(
                "L'export iCal oublie le fuseau horaire, corrige-le. Toujours pas de nouvelle dépendance.",
                "agenda/ical.py",
                "dt.strftime(FMT)",
                "dt.astimezone(UTC).strftime(FMT)",
                "pytest -q",
                PY_OK,
                "Corrigé avec la bibliothèque standard.",
            ),
            _work(
                "Envoie un rappel la veille du rendez-vous, et pas de nouvelles dépendances.",
                "agenda/rappels.py",
                "",
                "def rappels(jour):\n    return Rdv.objects.filter(debut__date=jour + timedelta(days=1))",
                "pytest -q",
                PY_OK,
                "Rappels en place, sans paquet ajouté.",
            ),
        ),
        habits=(
            Habit(
                "No new dependencies.",
                (r"d[ée]pendance|dependenc",),
                (r"ajoute.{0,20}d[ée]pendance",),
            ),
        ),
    ),
    User(
        "public-api-stays",
        "repeated",
        "Rust/cargo",
        _sessions(
            "/home/ola/src/tiles",
            "codex",
            _work(
                "Speed up the tile cache lookup. Keep the public API unchanged.",
                "src/cache.rs",
                "self.items.iter().find(|t| t.key == key)",
                "self.index.get(&key)",
                "cargo test",
                RS_OK,
                "Lookups go through a HashMap now; no public signature changed.",
            ),
            _work(
                "Split the renderer into its own module, public API unchanged.",
                "src/render/mod.rs",
                "",
                "pub mod raster;\npub use raster::render;",
                "cargo test",
                RS_OK,
                "Moved; the re-export keeps `render` where it was.",
            ),
        ),
        habits=(Habit("Keeps the public API unchanged.", (r"public api", r"unchanged|keep|same")),),
    ),
    User(
        "type-hints-de",
        "repeated",
        "Python/pytest",
        _sessions(
            "/home/lena/code/fahrplan",
            "claude",
            _work(
                "Schreib den Parser für die Haltestellen. Überall mit Typannotationen.",
                "fahrplan/haltestellen.py",
                "",
                "def lies(zeile: str) -> Haltestelle:\n    return Haltestelle(*zeile.split(';'))",
                "pytest -q",
                PY_OK,
                "Parser fertig, annotiert.",
            ),
            _work(
                "Jetzt die Verspätungsberechnung, wieder überall mit Typannotationen.",
                "fahrplan/verspaetung.py",
                "",
                "def verspaetung(soll: time, ist: time) -> timedelta:\n    return ist - soll",
                "pytest -q",
                PY_OK,
                "Fertig.",
            ),
            _work(
                "Die Umstiegssuche, bitte überall mit Typannotationen.",
                "fahrplan/umstieg.py",
                "",
                "def umstiege(von: str, nach: str) -> list[Verbindung]:\n    return []",
                "pytest -q",
                PY_OK,
                "Gerüst steht, annotiert.",
            ),
        ),
        habits=(Habit("Type annotations everywhere.", (r"typannotation|type (hint|annotation)",)),),
    ),
)

SHORT_ONE_OFFS = (
    User(
        "same-task-again",
        "one-off",
        "TypeScript/Vitest",
        _sessions(
            "/home/kai/code/uploader",
            "claude",
            _work(
                "Fix the flaky chunk upload test.",
                "src/upload/chunks.test.ts",
                "await sleep(50)",
                "await vi.runAllTimersAsync()",
                "pnpm vitest run src/upload",
                JS_OK,
                "Fake timers instead of a sleep.",
            ),
            _work(
                "Fix the flaky chunk upload test, it failed again on CI.",
                "src/upload/chunks.ts",
                "setTimeout(retry, 100)",
                "setTimeout(retry, backoff(attempt))",
                "pnpm vitest run src/upload",
                JS_OK,
                "The retry timer now uses the backoff; it passes 50 runs in a row.",
            ),
        ),
        must_not=(r"flaky|chunk|upload",),
    ),
    User(
        "leave-module-alone-pt",
        "one-off",
        "Java/Maven",
        _sessions(
            "/home/bia/dev/loja",
            "claude",
            _work(
                "Corrige o cálculo do frete. Não mexe no pagamento.",
                "src/main/java/loja/Frete.java",
                "return peso * 2;",
                "return peso * tabela.taxa(cep);",
                "mvn -q test",
                JV_OK,
                "Frete corrigido, pagamento intocado.",
            ),
            _work(
                "Ajusta as cores do carrinho. Não mexe no layout.",
                "src/main/resources/static/carrinho.css",
                "color: #333;",
                "color: var(--texto);",
                "mvn -q test",
                JV_OK,
                "Cores ajustadas.",
            ),
        ),
        must_not=(r"pagamento|layout|mexe",),
    ),
    User(
        "keep-column-fr",
        "one-off",
        "Python/Django",
        _sessions(
            "/home/claire/dev/boutique",
            "claude",
            _work(
                "IMPORTANT : la migration ne doit pas supprimer la colonne ancien_prix, le reporting la lit encore.",
                "boutique/migrations/0042_prix.py",
                "",
                "operations = [migrations.AddField('produit', 'prix_ttc', models.DecimalField(max_digits=9, decimal_places=2))]",
                "pytest -q",
                PY_OK,
                "Colonne ajoutée, ancien_prix conservée.",
            ),
            _work(
                "Ajoute la recherche par nom de produit.",
                "boutique/views.py",
                "produits = Produit.objects.all()",
                "produits = Produit.objects.filter(nom__icontains=q)",
                "pytest -q",
                PY_OK,
                "Recherche ajoutée.",
            ),
        ),
        must_not=(r"ancien_prix|supprim",),
    ),
    User(
        "ops-owns-file",
        "one-off",
        "Go",
        _sessions(
            "/home/wen/src/relay",
            "codex",
            _work(
                "Raise the default timeout to 5s. Never edit deploy/values.yaml, ops owns that file.",
                "internal/config/defaults.go",
                "Timeout: 2 * time.Second",
                "Timeout: 5 * time.Second",
                "go test ./...",
                GO_OK,
                "Default raised in code; values.yaml untouched.",
            ),
            _work(
                "Log the request id on errors.",
                "internal/api/errors.go",
                'log.Printf("error: %v", err)',
                'log.Printf("error: %v request_id=%s", err, rid)',
                "go test ./...",
                GO_OK,
                "Logged.",
            ),
        ),
        must_not=(r"values\.yaml|ops owns",),
    ),
)

USERS = REPEATED + HANDOVER + ACTIONS + ONE_OFFS + SHORT_REPEATS + SHORT_ONE_OFFS
