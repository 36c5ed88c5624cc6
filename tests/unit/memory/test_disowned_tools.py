"""A tool the user says the project does not use is not stated as how it works
(`extractors/disowned_tools.py`), in any ecosystem; without the user's word, or with only the
assistant's, the files still say it."""

from __future__ import annotations

from datetime import UTC, datetime

from session_builder import Session

from squirrel_memory.extractors.command_evidence import evidence_candidates
from squirrel_memory.extractors.disowned_tools import (
    disowned_since,
    disowned_tools,
    instructs_disowned,
    states_disowned,
)
from squirrel_memory.models import MemoryType

START = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
COMPOSE = "services:\n  app:\n    build: .\n  db:\n    image: mysql:8\n"
MAKEFILE = "build:\n\tgo build ./...\n\nlint:\n\tgolangci-lint run\n"


def _stated(root: str, reads: list[tuple[str, str]], said: str, by_user: bool) -> list[str]:
    s = Session(root, "s1", START)
    s.user("Get it running.")
    for path, text in reads:
        s.read(path, text)
    if by_user:
        s.user(said)
    else:
        s.say(said)
    return [c.content for c in s.extracted()]


def test_a_compose_file_the_user_disowned_is_not_stated() -> None:
    reads = [("docker-compose.yml", COMPOSE)]
    said = "No, we don't use Docker here. Run it locally."
    assert not any("Docker Compose" in c for c in _stated("/home/u/clinic", reads, said, True))
    assert any("Docker Compose" in c for c in _stated("/home/u/clinic", reads, said, False))
    assert any("Docker Compose" in c for c in _stated("/home/u/clinic", reads, "Go on.", True))


def test_a_task_runner_the_user_disowned_is_not_stated_in_another_ecosystem() -> None:
    reads = [("go.mod", "module example.com/billing\n\ngo 1.22\n"), ("Makefile", MAKEFILE)]
    said = "We never use make, call the go tool directly."
    assert not any("`make build`" in c for c in _stated("/home/u/billing", reads, said, True))
    assert any("`make build`" in c for c in _stated("/home/u/billing", reads, "Thanks.", True))


def test_only_a_tool_after_the_negation_counts() -> None:
    s = Session("/home/u/kit", "s1", START)
    s.user("don't use yarn, that lockfile is stale. Do not use the cache either.")
    s.user("I don't think we need Docker.")
    s.user("We don't use Yarn workspaces, and we never use Lerna here.")
    assert disowned_tools(s.events) == {"yarn", "lerna"}


def test_a_tool_whose_use_ended_is_disowned_with_when_it_was_said() -> None:
    s = Session("/home/u/kit", "s1", START)
    s.user("We stopped using beads last week, the issues all live on GitHub now.")
    s.user("I quit using Docker. We moved off Jenkins a while ago.")
    s.user("We dropped Yarn workspaces.")  # a feature of a tool, not the tool
    since = disowned_since(s.events)
    assert set(since) == {"beads", "docker", "jenkins"}
    assert since["beads"] == s.events[0].timestamp
    fact = "Work is tracked in beads (`bd`): the sessions ran `bd ready`."
    assert states_disowned(MemoryType.PROJECT_FACT, fact, {"beads"})
    assert not states_disowned(MemoryType.USER_STYLE, fact, {"beads"})
    assert not states_disowned(
        MemoryType.PROJECT_FACT, "Issues are on GitHub, not beads.", {"beads"}
    )


def test_an_instruction_to_stop_running_a_tool_disowns_it_but_not_a_task() -> None:
    s = Session("/home/u/kit", "s1", START)
    s.run("black src", 0, "All done! ✨ 🍰 ✨\n3 files left unchanged.\n")
    s.user("Stop running black on my files, it fights the generated code.")
    s.user("Please stop running tests. Stop using the cache too.")
    # When or how often, not whether: the tool is still the project's.
    s.user("Stop running pytest on every save. Stop running mypy until the stubs land.")
    assert disowned_tools(s.events) == {"black"}


def test_a_program_only_the_disowned_tool_runs_is_disowned_with_it() -> None:
    readme = "README.md, under Development, gives: `lein deps`; `lein test`."
    assert states_disowned(MemoryType.RECIPE, readme, {"leiningen"})
    # `gradle` runs other tools' tasks too (`gradle ktlintFormat`): disowning one leaves it.
    assert not states_disowned(MemoryType.RECIPE, "To run the tests: `gradle test`.", {"ktlint"})


