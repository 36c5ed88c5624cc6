# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, third part: a side tool's manifest that `git status` shows untracked at the
root beside new folders, in projects whose own manifest is tracked and so never listed; a
technology section that is stale, a dependency's, or a list of what not to use
(`bench/wrong_traps.py` runs them).

Every trap was written, its `wrong` and `may` patterns included, before any rule ran on it.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Read, Run, Say, Session, Trap

DOTNET_UNTRACKED_TOOLING = Trap(
    "dotnet-untracked-lint-tool",
    ".NET/C#",
    "a commit-lint `package.json` and two new folders untracked at the root of a C# service whose "
    "solution is tracked (not listed); its tests run with `dotnet test`",
    (
        Session(
            "codex",
            "/home/dev/src/invoicing",
            (
                Ask("Add commit message linting and check the tests still pass."),
                Run(
                    "git status -sb",
                    "## main...origin/main\n M README.md\n?? .husky/\n?? package.json\n?? scripts/\n?? tools/\n",
                ),
                Run(
                    "dotnet test",
                    "  Determining projects to restore...\n  All projects are up-to-date for restore.\n"
                    "Passed!  - Failed:     0, Passed:    42, Skipped:     0, Total:    42, Duration: 3 s - Invoicing.Tests.dll (net8.0)",
                ),
                Say("Commit linting is set up with a Husky hook; the C# tests pass (42 of 42)."),
            ),
        ),
    ),
    wrong=(
        (
            r"(javascript|typescript)( or (javascript|typescript))? project|written in (javascript|typescript)",
            "the `package.json` only holds a commit-lint tool; the service is C# built with dotnet",
        ),
    ),
    may=(r"dotnet test",),
)

KOTLIN_UNTRACKED_SCRIPTS = Trap(
    "kotlin-untracked-python-scripts",
    "Kotlin/Gradle",
    "a `requirements.txt` and two new folders of data scripts untracked at the root of a Kotlin "
    "Android app whose Gradle build is tracked (not listed); the session reads the app's Kotlin",
    (
        Session(
            "claude",
            "/home/dev/src/tracker",
            (
                Ask("Where do we log the step counts? I want to export them for a notebook."),
                Run(
                    "git status -s",
                    "?? notebooks/\n?? requirements.txt\n?? scripts/\n",
                ),
                Read(
                    "app/src/main/java/com/acme/tracker/StepLog.kt",
                    "package com.acme.tracker\n\nclass StepLog(private val store: StepStore) {\n"
                    "    fun record(steps: Int) = store.append(System.currentTimeMillis(), steps)\n}\n",
                ),
                Say(
                    "Step counts are recorded by `StepLog.record` in the app; the new notebooks "
                    "can read the exported CSV."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"python project|written in python|\(requirements\.txt",
            "`requirements.txt` belongs to side data scripts; the app is Kotlin",
        ),
    ),
    may=(r"steplog|kotlin",),
)

RAILS_STALE_STACK_SECTION = Trap(
    "rails-stale-stack-section",
    "Ruby/Rails",
    "a CLAUDE.md whose Tech Stack section still says MySQL and Resque, against the database.yml "
    "(PostgreSQL) and the Sidekiq jobs the session reads",
    (
        Session(
            "claude",
            "/home/dev/src/bookings",
            (
                Ask("Why do the reminder jobs run twice?"),
                Read(
                    "CLAUDE.md",
                    "# bookings\n\n## Tech Stack\n\n- Ruby on Rails 7\n- MySQL 8\n- Resque for background jobs\n\n"
                    "## Commands\n\n- `bin/rails test`\n",
                ),
                Read(
                    "config/database.yml",
                    "default: &default\n  adapter: postgresql\n  encoding: unicode\n\ndevelopment:\n  <<: *default\n  database: bookings_dev\n",
                ),
                Read(
                    "app/jobs/reminder_job.rb",
                    "class ReminderJob\n  include Sidekiq::Job\n\n  def perform(id)\n    Booking.find(id).remind!\n  end\nend\n",
                ),
                Run(
                    "bin/rails test test/jobs/reminder_job_test.rb",
                    "Running 3 tests in a single process\n...\nFinished in 0.41s\n3 runs, 5 assertions, 0 failures, 0 errors, 0 skips",
                ),
                Say("The job is enqueued from two callbacks; one is enough."),
            ),
        ),
    ),
    wrong=(
        (r"\bmysql\b", "the database.yml names PostgreSQL; CLAUDE.md's list is stale"),
        (r"\bresque\b", "the jobs are Sidekiq jobs"),
    ),
    may=(r"postgres|rails",),
)

PHOENIX_SIDE_STACK_SECTIONS = Trap(
    "phoenix-side-stack-sections",
    "Elixir/Phoenix",
    "a dependency's README and a sub-folder's AGENTS.md with their own Tech Stack lists, and a "
    "root CLAUDE.md section of technologies to avoid, in a Phoenix app",
    (
        Session(
            "codex",
            "/home/dev/src/rota",
            (
                Ask("Add an export of the weekly rota as CSV."),
                Read(
                    "CLAUDE.md",
                    "# rota\n\n## Technologies to avoid\n\n- MongoDB\n- jQuery\n\n## Commands\n\n- `mix test`\n",
                ),
                Read(
                    "deps/csv_kit/README.md",
                    "# csv_kit\n\n## Tech Stack\n\n- Node.js 20\n- Express\n",
                ),
                Read(
                    "assets/AGENTS.md",
                    "# assets\n\n## Tech Stack\n\n- esbuild\n- Svelte\n",
                ),
                Read(
                    "lib/rota_web/controllers/export_controller.ex",
                    "defmodule RotaWeb.ExportController do\n  use RotaWeb, :controller\nend\n",
                ),
                Run("mix test", "Finished in 0.4 seconds\n23 tests, 0 failures"),
                Say("The export is served from `ExportController`."),
            ),
        ),
    ),
    wrong=(
        (r"\bmongo(db)?\b", "MongoDB is listed as a technology to avoid"),
        (r"\bexpress\b|node\.js", "Node.js and Express are a dependency's README's"),
        (r"\bsvelte\b", "Svelte is the assets folder's, not the project's stack"),
    ),
    may=(r"mix test",),
)

CASES = (
    DOTNET_UNTRACKED_TOOLING,
    KOTLIN_UNTRACKED_SCRIPTS,
    RAILS_STALE_STACK_SECTION,
    PHOENIX_SIDE_STACK_SECTIONS,
)
