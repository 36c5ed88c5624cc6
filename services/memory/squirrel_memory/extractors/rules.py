"""The offline rules extractor: preferences, tool habits, project facts, pitfalls (with what
they taught), recipes and workflows, and what the assistant found out (how the tools behave,
where things live)."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace

import structlog

from squirrel_core.events import EventType, Origin, is_user_voice
from squirrel_memory.extractors.activity import (
    CommandRun,
    commands,
    user_requests,
)
from squirrel_memory.extractors.applied_files import with_applied_files
from squirrel_memory.extractors.asked_routines import asked_routines
from squirrel_memory.extractors.behaviour_lists import without_behaviour_lists
from squirrel_memory.extractors.candidates import candidate as _candidate
from squirrel_memory.extractors.candidates import rule_of
from squirrel_memory.extractors.command_bodies import reads_as_command_body
from squirrel_memory.extractors.command_evidence import evidence_candidates
from squirrel_memory.extractors.commit_fixes import commit_fixes
from squirrel_memory.extractors.commits import commit_memories
from squirrel_memory.extractors.config_commands import config_language
from squirrel_memory.extractors.declined_tools import KEY_PREFIX as DECLINED_TOOL_PREFIX
from squirrel_memory.extractors.diagnosed import KEY_PREFIX as DIAGNOSED_KEY
from squirrel_memory.extractors.disowned_tools import without_disowned
from squirrel_memory.extractors.echoed_commands import echoed_language
from squirrel_memory.extractors.exchange import (
    acted_words,
    after_interrupt,
    answers_assistant,
    names_what_was_done,
    relayed_reason,
)
from squirrel_memory.extractors.facts import project_facts
from squirrel_memory.extractors.finder_docs import WITHOUT_REPOSITORY
from squirrel_memory.extractors.finders import FOUND
from squirrel_memory.extractors.finding_sentences import FOUND_PREFIX
from squirrel_memory.extractors.firmness import (
    CORRECTION_STEP,
    CORRECTION_TAG,
    EMPHASIS_STEP,
    EMPHASIS_TAG,
    MAX_STATED_IMPORTANCE,
    REASONED_TAG,
    REPEATED_TAG,
    StatedPreference,
)
from squirrel_memory.extractors.item_steps import item_steps
from squirrel_memory.extractors.latest_reads import latest_reads
from squirrel_memory.extractors.lead_in_commands import without_restated
from squirrel_memory.extractors.lifted_bans import without_lifted
from squirrel_memory.extractors.one_thing_rules import about_one_thing
from squirrel_memory.extractors.passing_rules import standing_text, takes_back
from squirrel_memory.extractors.portability import portability_habit
from squirrel_memory.extractors.proposals import accepted_proposals
from squirrel_memory.extractors.rejected_lines import without_rejected
from squirrel_memory.extractors.reviewed_changes import reviewed_changes
from squirrel_memory.extractors.session_habits import as_session_habit, preferred_ways
from squirrel_memory.extractors.session_language import KEY as LANGUAGE_KEY
from squirrel_memory.extractors.session_language import session_language
from squirrel_memory.extractors.stack_choices import stack_choices
from squirrel_memory.extractors.stack_summary import IMPORTANCE as STACK_IMPORTANCE
from squirrel_memory.extractors.stack_summary import stack_summary
from squirrel_memory.extractors.standing_words import standing_instructions
from squirrel_memory.extractors.toolchain_language import toolchain_language
from squirrel_memory.extractors.wanted_ways import wanted_ways
from squirrel_memory.extractors.wording import sentence
from squirrel_memory.extractors.workflow_habits import with_workflow_habits
from squirrel_memory.extractors.working_habits import user_instructions
from squirrel_memory.loaded_sources import from_loaded_files
from squirrel_memory.models import Episode, MemoryCandidate, MemoryType, Scope, StoredEvent
from squirrel_memory.repository import primary_ecosystems

log = structlog.get_logger()

#: Stated preferences kept per episode (a hostile message cannot flood the store).
MAX_PREFERENCES = 10


class RulesExtractor:
    """Extracts memories from one episode with deterministic rules; needs no network or key."""

    name = "rules"

    async def extract(self, episode: Episode, events: list[StoredEvent]) -> list[MemoryCandidate]:
        """Candidates for `episode`, each carrying its episode id and the events behind it.

        The rules run in a worker thread: a long episode's extraction is CPU-bound and would
        otherwise hold the service's event loop (searches, hooks, writes) until it ended."""
        return await asyncio.to_thread(self.extract_sync, episode, events)

    def extract_sync(self, episode: Episode, events: list[StoredEvent]) -> list[MemoryCandidate]:
        """The same as `extract`, for callers without an event loop."""
        wanted = set(episode.event_ids)
        ordered = sorted(
            (e for e in events if not wanted or e.id in wanted), key=lambda e: (e.timestamp, e.id)
        )
        runs = commands(ordered)
        found: list[MemoryCandidate] = []
        found.extend(_preferences(ordered))
        # A read repository answers what language, what the project is and its tasks.
        repository = bool(ordered) and bool(primary_ecosystems(ordered[0].project_id))
        # The project's facts from its files as they stand after the session's own edits.
        found.extend(_facts(latest_reads(ordered), runs, repository))
        found.extend(evidence_candidates(ordered))
        found.extend(asked_routines(ordered, found))
        found.extend(reviewed_changes(ordered))
        found.extend(item_steps(ordered))
        found.extend(commit_memories(ordered))
        found.extend(commit_fixes(ordered, runs))
        for extract in (*FOUND, *(() if repository else WITHOUT_REPOSITORY)):
            found.extend(extract(ordered))
        found.extend(_stack(ordered, found))
        found = _without_restated_declines(from_loaded_files(found, ordered), ordered)
        found = without_restated(found)
        # A tool the user said the project does not use is not stated as how it works.
        found = without_disowned(found, ordered)
        # A ban the user lifted later in the episode ("actually, X are fine") is no habit.
        found = without_lifted(found, ordered)
        # A line the user called untrue is stated only as untrue.
        found = without_rejected(found, ordered)
        found = _without_echoed_diagnoses(found)
        result = _dedupe(
            [
                replace(c, content=sentence(c.content) or c.content, source_episode_id=episode.id)
                for c in found
            ]
        )
        log.debug("rules_extracted", episode_id=episode.id, candidate_count=len(result))
        return result


