"""The rules that each find one kind of thing in an episode, and how their findings become
candidates (type, importance, tags, files), in the order the rules extractor keeps them."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from squirrel_core.host_files import WRITTEN_TAG
from squirrel_memory.extractors.answered_questions import IMPORTANCE as DECISION_IMPORTANCE
from squirrel_memory.extractors.answered_questions import answered_questions
from squirrel_memory.extractors.apply_steps import apply_steps
from squirrel_memory.extractors.architecture import IMPORTANCE as ARCHITECTURE_IMPORTANCE
from squirrel_memory.extractors.architecture import architecture_points
from squirrel_memory.extractors.branch_merges import IMPORTANCE as MERGES_IMPORTANCE
from squirrel_memory.extractors.branch_merges import branch_merges
from squirrel_memory.extractors.candidates import candidate as _candidate
from squirrel_memory.extractors.checked_ignores import IMPORTANCE as CHECKED_IMPORTANCE
from squirrel_memory.extractors.checked_ignores import checked_ignores
from squirrel_memory.extractors.ci_commands import ci_commands, ci_triggers
from squirrel_memory.extractors.command_steps import IMPORTANCE as COMMAND_IMPORTANCE
from squirrel_memory.extractors.command_steps import command_steps
from squirrel_memory.extractors.declined_tools import IMPORTANCE as DECLINED_TOOL_IMPORTANCE
from squirrel_memory.extractors.declined_tools import declined_tools
from squirrel_memory.extractors.declined_trailers import IMPORTANCE as TRAILER_IMPORTANCE
from squirrel_memory.extractors.declined_trailers import declined_trailers
from squirrel_memory.extractors.delegated_commands import IMPORTANCE as DELEGATED_IMPORTANCE
from squirrel_memory.extractors.delegated_commands import delegated_commands
from squirrel_memory.extractors.diagnosed import Diagnosed, diagnosed
from squirrel_memory.extractors.doc_roles import IMPORTANCE as DOC_ROLES_IMPORTANCE
from squirrel_memory.extractors.doc_roles import doc_roles
from squirrel_memory.extractors.entry_folders import IMPORTANCE as ENTRY_IMPORTANCE
from squirrel_memory.extractors.entry_folders import entry_folders
from squirrel_memory.extractors.file_headers import IMPORTANCE as HEADER_IMPORTANCE
from squirrel_memory.extractors.file_headers import file_headers
from squirrel_memory.extractors.file_naming import IMPORTANCE as NAMING_IMPORTANCE
from squirrel_memory.extractors.file_naming import file_naming
from squirrel_memory.extractors.forge_workflows import IMPORTANCE as FORGE_IMPORTANCE
from squirrel_memory.extractors.forge_workflows import forge_workflows
from squirrel_memory.extractors.ignore_rules import IMPORTANCE as IGNORED_IMPORTANCE
from squirrel_memory.extractors.ignore_rules import ignore_rules
from squirrel_memory.extractors.instruction_commands import instruction_commands
from squirrel_memory.extractors.instruction_imports import IMPORTANCE as IMPORTS_IMPORTANCE
from squirrel_memory.extractors.instruction_imports import instruction_imports
from squirrel_memory.extractors.labelled_fixes import labelled_fixes
from squirrel_memory.extractors.labelled_points import labelled_points
from squirrel_memory.extractors.learned import IMPORTANCE as LEARNED_IMPORTANCE
from squirrel_memory.extractors.learned import Learned, learned
from squirrel_memory.extractors.listed_tasks import IMPORTANCE as LISTED_TASKS_IMPORTANCE
from squirrel_memory.extractors.listed_tasks import listed_tasks
from squirrel_memory.extractors.log_failures import log_failures
from squirrel_memory.extractors.main_branch import IMPORTANCE as MAIN_BRANCH_IMPORTANCE
from squirrel_memory.extractors.main_branch import main_branch
from squirrel_memory.extractors.missing_manifests import IMPORTANCE as MISSING_IMPORTANCE
from squirrel_memory.extractors.missing_manifests import missing_manifests
from squirrel_memory.extractors.notes_repository import IMPORTANCE as NOTES_REPOSITORY_IMPORTANCE
from squirrel_memory.extractors.notes_repository import notes_repository
from squirrel_memory.extractors.placements import IMPORTANCE as PLACEMENT_IMPORTANCE
from squirrel_memory.extractors.placements import placements
from squirrel_memory.extractors.preferences import STANDING_TAG
from squirrel_memory.extractors.project_home import IMPORTANCE as HOME_IMPORTANCE
from squirrel_memory.extractors.project_home import project_home
from squirrel_memory.extractors.project_scripts import IMPORTANCE as SCRIPT_IMPORTANCE
from squirrel_memory.extractors.project_scripts import project_scripts
from squirrel_memory.extractors.read_instructions import IMPORTANCE as READ_RULE_IMPORTANCE
from squirrel_memory.extractors.read_instructions import read_rules
from squirrel_memory.extractors.readme_commands import IMPORTANCE as README_COMMANDS_IMPORTANCE
from squirrel_memory.extractors.readme_commands import readme_commands
from squirrel_memory.extractors.readme_layout import IMPORTANCE as LAYOUT_IMPORTANCE
from squirrel_memory.extractors.readme_layout import readme_layout
from squirrel_memory.extractors.readme_requirements import IMPORTANCE as REQUIREMENTS_IMPORTANCE
from squirrel_memory.extractors.readme_requirements import readme_requirements
from squirrel_memory.extractors.readme_sections import IMPORTANCE as README_SECTIONS_IMPORTANCE
from squirrel_memory.extractors.readme_sections import readme_sections
from squirrel_memory.extractors.replied_commands import IMPORTANCE as REPLIED_IMPORTANCE
from squirrel_memory.extractors.replied_commands import replied_commands
from squirrel_memory.extractors.report_layout import report_layout
from squirrel_memory.extractors.reported import reported_pitfalls
<<<<<<< HEAD
from squirrel_memory.extractors.review_checks import IMPORTANCE as REVIEW_CHECKS_IMPORTANCE
from squirrel_memory.extractors.review_checks import review_checks
=======
from squirrel_memory.extractors.reported_versions import IMPORTANCE as VERSIONS_IMPORTANCE
from squirrel_memory.extractors.reported_versions import reported_versions
>>>>>>> h-former-a
from squirrel_memory.extractors.session_tasks import session_tasks
from squirrel_memory.extractors.sibling_patterns import IMPORTANCE as PATTERN_IMPORTANCE
from squirrel_memory.extractors.sibling_patterns import sibling_patterns
from squirrel_memory.extractors.stale_checks import stale_checks
from squirrel_memory.extractors.subagent_findings import IMPORTANCE as SUBAGENT_IMPORTANCE
from squirrel_memory.extractors.subagent_findings import subagent_findings
from squirrel_memory.extractors.user_corrections import IMPORTANCE as CORRECTED_IMPORTANCE
from squirrel_memory.extractors.user_corrections import user_corrections
from squirrel_memory.extractors.workspace_members import IMPORTANCE as MEMBERS_IMPORTANCE
from squirrel_memory.extractors.workspace_members import workspace_members
from squirrel_memory.extractors.written_notes import COMMANDS_IMPORTANCE as NOTES_COMMANDS
from squirrel_memory.extractors.written_notes import IMPORTANCE as NOTES_IMPORTANCE
from squirrel_memory.extractors.written_notes import written_notes
from squirrel_memory.models import MemoryCandidate, MemoryType, StoredEvent

#: Importance of a pitfall from an error the user pasted (what was done is not a seen fix).
REPORTED_IMPORTANCE = 0.5
#: Importance of how a change is put into effect (the assistant's advice, not a run command).
APPLY_IMPORTANCE = 0.45
#: Importance of the tasks a task file read in a session defines.
TASKS_IMPORTANCE = 0.6
#: When a CI workflow runs: a fact of the project, below how it is checked.
TRIGGER_IMPORTANCE = 0.5

Found = Any
"""A rule's own record of what it found: `key`, `content` and `event_ids`, and what a finder's
row reads besides (`path`, `folder`, `files`)."""
Extract = Callable[[list[StoredEvent]], list[MemoryCandidate]]


def _no_paths(_found: Found) -> tuple[str, ...]:
    return ()


def _path(found: Found) -> tuple[str, ...]:
    return (found.path,)


def _files(found: Found) -> tuple[str, ...]:
    return tuple(found.files)


def _one(
    find: Callable[[list[StoredEvent]], Found | None],
) -> Callable[[list[StoredEvent]], list[Found]]:
    """A rule that finds at most one thing, as one that finds a list."""

    def listed(events: list[StoredEvent]) -> list[Found]:
        found = find(events)
        return [] if found is None else [found]

    return listed


@dataclass(frozen=True)
class _Finder:
    """How one rule's findings become candidates: their type, importance, tags and files."""

    find: Callable[[list[StoredEvent]], Iterable[Found]]
    kind: MemoryType
    importance: float
    tags: Callable[[Found], tuple[str, ...]]
    paths: Callable[[Found], tuple[str, ...]] = _no_paths
    #: The `path:line` sources a finding cites.
    refs: Callable[[Found], tuple[str, ...]] = _no_paths

    def __call__(self, events: list[StoredEvent]) -> list[MemoryCandidate]:
        return [
            replace(
                _candidate(
                    self.kind,
                    found.key,
                    found.content,
                    tags=self.tags(found),
                    importance=self.importance,
                    event_ids=found.event_ids,
                    file_paths=self.paths(found),
                ),
                source_refs=self.refs(found),
            )
            for found in self.find(events)
        ]


