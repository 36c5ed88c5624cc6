# ruff: noqa: E501  (transcript text: summaries and outputs are kept as one string a line)
"""Wrong-fact traps, part `z26`: failures told afterwards, in the summary a host writes when a
conversation is continued and in a closing report's list of what was fixed, where the fix they
name did not hold or was not wanted (`bench/wrong_traps.py` runs them):

- a summary's fix after which the same command fails again in the continued session;
- a summary's fix the user turned down in its own "User feedback" line;
- a report's "removed the file that was causing the error" the user answers with the same error;
- a report's fix of an error only another checkout showed.

Written blind, before any rule for them and before any of them ran.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Run, Say, Trap, one_session

_CONTINUED = (
    "This session is being continued from a previous conversation that ran out of context."
    " The conversation is summarized below:\nAnalysis:\nThe user asked me to {ask}.\n\nSummary:\n"
    "1. Primary Request and Intent:\n   The user asked to {ask}.\n\n"
    "2. Key Technical Concepts:\n   - {concept}\n\n"
    "3. Files and Code Sections:\n   - {file}\n\n"
    "4. Errors and fixes:\n{errors}\n\n"
    "5. Problem Solving:\n   Worked through the request.\n\n"
    '6. All user messages:\n   - "{ask}"\n\n'
    "7. Pending Tasks:\n   - None\n\n"
    "8. Current Work:\n   {current}\n\n"
    "Please continue the conversation from where we left it off without asking the user any"
    " further questions. Continue with the last task that you were asked to work on."
)

SUMMARY_FIX_FAILS_AGAIN = Trap(
    "continued-summary-fix-then-same-failure",
    "JavaScript/pnpm",
    "the summary says switching `jest.config.js` to ESM fixed `ERR_REQUIRE_ESM`; the continued session's first run fails the same way",
    one_session(
        "/home/yuki/src/kanban",
        Ask(
            _CONTINUED.format(
                ask="get the test suite green after the nanoid upgrade",
                concept="Jest with ts-jest",
                file="**jest.config.js** - switched to `export default`",
                errors="   - **ESM import in tests**:\n     - Error: `pnpm test` failing with `ERR_REQUIRE_ESM` from `nanoid`\n     - Fix: Switched `jest.config.js` to an ES module\n",
                current="Re-running the suite after the config change.",
            )
        ),
        Ask("go on"),
        Run(
            "pnpm test",
            "FAIL src/board.test.ts\n  ● Test suite failed to run\n\n    Error [ERR_REQUIRE_ESM]: require() of ES Module /home/yuki/src/kanban/node_modules/nanoid/index.js not supported.\n\nTests: 0 total\n",
            1,
        ),
        Say(
            "Still `ERR_REQUIRE_ESM`: the config change did not help. Next I'll look at `transformIgnorePatterns`."
        ),
    ),
    wrong=(
        (
            r"(?:fix|fixed|fixes|solved|resolved)[^\n]{0,80}jest\.config|jest\.config[^\n]{0,80}\b(?:fix|fixed|fixes|solved|resolved)\b|Switched `?jest\.config",
            "the same failure came back after the config change: it fixed nothing",
        ),
    ),
)

SUMMARY_FIX_TURNED_DOWN = Trap(
    "continued-summary-fix-the-user-turned-down",
    "Docker/Postgres",
    "the summary's fix for the port clash (stopping the user's local Postgres) is one the user turned down",
    one_session(
        "/Users/nadia/code/atlas",
        Ask(
            _CONTINUED.format(
                ask="bring the dev stack up",
                concept="docker compose with Postgres 16",
                file="**compose.yaml** - the `db` service",
                errors='   - **Port clash**:\n     - Error: `docker compose up -d` failing with `Bind for 0.0.0.0:5432 failed: port is already allocated`\n     - Fix: Stopped the local Postgres with `brew services stop postgresql@16`\n     - User feedback: "don\'t stop my local postgres, map the container to 5433 instead"\n',
                current="Mapping the container's port to 5433 in `compose.yaml`.",
            )
        ),
        Ask("go on"),
        Run("grep -n 5432 compose.yaml", '12:      - "5432:5432"'),
        Say("Mapping `db` to 5433 now."),
    ),
    wrong=(
        (
            r"brew services stop",
            "the user turned that fix down: the container's port is mapped to 5433 instead",
        ),
    ),
)

REPORT_SAME_ERROR_AFTER = Trap(
    "report-removed-file-that-was-causing-error-user-says-same-error",
    "Python",
    "the report says removing `src/app/__init__.py` fixed the import error; the user answers with the same error",
    (
        one_session(
            "/home/tom/src/weather",
            Ask("python -m app.cli\nModuleNotFoundError: No module named 'app.providers'\n\nhelp"),
            Run("python -m app.cli --help", "usage: app.cli [-h] CITY"),
            Say(
                "Summary of what was fixed:\n\n1. **Removed the empty `src/app/__init__.py`** that was causing the import error\n2. `python -m app.cli --help` works\n"
            ),
            Ask("no, `python -m app.cli berlin` still says No module named 'app.providers'"),
            Say("You're right, the help path never imports the providers. Looking again."),
        )
    ),
    wrong=(
        (
            r"__init__\.py",
            "removing `__init__.py` did not fix the import error: the user saw it again",
        ),
    ),
)

REPORT_OTHER_CHECKOUT = Trap(
    "report-fix-of-an-error-another-checkout-showed",
    "Rust",
    "the user pastes an error from a colleague's fork; the report's fix is about that fork, not this project",
    one_session(
        "/home/pia/src/quill",
        Ask(
            "my colleague's fork at ~/src/quill-fork fails with:\nerror[E0432]: unresolved import `crate::render::html`\n\ndoes ours have the same problem?"
        ),
        Run(
            "cargo check",
            "    Checking quill v0.6.0 (/home/pia/src/quill)\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 2.41s",
        ),
        Say(
            "Ours builds fine. In the fork:\n\n- Deleted the leftover `src/render/mod.rs` line in `~/src/quill-fork`, which was causing the build error there\n"
        ),
    ),
    wrong=(
        (
            r"src/render/mod\.rs|E0432[^\n]{0,80}(?:fix|delet|remov)",
            "that fix was made in another checkout, not in this project",
        ),
    ),
)

CASES: tuple[Trap, ...] = (
    SUMMARY_FIX_FAILS_AGAIN,
    SUMMARY_FIX_TURNED_DOWN,
    REPORT_SAME_ERROR_AFTER,
    REPORT_OTHER_CHECKOUT,
)
