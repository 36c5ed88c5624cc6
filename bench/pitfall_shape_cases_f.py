# ruff: noqa: E501  (transcript text: summaries and outputs are kept as one string a line)
"""A sixth set of made-up pitfall sessions (`bench/pitfall_shapes.py --set f` runs them alone):
failures the session itself no longer shows, told afterwards in two places every host's sessions
hold:

- the "Errors and fixes" part of the summary a host writes when a conversation is continued
  from one that ran out of context (each failure under its own title, an `Error:` line and a
  `Fix:` line), while the records of the failure are gone;
- the closing report's list of what was fixed, where one item names the thing it changed and
  the failure that thing was causing ("Deleted the stale `go.work`, which was causing the build
  error"), after the user pasted the failure's output rather than a command of the session
  printing it.

And must-not-fire cases: a summary's "errors" that are the user's corrections of a proposal, a
summary with no error in it, a fix still to do, a cause guessed in a report, a report's cause
of a failure nothing in the session showed, and a summary's error with no failure named.
Every case, its patterns included, was written before any rule was read or run on it.
"""

from __future__ import annotations

from bench.pitfall_shape_cases import Shape
from bench.trap_transcripts import Ask, Run, Say, one_session

_CONTINUED = (
    "This session is being continued from a previous conversation that ran out of context."
    " The conversation is summarized below:\nAnalysis:\nThe user asked me to {ask}.\n\nSummary:\n"
    "1. Primary Request and Intent:\n   The user asked to {ask}.\n\n"
    "2. Key Technical Concepts:\n{concepts}\n\n"
    "3. Files and Code Sections:\n{files}\n\n"
    "4. Errors and fixes:\n{errors}\n\n"
    "5. Problem Solving:\n   Worked through the request step by step.\n\n"
    '6. All user messages:\n   - "{ask}"\n\n'
    "7. Pending Tasks:\n   - None\n\n"
    "8. Current Work:\n   {current}\n\n"
    "Please continue the conversation from where we left it off without asking the user any"
    " further questions. Continue with the last task that you were asked to work on."
)


def _continued(ask: str, concepts: str, files: str, errors: str, current: str) -> str:
    return _CONTINUED.format(
        ask=ask, concepts=concepts, files=files, errors=errors, current=current
    )


SUMMARY_LINKER = Shape(
    "summary-errors-and-fixes-linker",
    "a continued session's summary: `cargo build` failed for a missing linker, fixed by installing it",
    "Rust/Cargo",
    one_session(
        "/home/mei/src/tilemap",
        Ask(
            _continued(
                "get the release build working on the new laptop",
                "   - Rust release builds with Cargo\n   - The `image` crate for PNG export",
                '   - **Cargo.toml**\n     - Added `image = "0.25"`\n   - **src/export.rs**\n     - New PNG export',
                "   - **Release build failing on a fresh machine**:\n     - Error: `cargo build --release` failing with `error: linker `cc` not found`\n     - Fix: Installed the C toolchain with `sudo apt install build-essential`, after which the build passed\n",
                "The release build passes; I was about to run the PNG export on the sample map.",
            )
        ),
        Run(
            "cargo run --release -- export maps/sample.tmx",
            "    Finished `release` profile [optimized] target(s) in 0.21s\n     Running `target/release/tilemap export maps/sample.tmx`\nwrote out/sample.png (512x512)",
        ),
        Say("The export works: `out/sample.png` is 512x512."),
    ),
    trigger=r"cargo build",
    cause=r"linker `?cc`? not found",
    fix=r"build-essential",
    expect="`cargo build --release` failed with `linker cc not found`: install the C toolchain (`sudo apt install build-essential`)",
)

