"""The foresight replay's scoring on made-up sessions: what counts, and what must not."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from bench.foresight_score import (
    History,
    Injected,
    SessionFacts,
    Tally,
    score_session,
    session_facts,
    share,
)
from squirrel_gateway.hook_context import Served
from squirrel_memory.extractors.pitfalls import error_fingerprint, fingerprint_key
from squirrel_memory.models import StoredEvent

ROOT = "/work/app"
START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
NOT_FOUND = "/bin/bash: line 1: pytest: command not found"
PYTEST_KEY = fingerprint_key(error_fingerprint(NOT_FOUND))
ACTIVATED = "source .venv/bin/activate && pytest"
PITFALL = Served(
    "pitfall",
    PYTEST_KEY,
    "",
    f"`pytest` failed with `{NOT_FOUND}`; re-running it as `{ACTIVATED}` worked.",
)


class Session:
    """Builds one session's stored events, a minute apart unless told."""

    def __init__(self, sid: str) -> None:
        self.sid = sid
        self.events: list[StoredEvent] = []

    def _add(self, minute: int, kind: str, content: dict[str, Any], **extra: Any) -> Session:
        self.events.append(
            StoredEvent(
                id=f"{self.sid}-{len(self.events):03d}",
                project_id=ROOT,
                user_id="",
                source_tool="claude_code",
                session_id=self.sid,
                timestamp=START + timedelta(minutes=minute),
                event_type=kind,
                content=content,
                file_paths=tuple(extra.get("file_paths", ())),
                hash="",
            )
        )
        return self

    def say(self, minute: int, text: str) -> Session:
        return self._add(minute, "user_message", {"text": text})

    def reply(self, minute: int, text: str = "Done.") -> Session:
        return self._add(minute, "assistant_response", {"text": text})

    def run(self, minute: int, command: str, code: int = 0, output: str = "") -> Session:
        return self._add(
            minute,
            "command_run",
            {"command": command, "exit_code": code, "is_error": code != 0, "output": output},
        )

    def edit(self, minute: int, path: str) -> Session:
        return self._add(minute, "code_change", {"path": f"{ROOT}/{path}"}, file_paths=[path])

    def facts(self) -> SessionFacts:
        return session_facts(self.sid, self.events, ROOT)


def at(minute: int) -> datetime:
    return START + timedelta(minutes=minute)


def history_of(*sessions: Session) -> History:
    history = History()
    for session in sessions:
        history.add(session.facts())
    return history


def activation_fails(sid: str) -> Session:
    """`pytest` not found, then run in the activated environment: the pitfall and its fix."""
    return (
        Session(sid)
        .say(0, "run the tests")
        .run(1, "pytest", 127, NOT_FOUND)
        .run(2, ACTIVATED, 0, "3 passed")
    )


def start(*served: Served, tokens: int = 100) -> Injected:
    return Injected(None, tokens, served)


# -- failure foresight ---------------------------------------------------------------------------


def test_a_recurring_failure_warned_at_start_with_the_working_fix_counts_twice() -> None:
    result = score_session(
        activation_fails("s2").facts(), history_of(activation_fails("s1")), start(PITFALL), []
    )
    assert (result.failures, result.warned, result.fix_right) == (1, 1, 1)


def test_a_warning_with_another_fix_is_a_warning_but_not_the_right_fix() -> None:
    other = Served("pitfall", PYTEST_KEY, "", f"`pytest` failed with `{NOT_FOUND}`; run `make`.")
    result = score_session(
        activation_fails("s2").facts(), history_of(activation_fails("s1")), start(other), []
    )
    assert (result.failures, result.warned, result.fix_right) == (1, 1, 0)


def test_a_first_time_failure_is_not_counted_even_when_a_pitfall_was_served() -> None:
    result = score_session(activation_fails("s2").facts(), History(), start(PITFALL), [])
    assert (result.failures, result.warned) == (0, 0)


def test_a_warning_served_after_the_failure_does_not_count() -> None:
    late = Injected(at(5), 80, (PITFALL,))
    result = score_session(
        activation_fails("s2").facts(), history_of(activation_fails("s1")), start(), [late]
    )
    assert (result.failures, result.warned) == (1, 0)
    assert any("failure not warned" in miss for miss in result.misses)


