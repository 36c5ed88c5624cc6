"""The offline rules on each ecosystem's commands: recipes, the gate, and what fixed a failure.

One small session per shape and ecosystem (`command_matrix_data`): the checks and the tests run
and pass; a gate of every check fails on formatting, the formatter runs, the gate passes; a
command fails until one flag or argument changes; a command fails until one configuration line
changes; a task-runner alias passes. A senior engineer would note the commands as run, one gate
naming every check, one pitfall per root cause with the change that fixed it, no progress line
as an error, and the test command first thing in a session. Where a shape's evidence is too
thin for a rule, the rule says nothing rather than something wrong (the `SAID_LESS` sets name
them, so a rule that starts firing there is seen).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from squirrel_memory.episodes import segment_episodes
from squirrel_memory.extractors.pitfalls import first_error_line
from squirrel_memory.extractors.rules import RulesExtractor
from squirrel_memory.models import MemoryCandidate, MemoryType
from tests.unit.memory.command_matrix_data import TOOLCHAINS, Toolchain
from tests.unit.memory.session_builder import Session
from tests.unit.memory.test_ecosystem_traps import session_start_text

T0 = datetime(2026, 4, 6, 9, 0, tzinfo=UTC)
NOW = datetime(2026, 4, 8, tzinfo=UTC)
ROOT = "/home/dev/ledger"
IDS = [t.name for t in TOOLCHAINS]
WITH_CONFIG = [t for t in TOOLCHAINS if t.config is not None]

#: Shapes where the evidence is too thin and the rules say nothing (said less, never wrong).
#: A failing run that picked one suite or file, then another: other targets, not a fix.
VARIANT_SAID_LESS = {"erlang", "flutter", "swift", "dotnet"}
#: `zig build tests`, then `zig build test`: another step, another command. (`nix flake
#: check`, then `nix --extra-experimental-features … flake check`: the same check with an
#: option before its subcommand, the option named.)
VARIANT_SAID_LESS |= {"zig"}
#: A run that selected no test: the pitfall says the selection matched nothing (a selection
#: written another way that then ran tests is the fix instead, `v.word` named).
VARIANT_RAN_NOTHING: set[str] = set()
#: Tests failing, then passing after an edit: the work itself, not a lesson.
CONFIG_SAID_LESS = {"zig"}
#: The configuration fix and the formatting check are the same tool's: one memory per checker
#: (its findings merge), which then names only the formatter's fix (left as it is).
SAME_TOOL = {"scala"}
#: Checks run on named files only (`zig fmt --check src build.zig`): an example, no recipe.
FILE_PICKED = {"zig fmt --check src build.zig", "nixfmt --check flake.nix pkgs/ledger.nix"}


def _extracted(session: Session) -> list[MemoryCandidate]:
    found: list[MemoryCandidate] = []
    for episode in segment_episodes(session.events, now=NOW):
        found.extend(RulesExtractor().extract_sync(episode, session.events))
    return found


def _pitfalls(found: list[MemoryCandidate]) -> list[str]:
    return [c.content for c in found if c.type is MemoryType.PITFALL]


def _checks_session(t: Toolchain) -> Session:
    """A change, then every check and the tests, each passing with its tool's own output."""
    session = Session(ROOT, "s1", T0, test_runs=True)
    session.user("Fix the rounding in the books module, then run the checks and the tests.")
    session.edit(f"{ROOT}/{t.fmt_files[0]}", "fixed\n")
    for _, command, output in t.checks:
        session.run(command, 0, output)
    session.run(t.test, 0, t.test_ok)
    return session


def _gate(t: Toolchain) -> str:
    others = [command for _, command, _ in t.checks if command != t.fmt_check]
    return " && ".join([t.fmt_check, *others, t.test])


def _gate_session(t: Toolchain) -> Session:
    """A gate of every check fails on formatting; the formatter runs; the gate passes."""
    session = Session(ROOT, "s2", T0, test_runs=True)
    session.user("Run all the checks before we commit.")
    session.edit(f"{ROOT}/{t.fmt_files[0]}", "fixed\n")
    session.run(_gate(t), 1, t.fmt_fail)
    session.run(t.fmt_fix, 0, "")
    session.run(_gate(t), 0, t.test_ok)
    return session


