"""A reply's line cut into the sentences, and a sentence into the clauses, that a statement of
where code lives is read from.

A line is cut into sentences after a full stop, "!" or "?" and a space before a capital, a code
span or emphasis, never after an abbreviation ("e.g. `Shop.Orders`"). A list item's first
sentence keeps its marker, so it is read as an item of a summary list, and its others stand
alone. A sentence is cut into clauses where two clauses that each name code meet ("Routes are
installed in `a`; the database is connected in `b`").
"""

from __future__ import annotations

import re

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*])")
#: Abbreviations whose full stop ends no sentence ("e.g. `Shop.Orders`", "i.e. the").
_ABBREVIATION = re.compile(r"\b(?:e\.g|i\.e|etc|vs|cf|incl|resp)\.$", re.IGNORECASE)
#: A list item's marker: "- ", "* ", "• ", "1. ", "2) ".
BULLET = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+")
#: Where a sentence's clauses meet: "…; the database …", "…, and the tests …".
_CLAUSE_BOUNDARY = re.compile(r"(;\s+|,\s+(?:and|while|whereas|but)\s+)")


def sentences(line: str) -> list[str]:
    """The sentences of `line`: cut after a full stop, "!" or "?" and a space before a capital,
    a code span or emphasis, never after an abbreviation ("contexts such as, e.g. `Orders`")."""
    found: list[str] = []
    for piece in _SENTENCE.split(line):
        if found and _ABBREVIATION.search(found[-1]):
            found[-1] += " " + piece
        else:
            found.append(piece)
    return found


def bullet_sentences(line: str) -> list[str]:
    """The sentences of `line`; a list item's first keeps its marker ("- Blog posts in
    `data/blog/`" is read as an item of a summary list), and its others stand alone, so a
    second sentence's denial or plan ("Web code never touches `Repo` directly") does not rule
    out the first."""
    marker = BULLET.match(line)
    if marker is None:
        return sentences(line.strip())
    found = sentences(line[marker.end() :].strip())
    return [line[: marker.end()] + found[0], *found[1:]] if found else [line]


def clauses(text: str) -> list[str]:
    """`text` cut where two clauses that each name code meet ("Routes are installed in `a`;
    the database is connected in `b`, and the tests point `c` at …"): each clause stands
    whole, with its own scope words, and a clause naming no code stays with the one before
    ("Routes, models, and views are defined in `x`" is one clause)."""
    parts = _CLAUSE_BOUNDARY.split(text)
    kept = [parts[0]]
    for boundary, part in zip(parts[1::2], parts[2::2], strict=True):
        if "`" in kept[-1] and "`" in part and kept[-1].count("`") % 2 == 0:
            kept.append(part)
        else:
            kept[-1] += boundary + part
    return kept


__all__ = ["BULLET", "bullet_sentences", "clauses", "sentences"]
