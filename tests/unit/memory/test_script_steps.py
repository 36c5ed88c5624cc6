"""A failed script of several steps: which step failed (from the script's shape, the headers it
printed and the line of its output that names one step), the lesson worded from that step and
its twin in the passing script, and silence when the step cannot be told or the re-run changed
several steps at once."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from squirrel_core.shell_words import joined_commands
from squirrel_memory.extractors.rules import evidence_candidates
from squirrel_memory.extractors.script_steps import NO_STEP, changed_steps, failing_step, steps
from squirrel_memory.models import MemoryType, StoredEvent
from tests.unit.memory.session_builder import scripted_session

T0 = datetime(2026, 6, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/src/app"


def _pitfalls(steps_run: Sequence[tuple[str, Any]]) -> list[str]:
    events: list[StoredEvent] = scripted_session(ROOT, T0, "s1", steps_run)
    return [c.content for c in evidence_candidates(events) if c.type == MemoryType.PITFALL]


def _rerun(failed: str, code: int, output: str, passed: str, shown: str = "") -> list[str]:
    """The pitfalls of `failed` (its exit code and output), then `passed`, which printed
    `shown`."""
    return _pitfalls([("run", (failed, code, output)), ("run", (passed, 0, shown))])


def _failing(command: str, output: str) -> str:
    found = failing_step(command, output)
    return "" if found is None or found == NO_STEP else steps(command)[found].line


# --- the shell's operators --------------------------------------------------------------------


def test_each_simple_command_keeps_the_operator_that_joined_it() -> None:
    found = joined_commands("a && b; c\nd || e")
    assert [(w[0], j) for w, j in found] == [
        ("a", ""),
        ("b", "&&"),
        ("c", ";"),
        ("d", "\n"),
        ("e", "||"),
    ]


def test_an_assignment_from_a_command_substitution_is_the_command_it_ran() -> None:
    script = (
        'head=$(env -u GH_TOKEN gh pr view 3 --json headRefOid)\nlocal x="$(git rev-parse HEAD)"'
    )
    assert [s.line for s in steps(script)] == [
        "env -u GH_TOKEN gh pr view 3 --json headRefOid",
        "git rev-parse HEAD",
    ]


# --- which step failed --------------------------------------------------------------------------


def test_the_last_line_of_a_script_set_its_exit_code() -> None:
    script = "x=$(gh pr view 1 --json headRefOid)\nprintf 'x=%s\\n' \"$x\"\ngit push origin HEAD"
    output = "HTTP 401: Bad credentials\nx=\nfatal: Authentication failed for 'https://h/r.git/'"
    assert _failing(script, output) == "git push origin HEAD"


def test_the_headers_printed_bound_the_step_that_failed() -> None:
    script = "echo '== types' && npx tsc --noEmit && echo '== unit' && npx vitest run"
    assert _failing(script, "== types\nsrc/a.ts(3,1): oops") == "npx tsc --noEmit"


def test_set_e_makes_every_line_a_step_of_one_chain() -> None:
    script = 'set -e\necho "--- vet"\ngo vet ./...\necho "--- race"\ngo test -race ./...'
    output = "--- vet\n--- race\ngo: -race requires cgo"
    assert _failing(script, output) == "go test -race ./..."


def test_under_set_e_the_step_that_failed_can_be_before_the_last_line() -> None:
    script = "set -euo pipefail\ngo vet ./...\ngo test ./...\ngo build ./cmd/x"
    output = "# example.com/x/internal\nvet: internal/a.go:3:2: x declared and not used"
    assert _failing(script, output) == "go vet ./..."


def test_the_output_line_that_names_one_step_alone_tells_it() -> None:
    script = "mvn -q package && java -jar target/svc.jar --port 9000"
    assert _failing(script, "Error: Unable to access jarfile target/svc.jar") == (
        "java -jar target/svc.jar --port 9000"
    )
    rails = "bundle install && bin/rails db:migrate && bin/rails test"
    said = "Bundle complete!\nbin/rails aborted!\nActiveRecord::NoDatabaseError\nTasks: TOP => db:migrate"
    assert _failing(rails, said) == "bin/rails db:migrate"


def test_a_chain_that_printed_nothing_tells_no_step() -> None:
    assert _failing("go generate ./... && go build ./cmd/x && ./x migrate", "") == ""


def test_a_line_naming_two_steps_tells_neither() -> None:
    script = "make build && make check"
    assert _failing(script, "error: build and check both failed") == ""


def test_a_fallback_or_a_comparison_tells_no_step() -> None:
    assert (
        _failing("make -j8 && (make test || make test-verbose)", "make: *** [test] Error 8") == ""
    )
    script = 'v=$(curl -s https://h/version)\ntest "$v" = "$(git rev-parse HEAD)"'
    assert _failing(script, "") == ""


# --- how a re-run changed the script ------------------------------------------------------------


def test_the_same_words_put_before_several_steps_are_one_change() -> None:
    before = "x=$(gh pr view 1)\ngit push origin HEAD"
    after = "x=$(env -u GH_TOKEN gh pr view 1)\nenv -u GH_TOKEN git push origin HEAD"
    assert changed_steps(before, after) == 1


def test_steps_put_in_together_are_one_setup() -> None:
    assert changed_steps("npm ci", "source ~/.nvm/nvm.sh && nvm use 20 && npm ci") == 1


def test_steps_changed_each_their_own_way_count_apart() -> None:
    before = "npm ci && npm run lint && npm test"
    after = "pnpm install && pnpm lint --fix && pnpm test -- --runInBand"
    assert changed_steps(before, after) == 3


# --- the lesson -----------------------------------------------------------------------------


_GH = (
    "remote=$({env}gh pr view 12 --json headRefOid --jq .headRefOid)\n"
    "parent=$(git rev-parse HEAD^)\n"
    'printf \'remote=%s\\nparent=%s\\n\' "$remote" "$parent"\n'
    "{env}git push origin HEAD:feat/x"
)
_UNSET = "env -u GITHUB_TOKEN -u GH_TOKEN "
_DENIED = (
    "HTTP 401: Bad credentials (https://api.github.com/graphql)\nremote=\nparent=c8d4e1f\n"
    "remote: Invalid username or token.\nfatal: Authentication failed for 'https://h/o/r.git/'"
)


def test_a_script_whose_push_failed_until_the_tokens_were_unset_is_a_lesson_on_the_push() -> None:
    [found] = _rerun(_GH.format(env=""), 128, _DENIED, _GH.format(env=_UNSET), "remote=c8d4e1f\n")
    assert found.startswith("`git push origin HEAD:feat/x` failed with")
    assert "putting `env -u GITHUB_TOKEN -u GH_TOKEN` before it worked" in found
    assert "remote=$(" not in found


def test_a_step_that_ran_before_the_failing_one_is_not_blamed() -> None:
    run = "cargo build --release && ./target/release/tally --config {}"
    said = "Finished `release`\nError: could not read config file `conf/dev.toml`: No such file"
    [found] = _rerun(run.format("conf/dev.toml"), 1, said, run.format("config/dev.toml"))
    assert found.startswith("`./target/release/tally --config conf/dev.toml` failed")
    assert "`config/dev.toml` instead of `conf/dev.toml`" in found


def test_a_chain_whose_failing_step_is_unknown_gives_no_lesson() -> None:
    run = "go generate ./... && go build {}-o bin/x ./cmd/x && ./bin/x migrate up"
    assert _rerun(run.format(""), 1, "", run.format("-tags sqlite "), "ok") == []


_JEST = "FAIL src/a.test.ts\nCannot find module 'jest-environment-jsdom'\nTest Suites: 1 failed"


def test_a_rerun_that_changed_several_steps_gives_no_lesson() -> None:
    after = "pnpm install && pnpm lint --fix && pnpm test -- --runInBand"
    assert _rerun("npm ci && npm run lint && npm test", 1, _JEST, after) == []


def test_a_rerun_that_changed_the_failing_step_and_another_gives_no_lesson() -> None:
    after = "npm install --legacy-peer-deps && npm test -- --runInBand"
    assert _rerun("npm ci && npm test", 1, "added 912 packages\n" + _JEST, after) == []


def test_a_build_tick_in_a_scripts_output_is_no_hook_check() -> None:
    said = (
        "✓ 212 modules transformed.\n✓ built in 2.31s\nError: browserType.launch: Executable "
        "doesn't exist\nPlease run the following command to download new browsers:\n"
        "    npx playwright install\n  18 failed"
    )
    after = "npm run build && npx playwright install chromium && npx playwright test"
    [found] = _rerun("npm run build && npx playwright test", 1, said, after, "18 passed")
    assert found.startswith("`npx playwright test` failed")
    assert "Its hooks" not in found


def test_a_check_that_could_not_read_the_file_it_was_given_then_passed_with_another() -> None:
    said = "error TS5083: Cannot read file '/home/dev/src/app/tsconfig.json'."
    [found] = _rerun("npx tsc -p tsconfig.json", 1, said, "npx tsc -p tsconfig.app.json")
    assert "`tsconfig.app.json` instead of `tsconfig.json`" in found


def test_a_check_run_on_other_files_after_a_real_error_is_no_lesson() -> None:
    said = "src/a.ts(3,1): error TS2304: x"
    found = _rerun("npx tsc -p tsconfig.json", 1, said, "npx tsc -p tsconfig.app.json")
    assert not any("instead of" in f for f in found)


def test_a_programs_error_with_its_name_first_is_the_error_quoted() -> None:
    said = (
        "#0 building with default instance\ndocker: Error response from daemon: "
        "Bind for 0.0.0.0:8080 failed: port is already allocated."
    )
    run = "docker run --rm -p {}:8080 api:dev"
    [found] = _rerun(run.format("8080"), 125, said, run.format("8081"))
    assert "failed with `docker: Error response from daemon" in found


def test_a_test_file_not_found_then_another_file_run_is_no_corrected_argument() -> None:
    said = "Test file not found: /home/dev/src/app/test/books.dart"
    run = "flutter test --plain-name 'posts an entry' {}"
    found = _rerun(run.format("test/books.dart"), 1, said, run.format("test/books_test.dart"))
    assert found == []


def test_a_setup_put_before_the_step_that_could_not_run_is_its_fix() -> None:
    # Neither program was found (exit 0: the pipe's last command passed); the re-run loads the
    # tool manager's environment first, a step that gives no command of its own.
    missing = (
        "/bin/bash: line 1: java: command not found\n/bin/bash: line 1: gradle: command not found"
    )
    (pitfall,) = _rerun(
        "java -version 2>&1; gradle --version 2>&1 | head -5",
        0,
        missing,
        'source "$HOME/.sdkman/bin/sdkman-init.sh" && java -version && gradle --version',
        'openjdk version "21.0.6"\nGradle 9.4.1',
    )
    assert pitfall.startswith("`java -version` failed with `/bin/bash: line 1: java: command")
    assert 'putting `source "$HOME/.sdkman/bin/sdkman-init.sh" &&` before it worked' in pitfall


def test_a_step_that_ran_before_the_failure_may_be_left_out_of_the_rerun() -> None:
    # `git add` ran and passed (the chain reached the commit); the re-run commits alone.
    (pitfall,) = _rerun(
        "git add src/a.ts && git commit -m \"$(cat <<'EOF'\nfeat: add a\nEOF\n)\"",
        1,
        "(eval):1: can't create temp file for here document: operation not permitted\n"
        "Aborting commit due to empty commit message.",
        'git commit -m "feat: add a"',
        "[main de73c25] feat: add a\n 1 file changed",
    )
    assert pitfall.startswith("`git commit -m \"$(cat <<'EOF'` failed with `(eval):1: can't")
    missing = "bash: b: command not found"
    assert changed_steps("a x && b y", "b z", missing) == 1
    assert changed_steps("a x && b y", "c w && b z", missing) == 2  # a step in its place
    assert changed_steps("a x && b y", "", missing) == 2  # a pass only reported: no re-run
