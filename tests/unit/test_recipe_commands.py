"""The judge's rule for recipes whose command is not a command (bench/recipe_commands.py)."""

from __future__ import annotations

import re

import pytest

from bench.answer_key_gold import AnswerKey, GoldItem
from bench.answer_key_hook import score_hook
from bench.answer_key_score import Memory, junk_reason
from bench.recipe_commands import command_problem, recipe_problem, step_spans

# Recipes the pipeline writes for real projects, one or more per ecosystem: each must stay usable.
REAL_RECIPES = [
    'To run the tests: `uv run pytest` (e.g. `uv run pytest -m "not (tui or browser)" -v`).',
    "In `caffeine_lang/`, to run the tests: `gleam test` (e.g. `gleam test --target javascript`).",
    "In `windows/`, to format: `cargo fmt --all --check`.",
    "To lint: `golangci-lint run`.",
    'To build the documentation: `Rscript -e "devtools::document()"`.',
    "A subagent's brief says: to build, `dotnet build`; to run the tests, `dotnet test`.",
    "Everyday commands AGENTS.md names: Run the tests with `composer test` (AGENTS.md:87).",
    "AGENTS.md, under Using Revise, says how to test: `JULIA_TEST_FAILFAST=1 ./julia -e "
    "'using Revise; Revise.track(Base); include(\"test.jl\")'`.",
    "CI (.github/workflows/deploy.yml) builds with `GOOS=linux GOARCH=amd64 go build -o "
    "../safecast-mcp ./cmd/mcp-server/` (in `go/`).",
    "The test plan checked the change with `script/renovate_validate.sh` (it reported "
    "`INFO: Config validated successfully`).",
    "Tasks `mise.toml` defines: `mise run dev` (Create/migrate DB if needed); `mise run deploy:dev`.",
    "README.md, under Installation, gives: `npx expo install react-native-live-text-view`.",
    "To run the tests: `./gradlew test`.",
    "To run the tests: `bin/rails test`.",
    "To run the tests: `Invoke-Pester -Path tests`.",
    "To run the tests: `R CMD check .`.",
    'Branches are merged with `git merge --no-ff <branch> -m "<text>"`.',
    "To put a change to `ai/tools/web_fetch_tool.rb` into effect: it is discovered on restart.",
]


@pytest.mark.parametrize("content", REAL_RECIPES)
def test_real_recipes_of_every_ecosystem_stay_usable(content: str) -> None:
    assert recipe_problem(content) == ""
    assert junk_reason(Memory("recipe", "recipe:x", content)) == ""


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        # prose shown as the command (a session's own words, a here-document's line)
        ("To run the tests: `No spec added: the change is docs only.`", "sentence"),
        ("To run the tests: `No spec added: see the notes` (worked once).", "sentence"),
        ("To commit: `Fixed the parser, then the tests pass.`", "sentence"),
        # a placeholder template step
        ("To run the tests: `<command>`.", "placeholder"),
        ("To lint: `{lint_command}`.", "placeholder"),
        ("To deploy: `... --prod` (then restart).", "placeholder"),
        # a file path where the command should be, in two ecosystems
        ("To run the tests: `tests/test_parser.py`.", "file path"),
        ("To build: `src/main.rs`.", "file path"),
        ("To run the tests: `docs/testing.md`.", "file path"),
    ],
)
def test_a_recipe_whose_command_is_not_a_command_is_junk(content: str, reason: str) -> None:
    why = junk_reason(Memory("recipe", "recipe:x", content))
    assert reason in why
    assert "not a command" in why


def test_the_rule_judges_only_recipes() -> None:
    # A pitfall may quote an error message or a path; only a recipe's span must be a command.
    for kind in ("pitfall", "project_fact", "user_style"):
        assert (
            junk_reason(Memory(kind, "k", "Running it failed with `No spec added: see the notes`."))
            == ""
        )


def test_one_plausible_step_keeps_a_recipe_usable() -> None:
    assert recipe_problem("Before finishing: `make lint` → `No spec added: docs only.`") == ""


def test_a_span_in_the_recipes_lead_names_its_subject_and_is_not_judged() -> None:
    text = "To put a change to `config/app.yml` into effect (its advice): `bin/restart`."
    assert step_spans(text) == ["bin/restart"]
    assert step_spans("Read logs with `gh run view`.") == ["gh run view"]
    # a colon inside a code span is no lead's end
    assert step_spans("Run `echo a: b` first.") == ["echo a: b"]


@pytest.mark.parametrize(
    "span",
    [
        "pytest -x",
        "npm run build && npm link",
        'git commit -m "fix: parse dates. Then more."',  # prose inside quotes is an argument
        "FOO=1 BAR=2 make test",
        "/usr/bin/env python3 -m venv .venv",
        "python3.12 -m pytest",
        "mix test",
        "scripts/install",
        "./run.py",
        "Rscript -e 'x'",
        "deno task check",
    ],
)
def test_commands_of_every_shape_are_plausible(span: str) -> None:
    assert command_problem(span) == ""


def test_a_session_start_recipe_line_whose_command_is_not_a_command_states_nothing() -> None:
    item = GoldItem(
        "test", "high", "recipe", "note", ((re.compile("run the tests", re.IGNORECASE),),)
    )
    key = AnswerKey("demo", "Python", (item,), (), session_start=("test",))
    bad = "### How things are run here\n- To run the tests: `No spec added: docs only.`\n"
    scored = score_hook(key, bad)
    assert scored.missing == ("test",)
    assert scored.junk == ("To run the tests: `No spec added: docs only.`",)
    good = score_hook(key, "### How things are run here\n- To run the tests: `pytest`.\n")
    assert good.covered == ("test",)
    assert good.junk == ()


def test_a_recipe_that_does_not_present_commands_may_quote_a_file_and_its_contents() -> None:
    # A file to write: its path pattern and its front matter are no commands, and need not be.
    text = 'Each change gets a file `.changeset/<name>.md`: its front matter (`"app": patch`).'
    assert recipe_problem(text) == ""
    assert recipe_problem("Each change gets a file: `.changeset/notes.md`.") == ""
    # Prose stays junk whatever the lead.
    assert "sentence" in recipe_problem("Each change gets: `No spec added: see the notes`.")
