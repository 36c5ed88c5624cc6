"""Workflow habits said in many wordings: how far to carry a batch of work, what "done" means,
that the code is fixed rather than the tests bent to pass, that the whole suite runs, the pace
of the work, the change shown first, no closing summary and how finished work is handed over.

Users repeat these across sessions, each time in other words, mostly as a correction after the
assistant stopped too early or called something finished too soon:
- carrying the work through: "don't stop after the first task", "keep going until the whole
  list is done", "do all of them in one go, without checking in between";
- what finishing means: "done means the tests pass and it's committed", "it's not finished
  until it's pushed", "don't say it's done before the tests pass".
- the tests left as they are: "don't modify existing tests to make them pass", "never change a
  test just to make it green", "fix the code, not the tests";
- the whole suite: "run the full suite, not just the one file", "run all the tests before you
  finish" (with a contrast or a moment every change reaches; "run all the tests" alone is the
  task's step);
- one piece at a time: "do them one at a time and wait for my ok before the next";
- the change shown before it is made: "show me the diff before applying anything", "before
  applying a change, show me the diff", "show me the plan before writing any code";
- no summary closing a reply, and the rest of every reply (its length, no explanation unasked,
  its form): the cues of `reply_habits`. Said after the task, even in the same sentence after
  an "and" ("fix it and keep your answers short"), they are read from their own words on; a
  reply habit another rule already reads ("be concise") stays in that rule's words;
- finished work handed over for review: "when you finish, push and open a PR", "open a pull
  request when you're done instead of pushing to main" ("push when you're done" alone keeps the
  push's own key, which "did you push?" shares).
Shared words cannot tell that such wordings are one instruction, so each habit has one key
(`CARRY_KEY`, `DONE_KEY`, `TESTS_KEY`, `SUITE_KEY`, `PACE_KEY`, `PREVIEW_KEY`, `SUMMARY_KEY`,
`HANDOVER_KEY` and the reply keys): the recurrence rules then promote it when it comes back in
another session, whatever the words, and its importance grows with every session that says it
again; two of these keys are never joined by their statements' shared lead words.
Said once it is tentative, at the level of a corrected one-off (a session may open with it,
marked as said once); said with a word of permanence ("always", "from now on", "never"), in a
message that sets a condition over the user's later requests ("When I give you a list of
tasks, …"), or, for what done means, said of any work ("a task isn't finished until …") or as
the word's own definition in a sentence of its own ("Done means the tests pass and it's
committed"), it is a standing rule at once. A question never counts ("should I keep going?",
"is it done?"), nor does a sentence about one thing being finished ("the migration is done").
Right after the assistant acted, the user pointing at work left behind ("there appear to be
unpushed commits", and nothing more in the sentence) says what done includes, in their words;
said with "still" ("there are still uncommitted changes") it needs no action before it: the
user has pointed at it before. A cue that names the assistant's own saying ("run the
tests before you say it's done", "don't tell me it works until you've run it") counts wherever
it stands in the sentence; a quoted line or a fenced block is pasted text, not read.
"""

from __future__ import annotations

import re
from dataclasses import replace

from squirrel_memory.extractors.firmness import (
    CORRECTION_STEP,
    CORRECTION_TAG,
    EMPHASIS_STEP,
    EMPHASIS_TAG,
    SAID_BEFORE_TAG,
    STANDING_IMPORTANCE,
    STANDING_TAG,
    TENTATIVE_IMPORTANCE,
    TENTATIVE_TAG,
    StatedPreference,
)
from squirrel_memory.extractors.instruction_forms import ASKED_CONDITION
from squirrel_memory.extractors.own_words import own_words
from squirrel_memory.extractors.reply_habits import (
    AND_CLAUSE,
    ANSWER_SHORT,
    ASKS_ANSWER,
    LENGTH_KEY,
    OWN_WORDS,
    REPLY_CUES,
    REPLY_HABITS,
    REPLY_KEYS,
    SUMMARY_KEY,
)
from squirrel_memory.extractors.wording import strip_markdown
from squirrel_memory.extractors.workflow_cues import (
    CARRY,
    DONE,
    DONE_SAYING,
    HANDOVER,
    LEFT_UNDONE,
    PACE,
    PREVIEW,
    STILL,
    SUITE_CONDITION,
    TESTS_BENT,
    WHOLE_SUITE,
)
from squirrel_memory.extractors.working_habits import HABIT_STEP
from squirrel_memory.models import Scope

