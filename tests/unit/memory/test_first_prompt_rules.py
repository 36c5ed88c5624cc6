"""Standing rules said once, in the shapes a first prompt takes (extractors/rule_lists.py,
way_reasons.py, and the readings in clauses.py, liking_forms.py, habit_wordings.py,
instruction_forms.py, standing_marks.py, user_wording.py, reply_habits.py): each is kept as a
standing rule, and the same shape about the task at hand is not."""

from __future__ import annotations

import pytest

from squirrel_memory.extractors.clauses import clauses
from squirrel_memory.extractors.preferences import stated_preferences
from squirrel_memory.extractors.reply_habits import BULLETS_KEY, REPLY_CUES
from squirrel_memory.extractors.rule_lists import listed_rules
from squirrel_memory.extractors.tongue_instructions import instruction_language, tongue_instructions
from squirrel_memory.extractors.way_reasons import reasoned_by_moment, reasoned_by_way


def _found(message: str, *, replying: bool = False) -> list[tuple[str, bool]]:
    return [
        (p.content, p.standing)
        for p in stated_preferences(message, after_assistant_action=replying)
    ]


def _standing(message: str, *, replying: bool = False) -> list[str]:
    return [content for content, standing in _found(message, replying=replying) if standing]


# rule_lists: a list of rules after a lead naming the user's ways


def test_a_list_after_a_ways_lead_is_each_rule_standing() -> None:
    message = (
        "Add a health endpoint. A few things about how we work on this repo: we always run the "
        "formatter and the linter before committing, never push to main, open a PR instead, and "
        "keep PRs small, one concern each. Use port 4001 for this test."
    )
    assert _standing(message) == [
        "Always run the formatter and the linter before committing.",
        "Never push to main, open a PR instead.",
        "Keep PRs small, one concern each.",
    ]


def test_ground_rules_lead_keeps_what_goes_with_a_rule() -> None:
    message = "Some ground rules for this project: always use ./build.sh, never a global install."
    assert _standing(message) == ["Always use ./build.sh, never a global install."]


def test_conventions_lead_splits_a_liking_and_a_prohibition() -> None:
    message = (
        "Our conventions: run the formatter before every commit, I like small focused commits, "
        "and never use unsafe casts, not even in tests."
    )
    assert _standing(message) == [
        "Run the formatter before every commit.",
        "Prefers small focused commits.",
        "Never use unsafe casts, not even in tests.",
    ]


def test_a_context_lead_is_taken_off() -> None:
    assert _standing("Background: we use cabal, never stack, in this repo.") == [
        "Use cabal, never stack, in this repo."
    ]


def test_a_remember_label_stresses_a_norm_of_a_kind() -> None:
    (found,) = stated_preferences(
        "Remember: all list endpoints return {data, meta} envelopes.", after_assistant_action=False
    )
    assert found.standing and found.content == "All list endpoints return {data, meta} envelopes."


def test_listed_rules_needs_a_lead_and_two_rules() -> None:
    assert listed_rules("we always lint, never push to main.") is None
    assert listed_rules("Fix the rules: a, b.") is None  # a task, then what it is about
    assert listed_rules("Background: the app crashes on start, the logs are empty.") == (
        [],
        False,
    )


@pytest.mark.parametrize(
    "message",
    [
        "Background: the app crashes on start, the logs are empty.",
        "Notes: the deploy failed twice, the cache was cold.",
        "Context: rename Fetch to Get, then bump the timeout to 30s for now.",
    ],
)
def test_a_context_lead_makes_no_rule_of_a_state_or_a_task(message: str) -> None:
    assert _standing(message) == []


# way_reasons: the team's way or the user's taste as the reason


@pytest.mark.parametrize(
    ("message", "content"),
    [
        (
            "please don't use var for non-obvious types, we spell them out",
            "Don't use var for non-obvious types.",
        ),
        ("Don't add comments to the code, I find them noisy.", "Don't add comments to the code."),
        (
            "Quick notes: we run the SDK through a version manager here, so use vm sdk, not sdk "
            "directly.",
            "Prefers vm sdk over sdk directly.",
        ),
    ],
)
def test_a_directive_with_the_teams_way_as_reason_is_standing(message: str, content: str) -> None:
    assert content in _standing(message)


