"""The rule one clause of a user's message states, in its clean wording.

"always run the linter" → "always run the linter", "use pnpm, not npm" → "Prefers pnpm over
npm", "I like short commit messages" → "Prefers short commit messages", "keep commit messages
short" (a habit form), "did you push?" → "push before calling a task done": each form's
pattern, the cleaning of its object (cut where the sentence goes on, vague objects and idioms
refused) and the subject the instruction is keyed by. Whether a statement is a standing rule
or a tentative one, and how much it weighs, is `preferences`' to say.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_memory.extractors.habit_forms import NAMING_CONVENTION, habit_form
from squirrel_memory.extractors.habit_wordings import habit_wording
from squirrel_memory.extractors.instruction_keys import tool_words
from squirrel_memory.extractors.practices import stated_practice
from squirrel_memory.extractors.way_forms import way_statement
from squirrel_memory.extractors.wording import sentence, stem, word_set

#: The longest object a directive keeps; a longer one is cut at its last comma, or dropped.
MAX_OBJECT_CHARS = 160
#: Words that tie a directive to the task at hand: it is dropped unless phrased as a rule.
ONE_OFF = re.compile(
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
#: "I'd rather you use pnpm than npm", "I would rather have small commits", "I'd rather you
#: didn't add dependencies": a preference said as what the user would rather have.
_RATHER = re.compile(
    r"^(?:i|we)\s*(?:'d|’d|\s+would)\s+(?:much\s+|really\s+)?rather\s+(?:(?:you|we)\s+)?"
    r"(?P<neg>not\b\s*|didn'?t\s+|did not\s+)?(?:(?:use|have|go with|stick with|keep|see)\s+)?"
    r"(?P<x>.+?)(?:\s+(?:than|over|instead of|rather than)\s+(?P<y>[^,;]+))?$",
    re.IGNORECASE,
)
#: "it doesn't make sense to commit in a broken state", "there's no point in running X twice":
#: a way of working the user rules out, said as a judgement rather than a "don't".
_NO_SENSE = re.compile(
    r"^(?:(?:it|that|this)\s+)?(?:doesn'?t|does not|wouldn'?t|would not|won'?t)\s+make\s+"
    r"(?:any\s+|much\s+)?sense\s+to\s+(?P<x>.+)$"
    r"|^there'?s\s+no\s+(?:point|sense)\s+(?:in\s+)?(?P<x2>\w+ing\b.+)$",
    re.IGNORECASE,
)
#: "I did not say commit anything", "I never asked you to push": the assistant did what the
#: user did not ask for; the rule is not to do it unasked.
_NOT_ASKED = re.compile(
    r"^i\s+(?:did\s+not|didn'?t|never)\s+(?:say|said|ask(?:ed)?(?:\s+you)?|tell\s+you|"
    r"told\s+you|want(?:ed)?\s+you)\s+"
    r"(?:to\s+)?(?P<x>.+?)(?:\s+(?:anything|at all|yet))?[\s.!]*$",
    re.IGNORECASE,
)
#: "the overriding directive is to not get in the way of the user": a principle the user
#: names as the rule that decides the rest.
_PRINCIPLE = re.compile(
    r"^(?:the|our|my)\s+(?:overriding|overarching|main|golden|guiding|general|first|key|core|"
    r"number one|most important)\s+(?:rule|principle|directive|priority|goal)\s+(?:here\s+)?"
    r"(?:is|should be)\s+(?:to\s+)?(?P<neg>not\s+(?:to\s+)?)?(?P<x>.+)$",
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
#: "I hate when functions use naked returns, please don't", "I hate model callbacks, put it in
#: the service instead": a dislike the user asks the work to keep clear of (the second part
#: says so; "I hate when the build is slow" alone is a complaint).
_HATE = re.compile(
    r"^(?:i|we)\s+(?:really\s+|just\s+)?(?:hate|dislike|can'?t stand|don'?t like|do not like)\s+"
    r"(?:it\s+)?(?P<when>when\s+)?(?P<x>(?!(?:it|this|that|the|these|those|you|your)\b)[^,;]+?)"
    r"\s*[,;:.-]+\s*(?P<then>.+)$",
    re.IGNORECASE,
)
_HATE_THEN = re.compile(
    r"^(?:(?:so|and|just)\s+)?(?:please\s+)?(?:(?:don'?t|do not)(?!\s+(?:worry|bother|mind)\b)|"
    r"avoid|stop|never)\b|.*\binstead\b",
    re.IGNORECASE,
)
_INSTEAD_END = re.compile(r"\binstead\W*$", re.IGNORECASE)
#: The two sides of a liked thing: "pattern matching in function heads rather than case".
_LIKED_OVER = re.compile(
    r"^(?P<x>.+?)\s+(?:better than|rather than|instead of)\s+(?P<y>.+)$", re.IGNORECASE
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
#: Words after "always" or "never" that start a remark, not a rule ("always the same error",
#: "never been a problem"): what happens, said with the subject left out.
_REMARK = word_set(
    "the this that these those it its there here is are was were be been has have had does ",
    "did same so too very",
)
#: An object that picks one of the things on the table ("I prefer the second approach",
#: "I'd rather go with option B", "I prefer yours"): a choice for the task at hand.
_PICK = re.compile(
    r"^(?:(?:the|this|that|your|my|his|her|their)\s+(?:(?:first|second|third|fourth|last|"
    r"former|latter|other|previous|original|earlier|current|new|old)\b|(?:[\w-]+\s+)?"
    r"(?:one|option|version|variant|proposal|suggestion|approach|solution|plan|idea)s?$)|"
    r"(?:option|variant|choice|approach|plan|solution|number)\s+\w{1,3}$|"
    r"(?:yours|mine|both|neither|either|that|this|it)$|"
    # "prefer whichever is faster", "I'd prefer the shorter name": one of two on the table
    r"(?:whichever|whatever|either one|any of them)\b|"
    r"the\s+(?:shorter|longer|simpler|cleaner|faster|smaller|bigger|newer|older|clearer|safer|"
    r"easier|nicer|better)\b)",
    re.IGNORECASE,
)
_CONSISTENTLY = re.compile(r"^consistently\s+(?P<x>.+)$", re.IGNORECASE)
_ONLY = re.compile(
    r"^only\s+(?P<x>use\s+(?!(?:it|them|this|that|those|these)\b).+)$", re.IGNORECASE
)


_NEVER = re.compile(r"^never\s+(?P<x>.+)$", re.IGNORECASE)
_DONT = re.compile(r"^(?:don'?t|do not|avoid|no more)\s+(?P<x>.+)$", re.IGNORECASE)
#: "avoid adding …", "avoid global state": a rule said with "avoid" keeps it as its lead.
_AVOIDED = re.compile(r"^avoid\s", re.IGNORECASE)
_STOP = re.compile(r"^(?:stop|quit)\s+(?P<x>(?:\w+-)?\w+ing\b.*)$", re.IGNORECASE)
#: "whenever you touch the schema, add a migration": a rule with its condition first.
_CONDITION = re.compile(
    r"^(?:whenever|every ?time|each time|next time|when|before|after|if|once)\b[^,]{3,80},\s*"
    r"(?P<then>.+)$",
    re.IGNORECASE,
)
#: The rule word before the directive of a conditioned rule ("before committing, always run …").
_RULE_ADVERB = re.compile(r"^(?:always|never|also|still)\s+", re.IGNORECASE)
#: A plural noun or a verb in the third person first, then a rule or time word ("tests always
#: fail", "builds never pass"): the clause says what happens, no imperative.
_PLURAL_HEAD = re.compile(
    r"^\w+[^s\W]s\s+(?:always|never|often|sometimes|usually|still|keep|are|were|have|fail|"
    r"break|pass|run|crash|hang|time)\b",
    re.IGNORECASE,
)
#: A first word in the third person or the plural ("tests fail", "builds break"): what
#: happens under the condition, not a directive.
_INFLECTED = re.compile(r"^\w+[^s\W]s\b(?!\s+(?:and|or|then)\b)", re.IGNORECASE)
#: The end of the work as a condition ("when you finish, summarize what is left", "once
#: you're done, run the full suite"): how the user wants the work closed and reported, a rule
#: of conduct (tentative) even in a request's own message, whatever the directive's verb.
AT_THE_END = re.compile(
    r"^(?:(?:and|also|then|please)\s+)*(?:when|once|after|as soon as)\s+(?:you(?:'re|\s+are)\s+"
    r"(?:done|finished|through)|you\s+(?:finish|complete|are\s+finished)(?:\s+(?:the\s+)?"
    r"(?:work|task|tasks|changes))?|(?:the\s+)?(?:work|task)\s+is\s+(?:done|finished)),\s*"
    r"(?!(?:i|we|it|this|that|there|you|he|she|they)\b)\w+",
    re.IGNORECASE,
)
#: A condition met again and again ("every time you change the schema, regenerate the
#: client"): the directive after it is a rule whatever its verb, as after "always".
#: "when you write Bash, …", "if you add a dependency, …": each time a kind of thing is made
#: or changed (not "when you write the migration, …", one thing at hand).
MADE_CONDITION = (
    r"(?:when|if) you (?:write|add|create|touch|edit|change|update|make|open|introduce|"
    r"rename|remove|delete|bump|release|deploy)\s+(?!(?:the|this|that|these|those|it|them|my|"
    r"your|our)\b)(?=[a-z])"
)
_EVERY_TIME = re.compile(
    rf"^(?:whenever|every ?time|each time|next time|{MADE_CONDITION})\b", re.IGNORECASE
)
#: "always" or "never" and the word after it, opening a conditioned rule's directive.
_RULED = re.compile(r"^(?:always|never)\s+(?P<w>[a-z]+)\b(?!['’])", re.IGNORECASE)
#: Words that open a statement, not a directive, after "always" or "never".
_NOT_A_VERB = word_set(
    "a an the this that these those it its there here is are was were be been being has have ",
    "had do does did will would can could should may might must shall i you he she we they me ",
    "us him her them my your our their one some any all every each no not so too very more ",
    "less true false same different",
)
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
#: Fewest words of a named principle ("to ship" says nothing of how).
MIN_PRINCIPLE_WORDS = 3
#: Most words of a liked thing ("I like short commit messages"); more is a story.
MAX_LIKED_WORDS = 8
#: A name from the code (`conversationId`, `user_id`, `app/models.py`): an imperative naming
#: one is about the task at hand ("no, add conversationId field") unless stated as a rule.
_CODE_NAME = re.compile(r"\b[a-z]+[A-Z]\w*|\b\w+_\w+|\w/\w|\w\.\w{1,4}\b")
_INSTEAD = re.compile(r"\b(?:instead of|rather than)\b", re.IGNORECASE)
#: "did you push?", "you forgot to run the tests": something expected before a task is done.
#: "we" is the assistant's work too, as the user sees it, when asked: "we didn't write any
#: tests?" ("we never push to main" states a practice).
_ASKED_DONE = re.compile(
    r"^(?:did you|have you|you forgot to|you (?:always|keep|constantly) forget(?:ting)? to|"
    r"you didn'?t|you did not|you never|"
    r"(?:we didn'?t|we did not)(?=.*\?\s*$)|"
    r"why didn'?t you|why did you not)\s+(?P<x>.+?)[\s?.!]*$",
    re.IGNORECASE,
)
_WHY_DID = re.compile(r"^why (?:did|do) you\s+(?P<x>.+?)[\s?.!]*$", re.IGNORECASE)
#: "you keep adding comments", "you always create new files instead of editing": what the
#: assistant does again and again, said as a complaint (not the imperative "keep adding …").
_YOU_KEEP = re.compile(
    r"^you(?:'re|\s+are)?\s+(?:still\s+)?(?:keep|kept|always|constantly|repeatedly)\s+"
    r"(?:on\s+)?(?P<x>\w+ing\b.*)$",
    re.IGNORECASE,
)
#: Gerunds after "you keep" that carry on the work rather than repeat a habit.
_KEEP_ON = word_set("going working trying doing getting")
#: "why are you adding a trailer?": what the assistant keeps doing, asked as a correction.
_WHY_ARE = re.compile(r"^why (?:are|were) you\s+(?P<x>\w+ing\b.+?)[\s?.!]*$", re.IGNORECASE)
#: "why are we writing docs instead of using artifacts?", "why not use the helper rather than
#: a new one?": the contrast says which way the user wants, asked about the work at hand.
_WHY_INSTEAD = re.compile(
    r"^why (?:(?P<not>not)\s+(?:just\s+)?|(?:are|were|do|did|would) (?:you|we)\s+)"
    r"(?P<x>.+?),?\s+(?:instead of|rather than)\s+(?P<y>.+?)[\s?.!]*$",
    re.IGNORECASE,
)
#: A pronoun that ends a side of a contrast after "and", taking up the side's own thing
#: ("writing docs and committing them"), not one thing of the task ("changing it").
_BACK_REFERENCE = re.compile(r"(\s(?:and|then)\s+\w+)\s+(?:them|it)$", re.IGNORECASE)
#: Gerunds that only carry the means a contrast is about ("using npm instead of pnpm").
_MEANS = word_set("using running calling installing choosing picking")
#: Verbs of making or changing something, whose "why are you …ing?" objects to what is made
#: ("why are you running the tests?" may only ask).
_MAKING = word_set(
    "adding creating writing using putting including making committing pushing installing ",
    "changing deleting removing renaming moving copying generating editing",
)
#: The most words each side of a contrast asked about may have.
MAX_CONTRAST_WORDS = 8
_TRAILING_ADVERB = re.compile(r"\s+(?:yet|already|too|as well|first|again)$", re.IGNORECASE)
#: Verbs that start an instruction about how work is done.
VERBS = word_set(
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
#: Words after "don't" that start an opinion, not an instruction ("don't think so").
_NOT_DIRECTIVE = re.compile(
    r"^(?:think|know|see|understand|need|want|have|remember|get|like|care|mind|worry|"
    r"believe|recall|seem|bother|be sorry)\b",
    re.IGNORECASE,
)
#: Where a directive's object ends and the rest of the sentence begins.
_CONTINUATION = re.compile(
    r",\s+(?=(?:it|this|that|we|i|you|they|looks|seems|because|since|as|but|so|then|which|just|"
    r"otherwise|unless)\b)",
    re.IGNORECASE,
)
_IDIOM = re.compile(r"^(?:mind|ever|again|before|forget)\b", re.IGNORECASE)
_VAGUE_OBJECT = re.compile(
    r"^(?:it|that|this|them|those|these|so|one|do (?:it|that|this)|that again)\W*$", re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class Found:
    """A clause's instruction: its statement, the subject it is keyed by, and whether it is a
    choice of one tool over another."""

    content: str
    subject: str
    choice: bool = False
    #: Holds for all later work as said, without a rule word (`way_forms`).
    standing: bool = False


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
    return word if word in VERBS else stem(word) if stem(word) in VERBS else ""


def _ruled_verb(then: str) -> str:
    """The verb after "always" or "never" that opens a conditioned rule's directive ("if there
    is an error, always exit with code 1"), whatever the verb: the rule word leaves no other
    reading when a bare verb follows it. Not a word that opens a statement ("always the same",
    "never it"), nor an inflected one ("always fails", "never used"), which a subject left out
    of the sentence would take."""
    match = _RULED.match(then)
    if match is None:
        return ""
    word = match.group("w").lower()
    if word in _NOT_A_VERB or word.endswith(("ed", "ing")) or re.search(r"[^s]s$", word):
        return ""
    return word


def _base_form(gerund: str) -> str:
    """ "running the tests twice" → "run the tests twice" (the verb as a directive takes it)."""
    head, _, rest = gerund.partition(" ")
    base = stem(head.lower())
    return f"{base} {rest}".strip() if base in VERBS else gerund


def worded(text: str, subject: str, *, choice: bool = False) -> Found | None:
    """`text` as the instruction's sentence, or None when nothing of it is left."""
    content = sentence(text)
    return Found(content, subject, choice) if content else None


