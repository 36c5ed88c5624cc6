"""What only a subagent's report says, which a session start does not state.

A subagent searches in a context window of its own and hands back a report; the memories read
from it say so ("Project: Subagent report: …", "A subagent's report says: to run the tests, …",
"A subagent reported passing: …", "Versions a subagent reported reading in the project's build:
…", "Found by a subagent reading the code: …"). The report is another agent's word: it may
describe a sibling checkout the subagent wandered into, a folder outside the project, or a state
the session's own run then contradicted, and nothing in the session checked it. A session start
is read as what holds in the repository before the user says anything, so it leaves such lines
out: the facts, the pitfalls, a statement standing in for the test command, and the fallback
shown when nothing else is known (a start says less, or nothing, rather than a claim no one
checked). A command a report gives is still shown among the commands, as the report's word
("A subagent's report says: …"): the memory rules drop one whose command the session's own
run then failed (`contradicted_reports`) or whose subagent worked outside the project. What the
session's own run or read confirms is stated by the memory of that run or read (the command it
ran, the file it read), not by the report's. The report's memories stay in the brief view, in
search and in the per-prompt context, which say who said them. A brief to a subagent ("A
subagent's brief says: …") is the session's own agent's word and is not such a line.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["only_reported"]

#: The wording of the memories a subagent's report gives, as each rule writes it: a statement
#: (`report_statements`: "Subagent report (<label>): …", after the brief's label), the commands
#: (`delegated_commands`: "A subagent's report says: …", "A subagent reported passing: …"), the
#: toolchain (`reported_versions`) and a problem found (`subagent_findings`). A fact about
#: reports ("Agents: Subagent report templates live in `prompts/`.") is none of them.
_REPORTED: Final = re.compile(
    r"^(?:-\s+)?(?:[^:`]{1,40}:\s*)?(?:subagent report(?: \([^)]*\))?:\s|"
    r"found by a subagent reading the code\b)|"
    r"\ba subagent(?:'s|’s) report says:\s|\ba subagent reported passing:\s|"
    r"\bversions a subagent reported reading\b",
    re.IGNORECASE,
)


def only_reported(text: str) -> bool:
    """Whether `text` (a memory's content or a line rendered from it) is what a subagent's
    report says, by the wording every such memory carries."""
    return _REPORTED.search(text) is not None