SUMMARY_PUBLISH = Shape(
    "summary-errors-and-fixes-publish-scope",
    "a continued session's summary: `npm publish` refused with 403, fixed by publishing with public access",
    "Node/npm",
    one_session(
        "/Users/kofi/code/tiny-queue",
        Ask(
            _continued(
                "publish the first version of the package",
                "   - A scoped npm package\n   - TypeScript build with tsup",
                "   - **package.json**\n     - Name `@kofi/tiny-queue`, version 0.1.0",
                "   - **Publish refused**:\n     - Error: `npm publish` failed with `E402 Payment Required - You must sign up for private packages`\n     - Fix: Published with `npm publish --access public`, since a scoped package is private by default\n",
                "Version 0.1.0 is on the registry; I was checking the README renders there.",
            )
        ),
        Run("npm view @kofi/tiny-queue version", "0.1.0"),
        Say("0.1.0 is published and public."),
    ),
    trigger=r"npm publish",
    cause=r"E402|Payment Required|private packages",
    fix=r"--access public",
    expect="`npm publish` of a scoped package fails with E402: publish with `--access public`",
)

REPORT_STALE_WORKFILE = Shape(
    "report-fix-which-was-causing-pasted-error",
    "the user pastes a failing build; the closing report: deleted the stale `go.work`, which was causing the build error",
    "Go",
    one_session(
        "/home/ravi/src/beacon",
        Ask(
            "go build ./...\ngo: module example.com/beacon/agent appears multiple times in workspace\n\nwhat is going on"
        ),
        Run("ls", "agent\ngo.mod\ngo.sum\ngo.work\ngo.work.sum\nmain.go\n"),
        Run("go build ./... && go vet ./...", ""),
        Say(
            "The build works again. Summary of what was fixed:\n\n1. **Deleted the stale `go.work` file**, which was causing the build error (it listed `./agent` twice)\n2. **Ran `go vet ./...`**: clean\n"
        ),
    ),
    trigger=r"go build|build error|appears multiple times",
    cause=r"go\.work",
    fix=r"[Dd]elet|remov",
    expect="`go build` failed (module appears multiple times in workspace): a stale `go.work` listed it twice; deleting it fixed the build",
)

REPORT_DUPLICATE_CONFTEST = Shape(
    "report-fix-that-was-causing-pasted-error-python",
    "the user pastes a pytest collection error; the closing report: removed the duplicate `conftest.py` that was causing the import errors",
    "Python/pytest",
    one_session(
        "/home/ana/work/ledgerly",
        Ask(
            "pytest is broken:\n\nImportError while loading conftest '/home/ana/work/ledgerly/tests/unit/conftest.py'.\n_pytest.pathlib.ImportPathMismatchError: ('conftest', '/home/ana/work/ledgerly/tests/conftest.py', PosixPath('/home/ana/work/ledgerly/tests/unit/conftest.py'))\n"
        ),
        Run(
            "python -m pytest -q",
            "........................................ [100%]\n40 passed in 1.84s",
        ),
        Say(
            "Fixed. What changed:\n\n- Removed the duplicate `tests/unit/conftest.py` that was causing the import errors (its fixtures are already in `tests/conftest.py`)\n- The suite passes: 40 tests\n"
        ),
    ),
    trigger=r"pytest|ImportPathMismatchError|import error",
    cause=r"conftest",
    fix=r"[Rr]emov|delet",
    expect="pytest failed with ImportPathMismatchError: a duplicate `tests/unit/conftest.py`; removing it fixed the collection",
)

SUMMARY_USER_FEEDBACK = Shape(
    "summary-errors-are-corrections-of-a-proposal",
    "a continued session's summary whose 'errors' are proposals the user turned down",
    "Elixir/Phoenix",
    one_session(
        "/home/lu/src/tally",
        Ask(
            _continued(
                "design the rate limiter for the API",
                "   - A Phoenix API\n   - Hammer for rate limiting",
                "   - **lib/tally_web/plugs/rate_limit.ex**\n     - The plug under design",
                '   - **Proposed a Redis backend**:\n     - Error: Proposed storing buckets in Redis\n     - User feedback: "we don\'t run redis, keep it in ETS"\n     - Fix: Switched the design to the ETS backend\n',
                "Writing the ETS-backed plug.",
            )
        ),
        Say("Continuing with the ETS-backed plug."),
    ),
    fires=False,
    expect="none: the user's correction of a design is no failure (the user's words are read elsewhere)",
)

