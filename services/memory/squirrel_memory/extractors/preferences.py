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
Directives about the task at hand ("don't push yet", "don't change this file") are dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_memory.extractors.clauses import clauses
from squirrel_memory.extractors.habit_forms import habit_form
from squirrel_memory.extractors.instruction_keys import instruction_key, tool_words, topic
from squirrel_memory.extractors.instruction_scope import instruction_scope
from squirrel_memory.extractors.practices import stated_practice
from squirrel_memory.extractors.wording import sentence, stem, strip_markdown, word_set
from squirrel_memory.extractors.written_requests import without_written_warnings
from squirrel_memory.models import Scope

MAX_OBJECT_CHARS = 160
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


_CORRECTION_LEAD = re.compile(
    r"^(?:no|nope|nah|wrong|not like that|that's not (?:it|right|what i (?:asked|meant)))\b"
    r"[\s,.!:;—–-]*",
    re.IGNORECASE,
)
#: Words that make a clause a general rule rather than a request about the task at hand.
_STANDING = re.compile(
    r"\b(?:always|never|from now on|going forward|from here on|in (?:the )?future|next time|"
    r"every ?time|each time|whenever|by default|as a (?:general )?rule|in general|"
    r"(?:in|for|across) (?:this|the|our) (?:repo|repository|project|codebase)|"
    r"in (?:all|every) (?:repo|repositorie|project)s?|prefers?|preferably|everywhere|"
    r"for everything|at all times|all the time|for all (?:\w+ )?(?:projects|repos|code|files)|"
    r"exclusively|only use|consistently|throughout the (?:code|codebase|project)|"
    r"(?:for|before|after|on|with) (?:every|each) (?:commit|change|pr|"
    r"pull request|push|release|task|merge)s?)\b",
    re.IGNORECASE,
)
#: A marker that makes every directive of its message a standing one ("From now on: …").
_MESSAGE_STANDING = re.compile(
    r"(?:^|[\n.!:]\s*)(?:from now on|going forward|from here on|in (?:the )?future|"
    r"as a (?:general )?rule|general rules?|ground rules?|house rules?)\b",
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
    r"until i (?:approve|say so|confirm|agree|review))\b",
    re.IGNORECASE,
)
#: "no file changes without approval": a thing the work must not do without the user's yes.
_NO_GATE = re.compile(
    r"^no (?P<x>[\w`'./-]+(?:\s[\w`'./-]+){0,4}?)\s+(?P<gate>(?:without|unless|until)\s.{3,80}?)"
    r"[\s.!]*$",
    re.IGNORECASE,
)
#: The user saying they gave the instruction before: "as I said", "I already told you", "how
#: many times". ("again" alone is not one: "run the tests again" asks for a re-run; nor is "I
#: just asked you to …", a request of the moment.)
_SAID_BEFORE = re.compile(
    r"\b(?:(?:as|like) i (?:said|mentioned|told you)(?: before| earlier)?|i (?:already )?told "
    r"you(?: before| already)|i already (?:said|told you|mentioned)|i(?:'ve| have) (?:already )?"
    r"(?:said|told you)|i keep (?:telling|saying|asking)|how many times|for the (?:second|third|"
    r"hundredth|nth) time)\b",
    re.IGNORECASE,
)
#: Emphasis: a directive word in capitals, doubled punctuation, a weight word.
_EMPHASIS = re.compile(
    r"\b(?:ALWAYS|NEVER|DON'?T|DO NOT|NOT|MUST|STOP|NO|ONLY|EVERY|ALL)\b|!!|\b(?i:really|"
    r"seriously|absolutely|important|crucial|critical|make sure|under no circumstances|"
    r"(?:just )?to be (?:clear|explicit|precise)|to clarify|for clarity|"
    r"(?:please )?remember(?: that| to)?|don'?t forget|keep in mind)\b"
)
#: Words that tie a directive to the task at hand: it is dropped unless phrased as a rule.
_ONE_OFF = re.compile(
    r"\b(?:yet|for now|right now|this time|today|at the moment|just now|above|below|"
    r"these|those|it|them|this (?!(?:repo|repository|project|codebase)\b)\w+|(?:for|with|in) this$|"
    r"that (?:file|function|test|change|one|part|section|method|class))\b",
    re.IGNORECASE,
)
_USE_INSTEAD = re.compile(
    r"^(?:use|pick|choose|go with)\s+(?P<x>[^,;]+?),?\s+(?:instead of|rather than|over|not)\s+"
    r"(?P<y>[^,;]+)$",
    re.IGNORECASE,
)
_INSTEAD_USE = re.compile(r"^instead of\s+(?P<y>[^,;]+?),?\s+use\s+(?P<x>[^,;]+)$", re.IGNORECASE)
_PREFER = re.compile(
    r"^(?:i|we)?\s*(?:would\s+|really\s+|generally\s+|always\s+)*(?:prefers?|'d prefer)\s+"
    r"(?P<x>.+?)(?:\s+(?:over|to|rather than|instead of)\s+(?P<y>[^,;]+))?$",
    re.IGNORECASE,
)
#: "I like short commit messages": a liking for a kind of thing (not "I like it", "I like the
#: new layout", "I like how …", which praise the work at hand).
_LIKE = re.compile(
    r"^(?:i|we)\s+(?:really\s+|generally\s+|always\s+)*(?:like|love)\s+"
    r"(?P<x>(?!(?:it|this|that|the|these|those|your|how|what|when|where|to see|you|him|her|"
    r"them|a lot|much)\b).+)$",
    re.IGNORECASE,
)
_SUBJECT = re.compile(
    r"^(?:you|we|i)\s+(?:(?P<modal>should|must|need to|have to|are to|will)\s+)?(?P<rest>.+)$",
    re.IGNORECASE | re.DOTALL,
)
#: A modal's perfect ("should never have pushed", "must have run"): about a past act, no rule.
_PERFECT = re.compile(
    r"^(?:(?:always|never|not)\s+)?have\s+(?:been|done|made|run|written|gone|left|put|sent|"
    r"built|set|told|said|got|taken|seen|\w+ed|\w+en)\b",
    re.IGNORECASE,
)
_ALWAYS = re.compile(r"^always\s+(?P<x>.+)$", re.IGNORECASE)
_CONSISTENTLY = re.compile(r"^consistently\s+(?P<x>.+)$", re.IGNORECASE)
_ONLY = re.compile(
    r"^only\s+(?P<x>use\s+(?!(?:it|them|this|that|those|these)\b).+)$", re.IGNORECASE
)


