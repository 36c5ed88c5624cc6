"""The rules only a session without a read repository needs: what the task files, CI workflows,
root README and instruction files the session read say (a read repository says it itself)."""

from __future__ import annotations

from squirrel_memory.extractors.ci_commands import ci_commands, ci_triggers
from squirrel_memory.extractors.finder_parts import instruction_command_parts
from squirrel_memory.extractors.finder_rows import Extract, Finder, one, path_of
from squirrel_memory.extractors.notes_repository import IMPORTANCE as NOTES_REPOSITORY_IMPORTANCE
from squirrel_memory.extractors.notes_repository import notes_repository
from squirrel_memory.extractors.readme_commands import IMPORTANCE as README_COMMANDS_IMPORTANCE
from squirrel_memory.extractors.readme_commands import readme_commands
from squirrel_memory.extractors.readme_layout import IMPORTANCE as LAYOUT_IMPORTANCE
from squirrel_memory.extractors.readme_layout import readme_layout
from squirrel_memory.extractors.readme_requirements import IMPORTANCE as REQUIREMENTS_IMPORTANCE
from squirrel_memory.extractors.readme_requirements import readme_requirements
from squirrel_memory.extractors.readme_sections import IMPORTANCE as README_SECTIONS_IMPORTANCE
from squirrel_memory.extractors.readme_sections import readme_sections
from squirrel_memory.extractors.session_tasks import IMPORTANCE as SESSION_TASKS_IMPORTANCE
from squirrel_memory.extractors.session_tasks import session_tasks
from squirrel_memory.models import MemoryType

#: Importance of the checks a CI workflow read in a session runs.
CI_IMPORTANCE = 0.6
#: When a CI workflow runs: a fact of the project, below how it is checked.
TRIGGER_IMPORTANCE = 0.5

WITHOUT_REPOSITORY: tuple[Extract, ...] = (
    # A project of notes: everything the session touched and saw is Markdown.
    Finder(
        one(notes_repository),
        MemoryType.PROJECT_FACT,
        NOTES_REPOSITORY_IMPORTANCE,
        lambda _f: ("language", "markdown", "notes"),
    ),
    # Recipes from the task files read in the session (a read repository gives its own).
    Finder(
        session_tasks,
        MemoryType.RECIPE,
        SESSION_TASKS_IMPORTANCE,
        lambda _f: ("recipe", "tasks"),
        path_of,
    ),
    # The checks the CI workflows read or written in the session run.
    Finder(ci_commands, MemoryType.RECIPE, CI_IMPORTANCE, lambda _f: ("recipe", "ci"), path_of),
    # When a workflow runs, when its push trigger is filtered by branch or path.
    Finder(
        ci_triggers,
        MemoryType.PROJECT_FACT,
        TRIGGER_IMPORTANCE,
        lambda _f: ("ci", "trigger"),
        path_of,
    ),
    # How the folders are organised, as the root README read in the session explains.
    Finder(
        one(readme_layout),
        MemoryType.PROJECT_FACT,
        LAYOUT_IMPORTANCE,
        lambda _f: ("layout", "folders"),
        path_of,
    ),
    # What the root README read in the session lists as needed before building or running.
    Finder(
        one(readme_requirements),
        MemoryType.PROJECT_FACT,
        REQUIREMENTS_IMPORTANCE,
        lambda _f: ("requirements", "setup", "readme"),
        path_of,
    ),
    # The everyday commands the root README read in the session documents.
    Finder(
        one(readme_commands),
        MemoryType.RECIPE,
        README_COMMANDS_IMPORTANCE,
        lambda _f: ("recipe", "readme"),
        path_of,
    ),
    # The everyday commands the root instruction files read in the session name.
    instruction_command_parts,
    # The commands the README's set-up, usage and development sections give.
    Finder(
        readme_sections,
        MemoryType.RECIPE,
        README_SECTIONS_IMPORTANCE,
        lambda _f: ("recipe", "readme", "setup"),
        path_of,
    ),
)
"""What only a session without a read repository says (a read repository says it itself)."""