@pytest.mark.parametrize(
    "written",
    [
        "don't merge the branch, we need it for the demo",
        "don't delete the cache folder, we use it in the build",
        "don't push, we are waiting on QA",
        "don't rerun it, we fixed that yesterday",
        "we needed it yesterday, so use the old build",
        "don't add comments to the code",
    ],
)
def test_a_reason_of_the_moment_is_no_way(written: str) -> None:
    assert not reasoned_by_way(written)


# clauses: a code name's "!" does not end the sentence; "one more thing," is a lead


def test_a_code_names_bang_does_not_end_the_sentence() -> None:
    assert [read for _, read in clauses("never use Repo.insert! in request paths.")] == [
        "never use Repo.insert! in request paths."
    ]
    assert len(clauses("Great! now run the tests.")) == 2


def test_our_rule_is_to_states_the_rule() -> None:
    assert _standing("FYI our rule is to never use Repo.insert! in request paths.") == [
        "Never use Repo.insert! in request paths."
    ]


def test_one_more_thing_lead_is_taken_off() -> None:
    assert _standing("one more thing, we write specs next to every new module, always.") == [
        "Write specs next to every new module, always."
    ]


# liking_forms: a kind liked; one way of working over another


def test_a_kind_liked_is_standing() -> None:
    assert _standing("I like small focused commits.") == ["Prefers small focused commits."]
    assert _standing("I like the new layout.") == []


def test_a_liking_before_so_is_the_rule_not_the_case_at_hand() -> None:
    found = _found("I like one widget per file, so split the spinner out if you add one.")
    assert ("Prefers one widget per file.", True) in found
    assert not any("spinner" in content for content, _ in found)


def test_rather_you_one_way_than_another_is_standing() -> None:
    assert _standing("I'd rather you ask than guess when the spec is unclear.") == [
        "Prefers ask over guess when the spec is unclear."
    ]
    assert _standing("I'd rather have the button on the left.") == []


# instruction_forms: "use X, not Y, for Z", "use X only", a habit with its examples


def test_use_one_not_another_for_a_kind() -> None:
    assert _standing("Use pnpm, not npm, for the frontend assets.") == [
        "Prefers pnpm over npm for the frontend assets."
    ]


def test_use_a_kind_only() -> None:
    assert _standing("Use Tailwind classes only, no custom CSS.") == [
        "Use Tailwind classes only, no custom CSS."
    ]
    assert _found("Use the staging db only.") == []


def test_a_habit_keeps_its_examples() -> None:
    assert _standing("Commit with conventional commits (feat:, fix:, chore:).") == [
        "Commit with conventional commits (feat:, fix:, chore:)."
    ]
    assert _standing("Keep functions small, no god objects.") == [
        "Keep functions small, no god objects."
    ]
    assert _found("Make the Total property nullable (for now).") == []


# standing_marks: a means used in every thing of a kind


def test_use_in_every_kind_is_standing() -> None:
    assert _standing("Please use the testing allocator in every test so leaks fail it.") == [
        "Use the testing allocator in every test so leaks fail it."
    ]
    assert _standing("Fix the import in every file.") == []


# instruction_forms: "if you add one" is one thing of the task


def test_if_you_add_one_is_no_kind() -> None:
    assert _standing("Split the spinner out if you add one.") == []


# reply_habits: bullet points with a length word


def test_short_bullet_points_are_a_reply_form() -> None:
    assert any(p.search("Please answer in short bullet points.") for p in REPLY_CUES[BULLETS_KEY])
    assert not any(p.search("Add bullet points to the README.") for p in REPLY_CUES[BULLETS_KEY])


# reply_language: a German message full of code words is still German


