"""How far to carry a batch of work and what "done" means: many wordings, one instruction each,
promoted and raised as sessions repeat them, and first in the style a session starts with."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from squirrel_core.events import Event, EventType, SourceTool
from squirrel_memory.extractors.preferences import stated_preferences
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.extractors.workflow_habits import (
    CARRY_KEY,
    DONE_KEY,
    SUITE_KEY,
    TESTS_KEY,
    with_workflow_habits,
    workflow_habits,
)
from squirrel_memory.models import (
    MemoryCandidate,
    MemoryItem,
    MemorySource,
    MemoryType,
    Scope,
    UpdateAction,
    UpdateDecision,
)
from squirrel_memory.processor import Processor
from squirrel_memory.processor_settings import ProcessorSettings
from squirrel_memory.recurrence import decide_recurrence
from squirrel_memory.storage import SqliteStore
from squirrel_memory.updates import decide_update
from squirrel_memory.user_memories.userstore import SqliteUserStore
from squirrel_memory.views.builder import Views
from squirrel_memory.views.core_style import SAID_ONCE_PREFIX, core_style

NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("don't stop after the first task, do all of them", CARRY_KEY),
        ("keep going until the whole list is done", CARRY_KEY),
        ("Please work through every task in the plan before you report back.", CARRY_KEY),
        ("no, continue with the remaining tasks", CARRY_KEY),
        ("Do all the items in one go, no need to check in between steps.", CARRY_KEY),
        ("Could you please keep going until all of them are done?", CARRY_KEY),
        ("Don't say it's done before cargo test passes.", DONE_KEY),
        ("no, it's not done until mix test is green", DONE_KEY),
        ("Before calling it done, run go vet and commit.", DONE_KEY),
        # said of "it" or after the task in its sentence: maybe this task's, it waits
        ("it's done when the tests pass and the change is committed", DONE_KEY),
        ("fix it, done means the tests pass and it's pushed", DONE_KEY),
        ("Work through the whole list without asking.", CARRY_KEY),
        ("Only report back when everything is finished.", CARRY_KEY),
        ("I asked you to finish all of them.", CARRY_KEY),
        ("you were supposed to do every task, not just the first", CARRY_KEY),
        ("Run the full test suite before saying it's done.", DONE_KEY),
        ("run the linter before you say it's finished", DONE_KEY),
        ("Don't tell me it works until you've run it.", DONE_KEY),
        ("check the build before telling me it's fixed", DONE_KEY),
        ("you're done when make check passes", DONE_KEY),
        # the batch named by a file, and who not to stop for between the tasks
        (
            "Work through every open task in TODO.md without stopping to ask me between them.",
            CARRY_KEY,
        ),
        (
            "Go through all remaining tasks in TODO.md, don't stop to check in with me between tasks.",
            CARRY_KEY,
        ),
        ("Do not pause to confirm with me between the steps.", CARRY_KEY),
        # the tests left as they are, and the whole suite run
        ("Please don't modify existing tests to make them pass.", TESTS_KEY),
        ("don't change a test just to make it green", TESTS_KEY),
        ("don't edit the tests so they pass, fix the code", TESTS_KEY),
        ("run the full suite, not just the one file", SUITE_KEY),
        ("Run all the tests before you finish.", SUITE_KEY),
        ("Full test suite please, not only the new test.", SUITE_KEY),
    ],
)
def test_wordings_of_a_workflow_habit_share_one_key(text: str, key: str) -> None:
    [habit] = workflow_habits(text, after_assistant_action=True)

    assert habit.key == key and "workflow" in habit.tags
    assert "tentative" in habit.tags and habit.importance == 0.35
    assert habit.content.endswith("”.")  # quotes the user's words


@pytest.mark.parametrize(
    "text",
    [
        "the migration is done",  # one thing finished, not what done means
        "is it done?",
        "should I keep going?",
        "keep going",  # no batch named: a nudge of the moment
        "Continue with the next step.",
        "The loop continues until all items are processed.",
        "Stop the server after each run.",
        "Do we continue until all tests pass?",
        "I'm done for today, thanks.",
        "let me know when you're done",
        "it's done when I say it is",
        "The job is complete when the upload finishes.",
        # about something in the code, not how the work is carried out
        "The job is not complete until the upload finishes.",
        "the retry loop should keep going until all workers exit",
        "ok so the importer should continue until all rows are read",
        "The worker should only stop when all jobs are drained.",
        # a one-off request naming everything of a kind, not the batch
        "I asked you to do everything in Python.",
        "I told you to finish all the tests for the parser module",
        # questions and hedges
        "Did you work through the whole list without asking?",
        "Can you tell me whether it works before saying it's done?",
        # a pasted quote, not the user's words
        "> Only report back when everything is finished.\nwhat does this line in the doc mean",
        "```\nrun the tests before you say it's done\n```",
        # about the program, not the assistant's reporting
        "The health check tells me it works until the cache expires.",
        # stopping something else between runs, not the work
        "Without stopping the server between the runs, reload the config.",
        "Don't stop to look at the logs between the deploy steps.",
        # the task's own step, tests the code removed, a fixture's doing, a question
        "Run all the tests.",
        "run the full suite",
        "Delete the tests for the old parser, they test removed code.",
        "The fixture changes the tests so they pass on Windows.",
        "Why did you change the test to make it pass?",
    ],
)
def test_other_sentences_are_not_workflow_habits(text: str) -> None:
    assert workflow_habits(text, after_assistant_action=True) == []


@pytest.mark.parametrize(
    "text",
    [
        # the word defined in a sentence of its own
        "done means the tests pass and the change is committed",
        "Done means the tests pass and it's committed.",
        "for me, finished = merged and deployed",
        "Add the export. Done means tests green and pushed.",
        # said of any piece of work
        "a task is not finished until it's committed and pushed",
        "A task is finished once it's deployed to staging.",
        "A change isn't done until the CHANGELOG has an entry for it.",
        "nothing is done until CI is green",
    ],
)
def test_what_done_means_for_any_work_is_standing_at_once(text: str) -> None:
    [habit] = workflow_habits(text, after_assistant_action=False)

    assert habit.key == DONE_KEY and habit.standing and habit.importance == 0.7


@pytest.mark.parametrize(
    "text",
    [
        "When I give you a list of tasks, do all of them. Don't stop to ask after each one.",
        "if I send you several tickets, don't stop to check in with me between them",
    ],
)
def test_a_habit_said_of_each_later_request_is_standing_at_once(text: str) -> None:
    [habit] = workflow_habits(text, after_assistant_action=False)

    assert habit.key == CARRY_KEY and habit.standing


@pytest.mark.parametrize(
    "text",
    [
        "When I give you the go-ahead, don't stop after the first task.",
        "If I send you the logs, keep going until the whole list is done.",
        "when I give you a thumbs up, work through the whole list without asking",
        "the migration is done when the backfill finishes",
    ],
)
def test_one_moment_of_the_task_makes_no_standing_workflow_habit(text: str) -> None:
    assert not [h for h in workflow_habits(text, after_assistant_action=False) if h.standing]


def test_said_as_a_rule_it_is_standing_at_once_and_emphasis_raises_it() -> None:
    [rule] = workflow_habits(
        "From now on, never call a task done until CI is green.", after_assistant_action=False
    )
    [stressed] = workflow_habits(
        "It's NOT done until the tests pass!!", after_assistant_action=True
    )

    assert rule.standing and "standing" in rule.tags and rule.importance == 0.7
    assert not stressed.standing and "emphasis" in stressed.tags and stressed.importance == 0.45


def test_a_correction_saying_it_was_said_before_is_stressed() -> None:
    [habit] = workflow_habits(
        "No, I said run the tests before you say it's done.", after_assistant_action=True
    )

    assert habit.key == DONE_KEY and "correction" in habit.tags and "emphasis" in habit.tags
    assert "I said run the tests before you say it's done" in habit.content


def test_a_habit_replaces_the_instruction_that_only_words_it() -> None:
    text = "no, keep going until all tasks are done"
    stated = stated_preferences(text, after_assistant_action=True)

    kept = with_workflow_habits(stated, text, after_assistant_action=True)

    assert stated and [p.key for p in kept] == [CARRY_KEY]


# --- several sessions, through the processor, a real store and the style view ----------------


@pytest.fixture
async def stores(tmp_path: Path) -> AsyncIterator[tuple[SqliteStore, SqliteUserStore]]:
    root = tmp_path / "proj"
    root.mkdir()
    store = await SqliteStore.open(str(root.resolve()), clock=lambda: NOW)
    users = await SqliteUserStore.open(tmp_path / "home")
    yield store, users
    await store.close()
    await users.close()


async def _decide(candidate: MemoryCandidate, existing: list[MemoryItem]) -> UpdateDecision:
    return decide_update(candidate, existing)


def _processor(store: SqliteStore, users: SqliteUserStore) -> Processor:
    async def all_stores() -> list[SqliteStore]:
        return [store]

    return Processor(
        all_stores,
        users,
        RulesExtractor(),
        _decide,
        user_id="u",
        settings=ProcessorSettings(retry_delays=()),
        clock=lambda: NOW,
    )


def _session(session: str, start: datetime, request: str, done: str, reply: str) -> list[Event]:
    texts = [
        (EventType.USER_MESSAGE, {"text": request}),
        (EventType.ASSISTANT_RESPONSE, {"text": done}),
        (EventType.USER_MESSAGE, {"text": reply}),
    ]
    return [
        Event(SourceTool.CLAUDE_CODE, kind, start + timedelta(minutes=i), body, session_id=session)
        for i, (kind, body) in enumerate(texts)
    ]


#: Three projects in three ecosystems; in each, three sessions where the user says both habits
#: again in other words after the assistant stopped early.
SESSIONS = {
    "rust": [
        (
            "Port the parser to nom.",
            "Done with the first module.",
            "don't stop after the first module, do all of them. It's not done until cargo test passes.",
        ),
        (
            "Add the CLI flags.",
            "Added --verbose.",
            "keep going until the whole list is done; done means cargo test and clippy pass",
        ),
        (
            "Fix the three warnings.",
            "Fixed one warning.",
            "no, continue with the remaining items. Don't say it's done before cargo test passes.",
        ),
    ],
    "elixir": [
        (
            "Write the three LiveViews.",
            "The first LiveView is in place.",
            "keep going until every view is done. Done means mix test passes.",
        ),
        (
            "Migrate the schemas.",
            "Migrated users.",
            "Please do all the schemas in one go. It is not finished until it's committed.",
        ),
        (
            "Update the docs.",
            "Updated the README.",
            "don't stop after one file, carry on through the rest. Not done until mix test is green.",
        ),
    ],
    "typescript": [
        (
            "Convert the utils to TS.",
            "Converted date.ts.",
            "continue with the remaining files; a task is only done when pnpm test passes",
        ),
        (
            "Fix the lint errors.",
            "Fixed src/a.ts.",
            "don't stop after each file, keep going until all are fixed. Done means the tests pass.",
        ),
        (
            "Add the routes.",
            "Added /users.",
            "keep going till the whole plan is done. Never call it done before pnpm test passes.",
        ),
    ],
    # wordings none of the three users above used
    "go": [
        (
            "Split the handlers into packages.",
            "Moved the auth handler.",
            "Work through the whole list without asking. Run go test before saying it's done.",
        ),
        (
            "Add the metrics endpoints.",
            "Added /healthz.",
            "Only report back when everything is finished. Don't tell me it works until "
            "you've run go vet.",
        ),
        (
            "Replace the logger calls.",
            "Replaced the calls in main.go.",
            "I asked you to finish all of them. Check the build before telling me it's fixed.",
        ),
    ],
}


@pytest.mark.parametrize("project", sorted(SESSIONS))
async def test_both_habits_said_in_three_sessions_lead_the_core_style(
    project: str, stores: tuple[SqliteStore, SqliteUserStore], tmp_path: Path
) -> None:
    views_dir = tmp_path / "views"
    store, users = stores
    processor = _processor(store, users)
    for n, (request, done, reply) in enumerate(SESSIONS[project]):
        events = _session(f"{project}{n}", NOW - timedelta(days=6 - 2 * n), request, done, reply)
        await store.append_events(store.project_id, "u", events, [])
        await processor.drain(store)

    items, _ = await store.list_memories(store.project_id, types=[MemoryType.USER_STYLE])
    live = {m.key: m for m in items if not m.deleted}
    for key in (CARRY_KEY, DONE_KEY):
        assert "tentative" not in live[key].tags and "recurring" in live[key].tags
        assert live[key].importance >= 0.75  # three sessions: above a rule said once
        assert len(live[key].source_event_ids) == 3

    views = Views(store, user_store=users, views_dir=views_dir, clock=lambda: NOW)
    try:
        view = await views.user_style(store.project_id, user_id="u")
    finally:
        views.close()
    assert {i.key for i in view.items[:2]} == {CARRY_KEY, DONE_KEY}
    assert "No coding-style preferences" not in view.markdown


def _item(key: str, content: str, importance: float, tags: tuple[str, ...]) -> MemoryItem:
    return MemoryItem(
        id=f"m_{key}",
        project_id="/p",
        user_id="u",
        scope=Scope.USER,
        source=MemorySource.RULES,
        type=MemoryType.USER_STYLE,
        key=key,
        content=content,
        tags=tags,
        importance=importance,
        created_at=NOW,
        updated_at=NOW,
    )


def test_a_user_with_only_faint_one_offs_still_starts_with_them() -> None:
    faint = [
        _item("pref:a", "Keep going.", 0.25, ("preference", "tentative")),
        _item("pref:b", "Run the tests.", 0.27, ("preference", "tentative")),
        _item("pref:c", "Name things plainly.", 0.25, ("preference", "tentative")),
    ]

    shown = core_style(faint)

    assert [m.key for m in shown] == ["pref:b", "pref:a"]
    assert all(m.content.startswith(SAID_ONCE_PREFIX) for m in shown)


def test_faint_one_offs_stay_out_beside_a_standing_rule() -> None:
    memories = [
        _item("pref:a", "Keep going.", 0.25, ("preference", "tentative")),
        _item("pref:rule", "Always run the linter.", 0.7, ("preference", "standing")),
    ]

    assert [m.key for m in core_style(memories)] == ["pref:rule"]


def test_a_stressed_one_off_waits_beside_a_standing_rule() -> None:
    memories = [
        _item("pref:perf", "Performance is crucial.", 0.4, ("preference", "tentative", "emphasis")),
        _item(
            "pref:commit",
            "Don't commit until the final step.",
            0.4,
            ("preference", "git", "tentative", "correction", "emphasis"),
        ),
        _item("pref:rule", "Always run the linter.", 0.7, ("preference", "standing")),
    ]

    # stressed or corrected, but said once: the standing rule opens the session alone
    assert [m.key for m in core_style(memories)] == ["pref:rule"]


def test_a_habit_so_far_and_an_instruction_said_again_in_its_session_follow_a_standing_rule() -> (
    None
):
    memories = [
        _item("pref:rule", "Always run the linter.", 0.7, ("preference", "standing")),
        _item(
            "pref:types",
            "Run the type checker before you push.",
            0.4,
            ("preference", "typing", "tentative", "correction", "one_session"),
        ),
        _item(
            "pref:terse",
            "Keep your answers terse.",
            0.35,
            ("preference", "tentative", "emphasis", "repeated"),
        ),
        _item(
            "pref:routine",
            "In one session so far the user asked 3 times, each after other work: commit this.",
            0.3,
            ("preference", "tentative", "one_session"),
        ),
        _item(
            "pref:perf", "Performance is crucial.", 0.38, ("preference", "tentative", "emphasis")
        ),
    ]

    shown = core_style(memories)

    assert [m.key for m in shown] == ["pref:rule", "pref:types", "pref:terse"]
    assert shown[1].content.startswith(SAID_ONCE_PREFIX)
    assert shown[2].content.startswith("Noted in one session so far: ")


@pytest.mark.parametrize(
    ("key", "tag"), [("pref:simplest_reuse_existing", "simplicity"), (CARRY_KEY, "workflow")]
)
def test_a_working_habit_said_once_follows_a_standing_rule(key: str, tag: str) -> None:
    memories = [
        _item("pref:rule", "Always run the linter.", 0.7, ("preference", "standing")),
        _item(key, "Keep it simple.", 0.45, ("preference", tag, "tentative", "correction")),
        _item("pref:perf", "Performance is crucial.", 0.5, ("preference", "tentative", "emphasis")),
    ]

    assert [m.key for m in core_style(memories)] == ["pref:rule", key]


def test_a_stressed_one_off_still_opens_a_session_with_no_standing_rule() -> None:
    memories = [
        _item("pref:perf", "Performance is crucial.", 0.4, ("preference", "tentative", "emphasis")),
        _item("pref:notes", "Don't add notes.", 0.25, ("preference", "tentative")),
    ]

    shown = core_style(memories)

    assert [m.key for m in shown] == ["pref:perf"]
    assert shown[0].content == f"{SAID_ONCE_PREFIX}Performance is crucial."


def _candidate(key: str, content: str, episode: str, event: str) -> MemoryCandidate:
    return MemoryCandidate(
        MemoryType.USER_STYLE,
        key,
        content,
        ("preference", "standing"),
        0.7,
        source_episode_id=episode,
        source_event_ids=(event,),
        scope=Scope.USER,
    )


def _stored_rule(key: str, content: str) -> MemoryItem:
    return replace(
        _item(key, content, 0.7, ("preference", "standing")),
        source_episode_id="ep1",
        source_event_ids=("e1",),
    )


def test_a_rule_stated_again_as_a_rule_in_another_session_grows() -> None:
    stored = _stored_rule("pref:run_test_commit", "Run the tests before committing.")
    again = _candidate("pref:run_test_commit", "Always run tests before you commit.", "ep2", "e2")

    decision = decide_recurrence(again, [stored])

    assert decision is not None and decision.action is UpdateAction.UPDATE_EXISTING
    assert decision.candidate.importance > stored.importance
    assert decision.candidate.source_event_ids == ("e1", "e2")


@pytest.mark.parametrize(
    ("content", "episode"),
    [
        ("Prefers npm over pnpm.", "ep2"),  # the rule changed: the ordinary rules decide
        ("Prefers pnpm over npm.", "ep1"),  # the same session: nothing recurred
    ],
)
def test_a_changed_rule_or_the_same_session_is_not_a_recurrence(content: str, episode: str) -> None:
    stored = _stored_rule("pref:package_manager", "Prefers pnpm over npm.")
    candidate = _candidate("pref:package_manager", content, episode, "e2")

    if episode == "ep1":
        candidate = replace(candidate, source_event_ids=("e1",))
    assert decide_recurrence(candidate, [stored]) is None


@pytest.mark.parametrize(
    ("text", "content", "standing"),
    [
        ("I want you to always run the linter before committing.", "Always run the linter", True),
        ("Only use conventional commits.", "Only use conventional commits.", True),
        ("Use conventional commits for every commit.", "Use conventional commits for", True),
        ("Make sure to run cargo fmt before you push.", "Make sure to run cargo fmt", False),
        ("Remember to run mix format before each commit.", "Run mix format before each", True),
    ],
)
def test_rules_behind_an_insisting_lead_or_a_standing_scope(
    text: str, content: str, standing: bool
) -> None:
    [pref] = stated_preferences(text, after_assistant_action=False)

    assert pref.content.startswith(content) and pref.standing is standing


@pytest.mark.parametrize(
    "text",
    [
        "I want you to fix the login bug",  # a request of the moment
        "Remember to update the CHANGELOG for this.",
        "make sure to update the tests for this",
        "Make sure to handle the empty case.",  # no condition: about the task at hand
        "only use it when needed",
    ],
)
def test_task_requests_behind_the_same_leads_are_not_instructions(text: str) -> None:
    assert stated_preferences(text, after_assistant_action=False) == []


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("Do not touch any file unless I approve it.", "Don't touch any file unless I approve it."),
        ("lint the package, but no file changes without approval", "No file changes without"),
        ("Don't change any files without asking me first.", "Don't change any files without"),
    ],
)
def test_a_change_only_with_the_users_approval_is_a_rule_of_conduct(
    text: str, content: str
) -> None:
    [pref] = stated_preferences(text, after_assistant_action=False)

    assert pref.content.startswith(content)
    assert "tentative" in pref.tags and pref.importance == 0.3  # shown once, promoted on recurring


@pytest.mark.parametrize(
    "text",
    [
        "No worries, I'll wait until tomorrow.",
        "Fix it without breaking the API.",  # a request about this fix
        "no problem without the flag it works",
    ],
)
def test_without_and_until_alone_make_no_approval_rule(text: str) -> None:
    assert stated_preferences(text, after_assistant_action=False) == []


@pytest.mark.parametrize(
    "text",
    [
        "There appear to be lots of uncommitted changes",
        "There still appear to be lots of uncommitted changes.",
        "hmm, there are still unpushed commits",
        "there are still uncommitted changes left in the working tree",
    ],
)
def test_work_left_uncommitted_after_the_assistant_acted_says_what_done_includes(
    text: str,
) -> None:
    [habit] = workflow_habits(text, after_assistant_action=True)

    assert habit.key == DONE_KEY and "correction" in habit.tags
    # said again ("still"), it needs no action just before it
    assert bool(workflow_habits(text, after_assistant_action=False)) == ("still" in text)


@pytest.mark.parametrize(
    "text",
    [
        "There are uncommitted changes in the repo, is that expected?",  # a question
        "there are uncommitted changes from my other branch, ignore them",  # the user's own
        "The script fails when there are uncommitted changes.",  # about the program
    ],
)
def test_uncommitted_work_said_otherwise_is_no_habit(text: str) -> None:
    assert workflow_habits(text, after_assistant_action=True) == []
