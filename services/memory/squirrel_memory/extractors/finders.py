"""The rules that each find one kind of thing in an episode, and how their findings become
candidates (type, importance, tags, files), in the order the rules extractor keeps them (the
rules only a session without a read repository needs: `finder_docs`)."""

from __future__ import annotations

from squirrel_memory.extractors.answered_questions import IMPORTANCE as DECISION_IMPORTANCE
from squirrel_memory.extractors.answered_questions import answered_questions
from squirrel_memory.extractors.apply_steps import apply_steps
from squirrel_memory.extractors.architecture import IMPORTANCE as ARCHITECTURE_IMPORTANCE
from squirrel_memory.extractors.architecture import architecture_points
from squirrel_memory.extractors.asked_steps import IMPORTANCE as ASKED_STEPS_IMPORTANCE
from squirrel_memory.extractors.asked_steps import asked_steps
from squirrel_memory.extractors.branch_merges import IMPORTANCE as MERGES_IMPORTANCE
from squirrel_memory.extractors.branch_merges import branch_merges
from squirrel_memory.extractors.checked_ignores import IMPORTANCE as CHECKED_IMPORTANCE
from squirrel_memory.extractors.checked_ignores import checked_ignores
from squirrel_memory.extractors.closing_reports import IMPORTANCE as CLOSING_IMPORTANCE
from squirrel_memory.extractors.closing_reports import closing_reports
from squirrel_memory.extractors.code_answers import IMPORTANCE as CODE_ANSWER_IMPORTANCE
from squirrel_memory.extractors.code_answers import code_answers
from squirrel_memory.extractors.command_outputs import IMPORTANCE as OUTPUT_IMPORTANCE
from squirrel_memory.extractors.command_outputs import command_outputs
from squirrel_memory.extractors.command_steps import IMPORTANCE as COMMAND_IMPORTANCE
from squirrel_memory.extractors.command_steps import command_steps
from squirrel_memory.extractors.declined_tools import IMPORTANCE as DECLINED_TOOL_IMPORTANCE
from squirrel_memory.extractors.declined_tools import declined_tools
from squirrel_memory.extractors.declined_trailers import IMPORTANCE as TRAILER_IMPORTANCE
from squirrel_memory.extractors.declined_trailers import declined_trailers
from squirrel_memory.extractors.delegated_commands import IMPORTANCE as DELEGATED_IMPORTANCE
from squirrel_memory.extractors.delegated_commands import delegated_commands
from squirrel_memory.extractors.denied_access import IMPORTANCE as DENIED_IMPORTANCE
from squirrel_memory.extractors.denied_access import denied_access
from squirrel_memory.extractors.doc_roles import IMPORTANCE as DOC_ROLES_IMPORTANCE
from squirrel_memory.extractors.doc_roles import doc_roles
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
    REPORTED_IMPORTANCE,
    placed_parts,
    problems_and_findings,
    read_rule_parts,
    written_note_parts,
)
from squirrel_memory.extractors.finder_rows import Extract, Finder, files_of, one, path_of
from squirrel_memory.extractors.forge_workflows import IMPORTANCE as FORGE_IMPORTANCE
from squirrel_memory.extractors.forge_workflows import forge_workflows
from squirrel_memory.extractors.generated_commits import IMPORTANCE as GENERATED_IMPORTANCE
from squirrel_memory.extractors.generated_commits import generated_commits
from squirrel_memory.extractors.ignore_rules import IMPORTANCE as IGNORED_IMPORTANCE
from squirrel_memory.extractors.ignore_rules import ignore_rules
from squirrel_memory.extractors.instruction_imports import IMPORTANCE as IMPORTS_IMPORTANCE
from squirrel_memory.extractors.instruction_imports import instruction_imports
from squirrel_memory.extractors.labelled_fixes import labelled_fixes
from squirrel_memory.extractors.lead_in_commands import IMPORTANCE as LEAD_IN_IMPORTANCE
from squirrel_memory.extractors.lead_in_commands import lead_in_commands
from squirrel_memory.extractors.listed_tasks import IMPORTANCE as LISTED_TASKS_IMPORTANCE
from squirrel_memory.extractors.listed_tasks import listed_tasks
from squirrel_memory.extractors.main_branch import IMPORTANCE as MAIN_BRANCH_IMPORTANCE
from squirrel_memory.extractors.main_branch import main_branch
from squirrel_memory.extractors.missing_manifests import IMPORTANCE as MISSING_IMPORTANCE
from squirrel_memory.extractors.missing_manifests import missing_manifests
from squirrel_memory.extractors.missing_tools import IMPORTANCE as MISSING_TOOL_IMPORTANCE
from squirrel_memory.extractors.missing_tools import missing_tools
from squirrel_memory.extractors.package_names import IMPORTANCE as PACKAGE_NAME_IMPORTANCE
from squirrel_memory.extractors.package_names import package_names
from squirrel_memory.extractors.package_scripts import IMPORTANCE as SCRIPTS_IMPORTANCE
from squirrel_memory.extractors.package_scripts import package_scripts
from squirrel_memory.extractors.pasted_brief import PART_IMPORTANCE as BRIEF_IMPORTANCE
from squirrel_memory.extractors.pasted_brief import brief_parts
from squirrel_memory.extractors.placeholder_commands import IMPORTANCE as SHAPE_IMPORTANCE
from squirrel_memory.extractors.placeholder_commands import placeholder_commands
from squirrel_memory.extractors.preferences import STANDING_TAG
from squirrel_memory.extractors.project_home import IMPORTANCE as HOME_IMPORTANCE
from squirrel_memory.extractors.project_home import project_home
from squirrel_memory.extractors.project_scripts import IMPORTANCE as SCRIPT_IMPORTANCE
from squirrel_memory.extractors.project_scripts import project_scripts
from squirrel_memory.extractors.prose_answers import IMPORTANCE as PROSE_DECISION_IMPORTANCE
from squirrel_memory.extractors.prose_answers import prose_answers
from squirrel_memory.extractors.read_findings import IMPORTANCE as READ_IMPORTANCE
from squirrel_memory.extractors.read_findings import read_findings
from squirrel_memory.extractors.read_ignores import IMPORTANCE as READ_IGNORES_IMPORTANCE
from squirrel_memory.extractors.read_ignores import read_ignores
from squirrel_memory.extractors.rejected_lines import IMPORTANCE as REJECTED_IMPORTANCE
from squirrel_memory.extractors.rejected_lines import rejected_lines
from squirrel_memory.extractors.release_steps import IMPORTANCE as RELEASE_STEPS_IMPORTANCE
from squirrel_memory.extractors.release_steps import release_steps
from squirrel_memory.extractors.replied_commands import IMPORTANCE as REPLIED_IMPORTANCE
from squirrel_memory.extractors.replied_commands import replied_commands
from squirrel_memory.extractors.report_statements import IMPORTANCE as STATEMENT_IMPORTANCE
from squirrel_memory.extractors.report_statements import report_statements
from squirrel_memory.extractors.reported_versions import IMPORTANCE as VERSIONS_IMPORTANCE
from squirrel_memory.extractors.reported_versions import reported_versions
from squirrel_memory.extractors.review_checks import IMPORTANCE as REVIEW_CHECKS_IMPORTANCE
from squirrel_memory.extractors.review_checks import review_checks
from squirrel_memory.extractors.shell_expansions import shell_expansions
from squirrel_memory.extractors.sibling_patterns import IMPORTANCE as PATTERN_IMPORTANCE
from squirrel_memory.extractors.sibling_patterns import sibling_patterns
from squirrel_memory.extractors.side_by_side import IMPORTANCE as PROGRAMS_IMPORTANCE
from squirrel_memory.extractors.side_by_side import side_by_side
from squirrel_memory.extractors.spawn_failures import spawn_failures
from squirrel_memory.extractors.stale_checks import stale_checks
from squirrel_memory.extractors.subagent_findings import IMPORTANCE as SUBAGENT_IMPORTANCE
from squirrel_memory.extractors.subagent_findings import subagent_findings
from squirrel_memory.extractors.user_corrections import IMPORTANCE as CORRECTED_IMPORTANCE
from squirrel_memory.extractors.user_corrections import user_corrections
from squirrel_memory.extractors.user_plans import IMPORTANCE as PLAN_IMPORTANCE
from squirrel_memory.extractors.user_plans import user_plans
from squirrel_memory.extractors.verified_commands import VERIFIED_ROW
from squirrel_memory.extractors.version_files import IMPORTANCE as VERSION_FILES_IMPORTANCE
from squirrel_memory.extractors.version_files import version_files
from squirrel_memory.extractors.workspace_members import IMPORTANCE as MEMBERS_IMPORTANCE
from squirrel_memory.extractors.workspace_members import workspace_members
from squirrel_memory.extractors.written_checks import IMPORTANCE as WRITTEN_CHECKS_IMPORTANCE
from squirrel_memory.extractors.written_checks import written_checks
from squirrel_memory.models import MemoryType