def _practice_statement(clause: str) -> Found | None:
    """The practice `clause` states, keyed as the same rule said as a directive would be."""
    practice = stated_practice(clause, verbs=VERBS, task_words=ONE_OFF)
    if practice is None:
        return None
    x = _clean(practice)
    subject = _clean(re.sub(r"^\w+\s+|\s*\([^)]*\)$", "", _clean(practice.split(" (")[0])))
    return worded(x, subject) if _usable(x) and _usable(subject) else None


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


def statement(clause: str, *, imperative_ok: bool, standing: bool = False) -> Found | None:
    """The instruction one clause states, or None."""
    if complaint := _YOU_KEEP.match(clause):
        # "you keep adding comments": what the assistant does again and again, never "keep …"
        x = _clean(complaint.group("x"))
        if complaint.group("x").split()[0].lower() in _KEEP_ON or not _usable(x):
            return None
        return None if ONE_OFF.search(x) else worded(f"avoid {x}", x)
    if way := way_statement(clause):
        found = worded(way.content, way.subject)
        return Found(found.content, found.subject, standing=way.standing) if found else None
    if match := _USE_INSTEAD.match(clause) or _INSTEAD_USE.match(clause):
        x, y = _clean(match.group("x")), _clean(match.group("y"))
        if _usable(x) and y:
            return worded(f"Prefers {x} over {y}", f"{x} {y}", choice=bool(tool_words(x)))
        return None
    if match := _PREFER.match(clause):
        x, y = _clean(match.group("x")), _clean(match.group("y") or "")
        if x.lower() == "not":  # "I prefer not to use mocks": a way ruled out
            ok = _usable(y) and _first_verb(y) and not ONE_OFF.search(y)
            return worded(f"don't {y}", y) if ok else None
        if not _usable(x) or ONE_OFF.match(x) or _PICK.match(x):
            return None
        text = f"Prefers {x} over {y}" if y else f"Prefers {x}"
        return worded(text, f"{x} {y}", choice=bool(tool_words(f"{x} {y}")))
    if match := _RATHER.match(clause):
        x, y = _clean(match.group("x")), _clean(match.group("y") or "")
        negative = bool(match.group("neg")) or x.lower() == "not"
        x = "" if x.lower() == "not" else x
        if not _usable(x) or ONE_OFF.match(x) or _PICK.match(x) or len(x.split()) > MAX_LIKED_WORDS:
            return None
        if negative:
            return worded(f"don't {x}", x) if _first_verb(x) else None
        text = f"Prefers {x} over {y}" if y else f"Prefers {x}"
        return worded(text, f"{x} {y}", choice=bool(y) and bool(tool_words(f"{x} {y}")))
    if match := _NO_SENSE.match(clause):
        x = _clean(match.group("x") or _base_form(match.group("x2")))
        return worded(f"don't {x}", x) if _usable(x) and _first_verb(x) else None
    if match := _NOT_ASKED.match(clause):
        x = _clean(match.group("x"))
        if not _usable(x) or not _first_verb(x) or len(x.split()) > MAX_LIKED_WORDS:
            return None
        return worded(f"don't {x} unless the user asks for it", x)
    if match := _PRINCIPLE.match(clause):
        x = _clean(match.group("x"))
        if not _usable(x) or len(x.split()) < MIN_PRINCIPLE_WORDS:
            return None
        return worded(f"don't {x}" if match.group("neg") else x, x)
    if (match := _HATE.match(clause)) and _HATE_THEN.match(match.group("then")):
        # "I hate when functions use naked returns, please don't": a thing to avoid
        x = _clean(match.group("x"))
        if not _usable(x) or ONE_OFF.search(x) or len(x.split()) > MAX_LIKED_WORDS:
            return None
        said = f"Dislikes it when {x}" if match.group("when") else f"Dislikes {x}"
        instead = match.group("then") if _INSTEAD_END.search(match.group("then")) else ""
        return worded(f"{said}; {_clean(instead)}" if instead else said, x)
    if match := _LIKE.match(clause):
        x = _clean(match.group("x"))
        if (sides := _LIKED_OVER.match(x)) and not any(
            ONE_OFF.search(side) or len(side.split()) > MAX_LIKED_WORDS for side in sides.groups()
        ):
            # "I like AssertJ assertions better than the JUnit ones": one thing over another
            x, y = (_clean(side) for side in sides.groups())
            both = f"{x} {y}"
            return worded(f"Prefers {x} over {y}", both, choice=bool(tool_words(both)))
        if not _usable(x) or ONE_OFF.search(x) or len(x.split()) > MAX_LIKED_WORDS:
            return None
        return worded(f"Prefers {x}", x, choice=bool(tool_words(x)))
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
            if lead in ("always", "never") and (
                x.split()[0].lower() in _REMARK or _third_person(x.split()[0].lower())
            ):
                # "always the same error", "always fails on Mondays": a remark on what happens
                return None
            # "avoid adding new files" is no "don't adding new files".
            said = "avoid" if lead == "don't" and _AVOIDED.match(body) else lead
            return worded(f"{said} {x}", x)
    if match := _IMPORTANT.match(body):
        x = _clean(match.group("x"))
        if not _usable(x) or not _first_verb(x):
            return None
        return worded(f"don't {x}" if match.group("neg") else x, x)
    if (match := _REQUIREMENT.match(body)) and _usable(match.group("x")):
        if ONE_OFF.match(match.group("x")) or match.group("x").lower() in ("that", "this"):
            return None
        return worded(match.group(0), match.group(0))
    if match := _STOP.match(body):
        x = _clean(match.group("x"))
        return worded(f"avoid {x}", x) if _usable(x) else None
    if (
        imperative_ok
        and (match := _CONDITION.match(body))
        and not _INFLECTED.match(_RULE_ADVERB.sub("", match.group("then")))
        and (
            _first_verb(_RULE_ADVERB.sub("", match.group("then")))
            or _ruled_verb(match.group("then"))
            or (
                (_EVERY_TIME.match(body) or AT_THE_END.match(body))
                and _ruled_verb(f"always {match.group('then')}")
            )
        )
    ):
        x = _clean(body) if len(body) <= MAX_OBJECT_CHARS else ""
        return worded(x, x) if x else None
    verb = _first_verb(body)
    if verb and _PLURAL_HEAD.match(body) and body.split()[0].lower() not in VERBS:
        verb = ""  # "tests always fail on Mondays": a plural noun says what happens
    if verb and (imperative_ok or _INSTEAD.search(body)):
        x = _clean(body)
        if not _usable(x) or len(x.split()) < 2 or (not standing and _CODE_NAME.search(x)):
            return None
        return worded(x, x, choice=verb == "use" and bool(tool_words(x)))
    return None


