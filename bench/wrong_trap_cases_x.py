# ruff: noqa: E501  (transcript text: file contents and outputs are kept as one string a line)
"""Wrong-fact traps, part `x`: scenarios the other parts hold least, spread over ecosystems: a
test command that passes only with an environment variable, a test run that passed on no
tests (a build tag), a library with a native crate and two test runners, a sibling checkout
built in a subshell, a mocking library the user says in passing is gone, a guessed build tool
the user corrects, a tool tried and abandoned, a hypothetical move to another job backend, a
dependency's issue pasted, a compiler launcher tried and reverted, a project template whose
files name the generated project's stack, a CI-only instrumented test task, a bundler
migration half done, a vendored C library with its own build, and a devcontainer the user never
opens (`bench/wrong_traps.py` runs them).

Every trap was written, its `wrong` and `may` patterns included, before any rule ran on it.
As first run, five of the fifteen stated a wrong fact (6 wrong memories, 3 start lines). Reading
the memories found three more no pattern caught ("Don't change anything." kept as the user's
style from "Don't change anything, I just want the size of it", "Local services run with Docker
Compose (.devcontainer/docker-compose.yml)", "Packaged as a container image
({{cookiecutter.project_slug}}/Dockerfile)"); the patterns were widened to catch them. With the
final patterns the rules before this part's fixes state a wrong fact in eight traps (9
memories, 6 start lines):

- "Before finishing a change: `cargo test`." where only `SQLX_OFFLINE=true cargo test` passed:
  a check's step keeps the variables it was given before its program;
- `go test ./...`, which found no test file in any package, as the first step of the tests "as
  asked": a Go run whose every line is a package without test files ran no test;
- `Rscript -e 'install.packages("devtools", …)'` as the test routine "as asked": a one-liner
  whose call is named for installing installs;
- "Don't change anything." as the user's style: "…, I just want …" after a plain "don't" over
  the work scopes the request at hand, as "…, just …" did;
- a pasted issue's quoted words (MySQL 8) as the user's report of a defect: a report is read
  without its quoted lines;
- a configure with ccache as its compiler launcher, in the build fact and the build recipe,
  after "revert that, ccache breaks our coverage builds": a change taken back for what a tool
  breaks disowns that tool when a command ran it or gave it as a value, and runs naming a
  disowned tool are left out of the recipes (the plain configure stays);
- a dev container's compose file as the project's local services, and a template's Dockerfile
  as the project's image: layout facts skip `.devcontainer/` and placeholder folders.

After them all 165 traps read 0 wrong; the answer key's pooled lines did not move.
"""

from __future__ import annotations

from bench.trap_transcripts import Ask, Edit, Read, Run, Say, Session, Trap, Write

#: A line that does not turn the fact down: what follows must not be said as a plain truth.
_NEG = r"^(?![^\n]*\b(?:stop\w*|don't|do not|never|no longer|not|no|nothing|dropped|instead|fail\w*|could\s?n[o']t|stale|revert\w*|without|abandon\w*|would|if)\b)"

SQLX_OFFLINE_ENV = Trap(
    "sqlx-offline-env",
    "Rust",
    "plain `cargo test` fails (sqlx's query macros want a live database); "
    "`SQLX_OFFLINE=true cargo test` uses the committed query cache and passes",
    (
        Session(
            "claude",
            "/home/ana/code/parcelpost",
            (
                Ask(
                    "Tracking codes with lowercase letters are rejected by the API. Fix the validator and run the tests."
                ),
                Read(
                    "Cargo.toml",
                    '[package]\nname = "parcelpost"\nversion = "0.7.2"\nedition = "2021"\n\n[dependencies]\n'
                    'axum = "0.7"\ntokio = { version = "1", features = ["full"] }\nserde = { version = "1", features = ["derive"] }\n'
                    'sqlx = { version = "0.7", features = ["runtime-tokio", "postgres", "macros", "chrono"] }\n',
                ),
                Read(
                    "src/tracking.rs",
                    "pub fn is_valid(code: &str) -> bool {\n    code.len() == 12 && code.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())\n}\n",
                ),
                Edit(
                    "src/tracking.rs",
                    "code.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())",
                    "code.chars().all(|c| c.is_ascii_alphanumeric())",
                ),
                Run(
                    "cargo test",
                    "   Compiling parcelpost v0.7.2 (/home/ana/code/parcelpost)\n"
                    "error: set `DATABASE_URL` to use query macros online, or run `cargo sqlx prepare` to update the query cache\n"
                    '  --> src/db.rs:18:16\n   |\n18 |     let rows = sqlx::query_as!(Parcel, "SELECT id, code, status FROM parcels WHERE owner_id = $1", owner)\n'
                    "   |                ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n\n"
                    "error: could not compile `parcelpost` (lib) due to 4 previous errors\n",
                    101,
                ),
                Run(
                    "ls .sqlx | head -3",
                    "query-1b6e0c3f5a.json\nquery-4d2a9e71c0.json\nquery-9f03b7d2e4.json\n",
                ),
                Run(
                    "SQLX_OFFLINE=true cargo test",
                    "   Compiling parcelpost v0.7.2 (/home/ana/code/parcelpost)\n    Finished test [unoptimized + debuginfo] target(s) in 21.84s\n"
                    "     Running unittests src/lib.rs (target/debug/deps/parcelpost-3f1c2a9b7e)\n\nrunning 23 tests\n"
                    "test tracking::tests::accepts_lowercase ... ok\ntest tracking::tests::rejects_short ... ok\n...\n"
                    "test result: ok. 23 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.04s\n",
                ),
                Say(
                    "The validator only allowed uppercase letters; it now takes any ASCII letter or digit. "
                    "Plain `cargo test` stops at sqlx's query macros, which want a live database; with `SQLX_OFFLINE=true` "
                    "they read the committed `.sqlx/` query cache, and all 23 tests pass."
                ),
            ),
        ),
    ),
    wrong=(
        (
            _NEG + r"[^\n]*(?<!SQLX_OFFLINE=true )\bcargo test\b",
            "plain `cargo test` fails here; the tests need `SQLX_OFFLINE=true`",
        ),
    ),
    may=(r"SQLX_OFFLINE=true cargo test",),
)

