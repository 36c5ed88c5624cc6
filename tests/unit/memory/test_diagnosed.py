"""Problems the session diagnosed and changed something for: the path from a report (the user's,
a fetched log's, a failing check's) through the stated cause to the change, and what it never
keeps: a cause taken back or rejected, a hypothesis, another repository, a plan, a guess."""

from __future__ import annotations

from dataclasses import replace

import pytest

from squirrel_memory.extractors.diagnosed import diagnosed
from squirrel_memory.extractors.finders import FOUND
from squirrel_memory.extractors.stated_causes import headed_cause, sentences, stated_cause
from squirrel_memory.models import StoredEvent
from tests.unit.memory.test_rules_extractor import PROJECT, Stream

TASKS = "tasks.toml"
PROMPT_LINE = 'read -p "Release? [y/N] " answer'
CAUSE = "`task release` hangs because the task runner does not pass stdin to its tasks."


def _edit(stream: Stream, path: str, before: str, after: str, root: str = PROJECT) -> None:
    use_id = f"t{len(stream.events)}"
    data = {"file_path": f"{root}/{path}", "old_string": before, "new_string": after}
    stream.add("tool_call", {"tool": "Edit", "tool_use_id": use_id, "input": data}, (path,))
    stream.add("code_change", {"tool": "Edit", "tool_use_id": use_id, "path": f"{root}/{path}"})


def _session(
    *,
    report: str = "the release task hangs at the confirmation prompt",
    cause: str = CAUSE,
    edit: bool = True,
    root: str = PROJECT,
    after: str = "",
    next_user: str = "",
) -> Stream:
    stream = Stream()
    stream.user(report)
    stream.run(f"cat {TASKS}", 0, f"[release]\nrun = '{PROMPT_LINE}'\n")
    stream.say(cause)
    if edit:
        _edit(stream, TASKS, f"run = '{PROMPT_LINE}'\nrun = 'git tag'", "run = 'git tag'", root)
    if after:
        stream.say(after)
    if next_user:
        stream.user(next_user)
        stream.say("OK.")
    return stream


def test_a_report_its_stated_cause_and_the_change_make_one_lesson() -> None:
    (found,) = diagnosed(_session().events)
    assert found.content == (
        "When `task release` hangs: the task runner does not pass stdin to its tasks; the "
        f"change made: removed `run = '{PROMPT_LINE}'` from {TASKS}."
    )
    assert found.key.startswith("pitfall:diagnosed:") and found.files == (TASKS,)
    assert found.event_ids == ("evt_0001", "evt_0003", "evt_0004")


def test_a_named_cause_takes_the_users_report_as_its_trigger() -> None:
    stream = _session(
        report="The nightly job is stuck on the deploy step",
        cause="The problem is that the service is never stopped before the binary is copied.",
    )
    (found,) = diagnosed(stream.events)
    assert found.content.startswith(
        "When the nightly job is stuck on the deploy step: the service is never stopped before "
        "the binary is copied; the change made: removed"
    )


def test_a_fetched_logs_error_is_the_trigger_when_nothing_else_names_it() -> None:
    stream = Stream()
    stream.user("have a look at the last run")
    stream.run("forge run view 42 --log-failed", 0, "lint\tstep\terror: file not formatted: a.rs\n")
    stream.say("Root cause: the formatter wants the match arms on one line each in that file.")
    _edit(stream, "src/a.rs", "Some(x) => {\n x }", "Some(x) => x,")
    (found,) = diagnosed(stream.events)
    assert found.content == (
        "When `lint step error: file not formatted: a.rs` shows in a log: the formatter wants "
        "the match arms on one line each in that file; the change made: editing src/a.rs."
    )


def test_a_cause_after_a_failing_check_is_kept_with_the_command_that_changed_things() -> None:
    stream = Stream()
    stream.user("ship it")
    stream.run("gleam build", 1, "error: Unknown module\n")
    stream.say("The build fails because the dependency list was never downloaded in this checkout.")
    stream.run("gleam deps download", 0, "Downloaded 3 packages\n")
    (found,) = diagnosed(stream.events)
    assert found.content == (
        "When the build fails: the dependency list was never downloaded in this checkout; the "
        "change made: `gleam deps download`."
    )


