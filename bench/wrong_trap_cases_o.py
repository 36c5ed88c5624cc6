# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, fifteenth part: the user's standing rules said once in a first prompt or a
late message, beside one-off task instructions that a rule could keep as the user's way (a
task after a "going forward" marker, a task after a list of house rules, a directive whose
reason is of the moment, a rule naming a code name that ends in "!") (`bench/wrong_traps.py`
runs them).

Every trap was written, its `wrong` patterns included, before any rule ran on it.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Run, Say, Session, Trap, Write

TASK_AFTER_MARKER = Trap(
    "task-after-marker",
    "Swift",
    "a rule said after 'for future reference', then a one-off commit message and a port in the same message",
    (
        Session(
            "claude",
            "/home/ines/ios/lumen",
            (
                Ask("Add a settings toggle for haptics."),
                Write(
                    "Lumen/Settings/SettingsView.swift",
                    'Toggle("Haptics", isOn: $vm.hapticsEnabled)\n',
                ),
                Run("xcodebuild test -scheme Lumen", "** TEST SUCCEEDED **"),
                Say("Added the haptics toggle; tests pass."),
                Ask(
                    "ok. for future reference: put new user defaults keys in Keys.swift, not inline strings. Commit this as 'settings: haptics toggle' and run the mock server on port 4010 for this check."
                ),
                Run(
                    "git commit -am 'settings: haptics toggle'",
                    "[main 1a2b3c4] settings: haptics toggle",
                ),
                Say("Committed."),
            ),
        ),
    ),
    wrong=(
        (r"haptics toggle'", "the commit message was for this one commit, not a habit"),
        (r"port 4010", "the port was for this one check"),
    ),
    may=(r"Keys\.swift",),
)

TASK_AFTER_HOUSE_RULES = Trap(
    "task-after-house-rules",
    "Ruby",
    "a list of house rules in a first prompt, then a page size and a version bump for this change only",
    (
        Session(
            "codex",
            "/home/bo/rails/depot",
            (
                Ask(
                    "Fix the N+1 on the orders index. House rules: use includes, not preload, run bin/rails test before you say it's done, and never edit db/schema.rb by hand. Use a page size of 20 for this page and bump the version to 3.4.1 in this change only."
                ),
                Write(
                    "app/controllers/orders_controller.rb",
                    "def index\n  @orders = Order.includes(:line_items).page(params[:page]).per(20)\nend\n",
                ),
                Run("bin/rails test", "212 runs, 640 assertions, 0 failures, 0 errors, 0 skips"),
                Say("The index uses includes(:line_items) with 20 a page; 212 tests pass."),
            ),
        ),
    ),
    wrong=(
        (r"page size of 20|per\(20\)", "the page size was for this page only"),
        (r"3\.4\.1", "the version bump was for this change only"),
    ),
    may=(r"schema\.rb", r"includes"),
)

REASON_OF_THE_MOMENT = Trap(
    "reason-of-the-moment",
    "Kotlin",
    "a directive whose reason is of the moment ('we need it for the demo'), beside one with the team's way as reason",
    (
        Session(
            "claude",
            "/home/marek/work/trailmix-android",
            (
                Ask(
                    "Don't merge the offline-banner branch, we need it for the demo tomorrow. And don't hardcode strings in composables, we keep all user-visible text in strings.xml."
                ),
                Run("./gradlew testDebugUnitTest", "BUILD SUCCESSFUL in 41s"),
                Say("Left the branch unmerged; tests pass."),
            ),
        ),
    ),
    wrong=((r"merge the offline-banner branch", "the branch was kept for one demo"),),
    may=(r"strings\.xml|hardcode strings",),
)

CODE_BANG_RULE = Trap(
    "code-bang-rule",
    "Elixir",
    "a rule naming a function that ends in '!' ('never use Repo.insert! in request paths'), the fix moving to Repo.insert",
    (
        Session(
            "codex",
            "/home/lena/src/orchard",
            (
                Ask(
                    "The signup flow crashes when the email is taken. FYI our rule is to never use Repo.insert! in request paths, we handle {:error, changeset}."
                ),
                Run("mix test", "87 tests, 1 failure", 1),
                Write(
                    "lib/orchard/accounts.ex",
                    "def register_user(attrs) do\n  %User{} |> User.changeset(attrs) |> Repo.insert()\nend\n",
                ),
                Run("mix test", "87 tests, 0 failures"),
                Say("register_user now returns {:error, changeset}; 87 tests pass."),
            ),
        ),
    ),
    wrong=(
        (
            r"never use Repo\.insert(?!!)",
            "the rule rules out Repo.insert!, not Repo.insert, which the fix uses",
        ),
    ),
    may=(r"Repo\.insert!",),
)

CASES = (TASK_AFTER_MARKER, TASK_AFTER_HOUSE_RULES, REASON_OF_THE_MOMENT, CODE_BANG_RULE)
