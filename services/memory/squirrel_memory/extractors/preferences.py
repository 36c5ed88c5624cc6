"""Standing instructions in user messages, told apart from one-off task wording.

A clause becomes a *standing* instruction when it is phrased as a general rule: "always …",
"never …", "from now on …", "in this repo …", "by default …", "every time …", "prefer …",
"… consistently", a choice of one tool over another ("use X, not Y"), or a habit form that can
only be meant as a rule: "keep commit messages short" (a kind of thing, not "it" or "the
README"), "write the tests first, then implement" (an order of work whose first step names a
work product: tests, the spec, docs, a plan). Corrections of the assistant ("no, …", "did you
push?", "why did you skip the hook?") and plain directives ("don't …", "stop …ing", "X instead
of Y") are *tentative*: kept at low importance until the same instruction (same key) comes back
in another episode, when the update path promotes it (see `squirrel_memory.recurrence`); said
in two messages of one episode, or with a reminder ("please remember", "don't forget"), it is
stressed (the emphasis step) and ranks above a single mention.
The user quoting their own earlier instruction ("I told you not to use mocks", "I already asked
you to run the linter before committing") states it as a rule said before, in its own words,
when it is one: a prohibition, a condition or a rule word, never tied to the moment; "I asked
you to fix the login bug" is the task asked again.
Directives about the task at hand ("don't push yet", "don't change this file", "don't fix
anything, just validate it works") are dropped.
The forms a clause's instruction takes, and its clean wording, are `instruction_forms`'; the
words that make a clause standing or tie it to the task, `standing_marks`'; the user quoting
an instruction given before, `said_before`'.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from squirrel_memory.extractors.asked_forms import asked_statement
from squirrel_memory.extractors.clauses import clauses
from squirrel_memory.extractors.instruction_forms import (
    AT_THE_END,
    habit_statement,
    statement,
    team_as_we,
)
from squirrel_memory.extractors.instruction_keys import instruction_key, tool_words, topic
from squirrel_memory.extractors.instruction_parts import ONE_OFF, VERBS, Found, worded
from squirrel_memory.extractors.instruction_scope import instruction_scope
from squirrel_memory.extractors.labelled_habits import (
    asides_apart,
    bare_choice,
    bare_routine,
    kept_way,
    only_choice,
    topic_label,
    with_label,
)
from squirrel_memory.extractors.practices import stated_practice
from squirrel_memory.extractors.reasoned_rules import ReasonedRule, reasoned_rule
from squirrel_memory.extractors.rule_lists import is_lead_line, listed_under_lead, rules_apart
from squirrel_memory.extractors.rule_shapes import RESTATING, rule_shape
from squirrel_memory.extractors.said_before import (
    AGAIN_LEAD,
    REMINDER_LEAD,
    SAID_BEFORE,
    rule_worded,
    told_rule,
)
from squirrel_memory.extractors.standing_marks import (
    CONDITIONED,
    HERE_SPOT,
    SCOPE_PHRASE,
    STANDING,
    TASK_SPOT,
    WE,
    after_marker,
    kind_last,
    marker_start,
    standing_words,
)
from squirrel_memory.extractors.step_rules import step_rule, undoes_step
from squirrel_memory.extractors.user_wording import (
    after_reason,
    asked_as_rule,
    ever_after,
    imperatives_apart,
    labelled_rule,
    mended_spelling,
    rule_as_said,
    ruled_out_for_good,
    ruled_out_thing,
    stressed_rule,
)
from squirrel_memory.extractors.way_forms import way_statement
from squirrel_memory.extractors.way_reasons import (
    lesson_reason,
    reasoned_by_moment,
    reasoned_by_way,
    way_after_refusal,
)
from squirrel_memory.extractors.wording import stem, word_set
from squirrel_memory.extractors.written_requests import without_written_warnings
from squirrel_memory.models import Scope

#: Importance of an instruction phrased as a general rule, and of a one-off (tentative) one.
STANDING_IMPORTANCE = 0.7
CHOICE_IMPORTANCE = 0.75
TENTATIVE_IMPORTANCE = 0.25
#: What the user's emphasis ("NEVER", "!!", "it's important") and a correction add.
EMPHASIS_STEP = 0.1
CORRECTION_STEP = 0.05
#: The most a stated instruction's emphasis can lift it to (recurrence alone goes further).
MAX_STATED_IMPORTANCE = 0.85
#: Importance of an instruction the user says they gave before ("as I said, …").
REPEATED_IMPORTANCE = 0.7
#: Tags that say how an instruction was found; `recurrence` promotes `tentative` ones.
STANDING_TAG = "standing"
TENTATIVE_TAG = "tentative"
CORRECTION_TAG = "correction"
EMPHASIS_TAG = "emphasis"
#: The tag `recurrence` gives an instruction seen again; a message saying "I told you" is one.
SAID_BEFORE_TAG = "recurring"
#: The tag of an instruction said in two or more messages of one episode (and of a routine
#: asked after each of two pieces of work in one session): repeated, not yet in another session.
REPEATED_TAG = "repeated"
#: The tag of a rule kept whole with the reason the project gives for it (`reasoned_rules`).
REASONED_TAG = "reasoned"
#: The tag of words the user says they said before that no form reads as an instruction
#: ("as I said before: constructor injection, no field injection"): kept only where they say
#: again an instruction the user gave (`candidate_decisions`), whose wording stays.
RESTATED_TAG = "restated"


#: "No need to …", "no problem", "no rush" open a reply that waives or reassures; they say no
#: "no" to what the assistant did.
_CORRECTION_LEAD = re.compile(
    r"^(?:no(?!\s+(?:need|problem|worries|rush|hurry|pressure)\b)|nope|nah|wrong|not like that|"
    r"that's not (?:it|right|what i (?:asked|meant)))\b"
    r"[\s,.!:;—–-]*",
    re.IGNORECASE,
)
#: A lead that insists on what follows ("make sure to …", "remember to …"): with a condition
#: ("… before you commit") the directive after it is a rule of conduct, tentative unless said
#: as a rule; without one it is usually about the task at hand.
_INSIST = re.compile(
    r"^(?:(?:please|pls|and|also|so|ok|okay)\s+)*(?:make sure (?:to|that you|you)|be sure to|"
    r"remember to)\b",
    re.IGNORECASE,
)
#: A change made only with the user's approval ("without asking me first", "unless I approve
#: it"): a rule of conduct, even when it names "it" (the change the rule is about).
_GATE = re.compile(
    r"\b(?:without (?:my |your |the user'?s |an? |explicit )?(?:approval|permission|ok|go-ahead|"
    r"asking(?: me)?|confirmation|checking with me)|unless i (?:approve|say so|ask|confirm|agree)|"
    r"until i (?:approve|say so|confirm|agree|review)|"
    # "I did not say commit": done without being asked, which the rule is about
    r"^i (?:did not|didn'?t|never) (?:say|said|ask|asked|tell|told|want|wanted)\b)",
    re.IGNORECASE,
)
#: "no file changes without approval": a thing the work must not do without the user's yes.
_NO_GATE = re.compile(
    r"^no (?P<x>[\w`'./-]+(?:\s[\w`'./-]+){0,4}?)\s+(?P<gate>(?:without|unless|until)\s.{3,80}?)"
    r"[\s.!]*$",
    re.IGNORECASE,
)
#: Emphasis: a directive word in capitals, doubled punctuation, a weight word.
_EMPHASIS = re.compile(
    r"\b(?:ALWAYS|NEVER|DON'?T|DO NOT|NOT|MUST|STOP|NO|ONLY|EVERY|ALL|EVERYONE|EVERYBODY|"
    r"EVERYTHING|ANYONE|NOBODY)\b|!!|\b(?i:please,?\s+please|really|"
    r"seriously|absolutely|important|crucial|critical|make sure|under no circumstances|"
    r"(?:just )?to be (?:clear|explicit|precise)|to clarify|for clarity|"
    r"(?:please )?remember(?: that| to)?|don'?t forget|keep in mind|i mean it)\b"
)
#: Verbs of how work is carried out (not what to build), for corrections without "no".
_PROCESS = word_set(
    "keep continue push commit finish stop wait ask check verify test run lint format rebase ",
    "squash document update",
)
#: A plain "don't" over the whole of the work ("don't fix anything", "don't touch the code")
#: followed by what to do instead this time ("…, but just validate it", "…, I just want the
#: size of it"): the two set the scope
#: of the request at hand, not a rule for later work. One means for another ("don't use npm,
#: just use pnpm", "don't mock the db, just hit the real one") is no scope: it stays a rule.
_DONT_ANY = re.compile(
    r"^(?:don'?t|do not)\s+[a-z-]+\s+(?:anything|everything|any\s+[a-z-]+|the code|it|this|that)"
    r"(?:\s+else)?$",
    re.IGNORECASE,
)
_JUST = re.compile(
    r"^[\s,]*(?:(?:but|and)\s+)*(?:(?:i|we)(?:['’]m|\s+am|\s+are)?\s+)?(?:just|only|simply)\s+[a-z]",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.!?\n]")


@dataclass(frozen=True, slots=True)
class StatedPreference:
    """An instruction found in one clause: key, clean statement, scope and how firm it is."""

    key: str
    content: str
    tags: tuple[str, ...]
    scope: Scope
    importance: float
    correction: bool = False
    standing: bool = False


def _is_process_rule(clause: str) -> bool:
    """ "keep going until every task is done", "push when you are done": how to work, said
    right after the assistant acted, with the condition that makes it a rule of conduct."""
    words = clause.split(maxsplit=1)
    if not words:  # nothing left after a place word ("here", "in this repo")
        return False
    verb = stem(words[0].lower())
    return (verb in _PROCESS or words[0].lower() in _PROCESS) and bool(CONDITIONED.search(clause))


def stated_preferences(text: str, *, after_assistant_action: bool) -> list[StatedPreference]:
    """Instructions the user gave in `text`, standing or tentative.

    `after_assistant_action` says the message answers something the assistant just did:
    only then can "no, …" or "did you …?" be a correction.
    """
    message = mended_spelling(without_written_warnings(text.strip()))
    # "no emojis please" is a way of working refused, not a "no, …" that corrects
    correction = bool(after_assistant_action and _CORRECTION_LEAD.match(message)) and not (
        way_statement(message.split("\n", 1)[0])
        or ruled_out_for_good(message)
        # "No globals. Pass the config …": a thing ruled out, the sentence's own "no"
        or ruled_out_thing(_SENTENCE_END.split(message, maxsplit=1)[0]) is not None
    )
    if correction:
        message = _CORRECTION_LEAD.sub("", message, count=1)
    marker_at = marker_start(message)
    undone = after_assistant_action and undoes_step(message)
    said_before = bool(SAID_BEFORE.search(message))
    restating = said_before or bool(RESTATING.search(message))
    found: list[StatedPreference] = []
    reasoned = reasoned_rule(message)
    if reasoned is not None:
        found.append(_reasoned(reasoned))
    # "Ground rules: use the wrapper, never a global install, and keep PRs small": each rule
    listed, announced = rules_apart(imperatives_apart(asides_apart(clauses(message))))
    announced |= listed_under_lead(message)  # "Conventions:\n- 4 spaces\n- no wildcard imports"
    for index, (written, read) in enumerate(listed):
        if reasoned is not None and " ".join(read.split()) in reasoned.said:
            continue  # a part of the reasoned rule, kept whole with its reason
        if is_lead_line(written):
            continue  # "Coding guidelines for this repo:": the title of the list under it
        # "can you always … before …?", "we're a Kotlin shop, so prefer …": the rule
        clause = asked_as_rule(read) or after_reason(read) or way_after_refusal(read) or read
        # "Errors: always wrap with %w", "Style: start pipelines with a raw value": the rule
        # after a topic label, told with it
        labelled = topic_label(clause) if not labelled_rule(written) else None
        if labelled is not None and (labelled.style or STANDING.search(labelled.rest)):
            clause = labelled.rest
        else:
            labelled = None
        scope_phrase = SCOPE_PHRASE.match(clause)
        body = kind_last(clause[scope_phrase.end() :] if scope_phrase else clause)
        again = AGAIN_LEAD.match(body) is not None
        body = AGAIN_LEAD.sub("", body, count=1)  # "again, never use var": the rule said again
        body = REMINDER_LEAD.sub("", body, count=1)  # "Reminder, and I mean it: no …"
        told = told_rule(written.strip().rstrip(".!"))
        if told == "":
            continue  # "I told you to fix the login bug": a task asked again, no rule
        body = told or body
        # "bundle exec rubocop -a before committing": the routine of running a bare command
        routine = bare_routine(body)
        body = routine or body
        # "as I said, fix the login bug" is the task asked again; "as I said, never push to
        # main" is a rule said again: the clause must be worded as a rule, as `told_rule` asks
        told_before = told is not None or ((said_before or again) and rule_worded(body))
        # "Important: migrations are append-only, never edit one": a stressed statement
        # A marker earlier in the message ("for future reference: …") carries to this clause;
        # its own stress or a ways lead's list marks it itself.
        carried = after_marker(message, written, marker_at)
        own_mark = (
            stressed_rule(written, body)
            or written in announced
            or _marker_within(message, written, marker_at)
        )
        marked = carried or own_mark
        if (
            not own_mark
            and (TASK_SPOT.search(written) or ("here" in written and HERE_SPOT.search(written)))
            and not WE.search(written)
            and not _GATE.search(body)
            and not lesson_reason(read)
        ):
            # "always return 404 in this handler": a rule of one spot of the task, also after a
            # marker earlier in the message ("Going forward, …. Use a page size of 20 for this
            # page.")
            continue
        ever = ever_after(message, written)
        standing = (
            marked
            or ever
            or labelled_rule(written)  # "Our convention: …", "Rule of thumb: …"
            or reasoned_by_way(read)  # "don't use var, we spell types out"
            or (labelled is not None and labelled.style)
            or standing_words(written)
            # "our team writes commit messages in the present tense": the team's practice
            or stated_practice(team_as_we(body), verbs=VERBS, task_words=ONE_OFF) is not None
        )
        result = asked_statement(body) if after_assistant_action else None
        if result is None and (match := _NO_GATE.match(body)):
            result = worded(f"no {match.group('x')} {match.group('gate')}", body)
        asked = process = result is not None
        if result is None and not clause.endswith("?"):
            # "don't forget to update the changelog": the lead-in words are part of the form
            result = habit_statement(body) or (None if told else habit_statement(written.strip()))
            standing = standing or result is not None
            asked = process = False
        if result is None and not clause.endswith("?"):
            process = after_assistant_action and _is_process_rule(body)
            result = statement(
                body,
                imperative_ok=standing
                or correction
                or process
                or told_before
                or bool(_INSIST.match(written) and CONDITIONED.search(body))
                or routine is not None
                or bool(AT_THE_END.match(body)),
                standing=standing,
            )
        stepped = None
        if result is None or (not standing and ONE_OFF.search(result.subject)):
            # "we should run X before committing it": the "it" is the commit, not the task
            stepped = step_rule(body, correcting=correction or undone)
            result = stepped.found if stepped else result
        if result is None and not clause.endswith("?"):
            result = rule_shape(body)
            standing = standing or result is not None
        if result is None and (way := kept_way(body)):
            # "we follow PSR-12, please keep to it": the way as said, asked to be kept
            result, standing = worded(way, way), True
        if result is None and (sides := (marked and bare_choice(body)) or only_choice(body)):
            # "Going forward, async/await instead of completion handlers", "f-strings only,
            # no % formatting": the first side
            x, y = sides
            result = worded(f"Prefers {x} over {y}", f"{x} {y}", choice=bool(tool_words(x)))
            standing = standing or only_choice(body) is not None
        style = labelled is not None and labelled.style
        if result is None and rule_as_said(
            body,
            labelled=labelled_rule(written) or style or written in announced or ever,
            marked=marked,
        ):
            # "Our convention: one class per file", "for future reference, the deploy always
            # goes through the Makefile": the rule as said
            result = worded(body, body)
        if (
            result is None
            and (told_before or ever or marked or standing_words(written))
            # "no remote-config SDKs, we don't ship trackers": the thing before its reason
            and (thing := ruled_out_thing(body) or ruled_out_thing(_head(body)))
        ):
            # "again: no Lombok!", "no force push. ever.", "in general: no remote-config SDKs":
            # a thing ruled out, said as a rule
            result = worded(f"no {thing}", thing)
        if result is None:
            if restating and not clause.endswith("?") and (said := _restated(body)):
                found.append(said)
            continue
        if scope_phrase and result.content and not result.content.startswith("Prefers"):
            where = scope_phrase.group(0).strip(" ,").lower()
            result = Found(result.content.rstrip(".") + f" {where}.", result.subject)
        if labelled is not None:
            result = replace(
                result,
                content=with_label(labelled.label, result.content),
                subject=f"{labelled.label} {result.subject}",
            )
        standing = (standing or result.standing) and not asked
        if (
            carried
            and not own_mark
            and not standing_words(written)
            and not result.choice
            and ONE_OFF.search(result.subject)
        ):
            continue  # "Going forward, …. Commit this as 'wip'": the task after the marker
        gated = bool(_GATE.search(body))
        if (
            not standing
            and not result.choice
            and not gated
            and not stepped
            and ONE_OFF.search(result.subject)
        ):
            continue
        if not standing and not told_before and reasoned_by_moment(read):
            continue  # "don't merge the branch, we need it for the demo": the task at hand
        if (
            not standing
            and not correction
            and not gated
            and not told_before
            and _DONT_ANY.match(_head(body))
            and _instead_this_time(message, listed, index)
        ):
            continue  # "don't fix anything, just validate it works": how to do this request
        found.append(
            _preference(
                result,
                clause,
                standing or result.choice,
                correction or process or gated or (stepped is not None and undone),
                emphasis=bool(_EMPHASIS.search(written)),
                said_before=told_before,
            )
        )
    return found


def _marker_within(message: str, written: str, marker_at: int | None) -> bool:
    """Whether the message's standing marker is in this clause itself ("From now on, always run
    the linter in this folder"), not in one before it."""
    at = message.find(written)
    return marker_at is not None and 0 <= at <= marker_at < at + len(written)