def _without_echoed_diagnoses(found: list[MemoryCandidate]) -> list[MemoryCandidate]:
    """`found` less the diagnosed problems whose cause and change a failed command's lesson
    already cites (`pitfall:diagnosed:…` beside "`./gradlew build` failed with …; the assistant
    found: …"), and the findings a failed command's lesson quotes from the reply it cites
    ("Found in a session: X" beside "… the assistant found: X; …"): one failure, one memory."""
    lessons = [
        (set(c.source_event_ids), c.content.lower())
        for c in found
        if c.type is MemoryType.PITFALL
        and c.key.startswith("pitfall:")
        and not c.key.startswith((DIAGNOSED_KEY, LEARNED_KEY))
    ]

    def echoed(cand: MemoryCandidate) -> bool:
        cited = set(cand.source_event_ids[1:])  # the cause and the change, not the report
        return bool(cited) and any(cited <= ids for ids, _ in lessons)

    def quoted(cand: MemoryCandidate) -> bool:
        said = cand.content.removeprefix(FOUND_PREFIX).strip().rstrip(".").lower()
        cited = set(cand.source_event_ids)
        return bool(said and cited) and any(cited <= ids and said in text for ids, text in lessons)

    return [
        c
        for c in found
        if not (c.key.startswith(DIAGNOSED_KEY) and echoed(c))
        and not (c.key.startswith(LEARNED_KEY) and quoted(c))
    ]


#: The key of a finding the assistant stated (`learned`).
LEARNED_KEY = "pitfall:learned:"


def _style(pref: StatedPreference, event_id: str) -> MemoryCandidate:
    """A stated (or agreed) preference as a user_style candidate from the event that said it."""
    return _candidate(
        MemoryType.USER_STYLE,
        pref.key,
        pref.content,
        tags=pref.tags,
        importance=pref.importance,
        event_ids=(event_id,),
        scope=pref.scope,
        rule="preferences",
    )


def _said(events: list[StoredEvent]) -> list[tuple[StoredEvent, str]]:
    """What the user said, in order: their messages, and the words they gave while declining
    one of the assistant's calls (the host relays them in the call's result)."""
    typed = {e.id: text for e, text in user_requests(events) if is_user_voice(e.origin)}
    found: list[tuple[StoredEvent, str]] = []
    for event in events:
        if text := typed.get(event.id):
            found.append((event, text))
        elif reason := relayed_reason(event):
            found.append((event, reason))
    return found


def _declining(pref: StatedPreference) -> StatedPreference:
    """An instruction given while declining a call corrects that call. Only the weight and the
    tag follow: the words are not read as if they opened with "no", which would keep a plain
    request for the task at hand ("commit it as …", "keep the old name") as a rule."""
    if pref.correction:
        return pref
    step = 0.0 if pref.standing else CORRECTION_STEP
    return replace(
        pref,
        tags=tuple(dict.fromkeys((*pref.tags, CORRECTION_TAG))),
        importance=round(min(MAX_STATED_IMPORTANCE, pref.importance + step), 3),
        correction=True,
    )