#: Verbs of what happens, said of a thing ("always fails", "never happens").
_HAPPENING = word_set(
    "happen fail break crash hang work pass return throw time seem look get show drop lose ",
    "take flake die error occur appear end",
)


def _third_person(word: str) -> bool:
    """ "fails", "happens", "crashes", "tries": a verb said of a thing, never an imperative
    ("pass", "focus", "address" end in s as they are)."""
    if not word.endswith("s") or word.endswith(("ss", "us", "is")):
        return False
    bases = {word[:-1], word[:-2] if word.endswith("es") else "", word[:-3] + "y"}
    return any(b and (b in _HAPPENING or b in VERBS) for b in bases)


def habit_statement(clause: str) -> Found | None:
    """A rule in a form only a rule takes (`habit_forms`), never about "it", "this …" or a name
    from the code."""
    clause = clause.rstrip(" ;")  # "Every PHP file starts with declare(strict_types=1);"
    if ONE_OFF.search(clause) or len(clause) > MAX_OBJECT_CHARS:
        return None
    # A naming convention's own name (`snake_case`, `camelCase`) is no name from the code; the
    # everyday wordings of a habit may name one, being about every thing of a kind.
    named = NAMING_CONVENTION.sub("", clause)
    form = None if _CODE_NAME.search(named) else habit_form(clause)
    if form is not None and form.first_step is not None and not _first_verb(form.first_step):
        form = None  # "the rule here is tests first, then …": no step of work first
    form = form or habit_wording(clause)
    if form is None or (form.first_step is not None and not _first_verb(form.first_step)):
        return None
    return worded(form.content, form.subject)