def _styles(*said: str) -> list[str]:
    s = Session("/home/u/kit", "s1", START)
    s.user("Add the export endpoint.")
    for text in said:
        s.say("Done.")
        s.user(text)
    return [c.content for c in s.extracted() if c.type is MemoryType.USER_STYLE]


def test_an_instruction_to_use_a_tool_goes_when_the_user_stops_it_later() -> None:
    always = "Always run black on the files you touch before you finish."
    stop = "Stop running black on my files, it fights the generated code."
    assert any("Always run black" in c for c in _styles(always))
    assert not any("Always run black" in c for c in _styles(always, stop))
    # Said again after the stop, the instruction stands.
    assert any("Always run black" in c for c in _styles(stop, always))


def test_an_instruction_that_turns_the_tool_down_is_no_instruction_to_use_it() -> None:
    assert instructs_disowned(MemoryType.USER_STYLE, "Always run black first.", {"black"})
    assert not instructs_disowned(
        MemoryType.USER_STYLE, "Never run black on generated files.", {"black"}
    )
    assert not instructs_disowned(
        MemoryType.USER_STYLE, "Stop running black on my files.", {"black"}
    )
    assert not instructs_disowned(MemoryType.RECIPE, "Always run black first.", {"black"})


def _taken_back(command: str, said: str) -> set[str]:
    s = Session("/home/u/voxels", "s1", START)
    s.run(command, 0, "-- Build files have been written to: /home/u/voxels/build\n")
    s.say("Rebuilds now go through the cache.")
    s.user(said)
    return disowned_tools(s.events)


def test_a_change_taken_back_for_what_a_tool_breaks_disowns_that_tool() -> None:
    # C++: the launcher given as an option's value
    launcher = "cmake -S . -B build -DCMAKE_CXX_COMPILER_LAUNCHER=quuxcache"
    said = "Hmm, no, revert that. quuxcache breaks our coverage builds, we tried it last year."
    assert _taken_back(launcher, said) == {"quuxcache"}
    # Node: the tool the command ran
    assert _taken_back("zorkpack --watch", "Undo it, zorkpack doesn't work with our proxy.") == {
        "zorkpack"
    }


def test_no_tool_is_disowned_by_a_thing_a_task_or_a_name_no_command_gave() -> None:
    launcher = "cmake -S . -B build -DCMAKE_CXX_COMPILER_LAUNCHER=quuxcache"
    # no change taken back: a report, not a reason
    assert _taken_back(launcher, "quuxcache breaks our coverage builds sometimes.") == set()
    # a thing of the project, a task's word, a pronoun
    assert _taken_back(launcher, "Revert that, the build breaks on CI.") == set()
    assert _taken_back(launcher, "Revert that, build breaks on CI.") == set()
    assert _taken_back(launcher, "Revert that, it breaks the coverage job.") == set()
    # a tool no command ran or was given
    assert _taken_back(launcher, "Revert that, zorkcache breaks our builds.") == set()


def test_runs_naming_a_disowned_tool_are_left_out_of_the_recipes_not_the_others() -> None:
    s = Session("/home/u/voxels", "s1", START)
    s.user("Make rebuilds faster.")
    s.run("cmake -S . -B build -G Ninja -DCMAKE_CXX_COMPILER_LAUNCHER=quuxcache", 0, "done\n")
    s.run("cmake --build build", 0, "[214/214] Linking CXX executable app\n")
    s.say("The compiler launcher is set.")
    s.user("No, revert that. quuxcache breaks our coverage builds.")
    s.run("rm -rf build && cmake -S . -B build -G Ninja", 0, "done\n")
    s.run("cmake --build build", 0, "[214/214] Linking CXX executable app\n")
    s.say("Back to the plain configure.")

    recipes = [c.content for c in evidence_candidates(s.events) if c.type is MemoryType.RECIPE]

    assert not any("quuxcache" in r for r in recipes)
    assert any(
        "`cmake --build build`" in r and "`cmake -S . -B build -G Ninja`" in r for r in recipes
    )