_LOCK = "fatal: Unable to create '.git/index.lock': File exists.\n"
_RACE = "The commit failed because the add and the commit raced for the index lock."


def _commit_race(stream: Stream) -> None:
    stream.user("commit the spec documents")
    stream.run("shx git add specs/a.md", 0, "")
    stream.run("shx git commit -m 'Update the specs'", 128, _LOCK)
    stream.say(_RACE)


def test_a_look_behind_a_prefix_program_is_no_change_and_a_rerun_alone_makes_no_lesson() -> None:
    stream = Stream()
    _commit_race(stream)
    stream.run("shx ls .git/index.lock", 2, "ls: cannot access '.git/index.lock'\n")
    stream.run("shx ps aux | grep git", 0, "dev 4120 git add specs/a.md\n")
    stream.run("shx git status --short", 0, "M  specs/a.md\n")
    stream.run("shx git commit -m 'Update the specs'", 0, "[main 4e1d2c9] Update the specs\n")
    assert diagnosed(stream.events) == []


@pytest.mark.parametrize(
    "failed",
    [
        {"exit_code": 1, "is_error": True, "output": "kill: (4821) - Operation not permitted\n"},
        # refused by the host's sandbox: it never ran, no exit code comes back
        {"output": 'exec_command failed for `kill 4821`: Sandbox(Denied { output: "" })'},
    ],
    ids=["failed", "refused"],
)
def test_a_command_that_failed_or_never_ran_is_not_the_change_made(
    failed: dict[str, object],
) -> None:
    stream = Stream()
    stream.user("the build keeps failing with a lock error")
    stream.run("vite build", 1, "Error: another build is running (.build.lock exists)\n")
    stream.say("The build fails because the watcher still holds the lock file.")
    stream.add("command_run", {"command": "kill 4821", "tool_use_id": "t9", **failed})
    assert diagnosed(stream.events) == []
    stream.run("rm -f .build.lock && touch .build.lock.done", 0, "")
    (found,) = diagnosed(stream.events)
    assert found.content.endswith("the change made: `touch .build.lock.done`.")


def test_a_change_behind_a_prefix_program_that_passed_is_named_as_typed() -> None:
    stream = Stream()
    stream.user("ship it")
    stream.run("wr gleam build", 1, "error: Unknown module\n")
    stream.say("The build fails because the dependency list was never downloaded in this checkout.")
    stream.run("wr ps aux | grep gleam", 0, "dev 1 gleam\n")
    stream.run("wr gleam deps download", 0, "Downloaded 3 packages\n")
    (found,) = diagnosed(stream.events)
    assert found.content.endswith("the change made: `wr gleam deps download`.")


@pytest.mark.parametrize(
    "after",
    [
        "That wasn't the problem after all: the prompt is fine.",
        "Actually the real problem is something else entirely, still looking.",
    ],
)
def test_a_cause_the_session_took_back_is_not_kept(after: str) -> None:
    assert diagnosed(_session(after=after).events) == []


@pytest.mark.parametrize(
    "reply", ["No, that's not it. The prompt is fine.", "It still hangs after that."]
)
def test_a_cause_the_user_rejected_is_not_kept(reply: str) -> None:
    assert diagnosed(_session(next_user=reply).events) == []


def test_a_hypothesis_never_acted_on_is_not_kept() -> None:
    assert diagnosed(_session(edit=False).events) == []


@pytest.mark.parametrize("root", ["/home/dev/other-repo", f"{PROJECT}/../other-repo"])
def test_a_change_in_another_repository_is_not_kept(root: str) -> None:
    assert diagnosed(_session(root=root).events) == []


def test_a_turn_without_a_problem_is_not_kept() -> None:
    assert diagnosed(_session(report="add a release task to the task file").events) == []


def test_plans_and_to_do_lists_are_not_causes() -> None:
    plan = (
        "Plan:\n"
        "1. `task release` hangs because the task runner does not pass stdin to its tasks.\n"
        "2. Remove the prompt.\n\n"
        "- [ ] The deploy fails because the key is missing from the runner."
    )
    assert diagnosed(_session(cause=plan).events) == []