def _contrast(match: re.Match[str]) -> Found | None:
    """ "why are we writing docs instead of using artifacts?" → "Prefers using artifacts over
    writing docs."; "why not use the helper instead of a new one?" → "Use the helper instead of
    a new one."; None when a side is one thing of the task ("it", "this") or too long."""
    x, y = _clean(match.group("x")), _clean(match.group("y"))
    sides = (x, y)
    # "writing docs and committing them": the pronoun takes up the side's own thing
    own = [_BACK_REFERENCE.sub(r"\1", side) for side in sides]
    if not all(_usable(side) for side in sides) or any(
        ONE_OFF.search(side) or len(side.split()) > MAX_CONTRAST_WORDS for side in own
    ):
        return None
    if match.group("not"):
        return worded(f"{x} instead of {y}", f"{x} {y}") if _first_verb(x) else None
    if x.split()[0].lower() not in _MAKING | _MEANS:
        return None  # "why did you use X instead of Y", "why are you reading X": other forms
    if x.split()[0].lower() in _MEANS and len(x.split()) > 1:
        # "using npm instead of using pnpm", "using npm instead of pnpm" → npm, pnpm
        x = x.split(maxsplit=1)[1]
        y = y.split(maxsplit=1)[1] if y.split()[0].lower() in _MEANS and len(y.split()) > 1 else y
    subject = " ".join(_BACK_REFERENCE.sub(r"\1", side) for side in (x, y))
    return worded(f"Prefers {y} over {x}", subject, choice=bool(tool_words(subject)))


