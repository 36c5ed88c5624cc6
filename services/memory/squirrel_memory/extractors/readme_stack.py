"""The stack the root README's own description names, when the code the session touched agrees.

A README often says what the project is built with in its opening paragraphs ("The
application is a cross-platform desktop app built with Electron and Vue."), and
a session that reads it may touch too few code files, and no manifest, for the language rule
to speak. Prose alone is never enough: a framework or language named after "built with",
"written in", "powered by" … in the README's introduction (before its first section heading)
is stated only when a root manifest the session read, or a code file of the project's own it
read or edited, is of the same language family (Electron and Vue with a `.ts` file, Rails
with a `Gemfile`); a name the code does not agree with is left out. The same rule in every
ecosystem, with the frameworks and languages of `stack.toml`.

It never fires on a README in a sub-folder or outside the project (a dependency's), on an
introduction that says the project is a fork, template or port of another (its stack may be
the other project's), on a sentence about a past, another project or a question ("unlike",
"instead of", "originally", "?"), nor when the code touched is of another family.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import PurePosixPath

from squirrel_memory.extractors.about import root_file_read
from squirrel_memory.extractors.manifests import manifest_language
from squirrel_memory.extractors.project_fact import Fact
from squirrel_memory.extractors.stack_evidence import family
from squirrel_memory.extractors.touched_languages import touched_code
from squirrel_memory.models import StoredEvent
from squirrel_memory.repository.instructions import instruction_kind
from squirrel_memory.repository.stack import is_language_name, language_name, named_stack

README_STACK_KEY = "readme_stack"
#: Code files named as the evidence that agrees.
NAMED_FILES = 2

#: "built with X and Y", "written in X", "powered by X": the words after it name the stack.
_STACK_PHRASE = re.compile(
    r"\b(?:built|written|made|developed|implemented|powered|created)\s+"
    r"(?:with|in|on|using|by|upon)\s+(?P<names>[^.;:!?\n(]+)",
    re.IGNORECASE,
)
#: An introduction that describes another project as well (a fork, a template, a port): its
#: stack sentence may be the other project's.
_OTHER_PROJECT = re.compile(
    r"\bfork(?:ed)?\b|\btemplate\b|\bboilerplate\b|\bstarter\b|\bport of\b|\bclone of\b|"
    r"\bgenerated (?:from|by|with)\b|\bbased on\b|\binspired by\b",
    re.IGNORECASE,
)
#: A sentence about a past stack, another project or an open question.
_NOT_THIS = re.compile(
    r"\?|\bunlike\b|\binstead of\b|\boriginally\b|\bpreviously\b|\bformerly\b|\bused to\b|"
    r"\bmigrat\w*|\brewrit\w*|\bwas (?:built|written|made)\b",
    re.IGNORECASE,
)
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
#: The underline of a setext heading (`Title` over `=====`).
_UNDERLINE = re.compile(r"^\s{0,3}(?:=+|-{2,})\s*$")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _is_root_readme(path: str) -> bool:
    return "/" not in path and instruction_kind(path) == "readme"


def introduction(text: str) -> str:
    """The README's prose before its first section heading (after its title): no HTML, badge,
    image, table or code lines."""
    lines = text.splitlines()
    if lines and _HEADING.match(lines[0]):
        lines = lines[1:]
    elif len(lines) > 1 and _UNDERLINE.match(lines[1]):
        lines = lines[2:]
    kept: list[str] = []
    fenced = False
    for line in lines:
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if _HEADING.match(line) or (kept and kept[-1] and _UNDERLINE.match(line)):
            if not _HEADING.match(line):
                kept.pop()  # the setext heading's own text
            break
        if fenced or stripped.startswith(("<", "![", "[![", "|")):
            continue
        kept.append(stripped)
    return "\n".join(kept)


@cache
def _names_pattern() -> re.Pattern[str]:
    names = sorted((n for n in named_stack() if len(n) > 1), key=len, reverse=True)
    alternatives = "|".join(re.escape(n) for n in names)
    return re.compile(rf"(?<![\w/.@-])(?:{alternatives})(?![\w/@-])")


def stated_stack(text: str) -> list[str]:
    """The frameworks and languages a README's introduction says the project is built with,
    in the order it names them; none when it describes another project too."""
    intro = introduction(text)
    if _OTHER_PROJECT.search(intro):
        return []
    found: list[str] = []
    for paragraph in intro.split("\n\n"):
        for sentence in _SENTENCE_END.split(" ".join(paragraph.split())):
            if _NOT_THIS.search(sentence):
                continue
            for phrase in _STACK_PHRASE.finditer(sentence):
                for name in _names_pattern().findall(phrase["names"]):
                    if name not in found:
                        found.append(name)
    return found


def _families(name: str) -> set[str]:
    return {family(language_name(eco)) for eco in named_stack().get(name, ())} | {family(name)}


def readme_stack(
    events: list[StoredEvent], paths: list[tuple[str, str]], *, frameworks_only: bool = False
) -> Fact | None:
    """The fact of the stack the root README's introduction names, where a root manifest read or
    an own code file touched agrees (`paths`: project-relative path, event id), else None; with
    `frameworks_only` (the language is stated already), only when it names a framework."""
    readme: tuple[str, str, str] | None = None
    for event in events:
        read = root_file_read(event, _is_root_readme)
        if read is not None:
            readme = (read[0], read[1], event.id)
    if readme is None:
        return None
    path, text, readme_id = readme
    named = stated_stack(text)
    if not named:
        return None
    evidence: dict[str, tuple[str, set[str], set[str]]] = {}
    for rel, event_id in paths:
        language = manifest_language(rel) if "/" not in rel else None
        if language:
            kind = "manifest"
        else:
            touched = touched_code([(rel, event_id)], {}).files
            if not touched:
                continue
            language, kind = next(iter(touched)), "code"
        fam = family(language)
        _, files, ids = evidence.setdefault(fam, (language, set(), set()))
        files.add(rel if kind == "code" else f"{rel} (manifest)")
        ids.add(event_id)
    agreed = [name for name in named if _families(name) & set(evidence)]
    if not agreed or (frameworks_only and all(is_language_name(n) for n in agreed)):
        return None
    families = {fam for name in agreed for fam in _families(name) if fam in evidence}
    parts = []
    ids = {readme_id}
    for fam in sorted(families):
        language, files, event_ids = evidence[fam]
        shown = ", ".join(f"`{f}`" for f in sorted(files)[:NAMED_FILES])
        more = len(files) - NAMED_FILES
        parts.append(f"{language}: {shown}" + (f" and {more} more" if more > 0 else ""))
        ids |= event_ids
    listed = (
        " and ".join(agreed) if len(agreed) < 3 else ", ".join(agreed[:-1]) + f" and {agreed[-1]}"
    )
    text_out = (
        f"{path} says the project is built with {listed}; the files worked on agree "
        f"({'; '.join(parts)})."
    )
    tags = ("stack", "framework", "readme", *(name.lower() for name in agreed))
    name = PurePosixPath(path).name
    return Fact(README_STACK_KEY, text_out, tags, 0.6, tuple(sorted(ids)), (name,))
