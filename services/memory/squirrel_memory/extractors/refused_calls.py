"""A call the host or the user refused, so it never ran: a permission prompt declined, the
host's auto-mode classifier or folder guard, a sandbox's denial."""

from __future__ import annotations

import re

from squirrel_memory.extractors.evidence import Attempt

#: How a coding agent's host says it refused a call, which then did not run (Claude Code's
#: permission classifier and declined prompts, its folder guard; Codex's rejected or
#: sandbox-denied commands).
_HOST_REFUSED = (
    r"permission for this action (?:was|has been) denied"
    r"|was blocked\. For security,"
    r"|\b(?:command|request|exec\w*) (?:was )?denied by (?:the )?sandbox"
    r"|\bsandbox denied\b"
)
_REFUSED = re.compile(
    _HOST_REFUSED + r"|doesn't want to proceed with this tool use"
    r"|\b(?:command|request|exec\w*) (?:was )?rejected by (?:the )?user",
    re.IGNORECASE,
)
#: The host's own refusal (a policy of where the agent runs, not one answer of the user's).
_BY_HOST = re.compile(_HOST_REFUSED, re.IGNORECASE)
_REFUSAL_SCAN_CHARS = 600


def refused(failed: Attempt) -> bool:
    """Whether the host or the user refused the call, so it never ran."""
    return bool(_REFUSED.search(failed.run.output[:_REFUSAL_SCAN_CHARS]))


def refused_by_host(failed: Attempt) -> bool:
    """Whether the host's policy refused the call (a lesson by itself, fixed or not)."""
    return host_refused(failed.run.output)


def host_refused(output: str) -> bool:
    """Whether a call's output is the host's refusal of it: the whole call never ran."""
    return bool(_BY_HOST.search(output[:_REFUSAL_SCAN_CHARS]))