@pytest.mark.parametrize("t", TOOLCHAINS, ids=IDS)
def test_the_test_command_and_each_check_are_recipes_as_run(t: Toolchain) -> None:
    found = _extracted(_checks_session(t))

    recipes = {c.key: c.content for c in found if c.type is MemoryType.RECIPE}
    # a gate task run for the tests (`nix flake check`) is said as the checks it is
    said = "the checks" if t.test.split()[-1] == "check" else "the tests"
    assert recipes.get("recipe:test") == f"To run {said}: `{t.test}`."
    for purpose, command, _ in t.checks:
        if command in FILE_PICKED:
            continue
        ran = [c for p, c, _ in t.checks if p == purpose]
        assert any(f"`{c}`" in recipes.get(f"recipe:{purpose}", "") for c in ran), (
            purpose,
            recipes,
        )
    assert _pitfalls(found) == []


@pytest.mark.parametrize("t", TOOLCHAINS, ids=IDS)
def test_a_failing_gate_then_its_pass_is_one_gate_and_one_pitfall(t: Toolchain) -> None:
    found = _extracted(_gate_session(t))

    (gate,) = [c.content for c in found if c.key == "recipe:verify"]
    for command in [t.fmt_check, *(c for _, c, _ in t.checks), t.test]:
        program = command.split()[0]
        assert f"`{program}" in gate, (command, gate)
    steps = re.findall(r"`([^`]+)`", gate)
    assert len(steps) == len(set(steps)), gate
    # One root cause, one pitfall: the formatting check, fixed by the formatter; not one per
    # check the gate runs, nor one per file.
    (pitfall,) = _pitfalls(found)
    assert f"`{t.fmt_check}` failed" in pitfall, pitfall
    assert f"running the formatter (`{t.fmt_fix}`) fixed it" in pitfall, pitfall
    assert "editing" not in pitfall
    assert "without" not in pitfall  # the check never passed without its flag


@pytest.mark.parametrize("t", TOOLCHAINS, ids=IDS)
def test_a_changed_flag_or_argument_is_the_fix(t: Toolchain) -> None:
    v = t.variant
    session = Session(ROOT, "s3", T0, test_runs=True)
    session.user("Get this command working.")
    session.run(v.failing, 1, v.output)
    session.run(v.passing, 0, t.test_ok)

    pitfalls = _pitfalls(_extracted(session))

    if t.name in VARIANT_SAID_LESS:
        assert pitfalls == []
        return
    (pitfall,) = pitfalls
    assert "editing" not in pitfall
    if t.name in VARIANT_RAN_NOTHING:
        assert "selects no test" in pitfall, pitfall
        return
    assert f"`{v.word}`" in pitfall, pitfall


@pytest.mark.parametrize("t", TOOLCHAINS, ids=IDS)
def test_the_same_command_passing_with_only_its_output_changed_is_no_fix(t: Toolchain) -> None:
    v = t.variant
    session = Session(ROOT, "s4", T0, test_runs=True)
    session.user("Get this command working.")
    session.run(v.failing, 1, v.output)
    session.run(f"{v.failing} -v", 0, t.test_ok)

    assert [p for p in _pitfalls(_extracted(session)) if "worked" in p] == []


@pytest.mark.parametrize("t", WITH_CONFIG, ids=[t.name for t in WITH_CONFIG])
def test_a_configuration_line_is_the_fix_not_the_file_the_error_names(t: Toolchain) -> None:
    c = t.config
    assert c is not None
    session = Session(ROOT, "s5", T0, test_runs=True)
    session.user("Make the check pass.")
    session.run(c.command, 1, c.output)
    session.edit_lines(c.path, c.old, c.new)
    session.run(c.command, 0, "")

    pitfalls = _pitfalls(_extracted(session))

    if t.name in CONFIG_SAID_LESS:
        assert pitfalls == []
        return
    (pitfall,) = pitfalls
    added = [line.strip() for line in c.new.splitlines() if line.strip() not in c.old]
    assert f"`{added[0]}`" in pitfall, pitfall
    assert f"in {c.path} fixed it" in pitfall, pitfall
    assert "editing" not in pitfall


