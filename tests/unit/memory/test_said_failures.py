"""A run whose cut output kept no error line failed when the next reply says its program was
blocked; an environment made on the passing line is the fix; a tool installed by name is no
package manager of the project."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from squirrel_memory.extractors.activity import CommandRun, commands
from squirrel_memory.extractors.evidence.piped_runs import said_failed, with_piped_outcomes
from squirrel_memory.extractors.pitfalls import first_line
from squirrel_memory.extractors.script_steps import changed_steps, made_environment
from squirrel_memory.models import MemoryType
from tests.unit.memory.session_builder import Session, clocked_stores, rules_processor

T0 = datetime(2026, 4, 1, 19, 0, tzinfo=UTC)
ROOT = "/home/dev/grower"
#: What `pip3 install x 2>&1 | tail -5` keeps of an externally managed Python's refusal.
REFUSED_TAIL = (
    "    Read more about this behavior here: <https://peps.python.org/pep-0668/>\n\n"
    "note: If you believe this is a mistake, please contact your Python installation or OS "
    "distribution provider. You can override this, at the risk of breaking your Python "
    "installation or OS, by passing --break-system-packages.\n"
    "hint: See PEP 668 for the detailed specification.\n"
)
VENV_LINE = f"python3 -m venv {ROOT}/.venv && {ROOT}/.venv/bin/pip install esptool 2>&1 | tail -3"


def _run(command: str, ok: bool | None = True) -> CommandRun:
    return CommandRun("e1", T0, command, ok, REFUSED_TAIL)


def _blocked(
    reply: str = "Firmware downloaded. pip3 is blocked by macOS PEP 668.", root: str = ROOT
) -> Session:
    session = Session(root, "s1", T0)
    session.user("the board is plugged in, set up the flasher")
    session.run("pip3 install esptool 2>&1 | tail -5", 0, REFUSED_TAIL)
    session.run(
        f"mkdir -p {root}/firmware && curl -L -o {root}/firmware/fw.bin https://example.com/fw.bin",
        0,
        "100 1620k",
    )
    session.say(reply)
    venv = VENV_LINE.replace(ROOT, root)
    session.run(venv, 0, "[notice] A new release of pip is available: 26.0 -> 26.0.1\n")
    session.run(f"{root}/.venv/bin/esptool version", 0, "esptool v5.2.0\n5.2.0\n")
    return session


def test_a_reply_that_says_the_piped_program_was_blocked_makes_the_run_a_failure() -> None:
    assert said_failed(_run("pip3 install esptool 2>&1 | tail -5"), "pip3 is blocked by PEP 668.")
    assert said_failed(_run("npm ci | tail -3"), "Looks like `npm ci` failed on the lockfile.")
    session = _blocked()
    runs = with_piped_outcomes(commands(session.events), session.events)
    assert runs[0].ok is False


def test_a_supposed_failure_another_program_or_no_reply_leaves_the_pass() -> None:
    run = _run("pip3 install esptool 2>&1 | tail -5")
    assert not said_failed(run, "If pip3 is blocked, we can use a virtual environment.")
    assert not said_failed(run, "The download failed once; pip3 installed esptool fine.")
    assert not said_failed(run, "curl failed to fetch the image.")
    assert not said_failed(run, "")
    session = _blocked("Firmware downloaded. Next, the backup.")
    runs = with_piped_outcomes(commands(session.events), session.events)
    assert runs[0].ok is True


def test_without_a_pipe_the_exit_status_stands_whatever_the_reply_says() -> None:
    session = Session(ROOT, "s1", T0)
    session.run("pip3 install esptool", 0, "Successfully installed esptool-5.2.0\n")
    session.say("pip3 failed to warn about the old setuptools.")
    assert [r.ok for r in with_piped_outcomes(commands(session.events), session.events)] == [True]


def test_the_line_that_made_an_environment_and_ran_from_it_is_the_fix() -> None:
    found = [c.content for c in _blocked().extracted() if c.type == MemoryType.PITFALL]
    assert len(found) == 1
    assert "`pip3 install esptool` failed" in found[0]
    assert "pip3 is blocked by macOS PEP 668" in found[0]
    assert (
        "re-running it as `python3 -m venv .venv && .venv/bin/pip install esptool` worked"
        in found[0]
    )
    assert "curl" not in found[0]


def test_an_environment_made_and_used_is_one_change_of_the_line() -> None:
    assert made_environment(VENV_LINE, "pip")
    assert not made_environment(f"mkdir out && {ROOT}/.venv/bin/pip install esptool", "pip")
    assert not made_environment("python3 -m venv .venv && pip install esptool", "pip")
    assert (
        changed_steps(
            "pip3 install esptool", "python3 -m venv .venv && .venv/bin/pip install esptool"
        )
        == 1
    )
    assert changed_steps("pip3 install esptool", "python3 -m venv .venv && pip install ruff") == 2


def test_a_line_that_only_points_elsewhere_is_not_what_failed() -> None:
    assert first_line(REFUSED_TAIL).startswith("note: If you believe this is a mistake")
    assert first_line("For more information, see https://x.dev/e\nerr 7: disk full\n") == (
        "err 7: disk full"
    )
    assert first_line("https://x.dev/e\nlink down\n") == "link down"


def test_tools_installed_by_name_are_no_package_manager_of_the_project() -> None:
    facts = [c.content for c in _blocked().extracted() if c.key == "package_manager"]
    assert facts == []
    session = Session(ROOT, "s1", T0)
    session.user("set up the app")
    session.run("pip install -r requirements.txt", 0, "Successfully installed flask-3.0\n")
    session.run("pip install -e .", 0, "Successfully installed app-0.1\n")
    facts = [c.content for c in session.extracted() if c.key == "package_manager"]
    assert facts == ["Commands in this project run through pip, its package manager."]


async def test_the_project_pass_reads_the_reply_that_said_the_piped_run_failed(
    tmp_path: Path,
) -> None:
    now = T0 + timedelta(days=1)
    async with clocked_stores(tmp_path, now) as (store, users):
        root = store.project_id
        await store.append_events(root, "u", _blocked(root=root).ingested(), [])
        await rules_processor(store, users, now).drain(store)
        items, _ = await store.list_memories(root, types=[MemoryType.PITFALL])

        assert len(items) == 1
        assert "`pip3 install esptool` failed" in items[0].content
        assert ".venv/bin/pip install esptool` worked" in items[0].content


def test_a_reply_that_says_a_pass_beside_a_failure_or_a_passing_summary_leaves_the_pass() -> None:
    run = CommandRun("e1", T0, "npm test 2>&1 | tail -5", True, "Tests: 12 passed, 12 total\n")
    assert not said_failed(run, "npm test failed once on CI before this.")
    other = CommandRun("e1", T0, "npm test 2>&1 | tail -5", True, "> app@1.0.0 test\n")
    assert not said_failed(other, "npm test passed; the earlier npm install failed.")
    assert said_failed(other, "npm test failed: the config is missing.")