def _diagnosed(events: list[StoredEvent]) -> list[Diagnosed]:
    """Diagnosed problems whose cause a pasted error's or a fetched log's lesson already cites."""
    cited = {i for f in reported_pitfalls(events) for i in f.event_ids}
    cited.update(i for f in log_failures(events) for i in f.event_ids)
    return [d for d in diagnosed(events) if d.cause_id not in cited]


def _learned(events: list[StoredEvent]) -> list[Learned]:
    """Findings, less those stated in a reply a diagnosed problem's lesson already cites."""
    causes = {d.cause_id for d in _diagnosed(events)}
    return [f for f in learned(events) if f.event_ids[0] not in causes]


def _placements(events: list[StoredEvent]) -> list[MemoryCandidate]:
    """Where things live and how they are wired, as the assistant said after reading the code,
    how the parts it labelled in a summary work, and the key files a subagent's report lists
    (for the paths no statement placed)."""
    stated = placements(events)
    keys = {found.key for found in stated}
    stated += [found for found in labelled_points(events) if found.key not in keys]
    placed = {found.path for found in stated}
    listed = [found for found in report_layout(events) if found.path not in placed]
    return [
        replace(
            _candidate(
                MemoryType.PROJECT_FACT,
                found.key,
                found.content,
                tags=("where", found.path),
                importance=PLACEMENT_IMPORTANCE,
                event_ids=found.event_ids,
                file_paths=(found.path,),
            ),
            source_refs=found.source_refs,
        )
        for found in [*stated, *listed]
    ]