def _restated(body: str) -> StatedPreference | None:
    """The words of a clause the user says they said before, no form reading them as an
    instruction: a tentative candidate tagged `restated` (see `RESTATED_TAG`)."""
    said = RESTATING.sub(" ", body)
    said = " ".join(said.split()).strip(" ,.:;!-")
    if len(said.split()) < 2 or ONE_OFF.fullmatch(said):
        return None
    content = said[0].upper() + said[1:] + "."
    return StatedPreference(
        key=instruction_key(said),
        content=content,
        tags=tuple(t for t in ("preference", topic(said), TENTATIVE_TAG, RESTATED_TAG) if t),
        scope=instruction_scope(body),
        importance=TENTATIVE_IMPORTANCE,
    )


def _head(clause: str) -> str:
    """A clause up to its first comma, without end punctuation."""
    return clause.split(",", 1)[0].strip().rstrip(".!?").strip()


def _instead_this_time(message: str, listed: list[tuple[str, str]], index: int) -> bool:
    """Whether the clause at `index` is followed, in the same sentence, by what to do instead
    ("don't fix anything, but just validate it works", "don't touch the code, just run the
    tests"): the pair says how to carry out the request at hand."""
    written = listed[index][0]
    _, comma, rest = written.partition(",")
    if comma and _JUST.match(rest):
        return True
    if index + 1 >= len(listed):
        return False
    start = message.find(written)
    following = listed[index + 1][0]
    stem_end = start + len(written.rstrip(".!? "))
    end = message.find(following, stem_end) if start >= 0 else -1
    if end < 0 or _SENTENCE_END.search(message[stem_end:end]):
        return False
    return bool(_JUST.match(following))


