"""Standing instructions versus one-off wording, corrections, clean wording, and recurrence."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from squirrel_core.events import Event, Origin
from squirrel_memory.candidate_decisions import merge_candidates
from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.preferences import stated_preferences
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.extractors.wording import key_slug, sentence, strip_markdown
from squirrel_memory.housekeeping.retention import Retention, RetentionSettings
from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemoryType,
    Scope,
    StoredEvent,
)
from squirrel_memory.processor import Processor
from squirrel_memory.promotion import recurring_importance
from squirrel_memory.recurrence import unify_keys
from squirrel_memory.storage import SqliteStore
from squirrel_memory.user_memories.userstore import SqliteUserStore
from tests.unit.memory.session_builder import clocked_stores, exchange, rules_processor

MESSAGES = Path(__file__).parents[2] / "fixtures" / "user_messages" / "messages.json"
NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
DONE = "Done: the endpoint is added and tested."


def _found(text: str, *, after: bool = True) -> list[tuple[str, str, bool]]:
    return [
        (p.key, p.content, p.standing)
        for p in stated_preferences(text, after_assistant_action=after)
    ]


# --- what counts as a standing instruction -------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "content"),
    [
        # Elixir / Phoenix
        (
            "From now on, run `mix format` before every commit.",
            "pref:run_mix_format_commit",
            "Run `mix format` before every commit.",
        ),
        (
            "In this repo we never call Repo directly from controllers.",
            "pref:directly_controller",
            "Never call Repo directly from controllers in this repo.",
        ),
        # Go
        (
            "Always wrap errors with fmt.Errorf and %w.",
            "pref:wrap_error_fmt_errorf",
            "Always wrap errors with fmt.Errorf and %w.",
        ),
        # Rust
        (
            "Never use unwrap() in library code, it panics.",
            "pref:unwrap_library_code",
            "Never use unwrap() in library code.",
        ),
        # TypeScript
        ("Please use pnpm instead of npm.", "pref:package_manager", "Prefers pnpm over npm."),
        (
            "By default, keep components under 200 lines.",
            "pref:keep_component_under_200",
            "Keep components under 200 lines.",
        ),
        # Python
        (
            "Make sure to run ruff every time before you push.",
            "pref:run_ruff_push",
            "Make sure to run ruff every time before you push.",
        ),
        (
            "Whenever you touch the schema, add a migration.",
            "pref:touch_schema_add_migration",
            "Whenever you touch the schema, add a migration.",
        ),
        # any project: workflow rules
        (
            "Going forward: keep going until every task is done.",
            "pref:keep_going_until",
            "Keep going until every task is done.",
        ),
        (
            "I prefer small, focused commits.",
            "pref:small_focus_commit",
            "Prefers small, focused commits.",
        ),
    ],
)
def test_general_rules_are_standing_instructions(text: str, key: str, content: str) -> None:
    found = _found(text, after=False)

    assert found == [(key, content, True)]


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("did you push?", "Push before calling a task done."),
        ("Have you run the tests yet?", "Run the tests before calling a task done."),
        ("you forgot to update the CHANGELOG", "Update the CHANGELOG before calling a task done."),
        (
            "no — fix the issues instead of skipping the hook",
            "Fix the issues instead of skipping the hook.",
        ),
        ("Why did you skip the pre-commit hook?", "Don't skip the pre-commit hook."),
        ("No, keep going until every task is done.", "Keep going until every task is done."),
    ],
)
def test_corrections_of_the_assistant_are_tentative(text: str, content: str) -> None:
    [pref] = stated_preferences(text, after_assistant_action=True)

    assert (pref.content, pref.standing, pref.correction) == (content, False, True)
    assert pref.importance < 0.5 and "tentative" in pref.tags


@pytest.mark.parametrize(
    "text",
    ["did you push?", "No, keep going until every task is done.", "why did you skip the hook?"],
)
def test_a_correction_needs_an_assistant_action_before_it(text: str) -> None:
    assert _found(text, after=False) == []


@pytest.mark.parametrize(
    "text",
    [
        "No need to update the issue. Start working on the gaps.",
        "No problem, rerun the migration.",
        "no rush. Fix the flaky test next.",
    ],
)
def test_a_reply_that_waives_or_reassures_is_no_correction(text: str) -> None:
    """ "No need to …" declines an offer; the task that follows is a request of the moment."""
    assert stated_preferences(text, after_assistant_action=True) == []


@pytest.mark.parametrize(
    "text",
    [
        "don't push yet",
        "Don't change this file.",
        "Don't touch it for now.",
        "did you read the file I sent?",
        "Why did you do that?",
        "Can you always do this?",
        "Please add a migration for the orders table.",
        "It never works on the first try.",
        "Don't worry about the flaky test.",
    ],
)
def test_task_wording_is_dropped(text: str) -> None:
    assert _found(text) == []


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("we are prerelease, we only do patch", "Only do patch (we are prerelease)."),
        ("we only do squash merges", "Only do squash merges."),
        ("We always rebase before merging.", "Always rebase before merging."),
        ("we never push to main", "Never push to main."),
        ("I only use pnpm", "Only use pnpm."),
        (
            "since this is a library, we never pin versions",
            "Never pin versions (since this is a library).",
        ),
        (
            "we never pin versions because this is a library",
            "Never pin versions (because this is a library).",
        ),
        ("We always vendor our dependencies.", "Always vendor our dependencies."),
        ("I always squash my commits", "Always squash my commits."),
        ("we only tag releases from main", "Only tag releases from main."),
        ("we never mock the database", "Never mock the database."),
        ("we always cache the build artifacts", "Always cache the build artifacts."),
        ("I never deploy on Fridays", "Never deploy on Fridays."),
        ("we always tag releases as v1.2.3", "Always tag releases as v1.2.3."),
        (
            "we only publish from CI, as it signs the packages",
            "Only publish from CI (as it signs the packages).",
        ),
        ("we always backport security fixes", "Always backport security fixes."),
    ],
)
def test_a_practice_the_user_states_is_a_standing_instruction(text: str, content: str) -> None:
    [pref] = stated_preferences(text, after_assistant_action=True)

    assert (pref.content, pref.standing) == (content, True)


@pytest.mark.parametrize(
    ("practice", "directive"),
    [
        ("I only use pnpm", "only use pnpm"),
        ("we never push to main", "never push to main"),
        ("we never pin versions because this is a library", "never pin versions"),
        ("since this is a library, we never pin versions", "don't pin versions"),
    ],
)
def test_a_stated_practice_shares_the_key_of_the_same_directive(
    practice: str, directive: str
) -> None:
    assert [k for k, _, _ in _found(practice)] == [k for k, _, _ in _found(directive)]


@pytest.mark.parametrize(
    "text",
    [
        "only do the frontend part",
        "we only need to change one file",
        "we always got this error",
        "we never got it to work",
        "we always had problems with it",
        "we only do this once",
        "we never tried that",
        "we always get a timeout here",
        "I never know which one",
        "we only have two tests",
        "I always forget",
        "we always run into timeouts",
        "I never understood the build",
        "we always ended up with conflicts",
        "we only wanted a quick fix",
        "do we always pin versions?",
        "we always pin versions?",
        "I think we always pin versions",
        "maybe we never vendor anything",
        "we don't always pin versions",
        "we never not test",
        "if we always pin versions we never get updates",
        '"we always pin versions" is what the old guide says',
        "> we never deploy on Fridays",
        "we only two days left",
        "we always tested the build by hand",
    ],
)
def test_a_task_bound_we_always_or_only_is_no_practice(text: str) -> None:
    assert _found(text) == []
    assert _found(text, after=False) == []


def test_a_listed_verb_of_how_work_is_done_makes_a_standing_practice() -> None:
    [(_, content, standing)] = _found("we always squash before merging", after=False)

    assert (content, standing) == ("Always squash before merging.", True)


@pytest.mark.parametrize(
    "text",
    [
        "I only read the first file",  # a verb whose past is its present: what happened
        "I only put one import there",
        "we only run one test",  # the task's size
        "I only ran two of them",
        "we only check part of the output",
        "i always lose my place in long diffs",  # no verb of how work is done
        "we always shard the queues by tenant",
        "I only scroll the logs",
    ],
)
def test_what_happened_or_an_unlisted_verb_is_no_practice(text: str) -> None:
    assert _found(text) == []
    assert _found(text, after=False) == []


@pytest.mark.parametrize("text", ["here", "no, here", "in this repo", "- here"])
def test_a_bare_place_word_after_an_assistant_action_is_no_instruction(text: str) -> None:
    assert _found(text) == []


def test_one_off_directives_are_kept_low_until_they_recur() -> None:
    [pref] = stated_preferences("Don't summarize.", after_assistant_action=True)

    assert (pref.key, pref.content, pref.standing) == ("pref:summarize", "Don't summarize.", False)
    assert pref.importance == 0.25


def test_the_same_instruction_in_other_words_shares_its_key() -> None:
    keys = {
        key
        for text, after in (
            ("did you push?", True),
            ("you forgot to push", True),
            ("Always push when you're done.", False),
            ("From now on, push when done.", False),
        )
        for key, _, _ in _found(text, after=after)
    }

    assert keys == {"pref:push"}


@pytest.mark.parametrize("entry", json.loads(MESSAGES.read_text()), ids=lambda e: e["text"][:40])
def test_real_user_messages(entry: dict[str, Any]) -> None:
    found = stated_preferences(entry["text"], after_assistant_action=entry["after_action"])

    if entry["expect"] == "none":
        assert found == []
    else:
        assert entry["content"] in [p.content for p in found]
        assert all(p.standing is (entry["expect"] == "standing") for p in found)


def test_hostile_messages_do_not_crash_or_flood() -> None:
    huge = "Always " + "x" * 1_000_000
    assert stated_preferences(huge, after_assistant_action=True) == []
    weird = "never \u0000\u202e\ufeff mind; don't \U0001f600\U0001f600; from now on ```always x```"
    assert all(p.content for p in stated_preferences(weird, after_assistant_action=True))
    many = stated_preferences("Never do x. " * 5_000, after_assistant_action=False)
    assert len({p.key for p in many}) == 1


# --- wording -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("Don't touch master.**.", "Don't touch master."),
        ("**Do not push.**", "Do not push."),
        ("- always use `**kwargs` sparingly", "Always use `**kwargs` sparingly."),
        ('Use "strict mode', "Use strict mode."),
        ("Run the tests with `pytest -x", "Run the tests with pytest -x."),
        ("Keep handlers small and…", "Keep handlers small."),
        ("Prefers small functions (under 20 lines", "Prefers small functions under 20 lines."),
        ("## Never *ever* commit secrets", "Never ever commit secrets."),
        ("Don't commit *.pyc files", "Don't commit *.pyc files."),
        (
            """`git commit -m "$(cat <<'EOF'` failed with `x`""",
            """`git commit -m "$(cat <<'EOF'` failed with `x`.""",
        ),
        (
            '`pyright` failed with `"Dict" is not "dict…`',
            '`pyright` failed with `"Dict" is not "dict…`.',
        ),
    ],
)
def test_sentences_lose_markdown_residue_and_cut_off_ends(raw: str, clean: str) -> None:
    assert sentence(raw) == clean


def test_too_little_left_is_no_sentence() -> None:
    assert sentence("**.**") is None
    assert sentence("and …") is None


def test_markdown_inside_code_spans_is_kept() -> None:
    assert strip_markdown("**bold** and `a**b`") == "bold and `a**b`"


def test_a_command_in_a_code_span_keeps_its_spaced_dot() -> None:
    assert sentence("To run the app: `go run . --port 8080` .") == (
        "To run the app: `go run . --port 8080`."
    )
    assert sentence("Build the image with `docker build . -t app`") == (
        "Build the image with `docker build . -t app`."
    )


def test_keys_are_stemmed_content_words() -> None:
    assert key_slug("Pushing the branches", frozenset({"the"})) == "push_branch"


# --- recurrence across episodes, through the processor and a real store -------------------


@pytest.fixture
async def stores(tmp_path: Path) -> AsyncIterator[tuple[SqliteStore, SqliteUserStore]]:
    async with clocked_stores(tmp_path, NOW) as opened:
        yield opened


def _processor(store: SqliteStore, users: SqliteUserStore) -> Processor:
    return rules_processor(store, users, NOW)


def _exchange(session: str, start: datetime, reply: str) -> list[Event]:
    """The assistant reports a task done, the user answers with `reply`."""
    return exchange(session, start, DONE, reply)


async def _style(store: SqliteStore) -> list[MemoryItem]:
    items, _ = await store.list_memories(store.project_id, types=[MemoryType.USER_STYLE])
    return items


async def test_a_correction_said_again_in_another_session_becomes_standing(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    store, users = stores
    processor = _processor(store, users)
    first = _exchange("monday", NOW - timedelta(days=3), "did you push?")
    await store.append_events(store.project_id, "u", first, [])
    await processor.drain(store)
    [once] = await _style(store)
    # a correction about how work is done, said once: a one-session habit so far
    assert (once.key, once.importance, "tentative" in once.tags) == ("pref:push", 0.4, True)
    assert await users.list_user_style("u") == []  # a one-off stays in its project

    second = _exchange("thursday", NOW - timedelta(hours=2), "you forgot to push again")
    await store.append_events(store.project_id, "u", second, [])
    await processor.drain(store)

    [standing] = await _style(store)
    assert standing.key == "pref:push"
    assert standing.importance == 0.75  # said in two sessions (0.7), as a correction (+0.05)
    assert "recurring" in standing.tags and "tentative" not in standing.tags
    assert len(standing.source_event_ids) == 2  # both occurrences are cited
    assert [g.key for g in await users.list_user_style("u")] == ["pref:push"]


async def test_a_correction_repeated_within_one_episode_stays_tentative_but_stressed(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    store, users = stores
    events = _exchange("s", NOW - timedelta(days=1), "did you push?")
    events += _exchange("s", NOW - timedelta(days=1) + timedelta(minutes=5), "did you push?")
    await store.append_events(store.project_id, "u", events, [])
    await _processor(store, users).drain(store)

    [once] = await _style(store)
    # said twice in one session: above a single mention (0.4), still waiting for another session
    assert "tentative" in once.tags and "emphasis" in once.tags and once.importance == 0.5


async def test_a_correction_said_once_in_an_episode_gets_no_emphasis(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    store, users = stores
    events = _exchange("s", NOW - timedelta(days=1), "did you push?")
    events += _exchange("s", NOW - timedelta(days=1) + timedelta(minutes=5), "looks good")
    await store.append_events(store.project_id, "u", events, [])
    await _processor(store, users).drain(store)

    [once] = await _style(store)
    assert "emphasis" not in once.tags and once.importance == 0.4


async def test_a_rule_stated_later_replaces_the_one_off(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    store, users = stores
    processor = _processor(store, users)
    await store.append_events(
        store.project_id, "u", _exchange("a", NOW - timedelta(days=2), "did you push?"), []
    )
    await processor.drain(store)
    rule = _exchange("b", NOW - timedelta(hours=1), "From now on, push when you're done.")
    await store.append_events(store.project_id, "u", rule, [])
    await processor.drain(store)

    [standing] = await _style(store)
    assert standing.content == "Push when you're done."
    assert "standing" in standing.tags and "tentative" not in standing.tags
    everything, _ = await store.list_memories(
        store.project_id, types=[MemoryType.USER_STYLE], include_deleted=True
    )
    [retired] = [m for m in everything if m.deleted]
    assert retired.superseded_by == standing.id
    assert set(retired.source_event_ids) < set(standing.source_event_ids)


def test_two_episodes_of_one_pass_promote_a_repeated_instruction() -> None:
    def cand(episode: str, event: str) -> MemoryCandidate:
        return MemoryCandidate(
            MemoryType.USER_STYLE,
            "pref:push",
            "Push before calling a task done.",
            ("preference", "tentative", "correction"),
            0.25,
            source_episode_id=episode,
            source_event_ids=(event,),
            scope=Scope.USER,
        )

    [same] = merge_candidates([cand("ep1", "e1"), cand("ep1", "e2")])
    assert "tentative" in same.tags
    [promoted] = merge_candidates([cand("ep1", "e1"), cand("ep2", "e2")])
    # two episodes (0.7), said as a correction (+0.05)
    assert promoted.importance == 0.75 and "tentative" not in promoted.tags
    assert promoted.source_event_ids == ("e1", "e2")


# --- only the user's own words ---------------------------------------------------------------


def _stored(n: int, kind: str, content: dict[str, Any], origin: str = "") -> StoredEvent:
    return StoredEvent(
        id=f"evt_{n:03d}",
        project_id="/home/dev/app",
        user_id="dev",
        source_tool="claude_code",
        session_id="s",
        timestamp=NOW + timedelta(seconds=n),
        event_type=kind,
        content=content,
        file_paths=(),
        hash=f"h{n}",
        origin=origin,
    )


@pytest.mark.parametrize(
    ("origin", "voice"),
    [
        (Origin.TYPED, True),
        (Origin.QUEUED, True),
        (Origin.SLASH_COMMAND, True),
        (Origin.ANSWER, True),
        (Origin.PARENT_AGENT, False),
        (Origin.COMPACTION, False),
        (Origin.HARNESS, False),
        (Origin.HOOK, False),
        (Origin.TOOL_RESULT, False),
    ],
)
async def test_only_the_users_own_words_become_instructions(origin: Origin, voice: bool) -> None:
    events = [
        _stored(1, "user_message", {"text": "Add the export endpoint."}),
        _stored(2, "assistant_response", {"text": "Done."}),
        _stored(3, "user_message", {"text": "Always run mix format before committing."}, origin),
        _stored(4, "assistant_response", {"text": "Noted."}),
    ]
    (episode,) = segment_episodes(events, now=NOW + timedelta(days=1))

    found = await RulesExtractor().extract(episode, events)

    style = [c.content for c in found if c.type == MemoryType.USER_STYLE]
    assert style == (["Always run mix format before committing."] if voice else [])


@pytest.mark.parametrize(("days_later", "kept"), [(10, True), (31, False)])
async def test_a_one_off_that_never_recurs_is_forgotten_after_a_while(
    stores: tuple[SqliteStore, SqliteUserStore], days_later: int, kept: bool
) -> None:
    store, users = stores
    events = _exchange("a", NOW - timedelta(days=1), "did you push?")
    events += _exchange("b", NOW - timedelta(hours=3), "Always run mix format before committing.")
    await store.append_events(store.project_id, "u", events, [])
    await _processor(store, users).drain(store)
    assert len(await _style(store)) == 2

    async def all_stores() -> list[SqliteStore]:
        return [store]

    later = NOW + timedelta(days=days_later)
    report = await Retention(
        all_stores, RetentionSettings(tentative_days=30), clock=lambda: later
    ).run_once()

    left = {m.key for m in await _style(store)}
    assert left == (
        {"pref:push", "pref:run_mix_format_commit"} if kept else {"pref:run_mix_format_commit"}
    )
    assert report.tentative_forgotten == (0 if kept else 1)


@pytest.mark.parametrize(
    ("text", "content", "standing"),
    [
        ("Stubs are not acceptable, write the real thing.", "Stubs are not acceptable.", False),
        (
            "it's important not to commit until the final step",
            "Don't commit until the final step.",
            False,
        ),
        ("the parser must not depend on the CLI", "The parser must not depend on the CLI.", False),
        ("The API must never break old clients.", "The API must never break old clients.", True),
        (
            "it's a bad idea. performance is crucial. track the last synced id.",
            "Performance is crucial.",
            False,
        ),
    ],
)
def test_requirements_on_the_work_are_instructions(text: str, content: str, standing: bool) -> None:
    [pref] = stated_preferences(text, after_assistant_action=True)

    assert (pref.content, pref.standing) == (content, standing)


@pytest.mark.parametrize(
    "text",
    [
        "That is not acceptable.",
        "It must not be that slow",
        "this must not happen again",
        "This is crucial.",
        "The bug is critical.",  # a severity, not a value the work must keep
    ],
)
def test_requirements_on_the_moment_are_dropped(text: str) -> None:
    assert _found(text) == []


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("no, add conversationId field, but set value from sessionId", False),
        ("no, rename user_id in app/models.py", False),
        ("no, run the tests with `mix test --stale`", True),
        ("No, use pnpm for everything.", True),
    ],
)
def test_a_correction_about_the_code_at_hand_is_not_an_instruction(text: str, kept: bool) -> None:
    assert bool(_found(text)) is kept


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("keep going until every task is done", "Keep going until every task is done."),
        ("Push when you are done", "Push when you are done."),
        ("run the tests before you commit", "Run the tests before you commit."),
    ],
)
def test_a_rule_of_conduct_right_after_the_assistant_acted_is_a_correction(
    text: str, content: str
) -> None:
    [pref] = stated_preferences(text, after_assistant_action=True)

    assert (pref.content, pref.standing, pref.correction) == (content, False, True)
    assert stated_preferences(text, after_assistant_action=False) == []


@pytest.mark.parametrize("text", ["Add tests for the parser", "Fix the failing test", "continue"])
def test_a_next_task_is_not_a_rule_of_conduct(text: str) -> None:
    assert _found(text) == []


def test_the_same_rule_of_conduct_in_other_words_shares_its_key() -> None:
    keys = {
        key
        for text in ("keep going until every task is done", "Keep going until all tasks are done.")
        for key, _, _ in _found(text)
    }
    assert keys == {"pref:keep_going_until"}


# --- the user's habits first: other words, more occurrences, emphasis --------------------------


def _tentative(key: str, content: str, episode: str, event: str) -> MemoryCandidate:
    return MemoryCandidate(
        MemoryType.USER_STYLE,
        key,
        content,
        ("preference", "tentative", "correction"),
        0.3,
        source_episode_id=episode,
        source_event_ids=(event,),
        scope=Scope.USER,
    )


def test_an_instruction_said_again_in_other_words_is_promoted_within_a_pass() -> None:
    first = _tentative("pref:commit_push", "Commit and push when a task is done.", "ep1", "e1")
    again = _tentative("pref:push_done", "Push when you are done with a task.", "ep2", "e2")

    [promoted] = merge_candidates([first, again])

    assert promoted.key == "pref:commit_push" and "tentative" not in promoted.tags
    assert promoted.importance == 0.75 and promoted.source_event_ids == ("e1", "e2")


def test_different_instructions_are_not_unified() -> None:
    tests = _tentative("pref:run_test", "Run the tests before committing.", "ep1", "e1")
    lint = _tentative("pref:run_linter", "Run the linter before committing.", "ep2", "e2")

    assert {c.key for c in unify_keys([tests, lint])} == {"pref:run_test", "pref:run_linter"}
    assert all("tentative" in c.tags for c in merge_candidates([tests, lint]))


def test_importance_grows_with_each_occurrence() -> None:
    assert [recurring_importance(n) for n in (1, 2, 3, 4, 10)] == [0.7, 0.7, 0.75, 0.8, 0.9]


async def test_an_instruction_said_in_three_sessions_in_other_words_ranks_first(
    stores: tuple[SqliteStore, SqliteUserStore],
) -> None:
    store, users = stores
    processor = _processor(store, users)
    said = [
        ("a", "no, commit and push when a task is done"),
        ("b", "no, push when you are done with a task"),
        ("c", "no, push when you are done with a task"),
    ]
    for n, (session, reply) in enumerate(said):
        events = _exchange(session, NOW - timedelta(days=5 - n), reply)
        await store.append_events(store.project_id, "u", events, [])
        await processor.drain(store)

    [standing] = [m for m in await _style(store) if not m.deleted]
    assert "recurring" in standing.tags and "tentative" not in standing.tags
    assert standing.importance == 0.8  # three sessions (0.75), corrections (+0.05)
    assert len(standing.source_event_ids) == 3


@pytest.mark.parametrize(
    ("text", "importance", "tag"),
    [
        ("no, NEVER push to main", 0.8, "emphasis"),  # a rule, in capitals
        ("Always run the formatter before committing!!", 0.8, "emphasis"),
        ("As I said, run the linter before you commit.", 0.7, "recurring"),
        ("I already told you, keep going until every task is done.", 0.7, "recurring"),
    ],
)
def test_emphasis_and_a_said_before_raise_an_instruction(
    text: str, importance: float, tag: str
) -> None:
    [pref] = stated_preferences(text, after_assistant_action=True)

    assert pref.importance == importance and tag in pref.tags and pref.standing


@pytest.mark.parametrize(
    "text",
    [
        "Run the tests again.",  # "again" asks for a re-run, it is not a rule said before
        "I just asked you to fix the login bug.",  # a request of the moment
        "Add a not-null constraint on the column.",  # no capitals, no weight word
    ],
)
def test_plain_requests_get_no_emphasis(text: str) -> None:
    for pref in stated_preferences(text, after_assistant_action=True):
        assert "emphasis" not in pref.tags and "recurring" not in pref.tags


# --- rules in the forms only a rule takes ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("Keep commit messages short.", "Keep commit messages short."),
        (
            "keep commit messages and PR descriptions to one or two sentences",
            "Keep commit messages and PR descriptions to one or two sentences.",
        ),
        ("Keep functions small.", "Keep functions small."),
        ("Please keep the commits atomic.", "Keep the commits atomic."),
        ("keep it atomic", ""),  # "it": the change at hand
        ("Use Path objects consistently.", "Use Path objects consistently."),
        ("consistently use named exports", "Consistently use named exports."),
        ("Write the tests first, then implement.", "Write the tests first, then implement."),
        (
            "First update the spec, then write the tests, then the code.",
            "First update the spec, then write the tests, then the code.",
        ),
        (
            "Write a failing test first and then fix the bug",
            "Write a failing test first and then fix the bug.",
        ),
        ("Document the interface first, then build it out.", ""),  # "it": the task at hand
        ("Use snake_case for function names.", "Use snake_case for function names."),
        ("name files in kebab-case", "Name files in kebab-case."),
        ("Constants should be UPPER_CASE.", "Constants should be UPPER_CASE."),
        ("use `PascalCase` for React components", "Use `PascalCase` for React components."),
    ],
)
def test_habit_forms_are_standing_without_a_rule_word(text: str, content: str) -> None:
    found = stated_preferences(text, after_assistant_action=False)

    if content:
        assert [(p.content, p.standing) for p in found] == [(content, True)]
    else:
        assert found == []


@pytest.mark.parametrize(
    "text",
    [
        "keep the README short",  # one file: the task at hand
        "please keep it brief",
        "keep going until the build is green",
        "Fix the import first, then run the tests.",  # the first step names no work product
        "now add a test for the parser",
        "run the migration first, then restart the server",
        "Write the test for parse_config first, then fix it.",  # a name from the code, "it"
        "The assistant said to keep commit messages short?",
        # one name, one function, a rename, a question: the task at hand
        "use snake_case for this function",
        "Use snake_case for the new function.",
        "Use camelCase for the parseRow helper.",
        "rename the handlers to snake_case",
        "Should we use snake_case for function names?",
        "use snake_case for functions and fix the importer",
    ],
)
def test_task_steps_in_those_forms_are_not_rules(text: str) -> None:
    assert stated_preferences(text, after_assistant_action=False) == []


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("I like short commit messages", "Prefers short commit messages."),
        ("we really like small focused pull requests", "Prefers small focused pull requests."),
    ],
)
def test_a_liking_for_a_kind_of_thing_is_a_preference(text: str, content: str) -> None:
    [pref] = stated_preferences(text, after_assistant_action=False)

    assert pref.content == content and pref.standing  # a kind liked holds for all work


@pytest.mark.parametrize(
    "text",
    ["I like it", "I like the new layout", "I like how you split the module", "we love that"],
)
def test_praise_of_the_work_at_hand_is_no_preference(text: str) -> None:
    assert stated_preferences(text, after_assistant_action=True) == []


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("no, use Path, not os.path", "Prefers Path over os.path."),
        ("No - use pnpm, not npm.", "Prefers pnpm over npm."),
    ],
)
def test_a_correction_naming_both_choices_is_kept(text: str, content: str) -> None:
    [pref] = stated_preferences(text, after_assistant_action=True)

    assert pref.content == content and "correction" in pref.tags


@pytest.mark.parametrize(
    "text",
    [
        "Please remember: tests before code.",
        "don't forget: always squash before merging",
        "Keep in mind that we always rebase onto main.",
    ],
)
def test_a_reminder_is_emphasis(text: str) -> None:
    found = stated_preferences(text, after_assistant_action=True)

    assert found and all("emphasis" in p.tags for p in found)


@pytest.mark.parametrize(
    "text",
    [
        "> Keep commit messages short.\n\nwhat do you mean by this?",
        "> Always run the linter before committing\nis this from the docs?",
        'You wrote: "Use Path objects consistently." Why?',
    ],
)
def test_quoted_words_are_not_the_users_instruction(text: str) -> None:
    assert stated_preferences(text, after_assistant_action=True) == []


def test_a_naming_convention_inside_a_long_task_prompt_is_a_rule() -> None:
    prompt = (
        "Implement the importer for the ledger CSV files. It should read every row, skip the "
        "header, and store each entry in the database. Use snake_case for function names. "
        "Write tests for the parser in tests/test_parser.py and make sure they pass."
    )

    found = stated_preferences(prompt, after_assistant_action=False)

    assert [(p.content, p.standing) for p in found] == [
        ("Use snake_case for function names.", True)
    ]


@pytest.mark.parametrize(
    ("text", "expected", "refused"),
    [
        (
            "Please avoid adding new files when you can edit existing ones.",
            "Avoid adding new files",
            "Don't adding",
        ),
        ("Avoid using global state in handlers.", "Avoid using global state", "Don't using"),
        ("Avoid global state in handlers.", "Avoid global state", "Don't global"),
        # "don't" keeps its own lead.
        ("Don't add new files when you can edit existing ones.", "Don't add new files", "Avoid"),
    ],
)
def test_a_rule_said_with_avoid_keeps_its_verb(text: str, expected: str, refused: str) -> None:
    contents = [content for _, content, _ in _found(text)]
    assert any(c.startswith(expected) for c in contents), contents
    assert not any(refused in c for c in contents), contents


def test_an_idiom_is_no_rule_beside_the_rule_said_with_it() -> None:
    found = stated_preferences(
        "Never say never, but avoid global state.", after_assistant_action=True
    )
    assert [p.content for p in found] == ["Avoid global state."]


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("Always squash merge from now on.", "Always squash merge from now on."),
        ("Use pnpm for everything from here on.", "Use pnpm for everything from here on."),
        ("Always put the config file on", "Always put the config file."),  # a dangling "on"
    ],
)
def test_from_now_on_keeps_its_on_a_dangling_on_goes(text: str, content: str) -> None:
    found = stated_preferences(text, after_assistant_action=True)
    assert [p.content for p in found] == [content]