def _preferences(events: list[StoredEvent]) -> list[MemoryCandidate]:
    position = {e.id: i for i, e in enumerate(events)}
    found: list[MemoryCandidate] = []
    said = _said(events)
    texts = [text for _, text in said]
    for index, (event, message) in enumerate(said):
        if event.origin != Origin.SLASH_COMMAND and reads_as_command_body(message):
            # A command's body the host expanded unmarked: its rules, not the user's; one that
            # names this project holds here, as a project fact, never as the user's style.
            found.extend(
                replace(_style(pref, event.id), type=MemoryType.PROJECT_FACT)
                for pref in user_instructions(message, after_assistant_action=False)
                if pref.scope is Scope.PROJECT
            )
            continue
        if index + 1 < len(said) and takes_back(said[index + 1][1]):
            continue  # "ah wait, scratch that": the user's next words take this message back
        # a rule taken back at once, under a hypothetical or for the day sets no habit; a list
        # of how the code being written must behave is the task's design, no habit
        text = without_behaviour_lists(standing_text(message))
        # a reason given while declining a call answers that call
        after_action = event.event_type == EventType.TOOL_RESULT or answers_assistant(
            events, position[event.id]
        )
        portable = portability_habit(text, after_assistant_action=after_action)
        # "from now on" set in another language: kept whole, before the per-clause markers
        standing = standing_instructions(text)
        stated = with_workflow_habits(
            user_instructions(
                text, after_assistant_action=after_action, other_languages=not standing
            ),
            text,
            after_assistant_action=after_action,
        )
        if portable and any(REASONED_TAG in pref.tags for pref in stated):
            portable = None  # the message's rule, kept whole with its reason, already says it
        if not stated and not portable:  # a rule set in another language than English
            stated = standing
        if not stated and not portable:  # "ideally just rebase onto main"
            stated = preferred_ways(text)
        # "I want you to act as my coordinator, …", "vendor/ is committed on purpose"
        stated = [
            *stated,
            *_unsaid(
                wanted_ways(
                    text,
                    after_assistant_action=after_action,
                    root=event.project_id,
                    before=_said_before(events, position[event.id]),
                ),
                stated,
            ),
        ]
        # "I want to use TestNG and Lombok": the tools chosen for the project
        stated = [
            *stated,
            *_unsaid(
                stack_choices(
                    text,
                    after_assistant_action=after_action,
                    later=texts[index + 1 :],
                ),
                stated,
            ),
        ]
        # said while declining a call, or right after stopping the assistant
        declining = event.event_type == EventType.TOOL_RESULT or after_interrupt(
            events, position[event.id]
        )
        acted = acted_words(events, position[event.id]) if after_action else frozenset()
        stated = [with_applied_files(p, events, position[event.id]) for p in stated]
        # "never edit deploy/values.yaml, ops owns that file": one thing of the project
        thing = about_one_thing(text)
        for pref in [*stated, portable] if portable else stated:
            # a "don't …" that names what the assistant just did corrects it, as a decline does
            undoing = declining or names_what_was_done(pref.content, acted)
            kept = _style(as_session_habit(_declining(pref) if undoing else pref), event.id)
            if thing and thing.lower() in pref.content.lower():
                kept = replace(kept, type=MemoryType.PROJECT_FACT, scope=Scope.PROJECT)
            found.append(kept)
            if len(found) >= MAX_PREFERENCES:
                return _repeated(found)
    for event, pref in accepted_proposals(events):
        agreed = _style(pref, event.id)
        # The message's own wording of the same rule gives way to the agreed one.
        found = [
            c for c in found if (c.key, c.source_event_ids) != (agreed.key, agreed.source_event_ids)
        ]
        found.append(agreed)
    return _repeated(found[:MAX_PREFERENCES])


def _said_before(events: list[StoredEvent], index: int) -> str:
    """The user's own previous message before the event at `index`: a wish that takes up its
    words returns to a concern the user raised (`wanted_ways`); the assistant's words are not
    read, so accepting what it proposed is no wish of the user's."""
    for before in reversed(events[:index]):
        text = before.content.get("text")
        if (
            isinstance(text, str)
            and before.event_type == EventType.USER_MESSAGE
            and is_user_voice(before.origin)
        ):
            return text
    return ""


#: Share of a wish's words another instruction of the message already holds for the wish to
#: add nothing ("I want you to keep your answers terse" beside "Keep your answers terse.").
_SAID_SHARE = 0.6


def _unsaid(
    wishes: list[StatedPreference], stated: list[StatedPreference]
) -> list[StatedPreference]:
    """The wishes (`wanted_ways`) whose words no other instruction of the message already
    says: one memory per thing the user asked for."""
    said = [_words(pref.content) for pref in stated]
    kept = []
    for wish in wishes:
        words = _words(wish.content.split("“", 1)[-1]) - _words("I want you to the")
        if not any(len(words & other) >= _SAID_SHARE * len(words) for other in said if words):
            kept.append(wish)
    return kept


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w(?:[\w.-]*\w)?", text.lower()))