CARRY_KEY = "pref:carry_work_through"
DONE_KEY = "pref:definition_of_done"
TESTS_KEY = "pref:tests_not_bent_to_pass"
SUITE_KEY = "pref:whole_test_suite"
PACE_KEY = "pref:one_task_at_a_time"
PREVIEW_KEY = "pref:preview_before_applying"
HANDOVER_KEY = "pref:hand_over_when_done"
WORKFLOW_TAG = "workflow"
MAX_QUOTE_CHARS = 160
_SENTENCES = re.compile(r"(?<=[.!;?])\s+|\n+")
_LEAD_INS = re.compile(
    r"^(?:(?:no|nope|ok|okay|please|pls|just|and|so|then|also|but|now|yes|yeah|great|good|"
    r"right|actually|hey|again|remember|always|never|from now on|going forward|in (?:the )?"
    r"future|i (?:want|need|would like|'d like) you to|you (?:should|must|can|need to|have to)|"
    r"can you|could you|would you|we (?:should|must)|let'?s|lets|i told you)[\s,.!:;—–-]*)*$",
    re.IGNORECASE,
)
_NEW_CLAUSE = re.compile(r"[,;:—–]\s*(?:and\s+|so\s+|then\s+|just\s+|please\s+)*$")
_WORK_SUBJECT = re.compile(
    r"^(?:(?:no|ok|okay|but|and|so|remember|also)[\s,]+)*(?:it|this|that|a task|the task|"
    r"each task|every task|a change|the change|the work|your work|a feature|a fix|a pr|"
    r"nothing|something|anything|work)(?:'s|\s+is|\s+isn'?t|\s+are)?\s*$",
    re.IGNORECASE,
)
#: Words that make a habit a standing rule at once.
_PERMANENT = re.compile(
    r"\b(?:always|never|from now on|going forward|in (?:the )?future|every ?time|each time|"
    r"as a (?:general )?rule|by default)\b",
    re.IGNORECASE,
)
#: A condition on every later claim of being done, said of any piece of work ("before you say
#: anything is finished, …", "don't tell me something is fixed until you've run it", "a task
#: isn't finished until the changelog has an entry", "nothing is done until it's pushed"), or
#: the word itself defined in a sentence of its own ("Done means the tests pass and it's
#: committed", "for me, finished = merged"): a standing rule said once. Said of "it" ("before
#: you say it's done", "it's done when the tests pass") or after the task in its sentence ("fix
#: it, done means tests green"), it may be this task's and waits to be said again.
_DONE_FOR_ANY = re.compile(
    r"^(?:(?:for|to)\s+me\s*,?\s*)?[\"“']?(?:done|finished)[\"”']?\s*(?:means\b|=|is\s+when\b)"
    r"|\b(?:(?:a|any|no|every|each)\s+(?:[a-z]+\s+)?(?:task|change|feature|fix|ticket|story|pr|"
    r"pull request|job|piece of work)|nothing)\s+(?:is|isn'?t|is not|'s)\s+(?:ever\s+|only\s+|"
    r"really\s+)?(?:done|finished|complete)\s+(?:until|unless|before|when|once|without)\b"
    r"|\bbefore\s+you\s+(?:say|tell me|claim|report|declare)\s+(?:that\s+)?"
    r"(?:something|anything|a\s+[a-z]+)(?:'s|\s+is)\s+(?:done|finished|complete|fixed|working)\b"
    r"|^(?:don'?t|do not|never)\s+(?:tell me|say|claim|report)\s+(?:that\s+)?"
    r"(?:something|anything|a\s+[a-z]+)(?:'s|\s+is)\s+(?:done|finished|fixed|working)\s+"
    r"until\s+you(?:'ve|\s+have)?\s+(?:actually\s+)?(?:run|tested|tried|checked|verified)\b",
    re.IGNORECASE,
)
#: A condition over the user's later requests opening a sentence ("When I give you a list of
#: tasks, …"), what makes the habits of its message standing rules.
_EVERY_REQUEST = re.compile(rf"(?:^|[.!?\n]\s*){ASKED_CONDITION}", re.IGNORECASE)
_EMPHASIS = re.compile(
    r"\b(?:DON'?T|NOT|NEVER|MUST|ONLY|ALL|EVERY)\b|!!|\b(?i:really|seriously|absolutely|"
    r"important|crucial|i (?:already )?(?:told you|said)|as i said|how many times)\b"
)
#: "could you please keep going until all are done?" asks politely: an instruction all the same.
_POLITE = re.compile(r"\bplease\b", re.IGNORECASE)
_LEADS = {
    CARRY_KEY: "The user wants a batch of work carried through to the end, not stopped after "
    "one part",
    DONE_KEY: "What the user counts as done",
    TESTS_KEY: "The user wants the code fixed, never the tests changed to make them pass",
    SUITE_KEY: "The user wants the whole test suite run, not only the tests at hand",
    PACE_KEY: "The user wants one piece of work at a time, their ok awaited before the next",
    PREVIEW_KEY: "The user wants to see a change before it is applied",
    HANDOVER_KEY: "How the user wants finished work handed over",
    **{habit.key: habit.lead for habit in REPLY_HABITS},
}
#: Each habit's key, the cues that state it said to the assistant, and the cues that state it
#: anywhere in a sentence, in the order a message is read for them.
_CUE_TABLE: tuple[tuple[str, tuple[re.Pattern[str], ...], tuple[re.Pattern[str], ...]], ...] = (
    (CARRY_KEY, CARRY, ()),
    (DONE_KEY, DONE, DONE_SAYING),
    (TESTS_KEY, TESTS_BENT, ()),
    (SUITE_KEY, WHOLE_SUITE, ()),
    (PACE_KEY, PACE, ()),
    (PREVIEW_KEY, PREVIEW, ()),
    (SUMMARY_KEY, REPLY_CUES[SUMMARY_KEY], ()),
    (HANDOVER_KEY, HANDOVER, ()),
    *((habit.key, habit.cues, ()) for habit in REPLY_HABITS if habit.key != SUMMARY_KEY),
)

