"""The tools that hand work to a subagent, and the tool a subagent hands its report back with.

A call of a `SUBAGENT_TOOLS` tool carries the subagent's brief (its `prompt`) and its result is
the subagent's report; a call of `HANDBACK_TOOL` is a subagent handing its report to the agent
that launched it. Ingest keeps such a report head and tail (its conclusion is at its end); the
extractors read briefs and reports by these names.
"""

from __future__ import annotations

from typing import Final

#: Tools that launch a subagent: the call's input is its brief, the result its report.
SUBAGENT_TOOLS: Final = frozenset({"Agent", "Task"})
#: The tool a subagent hands its report back with.
HANDBACK_TOOL: Final = "SubagentHandback"
