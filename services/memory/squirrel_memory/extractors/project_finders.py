"""The finders' rows of what the project is: where things live and how its parts are wired, its
home and branch, what its files say of themselves, its packages, tasks, naming and conventions,
what git ignores and where its instructions and settings are (`finders.FOUND` keeps them in
this order)."""

from __future__ import annotations

from squirrel_memory.extractors.apply_steps import apply_steps
from squirrel_memory.extractors.architecture import IMPORTANCE as ARCHITECTURE_IMPORTANCE
from squirrel_memory.extractors.architecture import architecture_points
from squirrel_memory.extractors.checked_ignores import IMPORTANCE as CHECKED_IMPORTANCE
from squirrel_memory.extractors.checked_ignores import checked_ignores
from squirrel_memory.extractors.cited_conventions import IMPORTANCE as CITED_IMPORTANCE
from squirrel_memory.extractors.cited_conventions import cited_conventions
from squirrel_memory.extractors.code_answers import IMPORTANCE as CODE_ANSWER_IMPORTANCE
from squirrel_memory.extractors.code_answers import code_answers
from squirrel_memory.extractors.entry_folders import IMPORTANCE as ENTRY_IMPORTANCE
from squirrel_memory.extractors.entry_folders import entry_folders
from squirrel_memory.extractors.env_files import IMPORTANCE as ENV_IMPORTANCE
from squirrel_memory.extractors.env_files import env_files
from squirrel_memory.extractors.file_headers import (
    CODE_DOC_IMPORTANCE,
    file_headers,
    root_code_docs,
)
from squirrel_memory.extractors.file_headers import IMPORTANCE as HEADER_IMPORTANCE
from squirrel_memory.extractors.file_naming import IMPORTANCE as NAMING_IMPORTANCE
from squirrel_memory.extractors.file_naming import file_naming
from squirrel_memory.extractors.finder_parts import (
    placed_parts,
    read_rule_parts,
    written_note_parts,
)
from squirrel_memory.extractors.finder_rows import Extract, Finder, files_of, one, path_of
from squirrel_memory.extractors.ignore_rules import IMPORTANCE as IGNORED_IMPORTANCE
from squirrel_memory.extractors.ignore_rules import ignore_rules
from squirrel_memory.extractors.instruction_imports import IMPORTANCE as IMPORTS_IMPORTANCE
from squirrel_memory.extractors.instruction_imports import instruction_imports
from squirrel_memory.extractors.main_branch import IMPORTANCE as MAIN_BRANCH_IMPORTANCE
from squirrel_memory.extractors.main_branch import main_branch
from squirrel_memory.extractors.package_names import IMPORTANCE as PACKAGE_NAME_IMPORTANCE
from squirrel_memory.extractors.package_names import package_names
from squirrel_memory.extractors.package_scripts import IMPORTANCE as SCRIPTS_IMPORTANCE
from squirrel_memory.extractors.package_scripts import package_scripts
from squirrel_memory.extractors.pasted_brief import PART_IMPORTANCE as BRIEF_IMPORTANCE
from squirrel_memory.extractors.pasted_brief import brief_parts
from squirrel_memory.extractors.project_home import IMPORTANCE as HOME_IMPORTANCE
from squirrel_memory.extractors.project_home import project_home
from squirrel_memory.extractors.read_ignores import IMPORTANCE as READ_IGNORES_IMPORTANCE
from squirrel_memory.extractors.read_ignores import read_ignores
from squirrel_memory.extractors.sibling_patterns import IMPORTANCE as PATTERN_IMPORTANCE
from squirrel_memory.extractors.sibling_patterns import sibling_patterns
from squirrel_memory.extractors.user_plans import IMPORTANCE as PLAN_IMPORTANCE
from squirrel_memory.extractors.user_plans import user_plans
from squirrel_memory.extractors.workspace_members import IMPORTANCE as MEMBERS_IMPORTANCE
from squirrel_memory.extractors.workspace_members import workspace_members
from squirrel_memory.models import MemoryType

#: Importance of how a change is put into effect (the assistant's advice, not a run command).
APPLY_IMPORTANCE = 0.45

