"""The finders' rules whose candidates take more than one row of the table: problems,
findings and caveats less those another lesson already cites (each rule run once), where
things live (statements, labelled points, a report's key files), and what instruction and
notes files read or written in a session say (each citing its file and line, tagged as loaded
by the host of that file)."""

from __future__ import annotations

import re
from dataclasses import replace

from squirrel_core.host_files import SKILL_TAG, WRITTEN_TAG
from squirrel_memory.extractors.candidates import candidate, rule_of
from squirrel_memory.extractors.diagnosed import diagnosed
from squirrel_memory.extractors.finder_rows import Finder, files_of
from squirrel_memory.extractors.finding_sentences import FOUND_PREFIX
from squirrel_memory.extractors.firmness import STANDING_TAG
from squirrel_memory.extractors.instruction_commands import instruction_commands
from squirrel_memory.extractors.instruction_layout import StatedPlace, instruction_layout
from squirrel_memory.extractors.labelled_points import labelled_points
from squirrel_memory.extractors.learned import IMPORTANCE as LEARNED_IMPORTANCE
from squirrel_memory.extractors.learned import learned
from squirrel_memory.extractors.log_failures import log_failures
from squirrel_memory.extractors.placements import IMPORTANCE as PLACEMENT_IMPORTANCE
from squirrel_memory.extractors.placements import KEY_PREFIX, Placement, placements
from squirrel_memory.extractors.read_instructions import IMPORTANCE as READ_RULE_IMPORTANCE
from squirrel_memory.extractors.read_instructions import read_rules
from squirrel_memory.extractors.readme_commands import IMPORTANCE as README_COMMANDS_IMPORTANCE
from squirrel_memory.extractors.reply_layout import reply_layout
from squirrel_memory.extractors.report_caveats import (
    AFTER_CHANGE_ROW,
    GENERATED_ROW,
    report_caveats,
)
from squirrel_memory.extractors.report_layout import report_layout
from squirrel_memory.extractors.reported import reported_pitfalls
from squirrel_memory.extractors.written_notes import COMMANDS_IMPORTANCE as NOTES_COMMANDS
from squirrel_memory.extractors.written_notes import IMPORTANCE as NOTES_IMPORTANCE
from squirrel_memory.extractors.written_notes import written_notes
from squirrel_memory.models import MemoryCandidate, MemoryType, StoredEvent

#: Importance of a pitfall from an error the user pasted (what was done is not a seen fix).
REPORTED_IMPORTANCE = 0.5
#: The rows of `problems_and_findings`, each named for its rule.
REPORTED_ROW = Finder(
    reported_pitfalls,
    MemoryType.PITFALL,
    REPORTED_IMPORTANCE,
    lambda _f: ("pitfall", "reported"),
    files_of,
)
LOG_ROW = Finder(
    log_failures,
    MemoryType.PITFALL,
    REPORTED_IMPORTANCE,
    lambda _f: ("pitfall", "log"),
    files_of,
)
DIAGNOSED_ROW = Finder(
    diagnosed,
    MemoryType.PITFALL,
    REPORTED_IMPORTANCE,
    lambda _f: ("pitfall", "diagnosed"),
    files_of,
    rule="diagnosed_problems",
)
LEARNED_ROW = Finder(
    learned,
    MemoryType.PITFALL,
    LEARNED_IMPORTANCE,
    lambda _f: ("pitfall", "learned"),
    rule="learned_findings",
)


def _words(text: str) -> str:
    """A finding's or caveat's words, without the finding's lead, for telling the same apart."""
    return " ".join(re.findall(r"[\w*./-]+", text.removeprefix(FOUND_PREFIX).lower()))


def problems_and_findings(events: list[StoredEvent]) -> list[MemoryCandidate]:
    """Failures the user pasted, failures read in a fetched log (a CI job's), problems the
    assistant diagnosed (less those whose cause a pasted error's or a log's lesson already
    cites), what the assistant found out about how the tools behave (less a finding stated in
    the reply a diagnosed problem's lesson cites), and the caveats of its closing report (less
    a generated file a finding already says in the same words): each rule run once."""
    reported = reported_pitfalls(events)
    logged = log_failures(events)
    cited = {i for f in reported for i in f.event_ids}
    cited.update(i for f in logged for i in f.event_ids)
    problems = [d for d in diagnosed(events) if d.cause_id not in cited]
    causes = {d.cause_id for d in problems}
    findings = learned(events)
    caveats = report_caveats(events)
    said = {_words(f.content) for f in findings}
    return [
        *REPORTED_ROW.of(reported),
        *LOG_ROW.of(logged),
        *DIAGNOSED_ROW.of(problems),
        *LEARNED_ROW.of(f for f in findings if f.event_ids[0] not in causes),
        *GENERATED_ROW.of(
            c for c in caveats if c.kind == "generated" and _words(c.content) not in said
        ),
        *AFTER_CHANGE_ROW.of(c for c in caveats if c.kind == "after_change"),
    ]