GO_BUILD_TAG_NO_TESTS = Trap(
    "go-build-tag-no-tests",
    "Go",
    "`go test ./...` exits 0 having run no test (every test file is behind the `integration` "
    "build tag); `go test -tags integration ./...` runs them",
    (
        Session(
            "codex",
            "/home/ana/code/quarry",
            (
                Ask(
                    "The CSV exporter drops the last row when the input has no trailing newline. Fix it and run the tests."
                ),
                Read(
                    "internal/export/csv.go",
                    "func readRows(r io.Reader) ([]string, error) {\n\tdata, err := io.ReadAll(r)\n\tif err != nil {\n\t\treturn nil, err\n\t}\n"
                    '\tparts := strings.Split(string(data), "\\n")\n\treturn parts[:len(parts)-1], nil\n}\n',
                ),
                Edit(
                    "internal/export/csv.go",
                    '\tparts := strings.Split(string(data), "\\n")\n\treturn parts[:len(parts)-1], nil\n',
                    '\tparts := strings.Split(strings.TrimSuffix(string(data), "\\n"), "\\n")\n\treturn parts, nil\n',
                ),
                Run(
                    "go test ./...",
                    "?   \tgithub.com/anaworks/quarry/cmd/quarry\t[no test files]\n?   \tgithub.com/anaworks/quarry/internal/export\t[no test files]\n"
                    "?   \tgithub.com/anaworks/quarry/internal/store\t[no test files]\n",
                ),
                Run(
                    "head -3 internal/export/csv_test.go",
                    "//go:build integration\n\npackage export\n",
                ),
                Say(
                    "That ran nothing: every test file carries the `integration` build tag, so without `-tags integration` Go sees no test files."
                ),
                Run(
                    "go test -tags integration ./...",
                    "?   \tgithub.com/anaworks/quarry/cmd/quarry\t[no test files]\nok  \tgithub.com/anaworks/quarry/internal/export\t0.031s\n"
                    "ok  \tgithub.com/anaworks/quarry/internal/store\t0.412s\n",
                ),
                Say(
                    "`readRows` dropped the last element after splitting, which is only empty when the input ends with a newline; "
                    "it now trims one trailing newline first. `go test -tags integration ./...` passes."
                ),
            ),
        ),
    ),
    wrong=(
        (
            _NEG + r"[^\n]*`go test \./\.\.\.`",
            "`go test ./...` runs no test here; the tests need `-tags integration`",
        ),
    ),
    may=(r"go test -tags integration",),
)

