"""Whether a text turns down what it names: "don't use `npm`", "never run `make deploy`".

A command quoted in a clause that negates it before it is never the way to do something: it is
what the user or the assistant said not to run. The clause is the text since the last sentence
end, semicolon, line break, dash or "but" ("use `pnpm install`, not `npm install`" negates
only the second command; "not `npm`, but `pnpm`" only the first).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

#: Where a clause begins: a sentence end, a semicolon, a line break, a dash, "but".
CLAUSE: Final = re.compile(r"[.!?;\n]\s|\s[—–-]\s|\bbut\b|\n", re.IGNORECASE)
#: Words that turn down what follows them in their clause.
NEGATION: Final = re.compile(
    r"\b(?:do not|don't|never|avoid|must not|should not|shouldn't|without|no need to|"
    r"no longer)\b",
    re.IGNORECASE,
)
#: Words that turn down only what comes right after them ("use `pnpm`, not `npm`", "instead of
#: `npm`"): "If it does not build, run `make clean`" and "Instead of guessing, run `make
#: test`" turn down nothing quoted.
_RIGHT_BEFORE: Final = re.compile(r"\b(?:not|instead of|rather than)\s*$", re.IGNORECASE)
_CODE_SPAN: Final = re.compile(r"`([^`\n]+)`")


#: A negation that "without" turns around: "never commit without running `make check`" asks for
#: the command.
_FORBIDS: Final = re.compile(
    r"\b(?:do not|don't|never|must not|should not|shouldn't)\b", re.IGNORECASE
)


def negated_before(text: str, start: int) -> bool:
    """Whether the clause of `text` that holds position `start` negates what is there."""
    before = text[:start]
    clause = CLAUSE.split(before)[-1] if before else ""
    if _RIGHT_BEFORE.search(clause):
        return True
    found = list(NEGATION.finditer(clause))
    if not found:
        return False
    last = found[-1]
    # "Never X without `cmd`": the two negations ask for the command.
    return not (last.group(0).lower() == "without" and _FORBIDS.search(clause[: last.start()]))


def affirmed_spans(text: str) -> Iterator[str]:
    """The code spans of `text` (without their backticks) no clause turns down, in order."""
    for match in _CODE_SPAN.finditer(text):
        if not negated_before(text, match.start()):
            yield match.group(1)
