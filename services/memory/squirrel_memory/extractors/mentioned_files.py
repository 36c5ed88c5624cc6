"""The project's files the user pointed the assistant at with an `@` mention.

Assistants let the user attach a file by writing its path after an `@` (`@src/app/page.tsx -
rename the prop here`); some hosts read it in for the assistant, others only pass the text on.
Either way the user named a file of the project the session works on, and it counts as a file
the session touched, as evidence of the project's language. The rule is the same for every
ecosystem:

- only the user's own messages count (not a relayed or pasted text, nor the assistant's);
- the `@` opens the message or follows a space or an opening bracket or quote (an e-mail
  address, `user@host.py`, is no mention);
- the path is relative to the project's root, or an absolute path inside it, and has a file
  suffix (an `@scope/package` or `@alice` has none); `../`, `~` and paths outside the project,
  and dependency, environment and build folders, are not the project's (`manifests.in_project`).
"""

from __future__ import annotations

import posixpath
import re

from squirrel_core.events import EventType, is_user_voice
from squirrel_memory.extractors.activity import relative_path
from squirrel_memory.extractors.manifests import in_project
from squirrel_memory.models import StoredEvent

#: An `@` mention of a path with a suffix, at the start of the text or after a space, an
#: opening bracket or a quote; trailing punctuation of the sentence is not part of the path.
_MENTION = re.compile(
    r"(?:^|(?<=[\s(\[\"'`]))@((?:/|\./)?(?:[\w.+-]+/)*[\w+-][\w.+-]*\.[A-Za-z][A-Za-z0-9]{0,9})"
    r"(?![\w/-])"
)


def mentioned_paths(events: list[StoredEvent]) -> list[tuple[str, str]]:
    """(project-relative path, event id) of every project file a user's message `@`-mentions
    (module docstring), in the order mentioned."""
    found: list[tuple[str, str]] = []
    for event in events:
        if event.event_type != EventType.USER_MESSAGE or not is_user_voice(event.origin):
            continue
        text = event.content.get("text")
        if not isinstance(text, str):
            continue
        for match in _MENTION.finditer(text):
            raw = match.group(1).rstrip(".")
            rel = posixpath.normpath(relative_path(raw, event.project_id))
            if rel.startswith(("..", "/", "~")) or not in_project(rel):
                continue
            found.append((rel, event.id))
    return found