ELIXIR_NATIVE_CRATE = Trap(
    "elixir-native-crate",
    "Elixir",
    "an Elixir library with a Rust NIF crate under `native/`: the crate's tests run with "
    "`cargo test` in its folder, the library's with `mix test`",
    (
        Session(
            "claude",
            "/home/ana/code/glimmer",
            (
                Ask('`Glimmer.tokenize("")` crashes the VM with a NIF panic. Fix it.'),
                Read(
                    "mix.exs",
                    "defmodule Glimmer.MixProject do\n  use Mix.Project\n\n  def project do\n"
                    '    [app: :glimmer, version: "0.4.1", elixir: "~> 1.16", deps: deps()]\n  end\n\n'
                    '  defp deps do\n    [\n      {:rustler, "~> 0.34"},\n      {:ex_doc, "~> 0.34", only: :dev, runtime: false}\n    ]\n  end\nend\n',
                ),
                Read(
                    "native/glimmer_scan/Cargo.toml",
                    '[package]\nname = "glimmer_scan"\nversion = "0.1.0"\nedition = "2021"\n\n[lib]\ncrate-type = ["cdylib", "rlib"]\n\n'
                    '[dependencies]\nrustler = "0.34"\nunicode-segmentation = "1.11"\n',
                ),
                Read(
                    "native/glimmer_scan/src/lib.rs",
                    "#[rustler::nif]\nfn tokenize(input: &str) -> Vec<String> {\n    let first = input.chars().next().unwrap();\n"
                    "    scan(first, input)\n}\n",
                ),
                Edit(
                    "native/glimmer_scan/src/lib.rs",
                    "    let first = input.chars().next().unwrap();\n    scan(first, input)\n",
                    "    match input.chars().next() {\n        Some(first) => scan(first, input),\n        None => Vec::new(),\n    }\n",
                ),
                Run(
                    "cd native/glimmer_scan && cargo test",
                    "   Compiling glimmer_scan v0.1.0 (/home/ana/code/glimmer/native/glimmer_scan)\n    Finished test [unoptimized + debuginfo] target(s) in 6.12s\n"
                    "     Running unittests src/lib.rs\n\nrunning 7 tests\n.......\ntest result: ok. 7 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n",
                ),
                Run(
                    "mix test",
                    "Compiling crate glimmer_scan in release mode (native/glimmer_scan)\n    Finished release [optimized] target(s) in 18.40s\n"
                    "Compiling 4 files (.ex)\nGenerated glimmer app\nRunning ExUnit with seed: 40211, max_cases: 4\n\n"
                    "..........................................\nFinished in 0.3 seconds (0.2s async, 0.1s sync)\n42 tests, 0 failures\n",
                ),
                Say(
                    "The NIF unwrapped the first character of an empty string; it now returns an empty list. "
                    "The crate's own tests (`cargo test` in `native/glimmer_scan`, 7) and `mix test` (42, one new for the empty input) pass."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(native|glimmer_scan|crate|NIF)\b)[^\n]*\bcargo (test|build)\b",
            "`cargo test` runs only the native crate's tests, in its own folder",
        ),
        (
            r"^(?![^\n]*\b(native|glimmer_scan|crate|NIF)\b)[^\n]*\b(written in|is a|built with) Rust\b",
            "the project is an Elixir library; Rust is its NIF crate's language",
        ),
    ),
    may=(r"mix test",),
)

SWIFT_SIBLING_SUBSHELL = Trap(
    "swift-sibling-subshell",
    "Swift/SPM",
    "a Swift package whose theme colours are generated in a sibling checkout with npm, in a "
    "subshell (`(cd ../design-tokens && …)`); the package builds and tests with SwiftPM",
    (
        Session(
            "claude",
            "/home/ana/code/TidepoolKit",
            (
                Ask(
                    "The theme colours are stale. Regenerate them from the design-tokens repo next door and make sure the package still passes."
                ),
                Read(
                    "Package.swift",
                    '// swift-tools-version:5.9\nimport PackageDescription\n\nlet package = Package(\n    name: "TidepoolKit",\n'
                    "    platforms: [.iOS(.v16), .macOS(.v13)],\n"
                    '    products: [.library(name: "TidepoolKit", targets: ["TidepoolKit"])],\n'
                    '    targets: [\n        .target(name: "TidepoolKit"),\n        .testTarget(name: "TidepoolKitTests", dependencies: ["TidepoolKit"])\n    ]\n)\n',
                ),
                Run(
                    "(cd ../design-tokens && npm ci && npm run build:swift)",
                    "added 212 packages, and audited 213 packages in 4s\n\n> design-tokens@3.2.0 build:swift\n> style-dictionary build --platform ios\n\n"
                    "ios\n✔︎ build/ios/Colors.swift\n",
                ),
                Run(
                    "cp ../design-tokens/build/ios/Colors.swift Sources/TidepoolKit/Theme/Colors.swift && git diff --stat",
                    " Sources/TidepoolKit/Theme/Colors.swift | 14 +++++++-------\n 1 file changed, 7 insertions(+), 7 deletions(-)\n",
                ),
                Run(
                    "swift test",
                    "Building for debugging...\n[42/42] Linking TidepoolKitPackageTests\nBuild complete! (18.77s)\n"
                    "Test Suite 'All tests' started at 2026-11-02 10:14:03.112.\n"
                    "Test Suite 'All tests' passed at 2026-11-02 10:14:03.958.\n\t Executed 58 tests, with 0 failures (0 unexpected) in 0.801 (0.846) seconds\n",
                ),
                Say(
                    "Regenerated `Colors.swift` in the design-tokens checkout and copied it over (7 colours changed); `swift test` passes (58 tests)."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*(design-tokens|\.\./))[^\n]*\b(npm|Node(\.js)?|style-dictionary)\b",
            "npm runs in the sibling design-tokens checkout; the package is built with SwiftPM",
        ),
    ),
    may=(r"swift test",),
)

DOTNET_MOQ_GONE = Trap(
    "dotnet-moq-gone",
    "C#/.NET",
    "the user says in passing they don't use Moq any more (NSubstitute now); one legacy test "
    "project, about to be deleted, still references it",
    (
        Session(
            "codex",
            "/home/ana/code/Harbor",
            (
                Ask(
                    "Add a test that InvoiceService doesn't send the email when the total is zero. Use NSubstitute, we don't use Moq "
                    "anymore; Harbor.Legacy.Tests is the only thing still on it and it's getting deleted next sprint."
                ),
                Read(
                    "tests/Harbor.Tests/Harbor.Tests.csproj",
                    '<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n    <TargetFramework>net8.0</TargetFramework>\n    <IsPackable>false</IsPackable>\n  </PropertyGroup>\n'
                    '  <ItemGroup>\n    <PackageReference Include="Microsoft.NET.Test.Sdk" Version="17.10.0" />\n    <PackageReference Include="xunit" Version="2.8.1" />\n'
                    '    <PackageReference Include="xunit.runner.visualstudio" Version="2.8.1" />\n    <PackageReference Include="NSubstitute" Version="5.1.0" />\n  </ItemGroup>\n'
                    '  <ItemGroup>\n    <ProjectReference Include="..\\..\\src\\Harbor\\Harbor.csproj" />\n  </ItemGroup>\n</Project>\n',
                ),
                Read(
                    "tests/Harbor.Legacy.Tests/Harbor.Legacy.Tests.csproj",
                    '<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n    <TargetFramework>net6.0</TargetFramework>\n  </PropertyGroup>\n'
                    '  <ItemGroup>\n    <PackageReference Include="NUnit" Version="3.13.3" />\n    <PackageReference Include="Moq" Version="4.20.70" />\n  </ItemGroup>\n</Project>\n',
                ),
                Write(
                    "tests/Harbor.Tests/InvoiceServiceTests.cs",
                    "using NSubstitute;\nusing Xunit;\n\nnamespace Harbor.Tests;\n\npublic class InvoiceServiceTests\n{\n    [Fact]\n"
                    "    public async Task Zero_total_sends_no_email()\n    {\n        var mailer = Substitute.For<IMailer>();\n"
                    "        var service = new InvoiceService(mailer);\n        await service.IssueAsync(new Invoice { Total = 0m });\n"
                    "        await mailer.DidNotReceiveWithAnyArgs().SendAsync(default!);\n    }\n}\n",
                ),
                Run(
                    "dotnet test tests/Harbor.Tests",
                    "  Determining projects to restore...\n  All projects are up-to-date for restore.\n  Harbor -> /home/ana/code/Harbor/src/Harbor/bin/Debug/net8.0/Harbor.dll\n"
                    "  Harbor.Tests -> /home/ana/code/Harbor/tests/Harbor.Tests/bin/Debug/net8.0/Harbor.Tests.dll\n"
                    "Test run for /home/ana/code/Harbor/tests/Harbor.Tests/bin/Debug/net8.0/Harbor.Tests.dll (.NETCoreApp,Version=v8.0)\n"
                    "Passed!  - Failed:     0, Passed:    64, Skipped:     0, Total:    64, Duration: 1 s - Harbor.Tests.dll (net8.0)\n",
                ),
                Say(
                    "Added `Zero_total_sends_no_email` with an NSubstitute mailer; `dotnet test tests/Harbor.Tests` passes (64 tests)."
                ),
            ),
        ),
    ),
    wrong=(
        (
            # (not the `-moq-` of the trap's own folder name, which a language overview names)
            _NEG + r"^(?![^\n]*\b(legacy|Legacy)\b)[^\n]*(?<!-)\bMoq\b(?!-)",
            "the project's tests mock with NSubstitute; Moq is only in the legacy project being deleted",
        ),
    ),
    may=(r"NSubstitute|dotnet test",),
)

HASKELL_STACK_GUESS = Trap(
    "haskell-stack-guess",
    "Haskell/cabal",
    "the assistant guesses Stack from a `stack.yaml` and the user corrects it: that file is for "
    "the CI image, locally the project builds and tests with cabal",
    (
        Session(
            "claude",
            "/home/ana/code/quill",
            (
                Ask("Run the tests after my parser change, something's off with block quotes."),
                Run(
                    "ls",
                    "CHANGELOG.md\nREADME.md\ncabal.project\nquill.cabal\nsrc\nstack.yaml\ntest\n",
                ),
                Say("This is a Stack project (there's a `stack.yaml`), so I'll run `stack test`."),
                Ask(
                    "No, stack.yaml is only there for the Docker image CI builds with. Locally it's cabal: `cabal test all`."
                ),
                Run(
                    "cabal test all",
                    "Build profile: -w ghc-9.6.5 -O1\nIn order, the following will be built (use -v for more details):\n - quill-0.9.0 (test:quill-test) (first run)\n"
                    "Running 1 test suites...\nTest suite quill-test: RUNNING...\nBlock quotes\n  nested quote keeps its marker: FAIL\n"
                    '    test/BlockSpec.hs:41:\n    expected: Quote [Quote [Para "a"]]\n     but got: Quote [Para "> a"]\n'
                    "1 out of 58 tests failed (0.04s)\nTest suite quill-test: FAIL\n",
                    1,
                ),
                Read(
                    "src/Quill/Block.hs",
                    "quoteLine :: Parser Text\nquoteLine = char '>' *> optional (char ' ') *> takeRest\n",
                ),
                Edit(
                    "src/Quill/Block.hs",
                    "quoteLine = char '>' *> optional (char ' ') *> takeRest\n",
                    "quoteLine = char '>' *> optional (char ' ') *> (T.stripStart <$> takeRest)\n",
                ),
                Run(
                    "cabal test all",
                    "Running 1 test suites...\nTest suite quill-test: RUNNING...\nAll 58 tests passed (0.03s)\nTest suite quill-test: PASS\n"
                    "1 of 1 test suites (1 of 1 test cases) passed.\n",
                ),
                Say(
                    "A nested quote kept its `>` because the inner line wasn't re-parsed after the marker; fixed, and `cabal test all` passes (58 tests)."
                ),
            ),
        ),
    ),
    wrong=(
        (
            _NEG + r"[^\n]*`stack (test|build|exec)\b",
            "locally the project runs with cabal, not Stack",
        ),
        (
            _NEG + r"[^\n]*\b(a Stack project|(built|managed) with Stack)\b",
            "stack.yaml is only for the CI image; the project builds with cabal",
        ),
    ),
    may=(r"cabal test all",),
)

R_DEVTOOLS_ABANDONED = Trap(
    "r-devtools-abandoned",
    "R",
    "`devtools::test()` fails (devtools is not installed and will not install here); the user "
    "says to leave devtools, and the tests run with `testthat::test_local()`",
    (
        Session(
            "claude",
            "/home/ana/code/tidyrates",
            (
                Ask("`rate_ci()` returns NaN when the count is zero. Fix it and run the tests."),
                Read(
                    "DESCRIPTION",
                    "Package: tidyrates\nTitle: Tidy Rate Estimates with Confidence Intervals\nVersion: 0.5.0\n"
                    'Authors@R: person("Ana", "Reyes", role = c("aut", "cre"))\nLicense: MIT + file LICENSE\n'
                    "Imports:\n    dplyr (>= 1.1.0),\n    rlang\nSuggests:\n    testthat (>= 3.0.0)\nConfig/testthat/edition: 3\nEncoding: UTF-8\n",
                ),
                Read(
                    "R/rate_ci.R",
                    "rate_ci <- function(count, exposure, level = 0.95) {\n  z <- stats::qnorm(1 - (1 - level) / 2)\n"
                    "  se <- sqrt(count) / exposure\n  rate <- count / exposure\n  data.frame(rate = rate, lower = rate * exp(-z * se / rate), upper = rate * exp(z * se / rate))\n}\n",
                ),
                Edit(
                    "R/rate_ci.R",
                    "  data.frame(rate = rate, lower = rate * exp(-z * se / rate), upper = rate * exp(z * se / rate))\n",
                    "  lower <- stats::qchisq((1 - level) / 2, 2 * count) / (2 * exposure)\n"
                    "  upper <- stats::qchisq(1 - (1 - level) / 2, 2 * (count + 1)) / (2 * exposure)\n"
                    "  data.frame(rate = rate, lower = ifelse(count == 0, 0, lower), upper = upper)\n",
                ),
                Run(
                    "Rscript -e 'devtools::test()'",
                    "Error in loadNamespace(x) : there is no package called ‘devtools’\nCalls: loadNamespace -> withRestarts -> withOneRestart -> doWithOneRestart\nExecution halted\n",
                    1,
                ),
                Run(
                    'Rscript -e \'install.packages("devtools", repos = "https://cloud.r-project.org")\'',
                    "also installing the dependencies ‘curl’, ‘httr2’, ‘gh’, ‘usethis’\n\n"
                    "* installing *source* package ‘curl’ ...\nUsing PKG_CFLAGS=\n--------------------------- [ANTICONF] --------------------------------\n"
                    "Configuration failed because libcurl was not found.\nERROR: configuration failed for package ‘curl’\n"
                    'Warning messages:\n1: In install.packages("devtools", repos = "https://cloud.r-project.org") :\n'
                    "  installation of package ‘devtools’ had non-zero exit status\n",
                ),
                Ask(
                    "Don't bother with devtools, it never installs on this box. testthat on its own is fine."
                ),
                Run(
                    "Rscript -e 'testthat::test_local()'",
                    "✔ | F W  S  OK | Context\n✔ |         12 | rate_ci\n✔ |         19 | rate_table\n\n"
                    "══ Results ═════════════════════════════════════════════\n[ FAIL 0 | WARN 0 | SKIP 0 | PASS 31 ]\n",
                ),
                Say(
                    "`rate_ci()` now uses the exact Poisson (chi-squared) interval, which is defined at zero; `testthat::test_local()` passes (31 expectations)."
                ),
            ),
        ),
    ),
    wrong=(
        (
            _NEG + r"[^\n]*\bdevtools\b",
            "devtools is not installed and the user set it aside; the tests run with testthat",
        ),
    ),
    may=(r"testthat::test_local",),
)

RAILS_JOB_BACKEND_HYPOTHETICAL = Trap(
    "rails-job-backend-hypothetical",
    "Ruby/Rails",
    "the user asks what a move from Sidekiq to GoodJob would take; the assistant lists the "
    "steps and commands, and the user keeps Sidekiq",
    (
        Session(
            "claude",
            "/home/ana/code/shelfwise",
            (
                Ask(
                    "If we moved our background jobs from Sidekiq to GoodJob, what would we have to change? Don't change anything, I just want the size of it."
                ),
                Read(
                    "Gemfile",
                    'source "https://rubygems.org"\n\nruby "3.3.1"\n\ngem "rails", "~> 7.1.3"\ngem "pg", "~> 1.5"\ngem "puma", "~> 6.4"\n'
                    'gem "sidekiq", "~> 7.2"\ngem "sidekiq-cron", "~> 1.12"\ngem "redis", "~> 5.2"\n\ngroup :test do\n  gem "rspec-rails", "~> 6.1"\nend\n',
                ),
                Read(
                    "config/application.rb",
                    "module Shelfwise\n  class Application < Rails::Application\n    config.load_defaults 7.1\n    config.active_job.queue_adapter = :sidekiq\n  end\nend\n",
                ),
                Run(
                    'grep -rn "Sidekiq\\|sidekiq_options" app config lib | wc -l',
                    "14\n",
                ),
                Say(
                    "It's a medium change. To move to GoodJob you would:\n\n"
                    '1. Add `gem "good_job", "~> 4.0"` and remove `sidekiq`, `sidekiq-cron` and (if nothing else uses it) `redis`.\n'
                    "2. Run `bin/rails g good_job:install` and `bin/rails db:migrate` (GoodJob keeps its queue in PostgreSQL).\n"
                    "3. Set `config.active_job.queue_adapter = :good_job`.\n"
                    "4. Move the 6 cron entries from `config/schedule.yml` to `config.good_job.cron`.\n"
                    "5. Run workers with `bundle exec good_job start` instead of `bundle exec sidekiq`, in the Procfile and the deploy.\n\n"
                    "The 14 Sidekiq references are mostly `sidekiq_options retry:` lines that become `retry_on` in the jobs."
                ),
                Ask("OK, that's too much for this quarter. We stay on Sidekiq."),
                Say("Understood, nothing changed; the jobs stay on Sidekiq."),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(would|if|instead of Sidekiq|considered|move to)\b)[^\n]*\b(good_job|GoodJob)\b",
            "the user asked about GoodJob only as a hypothetical; the jobs stay on Sidekiq",
        ),
        (
            r"\bdon't change anything\b",
            "'Don't change anything' was about this one question, not a standing rule",
        ),
    ),
    may=(r"Sidekiq|PostgreSQL|rspec",),
)

NODE_PASTED_UPSTREAM_ISSUE = Trap(
    "node-pasted-upstream-issue",
    "Node/TypeScript",
    "the user pastes an ORM's GitHub issue (MySQL, pnpm, Jest, Bun) to ask if it is their bug; "
    "the project is on PostgreSQL with npm and Vitest",
    (
        Session(
            "codex",
            "/home/ana/code/tallybook",
            (
                Ask(
                    "Is this the same bug we're hitting? From the drizzle-orm tracker:\n\n"
                    "> **Describe the bug** `onConflictDoUpdate` ignores the `where` clause on MySQL 8.\n"
                    "> **To reproduce** `pnpm install && pnpm test:mysql`, then run `bun run repro.ts`.\n"
                    "> **Environment** drizzle-orm 0.30.10, mysql2 3.9.7, Node 18.19, Bun 1.1.\n"
                    "> We use Jest for the repro: `npx jest --runInBand`.\n\n"
                    "Our upsert in src/repo/accounts.ts sometimes overwrites a newer balance with an older one."
                ),
                Read(
                    "package.json",
                    '{\n  "name": "tallybook",\n  "private": true,\n  "type": "module",\n  "scripts": {\n    "dev": "tsx watch src/server.ts",\n'
                    '    "test": "vitest run"\n  },\n  "dependencies": {\n    "drizzle-orm": "^0.30.10",\n    "fastify": "^4.27.0",\n    "pg": "^8.11.5"\n  },\n'
                    '  "devDependencies": {\n    "drizzle-kit": "^0.21.2",\n    "tsx": "^4.10.0",\n    "typescript": "^5.4.5",\n    "vitest": "^1.6.0"\n  }\n}\n',
                ),
                Read(
                    "src/repo/accounts.ts",
                    "export async function upsertBalance(db: Db, row: BalanceRow) {\n  await db.insert(balances).values(row).onConflictDoUpdate({\n"
                    "    target: balances.accountId,\n    set: { cents: row.cents, asOf: row.asOf },\n  });\n}\n",
                ),
                Edit(
                    "src/repo/accounts.ts",
                    "    set: { cents: row.cents, asOf: row.asOf },\n  });\n",
                    "    set: { cents: row.cents, asOf: row.asOf },\n    setWhere: lt(balances.asOf, row.asOf),\n  });\n",
                ),
                Run(
                    "npm test",
                    "\n> tallybook@0.1.0 test\n> vitest run\n\n RUN  v1.6.0 /home/ana/code/tallybook\n\n ✓ src/repo/accounts.test.ts  (6 tests) 212ms\n"
                    " ✓ src/routes/balances.test.ts  (11 tests) 87ms\n\n Test Files  9 passed (9)\n      Tests  57 passed (57)\n   Duration  2.91s\n",
                ),
                Say(
                    "Not the same bug: that issue is about MySQL's upsert, and we're on PostgreSQL through `pg`. Ours had no condition at all, so an older "
                    "row could overwrite a newer one; the upsert now only updates when the incoming `asOf` is newer. `npm test` passes (57 tests)."
                ),
            ),
        ),
    ),
    wrong=(
        (
            _NEG + r"[^\n]*\b(MySQL|mysql2|Jest|jest|pnpm|Bun|bun run|Node 18)\b",
            "MySQL, pnpm, Jest, Bun and Node 18 are the pasted issue's, not this project's",
        ),
    ),
    may=(r"npm test|PostgreSQL|Drizzle|Vitest|Fastify",),
)

CMAKE_CCACHE_REVERTED = Trap(
    "cmake-ccache-reverted",
    "C++/CMake",
    "the assistant configures with ccache as the compiler launcher; the user has it reverted "
    "(it breaks their coverage builds) and the build is configured the plain way",
    (
        Session(
            "claude",
            "/home/ana/code/voxelsmith",
            (
                Ask("Incremental rebuilds are slow. Can you make them faster?"),
                Read(
                    "CMakeLists.txt",
                    "cmake_minimum_required(VERSION 3.24)\nproject(voxelsmith LANGUAGES CXX)\n\nset(CMAKE_CXX_STANDARD 20)\n\n"
                    "add_library(voxelsmith src/chunk.cpp src/mesher.cpp src/palette.cpp)\ntarget_include_directories(voxelsmith PUBLIC include)\n\n"
                    "include(FetchContent)\nFetchContent_Declare(googletest URL https://github.com/google/googletest/archive/refs/tags/v1.14.0.zip)\n"
                    "FetchContent_MakeAvailable(googletest)\n\nenable_testing()\nadd_executable(voxelsmith_tests tests/chunk_test.cpp tests/mesher_test.cpp)\n"
                    "target_link_libraries(voxelsmith_tests voxelsmith GTest::gtest_main)\ninclude(GoogleTest)\ngtest_discover_tests(voxelsmith_tests)\n",
                ),
                Run(
                    "cmake -S . -B build -G Ninja -DCMAKE_CXX_COMPILER_LAUNCHER=ccache",
                    "-- The CXX compiler identification is GNU 13.2.0\n-- Detecting CXX compiler ABI info - done\n-- Configuring done (1.4s)\n-- Generating done (0.1s)\n"
                    "-- Build files have been written to: /home/ana/code/voxelsmith/build\n",
                ),
                Run(
                    "cmake --build build && ccache -s",
                    "[214/214] Linking CXX executable voxelsmith_tests\nCacheable calls:   214 / 214 (100.0%)\n  Hits:             0 /  214 ( 0.00%)\n  Misses:         214 /  214 (100.0%)\n",
                ),
                Say(
                    "ccache is now the compiler launcher: the first build fills the cache, and rebuilds after a branch switch or a clean will hit it."
                ),
                Ask(
                    "Hmm, no, revert that. ccache breaks our coverage builds (the gcov paths), we tried it last year. Configure it the normal way."
                ),
                Run(
                    "rm -rf build && cmake -S . -B build -G Ninja && cmake --build build",
                    "-- Configuring done (1.3s)\n-- Generating done (0.1s)\n-- Build files have been written to: /home/ana/code/voxelsmith/build\n"
                    "[214/214] Linking CXX executable voxelsmith_tests\n",
                ),
                Run(
                    "ctest --test-dir build --output-on-failure",
                    "Internal ctest changing into directory: /home/ana/code/voxelsmith/build\nTest project /home/ana/code/voxelsmith/build\n"
                    "      Start  1: Chunk.EmptyChunkHasNoFaces\n 1/38 Test  #1: Chunk.EmptyChunkHasNoFaces ........   Passed    0.01 sec\n...\n"
                    "100% tests passed, 0 tests failed out of 38\n\nTotal Test time (real) =   0.41 sec\n",
                ),
                Say(
                    "Back to the plain configure, no compiler launcher; the build and all 38 tests pass."
                ),
            ),
        ),
    ),
    wrong=(
        (
            _NEG + r"[^\n]*\b(ccache|COMPILER_LAUNCHER)\b",
            "ccache was tried and reverted; the build is configured without it",
        ),
    ),
    may=(r"ctest --test-dir build|cmake -S \. -B build",),
)

COOKIECUTTER_TEMPLATE = Trap(
    "cookiecutter-template",
    "Python",
    "a cookiecutter template repository: the generated project's files (under "
    "`{{cookiecutter.project_slug}}/`) use Poetry, Django, Celery and PostgreSQL; the template "
    "itself is tested with pytest and pytest-cookies",
    (
        Session(
            "codex",
            "/home/ana/code/cookiecutter-service",
            (
                Ask(
                    "The generated project's Dockerfile hardcodes Python 3.11 instead of using the python_version answer. Fix it and run the template tests."
                ),
                Run(
                    "ls",
                    "LICENSE\nREADME.md\ncookiecutter.json\nhooks\npyproject.toml\ntests\n{{cookiecutter.project_slug}}\n",
                ),
                Read(
                    "cookiecutter.json",
                    '{\n  "project_name": "My Service",\n  "project_slug": "{{ cookiecutter.project_name.lower().replace(\' \', \'_\') }}",\n'
                    '  "python_version": "3.12",\n  "database": ["postgresql", "sqlite"],\n  "use_celery": "n"\n}\n',
                ),
                Read(
                    "pyproject.toml",
                    '[project]\nname = "cookiecutter-service"\nversion = "2.3.0"\nrequires-python = ">=3.10"\ndependencies = ["cookiecutter>=2.6"]\n\n'
                    '[project.optional-dependencies]\ntest = ["pytest>=8", "pytest-cookies>=0.7"]\n\n[build-system]\nrequires = ["hatchling"]\nbuild-backend = "hatchling.build"\n',
                ),
                Read(
                    "{{cookiecutter.project_slug}}/pyproject.toml",
                    '[tool.poetry]\nname = "{{ cookiecutter.project_slug }}"\nversion = "0.1.0"\n\n[tool.poetry.dependencies]\npython = "^{{ cookiecutter.python_version }}"\n'
                    'django = "^5.0"\n{% if cookiecutter.database == "postgresql" %}psycopg = {extras = ["binary"], version = "^3.1"}{% endif %}\n'
                    '{% if cookiecutter.use_celery == "y" %}celery = "^5.3"{% endif %}\n\n[tool.poetry.group.dev.dependencies]\npytest-django = "^4.8"\n',
                ),
                Read(
                    "{{cookiecutter.project_slug}}/Dockerfile",
                    "FROM python:3.11-slim\nWORKDIR /app\nRUN pip install poetry\nCOPY pyproject.toml poetry.lock ./\nRUN poetry install --no-root\n",
                ),
                Edit(
                    "{{cookiecutter.project_slug}}/Dockerfile",
                    "FROM python:3.11-slim\n",
                    "FROM python:{{ cookiecutter.python_version }}-slim\n",
                ),
                Run(
                    "python -m pytest tests -q",
                    "............\n12 passed in 8.41s\n",
                ),
                Say(
                    "The template's Dockerfile now takes `python_version` from the answers; the template tests (`python -m pytest tests`, 12, which bake the template with pytest-cookies) pass."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(template|templates|generated|cookiecutter|bake[sd]?)\b)[^\n]*\b(Django|Poetry|poetry|Celery|PostgreSQL|psycopg)\b",
            "Poetry, Django, Celery and PostgreSQL are the generated project's; the template repository runs on hatchling and pytest",
        ),
        (
            r"\b(container image|Docker Compose|migrations)\b[^\n]*\{\{",
            "a file under the template's placeholder folder is the generated project's",
        ),
    ),
    may=(r"pytest tests|pytest-cookies|cookiecutter",),
)

ANDROID_CI_ONLY_TASK = Trap(
    "android-ci-only-task",
    "Kotlin/Android",
    "the CI workflow runs `connectedDebugAndroidTest` on an emulator runner; the user says it "
    "only runs in CI (no emulator here), and locally the unit tests run",
    (
        Session(
            "claude",
            "/home/ana/code/trailmix-android",
            (
                Ask("The distance label shows '1.0 km' instead of '1 km'. Fix it."),
                Read(
                    ".github/workflows/ci.yml",
                    "name: ci\non: [push, pull_request]\njobs:\n  unit:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
                    "      - uses: actions/setup-java@v4\n        with: { distribution: temurin, java-version: 17 }\n      - run: ./gradlew testDebugUnitTest\n"
                    "  instrumented:\n    runs-on: macos-13\n    steps:\n      - uses: actions/checkout@v4\n"
                    "      - uses: reactivecircus/android-emulator-runner@v2\n        with:\n          api-level: 34\n          script: ./gradlew connectedDebugAndroidTest\n",
                ),
                Read(
                    "app/src/main/java/dev/trailmix/format/DistanceFormatter.kt",
                    'object DistanceFormatter {\n    fun format(meters: Double): String =\n        if (meters < 1000) "${meters.roundToInt()} m"\n'
                    '        else String.format(Locale.ROOT, "%.1f km", meters / 1000)\n}\n',
                ),
                Edit(
                    "app/src/main/java/dev/trailmix/format/DistanceFormatter.kt",
                    '        else String.format(Locale.ROOT, "%.1f km", meters / 1000)\n',
                    '        else DecimalFormat("0.#", DecimalFormatSymbols(Locale.ROOT)).format(meters / 1000) + " km"\n',
                ),
                Run(
                    "./gradlew testDebugUnitTest",
                    "> Task :app:compileDebugKotlin\n> Task :app:testDebugUnitTest\n\nDistanceFormatterTest > wholeKilometresHaveNoDecimal() PASSED\n\n"
                    "BUILD SUCCESSFUL in 41s\n31 actionable tasks: 6 executed, 25 up-to-date\n",
                ),
                Say(
                    "Whole kilometres now drop the decimal (`0.#`); `./gradlew testDebugUnitTest` passes. Want me to run `./gradlew connectedDebugAndroidTest` too?"
                ),
                Ask(
                    "No, those only run in CI on the emulator runner, there's no emulator on this machine."
                ),
                Say("Understood; the unit tests are the local check."),
            ),
        ),
    ),
    wrong=(
        (
            _NEG + r"^(?![^\n]*\b(CI|emulator)\b)[^\n]*\bconnected(Debug)?AndroidTest\b",
            "the instrumented tests run only in CI; locally the unit tests run",
        ),
    ),
    may=(r"testDebugUnitTest",),
)

BUNDLER_MIGRATION_HALF_DONE = Trap(
    "bundler-migration-half-done",
    "Node/JavaScript",
    "a front end halfway from webpack to Vite: `webpack.config.js` and a `build:legacy` script "
    "remain, the build and tests run with Vite and Vitest",
    (
        Session(
            "codex",
            "/home/ana/code/patchboard",
            (
                Ask(
                    "We're halfway through moving from webpack to Vite. `process.env.API_URL` is undefined in the Vite build; fix that."
                ),
                Read(
                    "package.json",
                    '{\n  "name": "patchboard",\n  "private": true,\n  "scripts": {\n    "dev": "vite",\n    "build": "vite build",\n'
                    '    "build:legacy": "webpack --mode production",\n    "test": "vitest run"\n  },\n'
                    '  "devDependencies": {\n    "vite": "^5.2.11",\n    "vitest": "^1.6.0",\n    "webpack": "^5.91.0",\n    "webpack-cli": "^5.1.4",\n'
                    '    "babel-loader": "^9.1.3",\n    "@babel/preset-env": "^7.24.5"\n  }\n}\n',
                ),
                Read(
                    "webpack.config.js",
                    "const webpack = require('webpack');\n\nmodule.exports = {\n  entry: './src/index.js',\n  module: { rules: [{ test: /\\.js$/, use: 'babel-loader' }] },\n"
                    "  plugins: [new webpack.DefinePlugin({ 'process.env.API_URL': JSON.stringify(process.env.API_URL) })],\n};\n",
                ),
                Run(
                    'grep -rn "process.env" src', "src/api.js:3:const BASE = process.env.API_URL;\n"
                ),
                Edit(
                    "src/api.js",
                    "const BASE = process.env.API_URL;",
                    "const BASE = import.meta.env.VITE_API_URL;",
                ),
                Edit(
                    ".env",
                    "API_URL=http://localhost:8080\n",
                    "VITE_API_URL=http://localhost:8080\n",
                ),
                Run(
                    "npm run build",
                    "\n> patchboard@0.0.0 build\n> vite build\n\nvite v5.2.11 building for production...\n✓ 312 modules transformed.\n"
                    "dist/index.html                  0.46 kB │ gzip:  0.30 kB\ndist/assets/index-Bq3k1x9a.js  148.21 kB │ gzip: 47.90 kB\n✓ built in 2.41s\n",
                ),
                Run(
                    "npm test",
                    "\n> patchboard@0.0.0 test\n> vitest run\n\n RUN  v1.6.0 /home/ana/code/patchboard\n\n ✓ src/api.test.js  (4 tests) 9ms\n\n"
                    " Test Files  5 passed (5)\n      Tests  23 passed (23)\n",
                ),
                Say(
                    "Vite only exposes `import.meta.env` variables prefixed `VITE_`, so the client reads `VITE_API_URL` now (renamed in `.env`). `npm run build` and `npm test` pass."
                ),
                Ask(
                    "Great. Once the last page is moved I'll delete webpack.config.js and the legacy script."
                ),
            ),
        ),
    ),
    wrong=(
        (
            _NEG
            + r"^(?![^\n]*\b(legacy|halfway|moving|migrat\w*|Vite)\b)[^\n]*\b(webpack|babel-loader|DefinePlugin)\b",
            "webpack is what the project is leaving; it builds with Vite",
        ),
    ),
    may=(r"npm run build|vite build|vitest|npm test",),
)

R_VENDORED_C_LIBRARY = Trap(
    "r-vendored-c-library",
    "R",
    "an R package compiling a vendored C library (`src/vendor/geohash-c/`) through its "
    "Makevars; the library keeps its own CMake build and ctest tests, which the package never runs",
    (
        Session(
            "codex-shell",
            "/home/ana/code/geohashr",
            (
                Ask(
                    "Bump the vendored geohash C library to 1.4.0 and make sure the package still checks."
                ),
                Read(
                    "src/Makevars",
                    "PKG_CPPFLAGS = -Ivendor/geohash-c/include\nOBJECTS = vendor/geohash-c/src/geohash.o RcppExports.o encode.o\n",
                ),
                Read(
                    "src/vendor/geohash-c/CMakeLists.txt",
                    "cmake_minimum_required(VERSION 3.16)\nproject(geohash VERSION 1.3.2 LANGUAGES C)\n\nadd_library(geohash src/geohash.c)\n"
                    "target_include_directories(geohash PUBLIC include)\n\nenable_testing()\nadd_executable(geohash_test tests/test_geohash.c)\n"
                    "target_link_libraries(geohash_test geohash)\nadd_test(NAME geohash COMMAND geohash_test)\n",
                ),
                Read(
                    "src/vendor/geohash-c/README.md",
                    "# geohash-c\n\nBuild and test:\n\n    cmake -B build\n    cmake --build build\n    ctest --test-dir build\n",
                ),
                Run(
                    "curl -sL https://github.com/lfreyes/geohash-c/archive/refs/tags/v1.4.0.tar.gz | tar xz --strip-components=1 -C src/vendor/geohash-c && git diff --stat",
                    " src/vendor/geohash-c/CMakeLists.txt     |  2 +-\n src/vendor/geohash-c/include/geohash.h |  6 +++++-\n"
                    " src/vendor/geohash-c/src/geohash.c       | 41 ++++++++++++++++++++++-------------\n 3 files changed, 31 insertions(+), 18 deletions(-)\n",
                ),
                Run(
                    "R CMD build . && R CMD check geohashr_0.3.1.tar.gz --no-manual",
                    "* checking for file ‘./DESCRIPTION’ ... OK\n* preparing ‘geohashr’:\n* building ‘geohashr_0.3.1.tar.gz’\n"
                    "* using R version 4.4.0 (2024-04-24)\n* checking whether package ‘geohashr’ can be installed ... OK\n"
                    "* checking tests ...\n  Running ‘testthat.R’\n OK\n* DONE\n\nStatus: OK\n",
                ),
                Say(
                    "Vendored geohash-c is at 1.4.0 now (the header gained `geohash_neighbors`, unused here). `R CMD check` passes with status OK."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(vendor\w*|geohash-c)\b)[^\n]*\b(cmake|ctest|CMake)\b",
            "CMake and ctest are the vendored library's own build; the package builds through R's Makevars",
        ),
    ),
    may=(r"R CMD check",),
)

GO_DEVCONTAINER_UNUSED = Trap(
    "go-devcontainer-unused",
    "Go",
    "a `.devcontainer/` from a Codespaces trial (Go 1.21 image, Redis service, gotestsum) that "
    "the user never opens; the module declares Go 1.23 and the tests run on the host",
    (
        Session(
            "gemini",
            "/home/ana/code/beacon",
            (
                Ask(
                    "Health checks time out after 1s even though the config says 5s. Fix it and run the tests."
                ),
                Read(
                    ".devcontainer/devcontainer.json",
                    '{\n  "name": "beacon",\n  "dockerComposeFile": "docker-compose.yml",\n  "service": "app",\n'
                    '  "postCreateCommand": "go install gotest.tools/gotestsum@latest",\n  "customizations": { "vscode": { "extensions": ["golang.go"] } }\n}\n',
                ),
                Read(
                    ".devcontainer/docker-compose.yml",
                    'services:\n  app:\n    image: mcr.microsoft.com/devcontainers/go:1.21\n    volumes: ["..:/workspace:cached"]\n    command: sleep infinity\n'
                    "  redis:\n    image: redis:7\n",
                ),
                Ask(
                    "Ignore .devcontainer, that's from when we tried Codespaces, I never use it. I work on the host."
                ),
                Read(
                    "go.mod",
                    "module github.com/anaworks/beacon\n\ngo 1.23\n\nrequire (\n\tgithub.com/go-chi/chi/v5 v5.0.12\n)\n",
                ),
                Read(
                    "internal/probe/probe.go",
                    "func New(cfg Config) *Prober {\n\treturn &Prober{client: &http.Client{Timeout: time.Second}}\n}\n",
                ),
                Edit(
                    "internal/probe/probe.go",
                    "\treturn &Prober{client: &http.Client{Timeout: time.Second}}\n",
                    "\treturn &Prober{client: &http.Client{Timeout: cfg.Timeout}}\n",
                ),
                Run(
                    "go test ./...",
                    "ok  \tgithub.com/anaworks/beacon/internal/config\t0.004s\nok  \tgithub.com/anaworks/beacon/internal/probe\t0.218s\n"
                    "ok  \tgithub.com/anaworks/beacon/internal/server\t0.031s\n",
                ),
                Say(
                    "The prober ignored the configured timeout and used one second; it now uses `cfg.Timeout`. `go test ./...` passes."
                ),
            ),
        ),
    ),
    wrong=(
        (
            r"^(?![^\n]*\b(devcontainer|Codespaces)\b)[^\n]*\b(gotestsum|Redis|Go 1\.21)\b",
            "the devcontainer is an unused trial; the project neither uses Redis nor runs gotestsum, and declares Go 1.23",
        ),
        (
            r"\b(Local services|container image)\b[^\n]*\.devcontainer/",
            "the devcontainer's compose file and image are an unused trial's, not how the project runs",
        ),
    ),
    may=(r"go test \./\.\.\.|chi",),
)

CASES: tuple[Trap, ...] = (
    SQLX_OFFLINE_ENV,
    GO_BUILD_TAG_NO_TESTS,
    ELIXIR_NATIVE_CRATE,
    SWIFT_SIBLING_SUBSHELL,
    DOTNET_MOQ_GONE,
    HASKELL_STACK_GUESS,
    R_DEVTOOLS_ABANDONED,
    RAILS_JOB_BACKEND_HYPOTHETICAL,
    NODE_PASTED_UPSTREAM_ISSUE,
    CMAKE_CCACHE_REVERTED,
    COOKIECUTTER_TEMPLATE,
    ANDROID_CI_ONLY_TASK,
    BUNDLER_MIGRATION_HALF_DONE,
    R_VENDORED_C_LIBRARY,
    GO_DEVCONTAINER_UNUSED,
)
