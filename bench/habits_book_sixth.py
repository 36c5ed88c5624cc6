"""The sixth habits phrasebook: what a kind of thing the assistant makes should be, said of
"the <things> you <make>" ("the examples you use in the README should be generic"), alone or as
one part of a long run-on request; and the one-offs that look like it (things already made, a
place of the moment, a state to reach, a question, quoted words, a wish taken back). Written
before the rule that reads them. Read by `bench.habits_phrasebook`.
"""

from __future__ import annotations

#: Habits over every later thing of a kind the assistant makes, named by a relative clause
#: ("the tests you add") instead of "every" or a bare plural.
HABITS_SIXTH: tuple[str, ...] = (
    "the examples you use in the README should be generic and unrelated to me",
    "the commit messages you write should be in English",
    "The tests you add must not hit the network.",
    "the branch names you create should start with the ticket id",
    "the docstrings you write should use the Google style",
    "the migrations you generate must always be reversible",
    "the comments you leave in the code should explain why, not what",
    "the PR descriptions you write should include a test plan",
    "the variable names you pick should be full words, no abbreviations",
    "The log messages you add should never contain user data.",
    "the fixtures you create should live under tests/fixtures",
    # One part of a long run-on request whose other parts are the task of the moment.
    (
        "set up the new package for the parser and move the tokenizer into it, then wire it "
        "into the build, the examples you put in the docs should be generic and use made-up "
        "names and also update the changelog once everything builds on the CI machines"
    ),
    (
        "port the remaining handlers to the new router and keep the old ones working until "
        "the switch, the error messages you write should say what the user can do next and "
        "also add the new routes to the API reference page when you are done with that"
    ),
)

#: One-offs in the same shape: things already made, a place or thing of the moment, a state to
#: reach, a question, someone else's words, a wish the user takes back.
ONE_OFFS_SIXTH: tuple[str, ...] = (
    "the tests you added should pass now",
    "the examples you wrote should be updated",
    "the files you changed should be reverted",
    "the tests you add for this bug should cover the empty list",
    "the examples you use in this PR should be shorter",
    "should the examples you use in the README be generic?",
    "> the examples you use should be generic and unrelated to the user",
    "the functions you add should be green before you push",
    "the users you create in the seed script should have admin rights",
    "the tests you add should be fixed first",
    "the endpoints you add should return 404 for now",
    "the comments you leave should be removed before merging this",
    "actually forget what I said, the examples you use don't need to be generic",
    "I guess the tests you write could use the old helper, not sure",
)
