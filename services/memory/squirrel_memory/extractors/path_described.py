"""What the project is, as someone described it right beside the project's own path or the
name of its repository.

An assistant that hands work to a subagent, or sums up where it works, often gives the
project's folder and says what lives there in the same breath: "Repo: /home/me/tally (a Go
CLI that reconciles bank exports)", "Working in `/srv/ledger`, a Rails app for invoices",
"Repo: C:\\src\\blocks (mod Minecraft Forge, multi-módulo Gradle)", "Repo: /srv/ledger —
Ledger, a Rails app for invoices" (a name before the description must be the project's own).
The path is the project's own root, so unlike a name (which may be a dependency's or a
tool's) it cannot point at another thing. The rule, the same for every ecosystem and in any
human language:

- the text gives the project's root path exactly (the folder the session works in, not a
  file or folder inside it, not another checkout; `~/src/tally` for `/home/me/src/tally`), in
  the assistant's own text (a reply, a prompt it wrote for a subagent) or the user's message;
  a reply about another place (`elsewhere`) does not count;
- right after the path comes its description: in parentheses, after a comma and "a/an", or
  after a dash;
- the description names a kind of software (`software_kinds`) at the edge of its head phrase:
  "a Go CLI that …" ends its head phrase on "CLI", "mod Minecraft Forge" opens on "mod".
  A state of the folder ("main branch", "read-only", "a git worktree of the app") names none;
- it is a statement of what is, not a plan, a question or a negation ("will be a …",
  "not a library", "to become …").

The same holds beside the repository called by the project folder's own name, as a repository:
"the `nexus-proxy` repository — a hardware-aware AI routing gateway in Go", "Working in the
ledger repo, a Rails app for invoices" in `…/ledger`. The word "repository" (or "repo",
"project", "codebase") right after the name says the name is the repository's, not a
library's or a tool's; another name ("the `effect` repository — a TypeScript library") is
another repository, and the name without that word may be a dependency's.

The memory quotes the description with the folder's name ("What this project (tally) is, as
described beside its path: a Go CLI that reconciles bank exports.") and is tagged as a
summary: the README or manifest, read in a later session, replaces it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from squirrel_memory.extractors.activity import user_requests
from squirrel_memory.extractors.named_summary import assistant_texts, names_project
from squirrel_memory.extractors.software_kinds import is_software_kind
from squirrel_memory.extractors.summaries import Summary
from squirrel_memory.extractors.wording import sentence
from squirrel_memory.models import StoredEvent

MIN_CHARS = 6
#: The shortest folder name taken for the repository's name in a text.
MIN_NAME_CHARS = 3
MAX_CHARS = 160
PREFIX = "What this project ({name}) is, as described beside its {anchor}: "
#: Kinds of software that say nothing of what the folder holds ("(the project root)").
_NOT_A_KIND = frozenset({"project", "projects", "package", "packages", "implementation"})
#: A description after the path: "(…)", ", a …", " — …".
_AFTER_PATH = re.compile(
    r"^`?\s*(?:\((?P<paren>[^()\n]+)\)|,\s+(?P<apposed>an?\s[^\n;]+)|\s[—–-]\s+(?P<dashed>[^\n;]+))"
)
#: Where the description's head phrase ends (a relative clause, a preposition, punctuation).
_HEAD_END = re.compile(
    r"(?<!\s)\s+(?:that|which|who|with|for|from|of|in|on|to|using|built|written|where|and|or|"
    r"made|based|designed|used|providing|running|que|para|con|de|en|pour|avec|für|mit)\b"
    r"|[;:(—–.]|,",
    re.IGNORECASE,
)
#: A plan, a question or a negation: not what the project is.
_NOT_SAID = re.compile(
    r"\?|\b(?:not|no|never|will|would|could|should|might|planned|plan|become|to be|todo|"
    r"later|soon|eventually)\b",
    re.IGNORECASE,
)
_ARTICLE = re.compile(r"^(?:an?|the|my|our)\s+", re.IGNORECASE)
#: A name before the description ("Tallyword, a .NET library …"): left off when it is the
#: project's own (`named_summary.names_project`); another name is another thing's.
_NAME_FIRST = re.compile(r"^(?P<name>[\w.+-]+(?:\s[\w.+-]+)?),\s+(?=an?\s)")
#: Where a description ends: the end of its sentence.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s|\n")


def _head(description: str) -> list[str]:
    """The words of the description's head phrase, without its article."""
    head = _HEAD_END.split(_ARTICLE.sub("", description.strip()), maxsplit=1)[0]
    return [word.strip("`*\"'") for word in head.split()]