def _written_notes(events: list[StoredEvent]) -> list[MemoryCandidate]:
    """What the project's notes file (`CLAUDE.md` …) written in the session says: its
    sections on the project and the commands it gives. Each cites the file and is tagged
    `WRITTEN_TAG`: from then on the host that loads the file (Claude Code `CLAUDE.md`, Codex
    `AGENTS.md`) has it in every session, so it is left out for that host and kept for the
    others."""
    return [
        replace(
            _candidate(
                MemoryType.RECIPE if found.kind == "recipe" else MemoryType.PROJECT_FACT,
                found.key,
                found.content,
                tags=("notes", found.path, WRITTEN_TAG),
                importance=NOTES_COMMANDS if found.kind == "recipe" else NOTES_IMPORTANCE,
                event_ids=found.event_ids,
                file_paths=(found.path,),
            ),
            source_refs=(found.path,),
        )
        for found in written_notes(events)
    ]


def _read_rules(events: list[StoredEvent]) -> list[MemoryCandidate]:
    """The user's rules in the instruction files the session read (`CLAUDE.md`, CONTRIBUTING):
    standing instructions of this project, each citing its file and line."""
    return [
        replace(
            _candidate(
                MemoryType.USER_STYLE,
                found.key,
                found.content,
                tags=("preference", "instruction", STANDING_TAG, WRITTEN_TAG),
                importance=READ_RULE_IMPORTANCE,
                event_ids=found.event_ids,
                file_paths=(found.ref.split(":", 1)[0],) if found.ref else (),
            ),
            source_refs=(found.ref,) if found.ref else (),
        )
        for found in read_rules(events)
    ]


