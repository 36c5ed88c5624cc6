"""What the project is and what it is written in, in one statement.

The statement of what the project is (a README's opening, a manifest's description, an
instruction file's overview, the user's or the assistant's words) often says what it does and
not what it is written in ("tollgate is a rate-limiting reverse proxy for HTTP APIs."), while
the episode's language statement says the stack apart ("Go project (go.mod: Go 1.23)."). Asked
"what is this project?", one memory should say both, so the statement carries the language
statement when a rule can tell it holds, the same in every ecosystem:

- the language statement is one a root manifest backs ("<Languages> project (<manifest> …)"):
  a count of the code files one session touched says where code was seen, not what the whole
  project is written in;
- the statement does not already name one of its languages, or a kindred one ("Elixir client
  for the Mollie payments API" says it; "written in JavaScript" beside a TypeScript manifest is
  left as it is rather than naming two); then the language statement follows it, as written
  ("It is a Go project (go.mod: Go 1.23).");
- a clause of the statement that says the project is written in or built with a language the
  manifest does not show, while it names none the manifest shows ("…, written in Python with
  NumPy." beside a `Cargo.toml` and Rust code), is a README fallen behind a rewrite: the clause
  is left out (its sentence too when little is left of it), so the memory says less rather than
  wrong; nothing decides when the manifest's statement is not there, and the clause stays.
"""

from __future__ import annotations

import re
from dataclasses import replace

from squirrel_memory.extractors.language_parts import stated_languages
from squirrel_memory.extractors.manifests import EXTENSION_LANGUAGES, MANIFEST_LANGUAGES
from squirrel_memory.extractors.project_fact import Fact

#: A language statement manifests back: "Rust project (Cargo.toml: edition 2021)".
_BACKED = re.compile(r"^(?P<languages>[^()]+?) project \((?P<evidence>[^()]+)\)")


def _root_backed(statement: str) -> bool:
    """Whether a language statement names one language or more without a hedge ("JavaScript
    or TypeScript") and is backed by root manifests alone (`Cargo.toml`, `DESCRIPTION`, not
    `api/pyproject.toml`, nor "no code file seen says which")."""
    backed = _BACKED.match(statement)
    if backed is None or " or " in backed["languages"]:
        return False
    paths = [part.split(":", 1)[0].strip() for part in re.split(r"[;,]", backed["evidence"])]
    return all(re.fullmatch(r"[\w.+-]+", path) for path in paths)


#: Every language a statement may name, by its own spelling.
_LANGUAGE_NAMES = frozenset({*EXTENSION_LANGUAGES.values(), *MANIFEST_LANGUAGES.values()})
#: Languages that live beside each other in one project (a TypeScript project's JavaScript, a
#: C++ project's C or CUDA, a JVM project's Java and Kotlin): one never contradicts another.
_KIN = (
    frozenset({"JavaScript", "TypeScript"}),
    frozenset({"C", "C++", "C/C++", "Objective-C", "CUDA"}),
    frozenset({"Java", "Kotlin", "Scala", "Groovy", "Clojure"}),
)
#: Names a clause may give besides the project's language: its scripts, a board, a target.
_BESIDE = frozenset({"Shell", "Assembly", "Arduino", "PowerShell"})
#: A clause that says what the project is written in or built with (its words to the end of
#: the clause).
_STACK_CLAUSE = re.compile(
    # from a comma or the first blank before the words (never from each blank of a run)
    r"(?:^|,\s*|(?<![\s,])\s+)(?:(?:is|are)\s+)?(?:written|implemented|built|developed|made|coded)\s+"
    r"(?:in|with|using)\s+[^.;:!?()\n]{1,120}",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(])")
#: Fewest words a sentence keeps once a clause is left out: less is no statement.
MIN_WORDS_LEFT = 4


def _named(text: str, language: str) -> bool:
    """Whether `text` names `language` as a word ("Go", "C#", "C++", not "Google")."""
    return re.search(rf"(?<![\w#+.-]){re.escape(language)}(?![\w#+-])", text) is not None


def _languages_in(text: str) -> set[str]:
    # Single letters ("C", "R") name a language only in the clause's own case.
    return {name for name in _LANGUAGE_NAMES if _named(text, name)}


def _with_kin(languages: set[str]) -> set[str]:
    return languages.union(*(kin for kin in _KIN if kin & languages))


def _without_contradicted(text: str, languages: set[str]) -> str:
    """`text` less each clause that says it is written in a language `languages` lacks, while
    naming none of them nor their kin (module docstring)."""
    kept: list[str] = []
    shown = _with_kin(languages)
    for said in _SENTENCE_END.split(text):
        left = said
        for clause in _STACK_CLAUSE.finditer(said):
            named = _languages_in(clause.group(0)) - _BESIDE
            if named and not named & shown:
                left = left.replace(clause.group(0), "", 1)
        if left == said or len(re.findall(r"[^\W\d_]+", left)) >= MIN_WORDS_LEFT:
            kept.append(left.strip())
    return " ".join(kept)


def _article(statement: str) -> str:
    first = statement.split(maxsplit=1)[0] if statement else ""
    return "an" if first[:1] in "AEIOU" or first in ("F#", "R") else "a"


def with_language(about: Fact, language: Fact) -> Fact | None:
    """`about` with the language statement when a root manifest backs it and `about` does not
    name its languages, and less the clauses that statement contradicts; None when nothing of
    it is left (module docstring)."""
    languages = stated_languages(language)
    statement = language.content.strip()
    if not languages or not _root_backed(statement):
        return about
    head, sep, said = about.content.partition(": ")
    if not sep:
        return about
    cleaned = _without_contradicted(said, languages)
    if cleaned != said and '"' in said:
        return about  # someone's quoted words: never cut into them
    if not cleaned:
        return None
    if any(_named(cleaned, name) for name in _with_kin(languages)):
        # it says the language, or a kindred one ("written in JavaScript" beside TypeScript):
        # the statement stays as it is rather than naming two
        content = f"{head}: {cleaned}"
    else:
        ending = "" if cleaned.endswith((".", "!", '"', ".\u201d")) else "."
        content = f"{head}: {cleaned}{ending} It is {_article(statement)} {statement}"
    if content == about.content:
        return about
    event_ids = tuple(dict.fromkeys((*about.event_ids, *language.event_ids)))
    return replace(about, content=content, event_ids=event_ids)
