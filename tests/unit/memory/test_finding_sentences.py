"""What one sentence states as a finding about how tools behave, told apart from notes on the
work at hand, guesses and restated test failures."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.finding_sentences import finding


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "Ah! The issue is that Ecto doesn't cast virtual fields unless they are in the cast list.",
            "Found in a session: Ecto doesn't cast virtual fields unless they are in the cast list.",
        ),
        (
            "This is because `go test` only runs packages that match the pattern given.",
            "Found in a session: `go test` only runs packages that match the pattern given.",
        ),
        (
            "It turns out the bundler requires an explicit `exports` entry for deep imports.",
            "Found in a session: the bundler requires an explicit `exports` entry for deep imports.",
        ),
        (
            "Note: Fly secrets (like a production `DATABASE_URL`) are write-only — `fly secrets "
            "list` only shows names and digests, not values.",
            "Found in a session: Fly secrets (like a production `DATABASE_URL`) are write-only — "
            "`fly secrets list` only shows names and digests, not values.",
        ),
        (
            "Heads up: `pip install -e .` does not install the `dev` extras by itself.",
            "Found in a session: `pip install -e .` does not install the `dev` extras by itself.",
        ),
        (
            "Gotcha: `go test ./...` never runs the packages under `testdata/`.",
            "Found in a session: `go test ./...` never runs the packages under `testdata/`.",
        ),
    ],
)
def test_a_finding_about_how_a_tool_behaves_is_kept(text: str, said: str) -> None:
    assert finding(text) == said


@pytest.mark.parametrize(
    "text",
    [
        "The issue is that I'm calling the cached method instead of the plain one.",  # the work
        "The problem is that we never reset the counter between runs, so it only grows.",
        "The issue is that Rails might not load the initializer in test mode only.",  # a guess
        "The issue is that the HTML doesn't contain the expected link.",  # a test restated
        "The issue is that the paths are still resolving to the root.",  # no rule of behaviour
        "The reason is simple.",  # too short
        "Let me check why the build doesn't pick up the config.",  # no explanation
        "Note: I only changed the README, not the code.",  # the work, behind a label
        "Note: the deploy might need the new secret too.",  # a guess behind a label
        "Notes: the tests pass and nothing else changed in the build.",  # no finding's label
    ],
)
def test_notes_on_the_work_guesses_and_restated_failures_are_not_findings(text: str) -> None:
    assert finding(text) == ""


@pytest.mark.parametrize(
    ("text", "said"),
    [
        # a later clause about the work at hand leaves the first one a finding of its own
        (
            "Note: `mix ecto.migrate` requires `DATABASE_URL` to be set; the test alias runs "
            "the migrations itself.",
            "Found in a session: `mix ecto.migrate` requires `DATABASE_URL` to be set.",
        ),
        # a setting silently left aside is a rule of behaviour
        (
            "Gotcha: `Directory.Packages.props` pins every package version centrally, so a "
            "version in a `.csproj` is ignored.",
            "Found in a session: `Directory.Packages.props` pins every package version "
            "centrally, so a version in a `.csproj` is ignored.",
        ),
    ],
)
def test_a_labelled_finding_s_first_clause_and_an_ignored_setting(text: str, said: str) -> None:
    assert finding(text) == said


@pytest.mark.parametrize(
    "text",
    [
        # the later clause qualifies the first: the first alone would say too much
        "Note: `mix ecto.migrate` requires `DATABASE_URL`; but only where we run it by hand.",
        # the first clause alone is still a note on the work
        "Note: I only changed `mix.exs`; the lock file requires nothing else.",
        # a guess in the first clause
        "Note: `mix ecto.migrate` probably requires `DATABASE_URL`; the alias runs it.",
    ],
)
def test_a_first_clause_that_is_qualified_worked_on_or_guessed_is_no_finding(text: str) -> None:
    assert finding(text) == ""


def test_a_labelled_must_be_with_a_participle_is_a_rule() -> None:
    text = (
        "Gotcha: `dotnet ef migrations add` must be given `--startup-project src/Api`, because "
        "the `DbContext` lives in the Data project."
    )
    assert finding(text) == (
        "Found in a session: `dotnet ef migrations add` must be given `--startup-project "
        "src/Api`, because the `DbContext` lives in the Data project."
    )


@pytest.mark.parametrize(
    "text",
    [
        # "must be" before a noun is a guess
        "Note: the failure must be the stale cache in `node_modules/.vite` only.",
        # the session's own change and what it still needs
        "Note: this change must be deployed to the edge proxy before it shows up.",
        "Heads up: the fix requires `REDIS_URL` in production too.",
    ],
)
def test_a_guessed_must_be_or_a_note_on_the_change_is_no_finding(text: str) -> None:
    assert finding(text) == ""


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "Note: `config/runtime.exs` overrides `per_minute` from `RATE_LIMIT_PER_MINUTE` in "
            "production.",
            "Found in a session: `config/runtime.exs` overrides `per_minute` from "
            "`RATE_LIMIT_PER_MINUTE` in production.",
        ),
        (
            "Heads up: the limiter keeps its counters in ETS, so they reset when the node restarts.",
            "Found in a session: the limiter keeps its counters in ETS, so they reset when the "
            "node restarts.",
        ),
    ],
)
def test_a_labelled_precedence_or_a_reset_is_a_rule(text: str, said: str) -> None:
    assert finding(text) == said


def test_a_reset_or_an_override_said_of_the_work_or_guessed_is_no_finding() -> None:
    assert finding("Note: I reset the counters when the node restarts, in `Limiter`.") == ""
    assert finding("Note: `runtime.exs` probably overrides `per_minute` in production.") == ""


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "That's why: when `APP_ENV` is set, the loader ignores `settings.ini` entirely.",
            "Found in a session: when `APP_ENV` is set, the loader ignores `settings.ini` entirely.",
        ),
        (
            "Here's what's going on: the worker pool doesn't share the request's transaction.",
            "Found in a session: the worker pool doesn't share the request's transaction.",
        ),
    ],
)
def test_an_explanation_behind_a_label_is_a_finding(text: str, said: str) -> None:
    assert finding(text) == said


@pytest.mark.parametrize(
    "text",
    [
        "That's why: I changed the port in the config.",  # the session's own step
        "Here's what's going on: the loader might skip the file on a cold start.",  # a guess
        "That's why I skipped the slow suite.",  # no label: the work at hand
    ],
)
def test_a_label_before_a_step_or_a_guess_is_no_finding(text: str) -> None:
    assert finding(text) == ""


@pytest.mark.parametrize(
    ("said", "stated"),
    [
        (
            "The issue is that your `tsconfig.json` sets `moduleResolution` to `node`, which does "
            "not read the `exports` field.",
            "Found in a session: the project's `tsconfig.json` sets `moduleResolution` to `node`, "
            "which does not read the `exports` field.",
        ),
        (
            "The reason is that your src/config.ts never loads `.env` on its own.",
            "Found in a session: the project's src/config.ts never loads `.env` on its own.",
        ),
    ],
)
def test_your_file_named_to_the_user_is_the_projects(said: str, stated: str) -> None:
    assert finding(said) == stated


@pytest.mark.parametrize(
    "said",
    [
        # a person's own machine or home file is no finding about the project
        "The issue is that your machine does not have the `libpq` headers installed.",
        "The issue is that your ~/.npmrc overrides the registry for every project.",
        "The issue is that your `~/.npmrc` overrides the registry for every project.",
    ],
)
def test_your_machine_or_home_file_stays_personal(said: str) -> None:
    assert finding(said) == ""
