"""A plain "don't …" over the whole of the work followed in the same sentence by what to do
instead ("don't fix anything, just validate it works") sets the scope of the request at hand, in
any ecosystem, and is no user_style memory; said as a rule, as a correction, in a sentence of
its own, or as one means for another ("don't use npm, just use pnpm"), it still is."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.preferences import stated_preferences


@pytest.mark.parametrize(
    "text",
    [
        # a Go CLI: a check to run, not a change to make
        "Can you check the skip hook part is actually working? don't fix anything, but just "
        "validate it works because I got feedback that it kept capturing state",
        # a Rust crate
        "Don't touch the code, just run cargo test and tell me what fails.",
        # a Rails app
        "do not change anything else, only run the migration against the staging copy",
        # a Rails app: a question of size, the user's own "I just want …" after the comma
        "If we moved the jobs to another backend, what would change? Don't change anything, I "
        "just want the size of it.",
        # an Elixir app
        "Don't fix anything, we only need the list of failing modules.",
    ],
)
def test_dont_then_just_instead_is_how_to_do_this_request(text: str) -> None:
    assert stated_preferences(text, after_assistant_action=False) == []


@pytest.mark.parametrize(
    ("text", "after", "content"),
    [
        # a correction of what the assistant just did: a rule waiting to recur
        ("no, don't mock the database, just use the real one", True, "Don't mock the database."),
        # said as a rule
        ("Never mock the database, just use the real one.", False, "Never mock the database."),
        # "just …" opens another sentence: a rule of its own
        ("Don't add comments. Just keep the code simple.", False, "Don't add comments."),
        ("Don't add comments!\nJust keep the code simple.", False, "Don't add comments."),
        # no "just": the ordinary rules decide
        ("don't add comments", False, "Don't add comments."),
        # how the assistant talks is how the user works, whatever follows
        ("don't explain, just do it", False, "Don't explain."),
        # one means for another: a choice of tools or idioms, in a Node project and a TypeScript one
        ("don't use npm, just use pnpm", False, "Don't use npm."),
        ("don't use any, just use unknown", False, "Don't use any."),
        ("don't mock the db, just hit the real one", False, "Don't mock the db."),
        # "I just want" opening a sentence of its own: the ordinary rules decide
        ("Don't change the API. I just want the docs fixed.", False, "Don't change the API."),
    ],
)
def test_a_rule_a_correction_or_a_sentence_of_its_own_is_still_kept(
    text: str, after: bool, content: str
) -> None:
    kept = stated_preferences(text, after_assistant_action=after)

    assert [p.content for p in kept][:1] == [content]
