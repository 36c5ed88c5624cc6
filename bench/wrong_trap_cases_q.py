"""Wrong-fact traps, the hosts' part: traps of the other parts written again as the other hosts
write their sessions (a Gemini CLI chat, an older Codex rollout's `shell` calls), so what a
rule states of a project does not depend on which host wrote the session
(`bench/wrong_traps.py` runs them). Each keeps its trap's `wrong` and `may` patterns whole.
"""

from __future__ import annotations

from dataclasses import replace

from bench.trap_transcripts import Trap
from bench.wrong_trap_cases import DJANGO_SIDE_STORE, PHOENIX_EXAMPLES
from bench.wrong_trap_cases_b import NO_DOCKER, NPM_TEST_FAILS, STALE_README
from bench.wrong_trap_cases_g import RUNNER_MOVED
from bench.wrong_trap_cases_h import REVERSED_INSTRUCTION
from bench.wrong_trap_cases_i import NEXTEST_MISSING, ONE_OFF_SKIP
from bench.wrong_trap_cases_l import CAUSE_TAKEN_BACK
from bench.wrong_trap_cases_n import FORCED_UPDATE_AS_BUILD, WIPE_AS_BUILD

#: The hosts each trap is written again for.
OTHER_HOSTS = ("gemini", "codex-shell")


def rehosted(trap: Trap, host: str) -> Trap:
    """`trap` with every session written as `host` writes it, named after both."""
    sessions = tuple(replace(session, host=host) for session in trap.sessions)
    return replace(trap, name=f"{trap.name}@{host}", sessions=sessions)


CASES = tuple(
    rehosted(trap, host)
    for trap in (
        DJANGO_SIDE_STORE,
        PHOENIX_EXAMPLES,
        NPM_TEST_FAILS,
        NO_DOCKER,
        STALE_README,
        RUNNER_MOVED,
        REVERSED_INSTRUCTION,
        ONE_OFF_SKIP,
        NEXTEST_MISSING,
        CAUSE_TAKEN_BACK,
        WIPE_AS_BUILD,
        FORCED_UPDATE_AS_BUILD,
    )
    for host in OTHER_HOSTS
)