def _without_restated_declines(
    found: list[MemoryCandidate], events: list[StoredEvent]
) -> list[MemoryCandidate]:
    """Without the words a user gave while declining a call ("use pnpm") when the note on the
    tool that then did the job, made from the same decline, already says all of them."""
    call_of = {e.id: e.content.get("tool_use_id") for e in events if e.content.get("tool_use_id")}
    noted: dict[object, set[str]] = {}
    for cand in found:
        if cand.key.startswith(DECLINED_TOOL_PREFIX):
            for event_id in cand.source_event_ids:
                noted.setdefault(call_of.get(event_id), set()).update(_words(cand.content))
    noted.pop(None, None)

    def restated(cand: MemoryCandidate) -> bool:
        calls = {call_of.get(event_id) for event_id in cand.source_event_ids}
        return (
            cand.type is MemoryType.USER_STYLE
            and not cand.key.startswith(DECLINED_TOOL_PREFIX)
            and len(calls) == 1
            and (call := next(iter(calls))) in noted
            and _words(cand.content) <= noted[call]
        )

    return [c for c in found if not restated(c)] if noted else found


def _repeated(found: list[MemoryCandidate]) -> list[MemoryCandidate]:
    """An instruction the user gave in two or more messages of one episode is stressed: each
    of its candidates gains the emphasis step and tag, and the `repeated` tag (it stays
    tentative if it was; only another episode makes it a standing rule, as `recurrence`
    says)."""
    messages: dict[str, set[str]] = {}
    for cand in found:
        messages.setdefault(cand.key, set()).update(cand.source_event_ids)
    return [
        replace(
            c,
            importance=round(min(MAX_STATED_IMPORTANCE, c.importance + EMPHASIS_STEP), 3),
            tags=tuple(dict.fromkeys((*c.tags, EMPHASIS_TAG, REPEATED_TAG))),
        )
        if len(messages[c.key]) > 1 and EMPHASIS_TAG not in c.tags
        else replace(c, tags=tuple(dict.fromkeys((*c.tags, REPEATED_TAG))))
        if len(messages[c.key]) > 1
        else c
        for c in found
    ]


def _facts(
    events: list[StoredEvent], runs: list[CommandRun], repository: bool
) -> list[MemoryCandidate]:
    facts = project_facts(events, runs, repository=repository)
    if not repository and not any(f.key == LANGUAGE_KEY for f in facts):
        found = (
            session_language(events, runs)
            or toolchain_language(events, runs)
            or config_language(events)
            or echoed_language(events, runs)
        )
        if found is not None:
            facts.append(found)
    return [
        _candidate(
            MemoryType.PROJECT_FACT,
            fact.key,
            fact.content,
            tags=fact.tags,
            importance=fact.importance,
            event_ids=fact.event_ids,
            file_paths=fact.file_paths,
            rule=rule_of("facts", fact.key.split(":", 1)[0]),
        )
        for fact in facts
    ]


#: Keys (or key prefixes) of what the commands and read files say of each stack facet: where
#: one was found, the assistant's summary of that facet is not kept.
_STACK_COVERED = {
    "stack:language": (LANGUAGE_KEY,),
    "stack:tests": ("recipe:test", "test_command"),
    "stack:checks": ("recipe:verify", "ci:"),
}


def _stack(events: list[StoredEvent], found: list[MemoryCandidate]) -> list[MemoryCandidate]:
    """The stack facets the assistant listed that nothing else in the episode stated; a listed
    test command is a recipe."""
    return [
        _candidate(
            MemoryType.RECIPE if point.runs else MemoryType.PROJECT_FACT,
            point.key,
            point.content,
            tags=("stack", point.key.removeprefix("stack:")),
            importance=STACK_IMPORTANCE,
            event_ids=point.event_ids,
            rule="stack_summary",
        )
        for point in stack_summary(events)
        if not any(c.key.startswith(_STACK_COVERED[point.key]) for c in found)
    ]


def _dedupe(candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
    """One candidate per (type, key, content); the strongest wins, event ids are merged."""
    kept: dict[tuple[str, str, str], MemoryCandidate] = {}
    for cand in candidates:
        anchor = (cand.type.value, cand.key, cand.content)
        previous = kept.get(anchor)
        if previous is None:
            kept[anchor] = cand
            continue
        stronger = cand if cand.importance > previous.importance else previous
        kept[anchor] = replace(
            stronger,
            file_paths=tuple(dict.fromkeys((*previous.file_paths, *cand.file_paths))),
            source_event_ids=tuple(
                dict.fromkeys((*previous.source_event_ids, *cand.source_event_ids))
            ),
            source_refs=tuple(dict.fromkeys((*previous.source_refs, *cand.source_refs))),
        )
    return list(kept.values())
