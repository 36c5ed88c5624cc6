"""What the project is, in the user's own words.

Users often say what the repository is while asking for something ("this is my emacs config,
add …", "This repo is a CLI that syncs calendars."). Such a sentence is the project's overview
when a session reads no README or manifest. The rule, the same for every ecosystem:

- its subject is the repository itself: "this repo/repository/project/codebase is …", "the
  repo is a …", or "this is my/our …" (a bare "this is the …" may point at a pasted file); or
  the message opens on the work, in its first sentence: "This is a CLI tool for …", "We're
  building a Phoenix app for …", "I'm working on a Django site for …" ("Context:" before it
  allowed);
- what it is is a kind of project (a config, dotfiles, notes, an app, a tool, a library …):
  the noun phrase, cut at a clause break ("that", "with", "for", a comma), ends on such a noun,
  so "this is my test file" or "this is my problem" say nothing;
- it is a statement: not a question, not negated, not hedged ("I think", "maybe", "probably")
  and not a hypothetical ("if this is a …", "suppose this repo is …");
- it is the user's own message (not a pasted log, a subagent prompt or injected context).

The user may also name the project instead ("since harbor is an open source project that people
can self deploy, …"): a sentence that starts with the name of the project's folder (or with
"since", "as", "because" or "given that" and the name, a label such as "Context:" before
it), then "is a/an/the/my/our" and a noun phrase that ends on a kind of project, says what
it is; only that clause is kept, so what the rest of the sentence asks for ("we need to make
sure we're not forcing everyone …") neither hedges it nor makes it too long. Another name
("since react is a library"), a question, a condition ("if harbor is a …") or a hedge inside
the clause say nothing.

The user may also call the project by its folder's name and what it is in passing ("split the
token exchange out of this "ledger" service, so that …"): "this", the name (quoted or not) and
a kind of software right after it, where the noun phrase ends (a comma, the sentence's end, or
a clause word: "this ledger service layer" names a part, not the project). A bare "project" or
"repo" says nothing, nor does a folder name that is a common word ("src", "app"), a question,
a hedge or a sentence too long to quote; the memory gives the kind and quotes the sentence, so
what the user wants of it is kept in their words and never as done.

Starting a repository, the user may say what they want it to become ("I want this github
repository to become my interview preparation folder for 2026.") and go on saying what it will
hold ("This project will primarily contain Java source …", "I will mostly be using LeetCode …").
The wish is a statement of what the project is when its noun phrase ends on a kind of project
(a folder or a directory counts here), with no hedge and no question; the sentences right after
it in the message that go on in the future tense about what the repository will contain, use or
hold (their subject the repository, "it", "I" or "we"; two at most) are quoted with it, so what
the repository is for is kept in the user's words; the first other sentence ends the quote.

The memory quotes the user ("What this project is, as the user put it: \"this is my emacs
config\".") and is tagged as a summary: the project's own README or manifest replaces it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from squirrel_memory.extractors.activity import user_requests
from squirrel_memory.extractors.named_stack import project_folder_name
from squirrel_memory.extractors.software_kinds import is_repository_kind, is_software_kind
from squirrel_memory.models import StoredEvent

PREFIX = "What this project is, as the user put it: "
MAX_CHARS = 160
_SENTENCE = re.compile(r"(?<=[.!?;])\s+|\n+")
_STATEMENT = re.compile(
    r"^(?P<said>(?:(?:this|the|my|our)\s+(?:repo(?:sitory)?|project|codebase|folder|directory)"
    r"\s+is\s+(?P<what>(?:my|our|a|an|the)\s+[^?]+?))|this\s+is\s+(?P<own>(?:my|our)\s+[^?]+?))"
    r"\s*[.!]?$",
    re.IGNORECASE,
)
#: A message that opens on what the work is: "This is a …", "We're building a …", "I'm working
#: on an …" (a label such as "Context:" before it). Only a message's first sentence is read so:
#: further on, "this is a …" may point at a pasted file or an error.
_OPENING = re.compile(
    r"^(?:(?:context|background)\s*:\s*)?(?P<said>(?:this\s+is|(?:we|i)(?:['’]re|['’]m|\s+are|"
    r"\s+am)\s+(?:building|making|writing|developing|working\s+on))\s+"
    r"(?P<what>(?:a|an|my|our)\s+[^?]+?))\s*[.!]?$",
    re.IGNORECASE,
)
#: What ends the head noun phrase of what the repository is said to be.
_HEAD_END = re.compile(
    r"(?<!\s)\s+(?:that|which|where|with|for|from|of|in|on|to|using|built|written|and|but|so)\b"
    r"|[,;:(—–]",
    re.IGNORECASE,
)
_CLAUSE = re.compile(r"\s*[,;—–]\s*|\s+-\s+")
_HEDGED = re.compile(
    r"\b(?:not|no longer|never|maybe|perhaps|probably|might|guess|think|assume|suppose|if|"
    r"whether|imagine|pretend|supposed)\b",
    re.IGNORECASE,
)


#: "I want this repository to become my …": what the user means the repository to be.
_WANTED = re.compile(
    r"^(?P<said>(?:i|we)\s+(?:want|would\s+like|['’]d\s+like)\s+(?:this|the|my|our)\s+"
    r"(?:[\w-]+\s+)?(?:repo(?:sitory)?|project|codebase|folder|directory)\s+to\s+"
    r"(?:become|be)\s+(?P<what>(?:my|our|a|an|the)\s+[^?]+?))\s*[.!]?$",
    re.IGNORECASE,
)
#: Kinds a repository the user means to become something may be called besides the usual.
_WANTED_KINDS = frozenset({"folder", "directory", "workspace"})
#: A sentence that goes on saying what the repository will hold or be used for.
_GOES_ON = re.compile(
    r"^(?:(?:this|the|my|our)\s+(?:[\w-]+\s+)?(?:repo(?:sitory)?|project|codebase|folder)|"
    r"it|i|we)\s+(?:will|['’]ll|(?:is|am|are)\s+going\s+to)\s+"
    r"(?:(?:mostly|mainly|primarily|largely|also|only|just)\s+)?(?:be\s+)?"
    r"(?:contain|hold|have|having|include|use|using|keep|store|track|cover|collect|capture|"
    r"host|practi[cs]|solv|writ|add|put)\w*\b"
    # "It will have to wait", "I'll keep you posted": no word of what the repository holds.
    r"(?!\s+(?:to|you|me|us|them)\b)",
    re.IGNORECASE,
)
#: Sentences after the wish quoted with it, at most, and the longest quote.
MAX_GOES_ON = 2
MAX_DESCRIBED_CHARS = 400

#: What may open a sentence before the project's name: a label ("Context:"), a reason given
#: for the request.
_NAMED_OPENING = r"(?:(?:context|background)\s*:\s*)?(?:(?:since|as|because|given\s+that)\s+)?"
#: The shortest folder name taken as the project's name in a sentence.
MIN_NAME_CHARS = 3


@dataclass(frozen=True, slots=True)
class UserAbout:
    """The user's statement of what the repository is, and the message it was said in."""

    content: str
    event_ids: tuple[str, ...]