def test_a_pitfall_of_another_error_does_not_warn() -> None:
    other = Served("pitfall", "pitfall:something-else-12345678", "", PITFALL.content)
    result = score_session(
        activation_fails("s2").facts(), history_of(activation_fails("s1")), start(other), []
    )
    assert (result.failures, result.warned) == (1, 0)


def test_the_same_failure_twice_in_a_session_counts_once() -> None:
    session = activation_fails("s2").run(10, "pytest", 127, NOT_FOUND).run(11, ACTIVATED)
    result = score_session(session.facts(), history_of(activation_fails("s1")), start(), [])
    assert result.failures == 1


# -- recipe recall -------------------------------------------------------------------------------

RECIPE = Served("recipe", "recipe:test", "m1", "To run the tests: `uv run pytest` (e.g. `-x`).")


def test_a_command_run_before_and_served_before_its_first_use_counts() -> None:
    earlier = Session("s1").run(1, "uv run pytest -x")
    now = Session("s2").say(0, "add a test").run(5, "uv run pytest tests/test_a.py")
    result = score_session(
        now.facts(), history_of(earlier), start(), [Injected(at(0), 90, (RECIPE,))]
    )
    assert (result.recipes, result.recipes_served) == (1, 1)


def test_commands_that_must_not_count_as_recipes() -> None:
    earlier = Session("s1").run(1, "uv run pytest -x").run(2, "ls -la").run(3, "ruff check .", 1)
    now = (
        Session("s2")
        .run(1, "ls -la")  # no purpose: exploration, not a recipe
        .run(2, "ruff check .")  # failed before: no recipe to recall
        .run(3, "mypy src")  # never run before
        .run(4, "uv run pytest", 1, "FAILED tests/test_a.py")  # failed now
    )
    result = score_session(now.facts(), history_of(earlier), start(RECIPE), [])
    assert (result.recipes, result.recipes_served) == (0, 0)


def test_a_recipe_served_only_after_the_first_use_is_not_recalled() -> None:
    earlier = Session("s1").run(1, "uv run pytest -x")
    now = Session("s2").run(1, "uv run pytest")
    result = score_session(
        now.facts(), history_of(earlier), start(), [Injected(at(3), 90, (RECIPE,))]
    )
    assert (result.recipes, result.recipes_served) == (1, 0)


# -- instruction recall --------------------------------------------------------------------------

STYLE = Served("user_style", "pref:uv_pip", "", "Always use uv instead of pip.")


def instructed(sid: str) -> Session:
    return (
        Session(sid).say(0, "set up the project").reply(1).say(2, "Always use uv instead of pip.")
    )


def test_a_repeated_instruction_served_at_start_counts() -> None:
    result = score_session(instructed("s2").facts(), history_of(instructed("s1")), start(STYLE), [])
    assert (result.instructions, result.instructions_served) == (1, 1)


def test_an_instruction_served_with_the_very_message_that_repeats_it_does_not_count() -> None:
    same_prompt = Injected(at(2), 50, (STYLE,))
    result = score_session(
        instructed("s2").facts(), history_of(instructed("s1")), start(), [same_prompt]
    )
    assert (result.instructions, result.instructions_served) == (1, 0)


def test_a_new_instruction_or_task_wording_is_not_a_repeat() -> None:
    now = Session("s2").say(0, "fix the bug in app.py").reply(1).say(2, "No, never push to main.")
    result = score_session(now.facts(), history_of(instructed("s1")), start(STYLE), [])
    assert result.instructions == 0
    assert now.facts().instructions  # `never push to main` was read, but it is new


def test_a_style_memory_with_another_key_does_not_state_it() -> None:
    other = Served("user_style", "pref:tabs", "", "Always use uv instead of pip.")
    result = score_session(instructed("s2").facts(), history_of(instructed("s1")), start(other), [])
    assert (result.instructions, result.instructions_served) == (1, 0)


# -- cost and noise ------------------------------------------------------------------------------


