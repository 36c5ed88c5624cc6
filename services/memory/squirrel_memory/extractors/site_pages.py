"""The site whose pages are files of the project, from an address the user gave.

A documentation site, a blog or a marketing site is often a repository of Markdown pages whose
folders are the site's addresses: the user asks to fix "https://docs.example.com/guides/setup"
and the assistant edits `content/guides/setup.md`. What the repository is then shows in that
pair, even when no README or manifest is read. The rule, the same for every site generator:

- the address is in the user's own words (not a pasted log, a subagent prompt or hook text), on
  a site's host: a forge (`github.com`, a self-hosted `gitlab.` host …) shows a repository's
  files by their path, an `api.` host serves endpoints (whose documentation pages may share
  their paths), and a local or numeric host or one with a port is a development server;
- a file of the project the session read or changed is a page (`.md`, `.mdx`, `.rst`, `.adoc`,
  `.html` …) whose path, without its suffix (and without a last `index` or `_index`), ends with
  the address's whole path, two segments at least ("guides/setup"): one segment ("setup") may
  match a page by chance;
- what comes before those segments is the folder the site's pages are under (`content/`),
  named in the memory; the memory says no more than that pair shows ("Pages of the site
  docs.example.com are files of this repository under `content/`: the page … is `…`."), so a
  monorepo whose docs are one folder of many is not called a documentation repository.

One statement per episode: the first address that matches.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from urllib.parse import urlsplit

from squirrel_core.events import EventType
from squirrel_core.host_tools import CHANGE_TOOLS, READ_TOOLS
from squirrel_memory.extractors.activity import user_requests
from squirrel_memory.extractors.manifests import first_project_path
from squirrel_memory.models import StoredEvent

KEY = "site_pages"
IMPORTANCE = 0.6
#: Address segments a page's path must end with, at least.
MIN_SEGMENTS = 2
#: Suffixes of a site's page sources.
PAGE_SUFFIXES = frozenset(
    {".md", ".mdx", ".markdown", ".rst", ".adoc", ".asciidoc", ".html", ".htm", ".njk", ".org"}
)
#: A page's file name that stands for its folder's address (`guides/setup/index.md`).
_INDEX_NAMES = frozenset({"index", "_index", "readme"})
_URL = re.compile(r"https?://[^\s<>()\[\]\"'`]+", re.IGNORECASE)
#: Hosts that show a repository's files by their path, and hosts of no public site.
_NOT_SITES = re.compile(
    r"^(?:(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org|git\.sr\.ht)|"
    r"[\w.-]*githubusercontent\.com|gist\.github\.com|"
    r"(?:git|gitlab|gitea|forgejo|api)\.[\w.-]+|localhost|[\d.]+|\[[\da-f:]+\])$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class SitePages:
    """The statement, and the events of the address and the page."""

    content: str
    event_ids: tuple[str, ...]
    file_paths: tuple[str, ...]


def _address(url: str) -> tuple[str, tuple[str, ...]] | None:
    """(host, path segments) of a site's page address, or None."""
    try:
        parts = urlsplit(url.rstrip(".,;:!?"))
        port = parts.port
    except ValueError:
        return None
    host = (parts.hostname or "").lower()
    if not host or port is not None or _NOT_SITES.match(host):
        return None
    segments = [s for s in parts.path.split("/") if s]
    if segments:
        last = PurePosixPath(segments[-1])
        if last.suffix.lower() in {".html", ".htm"}:
            segments[-1] = last.stem
        if segments[-1].lower() in _INDEX_NAMES:
            segments.pop()
    return host, tuple(s.lower() for s in segments)


def _page_segments(path: str) -> tuple[str, ...] | None:
    """The segments of a page file's address in the project (`content/a/b.md` → content, a,
    b), or None for a file that is no page."""
    pure = PurePosixPath(path)
    if pure.suffix.lower() not in PAGE_SUFFIXES:
        return None
    parts = [*pure.parts[:-1], pure.stem]
    if parts[-1].lower() in _INDEX_NAMES:
        parts.pop()
    return tuple(p.lower() for p in parts)


def _pages(events: list[StoredEvent]) -> dict[str, str]:
    """Project files the session read or changed, each with the first event that did."""
    found: dict[str, str] = {}
    for event in events:
        tool = event.content.get("tool")
        touched = event.event_type == EventType.CODE_CHANGE or (
            event.event_type == EventType.TOOL_CALL and tool in READ_TOOLS | CHANGE_TOOLS
        )
        if touched and (path := first_project_path(event)):
            found.setdefault(path, event.id)
    return found


def site_pages(events: list[StoredEvent]) -> SitePages | None:
    """The site whose page the user gave by its address and the session read or changed as a
    file of the project (module docstring), or None."""
    pages = _pages(events)
    if not pages:
        return None
    for event, text in user_requests(events):
        for url in _URL.findall(text):
            address = _address(url)
            if address is None or len(address[1]) < MIN_SEGMENTS:
                continue
            host, segments = address
            for path, page_event in pages.items():
                page = _page_segments(path)
                if page is None or len(page) < len(segments) or page[-len(segments) :] != segments:
                    continue
                folder = "/".join(PurePosixPath(path).parts[: len(page) - len(segments)])
                where = f"under `{folder}/`" if folder else "by their address from its root"
                content = (
                    f"Pages of the site {host} are files of this repository {where}: the page "
                    f"{url.rstrip('.,;:!?')} is `{path}`."
                )
                return SitePages(content, (event.id, page_event), (path,))
    return None