def names_a_kind(description: str) -> bool:
    """Whether the description's head phrase opens or ends on a kind of software."""
    words = _head(description)
    edges = {words[0].lower(), words[-1].lower()} if words else set()
    return any(is_software_kind(word) and word not in _NOT_A_KIND for word in edges)


#: A home folder at the start of a root path (`/home/ana/`, `/Users/ana/`), written `~/` as well.
_HOME = re.compile(r"^/(?:home|Users)/[^/]+/")


def _spellings(root: str) -> list[str]:
    """The ways a text may write the root path: as it is, and from `~` inside a home folder."""
    home = _HOME.match(root)
    return [root, "~/" + root[home.end() :]] if home else [root]


#: What follows a name to say it is the name of a repository.
_REPOSITORY_WORD = r"(?:repository|repo|project|codebase)"


def _anchors(root: str) -> str:
    """A pattern for where a description of the project may follow: its root path, or its
    folder's name (quoted or not) called a repository ("the `tally` repo")."""
    paths = "|".join(re.escape(way) for way in _spellings(root))
    name = re.split(r"[\\/]", root)[-1]
    named = rf"(?<![\w.\\/-])`?{re.escape(name)}`?\s+{_REPOSITORY_WORD}\b"
    if len(name) < MIN_NAME_CHARS:
        named = "(?!)"  # a name this short is no one's in particular
    return rf"(?:(?:{paths})(?![\w.\\/-])|(?P<named>(?i:{named})))"


def described(text: str, root: str) -> str:
    """The description `text` gives right after the project's root path `root` (or its
    repository's name), or ""."""
    found = _described(text, root)
    return found[0] if found else ""


def _described(text: str, root: str) -> tuple[str, str] | None:
    """(description, "path" or "repository's name" as what it stood beside), or None."""
    root = root.rstrip("/\\")
    if not root:
        return None
    for found in re.finditer(_anchors(root), text):
        match = _AFTER_PATH.match(text[found.end() :])
        if match is None:
            continue
        raw = match.group("paren") or match.group("apposed") or match.group("dashed") or ""
        said = _SENTENCE_END.split(raw.strip(), maxsplit=1)[0].strip().rstrip(".:")
        named = _NAME_FIRST.match(said)
        if named and names_project(named.group("name"), root):
            said = said[named.end() :]
        fits = MIN_CHARS <= len(said) <= MAX_CHARS
        if fits and names_a_kind(said) and not _NOT_SAID.search(said):
            return said, "repository's name" if found.group("named") else "path"
    return None


def _texts(events: list[StoredEvent]) -> Iterator[tuple[StoredEvent, str]]:
    yield from assistant_texts(events)
    yield from user_requests(events)


def path_described(events: list[StoredEvent]) -> Summary | None:
    """The first description of the project given beside its root path, or None."""
    if not events:
        return None
    root = events[0].project_id
    name = re.split(r"[\\/]", root.rstrip("/\\"))[-1]
    for event, text in _texts(events):
        said = _described(text, root)
        if said:
            content = sentence(PREFIX.format(name=name, anchor=said[1]) + said[0])
            if content:
                return Summary(content, (event.id,))
    return None