_NEVER = re.compile(r"^never\s+(?P<x>.+)$", re.IGNORECASE)
_DONT = re.compile(r"^(?:don'?t|do not|avoid|no more)\s+(?P<x>.+)$", re.IGNORECASE)
_STOP = re.compile(r"^stop\s+(?P<x>\w+ing\b.*)$", re.IGNORECASE)
#: "whenever you touch the schema, add a migration": a rule with its condition first.
_CONDITION = re.compile(
    r"^(?:whenever|every ?time|each time|when|before|after|if|once)\b[^,]{3,80},\s*(?P<then>.+)$",
    re.IGNORECASE,
)
#: The rule word before the directive of a conditioned rule ("before committing, always run …").
_RULE_ADVERB = re.compile(r"^(?:always|never|also|still)\s+", re.IGNORECASE)
#: "important not to commit until the final step": a directive behind a weight word.
_IMPORTANT = re.compile(
    r"^(?:it'?s\s+|it is\s+)?(?:very\s+|really\s+|super\s+)?"
    r"(?:important|crucial|essential|critical|vital)\s+(?P<neg>not\s+)?to\s+(?P<x>.+)$",
    re.IGNORECASE,
)
#: "TODO is not acceptable", "X must not be agent specific", "performance is crucial": a
#: requirement on a thing or a value the work must keep.
_REQUIREMENT = re.compile(
    r"^(?P<x>[\w`'\"./-]+(?:\s[\w`'\"./-]+){0,5})\s+(?:(?:is|are)\s+(?:not acceptable|"
    r"unacceptable|not allowed|forbidden|crucial|essential|vital|mandatory|a must|"
    r"non-negotiable|(?:a |the )?top priority)|must\s+(?:not|never)\s+[^,;]+?)"
    r"(?=\s*(?:[,;.]|\band\b|$))",
    re.IGNORECASE,
)
#: Most words of a liked thing ("I like short commit messages"); more is a story.
MAX_LIKED_WORDS = 8
#: A name from the code (`conversationId`, `user_id`, `app/models.py`): an imperative naming
#: one is about the task at hand ("no, add conversationId field") unless stated as a rule.
_CODE_NAME = re.compile(r"\b[a-z]+[A-Z]\w*|\b\w+_\w+|\w/\w|\w\.\w{1,4}\b")
_INSTEAD = re.compile(r"\b(?:instead of|rather than)\b", re.IGNORECASE)
#: "did you push?", "you forgot to run the tests": something expected before a task is done.
_ASKED_DONE = re.compile(
    r"^(?:did you|have you|you forgot to|you didn'?t|you did not|you never|"
    r"why didn'?t you|why did you not)\s+(?P<x>.+?)[\s?.!]*$",
    re.IGNORECASE,
)
_WHY_DID = re.compile(r"^why (?:did|do) you\s+(?P<x>.+?)[\s?.!]*$", re.IGNORECASE)
_TRAILING_ADVERB = re.compile(r"\s+(?:yet|already|too|as well|first|again)$", re.IGNORECASE)
#: Verbs that start an instruction about how work is done.
_VERBS = word_set(
    "add answer ask avoid be build bump call check clean close commit continue create delete ",
    "deploy document double-check edit ensure explain finish fix follow format go include keep ",
    "leave let lint log make mention merge move name open prefer push put raise read rebase ",
    "release remove rename reply respond return review run say sign skip split squash start ",
    "stick summarize summarise tag tell test type-check update use verify wait write",
)
#: Verbs whose "did you …?" asks after routine work the user expects without asking.
_ROUTINE = word_set(
    "add build bump check commit deploy document fix format lint merge open push rebase ",
    "release run sign squash tag test type-check update verify write",
)
#: Verbs of how work is carried out (not what to build), for corrections without "no".
_PROCESS = word_set(
    "keep continue push commit finish stop wait ask check verify test run lint format rebase ",
    "squash document update",
)
_CONDITIONED = re.compile(
    r"\b(?:until|before|after|when|whenever|once|every|all|each|unless)\b", re.IGNORECASE
)
_SCOPE_PHRASE = re.compile(
    r"^(?:(?:in|for|across) (?:this|the|our) (?:repo|repository|project|codebase)|here)\b,?\s*",
    re.IGNORECASE,
)
#: Words after "don't" that start an opinion, not an instruction ("don't think so").
_NOT_DIRECTIVE = re.compile(
    r"^(?:think|know|see|understand|need|want|have|remember|get|like|care|mind|worry|"
    r"believe|recall|seem|bother|be sorry)\b",
    re.IGNORECASE,
)
#: Where a directive's object ends and the rest of the sentence begins.
_CONTINUATION = re.compile(
    r",\s+(?=(?:it|this|that|we|i|you|they|looks|seems|because|since|as|but|so|then|which|"
    r"otherwise|unless)\b)",
    re.IGNORECASE,
)
_IDIOM = re.compile(r"^(?:mind|ever|again|before|forget)\b", re.IGNORECASE)
_VAGUE_OBJECT = re.compile(
    r"^(?:it|that|this|them|those|these|so|one|do (?:it|that|this)|that again)\W*$", re.IGNORECASE
)


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


