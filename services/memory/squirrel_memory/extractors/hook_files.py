"""Files a hook printed into the session: a start-of-session hook that shows the project's
instruction file or README, each file under a line that names it.

Hooks that give the assistant the project's context at the start often print files whole or in
part, each after a line of its own that names the file between runs of rule characters
(`--- Content from CLAUDE.md ---`, `=== AGENTS.md ===`, `==> README.md <==` as `head` prints
several files). The text under such a line, up to the next line of that shape (a file or a
section of the hook's own: `--- Open issues ---`) or the end of the hook's output, is the file's
as the hook showed it. Hooks often keep only each file's first characters, and nothing says
whether they did, so the text is taken as a partial read is: up to its last blank line, never a
paragraph or sentence the cut may have ended early.

Only a hook's own output counts (`Origin.HOOK`): the same lines typed or pasted by the user are
another repository's as often as this one's. Which file is the project's (its root, a
sub-folder, the user's home folder, another checkout) is decided from the path by the reader, as
for a file read with a tool.
"""

from __future__ import annotations

import re

from squirrel_core.events import EventType, Origin
from squirrel_memory.models import StoredEvent

#: Runs of rule characters around a naming line: `---`, `===`, `###`, `***`, `==>`/`<==`.
_RULE_OPEN = r"(?:-{3,}|={3,}|#{3,}|\*{3,}|==>)"
_RULE_CLOSE = r"(?:-{3,}|={3,}|#{3,}|\*{3,}|<==)"
#: A line that names a file between rules: `--- Content from CLAUDE.md ---`, `==> x <==`.
_NAMING = re.compile(
    rf"^[ \t]*{_RULE_OPEN}[ \t]+(?:(?:the[ \t]+)?contents?[ \t]+(?:of|from)[ \t]+|file:?[ \t]+)?"
    r"`?(?P<path>[^\s`<>|]+\.[A-Za-z][\w-]{0,9})`?:?"
    rf"[ \t]+{_RULE_CLOSE}[ \t]*$",
    re.IGNORECASE,
)
#: Any line of that shape, a file's or a section's of the hook's own (`--- Open issues ---`):
#: where the text under a naming line ends.
_SECTION = re.compile(rf"^[ \t]*{_RULE_OPEN}[ \t]+\S.*?[ \t]+{_RULE_CLOSE}[ \t]*$")
#: Longest hook output looked at (characters).
MAX_HOOK_CHARS = 100_000
#: Longest line that may name a file or a section (characters): a longer one is text.
MAX_NAMING_CHARS = 300


def hook_file_texts(event: StoredEvent) -> list[tuple[str, str]]:
    """(file as the hook named it, the text it printed up to its last blank line) for each file a
    hook's output shows under a line naming it (`_NAMING`); empty for any other event."""
    text = event.content.get("text")
    if (
        event.event_type != EventType.USER_MESSAGE
        or event.origin != str(Origin.HOOK)
        or not isinstance(text, str)
    ):
        return []
    found: list[tuple[str, str]] = []
    path: str | None = None
    lines: list[str] = []
    for line in [*text[:MAX_HOOK_CHARS].splitlines(), None]:
        if line is not None and (len(line) > MAX_NAMING_CHARS or not _SECTION.match(line)):
            lines.append(line)
            continue
        if path is not None:
            shown = _to_last_blank(lines)
            if shown.strip():
                found.append((path, shown))
        named = _NAMING.match(line) if line is not None else None
        path = named["path"] if named else None
        lines = []
    return found


def _to_last_blank(lines: list[str]) -> str:
    """The lines up to the last blank one among them (without leading blank lines): what a cut
    cannot have ended early."""
    while lines and not lines[0].strip():
        lines = lines[1:]
    blank = max((i for i, line in enumerate(lines) if not line.strip()), default=0)
    return "\n".join(lines[:blank])
