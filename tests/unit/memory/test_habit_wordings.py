"""Habits said once in everyday wordings (extractors/habit_wordings.py and the readings around
it in preferences.py, user_wording.py, instruction_forms.py): each wording is a standing rule,
and the same shape about the task at hand, the product being built or a remark is not."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.habit_wordings import habit_wording
from squirrel_memory.extractors.preferences import stated_preferences
from squirrel_memory.extractors.user_wording import asked_as_rule


def _standing(message: str, *, replying: bool = False) -> list[str]:
    return [
        p.content
        for p in stated_preferences(message, after_assistant_action=replying)
        if p.standing
    ]


@pytest.mark.parametrize(
    ("message", "content"),
    [
        (
            "Every public function needs a doc comment.",
            "Every public function needs a doc comment.",
        ),
        ("all handlers must have a timeout", "All handlers must have a timeout."),
        (
            "Commit messages should be in the imperative mood.",
            "Commit messages should be in the imperative mood.",
        ),
        ("Handlers should return early", "Handlers should return early."),
        (
            "I'd like every new endpoint to have an integration test.",
            "Every new endpoint should have an integration test.",
        ),
        (
            "i want conventional commit messages from now on",
            "Prefers conventional commit messages.",
        ),
        ("just so you know, I always want --no-ff merges", "Prefers --no-ff merges."),
        (
            "Add the health endpoint. Also, as a rule, I want table-driven tests.",
            "Prefers table-driven tests.",
        ),
        (
            "Default to async/await, never raw callbacks.",
            "Default to async/await, never raw callbacks.",
        ),
        ("Don't ever commit .env files.", "Never commit .env files."),
        ("dont use sudo in the scripts, ever", "Never use sudo in the scripts."),
        (
            "quit using `any` in the code, use proper types",
            "Use proper types instead of `any` in the code.",
        ),
        (
            "Please stop generating getters and setters by hand, use data classes.",
            "Use data classes instead of generating getters and setters by hand.",
        ),
        (
            "stop wrapping every error in a custom exception class",
            "Avoid wrapping every error in a custom exception class.",
        ),
        (
            "please don't add comments that just restate the code",
            "Don't add comments that just restate the code.",
        ),
        ("we use RSpec here, not minitest", "Use RSpec, not minitest."),
        (
            "In library code we return Result instead of panicking.",
            "Return Result instead of panicking in library code.",
        ),
        (
            "we don't write raw SQL, everything goes through the query builder",
            "Don't write raw SQL, everything goes through the query builder.",
        ),
        (
            "Please put set -euo pipefail at the top of every shell script.",
            "Put set -euo pipefail at the top of every shell script.",
        ),
        ("declare strict_types in every PHP file", "Declare strict_types in every PHP file."),
        (
            "Use British spelling in all user-facing strings.",
            "Use British spelling in all user-facing strings.",
        ),
        (
            "I want the commit messages to follow Conventional Commits",
            "Commit messages should follow Conventional Commits.",
        ),
        (
            "we'd like PR titles to start with the ticket id",
            "PR titles should start with the ticket id.",
        ),
        ("As usual, run the linter before you commit", "Run the linter before you commit."),
        ("as always: tests first, then the code", "Tests first, then the code."),
    ],
)
def test_an_everyday_wording_of_a_habit_is_standing(message: str, content: str) -> None:
    assert _standing(message) == [content]


@pytest.mark.parametrize(
    "message",
    [
        "every test needs fixing",
        "every user needs a password",
        "Every order must have a customer id",
        "Users should be able to log in with Google",
        "I'd like every user to have an avatar",
        "the tests should be green now",
        "tests should pass now",
        "Files should be smaller",
        "Errors should be handled better",
        "I want a logout button",
        "I want the tests to pass",
        "I want every test to pass now",
        "I want every test to pass",
        "we need all endpoints to work",
        "we fixed the bug instead of the workaround",
        "we don't use that here",
        "we don't use ORMs",
        "we don't have tests yet",
        "add a license header to all files",
        "fix the imports in all files",
        "stop using the old config, use this one",
        "stop using it, use the new one",
        "don't ever do that again",
        "don't delete the files that are generated",
        "Default to the first one",
        "Use the new logger in all files",
        "I want the buttons to use the brand colour",
        "I want the branch to follow main",
        "as usual, the build is broken",
        "as always, thanks!",
    ],
)
def test_the_same_shape_about_the_moment_is_no_habit(message: str) -> None:
    assert _standing(message) == []
    assert _standing(message, replying=True) == []


def test_a_wording_read_alone_says_none_of_a_question() -> None:
    assert habit_wording("every public function needs a doc comment?") is None


@pytest.mark.parametrize(
    ("clause", "rule"),
    [
        (
            "can you always run the formatter before committing?",
            "always run the formatter before committing",
        ),
        ("could you please never push after a failed build?", "never push after a failed build"),
        ("can you use pnpm from now on?", "use pnpm from now on"),
        (
            "It would be great if you could always include a test plan in the PR description.",
            "always include a test plan in the PR description",
        ),
        ("I'd appreciate it if you never amended pushed commits", "never amended pushed commits"),
    ],
)
def test_a_rule_asked_as_a_question_or_a_wish_is_read_as_the_rule(clause: str, rule: str) -> None:
    assert asked_as_rule(clause) == rule


@pytest.mark.parametrize(
    "clause",
    [
        "can you always run the tests?",
        "can you run the tests before committing?",
        "it would be great if you could add a test plan",
        "why do you always run the tests before committing?",
        "always run the tests before committing",
    ],
)
def test_a_question_or_wish_without_a_lasting_rule_is_not_one(clause: str) -> None:
    assert asked_as_rule(clause) is None


def test_a_way_of_working_asked_to_end_in_a_question_is_the_directive() -> None:
    assert asked_as_rule("could you please stop adding emojis?") == "stop adding emojis"
    assert asked_as_rule("can you stop the server?") is None  # the server, now
    [said] = stated_preferences("can you stop using git add -A?", after_assistant_action=True)
    assert (said.content, said.standing) == ("Avoid using git add -A.", False)


def test_a_rule_asked_as_a_question_is_kept_standing() -> None:
    assert _standing("can you always run mix format before committing?") == [
        "Always run mix format before committing."
    ]


def test_ever_after_a_prohibition_makes_it_last() -> None:
    assert _standing("Don't use force unwraps. Ever.") == ["Don't use force unwraps."]
    assert _standing("Don't push yet. Ever seen this error?") == []


@pytest.mark.parametrize(
    ("message", "content"),
    [("Again: no Lombok!", "No Lombok."), ("as I said, no force pushes", "No force pushes.")],
)
def test_a_thing_ruled_out_again_is_standing(message: str, content: str) -> None:
    assert _standing(message) == [content]


@pytest.mark.parametrize("message", ["again, the same error", "as I said, no idea", "again: no"])
def test_again_before_no_rule_is_no_habit(message: str) -> None:
    assert _standing(message) == []


def test_a_means_said_again_with_a_comma_is_a_choice() -> None:
    assert _standing("no, I said use coroutines, not callbacks", replying=True) == [
        "Prefers coroutines over callbacks."
    ]


@pytest.mark.parametrize(
    "message",
    [
        "I prefer the second approach",
        "I prefer yours",
        "I'd rather go with option B",
        "I prefer not to decide that now",
        "always the same error: connection refused",
        "never been a problem before",
    ],
)
def test_a_pick_or_a_remark_is_no_habit(message: str) -> None:
    assert stated_preferences(message, after_assistant_action=False) == []


def test_prefer_not_to_rules_a_way_out() -> None:
    assert _standing("I prefer not to use mocks") == ["Don't use mocks."]


@pytest.mark.parametrize(
    ("message", "content"),
    [
        ("Our convention: one class per file.", "One class per file."),
        (
            "Rule of thumb: prefer slices to arrays in function signatures.",
            "Prefers slices over arrays in function signatures.",
        ),
        ("Tests must not hit the network.", "Tests must not hit the network."),
        ("Avoid abbreviations in variable names.", "Avoid abbreviations in variable names."),
        (
            "Do not mock the database in integration tests.",
            "Do not mock the database in integration tests.",
        ),
        ("I'm not a fan of long functions.", "Avoid long functions."),
        ("Every migration must be reversible.", "Every migration must be reversible."),
    ],
)
def test_a_labelled_or_kind_wide_rule_is_standing(message: str, content: str) -> None:
    assert _standing(message) == [content]


@pytest.mark.parametrize(
    "message",
    [
        "Our convention: this one",
        "Users must not see the admin page",
        "avoid that function, it's deprecated",
        "avoid the cache for now",
        "don't change anything in the tests",
        "I'm not a fan of this approach",
        "Every migration ran fine.",
        "Every file should be smaller",
        "Whenever you're ready, run the deploy.",
        "whenever you get a chance, update the docs",
        "prefer whichever is faster",
        "I'd prefer the shorter name",
    ],
)
def test_a_label_or_kind_word_about_the_moment_is_no_habit(message: str) -> None:
    assert _standing(message) == []
    assert _standing(message, replying=True) == []


def test_a_question_that_insists_on_always_asks_for_a_rule() -> None:
    assert asked_as_rule("Can you make sure to always run the linter on scripts you write?") == (
        "always run the linter on scripts you write"
    )


@pytest.mark.parametrize(
    ("message", "content"),
    [
        ("When you write Bash, quote all variables.", "When you write Bash, quote all variables."),
        ("if you delete files, tell me", "If you delete files, tell me."),
        (
            "Your standing job is to keep the TODO list in NOTES.md up to date.",
            "Keep the TODO list in NOTES.md up to date.",
        ),
        ("Please write all user-facing text in German.", "Write user-facing text in German."),
        (
            "No emojis in commit messages or code comments, please.",
            "No emojis in commit messages or code comments.",
        ),
        (
            "Add the migration. Note that schema changes always need a rollback script.",
            "Schema changes always need a rollback script.",
        ),
        (
            "Nice. For future reference, the staging deploy always goes through the Makefile.",
            "The staging deploy always goes through the Makefile.",
        ),
        (
            "And generally speaking, don't introduce new dependencies without asking.",
            "Don't introduce new dependencies without asking.",
        ),
    ],
)
def test_a_habit_said_inside_a_request_is_standing(message: str, content: str) -> None:
    assert _standing(message) == [content]


@pytest.mark.parametrize(
    "message",
    [
        "when you write the migration, add an index",
        "if you add it, run the tests",
        "Your job is to add a login page",
        "Your standing job is to fix this bug",
        "users always need a password",
        "no emojis in this file",
        "one thing: fix the typo",
        "Note that the server is down",
        "quick note: the build is red",
        "Going forward, the tests always fail on CI",
        "Note that tests always fail on Mondays",
        "builds never pass on the first try",
    ],
)
def test_a_request_or_remark_inside_the_same_leads_is_no_habit(message: str) -> None:
    assert _standing(message) == []
    assert _standing(message, replying=True) == []


@pytest.mark.parametrize(
    ("message", "content"),
    [
        (
            "the rule here is tests first, then implementation",
            "Tests first, then implementation.",
        ),
        ("You don't need to ask me before running tests.", "No need to ask before running tests."),
        ("I never want force pushes on main, under no circumstances", "No force pushes on main."),
        (
            "we're a Kotlin shop, so prefer Kotlin over Java for new code",
            "Prefers Kotlin over Java for new code.",
        ),
        (
            "Important: migrations are append-only, never edit an existing one.",
            "Migrations are append-only, never edit an existing one.",
        ),
        (
            "next time you touch the API, update the OpenAPI spec too",
            "Next time you touch the API, update the OpenAPI spec too.",
        ),
        (
            "please use the logger for anything that isn't CLI output",
            "Use the logger for anything that isn't CLI output.",
        ),
        (
            "that's not how we do it here, we put all config in config/ not in env vars",
            "Put all config in config/ instead of in env vars.",
        ),
    ],
)
def test_a_habit_said_in_passing_is_standing(message: str, content: str) -> None:
    assert _standing(message) == [content]


@pytest.mark.parametrize(
    "message",
    [
        "it failed, so I reverted it",
        "the build is red, so fix it",
        "the rule is that you fix it",
        "you don't need to ask before doing that",
        "Important: always the same error",
        "Important: the build must be green before the demo tomorrow",
        "NB: this should only run once",
        "I never want to see this error again",
        "that's not how we do it here",
        "for every file you changed, show me the diff",
    ],
)
def test_the_same_words_about_the_moment_are_no_habit(message: str) -> None:
    assert _standing(message) == []
    assert _standing(message, replying=True) == []


def test_a_rule_inside_a_run_on_sentence_is_read_and_its_task_parts_are_not() -> None:
    message = (
        "create a new repo for the skill and copy the files over so that others can use it too. "
        "as always never push sensitive data, the examples you use in the readme should be "
        "generic and unrelated to me and also be sure to push the trace file as well, you can "
        "run the tool's --help from my terminal for which you have full access too, and the "
        "repository should be public with a short description"
    )

    assert _standing(message) == [
        "Never push sensitive data.",
        "The examples you use in the readme should be generic and unrelated to me.",
    ]
    # The run-on's comma inside a code span does not split it.
    assert _standing(
        "never pass `--force, --yes` to the installer, " + "the rest of this is the task " * 9
    ) == ["Never pass `--force, --yes` to the installer."]


@pytest.mark.parametrize(
    ("message", "content"),
    [
        (
            "the examples you use in the README should be generic and unrelated to me",
            "The examples you use in the README should be generic and unrelated to me.",
        ),
        (
            "The tests you add must not hit the network.",
            "The tests you add must not hit the network.",
        ),
        (
            "the migrations you generate must always be reversible",
            "The migrations you generate must always be reversible.",
        ),
        (
            "the comments you leave in the code should explain why, not what",
            "The comments you leave in the code should explain why, not what.",
        ),
        ("Any code you write should be fully typed.", "Any code you write should be fully typed."),
        (
            "any new dependencies you add must be pinned to an exact version",
            "Any new dependencies you add must be pinned to an exact version.",
        ),
        (
            "any public functions you add need a docstring",
            "Any public functions you add need a docstring.",
        ),
        (
            "all the tests you write should be deterministic",
            "All the tests you write should be deterministic.",
        ),
        (
            "whatever tests you write, they must not depend on the wall clock",
            "Whatever tests you write, they must not depend on the wall clock.",
        ),
    ],
)
def test_what_the_things_the_assistant_makes_should_be_is_a_habit(
    message: str, content: str
) -> None:
    assert _standing(message) == [content]
    assert _standing(message, replying=True) == [content]


@pytest.mark.parametrize(
    "message",
    [
        "the tests you added should pass now",  # things made
        "the examples you wrote should be updated",
        "the tests you add for this bug should cover the empty list",  # the moment
        "the examples you use in this PR should be shorter",
        "the functions you add should be green before you push",  # a state to reach
        "the tests you add should be fixed first",
        "the users you create in the seed script should have admin rights",  # the product
        "the endpoints you add should return 404 for now",
        "should the examples you use in the README be generic?",
        "> the examples you use should be generic and unrelated to the user",  # quoted
        "actually forget what I said, the examples you use don't need to be generic",
        "any tests you added are broken, fix them",
        "any changes you make to the config should be reverted after the demo",
        "the files you create should be committed",  # a step done to them once made
        "the files you create should be listed in your summary",
        "any files you create today should be removed at the end",
        "any code you write in this branch should be thrown away later",
        "the code you write next should go into the new module",
        "does any code you write need to be typed?",
        "whatever you write, it must be reviewed",  # no kind
        "any tests you write, should use fixtures",  # a comma with no "they"
    ],
)
def test_the_things_the_assistant_made_or_makes_now_are_no_habit(message: str) -> None:
    assert _standing(message) == []
    assert _standing(message, replying=True) == []


def test_the_things_the_assistant_makes_are_read_in_a_run_on_request() -> None:
    message = (
        "port the remaining handlers to the new router and keep the old ones working until "
        "the switch, the error messages you write should say what the user can do next and "
        "also add the new routes to the API reference page when you are done with that"
    )

    assert _standing(message) == [
        "The error messages you write should say what the user can do next."
    ]
    # A run-on part about the things made with no "should" stays the task.
    assert _standing("the tests you added pass, " + "the rest of this is the task " * 9) == []


@pytest.mark.parametrize(
    "message",
    [
        "make sure the tests you write are deterministic",
        "use type hints in all the code you write",
        "don't use print statements in the code you write",
        "add a short docstring to the public functions you write",
        "do not hardcode credentials in the config files you create",
    ],
)
def test_an_instruction_over_the_things_the_assistant_makes_is_a_habit(message: str) -> None:
    assert len(_standing(message)) == 1
    assert len(_standing(message, replying=True)) == 1


@pytest.mark.parametrize(
    "message",
    [
        "put the function you write in utils.py",  # one thing
        "move the tests you wrote into the new folder",  # things made
        "revert the changes you made to the config",
        "rename the tests you add in this PR to match the new module",  # the moment
        "send me the scripts you write for the demo today",
        "check the links you add to the README now",
        "show me the tests you add before committing them",
        "can you use type hints in the code you write?",
        "> don't use print statements in the code you write",
        "paste the commands you run into the chat so I can copy them",
        # a step done to the things once made: the end of the task at hand
        "commit the files you create",
        "delete the files you create when you're done",
        "list the files you create in your summary",
        "open a PR for the changes you make",
    ],
)
def test_an_instruction_over_things_of_the_moment_is_no_habit(message: str) -> None:
    assert _standing(message) == []
    assert _standing(message, replying=True) == []


@pytest.mark.parametrize(
    "message",
    [
        "the tests you write should include the edge cases we discussed",
        "the examples you use should follow the plan",
        "any code you write should handle the errors I mentioned",
        "use the fixtures in the tests you write for the cases we discussed",
        "the config you write should point to staging",  # one file of the task
    ],
)
def test_the_things_the_assistant_makes_for_what_the_conversation_named_are_no_habit(
    message: str,
) -> None:
    assert _standing(message) == []
    assert _standing(message, replying=True) == []
