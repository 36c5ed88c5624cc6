"""A search query: its text checked and cut, its searchable words, light word stems, and the
types and paths it is limited to, checked."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from squirrel_core.errors import InvalidArgumentError
from squirrel_memory.code_files import EXTENSIONS
from squirrel_memory.models import MemoryItem, MemoryType
from squirrel_memory.storage.formats import fts_text, searchable_content, searchable_tags
from squirrel_memory.storage.search_terms import MAX_QUERY_TERMS, STOP_WORDS, search_terms

MAX_QUERY_CHARS = 10_000
"""Longer queries are cut here before anything else looks at them."""
MAX_CANDIDATES = 1000
"""Most candidates one query considers (the store's page limit); `total` never exceeds it."""
MAX_SCOPE_PATHS = 200
"""Most active or scope paths one query names."""
STEM_CACHE_SIZE = 50_000
"""Memories whose word stems stay cached between queries."""
WORD_CACHE_SIZE = 20_000
"""Distinct words whose light stem stays cached."""
_WORD = re.compile(r"[^\W_]+")
_STEM_SUFFIXES = ("ing", "ed", "es", "s")
#: Words almost every coding request uses, whatever it is about: the verbs of asking for work
#: ("add", "fix", "update", "make", and "implementation", the noun of one: "review the current
#: implementation" says no more of what than "implement" does) and words such as "new",
#: "existing", "simple", "file" or "code", and the words of reporting that something went wrong
#: ("error", "failing", "broken": every pitfall says them), and the adverbs that say how or how
#: often, never of what ("automatically", "actually", "still", "again", "always"). A task shares
#: them with any memory, so alone they never make a memory relevant nor explain why it is.
_GENERIC_WORD_TEXT = (
    "add adds added adding new make makes making made use uses used using need needs"
    " needed want wants wanted get gets getting got set sets setting put change changes"
    " changed changing update updates updated updating create creates created creating"
    " remove removes removed removing implement implements implemented implementing"
    " write writes writing wrote fix fixes fixed fixing improve improves improved"
    " improving please thing things stuff way ways something anything everything one ones"
    " work works worked working help try tries tried see look looks go goes going able"
    " sure ok okay thanks like also just code file files project instead really"
    " do does did doing done let lets allow allows allowed show shows showing shown"
    " exist exists existing current currently other another same different"
    " simple simpler small smaller quick quickly easy easier bit part parts"
    " error errors fail fails failed failing failure failures broken wrong issue issues"
    " problem problems implementation implementations"
    " automatically actually maybe perhaps probably still again already always never somehow"
    " anymore properly correctly basically"
)
GENERIC_WORDS = frozenset(_GENERIC_WORD_TEXT.split())
_SHORT_NUMBER = 2
"""Numbers of at most this many digits are generic words too."""


@dataclass(frozen=True, slots=True)
class ParsedQuery:
    """A checked query: its text and its searchable words."""

    text: str
    terms: tuple[str, ...]


def embedding_text(item: MemoryItem) -> str:
    """The text a memory is embedded as: its key, content and tags (what search matches on),
    without the tallies of its own record (`searchable_content`, `searchable_tags`)."""
    tags = ", ".join(searchable_tags(item.tags))
    return f"{item.key}: {searchable_content(item.content)}" + (f" [{tags}]" if tags else "")


def query_terms(text: str) -> tuple[str, ...]:
    """The searchable words of a query, lower-cased, stop words dropped unless nothing is left."""
    return tuple(search_terms(text[:MAX_QUERY_CHARS])[:MAX_QUERY_TERMS])


def stem(word: str) -> str:
    """A light stem: `tests` → `test`, `parsing` → `pars` (suffixes -ing, -ed, -es, -s)."""
    for suffix in _STEM_SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def is_generic(term: str) -> bool:
    """Whether a query term is one of the `GENERIC_WORDS` (or a form of one: `adding`), or a
    number of one or two digits ("phase 2", "option 1": every text has such numbers; `404`,
    `8080` and `3.11` say what they are about)."""
    lowered = term.lower()
    if lowered.isdigit() and len(lowered) <= _SHORT_NUMBER:
        return True
    return lowered in GENERIC_WORDS or _stem_cached(lowered) in _GENERIC_STEMS


def meaningful_terms(terms: Sequence[str]) -> tuple[str, ...]:
    """The terms that say what a request is about: `terms` without the generic ones and
    without stop words (a query of nothing but stop words searches them, `query_terms`; they
    never say what it is about)."""
    return tuple(t for t in terms if not is_generic(t) and t not in STOP_WORDS)


#: A file name's extension (`renderer.py`, `App.tsx`, `README.md.`): a dot after a name, then
#: a letter and at most seven more, not followed by another dotted word (`group.visible.x`).
_EXTENSION = re.compile(r"(?<=[A-Za-z0-9_-])\.([A-Za-z][A-Za-z0-9]{0,7})\b(?!\.\w)")
#: The extensions that name a kind of file: every code file's (`code_files.EXTENSIONS`), and
#: those of documents, data and settings. An attribute (`group.visible`) is none of them.
_DOCUMENT_EXTENSIONS = "md mdx rst txt json jsonl yaml yml toml ini cfg xml csv"
FILE_EXTENSIONS: frozenset[str] = frozenset(e.lstrip(".") for e in EXTENSIONS) | frozenset(
    _DOCUMENT_EXTENSIONS.split()
)


def extension_words(text: str) -> frozenset[str]:
    """The searchable words of `text` that are only the extensions of file names it holds
    (`py` in "look at renderer.py", `tsx` in "App.tsx is slow"): an extension says which
    language a file is written in, which the project's other files share, not what a task is
    about. A word the text also uses on its own ("the json in config.json") is not one."""
    extensions = {
        m.group(1).lower()
        for m in _EXTENSION.finditer(text)
        if m.group(1).lower() in FILE_EXTENSIONS
    }
    if not extensions:
        return frozenset()
    standalone = set(search_terms(_EXTENSION.sub(" ", text)))
    return frozenset(e for e in extensions if e not in standalone)


#: A file's name a text gives: a name, a dot and an extension (`renderer.py`, `Legacy.tsx`,
#: the last part of `ocean_sound_log/renderer.py`), not part of a longer dotted word.
_FILE = re.compile(r"(?<![\w.-])(?:[\w.@-]*/)*([\w-]+)\.([A-Za-z][A-Za-z0-9]{0,7})\b(?!\.\w)")


def file_names(text: str) -> frozenset[str]:
    """The names of the files `text` gives, lower-cased, without their folders (`renderer.py`
    for "see claude_code_log/renderer.py", `legacy.tsx` for "`src/Legacy.tsx` fails"): only
    names whose extension names a kind of file (`FILE_EXTENSIONS`; `group.visible` is none)."""
    return frozenset(
        f"{m.group(1)}.{m.group(2)}".lower()
        for m in _FILE.finditer(text)
        if m.group(2).lower() in FILE_EXTENSIONS
    )


def file_name_words(name: str) -> frozenset[str]:
    """The searchable words of a file's name but its extension (`renderer` for `renderer.py`,
    `test`, `cache` for `test_cache.py`)."""
    return frozenset(search_terms(name.rpartition(".")[0] or name))


#: A path a text gives: folders joined by `/` (`ocean_sound_log/renderer.py`, `src/billing/`,
#: `@lib/ledger.ex`, `/home/me/app/main.go`, a URL's path). A pair such as "and/or" or
#: "client/server" (one slash, no file name with an extension) is no path.
_PATH = re.compile(r"(?<![\w./@-])[@/]?((?:[\w.@-]+/)+[\w.@-]*)")
_FILE_NAME = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,7}$")


