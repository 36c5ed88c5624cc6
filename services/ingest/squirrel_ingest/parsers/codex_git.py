"""The repository a Codex session ran in, from the `git` block of its `session_meta`.

Codex records, when a session opens in a git working copy, the repository's remote URL, the
branch and the commit checked out (`{"git": {"repository_url": …, "branch": …, "commit_hash":
…}}`). That is the host's own record of where the work is hosted, so it becomes one
`session_repository` event. A URL can carry credentials (`https://user:token@host/…`); they are
removed here, before the event leaves the parser.
"""

from __future__ import annotations

import re
from typing import Any

from squirrel_ingest.parsers.base import str_or_none

MAX_URL_CHARS = 2_000
#: `scheme://user:password@` or `scheme://token@`: the credentials part of a URL.
_CREDENTIALS = re.compile(r"^(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)[^@/\s]*@")


def without_credentials(url: str) -> str:
    """`url` without a user name or password before its host (`https://x:tok@h/p` → `https://h/p`).

    An scp-like ssh address (`git@github.com:o/r.git`) keeps its user: `git` is the ssh login
    every forge uses, not a secret."""
    return _CREDENTIALS.sub(r"\g<scheme>", url.strip(), count=1)


def session_repository(payload: dict[str, Any]) -> dict[str, str] | None:
    """The content of a `session_repository` event for a `session_meta` payload, or None when
    it names no repository URL."""
    git = payload.get("git")
    if not isinstance(git, dict):
        return None
    url = str_or_none(git.get("repository_url"))
    if url is None or len(url) > MAX_URL_CHARS or any(c.isspace() for c in url.strip()):
        return None
    content = {"repository_url": without_credentials(url)}
    for key, field in (("branch", "branch"), ("commit", "commit_hash")):
        value = str_or_none(git.get(field))
        if value is not None:
            content[key] = value
    return content
