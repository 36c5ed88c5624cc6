"""Evidence weighed over any number of sessions: recipes, routines and tool habits.

The same rules read one episode (the rules extractor) or every stored command of a project
(the processor's project pass): a recipe is the command that succeeded most often and most
recently for a purpose, in the folder it ran in and consistent with the project's main
ecosystem; a command of another ecosystem or a sub-folder is a scoped recipe, never "the test
command". The checks run before commits become one quality-gate recipe; commands repeated at
the end of sessions become a routine; other procedures the sessions repeat become workflows.
"""

from squirrel_memory.extractors.evidence.attempts import (
    CHECK_PURPOSES,
    EVIDENCE_TAG,
    Attempt,
    Finding,
    attempts,
    command_base,
    main_ecosystem,
)
from squirrel_memory.extractors.evidence.habits import (
    HABIT_CATEGORIES,
    MIN_HABIT_COUNT,
    habits,
    package_manager_fact,
)
from squirrel_memory.extractors.evidence.recipes import (
    RECENCY_HALF_LIFE_DAYS,
    RECIPE_MIN_SUCCESSES,
    recipes,
)
from squirrel_memory.extractors.evidence.routines import finishing_checks, quality_gate, routine
from squirrel_memory.extractors.evidence.workflows import workflows

__all__ = [
    "CHECK_PURPOSES",
    "EVIDENCE_TAG",
    "HABIT_CATEGORIES",
    "MIN_HABIT_COUNT",
    "RECENCY_HALF_LIFE_DAYS",
    "RECIPE_MIN_SUCCESSES",
    "Attempt",
    "Finding",
    "attempts",
    "command_base",
    "finishing_checks",
    "habits",
    "main_ecosystem",
    "package_manager_fact",
    "quality_gate",
    "recipes",
    "routine",
    "workflows",
]