@pytest.mark.parametrize("t", WITH_CONFIG, ids=[t.name for t in WITH_CONFIG])
def test_a_configuration_edit_after_which_it_still_fails_is_no_fix(t: Toolchain) -> None:
    c = t.config
    assert c is not None
    session = Session(ROOT, "s6", T0, test_runs=True)
    session.user("Make the check pass.")
    session.run(c.command, 1, c.output)
    session.edit_lines(c.path, c.old, c.new)
    session.run(c.command, 1, c.output)

    assert [p for p in _pitfalls(_extracted(session)) if "fixed it" in p] == []


@pytest.mark.parametrize("t", WITH_CONFIG, ids=[t.name for t in WITH_CONFIG])
def test_two_failures_fixed_two_ways_are_two_pitfalls(t: Toolchain) -> None:
    c = t.config
    assert c is not None
    if t.name in CONFIG_SAID_LESS or t.name in SAME_TOOL:
        pytest.skip("the configuration fix says nothing here, or shares the formatter's memory")
    session = Session(ROOT, "s7", T0, test_runs=True)
    session.user("Make the checks pass.")
    session.run(c.command, 1, c.output)
    session.edit_lines(c.path, c.old, c.new)
    session.run(c.command, 0, "")
    session.run(t.fmt_check, 1, t.fmt_fail)
    session.run(t.fmt_fix, 0, "")
    session.run(t.fmt_check, 0, "")

    pitfalls = _pitfalls(_extracted(session))

    assert len(pitfalls) == 2, pitfalls
    assert any(f"in {c.path} fixed it" in p for p in pitfalls)
    assert any("running the formatter" in p for p in pitfalls)


@pytest.mark.parametrize("t", TOOLCHAINS, ids=IDS)
def test_no_progress_line_is_an_error(t: Toolchain) -> None:
    for line in t.progress:
        assert first_error_line(line) == "", line
    failing = "\n".join(t.progress) + "\n" + t.variant.output
    assert first_error_line(failing) == first_error_line(t.variant.output)


@pytest.mark.parametrize("t", TOOLCHAINS, ids=IDS)
def test_a_failure_after_progress_lines_is_told_by_its_error(t: Toolchain) -> None:
    v = t.variant
    session = Session(ROOT, "s8", T0, test_runs=True)
    session.user("Get this command working.")
    session.run(v.failing, 1, "\n".join(t.progress) + "\n" + v.output)
    session.run(v.passing, 0, "\n".join(t.progress) + "\n")

    for pitfall in _pitfalls(_extracted(session)):
        for line in t.progress:
            assert f"`{line.strip()}`" not in pitfall, (line, pitfall)


@pytest.mark.parametrize("t", TOOLCHAINS, ids=IDS)
def test_passing_runs_that_print_progress_are_no_pitfall(t: Toolchain) -> None:
    session = Session(ROOT, "s9", T0, test_runs=True)
    session.user("Run the tests.")
    session.run(t.test, 0, "\n".join(t.progress) + "\n" + t.test_ok)
    session.run(t.test, 0, "\n".join(t.progress) + "\n" + t.test_ok)

    assert _pitfalls(_extracted(session)) == []


@pytest.mark.parametrize("t", TOOLCHAINS, ids=IDS)
def test_a_task_runner_alias_that_passed_after_a_change_is_a_recipe(t: Toolchain) -> None:
    session = Session(ROOT, "s10", T0, test_runs=True)
    session.user("Fix the rounding, then run the project's checks.")
    session.edit(f"{ROOT}/{t.fmt_files[0]}", "fixed\n")
    session.run(t.alias, 0, t.alias_ok)

    found = _extracted(session)

    assert any(f"`{t.alias}`" in c.content for c in found if c.type is MemoryType.RECIPE), found


@pytest.mark.parametrize("t", TOOLCHAINS, ids=IDS)
async def test_the_session_start_text_names_the_test_command(t: Toolchain) -> None:
    found = _extracted(_checks_session(t)) + _extracted(_gate_session(t))

    text = await session_start_text(found)

    assert f"`{t.test}`" in text, text


def test_the_matrix_spans_the_ecosystems_the_answer_key_lacks() -> None:
    names = {t.name for t in TOOLCHAINS}
    assert {"elixir", "erlang", "haskell", "ocaml", "zig", "dart", "flutter", "perl"} <= names
    assert {"nix", "scala", "kotlin", "clojure", "swift", "dotnet", "php"} <= names
    assert {"python", "javascript"} <= names  # the controls