def test_a_german_rule_among_code_words_is_read() -> None:
    text = (
        "nein, kein number_format im Model. Geldbeträge speichern wir immer als Integer in Cent, "
        "nie als float. Pass den Test entsprechend an."
    )
    lang = instruction_language(text)
    assert lang == "de"
    found = tongue_instructions(text, lang, after_assistant_action=True)
    assert any(p.standing and "immer als Integer" in p.content for p in found)
    assert instruction_language("Keep the docs as they are, no new section.") is None


# rule_lists: norms of a kind after a ways lead; a list going on after a semicolon


def test_norms_of_a_kind_in_a_ways_list_are_rules() -> None:
    message = (
        "Add retries. Our conventions: errors are wrapped with %w, and no global state. Bump the "
        "max retries to 5 for this release."
    )
    assert _standing(message) == ["Errors are wrapped with %w.", "No global state."]


def test_a_ways_list_goes_on_after_a_semicolon() -> None:
    message = (
        "Add a toggle. A couple of things about how I like to work: please don't force-unwrap "
        "optionals, ever; we use the linter and it must pass before you hand anything back; and "
        "keep view models free of UI imports. Name the toggle hapticsEnabled."
    )
    assert _standing(message) == [
        "Never force-unwrap optionals.",
        "Use the linter and it must pass before you hand anything back.",
        "Keep view models free of UI imports.",
    ]


def test_a_context_list_makes_no_norm_a_rule() -> None:
    assert _standing("Notes: errors are logged twice, the retry count is 3.") == []


# preferences: a marker earlier in the message does not make the task after it a rule


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        (
            "ok. for future reference: put new keys in Keys.swift, not inline strings. commit "
            "this as 'settings: toggle'",
            "Put new keys in Keys.swift, not inline strings.",
        ),
        (
            "going forward keep composables in src/composables, one per file. Also move the "
            "locale import to the top for now.",
            "Keep composables in src/composables, one per file.",
        ),
        (
            "House rules: use includes, not preload, and never edit the schema file by hand. Use "
            "a page size of 20 for this page.",
            "Never edit the schema file by hand.",
        ),
    ],
)
def test_the_task_after_a_marker_is_no_rule(message: str, rule: str) -> None:
    found = _standing(message)
    assert rule in found
    assert not any(("this" in f or "for now" in f) for f in found)


# way_reasons: a reason of the moment makes the directive the task at hand


@pytest.mark.parametrize(
    "message",
    [
        "Don't merge the offline-banner branch, we need it for the demo tomorrow.",
        "Don't delete the cache folder, I'm still using it.",
        "Don't restart the worker, QA is testing it today.",
    ],
)
def test_a_directive_with_a_reason_of_the_moment_is_dropped(message: str) -> None:
    assert _found(message, replying=True) == []


@pytest.mark.parametrize(
    "message",
    [
        "Don't add comments to the code.",
        "Don't hardcode strings, we keep all text in the resource file.",
        "don't push to main, ever.",
    ],
)
def test_a_directive_without_a_reason_of_the_moment_stays(message: str) -> None:
    assert _found(message, replying=True)
    assert not reasoned_by_moment(message)


# instruction_forms: "stop …ing" about every one of a kind of work product


def test_stop_adding_to_every_work_product_is_standing() -> None:
    assert _standing("Please stop adding emojis to your replies and commit messages.") == [
        "Avoid adding emojis to your replies and commit messages."
    ]
    assert _standing("stop adding print statements to the parser.") == []
    assert _standing("Stop making changes.") == []


# way_forms: the language to answer in, whatever the user writes in


@pytest.mark.parametrize(
    "message",
    [
        "please answer in English even if I write German",
        "Always reply in English, even when I write in Spanish.",
    ],
)
def test_answer_language_even_if_the_user_writes_another(message: str) -> None:
    assert _standing(message) == ["Answer in English."]


def test_answer_language_with_a_condition_of_the_task_is_not_read_so() -> None:
    assert _standing("Reply in English when I ask about the release notes.") == []
