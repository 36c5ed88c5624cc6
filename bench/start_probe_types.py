"""A made-up project of the session-start probe (`bench/start_probe_set.py`) and the steps of
its sessions."""

from __future__ import annotations

from dataclasses import dataclass

# One step of a session: ("user", text), ("say", text), ("read", path, text),
# ("edit", path), ("bash", command, exit code, output).
Step = tuple[str, ...] | tuple[str, str, int, str]


@dataclass(frozen=True)
class Probe:
    """One made-up project: its sessions and what its start text must say."""

    name: str
    ecosystem: str
    shape: str  # how its sessions run the tests, and how the user states the preference
    folder: str  # the project's folder on the made-up machine
    sessions: tuple[tuple[Step, ...], ...]
    test: str  # the test command, as a regular expression over a commands line ("": none)
    preference: str  # the top preference, as a regular expression over a style line
    test_caveat: bool = False
    not_test: str = ""  # a regular expression no commands line may state as the test command
    repeated: bool = False  # the user said the preference in more than one session
    not_pref: str = ""  # a regular expression no style line may match (a task, not a rule)