def _reasoned(rule: ReasonedRule) -> StatedPreference:
    """A requirement grounded in what the project is: a standing rule of this project."""
    emphasis = bool(_EMPHASIS.search(rule.said))
    tags = (
        "preference",
        topic(rule.subject),
        STANDING_TAG,
        REASONED_TAG,
        EMPHASIS_TAG if emphasis else None,
    )
    return StatedPreference(
        key=instruction_key(rule.subject),
        content=rule.content,
        tags=tuple(t for t in tags if t),
        scope=Scope.PROJECT,
        importance=round(STANDING_IMPORTANCE + (EMPHASIS_STEP if emphasis else 0.0), 3),
        standing=True,
    )


def _preference(
    found: Found,
    clause: str,
    standing: bool,
    correction: bool,
    *,
    emphasis: bool = False,
    said_before: bool = False,
) -> StatedPreference:
    """The instruction with its tags and importance: a rule outranks a one-off; the user's
    emphasis and a correction add weight; "as I said" makes it a rule said before."""
    standing = standing or said_before
    kind = STANDING_TAG if standing else TENTATIVE_TAG
    marks = (
        CORRECTION_TAG if correction else None,
        EMPHASIS_TAG if emphasis else None,
        SAID_BEFORE_TAG if said_before else None,
    )
    tags = tuple(t for t in ("preference", topic(found.subject), kind, *marks) if t)
    if not standing:
        importance = TENTATIVE_IMPORTANCE + (CORRECTION_STEP if correction else 0.0)
    elif said_before:
        importance = REPEATED_IMPORTANCE
    else:
        importance = CHOICE_IMPORTANCE if found.choice else STANDING_IMPORTANCE
    importance = round(
        min(MAX_STATED_IMPORTANCE, importance + (EMPHASIS_STEP if emphasis else 0.0)), 3
    )
    scope = instruction_scope(clause)
    return StatedPreference(
        key=instruction_key(found.subject, choice=found.choice),
        content=found.content,
        tags=tags,
        scope=scope,
        importance=importance,
        correction=correction,
        standing=standing,
    )
