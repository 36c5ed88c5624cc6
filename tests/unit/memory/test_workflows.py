"""Workflows: procedures the sessions repeat become recipes with their steps in order, each
with the command as it was run; routines, gates, one-offs and look-arounds do not."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from squirrel_memory.extractors.rules import evidence_candidates
from squirrel_memory.models import MemoryCandidate, StoredEvent

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/src/app"


def _runs(session: str, commands: Sequence[str], day: int = 0) -> list[StoredEvent]:
    return [
        StoredEvent(
            id=f"evt_{session}_{n:04d}",
            project_id=ROOT,
            user_id="dev",
            source_tool="claude_code",
            session_id=session,
            timestamp=T0 + timedelta(days=day, seconds=30 * (n + 1)),
            event_type="command_run",
            content={"command": command, "exit_code": 0, "is_error": False, "output": "ok"},
            file_paths=(),
            hash=f"h-{session}-{n}",
        )
        for n, command in enumerate(commands)
    ]


def _workflows(events: list[StoredEvent]) -> list[MemoryCandidate]:
    return [c for c in evidence_candidates(events) if c.key.startswith("recipe:workflow:")]


def test_a_generator_a_review_and_a_migration_in_two_sessions() -> None:
    events = _runs(
        "s1",
        [
            "git status",
            "mix ecto.gen.migration add_users",
            "cat priv/repo/x.exs",
            "mix ecto.migrate",
        ],
    )
    events += _runs(
        "s2",
        ["mix ecto.gen.migration add_orders", "mix ecto.migrate", "ls"],
        day=3,
    )
    (workflow,) = _workflows(events)
    assert workflow.content == (
        "A procedure done 2 times in 2 sessions: `mix ecto.gen.migration <name>` → "
        "`mix ecto.migrate`."
    )


def test_an_issue_trackers_verbs_in_the_order_the_user_works() -> None:
    day_one = ["tracker show 12", "tracker note 12 'needs a test'", "tracker close 12"]
    day_two = ["tracker show 14", "tracker note 14 'done in main'", "tracker close 14"]
    events = _runs("s1", day_one) + _runs("s2", day_two, day=1)
    (workflow,) = _workflows(events)
    assert (
        '`tracker show <n>` → `tracker note <n> "<text>"` → `tracker close <n>`' in workflow.content
    )


def test_a_value_given_to_a_name_keeps_the_name() -> None:
    day_one = ["gh workflow run release.yml -f version=2.3.0", "gh run list -L 1"]
    day_two = ["gh workflow run release.yml -f version=2.3.1", "gh run list -L 1"]
    events = _runs("s1", day_one) + _runs("s2", day_two, day=1)
    # Both sessions end so: the end-of-session routine says the procedure, with its steps
    # shown the same way (a workflow saying it again is left out).
    assert _workflows(events) == []
    assert "`gh workflow run release.yml -f version=<value>` → `gh run list -L 1`" in (
        _routine(events)
    )


def test_other_names_given_a_value_are_other_words() -> None:
    day_one = ["gh workflow run release.yml -f version=2.3.0", "gh run list -L 1"]
    day_two = ["gh workflow run release.yml -f channel=beta", "gh run list -L 1"]
    events = _runs("s1", day_one) + _runs("s2", day_two, day=1)
    assert _workflows(events) == []
    assert "`gh workflow run release.yml -f <name>`" in _routine(events)


def test_a_procedure_repeated_three_times_in_one_session() -> None:
    loop = ["npx prisma generate", "npx prisma migrate dev", "pnpm build"]
    (workflow,) = _workflows(_runs("s1", loop * 3))
    assert workflow.content == (
        "A procedure done 3 times in one session: `npx prisma generate` → "
        "`npx prisma migrate dev` → `pnpm build`."
    )


def test_no_workflow_from_a_single_run_or_two_in_one_session() -> None:
    once = ["cargo build", "cargo run -- report", "cargo bench"]
    assert _workflows(_runs("s1", once)) == []
    assert _workflows(_runs("s1", once * 2)) == []


def test_recording_and_checks_are_left_to_the_routine_and_the_gate() -> None:
    recording = ["git add -A", "git commit -m x", "git push"]
    checks = ["go vet ./...", "go test ./...", "git commit -m y"]
    events = _runs("s1", recording + checks) + _runs("s2", recording + checks, day=1)
    assert _workflows(events) == []


def test_inline_scripts_and_look_arounds_are_no_steps() -> None:
    session = ['python -c "print(1)"', "ls src", "bundle exec rspec", "grep -r x ."]
    events = _runs("s1", session) + _runs("s2", session, day=1)
    assert _workflows(events) == []


def test_a_cycle_is_one_workflow_however_it_is_entered() -> None:
    cycle = ["make gen", "make docs", "rsync -a site/ host:site/"]
    (workflow,) = _workflows(_runs("s1", cycle * 4))
    assert workflow.content.count("→") == 2


def test_each_step_is_shown_as_it_was_run_with_what_changed_marked() -> None:
    day_one = ["bin/rails g model Invoice total:decimal", "bin/rails db:migrate"]
    day_two = ["bin/rails g model Payment amount:decimal", "bin/rails db:migrate"]
    events = _runs("s1", day_one) + _runs("s2", day_two, day=1)
    (workflow,) = _workflows(events)
    assert "`bin/rails g model <name> <name>` → `bin/rails db:migrate`" in workflow.content


def test_runs_that_share_only_their_program_show_its_verbs() -> None:
    day_one = ["gen 41", "deploy-site now"]
    day_two = ["gen 97", "deploy-site now"]
    events = _runs("s1", day_one) + _runs("s2", day_two, day=1)
    (workflow,) = _workflows(events)
    assert workflow.content.startswith("A procedure done 2 times in 2 sessions: `gen` → ")


def _routine(events: list[StoredEvent]) -> str:
    return next(c.content for c in evidence_candidates(events) if c.key == "recipe:routine")


def test_the_end_of_session_routine_shows_each_step_as_it_was_run() -> None:
    one = ["cargo build", 'git commit -am "parse dates"', "git push", "fly deploy"]
    two = ["cargo build", 'git commit -am "fix totals"', "git push", "fly deploy"]
    events = _runs("s1", one) + _runs("s2", two, day=1)
    assert '`git commit -am "<text>"` → `git push` → `fly deploy`' in _routine(events)


def test_a_step_run_with_other_options_is_shown_by_its_head() -> None:
    one = ["git push -u origin feature-a", "gh pr create --fill"]
    two = ["git push --force-with-lease origin feature-b", "gh pr create --fill"]
    events = _runs("s1", one) + _runs("s2", two, day=1)
    assert _routine(events).startswith("At the end of a session: `git push` → `gh pr create")


def test_two_sessions_that_installed_or_built_and_ran_the_tests_repeat_no_procedure() -> None:
    for session in (
        ["npm ci", "npm test"],
        ["uv sync", "uv run pytest"],
        ["cargo build", "cargo test"],
        ["bundle install", "bundle exec rspec", "git commit -m 'wip'"],
        ["npm ci", "npm run build", "npm test", "git push"],
    ):
        events = _runs("s1", session) + _runs("s2", session, day=2)
        assert _workflows(events) == [], session


def test_a_procedure_with_an_install_among_its_own_steps_is_still_one() -> None:
    elixir = ["mix deps.get", "mix ecto.gen.migration add_users", "mix ecto.migrate"]
    rails = ["bundle install", "bin/rails generate migration AddUsers", "bin/rails db:migrate"]
    for session in (elixir, rails):
        events = _runs("s1", session) + _runs("s2", session, day=2)
        (workflow,) = _workflows(events)
        assert "migrat" in workflow.content and session[0] in workflow.content, session


def test_services_started_before_the_tests_are_a_procedure() -> None:
    session = ["docker compose up -d", "npm test"]
    events = _runs("s1", session) + _runs("s2", session, day=2)
    (workflow,) = _workflows(events)
    assert workflow.content.endswith("`docker compose up -d` → `npm test`.")


def _routines(events: list[StoredEvent]) -> list[str]:
    return [c.content for c in evidence_candidates(events) if c.key == "recipe:routine"]


def test_applying_migrations_is_no_end_of_session_routine() -> None:
    # Each session wrote a migration and applied it: a step of that change, not of how every
    # session ends (the procedure and the migrate recipe still say it).
    elixir = _runs("s1", ["mix ecto.gen.migration add_tags", "mix ecto.migrate"])
    elixir += _runs("s2", ["mix ecto.gen.migration add_color", "mix ecto.migrate"], day=1)
    django = _runs("s1", ["python manage.py makemigrations", "python manage.py migrate"])
    django += _runs("s2", ["python manage.py makemigrations", "python manage.py migrate"], day=1)
    for events in (elixir, django):
        assert not any("migrate" in r for r in _routines(events))


def test_the_routine_around_a_migration_keeps_its_other_steps() -> None:
    one = ["mix ecto.migrate", 'git commit -am "tags"', "git push"]
    two = ["mix ecto.migrate", 'git commit -am "color"', "git push"]
    events = _runs("s1", one) + _runs("s2", two, day=1)
    (routine,) = _routines(events)
    assert routine.startswith("At the end of a session: `git commit -am")
    assert "→ `git push`" in routine
    assert "migrate" not in routine


def test_a_program_run_with_other_first_words_each_time_is_no_routine_step() -> None:
    one = ["sbt ~compile", 'git commit -am "balances"', "git push"]
    two = ['sbt "core/testOnly a.TransferSpec"', 'git commit -am "tz"', "git push"]
    events = _runs("s1", one) + _runs("s2", two, day=1)
    (routine,) = _routines(events)
    assert "`sbt`" not in routine
    assert "→ `git push`" in routine


def test_a_program_run_the_same_way_each_time_stays_a_routine_step() -> None:
    one = ["just release", 'git commit -am "a"', "git push"]
    two = ["just release", 'git commit -am "b"', "git push"]
    events = _runs("s1", one) + _runs("s2", two, day=1)
    (routine,) = _routines(events)
    assert routine.startswith("At the end of a session: `just release`")


def test_a_procedure_the_end_of_session_routine_already_says_is_not_repeated() -> None:
    # The recording steps run through a wrapper program are no `git` to the workflow rule;
    # the routine shows them all, in the same order.
    one = ["wrap git log --oneline -5", "wrap git add src/a.ts", 'wrap git commit -m "a"']
    two = ["wrap git log --oneline -5", "wrap git add src/b.ts", 'wrap git commit -m "b"']
    events = _runs("s1", one) + _runs("s2", two, day=1)
    assert "`wrap git log --oneline -5`" in _routine(events)
    assert _workflows(events) == []


def test_a_procedure_with_a_step_the_routine_does_not_show_is_kept() -> None:
    one = ["gen 41", "deploy-site now", "wrap git add a.ts", 'wrap git commit -m "a"']
    two = ["gen 97", "deploy-site now", "wrap git add b.ts", 'wrap git commit -m "b"']
    events = _runs("s1", one) + _runs("s2", two, day=1)
    (workflow,) = _workflows(events)
    assert workflow.content.startswith("A procedure done 2 times in 2 sessions: `gen` → ")