@dataclass(frozen=True, slots=True)
class _Found:
    content: str
    subject: str
    choice: bool = False


def _clean(fragment: str) -> str:
    text = _CONTINUATION.split(" ".join(fragment.split()), maxsplit=1)[0]
    text = text.strip(" .!,;:")
    if len(text) > MAX_OBJECT_CHARS:
        cut = text[:MAX_OBJECT_CHARS]
        text = cut[: cut.rfind(",")] if "," in cut else ""
    return text.strip(" ,")


def _usable(obj: str) -> bool:
    return bool(obj) and not _VAGUE_OBJECT.match(obj) and not _IDIOM.match(obj)


def _first_verb(text: str) -> str:
    word = text.split(maxsplit=1)[0].lower().strip(",.:") if text.split() else ""
    return word if word in _VERBS else stem(word) if stem(word) in _VERBS else ""


def _make(text: str, subject: str, *, choice: bool = False) -> _Found | None:
    content = sentence(text)
    return _Found(content, subject, choice) if content else None


def _practice_statement(clause: str) -> _Found | None:
    """The practice `clause` states, keyed as the same rule said as a directive would be."""
    practice = stated_practice(clause, verbs=_VERBS, task_words=_ONE_OFF)
    if practice is None:
        return None
    x = _clean(practice)
    subject = _clean(re.sub(r"^\w+\s+|\s*\([^)]*\)$", "", _clean(practice.split(" (")[0])))
    return _make(x, subject) if _usable(x) and _usable(subject) else None