def test_a_subagents_guess_is_not_kept_and_its_plain_finding_is() -> None:
    guess = _session(cause="`task release` probably hangs because stdin is not passed on.")
    assert diagnosed(guess.events) == []
    found = _session()
    found.events[2] = replace(found.events[2], sidechain=True, agent_id="a1")
    assert len(diagnosed(found.events)) == 1


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "The CI failure is caused by a formatting difference in the closure on line 40.",
            ("The CI failure shows up", "a formatting difference in the closure on line 40"),
        ),
        (
            "This error is due to the missing feature flag in the manifest.",
            ("", "the missing feature flag in the manifest"),
        ),
        (
            "Found the problem: the service file points at the old binary path.",
            ("", "the service file points at the old binary path"),
        ),
        (
            "Actually, wait - the real issue is that the server doesn't serve folders.",
            ("", "the server doesn't serve folders"),
        ),
        # an exception or a panic is a symptom as a failure is
        (
            "The carrier table is keyed by upper-case codes, so `CARRIERS.fetch(code)` raises"
            " KeyError for `ups`.",
            (
                "`CARRIERS.fetch(code)` raises KeyError for `ups`",
                "the carrier table is keyed by upper-case codes",
            ),
        ),
        (
            "The handler throws NullPointerException because the session is never initialised.",
            ("The handler throws NullPointerException", "the session is never initialised"),
        ),
        (
            "The config is read lazily, so the worker panics on the first request.",
            ("the worker panics on the first request", "the config is read lazily"),
        ),
    ],
)
def test_the_shapes_of_a_stated_cause(text: str, said: tuple[str, str]) -> None:
    assert stated_cause(text) == said


@pytest.mark.parametrize(
    "text",
    [
        "The error is due to a typo I made in the config.",  # the session's own slip
        "The issue is in the template, around the loop.",  # where, not why
        "The issue is that I'm calling the cached method instead of the plain one.",  # the work
        "The tests are failing because the mock is not updated by the call.",  # a test restated
        "Let me check why the build fails because of the cache.",  # a plan
        "Why does the job fail because of the cache?",  # a question
        "The issue is likely that the cache is stale between runs.",  # a guess
        # raising nothing is no symptom
        "The parser checks every token first, so `parse()` raises no error on empty input.",
        "The function raises nothing because the input is validated upstream.",
    ],
)
def test_what_is_not_a_stated_cause(text: str) -> None:
    assert stated_cause(text) == ("", "")


def test_the_finders_keep_the_lesson_once_and_not_as_a_bare_finding() -> None:
    stream = _session(
        cause="The problem is that the task runner doesn't pass stdin to its tasks by default."
    )
    found = [c for extract in FOUND for c in extract(stream.events) if c.key.startswith("pitfall")]
    assert [c.key.split(":")[1] for c in found] == ["diagnosed"]


def test_a_subagents_finding_about_another_folder_is_not_kept() -> None:
    stream = Stream()
    stream.user("the release task hangs at the confirmation prompt")
    read = {"tool": "Read", "tool_use_id": "r1", "input": {"file_path": "/home/dev/other/t.toml"}}
    stream.add("tool_call", read, ("/home/dev/other/t.toml",))
    stream.say(CAUSE)
    for n in (1, 2):
        stream.events[n] = replace(stream.events[n], sidechain=True, agent_id="a1")
    _edit(stream, TASKS, f"run = '{PROMPT_LINE}'\nrun = 'git tag'", "run = 'git tag'")
    assert diagnosed(stream.events) == []


@pytest.mark.parametrize(
    ("report", "trigger"),
    [
        ("I just noticed that my release task hangs at the prompt", "the release task hangs"),
        ("I'm getting a timeout from the deploy step. Can you look?", "a timeout from the deploy"),
        ("CI is failing on the lint job again. Can you fix it?", "CI is failing on the lint job"),
        ("why does `make release` hang at the prompt?", "`make release` hangs at the prompt:"),
        ("Why is the deploy job failing on main?", "the deploy job is failing on main:"),
    ],
)
def test_the_users_report_is_the_trigger_in_nobodys_words(report: str, trigger: str) -> None:
    stream = _session(report=report, cause="The problem is that the step waits on a prompt.")
    (found,) = diagnosed(stream.events)
    assert found.content.startswith(f"When {trigger}")