def _instruction_commands(events: list[StoredEvent]) -> list[MemoryCandidate]:
    """The everyday commands the root instruction files the session read name, each citing
    its line; as important as the README's commands."""
    return [
        replace(
            _candidate(
                MemoryType.RECIPE,
                found.key,
                found.content,
                tags=("recipe", "instructions", WRITTEN_TAG),
                importance=README_COMMANDS_IMPORTANCE,
                event_ids=found.event_ids,
                file_paths=tuple(dict.fromkeys(ref.split(":", 1)[0] for ref in found.refs)),
            ),
            source_refs=found.refs,
        )
        for found in instruction_commands(events)
    ]


FOUND: tuple[Extract, ...] = (
    # Failures the user pasted, failures read in a fetched log (a CI job's) with the cause named
    # and the change made, and what the assistant found out about how the tools behave.
    _Finder(
        reported_pitfalls,
        MemoryType.PITFALL,
        REPORTED_IMPORTANCE,
        lambda _f: ("pitfall", "reported"),
        _files,
    ),
    _Finder(
        log_failures, MemoryType.PITFALL, REPORTED_IMPORTANCE, lambda _f: ("pitfall", "log"), _files
    ),
    # A problem reported or read in a log, the cause the assistant stated and the change made.
    _Finder(
        _diagnosed,
        MemoryType.PITFALL,
        REPORTED_IMPORTANCE,
        lambda _f: ("pitfall", "diagnosed"),
        _files,
    ),
    _Finder(_learned, MemoryType.PITFALL, LEARNED_IMPORTANCE, lambda _f: ("pitfall", "learned")),
    # A problem and its fix the assistant set out under labels ("The bug:", "The fix:").
    _Finder(
        labelled_fixes,
        MemoryType.PITFALL,
        REPORTED_IMPORTANCE,
        lambda _f: ("pitfall", "labelled"),
        _files,
    ),
    # A check that kept its old output until one command (not its look-alike) ran.
    _Finder(
        stale_checks,
        MemoryType.PITFALL,
        REPORTED_IMPORTANCE,
        lambda _f: ("pitfall", "stale"),
        _files,
    ),
    # A problem a subagent reported finding in the project's code.
    _Finder(
        subagent_findings,
        MemoryType.PITFALL,
        SUBAGENT_IMPORTANCE,
        lambda _f: ("pitfall", "subagent"),
        _files,
    ),
    # What the user chose when the assistant asked: a decision of the project.
    _Finder(
        answered_questions,
        MemoryType.USER_STYLE,
        DECISION_IMPORTANCE,
        lambda _f: ("preference", "decision", "answer", STANDING_TAG),
    ),
    # The toolchain's versions, as a subagent that read the build reported them.
    _Finder(
        _one(reported_versions),
        MemoryType.PROJECT_FACT,
        VERSIONS_IMPORTANCE,
        lambda _f: ("stack", "versions", "subagent"),
    ),
    # A manifest the repository root lacks, as a failed read of it at the root showed.
    _Finder(
        missing_manifests,
        MemoryType.PITFALL,
        MISSING_IMPORTANCE,
        lambda _f: ("pitfall", "layout"),
    ),
    # The user putting the assistant right: what holds instead, where it was working.
    _Finder(
        user_corrections,
        MemoryType.PITFALL,
        CORRECTED_IMPORTANCE,
        lambda _f: ("pitfall", "corrected"),
        _files,
    ),
    _placements,
    # Where the project's source is hosted, as git and the files read in it show.
    _Finder(
        _one(project_home),
        MemoryType.PROJECT_FACT,
        HOME_IMPORTANCE,
        lambda _f: ("home", "repository"),
        _files,
        lambda f: tuple(f.refs),
    ),
    # That the repository's branch is `master`, not `main`, as `git branch` listed it.
    _Finder(
        _one(main_branch),
        MemoryType.PROJECT_FACT,
        MAIN_BRANCH_IMPORTANCE,
        lambda _f: ("git", "branch"),
    ),
    # How the project is built, as the assistant summarised it under an architecture heading.
    _Finder(
        architecture_points,
        MemoryType.PROJECT_FACT,
        ARCHITECTURE_IMPORTANCE,
        lambda _f: ("architecture",),
    ),
    # What the scripts and configuration files read whole say of themselves.
    _Finder(
        file_headers, MemoryType.PROJECT_FACT, HEADER_IMPORTANCE, lambda f: ("where", f.path), _path
    ),
    # How an edited file's change is put into effect, as the assistant advised.
    _Finder(
        apply_steps, MemoryType.RECIPE, APPLY_IMPORTANCE, lambda _f: ("recipe", "apply"), _path
    ),
    # The monorepo's members the session's commands (and read run lines) name.
    _Finder(
        _one(workspace_members),
        MemoryType.PROJECT_FACT,
        MEMBERS_IMPORTANCE,
        lambda _f: ("workspace", "monorepo"),
    ),
    # How the files of a folder the session wrote into are named.
    _Finder(
        file_naming,
        MemoryType.PROJECT_FACT,
        NAMING_IMPORTANCE,
        lambda f: ("naming", "convention", f.folder),
    ),
    _written_notes,
    _read_rules,
    # What the session's edits made git ignore, with the comment written above it.
    _Finder(
        ignore_rules,
        MemoryType.PROJECT_FACT,
        IGNORED_IMPORTANCE,
        lambda f: ("gitignore", "where", f.path),
        _path,
    ),
    # An instruction file that only imports another: where the instructions live.
    _Finder(
        instruction_imports,
        MemoryType.PROJECT_FACT,
        IMPORTS_IMPORTANCE,
        lambda f: ("instructions", "where", f.path),
        _path,
    ),
    # What git ignores, as `git check-ignore -v` showed it with the file and line.
    _Finder(
        checked_ignores,
        MemoryType.PROJECT_FACT,
        CHECKED_IMPORTANCE,
        lambda f: ("gitignore", "where", f.path),
        _path,
    ),
    # The shape the files of one folder share, as the session read and wrote them.
    _Finder(
        sibling_patterns,
        MemoryType.PROJECT_FACT,
        PATTERN_IMPORTANCE,
        lambda f: ("convention", "pattern", f.folder),
        _files,
    ),
    # How the next entry of a folder of records (changesets, decision records) is written.
    _Finder(
        entry_folders,
        MemoryType.PROJECT_FACT,
        ENTRY_IMPORTANCE,
        lambda f: ("convention", "entries", f.path),
        _path,
    ),
    # How to build, test or check, as the docs the session read say where the command's own
    # words do not (under a heading or in a sentence that names the role).
    _Finder(
        doc_roles, MemoryType.RECIPE, DOC_ROLES_IMPORTANCE, lambda _f: ("recipe", "docs"), _path
    ),
    # The build and test commands a subagent was briefed to run or reported passing.
    _Finder(
        _one(delegated_commands),
        MemoryType.RECIPE,
        DELEGATED_IMPORTANCE,
        lambda _f: ("recipe", "delegated"),
    ),
    # The test command the assistant told the user to run and the session never ran.
    _Finder(
        _one(replied_commands),
        MemoryType.RECIPE,
        REPLIED_IMPORTANCE,
        lambda _f: ("recipe", "replied"),
    ),
    # How the project's own scripts the session ran (and did not write) are started.
    _Finder(
        project_scripts, MemoryType.RECIPE, SCRIPT_IMPORTANCE, lambda _f: ("recipe", "run"), _path
    ),
    # What the custom commands the user ran do, from the steps their prompts list.
    _Finder(command_steps, MemoryType.RECIPE, COMMAND_IMPORTANCE, lambda _f: ("recipe", "command")),
    # The project's tasks, as its task runner listed them in a log or output the session saw.
    _Finder(
        listed_tasks,
        MemoryType.PROJECT_FACT,
        LISTED_TASKS_IMPORTANCE,
        lambda f: ("tasks", f.key.rsplit(":", 1)[-1]),
    ),
    # How a failed CI run's log is read and pull requests are merged, as the session did it.
    _Finder(
        forge_workflows,
        MemoryType.RECIPE,
        FORGE_IMPORTANCE,
        lambda f: ("recipe", "forge", f.key.rsplit(":", 1)[-1]),
    ),
    # How branches are merged at the project, as the session's merges did it.
    _Finder(
        branch_merges,
        MemoryType.RECIPE,
        MERGES_IMPORTANCE,
        lambda _f: ("recipe", "git", "merge"),
    ),
    # The checks a pull request's test plan, read in the session, says were run.
    _Finder(
        review_checks,
        MemoryType.RECIPE,
        REVIEW_CHECKS_IMPORTANCE,
        lambda _f: ("recipe", "review", "checks"),
    ),
    # A commit trailer the user declined and the commit then made went without.
    _Finder(
        declined_trailers,
        MemoryType.USER_STYLE,
        TRAILER_IMPORTANCE,
        lambda _f: ("style", "commits", "git"),
    ),
    # A tool the user declined for a job the next such command did with another tool.
    _Finder(
        declined_tools,
        MemoryType.USER_STYLE,
        DECLINED_TOOL_IMPORTANCE,
        lambda _f: ("style", "tools"),
    ),
)
"""The rules that each find one kind of thing, in the order their candidates are kept."""