def _without_subject(clause: str, *, standing: bool) -> str:
    """ "we should always X" → "always X"; "we don't control X" (a fact) stays as it is."""
    match = _SUBJECT.match(clause)
    if match is None:
        return clause
    rest = match.group("rest")
    if match.group("modal") and _PERFECT.match(rest):
        return clause  # "you should never have pushed that": a reproach about a past act
    if match.group("modal"):
        return rest
    if re.match(r"(?:always|never)\b", rest, re.IGNORECASE):
        # "we always got this error": a past event (a practice was taken by `stated_practice`)
        return clause if re.match(r"(?:we|i)\b", clause, re.IGNORECASE) else rest
    return rest if standing and _first_verb(rest) else clause


def _statement(clause: str, *, imperative_ok: bool, standing: bool = False) -> _Found | None:
    """The instruction one clause states, or None."""
    if match := _USE_INSTEAD.match(clause) or _INSTEAD_USE.match(clause):
        x, y = _clean(match.group("x")), _clean(match.group("y"))
        if _usable(x) and y:
            return _make(f"Prefers {x} over {y}", f"{x} {y}", choice=bool(tool_words(x)))
        return None
    if match := _PREFER.match(clause):
        x, y = _clean(match.group("x")), _clean(match.group("y") or "")
        if not _usable(x) or _ONE_OFF.match(x):
            return None
        text = f"Prefers {x} over {y}" if y else f"Prefers {x}"
        return _make(text, f"{x} {y}", choice=bool(tool_words(f"{x} {y}")))
    if match := _LIKE.match(clause):
        x = _clean(match.group("x"))
        if not _usable(x) or _ONE_OFF.search(x) or len(x.split()) > MAX_LIKED_WORDS:
            return None
        return _make(f"Prefers {x}", x, choice=bool(tool_words(x)))
    if practice := _practice_statement(clause):
        return practice
    body = _without_subject(clause, standing=imperative_ok)
    for pattern, lead in (
        (_ALWAYS, "always"),
        (_CONSISTENTLY, "consistently"),
        (_ONLY, "only"),
        (_NEVER, "never"),
        (_DONT, "don't"),
    ):
        if match := pattern.match(body):
            x = _clean(match.group("x"))
            if not _usable(x) or (lead == "don't" and _NOT_DIRECTIVE.match(x)):
                return None
            return _make(f"{lead} {x}", x)
    if match := _IMPORTANT.match(body):
        x = _clean(match.group("x"))
        if not _usable(x) or not _first_verb(x):
            return None
        return _make(f"don't {x}" if match.group("neg") else x, x)
    if (match := _REQUIREMENT.match(body)) and _usable(match.group("x")):
        if _ONE_OFF.match(match.group("x")) or match.group("x").lower() in ("that", "this"):
            return None
        return _make(match.group(0), match.group(0))
    if match := _STOP.match(body):
        x = _clean(match.group("x"))
        return _make(f"avoid {x}", x) if _usable(x) else None
    if (
        imperative_ok
        and (match := _CONDITION.match(body))
        and _first_verb(_RULE_ADVERB.sub("", match.group("then")))
    ):
        x = _clean(body) if len(body) <= MAX_OBJECT_CHARS else ""
        return _make(x, x) if x else None
    verb = _first_verb(body)
    if verb and (imperative_ok or _INSTEAD.search(body)):
        x = _clean(body)
        if not _usable(x) or len(x.split()) < 2 or (not standing and _CODE_NAME.search(x)):
            return None
        return _make(x, x, choice=verb == "use" and bool(tool_words(x)))
    return None


