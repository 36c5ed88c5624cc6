"""The finders' rows of how things are done here: the commands the docs, the assistant's
replies, a subagent's brief or a written description give for a role, release and generator
steps, the project's own scripts and custom commands, its tasks, and how the forge and git are
worked (`finders.FOUND` keeps them in this order)."""

from __future__ import annotations

from squirrel_core.host_files import SKILL_TAG
from squirrel_memory.extractors.asked_steps import IMPORTANCE as ASKED_STEPS_IMPORTANCE
from squirrel_memory.extractors.asked_steps import asked_steps
from squirrel_memory.extractors.branch_merges import IMPORTANCE as MERGES_IMPORTANCE
from squirrel_memory.extractors.branch_merges import branch_merges
from squirrel_memory.extractors.command_outputs import IMPORTANCE as OUTPUT_IMPORTANCE
from squirrel_memory.extractors.command_outputs import command_outputs
from squirrel_memory.extractors.command_steps import IMPORTANCE as COMMAND_IMPORTANCE
from squirrel_memory.extractors.command_steps import command_steps
from squirrel_memory.extractors.delegated_commands import IMPORTANCE as DELEGATED_IMPORTANCE
from squirrel_memory.extractors.delegated_commands import delegated_commands
from squirrel_memory.extractors.doc_roles import IMPORTANCE as DOC_ROLES_IMPORTANCE
from squirrel_memory.extractors.doc_roles import doc_roles
from squirrel_memory.extractors.finder_rows import Extract, Finder, files_of, one, path_of
from squirrel_memory.extractors.forge_workflows import IMPORTANCE as FORGE_IMPORTANCE
from squirrel_memory.extractors.forge_workflows import forge_workflows
from squirrel_memory.extractors.generated_commits import IMPORTANCE as GENERATED_IMPORTANCE
from squirrel_memory.extractors.generated_commits import generated_commits
from squirrel_memory.extractors.lead_in_commands import IMPORTANCE as LEAD_IN_IMPORTANCE
from squirrel_memory.extractors.lead_in_commands import lead_in_commands
from squirrel_memory.extractors.listed_tasks import IMPORTANCE as LISTED_TASKS_IMPORTANCE
from squirrel_memory.extractors.listed_tasks import listed_tasks
from squirrel_memory.extractors.placeholder_commands import IMPORTANCE as SHAPE_IMPORTANCE
from squirrel_memory.extractors.placeholder_commands import placeholder_commands
from squirrel_memory.extractors.planned_checks import IMPORTANCE as PLANNED_CHECKS_IMPORTANCE
from squirrel_memory.extractors.planned_checks import planned_checks
from squirrel_memory.extractors.project_scripts import IMPORTANCE as SCRIPT_IMPORTANCE
from squirrel_memory.extractors.project_scripts import project_scripts
from squirrel_memory.extractors.release_steps import IMPORTANCE as RELEASE_STEPS_IMPORTANCE
from squirrel_memory.extractors.release_steps import release_steps
from squirrel_memory.extractors.replied_commands import IMPORTANCE as REPLIED_IMPORTANCE
from squirrel_memory.extractors.replied_commands import replied_commands
from squirrel_memory.extractors.review_checks import IMPORTANCE as REVIEW_CHECKS_IMPORTANCE
from squirrel_memory.extractors.review_checks import review_checks
from squirrel_memory.extractors.verified_commands import VERIFIED_ROW
from squirrel_memory.extractors.written_checks import IMPORTANCE as WRITTEN_CHECKS_IMPORTANCE
from squirrel_memory.extractors.written_checks import written_checks
from squirrel_memory.models import MemoryType

