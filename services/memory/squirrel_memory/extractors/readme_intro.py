"""The introduction of a README (its prose before the first section heading) and the stack it
says the project is built with ("built with Electron and Angular", "written in Rust").

The same reading serves two rules: `readme_stack` states the stack where the code the session
touched agrees, and `about` quotes the introduction's stack sentence beside the README's
description, as the project's own words. An introduction that describes another project too (a
fork, a template, a port) names no stack, and neither does a sentence about a past stack, another
project or a question.
"""

from __future__ import annotations

import re
from functools import cache

from squirrel_memory.repository.stack import named_stack

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


#: Longest stack sentence quoted (characters): a longer one is a list, not a statement.
MAX_STACK_SENTENCE_CHARS = 200


def stack_sentence(text: str) -> str | None:
    """The first sentence of a README's introduction that says what the project is built with
    and names a known framework or language there ("The application is a cross-platform,
    open-source project built with Electron and Angular."), else None (`stated_stack`'s rules)."""
    intro = introduction(text)
    if _OTHER_PROJECT.search(intro):
        return None
    for paragraph in intro.split("\n\n"):
        for sentence in _SENTENCE_END.split(" ".join(paragraph.split())):
            if _NOT_THIS.search(sentence) or len(sentence) > MAX_STACK_SENTENCE_CHARS:
                continue
            if any(_names_pattern().search(p["names"]) for p in _STACK_PHRASE.finditer(sentence)):
                return sentence if sentence.endswith((".", "!")) else sentence + "."
    return None
