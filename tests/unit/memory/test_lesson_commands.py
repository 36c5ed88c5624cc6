"""A pitfall's fix is the option that changed, shown whole: free text given to a program
(a prompt, a message) is not what fixed it, a long command is never cut where the flag that
mattered may stand, a look-around between two runs is no set-up, a heading is no error, an
inline probe script is no pitfall, and one failure named from two folders is one lesson.
Streams of several ecosystems, and where each rule must stay silent."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest

from squirrel_memory.extractors.activity import CommandRun
from squirrel_memory.extractors.command_evidence import evidence_candidates
from squirrel_memory.extractors.differences import argument_change
from squirrel_memory.extractors.evidence import attempts
from squirrel_memory.extractors.pitfalls import error_fingerprint, error_signature, fingerprint_key
from squirrel_memory.models import MemoryCandidate, MemoryType, StoredEvent

T0 = datetime(2026, 4, 6, 10, 0, tzinfo=UTC)
ROOT = "/home/dev/src/app"


def _runs(session: str, runs: Sequence[tuple[str, int, str]], day: int = 0) -> list[StoredEvent]:
    return [
        StoredEvent(
            id=f"evt_{session}_{n:04d}",
            project_id=ROOT,
            user_id="dev",
            source_tool="claude_code",
            session_id=session,
            timestamp=T0 + timedelta(days=day, seconds=30 * (n + 1)),
            event_type="command_run",
            content={"command": cmd, "exit_code": code, "is_error": code != 0, "output": out},
            file_paths=(),
            hash=f"h-{session}-{n}",
        )
        for n, (cmd, code, out) in enumerate(runs)
    ]


def _pitfalls(events: list[StoredEvent]) -> list[MemoryCandidate]:
    return [c for c in evidence_candidates(events) if c.type == MemoryType.PITFALL]


def _intent(command: str) -> tuple[str, ...]:
    run = CommandRun("e", T0, command, True, "")
    (attempt,) = attempts([run], ROOT)
    return attempt.intent


# --- the option that changed ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("failed", "passed", "said"),
    [
        (
            ("agent", "--task", "Sum the first ten numbers and explain each step"),
            ("agent", "--profile", "local", "--task", "Sum the first ten numbers"),
            "with `--profile local` added",
        ),
        (
            ("bundle", "exec", "rake", "import", "--note", "first try at the nightly import"),
            ("bundle", "exec", "rake", "import", "--dry-run", "--note", "second try"),
            "with `--dry-run` added",
        ),
        (
            ("mix", "run", "--no-start", "priv/seed.exs", "--label", "seed the demo accounts"),
            ("mix", "run", "priv/seed.exs", "--label", "seed demo accounts again"),
            "without `--no-start`",
        ),
    ],
)
def test_the_option_that_changed_beside_new_free_text(
    failed: tuple[str, ...], passed: tuple[str, ...], said: str
) -> None:
    assert argument_change(failed, passed) == said


def test_no_option_changed_and_everything_else_did_is_no_claim() -> None:
    assert argument_change(("ask", "why is it slow", "a", "b"), ("ask", "try", "c", "d", "e")) == ""


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ('agent --task "Sum one and two"', 'agent --profile local --task "Add three"'),
        ("go -C tools run .", "go -C tools run ./cmd"),
        ("kubectl -n prod get pods", "kubectl -n staging get pods"),
    ],
)
def test_free_text_and_option_values_are_not_the_intent(first: str, second: str) -> None:
    assert _intent(first) == _intent(second)


@pytest.mark.parametrize(
    ("first", "second"),
    [("git push", "git commit -m x"), ("cargo build", "cargo run"), ("mix deps.get", "mix test")],
)
def test_subcommands_stay_apart(first: str, second: str) -> None:
    assert _intent(first) != _intent(second)


def test_a_rerun_with_an_option_and_another_prompt_teaches_the_option() -> None:
    events = _runs(
        "s",
        [
            (
                'agent --task "Sum the first ten numbers and explain every step of it"',
                1,
                "Exit code 1\n\nOptions:\n  1. This profile's model cannot run tasks\n"
                "  2. Override for this session: agent --profile local\n",
            ),
            ("agent profile list", 0, "default\nlocal"),  # looking around: no set-up step
            ('agent --profile local --task "Sum the first ten numbers"', 0, "55"),
        ],
    )
    (pitfall,) = _pitfalls(events)
    assert "failed with `This profile's model cannot run tasks`" in pitfall.content
    assert "re-running it with `--profile local` added worked" in pitfall.content
    assert "Options:" not in pitfall.content
    assert "running `agent profile list`" not in pitfall.content


def test_a_long_command_keeps_its_last_flag_and_hides_only_its_free_text() -> None:
    long_note = "import every account of the legacy system including the archived ones"
    events = _runs(
        "s",
        [
            (f'bin/import --source legacy --note "{long_note}" --strict', 1, "error: bad row 12"),
            (f'bin/import --source legacy --note "{long_note}"', 0, "imported 40 rows"),
        ],
    )
    (pitfall,) = _pitfalls(events)
    assert pitfall.content.startswith("`bin/import --source legacy --note '…' --strict` failed")
    assert "without `--strict`" in pitfall.content
    assert "…`" not in pitfall.content.replace("'…'", "")


@pytest.mark.parametrize(
    "probe",
    ['python -c "import app; app.boot()"', "node -e \"require('./app').boot()\"", "ruby -e 'boot'"],
)
def test_an_inline_probe_script_is_no_pitfall(probe: str) -> None:
    events = _runs(
        "s",
        [
            (probe, 1, "NameError: name 'boot' is not defined"),
            (probe.replace("boot", "start"), 0, "started"),
        ],
    )
    assert _pitfalls(events) == []


def test_a_heading_is_never_the_error_shown() -> None:
    events = _runs(
        "s",
        [
            ("deploy-tool push", 1, "Next steps:\nthe target environment is locked by a release"),
            ("deploy-tool unlock", 0, "unlocked"),
            ("deploy-tool push", 0, "pushed"),
        ],
    )
    (pitfall,) = _pitfalls(events)
    assert "failed with `the target environment is locked by a release`" in pitfall.content
    assert "running `deploy-tool unlock` first fixed it" in pitfall.content


# --- one failure named from two folders -------------------------------------------------------


@pytest.mark.parametrize(
    ("with_folder", "bare"),
    [
        (
            "tests/test_cart.py::TestCart::test_total FAILED",
            "test_cart.py::TestCart::test_total FAILED",
        ),
        ("pkg/cart/cart_test.go:31: total = 2, want 3", "cart_test.go:31: total = 2, want 3"),
        ("spec/models/cart_spec.rb:12: expected 3, got 2", "cart_spec.rb:12: expected 3, got 2"),
        ("lib/cart/total.ex:4: undefined function sum/1", "total.ex:4: undefined function sum/1"),
    ],
)
def test_a_file_named_with_or_without_its_folder_is_one_signature(
    with_folder: str, bare: str
) -> None:
    from squirrel_memory.extractors.pitfalls import normalise_line  # noqa: PLC0415

    assert error_signature(normalise_line(with_folder)) == error_signature(normalise_line(bare))


def test_a_dotted_name_that_is_no_file_keeps_its_signature() -> None:
    assert error_signature("TypeError: cart.total is not a function") != error_signature(
        "TypeError: cart.items is not a function"
    )


def test_one_test_failing_from_two_folders_is_one_lesson() -> None:
    events = _runs(
        "s",
        [
            ("pytest tests/test_cart.py -v", 1, "tests/test_cart.py::T::test_total FAILED [ 50%]"),
            ("pytest tests/test_cart.py -v", 0, "2 passed"),
        ],
    )
    events += _runs(
        "s2",
        [
            ("pytest test_cart.py -v", 1, "test_cart.py::T::test_total FAILED [ 50%]"),
            ("pytest test_cart.py -v", 0, "2 passed"),
        ],
        day=1,
    )
    (pitfall,) = _pitfalls(events)
    assert "(seen in 2 sessions)" in pitfall.content
    assert "[ 50%]" not in pitfall.content


# --- one gate, however its checks were run ----------------------------------------------------


def _edit(session: str, n: int, path: str, day: int) -> list[StoredEvent]:
    at = T0 + timedelta(days=day, seconds=30 * (n + 1) + 5)
    return [
        StoredEvent(
            id=f"evt_{session}_e{n:03d}",
            project_id=ROOT,
            user_id="dev",
            source_tool="claude_code",
            session_id=session,
            timestamp=at,
            event_type="code_change",
            content={"path": f"{ROOT}/{path}"},
            file_paths=(),
            hash=f"h-{session}-e{n}",
        )
    ]


@pytest.mark.parametrize(
    ("hook", "direct", "error", "path"),
    [
        ("ruff", "ruff check src/", "src/a.py:3:1: F401 `os` imported but unused", "src/a.py"),
        (
            "golangci-lint",
            "golangci-lint run ./...",
            "main.go:9:2: ineffectual assignment",
            "main.go",
        ),
        ("rubocop", "bundle exec rubocop", "app/a.rb:4:1: C: Style/StringLiterals", "app/a.rb"),
        (
            "credo",
            "mix credo --strict",
            "lib/a.ex:7 [R] Modules should have a @moduledoc",
            "lib/a.ex",
        ),
    ],
)
def test_a_checks_own_failures_join_the_commit_gate_that_runs_it(
    hook: str, direct: str, error: str, path: str
) -> None:
    failing = f"format.....Passed\n{hook}.....Failed\n- hook id: {hook}\n{error}\n"
    events = _runs(
        "s1",
        [('git commit -m "first"', 1, failing), ('git commit -m "first"', 0, "[main 1a2b3c4] x")],
    )
    events += _edit("s1", 0, path, 0)
    events += _runs("s2", [(direct, 1, error), (direct, 0, "ok")], day=1)
    events += _edit("s2", 0, path, 1)
    (pitfall,) = _pitfalls(events)
    assert pitfall.content.startswith(f"Commits run checks that must pass first (format, {hook}):")
    assert f"running `{direct}` before committing gets past it" in pitfall.content
    assert "(seen in 2 sessions)" in pitfall.content


def test_every_check_the_hook_runs_is_named_even_those_that_passed() -> None:
    events = _runs(
        "s1",
        [
            ('git commit -m "x"', 1, "✖ eslint --fix\nsrc/a.ts:1:1 error no-unused-vars\n"),
            (
                'git commit -m "x"',
                0,
                "✔ eslint --fix\n✔ prettier --write\n✔ tsc --noEmit\n[main 1a2b3c4] x",
            ),
        ],
    )
    events += _edit("s1", 0, "src/a.ts", 0)
    (pitfall,) = _pitfalls(events)
    assert "(eslint --fix, prettier --write, tsc --noEmit)" in pitfall.content


def test_another_checker_stays_its_own_lesson() -> None:
    failing = "ruff.....Failed\n- hook id: ruff\nsrc/a.py:3:1: F401 `os` imported but unused\n"
    events = _runs(
        "s1",
        [('git commit -m "x"', 1, failing), ('git commit -m "x"', 0, "[main 1a2b3c4] x")],
    )
    events += _edit("s1", 0, "src/a.py", 0)
    error = "src/b.py:9: error: Incompatible return value type"
    events += _runs("s2", [("mypy src", 1, error), ("mypy src", 0, "Success")], day=1)
    events += _edit("s2", 0, "src/b.py", 1)
    assert len(_pitfalls(events)) == 2


# --- a test run that selected nothing ---------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "output", "selection"),
    [
        (
            "pytest -m unit -v",
            "=== test session starts ===\nplatform linux -- Python 3.12.1\n"
            "collecting ... collected 205 items / 205 deselected / 0 selected\n"
            "=== 205 deselected in 0.58s ===\n",
            "-m unit",
        ),
        ("npx vitest run src/cart", "No test files found, exiting with code 1\n", "src/cart"),
        (
            "mix test --only slow",
            'The --only option was given to "mix test" but no test was executed\n',
            "--only slow",
        ),
        (
            "dotnet test --filter Category=Smoke",
            "No test matches the given testcase filter `Category=Smoke`\n",
            "--filter Category=Smoke",
        ),
    ],
)
def test_a_selection_that_matched_no_test_is_a_lesson_in_one_session(
    command: str, output: str, selection: str
) -> None:
    (pitfall,) = _pitfalls(_runs("s", [(command, 1, output)]))
    assert " ran no test with `" in pitfall.content
    assert pitfall.content.endswith(f"`{selection}` selects no test in this project.")
    assert "platform" not in pitfall.content


def test_an_error_line_explains_better_than_the_empty_run() -> None:
    output = "ERROR: file or directory not found: tests/test_cart.py\n\nno tests ran in 0.01s\n"
    events = _runs("s", [("pytest tests/test_cart.py", 4, output)])
    assert _pitfalls(events) == []  # one unfixed slip of a path in one session: no lesson


def test_a_run_that_failed_tests_is_no_empty_selection() -> None:
    events = _runs("s", [("cargo test parser", 101, "test parser::reads ... FAILED\n")])
    assert _pitfalls(events) == []


# --- one wrapper, several commands ------------------------------------------------------------


@pytest.mark.parametrize(
    ("wrapper", "first", "second"),
    [
        ("source .venv/bin/activate &&", "pytest", "ruff check src"),
        ("bundle exec", "rspec", "rubocop"),
        ("pnpm exec", "eslint src", "tsc --noEmit"),
    ],
)
def test_commands_fixed_by_the_same_wrapper_are_one_lesson(
    wrapper: str, first: str, second: str
) -> None:
    def missing(command: str) -> str:
        return f"/bin/bash: line 1: {command.split(maxsplit=1)[0]}: command not found"

    events = _runs(
        "s1",
        [(first, 127, missing(first)), (f"{wrapper} {first}", 0, "ok")],
    )
    events += _runs(
        "s2",
        [(second, 127, missing(second)), (f"{wrapper} {second}", 0, "ok")],
        day=1,
    )
    (pitfall,) = _pitfalls(events)
    assert pitfall.content.startswith(f"Commands here must run as `{wrapper} …`: `{first}` and ")
    assert f"putting `{wrapper}` before them worked" in pitfall.content
    assert "(seen in 2 sessions)" in pitfall.content


def test_one_command_fixed_by_a_wrapper_keeps_its_own_lesson() -> None:
    events = _runs(
        "s1",
        [
            ("pytest", 127, "/bin/bash: line 1: pytest: command not found"),
            ("source .venv/bin/activate && pytest", 0, "3 passed"),
        ],
    )
    (pitfall,) = _pitfalls(events)
    assert pitfall.content == (
        "`pytest` failed with `/bin/bash: line 1: pytest: command not found`; putting "
        "`source .venv/bin/activate &&` before it worked (`source .venv/bin/activate && pytest`)."
    )


def test_one_command_fixed_by_a_wrapper_keeps_its_error_signature_key() -> None:
    error = "/bin/bash: line 1: rspec: command not found"
    events = _runs("s1", [("rspec", 127, error), ("bundle exec rspec", 0, "ok")])
    (pitfall,) = _pitfalls(events)
    assert pitfall.key == fingerprint_key(error_fingerprint(error))


# --- a retry, a probe, a loop -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("failed", "error", "passed"),
    [
        # Another query asked of the history after one that failed is no fix of it.
        (
            "git show 1a2b3c4d:src/app.py",
            "fatal: path 'src/app.py' exists on disk, but not in '1a2b3c4d'",
            "git show HEAD~1:src/app.py",
        ),
        (
            "git log --oneline -- lib/app.rb",
            "fatal: bad revision 'lib/app.rb'",
            "git log --oneline main..feature",
        ),
    ],
)
def test_a_failed_query_of_the_history_is_a_probe_not_a_pitfall(
    failed: str, error: str, passed: str
) -> None:
    events = _runs("s1", [(failed, 128, error), (passed, 0, "abc123 fix\n")])
    assert _pitfalls(events) == []


def test_a_push_that_failed_is_still_a_pitfall_of_git() -> None:
    events = _runs(
        "s1",
        [
            ("git push", 128, "fatal: The current branch dev has no upstream branch."),
            ("git push -u origin dev", 0, "branch 'dev' set up to track 'origin/dev'."),
        ],
    )
    (pitfall,) = _pitfalls(events)
    assert "re-running it with `-u origin dev` added worked" in pitfall.content


@pytest.mark.parametrize(
    ("failed", "passed"),
    [
        # The same tool asked about other targets after a real error: not a retry (Python, Ruby).
        (
            "python manage.py loaddata fixtures/users.json",
            "python manage.py loaddata fixtures/roles.json --verbosity 2",
        ),
        ("bundle exec rake db:seed:users", "bundle exec rake db:seed:roles --trace"),
    ],
)
def test_other_targets_after_a_real_error_are_no_fix(failed: str, passed: str) -> None:
    error = 'IntegrityError: duplicate key value violates unique constraint "users_email"'
    events = _runs("s1", [(failed, 1, error), (passed, 0, "Installed 3 objects")])
    assert all("worked" not in p.content for p in _pitfalls(events))


@pytest.mark.parametrize(
    ("failed", "passed", "wrapper", "error"),
    [
        # A command inside a loop, fixed by what was put before it (Python, Ruby).
        (
            "for i in 1 2 3; do pytest -x tests/test_api.py || exit; done",
            "for i in 1 2 3; do poetry run pytest -x tests/test_api.py || exit; done",
            "poetry run",
            "zsh:1: command not found: pytest",
        ),
        (
            "for f in spec/models/*_spec.rb; do rspec $f; done",
            "for f in spec/models/*_spec.rb; do bundle exec rspec $f; done",
            "bundle exec",
            "bash: rspec: command not found",
        ),
    ],
)
def test_a_loop_body_is_the_command_and_its_wrapper_the_fix(
    failed: str, passed: str, wrapper: str, error: str
) -> None:
    events = _runs("s1", [(failed, 127, error), (passed, 0, "3 passed")])
    (pitfall,) = _pitfalls(events)
    assert not pitfall.content.startswith("`for "), pitfall.content
    assert f"putting `{wrapper}` before it worked" in pitfall.content, pitfall.content


@pytest.mark.parametrize(
    ("failed", "error", "passed"),
    [
        (
            "rtk bun run test",
            "error: unrecognized subcommand 'bun'\n\nUsage: rtk [OPTIONS]",
            "bun run test",
        ),
        ("mytool deploy --prod", 'Error: unknown command "deploy" for "mytool"', "deploy --prod"),
        ("dotenv pytest", "Error: invalid choice: 'pytest' (choose from 'get', 'run')", "pytest"),
    ],
)
def test_a_wrapper_that_has_no_such_subcommand_is_dropped_and_that_is_the_lesson(
    failed: str, error: str, passed: str
) -> None:
    events = _runs("s1", [(failed, 2, error), (passed, 0, "3 passed")])
    (pitfall,) = _pitfalls(events)
    wrapper = failed.split(maxsplit=1)[0]
    assert f"running it without `{wrapper}` worked (`{passed}`)" in pitfall.content


@pytest.mark.parametrize(
    ("failed", "error", "passed"),
    [
        # the wrapper failed for another reason: its inner command is another try, no fix
        ("rtk bun run test", "error: could not connect to the daemon", "bun run test"),
        # the word it had no subcommand for is not the one dropped
        ("rtk bun run test", "error: unrecognized subcommand 'run'", "bun run test"),
        # not the same command without its first word
        ("rtk bun run test", "error: unrecognized subcommand 'bun'", "bun run lint"),
    ],
)
def test_a_command_run_without_its_first_word_is_no_fix_unless_that_word_refused_the_next(
    failed: str, error: str, passed: str
) -> None:
    events = _runs("s1", [(failed, 2, error), (passed, 0, "3 passed")])
    assert all("without" not in p.content for p in _pitfalls(events))


@pytest.mark.parametrize(
    ("failed", "error", "passed", "change"),
    [
        (
            "go test ./...",
            "go: downloading github.com/stretchr/testify v1.9.0\npattern ./...: directory prefix "
            ". does not contain modules listed in go.work or their selected dependencies",
            "go test ./services/...",
            "with `./services/...` instead of `./...`",
        ),
        (
            "go build ./tools/...",
            "pattern ./tools/...: directory prefix tools outside main module or its selected "
            "dependencies",
            "go build ./cmd/...",
            "with `./cmd/...` instead of `./tools/...`",
        ),
    ],
)
def test_an_error_about_the_argument_itself_is_fixed_by_another_argument(
    failed: str, error: str, passed: str, change: str
) -> None:
    events = _runs("s1", [(failed, 1, error), (passed, 0, "ok")])
    (pitfall,) = _pitfalls(events)
    assert change in pitfall.content, pitfall.content


@pytest.mark.parametrize(
    ("failed", "error", "passed"),
    [
        # a failure found in the file (a location), then other files: no fix of it
        ("tool check a.conf", "a.conf:12: Unknown key 'colour'", "tool check b.conf"),
        # the error names no argument of the run
        ("tool check a.conf", "config: Unknown key 'colour'", "tool check b.conf"),
        # the argument named is kept by the passing run: nothing about it changed
        ("tool check a.conf b.conf", "b.conf: Unknown key 'colour'", "tool check b.conf"),
    ],
)
def test_other_arguments_are_no_fix_when_the_error_is_not_about_the_one_dropped(
    failed: str, error: str, passed: str
) -> None:
    events = _runs("s1", [(failed, 1, error), (passed, 0, "ok")])
    assert all("instead of" not in p.content for p in _pitfalls(events))


_GATE = (
    "Running pre-commit hook: bin/check\n== rubocop ==\nInspecting 212 files\n"
    "app/models/coupon.rb:14:81: C: Layout/LineLength: Line is too long. [104/100]\n"
    "212 files inspected, 1 offense detected\n== rspec ==\nskipped: rubocop failed"
)


def test_a_linter_told_to_correct_what_the_commit_gate_named_is_the_fix() -> None:
    commit = 'git commit -am "Add coupon expiry"'
    events = _runs(
        "s1",
        [
            (commit, 1, _GATE),
            ("bundle exec rubocop -a app/models/coupon.rb", 0, "1 offense corrected"),
            (commit, 0, "[main 4be21c9] Add coupon expiry"),
        ],
    )
    (pitfall,) = _pitfalls(events)
    assert "running `bundle exec rubocop -a app/models/coupon.rb` first fixed it" in (
        pitfall.content
    )


@pytest.mark.parametrize(
    ("output", "between"),
    [
        # the linter only checked again: it corrected nothing
        (_GATE, "bundle exec rubocop app/models/coupon.rb"),
        # the gate's output names another tool than the one run
        (_GATE.replace("rubocop", "standardrb"), "bundle exec rubocop -a app/models/coupon.rb"),
    ],
)
def test_no_gate_fix_from_a_run_that_corrected_nothing_the_gate_named(
    output: str, between: str
) -> None:
    commit = 'git commit -am "Add coupon expiry"'
    events = _runs("s1", [(commit, 1, output), (between, 0, "ok"), (commit, 0, "[main 1] x")])
    assert all(between not in p.content for p in _pitfalls(events))
