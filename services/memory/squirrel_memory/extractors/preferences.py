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
an instruction given before, `said_before`'; the cues of a correction, of emphasis or of an
approval gate, `instruction_cues`'; how firm the instruction is, in tags and importance,
`firmness`'.
"""

from __future__ import annotations

from dataclasses import replace

from squirrel_memory.extractors.asked_forms import asked_statement
from squirrel_memory.extractors.clauses import clauses
from squirrel_memory.extractors.code_bans import code_kind_ban
from squirrel_memory.extractors.firmness import (
    EMPHASIS_STEP,
    EMPHASIS_TAG,
    REASONED_TAG,
    RESTATED_TAG,
    STANDING_IMPORTANCE,
    STANDING_TAG,
    TENTATIVE_IMPORTANCE,
    TENTATIVE_TAG,
    StatedPreference,
    preference,
)
from squirrel_memory.extractors.instruction_cues import (
    CORRECTION_LEAD,
    DONT_ANY,
    EMPHASIS,
    GATE,
    INSIST,
    NO_GATE,
    NOTICED_MISSING,
    ONE_THING_FIRST,
    SENTENCE_END,
    WHOLE_WORK_BAN,
    asks_to_look,
    clause_head,
    instead_this_time,
    is_process_rule,
    of_product_users,
)
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
    without_ever_tail,
)
from squirrel_memory.extractors.way_forms import way_statement
from squirrel_memory.extractors.way_reasons import (
    lesson_reason,
    reasoned_by_moment,
    reasoned_by_way,
    way_after_refusal,
)
from squirrel_memory.extractors.written_requests import without_written_warnings
from squirrel_memory.models import Scope


def stated_preferences(text: str, *, after_assistant_action: bool) -> list[StatedPreference]:
    """Instructions the user gave in `text`, standing or tentative.

    `after_assistant_action` says the message answers something the assistant just did:
    only then can "no, …" or "did you …?" be a correction.
    """
    message = mended_spelling(without_written_warnings(text.strip()))
    # "no emojis please" is a way of working refused, not a "no, …" that corrects
    correction = bool(after_assistant_action and CORRECTION_LEAD.match(message)) and not (
        way_statement(message.split("\n", 1)[0])
        or ruled_out_for_good(message)
        # "No globals. Pass the config …": a thing ruled out, the sentence's own "no"
        or ruled_out_thing(SENTENCE_END.split(message, maxsplit=1)[0]) is not None
        # "No unwrap or panic in production code.": a ban over a kind of code
        or code_kind_ban(SENTENCE_END.split(message, maxsplit=1)[0]) is not None
    )
    if correction:
        message = CORRECTION_LEAD.sub("", message, count=1)
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
        if NOTICED_MISSING.match(written.strip()) or NOTICED_MISSING.match(read.strip()):
            continue  # "hmm, no tests folder", "no shadow branch again": a remark, no ban
        if of_product_users(read):
            continue  # "never block the user while the feed loads": what the product does
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
        # "no mocks in the integration tests, ever": the ban, said for all later work
        ever_tail = without_ever_tail(body)
        body = ever_tail or body
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
        # "I've told you this a hundred times: …": the saying's "this" is no spot of the task
        spot = told or written
        if (
            not own_mark
            and (TASK_SPOT.search(spot) or ("here" in spot and HERE_SPOT.search(spot)))
            and not WE.search(written)
            and not GATE.search(body)
            and not lesson_reason(read)
        ):
            # "always return 404 in this handler": a rule of one spot of the task, also after a
            # marker earlier in the message ("Going forward, …. Use a page size of 20 for this
            # page.")
            continue
        ever = ever_tail is not None or ever_after(message, written)
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
        # "no unwrap or panic in production code": a ban over every later piece of a kind of
        # code, a standing rule
        ban = None if result is not None or clause.endswith("?") else code_kind_ban(body)
        if ban is not None:
            result, standing = worded(ban, ban), True
        elif result is None and (match := NO_GATE.match(body)):
            result = worded(f"no {match.group('x')} {match.group('gate')}", body)
        asked = process = result is not None and ban is None
        if result is None and not clause.endswith("?"):
            # "don't forget to update the changelog": the lead-in words are part of the form
            result = habit_statement(body) or (None if told else habit_statement(written.strip()))
            if result is not None and not standing and ONE_THING_FIRST.match(body):
                continue  # "let's fix it. write the test first": the order of this one task
            standing = standing or result is not None
            asked = process = False
        if result is None and not clause.endswith("?"):
            process = after_assistant_action and is_process_rule(body)
            result = statement(
                body,
                imperative_ok=standing
                or correction
                or process
                or told_before
                or bool(INSIST.match(written) and CONDITIONED.search(body))
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
            and (thing := ruled_out_thing(body) or ruled_out_thing(clause_head(body)))
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
        gated = bool(GATE.search(body))
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
            and (
                WHOLE_WORK_BAN.match(clause_head(body))
                or (
                    DONT_ANY.match(clause_head(body))
                    and (
                        instead_this_time(message, listed, index) or asks_to_look(message, written)
                    )
                )
            )
        ):
            # "don't fix anything, just validate it works", "tell me why it fails. Don't modify
            # any files.", a bare "Don't modify any files.": how to do this request
            continue
        found.append(
            preference(
                result,
                clause,
                standing or result.choice,
                correction or process or gated or (stepped is not None and undone),
                emphasis=bool(EMPHASIS.search(written)),
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


def _reasoned(rule: ReasonedRule) -> StatedPreference:
    """A requirement grounded in what the project is: a standing rule of this project."""
    emphasis = bool(EMPHASIS.search(rule.said))
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
