"""The eighth habits phrasebook: an instruction whose object or place is "the <things> you
<make>" or "all the <things> you <make>" ("use type hints in all the code you write", "make sure
the tests you write are deterministic"), which says how every later such thing is made; and the
one-offs that look like it (one thing, things already made, a place or day of the moment, a
question, quoted words). Written before the rule that reads them. Read by
`bench.habits_phrasebook`.
"""

from __future__ import annotations

#: Instructions over every later thing of a kind the assistant makes.
HABITS_EIGHTH: tuple[str, ...] = (
    "make sure the tests you write are deterministic",
    "use type hints in all the code you write",
    "don't use print statements in the code you write",
    "put a license header at the top of the scripts you create",
    "add a short docstring to the public functions you write",
    "keep the PRs you open under 400 lines",
    "prefix the branch names you create with the ticket id",
    "log through the structured logger in the code you write",
    "Write the docs you add in plain English, no marketing speak.",
    "please name the migrations you generate after the table they change",
    "do not hardcode credentials in the config files you create",
)

#: One-offs in the same shape.
ONE_OFFS_EIGHTH: tuple[str, ...] = (
    "put the function you write in utils.py",
    "move the tests you wrote into the new folder",
    "delete the files you created",
    "revert the changes you made to the config",
    "rename the tests you add in this PR to match the new module",
    "send me the scripts you write for the demo today",
    "show me the tests you add before committing them",
    "can you use type hints in the code you write?",
    "> don't use print statements in the code you write",
    "why don't you use type hints in the code you write?",
    "check the links you add to the README now",
    "fix the types in the code you wrote yesterday",
    "paste the commands you run into the chat so I can copy them",
)