def _habit_form(clause: str) -> _Found | None:
    """A rule in a form only a rule takes (`habit_forms`), never about "it", "this …" or a name
    from the code."""
    if _ONE_OFF.search(clause) or _CODE_NAME.search(clause) or len(clause) > MAX_OBJECT_CHARS:
        return None
    form = habit_form(clause)
    if form is None or (form.first_step is not None and not _first_verb(form.first_step)):
        return None
    return _make(form.content, form.subject)


def _asked(clause: str) -> _Found | None:
    """A correction phrased as a question: "did you push?" → "Push before calling a task done."."""
    if match := _ASKED_DONE.match(clause):
        x = _TRAILING_ADVERB.sub("", _clean(match.group("x")))
        head, _, rest = x.partition(" ")
        verb = stem(head.lower()) if stem(head.lower()) in _ROUTINE else head.lower()
        if verb not in _ROUTINE or len(x.split()) > 6 or re.search(r"\b(?:i|me|my)\b", x, re.I):
            return None
        return _make(f"{verb} {rest}".strip() + " before calling a task done", x)
    if match := _WHY_DID.match(clause):
        x = _TRAILING_ADVERB.sub("", _clean(match.group("x")))
        if not _first_verb(x) or not _usable(x) or len(x.split()) > 8:
            return None
        return _make(f"don't {x}", x)
    return None


def _is_process_rule(clause: str) -> bool:
    """ "keep going until every task is done", "push when you are done": how to work, said
    right after the assistant acted, with the condition that makes it a rule of conduct."""
    words = clause.split(maxsplit=1)
    if not words:  # nothing left after a place word ("here", "in this repo")
        return False
    verb = stem(words[0].lower())
    return (verb in _PROCESS or words[0].lower() in _PROCESS) and bool(_CONDITIONED.search(clause))


def stated_preferences(text: str, *, after_assistant_action: bool) -> list[StatedPreference]:
    """Instructions the user gave in `text`, standing or tentative.

    `after_assistant_action` says the message answers something the assistant just did:
    only then can "no, …" or "did you …?" be a correction.
    """
    message = without_written_warnings(text.strip())
    correction = bool(after_assistant_action and _CORRECTION_LEAD.match(message))
    if correction:
        message = _CORRECTION_LEAD.sub("", message, count=1)
    message_standing = bool(_MESSAGE_STANDING.search(strip_markdown(message)))
    said_before = bool(_SAID_BEFORE.search(message))
    found: list[StatedPreference] = []
    for written, clause in clauses(message):
        scope_phrase = _SCOPE_PHRASE.match(clause)
        body = clause[scope_phrase.end() :] if scope_phrase else clause
        standing = (
            message_standing
            or bool(_STANDING.search(written))
            or stated_practice(body, verbs=_VERBS, task_words=_ONE_OFF) is not None
        )
        result = _asked(body) if after_assistant_action else None
        if result is None and (match := _NO_GATE.match(body)):
            result = _make(f"no {match.group('x')} {match.group('gate')}", body)
        asked = process = result is not None
        if result is None and not clause.endswith("?"):
            result = _habit_form(body)
            standing = standing or result is not None
            asked = process = False
        if result is None and not clause.endswith("?"):
            process = after_assistant_action and _is_process_rule(body)
            result = _statement(
                body,
                imperative_ok=standing
                or correction
                or process
                or said_before
                or bool(_INSIST.match(written) and _CONDITIONED.search(body)),
                standing=standing,
            )
        if result is None:
            continue
        if scope_phrase and result.content and not result.content.startswith("Prefers"):
            where = scope_phrase.group(0).strip(" ,").lower()
            result = _Found(result.content.rstrip(".") + f" {where}.", result.subject)
        standing = standing and not asked
        gated = bool(_GATE.search(body))
        if not standing and not result.choice and not gated and _ONE_OFF.search(result.subject):
            continue
        found.append(
            _preference(
                result,
                clause,
                standing or result.choice,
                correction or process or gated,
                emphasis=bool(_EMPHASIS.search(written)),
                said_before=said_before,
            )
        )
    return found


def _preference(
    found: _Found,
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