#: Each habit's cues, wherever they stand.
_CUES_OF = {key: (*cues, *anywhere) for key, cues, anywhere in _CUE_TABLE}


def _quote(flat: str, start: int) -> str:
    """`flat` when short, else `MAX_QUOTE_CHARS` of it from the sentence part holding `start`,
    cut at a word; a code span cut in two loses its backticks."""
    if len(flat) > MAX_QUOTE_CHARS:
        left = max(0, flat.rfind(",", 0, start) + 1) if start > MAX_QUOTE_CHARS // 2 else 0
        piece = flat[left : left + MAX_QUOTE_CHARS]
        flat = piece[: piece.rfind(" ")] if left + MAX_QUOTE_CHARS < len(flat) else piece
    flat = flat.strip(" ,;:.!")
    return flat.replace("`", "") if flat.count("`") % 2 else flat


def _addressed(before: str) -> bool:
    """Whether the words before a cue leave it addressed to the assistant (nothing, lead-ins,
    a new clause) or about the work ("it's not done until …", "a task is only finished when
    …"), not about something in the code ("the retry loop should keep going until all workers
    exit", "the job is not complete until the upload ends")."""
    return bool(
        _LEAD_INS.match(before) or _NEW_CLAUSE.search(before) or _WORK_SUBJECT.match(before)
    )


def workflow_clauses(text: str, *, after_assistant_action: bool = False) -> dict[str, str]:
    """The words of a user message that state each workflow habit (`CARRY_KEY`, `DONE_KEY`),
    the first sentence for each; questions never count. Right after the assistant acted, work
    the user finds left uncommitted or unpushed says what done includes."""
    # a fenced block, a quoted line or an announced paste is not the user's instruction
    plain = strip_markdown(own_words(text))
    asked = bool(ASKS_ANSWER.search(plain))
    found: dict[str, str] = {}
    for raw in _SENTENCES.split(plain):
        flat = " ".join(raw.split())
        if not flat or (flat.endswith("?") and not _POLITE.search(flat)):
            continue
        here: set[str] = set()
        for key, cues, anywhere in _CUE_TABLE:
            if key == SUITE_KEY and (
                not (SUITE_CONDITION.search(flat) or _PERMANENT.search(flat)) or DONE_KEY in here
            ):
                # "run all the tests": this task's step, not a habit; "run the full suite
                # before saying it's done": what done means, which holds the suite
                continue
            match = next(
                (
                    m
                    for cue in cues
                    if (m := cue.search(flat))
                    and (
                        _addressed(flat[: m.start()])
                        or (key in REPLY_KEYS and AND_CLAUSE.search(flat[: m.start()]))
                    )
                ),
                None,
            ) or next((m for cue in anywhere if (m := cue.search(flat))), None)
            if match is not None:
                here.add(key)
                # a reply habit after the task ("fix it, and no recap"): its own words on
                if key in REPLY_KEYS and not _LEAD_INS.match(flat[: match.start()]):
                    said = flat[match.start() :]
                    found.setdefault(key, _quote(said[:1].upper() + said[1:], 0))
                found.setdefault(key, _quote(flat, match.start()))
        if asked and LENGTH_KEY not in found and (short := ANSWER_SHORT.search(flat)):
            # "Why does it return 502? Keep it short.": the length of the answer asked for
            found[LENGTH_KEY] = _quote(flat[short.start() :].strip("？?。！! "), 0)
        undone = LEFT_UNDONE.match(flat)
        # "still": the user already pointed at it, whatever came just before
        if undone and DONE_KEY not in found and (after_assistant_action or STILL.search(flat)):
            found[DONE_KEY] = _quote(flat, 0)
    return found


