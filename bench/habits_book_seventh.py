"""The seventh habits phrasebook: the same habit as the sixth book's ("the <things> you <make>
should be …") said over "any", "all the" or "whatever" things the assistant makes, or over the
code it writes ("any tests you add should use pytest fixtures", "any code you write should be
fully typed"); and the one-offs that look like it (things already made, a change to undo, a
place or time of the moment, a question, quoted words). Written before the rule that reads
them. Read by `bench.habits_phrasebook`.
"""

from __future__ import annotations

#: Habits over any later thing of a kind the assistant makes.
HABITS_SEVENTH: tuple[str, ...] = (
    "any tests you add should use pytest fixtures",
    "Any code you write should be fully typed.",
    "any new dependencies you add must be pinned to an exact version",
    "any scripts you write should start with set -euo pipefail",
    "all the tests you write should be deterministic",
    "Any SQL you write must use bound parameters, never string concatenation.",
    "the code you write should follow the existing naming in the module",
    "any public functions you add need a docstring",
    "any error messages you add should name the file they failed on",
    "all the migrations you create must be reversible",
    "any components you build should be accessible from the keyboard",
    "whatever tests you write, they must not depend on the wall clock",
)

#: One-offs in the same shape.
ONE_OFFS_SEVENTH: tuple[str, ...] = (
    "any tests you added are broken, fix them",
    "all the tests you wrote should pass now",
    "any changes you make to the config should be reverted after the demo",
    "any tests you add for this fix should go in test_parser.py",
    "does any code you write need to be typed?",
    "> any code you write should be fully typed",
    "any changes you make should be small for now",
    "the code you wrote should be deleted",
    "any files you create today should be removed at the end",
    "any code you write in this branch should be thrown away later",
    "I'm not sure any tests you add would help here",
    "the code you write next should go into the new module",
)