def test_tokens_and_noise() -> None:
    now = Session("s2").say(0, "fix the parser").edit(2, "src/parser.py").run(3, "uv run pytest")
    fact = Served("project_fact", "", "", "The parser lives in `src/parser.py`.")
    stale = Served("project_fact", "", "", "Deployment goes through `fly deploy`.")
    result = score_session(
        now.facts(),
        History(),
        start(RECIPE, fact, stale, STYLE, tokens=300),
        [Injected(at(0), 60, (RECIPE, fact)), Injected(at(5), 0, ())],
    )
    assert (result.start_tokens, result.prompts, result.prompt_tokens) == (300, 2, 60)
    assert result.prompt_answers == 1
    assert result.served == 4  # the recipe and the fact served twice count once
    assert (result.used, result.unused) == (2, 2)  # the deploy fact and the style memory: unused
    # Both items the prompt showed had been served at the start: no prompt served anything.
    assert (result.prompt_served, result.prompt_used, result.prompt_unused) == (0, 0, 0)


def test_what_the_prompts_served_first_is_counted_apart_from_the_start() -> None:
    """The per-prompt context's own record: the items a prompt's answer served first (not the
    start's, nor a start's after `/clear`), with what became of them."""
    now = Session("s2").say(0, "fix the parser").edit(6, "src/parser.py")
    fact = Served("project_fact", "", "", "The parser lives in `src/parser.py`.")
    stale = Served("project_fact", "", "", "Deployment goes through `fly deploy`.")
    cleared = Served("project_fact", "", "", "Invoices are rendered by `billing/render.py`.")
    result = score_session(
        now.facts(),
        History(),
        start(RECIPE, tokens=300),
        [
            Injected(at(1), 80, (RECIPE, fact, stale)),
            Injected(at(3), 90, (cleared,), "/clear", restart=True),
            Injected(at(4), 40, (cleared, fact)),
        ],
    )
    assert result.served == 4
    assert (result.prompt_served, result.prompt_used, result.prompt_unused) == (2, 1, 1)
    assert (result.prompt_missed, result.prompt_contradicted) == (0, 0)
    total = Tally()
    total.add(result)
    total.add(result)
    assert (total.prompt_served, total.prompt_unused) == (4, 2)


def test_tallies_add_up_and_shares_print() -> None:
    total = Tally()
    total.add(Tally(sessions=1, failures=2, warned=1, misses=["a"]))
    total.add(Tally(sessions=1, failures=1, warned=1, misses=["b"]))
    assert (total.sessions, total.failures, total.warned, total.misses) == (2, 3, 2, ["a", "b"])
    assert share(2, 3) == "2/3 67 %"
    assert share(0, 0) == "0/0 n/a"


def test_a_command_run_through_another_runner_touches_its_memory_but_is_not_recalled() -> None:
    lint = Served("recipe", "recipe:lint", "m2", "To lint: `ruff check --fix`.")
    types = Served("recipe", "recipe:typecheck", "m3", "To type-check: `mypy src`.")
    earlier = Session("s1").run(1, "uv run ruff check src")
    now = Session("s2").run(1, "uv run ruff check src")
    result = score_session(now.facts(), history_of(earlier), start(lint, types), [])
    assert (result.recipes, result.recipes_served) == (1, 0)  # `ruff check` is not what ran
    assert (result.served, result.used, result.unused) == (2, 1, 1)  # ruff ran; mypy did not


def test_a_pitfall_serves_the_command_of_its_remedy_not_the_one_that_failed() -> None:
    earlier = Session("s1").run(1, "uv run pyright").run(2, "uv run pytest -x")
    now = Session("s2").run(3, "uv run pyright").run(4, "uv run pytest")
    pitfall = Served(
        "pitfall",
        "pitfall:x",
        "",
        "`uv run pyright` failed with `error: unknown import`; re-running it as "
        "`uv run pytest` worked.",
    )
    result = score_session(now.facts(), history_of(earlier), start(pitfall), [])
    assert (result.recipes, result.recipes_served) == (2, 1)
    assert any("not served: uv run pyright" in miss for miss in result.misses)