@pytest.mark.parametrize(
    "report", ["it still hangs", "this is broken", "fix the failing job", "why does it fail?"]
)
def test_a_report_that_names_nothing_gives_no_trigger(report: str) -> None:
    stream = _session(report=report, cause="The problem is that the step waits on a prompt.")
    assert diagnosed(stream.events) == []


def test_a_cause_and_its_symptom_joined_by_so() -> None:
    text = (
        "The task runner does not pass stdin to its tasks, so the `read -p` prompt waits forever."
    )
    assert stated_cause(text) == (
        "the `read -p` prompt waits forever",
        "the task runner does not pass stdin to its tasks",
    )
    assert stated_cause("It runs in a subshell, so the prompt hangs.") == ("", "")


def test_what_a_checker_wants_after_a_fetched_log_where_a_reply_said_it_fails() -> None:
    stream = Stream()
    stream.user("look at the pull request's checks")
    stream.run("forge api jobs/7/logs", 0, "fmt\tDiff in src/lib.rs at line 40:\nerror: exit 1\n")
    stream.say("The `lint` job is failing on the format check. It wants a change.")
    stream.say("The formatter wants the closure body on one line.")
    _edit(stream, "src/lib.rs", "|x| {\n    x + 1\n}", "|x| x + 1")
    (found,) = diagnosed(stream.events)
    assert found.content == (
        "When the `lint` job is failing on the format check: the formatter wants the closure "
        "body on one line; the change made: editing src/lib.rs."
    )


def test_a_change_made_once_the_user_said_to_go_ahead_answers_the_cause() -> None:
    stream = _session(edit=False, after="Want me to remove the prompt?")
    stream.user("yes, go ahead")
    _edit(stream, TASKS, f"run = '{PROMPT_LINE}'\nrun = 'git tag'", "run = 'git tag'")
    (found,) = diagnosed(stream.events)
    assert found.content.endswith(f"the change made: removed `run = '{PROMPT_LINE}'` from {TASKS}.")
    stream.user("no, put it back")
    assert diagnosed(stream.events) == []


def test_a_change_after_another_request_does_not_answer_the_cause() -> None:
    stream = _session(edit=False)
    stream.user("let's add a changelog entry for the release first")
    _edit(stream, "CHANGELOG.md", "## 1.0", "## 1.1\n## 1.0")
    assert diagnosed(stream.events) == []


def test_a_request_about_error_handling_is_no_report_of_trouble() -> None:
    stream = _session(report="add error handling to the release task and better error messages")
    assert diagnosed(stream.events) == []


def test_a_huge_reply_of_brackets_is_read_in_one_pass() -> None:
    assert sentences("[" * 1_000_000) == ["[" * 1_000_000]
    assert sentences("See [the runner](https://x.test/a) docs.\n" + "[" * 1_000_000)[0] == (
        "See the runner docs."
    )


def _subagents(stream: Stream, *, prompt_origin: str = "parent_agent") -> list[StoredEvent]:
    """The stream as a subagent's transcript alone: its opening prompt is the parent agent's."""
    events = [replace(e, sidechain=True, agent_id="a1") for e in stream.events]
    return [replace(events[0], origin=prompt_origin), *events[1:]]


def test_a_subagents_prompt_that_reports_trouble_opens_its_lesson() -> None:
    (found,) = diagnosed(_subagents(_session()))

    assert found.content.startswith("When `task release` hangs: the task runner does not pass")


@pytest.mark.parametrize(
    "report",
    [
        "Add a confirmation prompt to the release task.",  # a task, no trouble
        "Find where the release task is defined.",
    ],
)
def test_a_subagents_prompt_without_trouble_gives_no_lesson(report: str) -> None:
    assert diagnosed(_subagents(_session(report=report))) == []


def test_a_prompt_from_the_host_is_no_report_of_trouble() -> None:
    assert diagnosed(_subagents(_session(), prompt_origin="harness")) == []


@pytest.mark.parametrize(
    ("text", "cause"),
    [
        (
            "The CI job failed because of a timing-dependent assertion in the suite.",
            "a timing-dependent assertion in the suite",
        ),
        (
            "The nightly export failed because of an expired token in the job's settings.",
            "an expired token in the job's settings",
        ),
    ],
)
def test_because_of_gives_the_cause_without_of(text: str, cause: str) -> None:
    assert stated_cause(text)[1] == cause