def asked_statement(clause: str) -> Found | None:
    """A correction phrased as a question: "did you push?" → "Push before calling a task done."."""
    if match := _ASKED_DONE.match(clause):
        x = _TRAILING_ADVERB.sub("", _clean(match.group("x")))
        head, _, rest = x.partition(" ")
        verb = stem(head.lower()) if stem(head.lower()) in _ROUTINE else head.lower()
        if verb not in _ROUTINE or len(x.split()) > 6 or re.search(r"\b(?:i|me|my)\b", x, re.I):
            return None
        return worded(f"{verb} {rest}".strip() + " before calling a task done", x)
    if (match := _WHY_INSTEAD.match(clause)) and (contrast := _contrast(match)):
        return contrast
    if match := _WHY_ARE.match(clause):
        said = _TRAILING_ADVERB.sub("", _clean(match.group("x")))
        x = _base_form(said)
        if (
            said.split()[0].lower() not in _MAKING
            or not _first_verb(x)
            or not _usable(x)
            or len(x.split()) > MAX_CONTRAST_WORDS
            or ONE_OFF.search(x)
        ):
            return None
        return worded(f"don't {x}", x)
    if match := _WHY_DID.match(clause):
        x = _TRAILING_ADVERB.sub("", _clean(match.group("x")))
        if not _first_verb(x) or not _usable(x) or len(x.split()) > 8:
            return None
        return worded(f"don't {x}", x)
    return None