def test_the_details_show_each_answer_with_its_items_outcomes_and_reasons() -> None:
    now = Session("s2").say(0, "fix the parser").edit(2, "src/parser.py")
    fact = Served("project_fact", "", "", "The parser lives in `src/parser.py`.")
    stale = Served("project_fact", "", "", "Deployment goes through `fly deploy`.")
    text = "## Relevant\n\n- [project_fact] The parser lives in `src/parser.py`. — why: Matches 'parser'."
    result = score_session(
        now.facts(),
        History(),
        Injected(None, 50, (stale,), "", "- Deployment goes through `fly deploy`."),
        [Injected(at(0), 40, (fact,), "fix the parser", text)],
    )
    assert result.answers == [
        "s2",
        "  start: '' 50 t",
        "          unused [project_fact] Deployment goes through `fly deploy`.",
        "  prompt: 'fix the parser' 40 t",
        "            used [project_fact] The parser lives in `src/parser.py`. — why: Matches 'parser'.",
        "  touched (1): src/parser.py",
        "  ran (0): ",
    ]


def test_each_item_gets_the_reason_of_its_own_line_not_of_a_line_quoting_it() -> None:
    # A recipe that quotes the command a pitfall opens with comes first in the answer: the
    # pitfall's reason is the one on the pitfall's own line.
    command = "`uv run pytest tests/test_cache_version_compatibility.py -v`"
    recipe = Served("recipe", "recipe:test", "", f"In `tests/`, to run the tests: {command}.")
    trap = Served("pitfall", "pitfall:x", "", f"{command} failed with `AssertionError`.")
    text = (
        f"- [recipe] {recipe.content} — why: Matches 'pytest', 'tests'; a recipe.\n"
        f"- [pitfall] {trap.content} — why: Matches 'cache'; a pitfall."
    )
    now = Session("s2").say(0, "the cache tests")
    result = score_session(
        now.facts(),
        History(),
        Injected(None, 0, (), "", ""),
        [Injected(at(0), 60, (recipe, trap), "the cache tests", text)],
    )
    (line,) = [a for a in result.answers if "[pitfall]" in a]
    assert line.endswith("— why: Matches 'cache'; a pitfall.")


def test_a_start_asked_again_after_clear_is_a_start_not_a_prompt() -> None:
    """`/clear` gives the session a fresh context: the session start the host asks again counts
    with the starts (its tokens, its items and their outcomes), not as a prompt answered."""
    now = Session("s2").say(0, "fix the parser").edit(6, "src/parser.py")
    fact = Served("project_fact", "", "", "The parser lives in `src/parser.py`.")
    result = score_session(
        now.facts(),
        History(),
        start(RECIPE, tokens=300),
        [
            Injected(at(1), 0, ()),
            Injected(at(5), 200, (fact,), "/clear", restart=True),
        ],
    )
    assert (result.starts, result.start_tokens) == (2, 500)
    assert (result.prompts, result.prompt_tokens, result.prompt_answers) == (1, 0, 0)
    assert (result.served, result.used) == (2, 1)  # the fact, served at the restart, was used
    assert any(line.startswith("  restart: '/clear' 200 t") for line in result.answers)


# -- what a session start must give --------------------------------------------------------------

GO_TESTS = Served("recipe", "recipe:test", "m2", "To run the tests: `go test ./...`.")
TEST_PITFALL = Served(
    "pitfall", "pitfall:x", "m3", "`go test ./...` failed with `undefined: Handler`."
)


def test_a_start_after_passing_tests_counts_whether_it_gives_the_test_command() -> None:
    for command, recipe in (("uv run pytest -x", RECIPE), ("go test ./...", GO_TESTS)):
        earlier = Session("s1").run(1, command)
        now = Session("s2").say(0, "rename the handler")
        given = score_session(now.facts(), history_of(earlier), start(recipe), [])
        missing = score_session(now.facts(), history_of(earlier), start(STYLE), [])
        assert (given.start_tests, given.start_tests_served) == (1, 1)
        assert (missing.start_tests, missing.start_tests_served) == (1, 0)
        assert "s2 start without a test command" in missing.misses


