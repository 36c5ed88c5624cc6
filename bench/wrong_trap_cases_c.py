# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, third part: a side tool's manifest that `git status` shows untracked at the
root beside new folders, in projects whose own manifest is tracked and so never listed
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

CASES = (DOTNET_UNTRACKED_TOOLING, KOTLIN_UNTRACKED_SCRIPTS)