WITHOUT_REPOSITORY: tuple[Extract, ...] = (
    # A project of notes: everything the session touched and saw is Markdown.
    _Finder(
        _one(notes_repository),
        MemoryType.PROJECT_FACT,
        NOTES_REPOSITORY_IMPORTANCE,
        lambda _f: ("language", "markdown", "notes"),
    ),
    # Recipes from the task files read in the session (a read repository gives its own).
    _Finder(
        session_tasks, MemoryType.RECIPE, TASKS_IMPORTANCE, lambda _f: ("recipe", "tasks"), _path
    ),
    # The checks the CI workflows read or written in the session run.
    _Finder(ci_commands, MemoryType.RECIPE, TASKS_IMPORTANCE, lambda _f: ("recipe", "ci"), _path),
    # When a workflow runs, when its push trigger is filtered by branch or path.
    _Finder(
        ci_triggers,
        MemoryType.PROJECT_FACT,
        TRIGGER_IMPORTANCE,
        lambda _f: ("ci", "trigger"),
        _path,
    ),
    # How the folders are organised, as the root README read in the session explains.
    _Finder(
        _one(readme_layout),
        MemoryType.PROJECT_FACT,
        LAYOUT_IMPORTANCE,
        lambda _f: ("layout", "folders"),
        _path,
    ),
    # What the root README read in the session lists as needed before building or running.
    _Finder(
        _one(readme_requirements),
        MemoryType.PROJECT_FACT,
        REQUIREMENTS_IMPORTANCE,
        lambda _f: ("requirements", "setup", "readme"),
        _path,
    ),
    # The everyday commands the root README read in the session documents.
    _Finder(
        _one(readme_commands),
        MemoryType.RECIPE,
        README_COMMANDS_IMPORTANCE,
        lambda _f: ("recipe", "readme"),
        _path,
    ),
    # The everyday commands the root instruction files read in the session name.
    _instruction_commands,
    # The commands the README's set-up, usage and development sections give.
    _Finder(
        readme_sections,
        MemoryType.RECIPE,
        README_SECTIONS_IMPORTANCE,
        lambda _f: ("recipe", "readme", "setup"),
        _path,
    ),
)
"""What only a session without a read repository says (a read repository says it itself)."""