def user_statement(text: str) -> str:
    """The words of one sentence that say what the repository is ("this is my emacs config"),
    or "" when the sentence is not such a statement."""
    flat = " ".join(text.split()).strip()
    if not flat or flat.endswith("?") or len(flat) > MAX_CHARS or _HEDGED.search(flat):
        return ""
    match = _STATEMENT.match(flat)
    if match is None:
        return ""
    head = _HEAD_END.split(match.group("what") or match.group("own"), maxsplit=1)[0]
    words = head.split()
    if len(words) < 2 or not is_repository_kind(words[-1].strip(".!")):
        return ""
    # What follows a comma or dash is usually the request ("…, fix the totals").
    return _CLAUSE.split(match.group("said"), maxsplit=1)[0]


def named_statement(text: str, name: str) -> str:
    """The clause of one sentence that says what the project called `name` (its folder's name)
    is ("harbor is an open source project"), or "" (module docstring)."""
    flat = " ".join(text.split()).strip()
    if len(name) < MIN_NAME_CHARS or not flat or flat.endswith("?"):
        return ""
    spelled = r"[-_ ]".join(re.escape(part) for part in re.split(r"[-_ ]", name))
    match = re.match(
        rf"{_NAMED_OPENING}(?P<said>{spelled}\s+is\s+(?P<what>(?:an?|the|my|our)\s.*))$",
        flat,
        re.IGNORECASE,
    )
    if match is None:
        return ""
    head = _HEAD_END.split(match.group("what"), maxsplit=1)[0].strip(" .!")
    words = head.split()
    if len(words) < 2 or not is_repository_kind(words[-1]) or _HEDGED.search(head):
        return ""
    said = match.group("said")[: match.start("what") - match.start("said")] + head
    return said if len(said) <= MAX_CHARS else ""


#: Kinds that say nothing of what a repository called by its name is ("this ledger project").
_BARE_KINDS = frozenset({"project", "projects", "implementation", "implementations"})
#: Quote marks the user may put around the project's name.
_QUOTES = "\"'`\u201c\u201d\u2018\u2019"
#: The longest sentence quoted around "this <name> <kind>".
MAX_CALLED_CHARS = 240