SUMMARY_NO_ERRORS = Shape(
    "summary-with-no-errors",
    "a continued session's summary that says no errors happened",
    "Swift/SwiftPM",
    one_session(
        "/Users/jo/dev/Pebble",
        Ask(
            _continued(
                "add a settings screen",
                "   - SwiftUI\n   - Swift Package Manager",
                "   - **Sources/Pebble/SettingsView.swift**\n     - New view",
                "   - No errors were encountered; `swift build` and `swift test` passed throughout.\n",
                "Wiring the settings view into the tab bar.",
            )
        ),
        Say("Wiring it into the tab bar now."),
    ),
    fires=False,
    expect="none: nothing failed",
)

SUMMARY_FIX_PENDING = Shape(
    "summary-fix-still-to-do",
    "a continued session's summary whose fix is still to do",
    "Java/Maven",
    one_session(
        "/home/ole/src/inventory",
        Ask(
            _continued(
                "upgrade the project to Java 21",
                "   - Maven\n   - Java 21",
                "   - **pom.xml**\n     - `maven.compiler.release` set to 21",
                "   - **Lombok fails on Java 21**:\n     - Error: `mvn -q compile` failing with `java.lang.NoSuchFieldError: JCImport`\n     - Fix: Need to upgrade Lombok to 1.18.30 or later (not done yet)\n",
                "About to bump Lombok.",
            )
        ),
        Say("Bumping Lombok next."),
    ),
    fires=False,
    expect="none: the fix was never made or tried",
)

REPORT_GUESSED_CAUSE = Shape(
    "report-cause-guessed",
    "the closing report removes a cache that 'might have been causing' the flaky failure",
    "Ruby/RSpec",
    one_session(
        "/home/ines/src/shelf",
        Ask(
            'rspec fails sometimes:\n\nFailure/Error: expect(page).to have_content(\'Saved\')\n  expected to find text "Saved" in "Saving..."\n'
        ),
        Run(
            "bundle exec rspec spec/system/save_spec.rb",
            "..\n\nFinished in 3.2 seconds\n2 examples, 0 failures",
        ),
        Say(
            "Summary:\n\n- Cleared `tmp/cache`, which might have been causing the flaky failure\n- The spec passed this time\n"
        ),
    ),
    fires=False,
    expect="none: a guess, and a flaky spec passing once proves nothing",
)

REPORT_UNSEEN_FAILURE = Shape(
    "report-cause-of-a-failure-nobody-showed",
    "the closing report says a change fixed an error that no output nor the user showed",
    "C#/.NET",
    one_session(
        "/home/sam/src/Ledger",
        Ask("Tidy up the solution file and make sure it builds."),
        Run("dotnet build Ledger.sln", "Build succeeded.\n    0 Warning(s)\n    0 Error(s)"),
        Say(
            "Done. Summary of changes:\n\n1. **Removed the orphan `Ledger.Tests.Old` project** from the solution, which was causing the build error\n2. `dotnet build` succeeds\n"
        ),
    ),
    fires=False,
    expect="none: no failure was shown in the session (the claim cannot be tied to anything seen)",
)

SUMMARY_NO_FAILURE_NAMED = Shape(
    "summary-error-with-no-failure-named",
    "a continued session's summary whose error is a misunderstanding, no command or failure named",
    "Kotlin/Gradle",
    one_session(
        "/home/eva/src/notely",
        Ask(
            _continued(
                "rename the notes module",
                "   - Gradle multi-module build",
                "   - **settings.gradle.kts**\n     - Module renamed",
                "   - **Misread the request**:\n     - Error: Renamed the package instead of the module at first\n     - Fix: Reverted and renamed the module\n",
                "Checking the rename compiles.",
            )
        ),
        Say("Checking it compiles."),
    ),
    fires=False,
    expect="none: no failure of anything; a slip the assistant corrected",
)

CASES: tuple[Shape, ...] = (
    SUMMARY_LINKER,
    SUMMARY_PUBLISH,
    REPORT_STALE_WORKFILE,
    REPORT_DUPLICATE_CONFTEST,
    SUMMARY_USER_FEEDBACK,
    SUMMARY_NO_ERRORS,
    SUMMARY_FIX_PENDING,
    REPORT_GUESSED_CAUSE,
    REPORT_UNSEEN_FAILURE,
    SUMMARY_NO_FAILURE_NAMED,
)