#: Importance of how a change is put into effect (the assistant's advice, not a run command).
APPLY_IMPORTANCE = 0.45
#: A command the shell stopped: a smaller pitfall, the same in every project of the user.
SHELL_IMPORTANCE = 0.45

FOUND: tuple[Extract, ...] = (
    # Failures the user pasted, failures read in a fetched log (a CI job's) with the cause named
    # and the change made, a problem the assistant diagnosed, what it found out about how the
    # tools behave, and the caveats of its closing report (a generated file, a command to run
    # after a change).
    problems_and_findings,
    # A problem and its fix the assistant set out under labels ("The bug:", "The fix:").
    Finder(
        labelled_fixes,
        MemoryType.PITFALL,
        REPORTED_IMPORTANCE,
        lambda _f: ("pitfall", "labelled"),
        files_of,
    ),
    # A word meant for the program that the shell expanded and stopped on (zsh, fish).
    Finder(
        shell_expansions,
        MemoryType.PITFALL,
        SHELL_IMPORTANCE,
        lambda _f: ("pitfall", "shell"),
    ),
    # A program the shell could not find, and no run of it passed in the session.
    Finder(
        missing_tools,
        MemoryType.PITFALL,
        MISSING_TOOL_IMPORTANCE,
        lambda _f: ("pitfall", "environment", "missing"),
    ),
    # One version written in several files, as a bump in the session changed them together.
    Finder(
        version_files,
        MemoryType.PITFALL,
        VERSION_FILES_IMPORTANCE,
        lambda _f: ("pitfall", "release", "version"),
        files_of,
    ),
    # An executable a running program could not start (`spawn rg ENOENT`).
    Finder(
        spawn_failures,
        MemoryType.PITFALL,
        MISSING_TOOL_IMPORTANCE,
        lambda _f: ("pitfall", "environment", "missing"),
    ),
    # A command refused for want of access: `sudo` with no terminal for its password, a push
    # to a protected branch, a path the system denied.
    Finder(
        denied_access,
        MemoryType.PITFALL,
        DENIED_IMPORTANCE,
        lambda f: ("pitfall", "environment", "denied", f.key.split(":")[2]),
    ),
    # A check that kept its old output until one command (not its look-alike) ran.
    Finder(
        stale_checks,
        MemoryType.PITFALL,
        REPORTED_IMPORTANCE,
        lambda _f: ("pitfall", "stale"),
        files_of,
    ),
    # A problem a subagent reported finding in the project's code.
    Finder(
        subagent_findings,
        MemoryType.PITFALL,
        SUBAGENT_IMPORTANCE,
        lambda _f: ("pitfall", "subagent"),
        files_of,
    ),
    # What a subagent's report states about the code, read by its shape (any language).
    Finder(
        report_statements,
        MemoryType.PROJECT_FACT,
        STATEMENT_IMPORTANCE,
        lambda _f: ("subagent", "reported"),
        files_of,
    ),
    # What the assistant's own closing report of a turn states about the code it worked on.
    Finder(
        closing_reports,
        MemoryType.PROJECT_FACT,
        CLOSING_IMPORTANCE,
        lambda _f: ("closing", "reported"),
        files_of,
    ),
    # What the assistant said about a folder after reading several of its files.
    Finder(
        read_findings,
        MemoryType.PROJECT_FACT,
        READ_IMPORTANCE,
        lambda _f: ("read", "learned"),
        files_of,
    ),
    # What the user chose when the assistant asked: a decision of the project.
    Finder(
        answered_questions,
        MemoryType.USER_STYLE,
        DECISION_IMPORTANCE,
        lambda _f: ("preference", "decision", "answer", STANDING_TAG),
    ),
    # A folder of separate programs, each with its own build, as a listing showed it.
    Finder(one(side_by_side), MemoryType.PROJECT_FACT, PROGRAMS_IMPORTANCE, lambda _f: ("layout",)),
    # What the user answered to the one design question the assistant asked in prose.
    Finder(
        prose_answers,
        MemoryType.USER_STYLE,
        PROSE_DECISION_IMPORTANCE,
        lambda _f: ("preference", "decision", "answer"),
    ),
    # The toolchain's versions, as a subagent that read the build reported them.
    Finder(
        one(reported_versions),
        MemoryType.PROJECT_FACT,
        VERSIONS_IMPORTANCE,
        lambda _f: ("stack", "versions", "subagent"),
    ),
    # A manifest the repository root lacks, as a failed read of it at the root showed.
    Finder(
        missing_manifests,
        MemoryType.PITFALL,
        MISSING_IMPORTANCE,
        lambda _f: ("pitfall", "layout"),
    ),
    # The user putting the assistant right: what holds instead, where it was working.
    Finder(
        user_corrections,
        MemoryType.PITFALL,
        CORRECTED_IMPORTANCE,
        lambda _f: ("pitfall", "corrected"),
        files_of,
    ),
    # A line the user quoted back as untrue and the assistant then removed: kept as untrue.
    Finder(
        rejected_lines,
        MemoryType.PITFALL,
        REJECTED_IMPORTANCE,
        lambda _f: ("pitfall", "corrected", "untrue"),
        files_of,
    ),
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
    # How the next entry of a folder of records (changesets, decision records) is written.
    Finder(
        entry_folders,
        MemoryType.PROJECT_FACT,
        ENTRY_IMPORTANCE,
        lambda f: ("convention", "entries", f.path),
        path_of,
    ),
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
    VERIFIED_ROW,  # the checks the assistant's own report says passed, never run in the session
    # How the project's own scripts the session ran (and did not write) are started.
    Finder(
        project_scripts, MemoryType.RECIPE, SCRIPT_IMPORTANCE, lambda _f: ("recipe", "run"), path_of
    ),
    # What the custom commands the user ran do, from the steps their prompts list.
    Finder(command_steps, MemoryType.RECIPE, COMMAND_IMPORTANCE, lambda _f: ("recipe", "command")),
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
    # A commit trailer the user declined and the commit then made went without.
    Finder(
        declined_trailers,
        MemoryType.USER_STYLE,
        TRAILER_IMPORTANCE,
        lambda _f: ("style", "commits", "git"),
    ),
    # A tool the user declined for a job the next such command did with another tool.
    Finder(
        declined_tools,
        MemoryType.USER_STYLE,
        DECLINED_TOOL_IMPORTANCE,
        lambda _f: ("style", "tools"),
    ),
)
"""The rules that each find one kind of thing, in the order their candidates are kept."""