PROJECT_ROWS: tuple[Extract, ...] = (
    placed_parts,
    # Where the project's source is hosted, as git and the files read in it show.
    Finder(
        one(project_home),
        MemoryType.PROJECT_FACT,
        HOME_IMPORTANCE,
        lambda _f: ("home", "repository"),
        files_of,
        lambda f: tuple(f.refs),
    ),
    # That the repository's branch is `master`, not `main`, as `git branch` listed it.
    Finder(
        one(main_branch),
        MemoryType.PROJECT_FACT,
        MAIN_BRANCH_IMPORTANCE,
        lambda _f: ("git", "branch"),
    ),
    # How the project is built, as the assistant summarised it under an architecture heading.
    Finder(
        architecture_points,
        MemoryType.PROJECT_FACT,
        ARCHITECTURE_IMPORTANCE,
        lambda _f: ("architecture",),
    ),
    # What the scripts and configuration files read whole say of themselves.
    Finder(
        file_headers,
        MemoryType.PROJECT_FACT,
        HEADER_IMPORTANCE,
        lambda f: ("where", f.path),
        path_of,
    ),
    # What the code files at the root (no module's) read whole say of themselves.
    Finder(
        root_code_docs,
        MemoryType.PROJECT_FACT,
        CODE_DOC_IMPORTANCE,
        lambda f: ("where", f.path),
        path_of,
    ),
    # How an edited file's change is put into effect, as the assistant advised.
    Finder(
        apply_steps, MemoryType.RECIPE, APPLY_IMPORTANCE, lambda _f: ("recipe", "apply"), path_of
    ),
    # The monorepo's members the session's commands (and read run lines) name.
    Finder(
        one(workspace_members),
        MemoryType.PROJECT_FACT,
        MEMBERS_IMPORTANCE,
        lambda _f: ("workspace", "monorepo"),
    ),
    # What the assistant found in the code, answering the user's yes-or-no question about it.
    Finder(
        code_answers,
        MemoryType.PROJECT_FACT,
        CODE_ANSWER_IMPORTANCE,
        lambda _f: ("answer", "learned"),
    ),
    # The steps and the things to submit of a brief the user pasted and called the work.
    Finder(brief_parts, MemoryType.PROJECT_FACT, BRIEF_IMPORTANCE, lambda _f: ("brief", "task")),
    # What the user set out to build, or the plan they settled for it, in their own words.
    Finder(user_plans, MemoryType.PROJECT_FACT, PLAN_IMPORTANCE, lambda _f: ("plan", "user")),
    # A package whose name its folder does not tell, as its manifest read says.
    Finder(
        package_names,
        MemoryType.PROJECT_FACT,
        PACKAGE_NAME_IMPORTANCE,
        lambda _f: ("workspace", "package"),
        files_of,
    ),
    # What each package runs for a task, as the task runner's output printed it.
    Finder(
        package_scripts,
        MemoryType.PROJECT_FACT,
        SCRIPTS_IMPORTANCE,
        lambda _f: ("workspace", "scripts"),
    ),
    # How the files of a folder the session wrote into are named.
    Finder(
        file_naming,
        MemoryType.PROJECT_FACT,
        NAMING_IMPORTANCE,
        lambda f: ("naming", "convention", f.folder),
    ),
    written_note_parts,
    read_rule_parts,
    # What the session's edits made git ignore, with the comment written above it.
    Finder(
        ignore_rules,
        MemoryType.PROJECT_FACT,
        IGNORED_IMPORTANCE,
        lambda f: ("gitignore", "where", f.path),
        path_of,
    ),
    # An instruction file that only imports another: where the instructions live.
    Finder(
        instruction_imports,
        MemoryType.PROJECT_FACT,
        IMPORTS_IMPORTANCE,
        lambda f: ("instructions", "where", f.path),
        path_of,
    ),
    # The settings an environment file of the project names (names only, never values).
    Finder(
        env_files, MemoryType.PROJECT_FACT, ENV_IMPORTANCE, lambda f: ("config", f.path), path_of
    ),
    # What git ignores, as `git check-ignore -v` showed it with the file and line.
    Finder(
        checked_ignores,
        MemoryType.PROJECT_FACT,
        CHECKED_IMPORTANCE,
        lambda f: ("gitignore", "where", f.path),
        path_of,
    ),
    # What the project keeps out of git, as the root ignore file the session read lists it.
    Finder(
        read_ignores,
        MemoryType.PROJECT_FACT,
        READ_IGNORES_IMPORTANCE,
        lambda f: ("gitignore", "where", f.path),
        path_of,
    ),
    # The shape the files of one folder share, as the session read and wrote them.
    Finder(
        sibling_patterns,
        MemoryType.PROJECT_FACT,
        PATTERN_IMPORTANCE,
        lambda f: ("convention", "pattern", f.folder),
        files_of,
    ),
    # A convention of the project's written standards the assistant cited and an edit applied.
    Finder(
        cited_conventions,
        MemoryType.PROJECT_FACT,
        CITED_IMPORTANCE,
        lambda _f: ("convention", "cited"),
        path_of,
    ),
    # How the next entry of a folder of records (changesets, decision records) is written.
    Finder(
        entry_folders,
        MemoryType.PROJECT_FACT,
        ENTRY_IMPORTANCE,
        lambda f: ("convention", "entries", f.path),
        path_of,
    ),
)
