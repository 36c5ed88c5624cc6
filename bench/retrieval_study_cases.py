# ruff: noqa: E501  (memory texts are kept as one string a line)
"""Made-up projects for `bench.retrieval_study`: memories in the shapes the extractors write, and
questions a developer asks of them in other words (and off-topic ones that must get nothing).

Every project, path and command here is invented. A question names the key of the memory that
answers it; a question with no key is off-topic: search must abstain on it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StudyProject:
    name: str
    memories: tuple[tuple[str, str, str], ...]
    """(type, key, content) of each memory."""
    questions: tuple[tuple[str, str, str | None], ...]
    """(group, question, key of the memory that answers it, or None: off-topic)."""


OFF_TOPIC: tuple[str, ...] = (
    "what is the capital of France?",
    "how do I run a marathon in under four hours?",
    "where are the best beaches in Portugal?",
    "what language do people speak in Brazil?",
    "how long should I boil an egg?",
    "what is this error about a null pointer in the payment webhook?",
    "how do I start a sourdough starter?",
    "which framework should I pick for a blog about gardening?",
    "where is the nearest train station?",
    "what is the tallest mountain in Africa?",
    "how do I commit to a daily exercise routine?",
    "where are the tests of the new tax law published?",
)
"""Asked of every project: none of its memories answers them."""

PROJECTS: tuple[StudyProject, ...] = (
    StudyProject(
        "tidewatch",
        (
            (
                "project_fact",
                "about",
                "What this project (tidewatch) is and does, per its README.md: a terminal dashboard that plots harbour tide gauges from NOAA-style CSV feeds.",
            ),
            ("project_fact", "language", "Rust project (Cargo.toml)."),
            (
                "recipe",
                "recipe:run",
                "To run the app: `cargo run --release -- --feed samples/harbour.csv`.",
            ),
            ("recipe", "recipe:test", "To run the tests: `cargo nextest run`."),
            ("recipe", "recipe:lint", "To lint: `cargo clippy --all-targets`."),
            (
                "pitfall",
                "pitfall:missing:libssl",
                "`libssl-dev` was not installed where the session ran: `cargo build` failed with `could not find system library 'openssl'`.",
            ),
            (
                "user_style",
                "pref:keep_replies_short",
                "Keep replies short: the user asked for two or three sentences, no walls of text.",
            ),
            (
                "project_fact",
                "home",
                "The project's repository is https://example.org/harbour/tidewatch (named in the session's git metadata).",
            ),
        ),
        (
            ("what", "what is this repo?", "about"),
            ("what", "what does this tool do?", "about"),
            ("language", "what is it written in?", "language"),
            ("run", "how do I start it?", "recipe:run"),
            ("run", "how can I try the app locally?", "recipe:run"),
            ("test", "how do I run the test suite?", "recipe:test"),
            ("style", "how long should your answers be?", "pref:keep_replies_short"),
            ("pitfall", "why does the build fail looking for openssl?", "pitfall:missing:libssl"),
        ),
    ),
    StudyProject(
        "larkspur",
        (
            (
                "project_fact",
                "about",
                "The project `larkspur` (its folder's name) is written in Elixir (`mix.exs` at its root).",
            ),
            (
                "project_fact",
                "stack_section",
                'The stack, as the "Built with" section of README.md lists it: Phoenix 1.7 with LiveView; Ecto on PostgreSQL; Tailwind for styles.',
            ),
            ("recipe", "recipe:run", "To run the app: `mix phx.server`."),
            ("recipe", "recipe:test", "To run the tests: `mix test`."),
            ("recipe", "recipe:format", "To format: `mix format`."),
            (
                "project_fact",
                "where:lib:contexts",
                "`lib/larkspur/`: the contexts (Accounts, Bookings, Billing); the web layer is in `lib/larkspur_web/`.",
            ),
            (
                "pitfall",
                "pitfall:ecto:sandbox",
                "Tests that spawn processes fail with `DBConnection.OwnershipError` unless the case checks the sandbox out in shared mode.",
            ),
            (
                "user_style",
                "pref:reply_language",
                "The user writes to the assistant in German (Deutsch), 6 of 6 messages: reply in German.",
            ),
        ),
        (
            ("what", "what is this project?", "about"),
            ("language", "which languages and frameworks does the codebase use?", "stack_section"),
            ("language", "what's the tech stack?", "stack_section"),
            ("run", "how do I launch the server?", "recipe:run"),
            ("test", "how are the tests run?", "recipe:test"),
            ("layout", "where does the code live?", "where:lib:contexts"),
            ("style", "which language should you reply in?", "pref:reply_language"),
            (
                "pitfall",
                "why do my tests get an ownership error from the database?",
                "pitfall:ecto:sandbox",
            ),
        ),
    ),
    StudyProject(
        "pocketherb",
        (
            (
                "project_fact",
                "about",
                "What this project is, as the user put it: an Android app that reminds gardeners when to water each plant.",
            ),
            (
                "project_fact",
                "language",
                "Code in the files listed by git in this project's sessions: Kotlin (14 files).",
            ),
            ("recipe", "recipe:build", "To build: `./gradlew assembleDebug`."),
            ("recipe", "recipe:test", "To run the tests: `./gradlew testDebugUnitTest`."),
            (
                "recipe",
                "recipe:run",
                "To run the app: `./gradlew installDebug` with an emulator running.",
            ),
            (
                "pitfall",
                "pitfall:gradle:jdk",
                "The build fails with `Unsupported class file major version 65` under JDK 21; the project builds with JDK 17.",
            ),
            (
                "project_fact",
                "convention:commits",
                "Commit subjects start with a Conventional Commits prefix `type: summary` (feat, fix, chore) — 9 of 10 commits listed by `git log`.",
            ),
        ),
        (
            ("what", "what is this application?", "about"),
            ("language", "what programming language is the app in?", "language"),
            ("build", "how do I compile it?", "recipe:build"),
            ("run", "how do I run it on a phone?", "recipe:run"),
            ("test", "what's the command for the unit tests?", "recipe:test"),
            ("commit", "how should I write commit messages?", "convention:commits"),
            ("pitfall", "which JDK does the build need?", "pitfall:gradle:jdk"),
        ),
    ),
    StudyProject(
        "quarry",
        (
            (
                "project_fact",
                "build",
                "The project is a data pipeline run with Dagster: the root `workspace.yaml`.",
            ),
            ("project_fact", "language", "Python project (pyproject.toml)."),
            (
                "project_fact",
                "package_manager",
                "Commands in this project run through uv, its package manager.",
            ),
            ("recipe", "recipe:run", "To run the app: `uv run dagster dev`."),
            ("recipe", "recipe:test", "To run the tests: `uv run pytest -q`."),
            (
                "project_fact",
                "where:assets",
                "`quarry/assets/`: one module per source system; the tests mirror it under `tests/assets/`.",
            ),
            (
                "pitfall",
                "pitfall:duckdb:lock",
                "Two runs at once fail with `IO Error: Could not set lock on file warehouse.duckdb`: stop the dev server before running the backfill.",
            ),
            (
                "user_style",
                "pref:use_diff_when_the",
                "When a change is small, show it as a diff instead of the whole file.",
            ),
        ),
        (
            ("what", "what is this codebase?", "build"),
            ("language", "which language and package manager does it use?", "package_manager"),
            ("run", "how do I spin it up locally?", "recipe:run"),
            ("test", "how do I test it?", "recipe:test"),
            ("layout", "where are the sources and tests?", "where:assets"),
            ("style", "how should you show me code changes?", "pref:use_diff_when_the"),
            (
                "pitfall",
                "why does the backfill say it could not set a lock?",
                "pitfall:duckdb:lock",
            ),
        ),
    ),
    StudyProject(
        "meridian",
        (
            (
                "project_fact",
                "about",
                "What this project (meridian) is and does, per its root package doc (`cmd/meridian/main.go`): a gRPC service that schedules delivery routes for couriers.",
            ),
            (
                "project_fact",
                "language",
                "Commands the project's build configuration runs are Go's: `go build ./...` (`Makefile`).",
            ),
            ("recipe", "recipe:run", "To run the app: `make run`."),
            ("recipe", "recipe:test", "To run the tests: `go test ./...`."),
            ("recipe", "recipe:build", "To build: `make build`."),
            (
                "pitfall",
                "pitfall:protoc:missing",
                "`protoc-gen-go` was not found on `PATH`: `make proto` failed with `program not found or is not executable`.",
            ),
            (
                "project_fact",
                "where:internal",
                "`internal/`: the routing solver in `internal/solver/`, the storage layer in `internal/store/`.",
            ),
        ),
        (
            ("what", "what does this service do?", "about"),
            ("language", "what language is this written in?", "language"),
            ("run", "how do I restart the server?", "recipe:run"),
            ("build", "how do I build the binary?", "recipe:build"),
            ("test", "how do I run the unit tests?", "recipe:test"),
            ("layout", "how is the repository laid out?", "where:internal"),
            ("pitfall", "why does make proto fail?", "pitfall:protoc:missing"),
        ),
    ),
    StudyProject(
        "emberforge",
        (
            (
                "project_fact",
                "build",
                "The project is a game engine built with CMake: the root `CMakeLists.txt`.",
            ),
            ("project_fact", "language", "C++ project (CMakeLists.txt)."),
            (
                "project_fact",
                "public_headers",
                "The project `emberforge` ships a library: its public headers are in `include/ember/` (`ember.h`, `ember_math.h`, `ember_render.h`).",
            ),
            ("recipe", "recipe:build", "To build: `cmake -S . -B build && cmake --build build`."),
            ("recipe", "recipe:test", "To run the tests: `ctest --test-dir build`."),
            (
                "pitfall",
                "pitfall:vulkan:sdk",
                "`find_package(Vulkan)` fails unless `VULKAN_SDK` is set in the shell that runs cmake.",
            ),
            (
                "user_style",
                "pref:explain_before_editing",
                "Explain the plan in a few bullet points before editing any file.",
            ),
        ),
        (
            ("what", "what is this repository?", "build"),
            ("language", "what languages is it written in?", "language"),
            ("layout", "where are the headers?", "public_headers"),
            ("build", "how do I compile the engine?", "recipe:build"),
            ("test", "how do I run the tests?", "recipe:test"),
            ("style", "how do I like you to work before editing?", "pref:explain_before_editing"),
            ("pitfall", "why can't cmake find Vulkan?", "pitfall:vulkan:sdk"),
        ),
    ),
    StudyProject(
        "inkwell",
        (
            (
                "project_fact",
                "about",
                "What this project (inkwell) is and does, per its gemspec: a Ruby gem that renders Markdown to print-ready PDF.",
            ),
            ("project_fact", "language", "Ruby project (Gemfile)."),
            ("recipe", "recipe:test", "To run the tests: `bundle exec rspec`."),
            ("recipe", "recipe:lint", "To lint: `bundle exec rubocop`."),
            (
                "recipe",
                "recipe:release_steps",
                "To release, as `v2.3.0` was: bump `lib/inkwell/version.rb` → `bundle exec rake release`.",
            ),
            (
                "pitfall",
                "pitfall:prawn:fonts",
                "PDFs come out with empty boxes for accented letters unless a TTF font is registered; the built-in Helvetica has no such glyphs.",
            ),
            (
                "project_fact",
                "convention:commits",
                "Commit subjects are plain sentences in the imperative mood (“Add …”, “Fix …”) with no Conventional Commits type — 12 of 12 commits listed by `git log`.",
            ),
        ),
        (
            ("what", "what's this library for?", "about"),
            ("language", "what is the project written in?", "language"),
            ("test", "how do I run the specs?", "recipe:test"),
            ("commit", "what style do commit messages follow here?", "convention:commits"),
            ("pitfall", "why are accented letters missing from the PDF?", "pitfall:prawn:fonts"),
        ),
    ),
    StudyProject(
        "sapling-docs",
        (
            (
                "project_fact",
                "about",
                'The user pasted a brief and called it "the site"; its mission: a documentation site for a plant-identification API, written in Markdown and built with a static site generator.',
            ),
            (
                "project_fact",
                "site_pages",
                "Pages of the site are files of this repository under `content/`: the page /guides/quickstart is `content/guides/quickstart.md`.",
            ),
            (
                "recipe",
                "recipe:run",
                "To run the app: `npm run dev` (the preview server on port 4321).",
            ),
            ("recipe", "recipe:build", "To build: `npm run build`."),
            (
                "user_style",
                "pref:reply_language",
                "The user writes to the assistant in Spanish (español), 5 of 5 messages: reply in Spanish.",
            ),
            (
                "pitfall",
                "pitfall:links:trailing",
                "Links without a trailing slash 404 on the deployed site; the preview server hides it.",
            ),
        ),
        (
            ("what", "what is this repo about?", "about"),
            ("run", "how do I preview it?", "recipe:run"),
            ("layout", "where are the pages?", "site_pages"),
            ("style", "what language do you answer me in?", "pref:reply_language"),
            ("pitfall", "why do some links 404 after deploying?", "pitfall:links:trailing"),
        ),
    ),
)
