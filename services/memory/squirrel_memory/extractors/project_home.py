"""Where the project's source is hosted, as git and the project's own files show it.

A short session often shows the project's home on a forge without anyone saying so: `git
remote -v` lists it, `git push` prints it, a manifest or configuration file names it (`module
github.com/acme/ledger`, `"repository": "https://gitlab.com/acme/ledger"`, a formatter's module
path), a source file's header links to it. The address tells a later session which repository
issues, pull requests and CI runs belong to. It becomes a project fact when a rule can tell the
address is this project's, the same in every ecosystem:

- the remotes git listed in the project (`git remote -v`, `git remote get-url origin`,
  `git config --get remote.origin.url`) decide: `origin`, else the only remote listed; so does
  the repository the host recorded when a session opened in the project (Codex's `session_meta`
  names the working copy's remote: a `session_repository` event). Listings and records that
  name different addresses say nothing, and so does a `git push` run in the project that
  printed another address of the project (`To github.com:dev/shop.git` beside an `origin` of
  `acme/shop`: which one the work goes to is not settled);
- without such a listing, an address on a forge (`github.com`, `gitlab.com`, `bitbucket.org`,
  `codeberg.org`, `git.sr.ht`, or a self-hosted `git.`, `gitlab.`, `gitea.` or `forgejo.` host)
  whose repository name is the project folder's own name (letter case and `-`, `_`, `.` aside)
  counts, when it is found in a file read inside the project (not in a vendored, generated,
  dependency or test-data folder) or in what a `git push`, `pull`, `fetch` or `clone`, or a
  forge's client (`gh`, `glab`, `tea`: `gh pr create` prints the pull request's address), run
  in the project printed; an address named in a plan, a question or a reply is not evidence, nor
  is one whose owner is a template's placeholder (`github.com/your-org/ledger`, `USERNAME`),
  one on a line that calls it a fork, the upstream, a mirror or the original ("Forked from
  github.com/upstream/ledger"), one a git command fetched from a remote it named other than
  `origin` (`git fetch upstream`, `git pull https://…`), one a file compares the project with
  ("Like github.com/foo/ledger, but …", "inspired by …"), or one a forge client's search or raw
  API call printed (`gh search`, `gh api`);
- two such addresses that differ (a fork and its upstream) with no remote listing to decide
  say nothing, and so does a single remote's URL printed for a remote other than `origin`
  (`git remote get-url upstream`); a command run in another folder (`cd`, `git -C`:
  `ran_elsewhere`) shows another repository.

The memory names the address as a web address (`https://github.com/acme/ledger`: an ssh form
`git@github.com:acme/ledger.git` is written so; ingest has removed any credentials from a
recorded URL) and where it was seen (`path:line` of a file read, the git command, or the
session's record), keeps those events and cites the files as its sources.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from squirrel_core.events import EventType
from squirrel_memory.extractors.activity import (
    CommandRun,
    commands,
    in_folder,
    relative_path,
    split_segments,
)
from squirrel_memory.extractors.elsewhere import ran_elsewhere
from squirrel_memory.extractors.file_reads import numbered_lines, read_output
from squirrel_memory.extractors.manifests import in_project
from squirrel_memory.extractors.stack_evidence import is_test_data
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.languages import is_excluded

KEY = "home"
#: A fact of the whole project, below its own description (0.7) and the assistant's (0.6).
IMPORTANCE = 0.5
#: Places cited in the memory (the first ones seen).
MAX_CITED = 2

#: Public forges, and the first label of a self-hosted one's host name.
_FORGES = r"github\.com|gitlab\.com|bitbucket\.org|codeberg\.org|git\.sr\.ht"
_SELF_HOSTED = r"(?:git|gitlab|gitea|forgejo)(?:\.[a-z0-9-]+)+\.[a-z]{2,}"
_ADDRESS = re.compile(
    rf"(?<![\w.-])(?P<host>{_FORGES}|{_SELF_HOSTED})[:/]"
    r"(?P<owner>~?[A-Za-z0-9][\w.-]*)/(?P<name>[A-Za-z0-9][\w.-]*?)(?:\.git)?"
    # A sentence's full stop after the address is not the name's ("… at github.com/a/b.").
    r"(?=\.?(?:[/\s\"'`)>\]#?:,;]|$))",
    re.IGNORECASE,
)
#: An owner written as a placeholder in a template or an example (`your-org`, `USERNAME`).
_PLACEHOLDER = re.compile(
    r"^(?:your|my)[\w.-]*$|^(?:owner|user(?:name)?|org(?:anization)?|"
    r"example|account|namespace|name|me)$",
    re.IGNORECASE,
)
#: `origin\tgit@github.com:acme/ledger.git (fetch)`: one line of `git remote -v`.
_REMOTE_LINE = re.compile(r"^(?P<remote>[\w.-]+)\s+(?P<url>\S+)(?:\s+\((?:fetch|push)\))?\s*$")
#: A git command that lists the remotes, or prints one remote's URL.
_LISTS_REMOTES = re.compile(r"^git\s+(?:remote\b|config\s+(?:--get\s+)?remote\.[\w.-]+\.url\b)")
#: A command whose output names the repository it talked to: a git transfer (`To
#: github.com:acme/ledger.git`) or a forge's own client (`gh pr create` prints the pull
#: request's address; `glab` and `tea` are GitLab's and Gitea's).
_TRANSFERS = re.compile(r"^(?:git\s+(?:push|pull|fetch|clone)|gh|glab|tea)\s")
#: A line that names another repository than this one: a fork's upstream, a mirror.
_ANOTHER = re.compile(r"\b(?:fork(?:ed)?|upstream|mirror(?:ed)?|original(?:ly)?)\b", re.IGNORECASE)
#: The words just before an address that compare the project with another of the same name
#: ("Like github.com/foo/shop, but …", "inspired by [shop](https://github.com/foo/shop)"):
#: an address, a link's text, a URL's scheme may come between.
_COMPARED = re.compile(
    r"\b(?:(?:un)?like|similar to|inspired by|based on|port(?:ed)? (?:of|from)|alternative to|"
    r"clone of|rewrite of|derived from|compared? (?:to|with)|vs\.?|versus|instead of|"
    r"replacement for|successor (?:to|of)|see also)\s*[:,]?\s*"
    r"(?:\[[^\]]{0,200}\]\(|<)?(?:(?:https?|git)://|git@)?(?:www\.)?$",
    re.IGNORECASE,
)
#: A forge client's subcommand that can show any repository (a search, a raw API call).
_NAMES_REPO = frozenset({"api", "search"})
#: Where a repository the host recorded was seen, as the memory names it.
_RECORDED = "the session's git metadata"
#: `  12→text` (Claude Code's Read) or `  12\ttext` (`cat -n`): a numbered line of a file.


@dataclass(frozen=True, slots=True)
class ProjectHome:
    """The project's address on a forge, where it was seen, and the events behind it."""

    key: str
    content: str
    event_ids: tuple[str, ...]
    files: tuple[str, ...]
    refs: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Seen:
    """One address found: as written (`host/owner/name`), where, and in which event."""

    address: str
    where: str
    event_id: str
    path: str = ""

    @property
    def identity(self) -> str:
        return self.address.lower()


