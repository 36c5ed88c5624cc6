"""Practices the user states of themselves or their team: "we only do patch releases", "we
always squash", "I never pin versions", and with no rule word the team's way with a kind of
thing: "we write doctests for public functions", "we squash commits before merging".

A practice is said in the present tense with a verb of how work is done; a short reason before
or after it ("we are prerelease, we only do patch", "… because it is a library") is kept with
it, in brackets. The directive verbs and the words that tie a clause to the task at hand come
from `preferences`, which keys a practice as the same rule said as a directive.
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.wording import stem, word_set

#: "we only do patch releases", "we always squash", "I never pin versions": the user stating a
#: practice of theirs or their team's, in the present tense with a verb of how work is done (a
#: directive verb or one of `_PRACTICE_VERBS`; a verb on neither list says nothing: "I always
#: lose my place in long diffs").
#: "we only need to change one file" (a need of the task), "we always got this error" (a past
#: event), "I never know which one" (a state of mind) are not practices. A short reason may come
#: first ("we are prerelease, we only do patch") or last ("… because it is a library"); it is
#: kept with the practice, in brackets.
_PRACTICE = re.compile(
    r"^(?:(?P<why>[^,]{3,60}),\s+)?(?:we|i)\s+"
    r"(?P<rest>(?:always|never|only)\s+(?P<verb>[a-z][a-z-]*)\b(?P<obj>.*))$",
    re.IGNORECASE | re.DOTALL,
)
#: A reason given after the practice: "… since this is a library", "… because CI caches it",
#: "…, as CI caches it" ("as" without a comma is a manner: "tag releases as v1.2.3").
_REASON_AFTER = re.compile(
    r"(?:(?:,|(?<![\s,]))\s+(?P<why>(?:since|because|given that)\s.{3,80})"
    r"|,\s+(?P<as>as\s.{3,80}))$",
    re.I,
)
#: A reason clause that is one: "since …", "because …", "as …"; the task words
#: ("this", "it") do not make it task-bound, a time word does.
_REASON_LEAD = re.compile(r"^(?:since|because|as|given that)\b", re.IGNORECASE)
_NOW = re.compile(r"\b(?:yet|for now|right now|this time|today|at the moment|just now)\b", re.I)
#: Words after "we always/never/only" that are no verb of how work is done: states, needs,
#: perception and events ("we always get a timeout", "I never know", "we only have two tests"),
#: auxiliaries, function words and common irregular past forms.
_NOT_PRACTICE = word_set(
    "be am is are was were been being have has had having get gets got gotten know knew known ",
    "think thought need needed want wish hope forget forgot remember see saw seen seem look ",
    "sound feel felt like love hate mean meant understand care mind wonder hear heard find ",
    "found try tried end happen manage fail hit ran came come went gone did done said told ",
    "took taken gave given made broke broken lost left kept wrote written began begun ",
    "can could will would shall should may might must ought dare ",
    "a an the one two three some any no not just really still also even ever again once then ",
    "there here so too to in on at for with by from about into onto up out off over after ",
    "before when while if it this that these those them me us you him her they he she we i ",
    "my our your their its what which who how why where very quite rather almost already ",
    "tend usually often sometimes ",
    "understood stood thought brought bought caught taught sought fought grew threw drew flew ",
    "blew rode spoke chose froze woke stole drove shook ate fell held sold met paid sent spent ",
    "bent lent dealt slept swept wept led fed fled hid bit lit shot sat won hung struck stuck ",
    "dug spun sang rang drank sank swam became overcame forgotten",
)
#: Verbs whose past is their present ("I only read the first file" tells what happened).
_PAST_AS_PRESENT = word_set("read put set cut let shut spread cast quit split hurt cost fit upset")
#: An object that counts ("we only run one test", "I only changed two files"): the task's size.
_QUANTITY = re.compile(
    r"\s*(?:one|two|three|four|five|a few|a couple|several|\d+|half|part|some)\b", re.IGNORECASE
)
#: Common verbs of how work is done past the directive verbs ("we always pin", "I never vendor").
_PRACTICE_VERBS = word_set(
    "pin unpin vendor ship publish mock stub pull fetch version lock cache backport ",
    "cherry-pick amend pair branch revert rollback roll migrate seed benchmark profile ",
    "annotate typecheck compile bundle minify containerize package install upgrade downgrade ",
    "refactor squash-merge fast-forward catch swallow expose throw",
)


#: "We write doctests for public functions", "we squash commits before merging", "we use records
#: for DTOs": the team's way with no rule word, a verb of how code is written or kept, a kind of
#: thing named bare in the plural and where or when it holds. Not "we use mocks for these
#: tests" (things at hand), "we add tests for the parser" (one thing: the task), "we return
#: early if …" (what the code does: no such verb) nor "we put files in the wrong place".
_KIND_PRACTICE = re.compile(
    r"^we\s+(?P<verb>write|use|put|keep|squash|rebase|co-?locate|name|prefix|suffix|document|"
    r"tag|pin|review|format|lint|follow|group|sort|organi[sz]e|mark|add|run|wrap|declare|"
    r"annotate|inject|mock|stub|vendor)\s+"
    r"(?P<obj>(?!(?:the|this|that|these|those|it|them|a|an|my|your|our|one|some|any|all|to|"
    r"into|out|up|down|back|on|off|in|with|for|each|every|no|not)\b)[\w`'.+-]+"
    r"(?:\s+[\w`'.+-]+){0,2}?(?<=[^s\W]s))\s+"
    r"(?P<scope>(?:for|before|after|in|next to|alongside|at|on|per|under|inside)\s+"
    r"(?!the\s+\w+[\s.!]*$)[^,;]{3,80}?)[\s.!]*$",
    re.IGNORECASE,
)
_SELF = re.compile(r"\b(?:myself|by hand myself|personally)\b", re.IGNORECASE)
_NOT_A_WAY = re.compile(r"\b(?:wrong|broken|bad|by accident|by mistake)\b", re.IGNORECASE)


def stated_practice(
    clause: str, *, verbs: frozenset[str], task_words: re.Pattern[str]
) -> str | None:
    """ "we only do patch" → "only do patch": a practice the user states, or None.

    `verbs` are the verbs that start a directive; `task_words` tie a clause to the task at hand.
    """
    if _KIND_PRACTICE.match(clause) and not (
        task_words.search(clause) or _NOT_A_WAY.search(clause)
    ):
        return clause[3:].strip().rstrip(".! ")
    match = _PRACTICE.match(clause)
    if match is None or _SELF.search(clause):
        # "I never merge myself": what the user does themselves is no directive (`own_part`)
        return None
    verb = match.group("verb").lower()
    rest, why = match.group("rest"), (match.group("why") or "").strip()
    if reason := _REASON_AFTER.search(rest):
        rest, why = rest[: reason.start()], why or reason.group("why") or reason.group("as")
    obj = match.group("obj")
    if not (verb == "do" or _known_verb(verb, obj, verbs)):
        return None
    adverb = rest.split(maxsplit=1)[0].lower()
    if adverb == "only" and (verb in _PAST_AS_PRESENT or _QUANTITY.match(obj)):
        return None  # "I only read the first file", "we only run one test": what happened
    if task_words.search(rest):
        return None
    task_bound = _NOW if _REASON_LEAD.match(why) else task_words
    return f"{rest} ({why})" if why and not task_bound.search(why) else rest


def _known_verb(verb: str, obj: str, verbs: frozenset[str]) -> bool:
    """A verb of how work is done (not "we always run into timeouts", an event)."""
    if verb in _NOT_PRACTICE or re.match(r"\s*(?:into|across)\b", obj, re.IGNORECASE):
        return False
    if verb in verbs or verb in _PRACTICE_VERBS:
        return True
    base = stem(verb)  # "pins" (a slip for "pin"), never "pinned" (a past event)
    return not verb.endswith("ed") and (base in verbs or base in _PRACTICE_VERBS)