def workflow_habits(text: str, *, after_assistant_action: bool) -> list[StatedPreference]:
    """The workflow habits a user message states, one per habit: tentative until they recur
    (a nudge after the assistant acted is a correction), standing when said as a rule."""
    found: list[StatedPreference] = []
    # "When I give you a list of tasks, do all of them. Don't stop to ask after each one.": the
    # message sets how each such request of the user's is handled
    every_request = _EVERY_REQUEST.search(strip_markdown(own_words(text))) is not None
    for key, clause in workflow_clauses(
        text, after_assistant_action=after_assistant_action
    ).items():
        standing = bool(
            every_request
            or _PERMANENT.search(clause)
            or (key == DONE_KEY and _DONE_FOR_ANY.search(clause))
        )
        emphasis = bool(_EMPHASIS.search(clause))
        correction = after_assistant_action
        base = STANDING_IMPORTANCE if standing else TENTATIVE_IMPORTANCE + HABIT_STEP
        importance = (
            base
            + (CORRECTION_STEP if correction and not standing else 0.0)
            + (EMPHASIS_STEP if emphasis else 0.0)
        )
        marks = (
            STANDING_TAG if standing else TENTATIVE_TAG,
            CORRECTION_TAG if correction else None,
            EMPHASIS_TAG if emphasis else None,
        )
        found.append(
            StatedPreference(
                key=key,
                content=f"{_LEADS[key]}, in their words: “{clause}”.",
                tags=tuple(t for t in ("preference", WORKFLOW_TAG, *marks) if t),
                scope=Scope.USER,
                importance=round(min(0.85, importance), 3),
                correction=correction,
                standing=standing,
            )
        )
    return found


def with_workflow_habits(
    stated: list[StatedPreference], text: str, *, after_assistant_action: bool
) -> list[StatedPreference]:
    """`stated` with the workflow habits of `text` added, and any stated instruction that only
    words one of them (filed under its own words' key) left out."""
    habits = workflow_habits(text, after_assistant_action=after_assistant_action)
    if not habits:
        return stated
    cues = (
        *CARRY,
        *DONE,
        *DONE_SAYING,
        *TESTS_BENT,
        *WHOLE_SUITE,
        *PACE,
        *PREVIEW,
        *REPLY_CUES[SUMMARY_KEY],
        *HANDOVER,
    )
    kept = [p for p in stated if not any(cue.search(p.content) for cue in cues)]
    # said as a rule in words of its own ("don't summarise at the end of every answer"): the
    # habit those words state is standing at once (not one said again: "again: don't stop")
    ruled = [p for p in stated if p not in kept and p.standing and SAID_BEFORE_TAG not in p.tags]
    habits = [
        _as_standing(h)
        if any(cue.search(p.content) for p in ruled for cue in _CUES_OF.get(h.key, ()))
        else h
        for h in habits
    ]
    # a reply habit another rule already reads ("be concise", "don't explain the code unless I
    # ask") stays in that rule's words
    habits = [
        h
        for h in habits
        if h.key not in OWN_WORDS
        or not any(
            p.key == h.key or any(cue.search(p.content) for cue in OWN_WORDS[h.key]) for p in kept
        )
    ]
    return [*kept, *habits]


def _as_standing(habit: StatedPreference) -> StatedPreference:
    """A workflow habit its message states as a rule: standing from the start."""
    if habit.standing:
        return habit
    tags = tuple(STANDING_TAG if t == TENTATIVE_TAG else t for t in habit.tags)
    importance = max(STANDING_IMPORTANCE, habit.importance)
    return replace(habit, tags=tags, importance=importance, standing=True)