@pytest.mark.parametrize(
    ("ecosystem_line", "detail", "path", "before", "after"),
    [
        # A Rust project's integration test and a Python project's: the same shape of reply.
        (
            "It expected `worker – cancelled`, but `worker` ran concurrently and finished "
            "before `build` reported its error:",
            "it expected `worker – cancelled`, but `worker` ran concurrently and finished "
            "before `build` reported its error",
            "tests/pipeline.rs",
            "steps: [build, worker]",
            "steps: [build, worker.after(build)]",
        ),
        (
            "It expected `cache hit`, but `warm_cache` ran in another process and never "
            "shared its result:",
            "it expected `cache hit`, but `warm_cache` ran in another process and never shared "
            "its result",
            "tests/test_cache.py",
            "@pytest.fixture\ndef cache():",
            "@pytest.fixture(scope='session')\ndef cache():",
        ),
    ],
)
def test_what_the_check_expected_against_what_happened_follows_the_cause(
    ecosystem_line: str, detail: str, path: str, before: str, after: str
) -> None:
    stream = Stream()
    stream.user("why did the nightly CI job fail?")
    stream.run("forge run view 7 --log-failed", 0, "tests\tstep\tFAILED: 1 of 80 checks failed\n")
    stream.say(
        f"The nightly CI job failed because of an ordering assumption in one check.\n\n"
        f"{ecosystem_line}\n\n```text\nlog\n```"
    )
    stream.user("fix it")
    _edit(stream, path, before, after)
    (found,) = diagnosed(stream.events)
    assert f"an ordering assumption in one check — {detail};" in found.content, found.content


@pytest.mark.parametrize(
    "line",
    [
        "It probably expected `worker – cancelled`, but `worker` finished first:",  # a guess
        "I expected `worker – cancelled`, but `worker` finished first:",  # someone's steps
        "The scheduler runs both steps at once:",  # no expectation against an outcome
    ],
)
def test_no_detail_follows_the_cause_from_a_guess_or_a_plain_sentence(line: str) -> None:
    stream = Stream()
    stream.user("why did the nightly CI job fail?")
    stream.run("forge run view 7 --log-failed", 0, "tests\tstep\tFAILED: 1 of 80 checks failed\n")
    stream.say(
        f"The nightly CI job failed because of an ordering assumption in one check.\n\n{line}"
    )
    stream.user("fix it")
    _edit(stream, "tests/pipeline.rs", "a", "b")
    (found,) = diagnosed(stream.events)
    assert "—" not in found.content and "an ordering assumption in one check;" in found.content


ROOT_CAUSE_REPLIES = [
    # A Python service and an Elixir app: the cause under its heading, as a lead-in and a list.
    (
        "This is a race in the worker pool.\n\n### Root cause\n\nThe pool currently:\n\n"
        "1. Starts every worker before the queue exists.\n2. Drops the jobs pushed before that.\n\n"
        "More detail follows.",
        "the race in the worker pool shows up",
        "The pool currently: starts every worker before the queue exists; drops the jobs pushed "
        "before that",
        "app/pool.py",
    ),
    (
        "## Root cause\n\nThe supervisor restarts `Cache` before `Repo` is up, so every lookup "
        "on boot times out.\n",
        "",
        "The supervisor restarts `Cache` before `Repo` is up, so every lookup on boot times out",
        "lib/app/application.ex",
    ),
]


@pytest.mark.parametrize(("reply", "problem", "cause", "path"), ROOT_CAUSE_REPLIES)
def test_a_cause_under_a_root_cause_heading_is_read(
    reply: str, problem: str, cause: str, path: str
) -> None:
    named, said = headed_cause(reply)
    assert said == cause
    assert (f"the {named} shows up" if named else "") == problem


@pytest.mark.parametrize(("reply", "problem", "cause", "path"), ROOT_CAUSE_REPLIES)
def test_a_headed_cause_and_the_change_a_pr_request_asked_for_make_one_lesson(
    reply: str, problem: str, cause: str, path: str
) -> None:
    stream = Stream()
    stream.user("the nightly import fails on boot")
    stream.run(f"cat {path}", 0, "…")
    stream.say(reply)
    stream.user("make a pr")
    _edit(stream, path, "start_workers()\nmake_queue()", "make_queue()\nstart_workers()")
    (found,) = diagnosed(stream.events)
    # The cause as stated (a sentence's own shape wins over the heading's), and the change.
    assert cause.split(", so", maxsplit=1)[0].lower() in found.content.lower(), found.content
    assert path in found.content


