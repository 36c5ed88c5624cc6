"""A project's team identity: its normalised git remote URL, else its path on this machine.

Every clone and worktree of one repository shares its remote, so they are one team project:
`git@github.com:o/r.git`, `https://github.com/o/r`, `ssh://git@github.com:22/o/r.git` and
`https://user:token@GitHub.com/o/r/` all become `github.com/o/r`. Credentials, ports, the scheme,
a trailing `.git` and letter case are dropped. A repository without a usable remote (none, or one
on the local disk) is `local:<machine>:<root>`, so it is never mistaken for another machine's.
Local stores keep their own ids (their root path); this id is what a team server files them under.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

from squirrel_core.worktrees import common_dir

GIT_TIMEOUT_SECONDS = 5.0
MAX_URL_CHARS = 2_000
_SCP_LIKE = re.compile(r"^(?:[^@/\s]+@)?(?P<host>[^:/\s]+):(?!//)(?P<path>[^\s]+)$")


def normalise_remote(url: str) -> str | None:
    """`host/path` of a network remote URL, or None (empty, local, or not a URL)."""
    text = url.strip()
    if not text or len(text) > MAX_URL_CHARS or any(c.isspace() for c in text):
        return None
    if "://" in text:
        parts = urlsplit(text)
        if parts.scheme.lower() == "file" or not parts.hostname:
            return None
        host, path = parts.hostname, parts.path
    else:
        match = _SCP_LIKE.match(text)
        if match is None or match["host"] in (".", ".."):
            return None
        host, path = match["host"], match["path"]
    path = path.strip("/")
    path = path.removesuffix(".git").rstrip("/")
    segments = [s for s in path.split("/") if s and s not in (".", "..")]
    if not segments:
        return None
    return "/".join([host.lower().rstrip("."), *segments]).lower()


def _remote_urls(root: Path) -> dict[str, str]:
    """Remote name → URL, as git reads them (worktrees share their repository's config)."""
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "config", "--get-regexp", r"^remote\..*\.url$"],
            capture_output=True,
            text=True,
            timeout=GIT_TIMEOUT_SECONDS,
            check=False,
            env={**os.environ, "GIT_TERMINAL_PROMPT": "0"},
        )
    except (OSError, subprocess.SubprocessError):
        return {}
    urls: dict[str, str] = {}
    for line in done.stdout.splitlines():
        key, _, value = line.partition(" ")
        name = key.removeprefix("remote.").removesuffix(".url")
        if name and value:
            urls[name] = value
    return urls


def remote_identity(root: str | os.PathLike[str]) -> str | None:
    """The normalised URL of `origin` (else of the first remote by name that has one)."""
    path = Path(root)
    if common_dir(path) is None:
        return None
    urls = _remote_urls(path)
    for name in ["origin", *sorted(n for n in urls if n != "origin")]:
        if name in urls:
            found = normalise_remote(urls[name])
            if found:
                return found
    return None


def project_identity(root: str | os.PathLike[str], machine: str) -> str:
    """The team id of the project at `root`: its remote, else `local:<machine>:<root>`."""
    return remote_identity(root) or f"local:{machine}:{Path(root)}"
