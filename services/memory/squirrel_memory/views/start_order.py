"""The facts of the brief a session starts with: what sessions used, not what none ever did.

Each line of the brief a session starts with names the memory it was rendered from, so the
served log judges it like any served memory (`outcomes.judge`): used when the session touched
what it says, unused otherwise. A fact served at `UNUSED_STARTS` session starts and never used
nor missed (`OutcomeBook.passed_over`: a prompt's answer that served it unused does not count)
is left out of the brief a session starts with: four sessions were shown it and none acted on
it, and in the foresight replay no such fact (the framework, where CI runs, a subagent's report)
was used by a later start. It is never dropped from the brief view asked for otherwise, from
search or from the per-prompt context (a prompt naming what it says still gets it), and a single
use puts it back. A project with no served history keeps every fact.

Nor does a fact of a kind no session starts by acting on: the licence the project or one of its
packages is published under (`NO_START_KEYS`). In the foresight replay a licence line took the
place of a fact a later start used; it stays in the brief asked for otherwise, in search and in
the per-prompt context. Nor does the assistant's answer to the user's question about the code
("is the bonus implemented?" "No. …", `extractors.code_answers`): it says how the code stood when
asked, and the work the question opened is what changes it (the same session may build what the
answer said was missing). Injected at a start, before the user says anything, it reads as how
the code stands now; a prompt that asks it again still gets it from search and the per-prompt
context.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from squirrel_memory.models import MemoryItem

__all__ = ["NO_START_KEYS", "not_passed_over"]

#: Keys (and key prefixes before a `:`) of facts a session start leaves out.
NO_START_KEYS = frozenset({"licence", "answer"})


def not_passed_over(
    facts: Sequence[MemoryItem], passed_over: Callable[[MemoryItem], bool]
) -> list[MemoryItem]:
    """`facts` in their order, without those `passed_over` and those of a kind no session
    starts by acting on (`NO_START_KEYS`)."""
    return [
        fact
        for fact in facts
        if fact.key.split(":", 1)[0] not in NO_START_KEYS and not passed_over(fact)
    ]
