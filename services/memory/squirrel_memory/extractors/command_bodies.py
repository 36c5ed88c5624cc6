"""A user turn shaped like a command file's body: the host's expansion, not the user's habits.

Some hosts expand a custom command into the user's turn and leave no mark of it (a Codex CLI
custom prompt whose file is not at hand). Such a body is a document written to the assistant:
long, with several markdown headings, a numbered procedure and the assistant's role spelled out
("You are …", "Your task is …"). Its lines are that command's instructions for that run, never
the user's style; what a user types, a heading or two included, is not shaped like that.
"""

from __future__ import annotations

import re

#: Shorter than this, a turn is what someone typed, however it is laid out.
MIN_BODY_CHARS = 1_500
_HEADING = re.compile(r"^#{1,6}[ \t]+\S", re.MULTILINE)
_STEP = re.compile(r"^[ \t]*\d{1,2}[.)][ \t]+\S", re.MULTILINE)
_ROLE = re.compile(
    r"^[ \t]*(?:you are|you're|your (?:job|task|role|goal) is)\b", re.IGNORECASE | re.MULTILINE
)


def reads_as_command_body(text: str) -> bool:
    """True when `text` has every mark of an expanded command file: long, two or more
    headings, three or more numbered steps and a line that tells the assistant its role."""
    return (
        len(text) >= MIN_BODY_CHARS
        and len(_HEADING.findall(text)) >= 2
        and len(_STEP.findall(text)) >= 3
        and _ROLE.search(text) is not None
    )
