"""The rules that each find one kind of thing in an episode, and how their findings become
candidates (type, importance, tags, files), in the order the rules extractor keeps them: here
what went wrong and what the session's reports and answers say, then the rows of what the
project is (`project_finders`) and of how things are done in it (`recipe_finders`), then the
user's declines (the rules only a session without a read repository needs: `finder_docs`)."""

from __future__ import annotations

from squirrel_memory.extractors.answered_questions import IMPORTANCE as DECISION_IMPORTANCE
from squirrel_memory.extractors.answered_questions import answered_questions
from squirrel_memory.extractors.approved_fixes import IMPORTANCE as APPROVED_FIX_IMPORTANCE
from squirrel_memory.extractors.approved_fixes import approved_fixes
from squirrel_memory.extractors.chosen_options import IMPORTANCE as CHOSEN_IMPORTANCE
from squirrel_memory.extractors.chosen_options import chosen_options
from squirrel_memory.extractors.closing_reports import IMPORTANCE as CLOSING_IMPORTANCE
from squirrel_memory.extractors.closing_reports import closing_reports
from squirrel_memory.extractors.declined_tools import IMPORTANCE as DECLINED_TOOL_IMPORTANCE
from squirrel_memory.extractors.declined_tools import declined_tools
from squirrel_memory.extractors.declined_trailers import IMPORTANCE as TRAILER_IMPORTANCE
from squirrel_memory.extractors.declined_trailers import declined_trailers
from squirrel_memory.extractors.denied_access import IMPORTANCE as DENIED_IMPORTANCE
from squirrel_memory.extractors.denied_access import denied_access
from squirrel_memory.extractors.finder_parts import (
    REPORTED_IMPORTANCE,
    problems_and_findings,
)
from squirrel_memory.extractors.finder_rows import Extract, Finder, files_of, one
from squirrel_memory.extractors.firmness import STANDING_TAG
from squirrel_memory.extractors.labelled_fixes import labelled_fixes
from squirrel_memory.extractors.listed_caveats import IMPORTANCE as CAVEAT_IMPORTANCE
from squirrel_memory.extractors.listed_caveats import listed_caveats
from squirrel_memory.extractors.missed_searches import IMPORTANCE as MISSED_SEARCH_IMPORTANCE
from squirrel_memory.extractors.missed_searches import missed_searches
from squirrel_memory.extractors.missing_manifests import IMPORTANCE as MISSING_IMPORTANCE
from squirrel_memory.extractors.missing_manifests import missing_manifests
from squirrel_memory.extractors.missing_tools import IMPORTANCE as MISSING_TOOL_IMPORTANCE
from squirrel_memory.extractors.missing_tools import missing_tools
from squirrel_memory.extractors.project_finders import PROJECT_ROWS
from squirrel_memory.extractors.prose_answers import IMPORTANCE as PROSE_DECISION_IMPORTANCE
from squirrel_memory.extractors.prose_answers import prose_answers
from squirrel_memory.extractors.read_findings import IMPORTANCE as READ_IMPORTANCE
from squirrel_memory.extractors.read_findings import read_findings
from squirrel_memory.extractors.recipe_finders import RECIPE_ROWS
from squirrel_memory.extractors.rejected_lines import IMPORTANCE as REJECTED_IMPORTANCE
from squirrel_memory.extractors.rejected_lines import rejected_lines
from squirrel_memory.extractors.report_statements import IMPORTANCE as STATEMENT_IMPORTANCE
from squirrel_memory.extractors.report_statements import report_statements
from squirrel_memory.extractors.reported_versions import IMPORTANCE as VERSIONS_IMPORTANCE
from squirrel_memory.extractors.reported_versions import reported_versions
from squirrel_memory.extractors.shell_expansions import shell_expansions
from squirrel_memory.extractors.side_by_side import IMPORTANCE as PROGRAMS_IMPORTANCE
from squirrel_memory.extractors.side_by_side import side_by_side
from squirrel_memory.extractors.spawn_failures import spawn_failures
from squirrel_memory.extractors.stale_checks import stale_checks
from squirrel_memory.extractors.subagent_findings import IMPORTANCE as SUBAGENT_IMPORTANCE
from squirrel_memory.extractors.subagent_findings import subagent_findings
from squirrel_memory.extractors.summary_fixes import summary_fixes
from squirrel_memory.extractors.told_layout import IMPORTANCE as TOLD_IMPORTANCE
from squirrel_memory.extractors.told_layout import told_layout
from squirrel_memory.extractors.told_notes import IMPORTANCE as TOLD_NOTE_IMPORTANCE
from squirrel_memory.extractors.told_notes import told_notes
from squirrel_memory.extractors.told_stack import IMPORTANCE as TOLD_STACK_IMPORTANCE
from squirrel_memory.extractors.told_stack import told_stack
from squirrel_memory.extractors.user_corrections import IMPORTANCE as CORRECTED_IMPORTANCE
from squirrel_memory.extractors.user_corrections import user_corrections
from squirrel_memory.extractors.version_files import IMPORTANCE as VERSION_FILES_IMPORTANCE
from squirrel_memory.extractors.version_files import version_files
from squirrel_memory.models import MemoryType

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
    # A failure and its fix told in the summary of a continued conversation ("Errors and
    # fixes": an `Error:` line and a `Fix:` line), whose records the session no longer holds.
    Finder(
        summary_fixes,
        MemoryType.PITFALL,
        REPORTED_IMPORTANCE,
        lambda f: ("pitfall", "summary", "fix:variant") if f.variant else ("pitfall", "summary"),
        files_of,
    ),
    # A caveat the assistant listed under a heading of its own ("**Caveats**"): how a tool
    # behaves ("regenerated on every `npm install`"), named in what the session saw.
    Finder(
        listed_caveats,
        MemoryType.PITFALL,
        CAVEAT_IMPORTANCE,
        lambda _f: ("pitfall", "caveat"),
        files_of,
    ),
    # A fix plan the user approved and the session carried out: what broke, why, the change.
    Finder(
        approved_fixes,
        MemoryType.PITFALL,
        APPROVED_FIX_IMPORTANCE,
        lambda _f: ("pitfall", "plan"),
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
    # A file search that answered nothing although a later step of the turn found the file.
    Finder(
        missed_searches,
        MemoryType.PITFALL,
        MISSED_SEARCH_IMPORTANCE,
        lambda _f: ("pitfall", "environment", "search"),
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
    # The layout or a design decision the user stated in a prompt.
    Finder(
        told_layout,
        MemoryType.PROJECT_FACT,
        TOLD_IMPORTANCE,
        lambda _f: ("told", "layout"),
        files_of,
    ),
    # What the project is built with, as the user described it in a prompt.
    Finder(
        told_stack,
        MemoryType.PROJECT_FACT,
        TOLD_STACK_IMPORTANCE,
        lambda _f: ("told", "stack"),
    ),
    # What the user flagged as information to keep ("FYI, the staging db is read-only").
    Finder(
        told_notes,
        MemoryType.PROJECT_FACT,
        TOLD_NOTE_IMPORTANCE,
        lambda _f: ("told", "note"),
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
    # What the user picked among the options the assistant laid out in its reply.
    Finder(
        chosen_options,
        MemoryType.PROJECT_FACT,
        CHOSEN_IMPORTANCE,
        lambda _f: ("decision", "dialogue"),
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
    *PROJECT_ROWS,  # where things live, what the files say, conventions
    *RECIPE_ROWS,  # how things are built, checked, run and released
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