def called_statement(text: str, name: str) -> tuple[str, str] | None:
    """(kind, the sentence with the name's quotes dropped) when one sentence calls the project
    "this <name> <kind>" ("out of this \u201cledger\u201d service, so that …"), else None
    (module docstring)."""
    flat = " ".join(text.split()).strip()
    if len(name) < MIN_NAME_CHARS or not flat or flat.endswith("?") or _HEDGED.search(flat):
        return None
    spelled = r"[-_ ]".join(re.escape(part) for part in re.split(r"[-_ ]", name))
    quote = f"[{_QUOTES}]?"
    match = re.search(
        rf"\bthis\s+{quote}(?P<name>{spelled}){quote}\s+(?P<kind>[a-z-]+)"
        r"(?=\s*(?:[,.;:!)]|$)|\s+(?:so|that|which|and|because|to|for|is|has|does|runs|uses|"
        r"with|in|on)\b)",
        flat,
        re.IGNORECASE,
    )
    if match is None:
        return None
    kind = match.group("kind").lower()
    if kind in _BARE_KINDS or not is_software_kind(kind):
        return None
    said = flat[: match.start("name")].rstrip(_QUOTES) + match.group("name")
    said += flat[match.end("name") :].lstrip(_QUOTES)
    said = said.rstrip(" .!")
    if len(said) > MAX_CALLED_CHARS or '"' in said:
        return None
    return kind, said


def opening_statement(text: str) -> str:
    """The words of a message's first sentence that open it on what the work is ("This is a
    CLI tool for managing dotfiles", "We're building a Phoenix app for tracking invoices",
    "Context: this is a monorepo with …"), or "" (module docstring)."""
    flat = " ".join(text.split()).strip()
    if not flat or flat.endswith("?") or len(flat) > MAX_CHARS or _HEDGED.search(flat):
        return ""
    match = _OPENING.match(flat)
    if match is None:
        return ""
    head = _HEAD_END.split(match.group("what"), maxsplit=1)[0]
    words = head.split()
    if len(words) < 2 or not is_repository_kind(words[-1].strip(".!")):
        return ""
    return _CLAUSE.split(match.group("said"), maxsplit=1)[0]


def wanted_statement(text: str) -> str:
    """The words of one sentence that say what the user wants the repository to become ("I
    want this github repository to become my interview preparation folder for 2026"), or ""
    (module docstring)."""
    flat = " ".join(text.split()).strip()
    if not flat or flat.endswith("?") or len(flat) > MAX_CHARS or _HEDGED.search(flat):
        return ""
    match = _WANTED.match(flat)
    if match is None:
        return ""
    head = _HEAD_END.split(match.group("what"), maxsplit=1)[0]
    words = head.split()
    last = words[-1].strip(".!") if words else ""
    if len(words) < 2 or not (is_repository_kind(last) or last.lower() in _WANTED_KINDS):
        return ""
    return _CLAUSE.split(match.group("said"), maxsplit=1)[0]


def wanted_description(text: str) -> tuple[str, ...]:
    """The sentences of a message quoted as the user's description of what the repository is
    to become: the wish and the sentences right after it that go on saying what it will hold
    (module docstring); () when the message makes no such wish."""
    parts = [" ".join(p.split()).strip() for p in _SENTENCE.split(text)]
    for n, raw in enumerate(parts):
        said = wanted_statement(raw)
        if not said:
            continue
        quoted = [said]
        for more in parts[n + 1 : n + 1 + MAX_GOES_ON]:
            clause = more.rstrip(" .!")
            if (
                not _GOES_ON.match(clause)
                or more.endswith("?")
                or len(clause) > MAX_CHARS
                or _HEDGED.search(clause)
                or len(". ".join([*quoted, clause])) > MAX_DESCRIBED_CHARS
            ):
                break
            quoted.append(clause)
        return tuple(quoted)
    return ()


def _quoted(said: str) -> str:
    """`said` as the memory quotes it: lower-cased first letter, but for the pronoun "I"."""
    if said.startswith(("I ", "I'", "I’")):
        return said
    return f"{said[0].lower()}{said[1:]}"


def user_about(events: list[StoredEvent]) -> UserAbout | None:
    """The first statement of what the repository is the user made in `events`, or None."""
    name = PurePosixPath(events[0].project_id).name if events else ""
    for event, text in user_requests(events):
        if "```" in text:
            continue
        for n, raw in enumerate(_SENTENCE.split(text)):
            said = (
                user_statement(raw.strip())
                or named_statement(raw.strip(), name)
                or (opening_statement(raw.strip()) if n == 0 else "")
            )
            if said and said.count('"') == 0:
                return UserAbout(f'{PREFIX}"{_quoted(said)}".', (event.id,))
        described = ". ".join(wanted_description(text))
        if described and described.count('"') == 0:
            return UserAbout(f'{PREFIX}"{_quoted(described)}".', (event.id,))
    # A generic folder name ("app", "src") in a sentence is a word, not the project's name.
    folder = project_folder_name(events[0].project_id) or ""
    for event, text in user_requests(events):
        if "```" in text:
            continue
        for raw in _SENTENCE.split(text):
            called = called_statement(raw.strip(), folder)
            if called:
                kind, said = called
                article = "an" if kind[0] in "aeiou" else "a"
                return UserAbout(f'{PREFIX}{article} {kind} ("{said}").', (event.id,))
    return None
