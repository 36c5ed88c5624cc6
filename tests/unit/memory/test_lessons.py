"""A pitfall is a lesson: the cause (the output's explanation or the assistant's diagnosis),
the difference that fixed it (the changed arguments, the edit's own lines), and one memory
per gate rather than one per check and file. Streams of several ecosystems, and where each
rule must stay silent."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from squirrel_memory.extractors.commit_gates import hook_checks
from squirrel_memory.extractors.differences import (
    Edit,
    argument_change,
    difference,
    edits,
    related_edit,
    telling,
)
from squirrel_memory.extractors.lessons import Reply, diagnosis
from squirrel_memory.extractors.output_explanations import explanation, is_progress
from squirrel_memory.extractors.pitfalls import error_fingerprint, first_error_line
from squirrel_memory.extractors.rules import evidence_candidates
from squirrel_memory.models import MemoryCandidate, MemoryType, StoredEvent
from tests.unit.memory.session_builder import Session as Built
from tests.unit.memory.session_builder import scripted_session

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ROOT = "/home/dev/src/app"


def _session(session: str, steps: Sequence[tuple[str, Any]], start: int = 0) -> list[StoredEvent]:
    return scripted_session(ROOT, T0, session, steps, start)


def _pitfalls(events: list[StoredEvent]) -> list[MemoryCandidate]:
    return [c for c in evidence_candidates(events) if c.type == MemoryType.PITFALL]


# --- progress lines are never an error --------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "Checking 3 source files ...",
        "==> fine",
        "Getting extensions in current project...",
        "Compiling ledger v0.1.0 (/home/dev/src/ledger)",
        "[2/4] Fetching packages…",
        "-- Detecting CXX compiler ABI info - done",
        "-- The CXX compiler identification is GNU 13.2.0",
        "go: downloading example.com/testify v1.9.0",
    ],
)
def test_progress_lines_are_progress(line: str) -> None:
    assert is_progress(line)


@pytest.mark.parametrize(
    "line",
    [
        "error: could not compile `ledger` due to 2 previous errors",
        "Checking failed: 2 errors found",
        "fatal: not a git repository",
        "-- Configuring incomplete, errors occurred!",
        "go: example.com/mod: not found",
        "warning: using the legacy resolver",
        "- a list item that says something",
    ],
)
def test_error_lines_are_not_progress(line: str) -> None:
    assert not is_progress(line)


def test_a_progress_line_is_never_the_signature() -> None:
    output = "Checking 3 source files ...\nsrc/a.py:3: error: Name 'x' is not defined\n"
    assert error_fingerprint(output).startswith("error: Name")
    events = _session("s", [("run", ("tool check", 1, "Getting extensions ...\n==> fine\n"))])
    events += _session("t", [("run", ("tool check", 1, "Getting extensions ...\n"))], 3600 * 24)
    for pitfall in _pitfalls(events):
        assert "Getting extensions" not in pitfall.content and "fine" not in pitfall.content


def test_an_error_named_at_its_place_is_the_signature_not_the_status_lines_before_it() -> None:
    output = (
        "-- The CXX compiler identification is GNU 13.2.0\n"
        "CMake Error at CMakeLists.txt:12 (find_package):\n"
        '  Could not find a package configuration file provided by "fmt"\n'
    )
    assert first_error_line(output) == (
        "CMake Error at CMakeLists.txt:12 (find_package): "
        'Could not find a package configuration file provided by "fmt"'
    )


def test_a_line_that_only_mentions_errors_at_is_no_error() -> None:
    assert first_error_line("Looking for errors at the top of the log\n") == ""


# --- the cause -------------------------------------------------------------------------------


def _reply(text: str, at: int = 60) -> Reply:
    return Reply("evt_r", T0 + timedelta(seconds=at), "s", text)


@pytest.mark.parametrize(
    ("text", "cause"),
    [
        (
            "The workflow is working but failing on formatting checks. Let me fix that.",
            "The workflow is working but failing on formatting checks",
        ),
        (
            "I see. The test fails because the fixture's column is not nullable.",
            "The test fails because the fixture's column is not nullable",
        ),
        (
            "Let me check the config.\n\nThe `DATABASE_URL` variable is not set in CI.",
            "The `DATABASE_URL` variable is not set in CI",
        ),
        (
            "The error means the CLI target lacks ArgumentParser among its dependencies.",
            "The error means the CLI target lacks ArgumentParser among its dependencies",
        ),
        # a service the command needs, not running
        (
            "Postgres isn't running locally; starting it with `docker compose up -d db`.",
            "Postgres isn't running locally; starting it with `docker compose up -d db`",
        ),
        ("The Redis container is not running, so the worker cannot connect.", None),
        # one cause behind several checks, said of them all first; headers that aren't there
        (
            "All three checks fail for one reason: vendor/ is empty because composer install "
            "was never run here.",
            None,
        ),
        (
            "Both fail the same way: the fmt headers aren't installed on this machine. "
            "Installing them.",
            "Both fail the same way: the fmt headers aren't installed on this machine",
        ),
        ("The staging API was down when the smoke test ran.", None),
    ],
)
def test_the_assistants_diagnosis_is_the_cause(text: str, cause: str | None) -> None:
    assert diagnosis([_reply(text)], "s", T0, None)[0] == (cause or text.rstrip("."))


@pytest.mark.parametrize(
    "text",
    [
        "Let me fix the formatting issues first.",  # a plan
        "Perfect! All tests pass now.",  # a reaction
        "All three checks pass now that the config is fixed.",
        "All done: the build is green.",
        "Now let me run the tests again.",
        "What does the error say?",
        "Let me see what the error means.",  # a plan, not a diagnosis
    ],
)
def test_plans_and_reactions_are_no_diagnosis(text: str) -> None:
    assert diagnosis([_reply(text)], "s", T0, None) == ("", "")


@pytest.mark.parametrize(
    ("text", "cause"),
    [
        (
            "I see the issue - the runtime can't import a module with hyphens in its file name. "
            "Let me rename it in the build config:",
            "the runtime can't import a module with hyphens in its file name",
        ),
        (
            "Found the problem: the `cache` folder is not in the image.",
            "the `cache` folder is not in the image",
        ),
        ("Ah, got it — the port is required by the proxy.", "the port is required by the proxy"),
        (
            "The problem is in the config: the `cache` key is missing.",
            "The problem is in the config: the `cache` key is missing",
        ),
    ],
)
def test_the_cause_after_a_lead_in_is_the_diagnosis(text: str, cause: str) -> None:
    assert diagnosis([_reply(text)], "s", T0, None)[0] == cause


@pytest.mark.parametrize(
    "text",
    [
        "I see the issue - let me fix the import.",  # a plan after the lead-in
        "I see - the tests pass now.",  # a reaction after the lead-in
        "I see the tests are failing because of the fixture.",  # no lead-in: the session's step
        # what the session saw is the symptom, not its cause
        "The issue is that we can see the link is not appearing in the page.",
        # where the trouble is, not why
        "This means the issue is in the `render_page` function.",
    ],
)
def test_a_lead_in_alone_or_an_observation_is_no_diagnosis(text: str) -> None:
    assert diagnosis([_reply(text)], "s", T0, None) == ("", "")


def test_a_reply_of_another_session_or_after_the_window_is_not_read() -> None:
    text = "It fails because the port is taken."
    assert diagnosis([Reply("r", T0, "other", text)], "s", T0, None) == ("", "")
    late = Reply("r", T0 + timedelta(hours=2), "s", text)
    assert diagnosis([late], "s", T0, T0 + timedelta(minutes=5)) == ("", "")


def test_a_suggestion_on_the_line_after_its_heading_is_the_explanation() -> None:
    output = 'Unknown command: "lint"\n\nDid you mean this?\n    npm run lint\n'
    assert explanation(output) == "Did you mean this? npm run lint"
    assert explanation("Did you mean this?\n") == ""  # nothing suggested: nothing explained


def test_the_outputs_own_explanation() -> None:
    output = (
        "The following paths are ignored by one of your .gitignore files:\ndist\n"
        "hint: Use -f if you really want to add them.\n"
    )
    assert explanation(output) == "hint: Use -f if you really want to add them"
    # A coded compiler error is its own cause; an indented `= help:` is no explanation line.
    rust = "error[E0425]: cannot find value\n  = help: consider `self.x`"
    assert explanation(rust) == "error[E0425]: cannot find value"
    # …but not when the memory already shows that line: there is nothing else to say.
    assert explanation(rust, shown="error[E0425]: cannot find value") == ""
    assert explanation("help: consider importing this struct\n") == (
        "help: consider importing this struct"
    )
    assert explanation("note") == ""


# --- the difference --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("failed", "passed", "said"),
    [
        (("git", "add", "dist/app.js"), ("git", "add", "-f", "dist/app.js"), "with `-f` added"),
        (("cargo", "test", "--release"), ("cargo", "test"), "without `--release`"),
        (
            ("go", "test", "./internal/lnks/..."),
            ("go", "test", "./internal/links/..."),
            "with `./internal/links/...` instead of `./internal/lnks/...`",
        ),
        (("mix", "test"), ("mix", "test"), ""),  # nothing changed: no claim
        (("npm", "test"), ("pnpm", "test"), ""),  # another program: not an argument
        (("a", "1", "2", "3", "4"), ("a", "5", "6", "7", "8"), ""),  # everything changed
    ],
)
def test_the_changed_arguments(failed: tuple[str, ...], passed: tuple[str, ...], said: str) -> None:
    assert argument_change(failed, passed) == said


def _edit(old: str, new: str, path: str = "config/ci.yml") -> Edit:
    return Edit("e", T0, "s", path, old, new)


def test_a_small_edit_says_its_difference() -> None:
    assert difference(_edit("run: check", "run: check\ncontinue-on-error: true")) == (
        "adding `continue-on-error: true`"
    )
    assert difference(_edit("timeout = 5", "timeout = 30")) == (
        "changing `timeout = 5` to `timeout = 30`"
    )
    assert difference(_edit("", "a whole new file")) == ""
    big = "\n".join(f"line {i}" for i in range(10))
    assert difference(_edit("x", big)) == ""


def test_a_line_added_under_a_section_says_the_section() -> None:
    toml = _edit("[dev-dependencies]\n", '[dev-dependencies]\ntokio = "1"\n', "Cargo.toml")
    assert difference(toml) == 'adding `tokio = "1"` under `[dev-dependencies]`'
    # No heading shown above the line: none is said.
    assert difference(_edit("a = 1\n", 'a = 1\ntokio = "1"\n', "Cargo.toml")) == (
        'adding `tokio = "1"`'
    )


_TARGET = '.testTarget(name: "ReaderTests", dependencies: ["Reader"]'


def test_a_long_line_changed_in_a_few_words_says_those_words() -> None:
    long = _edit(f"{_TARGET})", f'{_TARGET}, resources: [.copy("Fixtures")])', "Package.swift")
    assert difference(long) == (
        'changing `["Reader"])` to `["Reader"], resources: [.copy("Fixtures")])`'
    )
    # Changed all through: too long to say.
    other = ".target(name: 'Writer', path: 'Sources/Writer', exclude: ['Old'], swiftSettings: [])"
    assert difference(_edit(f"{_TARGET})", other, "Package.swift")) == ""


def test_the_edit_related_to_the_error_is_chosen() -> None:
    unrelated = _edit("title = 'a'", "title = 'b'", "README.md")
    related = _edit("pool_size: 5", "pool_size: 20", "config/db.exs")
    words = telling("** (DBConnection.ConnectionError) pool_size exhausted")
    assert related_edit([unrelated, related], words) is related
    assert related_edit([unrelated], words) is None


# --- whole lessons through the rules ---------------------------------------------------------


def test_a_flag_that_fixed_a_command_is_named_with_the_outputs_hint() -> None:
    events = _session(
        "s",
        [
            (
                "run",
                (
                    "git add build/report.json",
                    1,
                    "The following paths are ignored by one of your .gitignore files:\n"
                    "build\nhint: Use -f if you really want to add them.",
                ),
            ),
            ("run", ("git add -f build/report.json", 0, "")),
        ],
    )
    (pitfall,) = _pitfalls(events)
    assert "the output explains `hint: Use -f if you really want to add them`" in pitfall.content
    assert "re-running it with `-f` added worked" in pitfall.content


def test_a_diagnosis_and_the_related_edit_make_the_lesson() -> None:
    events = _session(
        "s",
        [
            ("run", ("ci-local run", 1, "Error: Job 'test' failed")),
            ("say", "The job is failing on type checking errors in an old module."),
            ("edit", ("docs/notes.md", "old words", "new words")),
            (
                "edit",
                (
                    ".ci/jobs.yml",
                    "- name: type checking",
                    "- name: type checking\n  allow-failure: true",
                ),
            ),
            ("run", ("ci-local run", 0, "Job succeeded")),
        ],
    )
    (pitfall,) = _pitfalls(events)
    assert "the assistant found: the job is failing on type checking errors" in pitfall.content
    assert pitfall.content.endswith("adding `allow-failure: true` in .ci/jobs.yml fixed it.")


def test_the_cause_announced_by_a_lead_in_makes_the_lesson() -> None:
    error = "ImportError: cannot load module 'report_tool'"
    events = _session(
        "s",
        [
            ("run", ("report-tool --help", 1, error)),
            ("say", "I see the issue - a module with hyphens in its file name can't import."),
            ("edit", ("build.toml", 'include = ["report-tool.src"]', 'map = "report_tool"')),
            ("run", ("report-tool --help", 0, "usage: report-tool [-h]")),
        ],
    )
    (pitfall,) = _pitfalls(events)
    assert "the assistant found: a module with hyphens in its file name" in pitfall.content


def test_a_cause_opening_with_a_name_keeps_its_capital() -> None:
    events = _session(
        "s",
        [
            ("run", ("report-tool --help", 1, "ImportError: cannot load module 'report_tool'")),
            ("say", "I see the issue - Python can't import a module with hyphens in its name."),
            ("edit", ("build.toml", 'include = ["report-tool.src"]', 'map = "report_tool"')),
            ("run", ("report-tool --help", 0, "usage: report-tool [-h]")),
        ],
    )
    (pitfall,) = _pitfalls(events)
    assert "the assistant found: Python can't import a module" in pitfall.content


def test_an_unrelated_edit_is_not_called_the_fix() -> None:
    events = _session(
        "s",
        [
            ("run", ("make check", 1, "error: undefined reference to `parse_header`")),
            ("edit", ("README.md", "Old title", "New title")),
            ("run", ("make check", 0, "ok")),
        ],
    )
    (pitfall,) = _pitfalls(events)
    assert "fixed it" not in pitfall.content
    assert pitfall.content.endswith("it passed after editing README.md.")


def test_a_commit_gates_failures_are_one_lesson() -> None:
    def gate(check: str, file: str) -> str:
        return (
            f"format...................Passed\n{check}...................Failed\n"
            f"- hook id: {check}\n{file}:3:1: error: {check} found a problem\n"
        )

    events: list[StoredEvent] = []
    for day, (check, file) in enumerate(
        [("lint", "src/a.py"), ("typecheck", "src/b.py"), ("lint", "lib/c.ts")]
    ):
        events += _session(
            f"s{day}",
            [
                ("run", ('git commit -m "x"', 1, gate(check, file))),
                ("edit", (file, "old", "new")),
                ("run", ('git commit -m "x"', 0, "[main abc123] x")),
            ],
            start=day * 86_400,
        )
    (pitfall,) = _pitfalls(events)
    assert pitfall.content.startswith("Commits run checks that must pass first (")
    for check in ("format", "lint", "typecheck"):
        assert check in pitfall.content.split(":")[0]
    assert "(seen in 3 sessions)" in pitfall.content


def test_one_checkers_findings_in_several_files_are_one_lesson() -> None:
    events = _session(
        "s",
        [
            ("run", ("tsc --noEmit", 1, "src/a.ts(3,1): error TS2304: Cannot find name 'x'.")),
            ("edit", ("src/a.ts", "x", "const x = 1")),
            ("run", ("tsc --noEmit", 0, "")),
            ("run", ("tsc --noEmit", 1, "src/b.ts(9,2): error TS2322: Type 'string' is not.")),
            ("edit", ("src/b.ts", "y", "const y = 2")),
            ("run", ("tsc --noEmit", 0, "")),
        ],
    )
    (pitfall,) = _pitfalls(events)
    assert "TS2304" in pitfall.content and "TS2322" in pitfall.content


def test_different_commands_keep_their_own_lessons() -> None:
    events = _session(
        "s",
        [
            ("run", ("cargo test", 1, "error[E0432]: unresolved import `humantime`")),
            ("run", ("cargo add humantime", 0, "Adding humantime")),
            ("run", ("cargo test", 0, "ok")),
            ("run", ("git push", 1, "fatal: The current branch x has no upstream branch.")),
            ("run", ("git push -u origin x", 0, "")),
        ],
    )
    assert len(_pitfalls(events)) == 2


def test_hook_checks_are_read_from_common_hook_outputs() -> None:
    assert hook_checks("ruff.....Failed\nmypy.....Passed\n") == ["ruff", "mypy"]
    assert hook_checks("✖ eslint --fix\n[FAILED] tsc --noEmit\n") == [
        "eslint --fix",
        "tsc --noEmit",
    ]
    assert hook_checks("error: something broke\n") == []


def test_a_commit_without_hooks_keeps_its_own_error() -> None:
    events: list[StoredEvent] = []
    for day in range(2):
        events += _session(
            f"s{day}",
            [("run", ('git commit -m "x"', 1, "nothing to commit, working tree clean"))],
            start=day * 86_400,
        )
    (pitfall,) = _pitfalls(events)
    assert not pitfall.key.startswith("pitfall:gate:")
    assert not pitfall.content.startswith("Commits run checks")


def test_different_unfixed_findings_of_one_checker_are_no_warning() -> None:
    events = _session("s1", [("run", ("eslint .", 1, "src/a.js:1:1 error no-undef"))])
    events += _session(
        "s2",
        [
            ("run", ("eslint .", 1, "src/b.js:9:2 error semi")),
        ],
        86_400,
    )
    assert _pitfalls(events) == []


def test_a_check_the_diagnosis_names_is_a_step_of_the_fix() -> None:
    events = _session(
        "s",
        [
            ("run", ("ci-local run", 1, "Error: Job 'test' failed")),
            ("say", "The job is failing on formatting checks."),
            ("run", ("cargo fmt", 0, "")),
            ("run", ("cargo clippy", 0, "")),  # a check the diagnosis does not name
            ("run", ("ci-local run", 1, "Error: Job 'test' failed")),
            ("say", "Now there are type checking errors in the old module."),
            (
                "edit",
                (".ci/jobs.yml", "- name: type checking", "- name: type checking\n  allow: true"),
            ),
            ("run", ("ci-local run", 0, "Job succeeded")),
        ],
    )
    (pitfall,) = _pitfalls(events)
    assert "the assistant found: the job is failing on formatting checks; then" in pitfall.content
    assert pitfall.content.endswith(
        "running `cargo fmt`, then adding `allow: true` in .ci/jobs.yml got it to pass."
    )


def test_a_config_line_elsewhere_is_the_fix_not_the_file_the_error_names() -> None:
    error = "src/db.rs:12:5: error: connection refused: pool timeout after 5s (POOL_TIMEOUT)"
    events = _session(
        "s",
        [
            ("run", ("cargo test", 1, error)),
            ("edit", ("src/db.rs", "// connect", "// connect to the pool")),
            ("edit", ("config/test.toml", "POOL_TIMEOUT = 5", "POOL_TIMEOUT = 30")),
            ("run", ("cargo test", 0, "ok")),
        ],
    )
    (pitfall,) = _pitfalls(events)
    assert pitfall.content.endswith(
        "changing `POOL_TIMEOUT = 5` to `POOL_TIMEOUT = 30` in config/test.toml fixed it."
    )
    assert pitfall.file_paths == ("config/test.toml",)


_MAPPING_BEFORE = '[build]\ninclude = ["report-tool.src"]\n'
_MAPPING_AFTER = '[build.rename]\n"report-tool.src" = "report_tool.src"\nstrict = true\n'


def test_a_large_edit_naming_what_failed_is_the_fix_said_by_its_file() -> None:
    events = _session(
        "s",
        [
            ("run", ("report-tool --help", 1, "ImportError: cannot load module 'report_tool'")),
            (
                "edit",
                ("notes/todo.md", "- [ ] install\n- [ ] docs\n", "- [x] install\n- [x] docs\n"),
            ),
            ("edit", ("build.toml", _MAPPING_BEFORE, _MAPPING_AFTER)),
            ("run", ("pkg-tool install .", 0, "installed report-tool")),
            ("run", ("report-tool --help", 0, "usage: report-tool [-h]")),
        ],
    )
    (pitfall,) = _pitfalls(events)
    assert pitfall.content.endswith(
        "editing build.toml, then running `pkg-tool install .` got it to pass."
    )


def test_a_large_edit_naming_nothing_of_the_error_is_not_the_fix() -> None:
    events = _session(
        "s",
        [
            ("run", ("report-tool --help", 1, "ImportError: cannot load module 'report_tool'")),
            (
                "edit",
                ("build.toml", '[build]\nname = "a"\n', '[build]\nname = "b"\nv = 2\nw = 3\n'),
            ),
            ("run", ("pkg-tool install .", 0, "installed report-tool")),
            ("run", ("report-tool --help", 0, "usage: report-tool [-h]")),
        ],
    )
    (pitfall,) = _pitfalls(events)
    assert pitfall.content.endswith("running `pkg-tool install .` first fixed it.")


def test_a_large_config_edit_naming_the_error_is_the_fix_not_the_file_it_names() -> None:
    error = "src/db.rs:12:5: error: pool timeout after 5s (POOL_TIMEOUT)"
    config_before = "[pool]\nPOOL_TIMEOUT = 5\nsize = 2\n"
    config_after = "[pool]\nPOOL_TIMEOUT = 30\nsize = 8\nretries = 3\n"
    events = _session(
        "s",
        [
            ("run", ("cargo test", 1, error)),
            ("edit", ("src/db.rs", "let retries = 1;", "let retries = 2;")),
            ("edit", ("config/test.toml", config_before, config_after)),
            ("run", ("cargo test", 0, "ok")),
        ],
    )
    (pitfall,) = _pitfalls(events)
    assert pitfall.content.endswith("editing config/test.toml fixed it.")
    assert pitfall.file_paths == ("config/test.toml",)


def test_a_lesson_cites_the_reply_and_the_edit_it_quotes() -> None:
    events = _session(
        "s",
        [
            ("run", ("make check", 1, "error: POOL_SIZE must be at least 2")),
            ("say", "The check fails because POOL_SIZE is set to 1 in the test config."),
            ("edit", ("config/test.env", "POOL_SIZE=1", "POOL_SIZE=4")),
            ("run", ("make check", 0, "ok")),
        ],
    )
    (pitfall,) = _pitfalls(events)
    reply = next(e.id for e in events if e.event_type == "assistant_response")
    edit = next(e.id for e in events if e.event_type == "tool_call")
    assert reply in pitfall.source_event_ids and edit in pitfall.source_event_ids


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        (
            "ERROR: usage: pytest [options] [file_or_dir] [file_or_dir] [...]\n"
            "pytest: error: unrecognized arguments: -n\n"
            "  inifile: /repo/pyproject.toml\n",
            "pytest: error: unrecognized arguments: -n",
        ),
        (
            "usage: tool [-h] [--fast] path\ntool: error: the following arguments are required: path\n",
            "tool: error: the following arguments are required: path",
        ),
        # Not a banner: a line that only mentions usage still counts.
        (
            "error: invalid usage of --force with --dry-run\n",
            "error: invalid usage of --force with --dry-run",
        ),
    ],
)
def test_a_usage_banner_is_never_the_error_line(output: str, expected: str) -> None:
    from squirrel_memory.extractors.pitfalls import first_error_line  # noqa: PLC0415

    assert first_error_line(output) == expected


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        (  # bash names the script and line, with no `error:` of its own
            "Starting...\n./deploy.sh: line 28: syntax error near unexpected token `('\n",
            "./deploy.sh: line 28: syntax error near unexpected token `('",
        ),
        (
            'psql:migrate.sql:3: ERROR:  syntax error at or near "TABEL"\n',
            'psql:migrate.sql:3: ERROR:  syntax error at or near "TABEL"',
        ),
        ("PHP Parse error:  syntax error, unexpected '}' in index.php\n", None),
        # Not errors: a clean check, plural counts.
        ("Checking scripts...\nNo syntax errors detected in app.php\n", ""),
        ("lint: no syntax error found\n", ""),
    ],
)
def test_shell_and_parser_syntax_errors_are_error_lines(output: str, expected: str | None) -> None:
    from squirrel_memory.extractors.pitfalls import first_error_line  # noqa: PLC0415

    want = output.strip() if expected is None else expected
    assert first_error_line(output) == want


# --- a command the explanation told to run is the fix -----------------------------------------

_DB_DOWN = "** (ConnectionError) connection not available and request was dropped from queue\n"


def _advised_session(reply: str, started: str = "docker compose up -d db") -> list[StoredEvent]:
    return _session(
        "s",
        [
            ("run", ("tool test", 1, _DB_DOWN)),
            ("say", reply),
            ("run", (started, 0, "Container app-1  Started\n")),
            ("run", ("tool test", 0, "86 tests, 0 failures\n")),
        ],
    )


def test_a_command_the_explanation_told_to_run_is_the_fix() -> None:
    reply = (
        "This fails because the tests need the database: nothing listens on its port. "
        "Start it with `docker compose up -d db` first."
    )
    (pitfall,) = _pitfalls(_advised_session(reply))
    assert "docker compose up -d db" in pitfall.content
    assert "the tests need the database" in pitfall.content


def test_a_command_no_explanation_named_is_no_fix() -> None:
    # Starting the app itself between the failure and the pass is no fix unless said to be.
    reply = "This fails because the tests need the database: nothing listens on its port."
    assert _pitfalls(_advised_session(reply, "docker compose up -d web")) == []


def test_starting_a_service_the_app_uses_is_a_setup_step_and_the_fix() -> None:
    # `docker compose up -d db` starts what the tests use, as an install or a migration sets
    # them up: between the failure and the pass it is the fix, named or not.
    reply = "This fails because the tests need the database: nothing listens on its port."
    (pitfall,) = _pitfalls(_advised_session(reply))
    assert "docker compose up -d db" in pitfall.content


@pytest.mark.parametrize(
    "output",
    [
        "> Task :app:compileJava FAILED\n\nFAILURE: Build failed with an exception.\n\n"
        "* What went wrong:\nExecution failed for task ':app:compileJava'.\n\nBUILD FAILED in 3s",
        "[INFO] BUILD FAILURE\n[ERROR] Failed to execute goal org.example:plugin:1.0:compile "
        "(default) on project app: Compilation failure",
        "error[E0382]: borrow of moved value: `v`\nerror: aborting due to previous error\n"
        "error: could not compile `x`",
    ],
)
def test_explanation_never_names_a_progress_or_summary_line(output: str) -> None:
    # A build's progress and summary lines are not why it failed; nor is "could not compile".
    found = explanation(output)
    assert "BUILD FAILED" not in found
    assert "Task :" not in found
    assert "[INFO]" not in found
    assert "could not compile" not in found
    assert "aborting due to" not in found


def test_explanation_is_what_a_build_says_went_wrong() -> None:
    gradle = (
        "> Task :app:compileJava FAILED\n\nFAILURE: Build failed with an exception.\n\n"
        "* What went wrong:\nExecution failed for task ':app:compileJava'.\n\nBUILD FAILED in 3s"
    )
    # A line that only names the failed task says nothing of why it failed.
    assert explanation(gradle) == ""
    resolved = (
        "FAILURE: Build failed with an exception.\n\n* What went wrong:\n"
        "Could not resolve all files for configuration ':app:compileClasspath'.\n\n"
        "BUILD FAILED in 2s"
    )
    assert explanation(resolved) == (
        "Could not resolve all files for configuration ':app:compileClasspath'"
    )
    maven = (
        "[INFO] BUILD FAILURE\n[ERROR] Failed to execute goal org.example:plugin:1.0:compile "
        "(default) on project app: Compilation failure\n[ERROR] -> [Help 1]"
    )
    assert explanation(maven) == "Compilation failure"


@pytest.mark.parametrize(
    ("output", "cause"),
    [
        # a compiler's error with a code: the line itself, not the location under it
        (
            "   Compiling foo v0.1.0 (/home/dev/foo)\nerror[E0308]: mismatched types\n"
            " --> src/x.rs:3:5\n  |\nerror: could not compile `foo`",
            "error[E0308]: mismatched types",
        ),
        (
            "src/api.ts(3,10): error TS2305: Module './types' has no exported member 'Entry'.",
            "error TS2305: Module './types' has no exported member 'Entry'",
        ),
        # an exception raised by the compiler: the message after its name and location
        (
            "==> app\nCompiling 2 files (.ex)\n"
            "** (CompileError) lib/x.ex:3: undefined function foo/0\n    (elixir) expanding",
            "undefined function foo/0",
        ),
        # a located `error:`: the message
        (
            "src/Main.java:5: error: cannot find symbol\n    foo();\n    ^\n"
            "  symbol:   method foo()\n1 error",
            "cannot find symbol",
        ),
        (
            "Checking 3 source files ...\nsrc/util.c:12:5: error: 'count' undeclared here",
            "'count' undeclared here",
        ),
        # a resolver's conflict: what causes it, else the conflict it states
        (
            "Collecting a==1\nERROR: Cannot install a==1 and b==2 because these package "
            "versions have conflicting dependencies.\n\nThe conflict is caused by:\n"
            "    a 1 depends on c>=2\n    b 2 depends on c<2\n    The user requested c==1\n\n"
            "To fix this you could try to:\n1. loosen the range of package versions\n"
            "ERROR: ResolutionImpossible: for help visit https://example.org/conflicts",
            "a 1 depends on c>=2; b 2 depends on c<2",
        ),
        (
            "ERROR: Cannot install a==1 and b==2 because these package versions have "
            "conflicting dependencies.\nERROR: ResolutionImpossible",
            "Cannot install a==1 and b==2 because these package versions have conflicting "
            "dependencies",
        ),
        (
            "  × No solution found when resolving dependencies:\n"
            "  ╰─▶ Because a==1 depends on c>=2 and b==2 depends on c<2, a==1 and b==2 are "
            "incompatible.",
            "Because a==1 depends on c>=2 and b==2 depends on c<2, a==1 and b==2 are incompatible",
        ),
    ],
)
def test_explanation_is_the_cause_a_compiler_or_resolver_states(output: str, cause: str) -> None:
    assert explanation(output) == cause


@pytest.mark.parametrize(
    "output",
    [
        # progress lines, a location, summaries: never a cause
        "   Compiling foo v0.1.0 (/home/dev/foo)\n    Checking bar v0.2.0\n"
        " --> src/x.rs:3:5\nerror: could not compile `foo`",
        "Checking 3 source files ...\n==> fine\nerror: aborting due to previous error",
        "Compiling 2 files (.ex)\n** (Mix) Could not compile dependency :app",
        # an unlocated `error:` is any tool's complaint, not a compiler's message
        "error: failed to push some refs to 'origin'",
        # a coded error with no message to speak of
        "error[E0601]: main",
        # a heading with nothing under it, an introduction
        "The conflict is caused by:\n\nTo fix this you could try to:\n",
        "Resolving dependencies...\nResolved 12 packages in 3ms",
    ],
)
def test_explanation_names_no_progress_location_or_summary_as_a_cause(output: str) -> None:
    assert explanation(output) == ""


def test_a_cause_line_the_memory_shows_gives_way_to_a_hint() -> None:
    output = "error[E0412]: cannot find type `Foo` in this scope\nhelp: consider importing Foo\n"
    shown = "error[E0412]: cannot find type `Foo` in this scope"
    assert explanation(output, shown=shown) == "help: consider importing Foo"
    assert explanation(output) == shown


def test_a_compilers_shown_error_leaves_the_cause_to_the_reply() -> None:
    error = "src/Main.java:5: error: cannot find symbol\n  symbol:   method foo()\n1 error\n"
    steps = [
        ("run", ("javac src/Main.java", 1, error)),
        ("say", "The build fails because `foo` is not declared in `Main`."),
        ("edit", ("src/Main.java", "    foo();", "    bar();")),
        ("run", ("javac src/Main.java", 0, "")),
    ]
    (pitfall,) = _pitfalls(_session("s", steps))
    assert "the assistant found: the build fails because `foo` is not declared" in (pitfall.content)
    assert "the output explains" not in pitfall.content


def test_a_resolvers_conflict_is_what_the_output_explains() -> None:
    error = (
        "ERROR: Cannot install a==1 and b==2 because these package versions have conflicting "
        "dependencies.\n\nThe conflict is caused by:\n    a 1 depends on c>=2\n"
        "    b 2 depends on c<2\n\nTo fix this you could try to:\n1. loosen the range\n"
    )
    steps = [
        ("run", ("pip install -r requirements.txt", 1, error)),
        ("edit", ("requirements.txt", "b==2", "b==1")),
        ("run", ("pip install -r requirements.txt", 0, "Successfully installed a-1 b-1")),
    ]
    (pitfall,) = _pitfalls(_session("s", steps))
    assert "the output explains `a 1 depends on c>=2; b 2 depends on c<2`" in pitfall.content
    assert "To fix this" not in pitfall.content


def test_explanation_needs_the_build_statement() -> None:
    assert explanation("> Task :app:compileJava\nBUILD FAILED in 3s") == ""
    assert explanation("[INFO] Building app 1.0\n[ERROR] something broke here") == ""


def test_a_whole_write_of_a_file_read_before_replaced_the_text_the_read_showed() -> None:
    first = "class Queue {\n  jobs!: Job[];\n}\n"
    second = "class Queue {\n  jobs: Job[] = [];\n}\n"
    s = Built("/home/u/q", "s1", datetime(2026, 5, 4, 9, 0, tzinfo=UTC))
    s.read("src/queue.ts", first)
    s.write("src/queue.ts", second)
    s.write("src/queue.ts", second + "// done\n")  # changed since the read: before unknown
    s.write("src/new.ts", "export {};\n")  # never read: a new file
    found = [(e.path, e.before, e.after) for e in edits(s.events)]
    assert found == [
        ("src/queue.ts", first.rstrip("\n"), second),
        ("src/queue.ts", "", second + "// done\n"),
        ("src/new.ts", "", "export {};\n"),
    ]
    assert difference(edits(s.events)[0]) == "changing `jobs!: Job[];` to `jobs: Job[] = [];`"


def test_a_read_in_another_session_does_not_say_what_a_whole_write_replaced() -> None:
    start = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
    earlier = Built("/home/u/q", "s1", start)
    earlier.read("src/queue.ts", "class Queue {}\n")
    later = Built("/home/u/q", "s2", start + timedelta(days=1))
    later.write("src/queue.ts", "class Queue { n = 0 }\n")
    (edit,) = edits([*earlier.events, *later.events])
    assert edit.before == ""


def test_a_panics_message_on_the_lines_after_it_is_the_explanation() -> None:
    output = (
        "error: failed to run custom build command for `openssl-sys v0.9.101`\n"
        "  --- stderr\n  thread 'main' panicked at build/find_normal.rs:190:5:\n\n"
        "  Could not find directory of OpenSSL installation, and this `-sys` crate cannot\n"
        "  proceed without this knowledge. If OpenSSL is installed, set `OPENSSL_DIR`.\n"
    )
    assert explanation(output, first_error_line(output)) == (
        "Could not find directory of OpenSSL installation, and this `-sys` crate cannot "
        "proceed without this knowledge"
    )


def test_a_panics_message_the_error_line_already_shows_is_no_explanation() -> None:
    output = (
        "thread 'reads' panicked at src/parse.rs:10:9:\nmissing env var DATA_URL\n"
        "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
    )
    assert (
        explanation(
            output, "thread 'reads' panicked at src/parse.rs:10:9: missing env var DATA_URL"
        )
        == ""
    )


@pytest.mark.parametrize(
    ("text", "cause"),
    [
        (  # what a tool or a process leaves undone
            "The tests don't read `.env` at all: the runner loads `.env.ci`, which has no key.",
            "The tests don't read `.env` at all: the runner loads `.env.ci`, which has no key",
        ),
        (
            "The package sits under `src/`, so it isn't importable until it is installed.",
            "The package sits under `src/`, so it isn't importable until it is installed",
        ),
        (  # a failure that shows only under a condition
            "The failures only show up when both suites run at the same time on one database.",
            "The failures only show up when both suites run at the same time on one database",
        ),
        (  # what stopped it
            "The push was stopped by the repository's pre-push hook, which runs the linter.",
            "The push was stopped by the repository's pre-push hook, which runs the linter",
        ),
        (  # behind a label that announces it
            "Here's what's going on: the spawned task doesn't own the sandboxed connection.",
            "The spawned task doesn't own the sandboxed connection",
        ),
    ],
)
def test_what_is_left_undone_shows_under_a_condition_or_stopped_it_is_the_cause(
    text: str, cause: str
) -> None:
    assert diagnosis([_reply(text)], "s", T0, None)[0] == cause


@pytest.mark.parametrize(
    "text",
    [
        "I don't read `.env` here; let me check the runner instead.",  # a plan
        "The errors might only show up when both suites run at once.",  # a guess
        "Here's what's going on: let me rerun it with logging.",  # a plan behind the label
        "The push was stopped by me to check the branch first.",  # the session's own step
    ],
)
def test_a_step_a_guess_or_a_plan_is_no_such_cause(text: str) -> None:
    assert diagnosis([_reply(text)], "s", T0, None) == ("", "")
