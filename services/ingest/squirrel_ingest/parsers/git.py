"""Git history parser: commit events from the output of `git log` run with `GIT_LOG_ARGS`."""

from __future__ import annotations

import re
from collections import Counter

from squirrel_core.events import Event, EventType, SourceTool
from squirrel_core.timestamps import parse_timestamp
from squirrel_ingest.parsers.kept_values import cap_text

_RECORD = "\x1e"
_FIELD = "\x1f"
#: Most changed files kept on one commit event.
FILES_LIMIT = 500
_SHA = re.compile(r"^[0-9a-f]{7,64}$")

#: Arguments after `git -C <repo_root>`; append a revision range such as `<last_sha>..HEAD`.
#: Each commit is `RS sha US author-date US author US email US message US` then its file names.
GIT_LOG_ARGS: tuple[str, ...] = (
    "-c",
    "core.quotePath=false",
    "log",
    "--no-color",
    "--name-only",
    "--no-renames",
    "--format=%x1e%H%x1f%aI%x1f%an%x1f%ae%x1f%B%x1f",
)


def parse_git_log(
    output: str, repo_root: str, *, skipped: Counter[str] | None = None
) -> list[Event]:
    """One `commit` event per commit in `output`: sha, message, author and files changed.

    Malformed records are counted in `skipped` (when given) and left out; this never raises.
    """
    counter = skipped if skipped is not None else Counter()
    events: list[Event] = []
    for chunk in output.split(_RECORD):
        if not chunk.strip():
            continue
        fields = chunk.split(_FIELD, 5)
        if len(fields) != 6:
            counter["malformed_commit"] += 1
            continue
        sha, date, author, email, message, rest = fields
        sha = sha.strip()
        timestamp = parse_timestamp(date.strip())
        if not _SHA.match(sha):
            counter["malformed_commit"] += 1
            continue
        if timestamp is None:
            counter["missing_timestamp"] += 1
            continue
        files = list(dict.fromkeys(line for line in rest.splitlines() if line.strip()))[
            :FILES_LIMIT
        ]
        author_text = f"{author.strip()} <{email.strip()}>" if email.strip() else author.strip()
        events.append(
            Event(
                source_tool=SourceTool.GIT,
                event_type=EventType.COMMIT,
                timestamp=timestamp,
                content={
                    "sha": sha,
                    "message": cap_text(message.strip()),
                    "author": author_text,
                    "files_changed": files,
                },
                cwd=repo_root,
                file_paths=tuple(files),
            )
        )
    return events
