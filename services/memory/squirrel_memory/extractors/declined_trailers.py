"""A commit trailer the user would not have: declined with the commit, gone from the one made.

When the user declines a `git commit` call whose message ends in a trailer (`Co-Authored-By:`,
`Signed-off-by:` …) and the next commit that goes through carries no such trailer, the user's
way of committing is known without a word said: commits here go without it. Only the trailers
every declined commit before it carried count (a decline may be about the subject, the body
or the files), only a decline by the user (not a failed commit: a hook or an empty index is no
preference), and only commits made at the project (not with `-C` elsewhere). A commit declined
and never made again says nothing: the user may have given up on committing at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_memory.extractors.activity import commands
from squirrel_memory.extractors.evidence import attempts
from squirrel_memory.extractors.session_commits import commit_message
from squirrel_memory.models import StoredEvent

#: Importance of the style note: an instruction shown by a decline, not said once in passing.
IMPORTANCE = 0.7
KEY_PREFIX = "commit:no-trailer:"

#: A git trailer line: a token (letters, digits, hyphens), a colon, a value (`Refs: #12`).
_TRAILER = re.compile(r"^(?P<key>[A-Za-z0-9][A-Za-z0-9-]*):\s+\S")
#: A trailer worth a note has a hyphenated key (`Co-Authored-By`, `Signed-off-by`).
_NOTED_KEY = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)+")
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
#: How Claude Code words a call the user declined (the call did not run).
_DECLINED = re.compile(r"doesn't want to proceed with this tool use", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class DroppedTrailer:
    """One trailer the user declined: the memory's key, its sentence and the events behind it."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def trailers(message: str) -> dict[str, str]:
    """The hyphenated trailer keys of a commit message, lower-cased, with their spelling as
    written. As git reads them, trailers are the message's last paragraph (never its subject)
    when every line of it is `Token: value` or continues the line above (indented); a
    `Follow-up: …` line in the body, or in a last paragraph of prose, is no trailer."""
    paragraphs = _PARAGRAPH_BREAK.split(message.strip())
    if len(paragraphs) < 2:
        return {}
    found: dict[str, str] = {}
    for n, line in enumerate(paragraphs[-1].splitlines()):
        if n and line[:1] in (" ", "\t"):
            continue
        match = _TRAILER.match(line.strip())
        if match is None:
            return {}
        key = match.group("key")
        if _NOTED_KEY.fullmatch(key):
            found.setdefault(key.lower(), key)
    return found


def declined_trailers(events: list[StoredEvent]) -> list[DroppedTrailer]:
    """The trailers the user declined in `events` and the next commit made left out."""
    if not events:
        return []
    declined: list[tuple[dict[str, str], str]] = []
    found: dict[str, DroppedTrailer] = {}
    for attempt in attempts(commands(events), events[0].project_id):
        if attempt.scope.startswith(("/", "~", "..")):
            continue
        message = commit_message(attempt.tokens)
        if message is None:
            continue
        run = attempt.run
        if run.ok is None and _DECLINED.search(run.output[:2_000]):
            declined.append((trailers(message), run.event_id))
            continue
        if run.ok is not True:
            continue
        if declined:
            shared = set.intersection(*(set(keys) for keys, _ in declined))
            for name in sorted(shared - set(trailers(message))):
                spelled = declined[-1][0][name]
                ids = (*(event_id for _, event_id in declined), run.event_id)
                found.setdefault(
                    name,
                    DroppedTrailer(
                        KEY_PREFIX + name,
                        f"Commits here carry no `{spelled}` trailer: the user declined the "
                        f"commit whose message had one, and it was made without it.",
                        ids,
                    ),
                )
        declined = []
    return list(found.values())