def placed_parts(events: list[StoredEvent]) -> list[MemoryCandidate]:
    """Where things live and how they are wired, as the assistant said after reading the code,
    how the parts it labelled in a summary work, where the root instruction file read says
    things live, and the key files a subagent's report lists and the folders the assistant's
    own reply lists (for the paths no statement placed)."""
    stated: list[Placement | StatedPlace] = [*placements(events)]
    keys = {found.key for found in stated}
    # A labelled item a placement already read in the same reply, as a sentence, is said once.
    placed_at = {(found.path, found.event_ids[0]) for found in stated}
    stated += [
        found
        for found in labelled_points(events)
        if found.key not in keys and (found.path, found.event_ids[0]) not in placed_at
    ]
    # The file's own line about a path the replies placed says the same thing again.
    keys = {found.key for found in stated} | {f"{KEY_PREFIX}{found.path}:" for found in stated}
    stated += [
        found
        for found in instruction_layout(events)
        if found.key not in keys and f"{KEY_PREFIX}{found.path}:" not in keys
    ]
    placed = {found.path for found in stated}
    listed = [found for found in report_layout(events) if found.path not in placed]
    placed |= {found.path for found in listed}
    listed += [found for found in reply_layout(events) if found.path not in placed]
    return [
        replace(
            candidate(
                MemoryType.PROJECT_FACT,
                found.key,
                found.content,
                # What only the instruction file says is left to the host that loads it.
                tags=("where", found.path, *((WRITTEN_TAG,) * isinstance(found, StatedPlace))),
                importance=PLACEMENT_IMPORTANCE,
                event_ids=found.event_ids,
                file_paths=(found.path,),
                rule=rule_of(type(found).__module__),
            ),
            source_refs=found.source_refs,
        )
        for found in [*stated, *listed]
    ]


def written_note_parts(events: list[StoredEvent]) -> list[MemoryCandidate]:
    """What the project's notes file (`CLAUDE.md` …) written in the session says: its
    sections on the project and the commands it gives. Each cites the file and is tagged
    `WRITTEN_TAG`: from then on the host that loads the file (Claude Code `CLAUDE.md`, Codex
    `AGENTS.md`) has it in every session, so it is left out for that host and kept for the
    others."""
    return [
        replace(
            candidate(
                MemoryType.RECIPE if found.kind == "recipe" else MemoryType.PROJECT_FACT,
                found.key,
                found.content,
                tags=("notes", found.path, WRITTEN_TAG),
                importance=NOTES_COMMANDS if found.kind == "recipe" else NOTES_IMPORTANCE,
                event_ids=found.event_ids,
                file_paths=(found.path,),
                rule="written_notes",
            ),
            source_refs=(found.path,),
        )
        for found in written_notes(events)
    ]


def read_rule_parts(events: list[StoredEvent]) -> list[MemoryCandidate]:
    """The user's rules in the instruction files the session read (`CLAUDE.md`, CONTRIBUTING):
    standing instructions of this project, each citing its file and line."""
    return [
        replace(
            candidate(
                MemoryType.USER_STYLE,
                found.key,
                found.content,
                tags=(
                    "preference",
                    "instruction",
                    STANDING_TAG,
                    WRITTEN_TAG,
                    *((SKILL_TAG,) if found.skill else ()),
                ),
                importance=READ_RULE_IMPORTANCE,
                event_ids=found.event_ids,
                file_paths=(found.ref.split(":", 1)[0],) if found.ref else (),
                rule="read_instructions",
            ),
            source_refs=(found.ref,) if found.ref else (),
        )
        for found in read_rules(events)
    ]


def instruction_command_parts(events: list[StoredEvent]) -> list[MemoryCandidate]:
    """The everyday commands the root instruction files the session read name, each citing
    its line; as important as the README's commands."""
    return [
        replace(
            candidate(
                MemoryType.RECIPE,
                found.key,
                found.content,
                tags=("recipe", "instructions", WRITTEN_TAG),
                importance=README_COMMANDS_IMPORTANCE,
                event_ids=found.event_ids,
                file_paths=tuple(dict.fromkeys(ref.split(":", 1)[0] for ref in found.refs)),
                rule="instruction_commands",
            ),
            source_refs=found.refs,
        )
        for found in instruction_commands(events)
    ]


__all__ = [
    "REPORTED_IMPORTANCE",
    "instruction_command_parts",
    "placed_parts",
    "problems_and_findings",
    "read_rule_parts",
    "written_note_parts",
]