def _path_parts(match: re.Match[str]) -> list[str] | None:
    """The parts of a path match, or None when it is no path ("and/or")."""
    path = match.group(0)
    parts = [p for p in match.group(1).split("/") if p]
    if len(parts) < 2:
        return None
    if path.count("/") < 2 and not path.startswith("@") and not _FILE_NAME.search(parts[-1]):
        return None
    return parts


def folder_words(text: str) -> frozenset[str]:
    """The searchable words of `text` said only in the folders of the paths it gives
    (`claude`, `code`, `log` in "see claude_code_log/renderer.py"; `src`, `plugins` in
    "@src/plugins/sso/README.md"): a folder says where a file is, which the project's other
    files share, and the file's own name (or the folder a path ends with) says what it is.
    A word the text also uses elsewhere ("the billing export in billing/export.py") is not one."""
    folders: list[str] = []

    def named(match: re.Match[str]) -> str:
        parts = _path_parts(match)
        if parts is None:
            return match.group(0)
        folders.extend(parts[:-1])
        return f" {parts[-1]} "

    rest = _PATH.sub(named, text)
    if not folders:
        return frozenset()
    standalone = set(search_terms(rest))
    return frozenset(w for w in search_terms(" ".join(folders)) if w not in standalone)


#: A subagent the text hands its work to, as the host writes the mention: Claude Code's
#: `@agent-code-reviewer` and `@"solution-architect (agent)"`.
_ADDRESSEE = re.compile(r'(?<![\w@])@(?:agent-[\w.-]+|"[^"\n]{1,80}? \(agent\)")')


def addressee_words(text: str) -> frozenset[str]:
    """The searchable words of `text` said only in the name of a subagent it hands the work to
    (`solution`, `architect`, `agent` in '@"solution-architect (agent)" write a spec for …'):
    the name says who is to do the work, not what the work is about. A word the text also
    uses elsewhere ("@agent-planner fix the planner's cycle check") is not one."""
    names = _ADDRESSEE.findall(text)
    if not names:
        return frozenset()
    standalone = set(search_terms(_ADDRESSEE.sub(" ", text)))
    return frozenset(w for w in search_terms(" ".join(names)) if w not in standalone)


_SEPARATOR = re.compile(r"[\\/]")