def test_no_start_owes_a_test_command_nobody_ran_nor_one_a_pitfall_says_failed() -> None:
    """Traps: tests that only failed, or never ran, make no test command known; a pitfall that
    quotes the failing test command does not give it as the way to run the tests."""
    failed = Session("s1").run(1, "go test ./...", 1, "FAIL")
    passed = Session("s1").run(1, "go test ./...")
    now = Session("s2").say(0, "rename the handler")

    assert score_session(now.facts(), history_of(failed), start(GO_TESTS), []).start_tests == 0
    assert score_session(now.facts(), History(), start(GO_TESTS), []).start_tests == 0
    pitfall_only = score_session(now.facts(), history_of(passed), start(TEST_PITFALL), [])
    assert (pitfall_only.start_tests, pitfall_only.start_tests_served) == (1, 0)


def test_a_start_after_a_stated_rule_counts_whether_it_gives_a_preference() -> None:
    now = Session("s2").say(0, "rename the handler")
    given = score_session(now.facts(), history_of(instructed("s1")), start(STYLE), [])
    missing = score_session(now.facts(), history_of(instructed("s1")), start(RECIPE), [])
    nothing_said = score_session(now.facts(), history_of(Session("s1").run(1, "ls")), start(), [])

    assert (given.start_prefs, given.start_prefs_served) == (1, 1)
    assert (missing.start_prefs, missing.start_prefs_served) == (1, 0)
    assert nothing_said.start_prefs == 0


def test_a_module_a_prompt_served_is_judged_by_the_files_the_memory_holds() -> None:
    """The prompt's line quotes the module's text, which names no file; the memory's files
    (given by id, as the store holds them) say what it is about, as the memory service's own
    judge reads them."""
    now = Session("s2").say(0, "rework the renderer").edit(2, "app/renderer.py")
    module = Served("project_fact", "module:renderer", "m7", "Module `renderer`: Renders HTML.")
    answers = [Injected(at(1), 40, (module,))]
    files = {"m7": (f"{ROOT}/app/renderer.py",)}
    assert score_session(now.facts(), History(), start(), answers, ROOT, files).prompt_used == 1
    # without its files, or holding another file, it was not used
    assert score_session(now.facts(), History(), start(), answers, ROOT).prompt_unused == 1
    other = {"m7": ("app/parser.py",)}
    assert score_session(now.facts(), History(), start(), answers, ROOT, other).prompt_unused == 1


# -- prompts given nothing -----------------------------------------------------------------------


def test_a_silent_prompt_is_had_it_below_the_cut_or_other() -> None:
    """A prompt given nothing because the session already had its memory counts as had; one
    with a search hit below the cut the session then used (and no earlier answer gave) counts
    as below; the rest as other."""
    now = Session("s2").say(0, "fix the parser").edit(4, "src/parser.py")
    parser = Served("project_fact", "module:parser", "m_parser", "The parser is `src/parser.py`.")
    deploy = Served("project_fact", "deploy", "m_deploy", "Deploys go through `fly deploy`.")
    result = score_session(
        now.facts(),
        History(),
        start(tokens=0),
        [
            Injected(at(1), 0, (), "the parser again", had=(parser,)),
            Injected(at(2), 0, (), "and the parser", near=((parser, "0.30 A project fact."),)),
            Injected(at(3), 0, (), "deploy it", near=((deploy, "0.20 A project fact."),)),
        ],
    )
    assert (result.prompts, result.prompt_answers) == (3, 0)
    assert (result.prompt_had, result.prompt_below) == (1, 1)


def test_a_hit_below_the_cut_an_earlier_answer_gave_is_not_below() -> None:
    now = Session("s2").say(0, "fix the parser").edit(4, "src/parser.py")
    parser = Served("project_fact", "module:parser", "m_parser", "The parser is `src/parser.py`.")
    result = score_session(
        now.facts(),
        History(),
        start(parser),
        [Injected(at(2), 0, (), "and the parser", near=((parser, "0.30 A project fact."),))],
    )
    assert (result.prompt_had, result.prompt_below) == (0, 0)


def test_a_hit_below_the_cut_the_session_did_not_use_is_not_below() -> None:
    now = Session("s2").say(0, "fix the parser").edit(4, "src/lexer.py")
    parser = Served("project_fact", "module:parser", "m_parser", "The parser is `src/parser.py`.")
    result = score_session(
        now.facts(),
        History(),
        start(tokens=0),
        [Injected(at(2), 0, (), "and the parser", near=((parser, "0.30 A project fact."),))],
    )
    assert (result.prompt_had, result.prompt_below) == (0, 0)
