# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `v`: the edges of a release whose version was bumped earlier (a tag
deleted right after it was made on a feature branch, a fix commit that names the version a bug
came in while an old commit is tagged, checks that failed in their output or ran before a later
edit, a tag of a version no commit names), of the issue tracker the sessions drive (a tracker the user stopped using, one not set
up whose runs were masked by `|| echo`, a dependency's issues read upstream), of an approved plan's
checks (a plan the user rejected, a plan about another repository, a heading of tests to
delete, a check that failed when run with a flag), of a subagent's review verdicts worded
without the usual verdict words, and an Elixir app on SQLite whose MySQL driver serves a
read-only legacy store (`bench/wrong_traps.py` runs them).

These traps were written after the rules they check (release steps, the task tracker, an
approved plan's checks, a subagent report's statements): they guard those rules' edges.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Edit, Read, Run, Say, Session, Trap

RELEASE_TAG_DELETED = Trap(
    "release-tag-deleted",
    "Swift",
    "a version bumped in an earlier session is committed, pushed and tagged from a feature "
    "branch; the user has the tag deleted at once, to release from main after the merge",
    (
        Session(
            "claude",
            "/home/mo/code/Tidepool",
            (
                Ask(
                    "The version is already 2.1.0 in the podspec. Run the tests, commit and tag the release."
                ),
                Run("git branch --show-current", "fix/ci-cache\n"),
                Run("swift build", "Building for debugging...\nBuild complete! (4.21s)\n"),
                Run(
                    "swift test",
                    "Test Suite 'All tests' started at 2026-05-04 09:01:12.004.\n"
                    "Executed 84 tests, with 0 failures (0 unexpected) in 1.912 (1.934) seconds\n",
                ),
                Run(
                    'git commit -am "Release 2.1.0"',
                    "[fix/ci-cache 5d1e0a7] Release 2.1.0\n 2 files changed, 9 insertions(+), 2 deletions(-)\n",
                ),
                Run(
                    "git push origin fix/ci-cache",
                    "To github.com:mo/Tidepool.git\n   81c3f2e..5d1e0a7  fix/ci-cache -> fix/ci-cache\n",
                ),
                Run(
                    "git tag v2.1.0 && git push origin v2.1.0",
                    "To github.com:mo/Tidepool.git\n * [new tag]         v2.1.0 -> v2.1.0\n",
                ),
                Say("Tagged `v2.1.0` and pushed it."),
                Ask(
                    "Wait, that was on fix/ci-cache, not main. Delete the tag everywhere, we'll release from main once the branch is merged."
                ),
                Run(
                    "git tag -d v2.1.0 && git push origin --delete v2.1.0",
                    "Deleted tag 'v2.1.0' (was 5d1e0a7)\nTo github.com:mo/Tidepool.git\n - [deleted]         v2.1.0\n",
                ),
                Say("Deleted `v2.1.0` locally and on the remote; nothing is released yet."),
            ),
        ),
    ),
    wrong=(
        (r"To release, as `v?2\.1\.0`", "a tag deleted right after it was made: no release"),
        (
            r"release[^\n]*git push origin fix/ci-cache",
            "a feature branch's push is no release step",
        ),
    ),
    may=(r"swift test",),
)

RELEASE_OLD_COMMIT_TAGGED = Trap(
    "release-old-commit-tagged",
    "C++/CMake",
    "a fix commit names the version the crash came in, then a missing tag is put on the old "
    "commit that bumped that version months ago",
    (
        Session(
            "codex",
            "/home/mo/code/quillparse",
            (
                Ask(
                    "Fix the crash on empty front matter reported against 3.4.0. Also we never tagged 3.4.0 back in March: tag the commit that bumped it and push the tag."
                ),
                Read(
                    "src/front_matter.cpp",
                    'std::string_view FrontMatter::body(std::string_view doc) {\n  auto end = doc.find("---", 3);\n  return doc.substr(end + 4);\n}\n',
                ),
                Edit(
                    "src/front_matter.cpp",
                    "  return doc.substr(end + 4);\n",
                    "  if (end == std::string_view::npos) return {};\n  return doc.substr(end + 4);\n",
                ),
                Run(
                    "cmake --build build -j4 && ctest --test-dir build --output-on-failure",
                    "[100%] Built target quillparse_tests\nTest project /home/mo/code/quillparse/build\n"
                    "    Start 1: front_matter\n1/3 Test #1: front_matter .....................   Passed    0.02 sec\n"
                    "100% tests passed, 0 tests failed out of 3\n",
                ),
                Run(
                    'git commit -am "Fix crash on empty front matter (regression in 3.4.0)"',
                    "[main 9e41b70] Fix crash on empty front matter (regression in 3.4.0)\n 1 file changed, 1 insertion(+)\n",
                ),
                Run(
                    "git push origin main",
                    "To github.com:mo/quillparse.git\n   4c0d2aa..9e41b70  main -> main\n",
                ),
                Run(
                    "git log --oneline -S'VERSION 3.4.0' -- CMakeLists.txt",
                    "a1b2c3d Bump version to 3.4.0\n",
                ),
                Run(
                    'git tag -a v3.4.0 a1b2c3d -m "Release 3.4.0" && git push origin v3.4.0',
                    "To github.com:mo/quillparse.git\n * [new tag]         v3.4.0 -> v3.4.0\n",
                ),
                Say(
                    "Fixed the crash (an unterminated front matter block returns an empty body) and tagged the March bump commit `a1b2c3d` as `v3.4.0`."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"commit `Fix crash[^`]*`",
            "a fix commit naming the version a crash came in is no release commit",
        ),
        (r"To release, as `v?3\.4\.0`", "a tag put on an old commit after the fact is no release"),
    ),
    may=(r"ctest",),
)

RELEASE_FAILED_AND_STALE_CHECKS = Trap(
    "release-failed-and-stale-checks",
    "Haskell/Cabal",
    "a release of a version bumped earlier: hlint passed before a later code edit, and the "
    "test suite failed in its output while `| tail` exited 0",
    (
        Session(
            "claude",
            "/home/mo/code/sluice",
            (
                Ask("1.2.0 is already in sluice.cabal and the changelog. Release it."),
                Run("hlint src", "No hints\n"),
                Read(
                    "src/Sluice/Throttle.hs",
                    "module Sluice.Throttle (wait) where\n\nwait :: Int -> IO ()\nwait n = threadDelay (n * 1000)\n",
                ),
                Edit(
                    "src/Sluice/Throttle.hs",
                    "wait n = threadDelay (n * 1000)\n",
                    "wait n = threadDelay (max 0 n * 1000)\n",
                ),
                Run(
                    "cabal build",
                    "Building library for sluice-1.2.0..\n[3 of 5] Compiling Sluice.Throttle\n",
                ),
                Run(
                    "cabal test 2>&1 | tail -4",
                    "  test/ThrottleSpec.hs:31:7:\n  1) Sluice.Throttle.wait negative delay returns at once\n"
                    "Test suite spec: FAIL\n1 of 1 test suites (1 of 1 test cases) failed.\n",
                ),
                Ask("That spec is flaky on CI as well, ship it anyway."),
                Run(
                    'git commit -am "Release 1.2.0"',
                    "[main 0b9d2e4] Release 1.2.0\n 1 file changed, 1 insertion(+), 1 deletion(-)\n",
                ),
                Run(
                    "git push origin main",
                    "To github.com:mo/sluice.git\n   77aa210..0b9d2e4  main -> main\n",
                ),
                Run("git tag v1.2.0", ""),
                Run(
                    "git push origin v1.2.0",
                    "To github.com:mo/sluice.git\n * [new tag]         v1.2.0 -> v1.2.0\n",
                ),
                Say("Released `v1.2.0`; the throttle spec still fails, as on CI."),
            ),
        ),
    ),
    wrong=(
        (
            r"To release[^\n]*hlint",
            "hlint passed before a later code edit, not on what was released",
        ),
        (
            r"To release[^\n]*cabal test",
            "the test suite failed (its output says so; `tail` exited 0)",
        ),
    ),
    may=(r"To release, as `v1\.2\.0`",),
)

RELEASE_TAG_NEVER_COMMITTED = Trap(
    "release-tag-never-committed",
    "C#/.NET",
    "a tag of a version no commit of the session names, after a commit about something else "
    "and a passing pack",
    (
        Session(
            "codex-shell",
            "/home/mo/code/Quire",
            (
                Ask("Fix the README badges, then tag 0.9.0 so the package workflow runs."),
                Edit(
                    "README.md",
                    "[![build](https://ci.example/badge.svg)]",
                    "[![build](https://github.com/mo/Quire/actions/workflows/ci.yml/badge.svg)]",
                ),
                Run(
                    "dotnet pack -c Release",
                    "  Successfully created package '/home/mo/code/Quire/src/Quire/bin/Release/Quire.0.9.0.nupkg'.\n",
                ),
                Run(
                    'git commit -am "Fix README badges"',
                    "[main 3c9e1f0] Fix README badges\n 1 file changed, 1 insertion(+), 1 deletion(-)\n",
                ),
                Run(
                    "git tag v0.9.0 && git push origin main --tags",
                    "To github.com:mo/Quire.git\n   a41d2c9..3c9e1f0  main -> main\n * [new tag]         v0.9.0 -> v0.9.0\n",
                ),
                Say("Fixed the badges and pushed `v0.9.0`; the package workflow is running."),
            ),
        ),
    ),
    wrong=((r"To release, as `v?0\.9\.0`", "neither a bump nor a commit of 0.9.0 in the session"),),
    may=(r"dotnet pack",),
)

TRACKER_STOPPED = Trap(
    "tracker-stopped-using",
    "Ruby/Rails",
    "beads drove the work in the first session; in the next the user says they stopped using "
    "it and the session uses GitHub issues",
    (
        Session(
            "claude",
            "/home/mo/code/tallyho",
            (
                Ask("Pick the next ready task and do it."),
                Run(
                    "bd ready",
                    "th-7  Paginate the invoices index  [P1]\nth-9  Add CSV export  [P2]\n",
                ),
                Run("bd update th-7 --status in_progress", "Updated th-7\n"),
                Run(
                    "bin/rails test test/controllers/invoices_controller_test.rb",
                    "6 runs, 14 assertions, 0 failures, 0 errors, 0 skips\n",
                ),
                Run("bd close th-7 --reason done", "Closed th-7\n"),
                Say("Paginated the invoices index (25 a page) and closed th-7."),
            ),
        ),
        Session(
            "claude",
            "/home/mo/code/tallyho",
            (
                Ask(
                    "We stopped using beads last week, the issues all live on GitHub now. Look at the open bugs there and fix the worst one."
                ),
                Run(
                    "gh issue list --label bug",
                    "41  Totals off by a cent on refunds  bug\n38  Flash message shown twice  bug\n",
                ),
                Run("gh issue view 41", "title:\tTotals off by a cent on refunds\nstate:\tOPEN\n"),
                Run("bin/rails test", "212 runs, 590 assertions, 0 failures, 0 errors, 0 skips\n"),
                Say("Refund totals now round once, at the end; all 212 tests pass."),
            ),
        ),
    ),
    wrong=((r"tracked in beads", "a tracker the user said they stopped using"),),
    may=(r"GitHub issues|bin/rails test",),
)

TRACKER_NOT_SET_UP = Trap(
    "tracker-not-set-up",
    "PHP/Laravel",
    "beads commands masked by `2>/dev/null || echo` on a machine without it, and the tracker "
    "grepped in the instruction file",
    (
        Session(
            "claude",
            "/home/mo/code/parcelbay",
            (
                Ask(
                    "Queued label jobs run twice after a deploy. Check if this is a known framework bug first."
                ),
                Run(
                    'bd ready 2>/dev/null || echo "beads is not set up here"',
                    "beads is not set up here\n",
                ),
                Run(
                    "bd list --status=open 2>/dev/null || true",
                    "",
                ),
                Run("grep -n 'bd ' AGENTS.md", "12:- Track work with `bd` when it is installed.\n"),
                Read(
                    "config/queue.php",
                    "<?php\n\nreturn [\n    'connections' => [\n        'redis' => [\n            'driver' => 'redis',\n            'retry_after' => 90,\n        ],\n    ],\n];\n",
                ),
                Edit("config/queue.php", "'retry_after' => 90,", "'retry_after' => 330,"),
                Run(
                    "php artisan test",
                    "  Tests:    64 passed (171 assertions)\n  Duration: 3.21s\n",
                ),
                Say(
                    "The jobs outlive `retry_after`, so the worker hands them out again: raised `retry_after` to 330 s, above the 300 s label job timeout."
                ),
            ),
        ),
    ),
    wrong=((r"tracked in beads", "beads is not installed here: its runs were masked"),),
    may=(r"php artisan test",),
)

TRACKER_UPSTREAM = Trap(
    "tracker-upstream-issues",
    "Swift",
    "a dependency's GitHub issues searched and read with `gh issue … -R` to see whether a bug "
    "is known upstream",
    (
        Session(
            "gemini",
            "/home/mo/code/Wavelet",
            (
                Ask(
                    "The server leaks a channel on every cancelled upload. Is this a known swift-nio bug?"
                ),
                Run(
                    'gh issue list -R apple/swift-nio --search "channel leak cancelled" --state all',
                    "2890  Channel not closed when the handler throws during cancellation  CLOSED\n",
                ),
                Run(
                    "gh issue view 2890 -R apple/swift-nio",
                    "title:\tChannel not closed when the handler throws during cancellation\nstate:\tCLOSED\nFixed in 2.65.0\n",
                ),
                Run(
                    "swift package show-dependencies | grep swift-nio",
                    "├── swift-nio<https://github.com/apple/swift-nio.git@2.62.0>\n",
                ),
                Run(
                    "swift package update swift-nio && swift test",
                    "Executed 131 tests, with 0 failures (0 unexpected) in 4.02 seconds\n",
                ),
                Say(
                    "It was apple/swift-nio#2890, fixed in 2.65.0: updated swift-nio from 2.62.0; the tests pass."
                ),
            ),
        ),
    ),
    wrong=(
        (r"tracked in GitHub issues", "the issues read were a dependency's, not the project's"),
    ),
    may=(r"swift test",),
)

PLAN_REJECTED = Trap(
    "plan-rejected",
    "Kotlin/Gradle",
    "an approved plan adds ktlint and verifies with its check task; mid-way the user scraps "
    "the plan and the build file is reverted",
    (
        Session(
            "claude",
            "/home/mo/code/trailmix",
            (
                Ask(
                    "Implement the following plan:\n\n# Add ktlint to the build\n\n## Context\n\nFormatting drifts between IDEs.\n\n"
                    "## Changes\n\n1. Apply `org.jlleitschuh.gradle.ktlint` in `app/build.gradle.kts`.\n2. Reformat the sources once.\n\n"
                    "## Verification\n\n1. `./gradlew ktlintCheck` — no violations\n2. `./gradlew test` — all tests pass\n"
                ),
                Read(
                    "app/build.gradle.kts",
                    'plugins {\n    kotlin("jvm") version "2.0.21"\n    application\n}\n',
                ),
                Edit(
                    "app/build.gradle.kts",
                    "    application\n}\n",
                    '    application\n    id("org.jlleitschuh.gradle.ktlint") version "12.1.1"\n}\n',
                ),
                Ask(
                    "No, scrap this whole plan, the reformat would wreck every open branch. Revert the build file and leave it as it was."
                ),
                Run("git checkout -- app/build.gradle.kts", ""),
                Run(
                    "./gradlew test",
                    "BUILD SUCCESSFUL in 14s\n5 actionable tasks: 2 executed, 3 up-to-date\n",
                ),
                Say("Reverted `app/build.gradle.kts`; the build is as it was and the tests pass."),
            ),
        ),
    ),
    wrong=((r"ktlint", "a plan the user scrapped: its check task is not the project's"),),
    may=(r"gradlew test",),
)

PLAN_OTHER_REPOSITORY = Trap(
    "plan-other-repository",
    "Elixir/Phoenix",
    "a session in a Phoenix app implements a plan for the team's Android app in a sibling "
    "checkout; the plan's verification lists Gradle tasks and names no path",
    (
        Session(
            "claude",
            "/home/mo/code/storefront",
            (
                Ask(
                    "Implement the following plan:\n\n# Push-notification opt-in on Android\n\n## Context\n\n"
                    "The Android app lives in ~/code/storefront-android; the Phoenix side already exposes `PUT /api/devices/:id/opt_in`.\n\n"
                    "## Changes\n\n1. Add an opt-in switch to `SettingsScreen.kt`.\n2. Call the endpoint from `DevicesRepository.kt`.\n\n"
                    "## Verification\n\n1. `./gradlew testDebugUnitTest` — unit tests pass\n2. `./gradlew lintDebug` — no new warnings\n"
                ),
                Run(
                    "ls ~/code/storefront-android",
                    "app\nbuild.gradle.kts\ngradlew\nsettings.gradle.kts\n",
                ),
                Edit(
                    "/home/mo/code/storefront-android/app/src/main/java/shop/settings/SettingsScreen.kt",
                    "    NotificationsHeader()\n",
                    "    NotificationsHeader()\n    OptInSwitch(state.optIn, onChange = viewModel::setOptIn)\n",
                ),
                Run(
                    "cd ~/code/storefront-android && ./gradlew testDebugUnitTest",
                    "BUILD SUCCESSFUL in 41s\n27 actionable tasks: 9 executed, 18 up-to-date\n",
                ),
                Run(
                    "mix test test/storefront_web/controllers/device_controller_test.exs",
                    "Finished in 0.2 seconds\n4 tests, 0 failures\n",
                ),
                Say(
                    "The switch calls `PUT /api/devices/:id/opt_in`; the Android unit tests and the Phoenix device tests pass."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![-\s]*In `~/code/storefront-android/`).*gradlew",
            "the plan's checks are the Android app's, in another checkout (said with that folder, they are right)",
        ),
    ),
    may=(r"mix test",),
)

PLAN_TESTS_TO_DELETE = Trap(
    "plan-tests-to-delete",
    "C#/.NET",
    "an approved plan lists the tests it deletes under a 'Tests to delete' heading, and its "
    "verification's `dotnet test` failed every time it ran (with `--nologo`) on a Windows-only "
    "project; one test project passes",
    (
        Session(
            "claude",
            "/home/mo/code/Ledgerline",
            (
                Ask(
                    "Implement the following plan:\n\n# Drop the v1 export API\n\n## Changes\n\n"
                    "1. Delete `ExportV1Controller.cs` and its route.\n\n"
                    "## Tests to delete\n\n- `dotnet test --filter FullyQualifiedName~ExportV1` (the v1 export tests go away with the controller)\n\n"
                    "## Verification\n\n1. `dotnet test` — all tests pass\n"
                ),
                Run(
                    "rm src/Ledgerline.Api/Controllers/ExportV1Controller.cs tests/Ledgerline.Tests/ExportV1Tests.cs",
                    "",
                ),
                Run(
                    "dotnet test --nologo",
                    "/usr/share/dotnet/sdk/8.0.404/Sdks/Microsoft.NET.Sdk/targets/Microsoft.NET.TargetFrameworkInference.targets(166,5): "
                    "error NETSDK1100: To build a project targeting Windows on this operating system, set the EnableWindowsTargeting property to true. "
                    "[/home/mo/code/Ledgerline/src/Ledgerline.Desktop/Ledgerline.Desktop.csproj]\n",
                    1,
                ),
                Run(
                    "dotnet test tests/Ledgerline.Tests --nologo",
                    "Passed!  - Failed:     0, Passed:   143, Skipped:     0, Total:   143, Duration: 2 s - Ledgerline.Tests.dll (net8.0)\n",
                ),
                Say(
                    "Removed the v1 export controller and its tests. The whole solution can't build here (the WPF desktop project targets Windows); `dotnet test tests/Ledgerline.Tests` passes, 143 tests."
                ),
            ),
        ),
    ),
    wrong=(
        (r"ExportV1", "tests the plan deletes are no check"),
        (
            r"approved plan[^\n]*`dotnet test`",
            "the plan's `dotnet test` failed every time it ran here",
        ),
    ),
    may=(r"dotnet test",),
)

REVIEW_VERDICTS = Trap(
    "review-verdicts-plain-words",
    "PHP/Laravel",
    "a review subagent's verdicts on the session's diff, worded without 'correctly' or "
    "'touched': the scope of the diff, nothing else to change, the new tests pass, looks good",
    (
        Session(
            "claude",
            "/home/mo/code/invoicely",
            (
                Ask(
                    "Creating an invoice without a due date gives a 500. Fix it and have the change reviewed."
                ),
                Read(
                    "app/Http/Requests/StoreInvoiceRequest.php",
                    "<?php\n\nclass StoreInvoiceRequest extends FormRequest\n{\n    public function rules(): array\n    {\n        return ['amount' => 'required|numeric'];\n    }\n}\n",
                ),
                Edit(
                    "app/Http/Requests/StoreInvoiceRequest.php",
                    "        return ['amount' => 'required|numeric'];\n",
                    "        return ['amount' => 'required|numeric', 'due_date' => 'required|date|after_or_equal:today'];\n",
                ),
                Run(
                    "php artisan test --filter=InvoiceTest",
                    "  Tests:    9 passed (23 assertions)\n  Duration: 0.61s\n",
                ),
                Ask(
                    "<task-notification>\n<task-id>a81c</task-id>\n<status>completed</status>\n"
                    '<summary>Agent "Review the due-date fix" completed</summary>\n<result>'
                    "## Review\n\n"
                    "- The diff only changes `StoreInvoiceRequest.php` and `InvoiceTest.php`.\n"
                    "- The new `due_date` rule in `StoreInvoiceRequest::rules` looks good and matches the `due_date` column of the migration.\n"
                    "- Both new tests in `InvoiceTest` pass and cover the missing and past `due_date` cases.\n"
                    "- Nothing else in `InvoiceController` or `Invoice` needs changing for this fix.\n"
                    "</result>\n</task-notification>"
                ),
                Say(
                    "The review found nothing to change; the fix validates `due_date` and the tests pass."
                ),
            ),
        ),
    ),
    wrong=(
        (r"only changes", "the scope of one diff, which a later session does not have"),
        (r"looks good", "a reviewer's verdict on the change"),
        (r"new tests", "a verdict on the session's own tests"),
        (r"needs? changing", "a verdict on what the fix needs"),
    ),
    may=(r"php artisan test",),
)

ELIXIR_SQLITE_LEGACY_MYSQL = Trap(
    "elixir-sqlite-legacy-mysql",
    "Elixir/Phoenix",
    "a Phoenix app whose Repo is on SQLite (ecto_sqlite3), with MyXQL for a read-only legacy "
    "Repo an import reads; `mix test` prints its progress dots, and the legacy-tagged tests "
    "fail without the VPN",
    (
        Session(
            "codex",
            "/home/mo/code/tally",
            (
                Ask("Import last month's orders from the old shop and show them on the dashboard."),
                Read(
                    "mix.exs",
                    "defmodule Tally.MixProject do\n  use Mix.Project\n\n  defp deps do\n    [\n"
                    '      {:phoenix, "~> 1.7.14"},\n      {:phoenix_live_view, "~> 1.0"},\n'
                    '      {:ecto_sql, "~> 3.12"},\n      {:ecto_sqlite3, "~> 0.17"},\n      {:myxql, "~> 0.7"}\n    ]\n  end\nend\n',
                ),
                Read(
                    "lib/tally/repo.ex",
                    "defmodule Tally.Repo do\n  use Ecto.Repo, otp_app: :tally, adapter: Ecto.Adapters.SQLite3\nend\n",
                ),
                Read(
                    "lib/tally/legacy_repo.ex",
                    "defmodule Tally.LegacyRepo do\n  # Read-only: the old shop's orders, for the import.\n"
                    "  use Ecto.Repo, otp_app: :tally, adapter: Ecto.Adapters.MyXQL, read_only: true\nend\n",
                ),
                Read(
                    "config/dev.exs",
                    'import Config\n\nconfig :tally, Tally.Repo, database: Path.expand("../tally_dev.db", __DIR__)\n\n'
                    'config :tally, Tally.LegacyRepo,\n  hostname: "shop-legacy.internal",\n  database: "shop",\n  username: "readonly"\n',
                ),
                Run(
                    "mix test",
                    "Running ExUnit with seed: 4242, max_cases: 16\nExcluding tags: [:legacy_db]\n\n"
                    "......................................\nFinished in 0.5 seconds (0.4s async, 0.1s sync)\n38 tests, 0 failures, 4 excluded\n",
                ),
                Run(
                    "mix test --include legacy_db",
                    "Running ExUnit with seed: 911, max_cases: 16\nIncluding tags: [:legacy_db]\n\n"
                    "......\n\n  1) test imports last month's orders (Tally.ImportTest)\n"
                    "     ** (DBConnection.ConnectionError) (shop-legacy.internal:3306) nxdomain\n\n"
                    "....\nFinished in 1.2 seconds (0.4s async, 0.8s sync)\n42 tests, 4 failures\n",
                    2,
                ),
                Say(
                    "The legacy-tagged tests need the VPN to reach the old shop's MySQL, so they're excluded by default; the import reads `Tally.LegacyRepo` and writes orders through `Tally.Repo` (SQLite)."
                ),
                Run(
                    "mix test",
                    "Running ExUnit with seed: 77, max_cases: 16\nExcluding tags: [:legacy_db]\n\n.........................................\nFinished in 0.5 seconds\n41 tests, 0 failures, 4 excluded\n",
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"(?:database|data layer|data store|stores? (?:its )?data|persist\w*|Repo)[^.\n]*\bMySQL",
            "the app's Repo is on SQLite; MySQL is a read-only legacy source",
        ),
        (r"MySQL (?:project|app|database)\b", "MySQL is not the app's database"),
        (r"To run the tests[^\n]*--include legacy_db", "the legacy-tagged run failed"),
    ),
    may=(r"sqlite",),
)

CASES: tuple[Trap, ...] = (
    RELEASE_TAG_DELETED,
    RELEASE_OLD_COMMIT_TAGGED,
    RELEASE_FAILED_AND_STALE_CHECKS,
    RELEASE_TAG_NEVER_COMMITTED,
    TRACKER_STOPPED,
    TRACKER_NOT_SET_UP,
    TRACKER_UPSTREAM,
    PLAN_REJECTED,
    PLAN_OTHER_REPOSITORY,
    PLAN_TESTS_TO_DELETE,
    REVIEW_VERDICTS,
    ELIXIR_SQLITE_LEGACY_MYSQL,
)