def project_words(project_id: str) -> frozenset[str]:
    """The searchable words of the project's own folder name (`ocean`, `sound`, `log` for a
    project at `/home/me/ocean-sound-log`): its memories, files and commands say them
    everywhere, so in a task they say nothing of what it is about."""
    name = _SEPARATOR.split(project_id.rstrip("/\\"))[-1]
    return frozenset(search_terms(name)) if name else frozenset()


@functools.lru_cache(maxsize=STEM_CACHE_SIZE)
def _memory_stems(
    memory_id: str, version: int, key: str, content: str, tags: tuple[str, ...]
) -> frozenset[str]:
    """The light stems of one version of a memory's key, content and tags (cached: the hot
    path of ranking). Keyed by the parts themselves, not their joined text: a memory read again
    from the store's row cache brings the same strings, whose hashes Python keeps, so a lookup
    does not hash its whole text again."""
    text = " ".join((key, searchable_content(content), *searchable_tags(tags)))
    return frozenset(map(_word_stem, _WORD.findall(fts_text(text))))


def text_terms(terms: Sequence[str], item: MemoryItem) -> tuple[str, ...]:
    """The query terms a memory's own words hold (its content and tags, not its key: a key
    may be a phrase cut short, whose words the text does not say), by a light stem."""
    stems = _memory_stems(item.id, item.version, "", item.content, tuple(item.tags))
    return tuple(t for t, s in _term_stems(tuple(terms)) if s in stems)


@functools.lru_cache(maxsize=WORD_CACHE_SIZE)
def _word_stem(word: str) -> str:
    """`stem(word.lower())`, cached: a memory ranked for the first time stems every word."""
    return stem(word.lower())


def matched_terms(terms: Sequence[str], item: MemoryItem) -> tuple[str, ...]:
    """The query terms a memory's key, content or tags contain (by a light stem), query order."""
    stems = _memory_stems(item.id, item.version, item.key, item.content, tuple(item.tags))
    return tuple(t for t, s in _term_stems(tuple(terms)) if s in stems)


def matched_counts(
    terms: Sequence[str], hits: Iterable[tuple[MemoryItem, float]], below: float
) -> dict[str, int]:
    """How many of the query `terms` each hit whose score is not at least `below` contains
    (`len(matched_terms(terms, item))`, the last of an id given twice), in one pass: the terms'
    stems looked up once, no tuple of terms made per hit. Fusion needs only the count, and only
    for the lexical hits below saturation (`relevance.needs_matched`)."""
    term_stems = _term_stems(tuple(terms))
    counts: dict[str, int] = {}
    for item, score in hits:
        if score >= below:
            continue
        stems = _memory_stems(item.id, item.version, item.key, item.content, tuple(item.tags))
        count = 0
        for _, term_stem in term_stems:
            if term_stem in stems:
                count += 1
        counts[item.id] = count
    return counts


@functools.lru_cache(maxsize=4096)
def _stem_cached(word: str) -> str:
    return stem(word)


@functools.lru_cache(maxsize=1024)
def _term_stems(terms: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """Each query term with its light stem: one lookup per memory a query ranks, not one per
    term and memory."""
    return tuple((t, _stem_cached(t)) for t in terms)


_GENERIC_STEMS = frozenset(stem(w) for w in GENERIC_WORDS)


def parse_query(query: object) -> ParsedQuery:
    """The query checked (non-empty text), cut to `MAX_QUERY_CHARS`, NUL-free, with its words."""
    if not isinstance(query, str):
        raise InvalidArgumentError("query must be a string")
    text = query[:MAX_QUERY_CHARS].encode("utf-8", "replace").decode("utf-8").replace("\x00", " ")
    text = text.strip()
    if not text:
        raise InvalidArgumentError("query must not be empty")
    return ParsedQuery(text, query_terms(text))


def check_types(types: Sequence[MemoryType] | None) -> list[MemoryType] | None:
    """The distinct types asked for, sorted; None when that is no filter (none, or all)."""
    if not types:
        return None
    if isinstance(types, str):
        raise InvalidArgumentError("types must be a list of memory types")
    checked: list[MemoryType] = []
    for value in types:
        try:
            checked.append(MemoryType(value))
        except ValueError as exc:
            raise InvalidArgumentError(f"unknown memory type: {str(value)[:40]!r}") from exc
    distinct = sorted(set(checked))
    return None if len(distinct) == len(MemoryType) else distinct


def check_paths(paths: Sequence[str], name: str) -> tuple[str, ...]:
    """The distinct paths given (stripped, blanks dropped); refuses a bad list in one line."""
    if isinstance(paths, str):
        raise InvalidArgumentError(f"{name} must be a list of paths")
    if len(paths) > MAX_SCOPE_PATHS:
        raise InvalidArgumentError(f"at most {MAX_SCOPE_PATHS} {name}")
    cleaned: list[str] = []
    for path in paths:
        if not isinstance(path, str) or "\x00" in path or len(path) > 4096:
            raise InvalidArgumentError(f"{name} must be strings without NUL, under 4096 chars")
        if path.strip():
            cleaned.append(path.strip())
    return tuple(dict.fromkeys(cleaned))