@pytest.mark.parametrize(
    "reply",
    [
        "### Root cause\n\nIt might be that the pool starts workers early.",  # a guess
        "### Root cause\n\nI changed the pool so that workers start later.",  # someone's steps
        "### Next steps\n\n1. Start the queue first.\n2. Then the workers.",  # no cause heading
    ],
)
def test_no_headed_cause_from_a_guess_someones_steps_or_a_plan(reply: str) -> None:
    assert headed_cause(reply) == ("", "")


@pytest.mark.parametrize(
    ("report", "path", "said"),
    [
        # A Go project and a Python one: the user names what the code gets wrong.
        (
            "The shouldFilterFile function picks the files to redact, but it omits "
            "paths.SummaryFileName. Summaries then reach git unredacted.",
            "internal/checkpoint/committed.go",
            "Reported by the user: The shouldFilterFile function picks the files to redact, but "
            "it omits paths.SummaryFileName; the change made:",
        ),
        (
            "export_rows() skips rows whose `deleted_at` is set, so the nightly dump is short.",
            "app/export.py",
            "Reported by the user: export_rows() skips rows whose `deleted_at` is set, so the "
            "nightly dump is short; the change made:",
        ),
        # a quoted log line first, then the user's own words
        (
            "> WARN dump: 41 rows\n\nexport_rows() skips rows whose `deleted_at` is set, so the "
            "nightly dump is short.",
            "app/export.py",
            "Reported by the user: export_rows() skips rows whose `deleted_at` is set, so the "
            "nightly dump is short; the change made:",
        ),
    ],
)
def test_a_users_report_of_what_named_code_gets_wrong_and_the_change_make_a_lesson(
    report: str, path: str, said: str
) -> None:
    stream = Stream()
    stream.user(report)
    _edit(stream, path, "case a, b:", "case a, b, c:")
    (found,) = diagnosed(stream.events)
    assert found.content.startswith(said), found.content
    assert path in found.content


@pytest.mark.parametrize(
    "report",
    [
        "Does shouldFilterFile skip paths.SummaryFileName?",  # a question
        "I think shouldFilterFile probably omits paths.SummaryFileName.",  # a guess
        "Add a --dry-run flag to the export command.",  # a request, no defect
        "The summary file is not filtered for secrets.",  # names no code
        # another project's issue, quoted: its words are not the user's report
        "Is this our bug? From the ORM's tracker:\n\n> **Describe the bug** `upsertRow` ignores "
        "the `where` clause on MySQL 8.\n> Environment: Node 18.",
    ],
)
def test_no_lesson_from_a_question_a_guess_a_request_or_a_report_naming_no_code(
    report: str,
) -> None:
    stream = Stream()
    stream.user(report)
    _edit(stream, "internal/checkpoint/committed.go", "case a, b:", "case a, b, c:")
    assert diagnosed(stream.events) == []


def test_a_failure_said_to_be_because_of_a_cause_names_its_trigger() -> None:
    text = (
        'The "Unbound module Yojson" error was because `bin/dune` didn\'t list `yojson` in its '
        "`libraries` stanza."
    )
    assert stated_cause(text) == (
        'The "Unbound module Yojson" error shows up',
        "`bin/dune` didn't list `yojson` in its `libraries` stanza",
    )
    # a guess stays none
    assert stated_cause("The build error was probably because of a stale cache.") == ("", "")


@pytest.mark.parametrize(
    "look",
    [
        "git rev-parse --show-toplevel",
        "cargo metadata --format-version 1 --no-deps",
        "git -C . log",
    ],
)
def test_a_report_the_session_only_looked_into_is_no_lesson(look: str) -> None:
    # a review that only looked: the report's change would be a command that changed nothing
    stream = Stream()
    stream.user("export_rows() skips rows whose `deleted_at` is set, so the nightly dump is short.")
    stream.run(look, 0, "/home/dev/app")
    assert diagnosed(stream.events) == []
