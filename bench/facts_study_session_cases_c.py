# ruff: noqa: E501  (transcript text: summaries and outputs are kept as one string a line)
"""The facts study's third session set: the language of a project whose session went on from a
conversation that ran out of context. The summary the host wrote at that point lists the files
the earlier conversation read and changed ("Files and Code Sections"), and the continued session
itself may touch no code at all. The must-fire cases are a Kotlin app and an Elixir service whose
summary lists their code files; the traps are a summary that lists the files of another
repository (paths outside the project) beside one of this project's documents, and a summary
whose code files are all vendored or generated. Every case, its facts and its `never` patterns
included, was written before any rule ran on it (`python -m bench.facts_study_sessions --set c`).
"""

from __future__ import annotations

from bench.facts_study_session_cases import Case, fact, never
from bench.trap_transcripts import Ask, Run, Say, one_session


def _continued(ask: str, files: str, current: str) -> str:
    return (
        "This session is being continued from a previous conversation that ran out of context."
        f" The conversation is summarized below:\nAnalysis:\nThe user asked me to {ask}.\n\n"
        f"Summary:\n1. Primary Request and Intent:\n   The user asked to {ask}.\n\n"
        "2. Key Technical Concepts:\n   - Offline-first storage\n\n"
        f"3. Files and Code Sections:\n{files}\n\n"
        "4. Errors and fixes:\n   - None\n\n"
        "5. Pending Tasks:\n   - None\n\n"
        f"6. Current Work:\n   {current}\n\n"
        "Please continue the conversation from where we left it off without asking the user any"
        " further questions. Continue with the last task that you were asked to work on."
    )


KOTLIN_SUMMARY = Case(
    "summary-files-kotlin-app",
    "Kotlin (Android)",
    one_session(
        "/home/eva/src/notely",
        Ask(
            _continued(
                "make notes sync when the app comes back online",
                "   - **app/src/main/java/com/eva/notely/data/NoteRepository.kt**\n     - Added a pending-changes queue\n"
                "   - **app/src/main/java/com/eva/notely/sync/SyncWorker.kt**\n     - New WorkManager worker that flushes the queue\n"
                "   - **app/build.gradle.kts**\n     - Added `androidx.work:work-runtime-ktx`\n",
                "The worker is written; I was about to describe the change to the user.",
            )
        ),
        Run(
            "git status --short",
            " M app/build.gradle.kts\n M app/src/main/java/com/eva/notely/data/NoteRepository.kt\n?? app/src/main/java/com/eva/notely/sync/\n",
        ),
        Say(
            "Pending edits now queue up offline and `SyncWorker` flushes them when the network is back."
        ),
    ),
    (fact("written in Kotlin", r"\bKotlin\b"),),
    (never(r"(?-i:\bJava\b)(?!Script)", "the code is Kotlin (the source folder is named java/)"),),
)

ELIXIR_SUMMARY = Case(
    "summary-files-elixir-service",
    "Elixir (Phoenix)",
    one_session(
        "/home/lu/src/tally",
        Ask(
            _continued(
                "add per-key rate limiting to the API",
                "   - **lib/tally/rate_limit.ex**\n     - ETS-backed token bucket\n"
                "   - **lib/tally_web/plugs/rate_limit_plug.ex**\n     - Plug that answers 429\n"
                "   - **test/tally/rate_limit_test.exs**\n     - Bucket refill tests\n",
                "Explaining the plug's options to the user.",
            )
        ),
        Say(
            "The plug takes `:limit` and `:window_ms`; over the limit it answers 429 with `retry-after`."
        ),
    ),
    (fact("written in Elixir", r"\bElixir\b"),),
)

OTHER_REPOSITORY = Case(
    "summary-files-of-another-repository",
    "Python (the summary lists a Rust library elsewhere)",
    one_session(
        "/home/kai/src/scraper",
        Ask(
            _continued(
                "find out why the vendored parser crate panics on empty input",
                "   - **/home/kai/src/htmlparse/src/lib.rs**\n     - The panic is in `parse_node`\n"
                "   - **/home/kai/src/htmlparse/src/tokenizer.rs**\n     - Empty input yields no token\n"
                "   - **README.md**\n     - Notes on the parser dependency\n",
                "Writing up the upstream bug report.",
            )
        ),
        Say("The bug report for the parser is drafted."),
    ),
    (),
    (never(r"\bRust\b", "the Rust files belong to another repository; this project is not Rust"),),
)

VENDORED_ONLY = Case(
    "summary-files-vendored-and-generated",
    "Python (the summary lists vendored JavaScript and generated code)",
    one_session(
        "/home/ada/src/dashboard",
        Ask(
            _continued(
                "update the bundled chart library",
                "   - **static/vendor/chart.umd.js**\n     - Replaced with 4.4.1\n"
                "   - **static/vendor/chartjs-adapter-date-fns.bundle.js**\n     - Updated to match\n"
                "   - **node_modules/.package-lock.json**\n     - Regenerated\n",
                "Checking the dashboard page renders the charts.",
            )
        ),
        Say("The charts render with the new library."),
    ),
    (),
    (
        never(
            r"\bJavaScript\b",
            "only vendored bundles were named: they say nothing of the project's language",
        ),
    ),
)

CASES = (KOTLIN_SUMMARY, ELIXIR_SUMMARY, OTHER_REPOSITORY, VENDORED_ONLY)
