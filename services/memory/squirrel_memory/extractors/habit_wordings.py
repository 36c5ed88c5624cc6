"""Habits said once in everyday wordings that can only be meant as a rule for later work.

A clause is tried against each wording in turn and the first that reads it gives the habit:
first the rules over every thing of a kind the work makes (`kind_rules`: "every public function
needs a doc comment", "tests must not hit the network", "put set -euo pipefail at the top of
every script"), then what the user or the team wants, forbids or chooses for all later work
(`standing_wishes`: "I want conventional commits from now on", "don't ever commit .env files",
"we use RSpec here, not minitest"). A question, or a clause tied to the moment ("now", "again",
"this time"), states no habit. Code names are allowed in these forms: the rule is about every
thing of the kind, not one.
"""

from __future__ import annotations

from squirrel_memory.extractors.habit_forms import HabitForm
from squirrel_memory.extractors.habit_kinds import MOMENT
from squirrel_memory.extractors.kind_rules import KIND_RULES
from squirrel_memory.extractors.standing_wishes import STANDING_WISHES

#: Every wording, in the order they are tried: a clause two could read is the first's.
_WORDINGS = (*KIND_RULES, *STANDING_WISHES)


def habit_wording(clause: str) -> HabitForm | None:
    """The habit `clause` states in one of the everyday wordings, or None."""
    text = clause.strip().rstrip(" .!")
    if not text or text.endswith("?") or MOMENT.search(text):
        return None
    for pattern, form in _WORDINGS:
        if (match := pattern.match(text)) and (found := form(match)):
            return found
    return None