RECIPE_ROWS: tuple[Extract, ...] = (
    # How to build, test or check, as the docs the session read say where the command's own
    # words do not (under a heading or in a sentence that names the role).
    Finder(
        doc_roles, MemoryType.RECIPE, DOC_ROLES_IMPORTANCE, lambda _f: ("recipe", "docs"), path_of
    ),
    # A command handed over for a role under a lead-in that names it ("Rebuild with:" above a
    # block), in the assistant's reply, a skill's or command's body or a brief.
    Finder(
        lead_in_commands,
        MemoryType.RECIPE,
        LEAD_IN_IMPORTANCE,
        lambda _f: ("recipe", "lead-in"),
    ),
    # How the project is released, as a session bumped a version and tagged it: steps in order.
    Finder(
        release_steps,
        MemoryType.RECIPE,
        RELEASE_STEPS_IMPORTANCE,
        lambda _f: ("recipe", "release", "steps"),
        files_of,
    ),
    # A command a document gives with a placeholder and examples of it: one shape per thing.
    Finder(
        placeholder_commands,
        MemoryType.RECIPE,
        SHAPE_IMPORTANCE,
        lambda _f: ("recipe", "documented", "per-item"),
        files_of,
    ),
    # The commands the assistant's answer gave, in order, when the user asked how to do a thing.
    Finder(
        asked_steps,
        MemoryType.RECIPE,
        ASKED_STEPS_IMPORTANCE,
        lambda _f: ("recipe", "asked"),
    ),
    # The build and test commands a subagent was briefed to run or reported passing.
    Finder(
        one(delegated_commands),
        MemoryType.RECIPE,
        DELEGATED_IMPORTANCE,
        lambda _f: ("recipe", "delegated"),
    ),
    # The test command the assistant told the user to run and the session never ran.
    Finder(
        one(replied_commands),
        MemoryType.RECIPE,
        REPLIED_IMPORTANCE,
        lambda _f: ("recipe", "replied"),
    ),
    # A generator run (or named by the assistant) whose output a commit of the session took.
    Finder(
        generated_commits,
        MemoryType.RECIPE,
        GENERATED_IMPORTANCE,
        lambda _f: ("recipe", "generated"),
    ),
    # The checks a description the assistant wrote (a pull request's, a commit's) lists as
    # passing, when the session never ran them.
    Finder(
        one(written_checks),
        MemoryType.RECIPE,
        WRITTEN_CHECKS_IMPORTANCE,
        lambda _f: ("recipe", "described"),
    ),
    # The checks the approved plan the session implements lists, when no run settled them.
    Finder(
        one(planned_checks),
        MemoryType.RECIPE,
        PLANNED_CHECKS_IMPORTANCE,
        lambda _f: ("recipe", "planned"),
    ),
    VERIFIED_ROW,  # the checks the assistant's own report says passed, never run in the session
    # How the project's own scripts the session ran (and did not write) are started.
    Finder(
        project_scripts, MemoryType.RECIPE, SCRIPT_IMPORTANCE, lambda _f: ("recipe", "run"), path_of
    ),
    # What the custom commands the user ran do, from the steps their prompts list.
    Finder(
        command_steps,
        MemoryType.RECIPE,
        COMMAND_IMPORTANCE,
        lambda f: ("recipe", "command", *((SKILL_TAG,) if f.skill else ())),
    ),
    # Where the custom commands the user ran put what they produce, as their run showed it.
    Finder(
        command_outputs,
        MemoryType.RECIPE,
        OUTPUT_IMPORTANCE,
        lambda _f: ("recipe", "command"),
        path_of,
    ),
    # The project's tasks, as its task runner listed them in a log or output the session saw.
    Finder(
        listed_tasks,
        MemoryType.PROJECT_FACT,
        LISTED_TASKS_IMPORTANCE,
        lambda f: ("tasks", f.key.rsplit(":", 1)[-1]),
    ),
    # How a failed CI run's log is read and pull requests are merged, as the session did it.
    Finder(
        forge_workflows,
        MemoryType.RECIPE,
        FORGE_IMPORTANCE,
        lambda f: ("recipe", "forge", f.key.rsplit(":", 1)[-1]),
    ),
    # How branches are merged at the project, as the session's merges did it.
    Finder(
        branch_merges,
        MemoryType.RECIPE,
        MERGES_IMPORTANCE,
        lambda _f: ("recipe", "git", "merge"),
    ),
    # The checks a pull request's test plan, read in the session, says were run.
    Finder(
        review_checks,
        MemoryType.RECIPE,
        REVIEW_CHECKS_IMPORTANCE,
        lambda _f: ("recipe", "review", "checks"),
    ),
)