def _normal(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _addresses(text: str) -> list[tuple[str, str]]:
    """(`host/owner/name` as written, repository name) of every forge address in `text`."""
    return [(address, name) for address, name, _ in _placed_addresses(text)]


def _placed_addresses(text: str) -> list[tuple[str, str, int]]:
    """`_addresses` with where each starts in `text`."""
    return [
        (f"{m['host'].lower()}/{m['owner']}/{m['name']}", m["name"], m.start())
        for m in _ADDRESS.finditer(text)
        if not _PLACEHOLDER.match(m["owner"].lstrip("~"))
    ]


def _is_ours(name: str, project_id: str) -> bool:
    """Whether a repository name is the project folder's own (case and `-`, `_`, `.` aside)."""
    folder = _normal(PurePosixPath(project_id.rstrip("/")).name)
    return len(folder) >= 2 and _normal(name) == folder


def _in_place(run: CommandRun, project_id: str) -> bool:
    """Whether a command ran in the project itself (not in another folder it went to with
    `cd` or `git -C`)."""
    cwd = (run.cwd or project_id).rstrip("/")
    return in_folder(cwd, project_id) and not ran_elsewhere(run.command, project_id)


def _listed_remotes(runs: list[CommandRun], project_id: str) -> list[_Seen]:
    """The remotes git listed in the project, `origin` first when it is among them."""
    named: dict[str, _Seen] = {}
    for run in runs:
        command = " ".join(run.command.split())
        if run.ok is False or not _LISTS_REMOTES.match(command):
            continue
        if not _in_place(run, project_id):
            continue
        lines = [line for line in run.output.splitlines() if line.strip()]
        single = re.search(r"\b(?:get-url\s+|remote\.)(?P<remote>[\w-]+)", command)
        for line in lines:
            listed = _REMOTE_LINE.match(line.strip())
            if listed is not None:
                remote, url = listed["remote"], listed["url"]
            elif single is not None and single["remote"] == "origin" and len(lines) == 1:
                remote, url = single["remote"], line.strip()
            else:
                continue
            found = _addresses(url)
            if found:
                named.setdefault(remote, _Seen(found[0][0], f"`{command}`", run.event_id))
    if "origin" in named:
        return [named["origin"]]
    return list(named.values())


def _names_another(command: str) -> bool:
    """Whether a transfer or a forge client's command names a repository other than the
    project's own: a git remote other than `origin` or a URL, a client's `api` or `search`."""
    words = command.split()
    if words[0] == "git":
        named = [w for w in words[2:] if not w.startswith("-")]
        return words[1] in ("pull", "fetch") and bool(named) and named[0] != "origin"
    return len(words) > 1 and words[1] in _NAMES_REPO


def _transfers(runs: list[CommandRun], project_id: str) -> list[_Seen]:
    """This project's addresses that git push, pull, fetch or clone, or a forge's client,
    printed in the project."""
    seen: list[_Seen] = []
    for run in runs:
        command = " ".join(run.command.split())
        if not _TRANSFERS.match(command) or not _in_place(run, project_id):
            continue
        if _names_another(split_segments(command)[0]):
            continue
        for address, name in _addresses(run.output):
            if _is_ours(name, project_id):
                shown = split_segments(command)[0].split(" 2>")[0]
                seen.append(_Seen(address, f"`{shown}`", run.event_id))
    return seen


def _read_files(events: list[StoredEvent], project_id: str) -> list[_Seen]:
    """This project's addresses named in the files read inside the project."""
    seen: list[_Seen] = []
    for event in events:
        output = read_output(event)
        if output is None or not event.file_paths:
            continue
        path = relative_path(event.file_paths[0], event.project_id)
        if not in_project(path) or is_excluded(path) or is_test_data(path):
            continue
        for number, line in numbered_lines(output):
            if _ANOTHER.search(line):
                continue
            for address, name, start in _placed_addresses(line):
                if _is_ours(name, project_id) and not _COMPARED.search(line[:start]):
                    seen.append(_Seen(address, f"`{path}:{number}`", event.id, path))
    return seen


def _recorded(events: list[StoredEvent]) -> list[_Seen]:
    """The forge addresses of the repository the host recorded when a session opened."""
    seen: list[_Seen] = []
    for event in events:
        if event.event_type != EventType.SESSION_REPOSITORY:
            continue
        url = event.content.get("repository_url")
        found = _addresses(url) if isinstance(url, str) else []
        if found:
            seen.append(_Seen(found[0][0], _RECORDED, event.id))
    return seen


def _pushed_elsewhere(decided: list[_Seen], transfers: list[_Seen]) -> bool:
    """Whether a `git push` printed an address of the project other than the decided one."""
    pushed = {s.identity for s in transfers if s.where.startswith("`git push")}
    return bool(pushed - {s.identity for s in decided})


def project_home(events: list[StoredEvent]) -> ProjectHome | None:
    """The project's home on a forge as the episode shows it, or None (see the module)."""
    if not events:
        return None
    project_id = events[0].project_id
    runs = commands(events)
    listed = _listed_remotes(runs, project_id)
    if len(listed) > 1:
        return None  # several remotes and none is `origin`: nothing decides
    transfers = _transfers(runs, project_id)
    decided = [*listed, *_recorded(events)]
    if decided and _pushed_elsewhere(decided, transfers):
        return None
    found = [*transfers, *_read_files(events, project_id)]
    if decided:  # what agrees with the listing or record is cited beside it
        seen = [*decided, *(s for s in found if s.identity == decided[0].identity)]
    else:
        seen = found
    if not seen or len({s.identity for s in seen}) > 1:
        return None
    first = list({(s.path or s.where): s for s in reversed(seen)}.values())[::-1]
    cited = [s.where for s in first][:MAX_CITED]
    address = f"https://{seen[0].address}"
    refs = tuple(s.where.strip("`") for s in first if s.path)
    return ProjectHome(
        KEY,
        f"The project's repository is {address} (named in {' and '.join(cited)}).",
        tuple(dict.fromkeys(s.event_id for s in seen)),
        tuple(dict.fromkeys(s.path for s in seen if s.path)),
        refs[:MAX_CITED],
    )
