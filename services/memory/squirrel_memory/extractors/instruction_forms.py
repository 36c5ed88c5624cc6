"""The rule one clause of a user's message states, in its clean wording.

"always run the linter" → "always run the linter", "use pnpm, not npm" → "Prefers pnpm over
npm", "don't add comments", "keep commit messages short" (a habit form): each form's pattern
and the subject the instruction is keyed by. The user's likings ("I prefer …", "I hate when
…") are `liking_forms`', corrections asked as questions ("did you push?") `asked_forms`', the
cleaning of an object `instruction_parts`'. Whether a statement is a standing rule or a
tentative one is `preferences`' to say, and how much it weighs `firmness`'.
"""

from __future__ import annotations

import re
from dataclasses import replace

from squirrel_memory.extractors.habit_forms import (
    NAMING_CONVENTION,
    habit_form,
    reply_length_form,
)
from squirrel_memory.extractors.habit_wordings import habit_wording
from squirrel_memory.extractors.impersonal_habits import impersonal_form
from squirrel_memory.extractors.instruction_keys import tool_words
from squirrel_memory.extractors.instruction_parts import (
    MAX_OBJECT_CHARS,
    ONE_OFF,
    VERBS,
    Found,
    clean,
    first_verb,
    usable,
    worded,
)
from squirrel_memory.extractors.liking_forms import liking_statement
from squirrel_memory.extractors.own_part import left_to_user
from squirrel_memory.extractors.practices import stated_practice
from squirrel_memory.extractors.way_forms import way_statement
from squirrel_memory.extractors.wording import word_set

_USE_INSTEAD = re.compile(
    r"^(?:use|pick|choose|go with)\s+(?P<x>[^,;]+?),?\s+(?:instead of|rather than|over|not)\s+"
    # "use pnpm, not npm, for the frontend assets": what the choice is made for, after it
    r"(?P<y>[^,;]+?)(?:,\s*(?P<for>(?:for|in|with|when)\s+[^,;]+))?$",
    re.IGNORECASE,
)
#: "use Tailwind classes only, no custom CSS": one kind of thing and nothing else, said of a
#: kind named bare (not "use the staging db only", one thing of the task).
_USE_ONLY = re.compile(
    r"^use\s+(?P<x>(?!(?:the|this|that|these|those|it|them|my|your|a|an)\b)[^,;]+?)\s+only"
    r"(?:,\s*(?P<y>no\s+[^,;]+))?$",
    re.IGNORECASE,
)
#: "only touch the lines you change", "only format the files you edit": the change kept to
#: what the work needs, every time (the relative clause is any change, not one of the task).
_ONLY_WHAT_CHANGES = re.compile(
    r"^only\s+(?P<x>(?:touch|change|edit|modify|format|reformat|lint|stage|commit)\s+(?:the\s+)?"
    r"(?:lines?|files?|code|parts?|functions?|hunks?|methods?)\s+(?:that\s+)?(?:you|we)\s+"
    r"(?:actually\s+)?(?:change|touch|edit|modify|work\s+on|need\s+to\s+change)[sd]?)\b[\s.!]*$",
    re.IGNORECASE,
)
#: "no `IO.inspect` left in the code when you hand it back", "no debug prints left behind":
#: a kind of leftover ruled out of every piece of work handed back.
_NO_LEFTOVER = re.compile(
    r"^no\s+(?P<x>(?!(?:need|problem|one|way)\b)[^,;]{2,40}?)\s+left\s+"
    r"(?P<where>(?:behind|over|anywhere|in\s+(?:the\s+)?(?:code|codebase|repo|diff|commits?|"
    r"source|files?|prs?|pull\s+requests?))\b[^,;]{0,60}?)[\s.!]*$",
    re.IGNORECASE,
)
_INSTEAD_USE = re.compile(r"^instead of\s+(?P<y>[^,;]+?),?\s+use\s+(?P<x>[^,;]+)$", re.IGNORECASE)
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
_CONSISTENTLY = re.compile(r"^consistently\s+(?P<x>.+)$", re.IGNORECASE)
_ONLY = re.compile(
    r"^only\s+(?P<x>use\s+(?!(?:it|them|this|that|those|these)\b).+)$", re.IGNORECASE
)


_NEVER = re.compile(r"^never\s+(?P<x>.+)$", re.IGNORECASE)
_DONT = re.compile(r"^(?:don'?t|do not|avoid|no more)\s+(?P<x>.+)$", re.IGNORECASE)
#: "avoid adding …", "avoid global state": a rule said with "avoid" keeps it as its lead.
_AVOIDED = re.compile(r"^avoid\s", re.IGNORECASE)
#: The work products a habit is kept in, every one of them ("to your replies", "in all commit
#: messages"): a "stop …ing" about them holds for all later work.
_EVERY_PRODUCT = re.compile(
    r"\b(?:to|in|into|on|from)\s+(?:all\s+)?(?:your|all|every|any)\s+(?:replies|answers|responses|"
    r"messages|commits|commit messages|prs|pull requests|comments|docstrings)\b",
    re.IGNORECASE,
)
_STOP = re.compile(r"^(?:stop|quit)\s+(?P<x>(?:\w+-)?\w+ing\b.*)$", re.IGNORECASE)
#: A verb and a kind of thing named bare, in the plural ("leave commented-out blocks behind",
#: "reformatting unrelated files", "adding emojis to log messages"): what a prohibition rules
#: out is every such thing, not one of the task's ("the version", "more tests", "it").
#: "… to the parser", "… in the README": the one thing of the task a kind of thing goes in.
_ONE_PLACE = re.compile(
    r"\b(?:to|in|into|from|on|under)\s+(?:the|this|that|my|our)\s+(?:[a-z][\w-]*\s+)?"
    r"[a-z][\w.-]*(?<![^s\W]s)(?![\w.-]|\s+[a-z][\w-]*[^s\W]s\b)",
    re.IGNORECASE,
)
_KIND_OBJECT = re.compile(
    r"^[a-z][\w-]*\s+(?!(?:the|this|that|these|those|it|them|my|your|our|his|her|their|a|an|"
    r"one|more|any|some|all|every|each|other|another|further|extra|separate|additional|"
    r"duplicate|out|up|down|off|back|"
    r"away|on|in|to|at|for|with|from|me|us|him)\b)(?:"
    # a kind with a word that picks it out: "unrelated files", "commented out code"
    r"(?:(?!(?:the|a|an|this|that|in|on|to|of|for|with|from|at|by|into|my|your|our|its|any|"
    r"anything|everything|something|nothing)\b)[a-z][\w-]*\s+){1,3}?(?:[a-z][\w-]*[^s\W'’]s|"
    r"code)\b"
    # a kind and the kind it goes in: "docstrings to private helpers", "emojis to the log
    # messages" (not "print statements to the parser", one thing of the task)
    r"|[a-z][\w-]*[^s\W'’]s\s+(?:(?:to|in|on|into|from|under)\s+(?:the\s+)?"
    r"(?:[a-z][\w-]*\s+){0,2}?[a-z][\w-]*[^s\W'’]s\b|(?:that|which|i|you)\s+\S))",
    re.IGNORECASE,
)
#: "whenever you touch the schema, add a migration": a rule with its condition first.
_CONDITION = re.compile(
    r"^(?:(?:whenever|every ?time|each time|any ?time|next time|when|before|after|if|once)\b"
    r"[^,]{3,80}|"
    # "in code reviews, be blunt", "during code review, mark each comment": each review
    r"(?:in|during|for)\s+(?:(?:all|any|every|each|your|our|a)\s+)?"
    r"(?:(?:code|pr|pull request)\s+)?reviews?\b[^,]{0,40}),\s*"
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
    r"your|our|one)\b)(?=[a-z])"
)
#: A condition over the user's later requests: "when I give you a list of tasks, …", "if I
#: send you a stack trace, …", "when I paste an error, …": each such request, not one of them
#: ("when I give you the go-ahead", "if I send you the logs", "when I give you a thumbs up" are
#: one moment of the task).
ASKED_CONDITION = (
    r"(?:when|if)\s+i\s+(?:give|send|hand|assign|paste|share|drop|throw|post)\s+(?:you\s+)?"
    r"(?!(?:a|an)\s+(?:go-?ahead|ok|okay|green light|signal|thumbs[- ]?up|nod|sign|word|"
    r"heads[- ]?up|call|ping|shout)\b)"
    r"(?:(?:a|an|several|multiple|more than one|a few|some|two or more)\s+[a-z][\w-]*|"
    r"(?!(?:the|this|that|these|those|it|them|my|your|our|one|access|permission)\b)[a-z][\w-]*s\b)"
)
_EVERY_TIME = re.compile(
    rf"^(?:whenever|every ?time|each time|next time|{MADE_CONDITION}|{ASKED_CONDITION})\b",
    re.IGNORECASE,
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
#: A name from the code (`conversationId`, `user_id`, `app/models.py`): an imperative naming
#: one is about the task at hand ("no, add conversationId field") unless stated as a rule.
_CODE_NAME = re.compile(r"\b[a-z]+[A-Z]\w*|\b\w+_\w+|\w/\w|\w\.\w{1,4}\b")
_INSTEAD = re.compile(r"\b(?:instead of|rather than)\b", re.IGNORECASE)
#: "you keep adding comments", "you always create new files instead of editing": what the
#: assistant does again and again, said as a complaint (not the imperative "keep adding …").
_YOU_KEEP = re.compile(
    r"^you(?:'re|\s+are)?\s+(?:still\s+)?(?:keep|kept|always|constantly|repeatedly)\s+"
    r"(?:on\s+)?(?P<x>(?:\w+-)?\w+ing\b.*)$",
    re.IGNORECASE,
)
#: Gerunds after "you keep" that carry on the work rather than repeat a habit.
_KEEP_ON = word_set("going working trying doing getting")
#: Words after "don't" that start an opinion, not an instruction ("don't think so").
_NOT_DIRECTIVE = re.compile(
    r"^(?:think|know|see|understand|need|want|have|remember|get|like|care|mind|worry|"
    r"believe|recall|seem|bother|be sorry)\b",
    re.IGNORECASE,
)


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


def _practice_statement(clause: str) -> Found | None:
    """The practice `clause` states, keyed as the same rule said as a directive would be."""
    practice = stated_practice(clause, verbs=VERBS, task_words=ONE_OFF)
    if practice is None:
        return None
    x = clean(practice)
    subject = clean(re.sub(r"^\w+\s+|\s*\([^)]*\)$", "", clean(practice.split(" (")[0])))
    return worded(x, subject) if usable(x) and usable(subject) else None


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
    return rest if standing and first_verb(rest) else clause


#: "the team prefers named exports": the team's way, read as "we prefer …" is.
_TEAM_DOES = re.compile(
    r"^(?:the|our|my)\s+team\s+(?P<verb>prefers|likes|uses|writes|follows|avoids)\b", re.I
)


def team_as_we(clause: str) -> str:
    """ "our team writes commit messages in …" → "we write commit messages in …": the team's way
    said in the team's own voice."""
    return _TEAM_DOES.sub(lambda m: f"we {m.group('verb')[:-1].lower()}", clause, count=1)


def statement(clause: str, *, imperative_ok: bool, standing: bool = False) -> Found | None:
    """The instruction one clause states, or None."""
    clause = team_as_we(clause)
    if complaint := _YOU_KEEP.match(clause):
        # "you keep adding comments": what the assistant does again and again, never "keep …"
        x = clean(complaint.group("x"))
        if complaint.group("x").split()[0].lower() in _KEEP_ON or not usable(x):
            return None
        if ONE_OFF.search(x) or (found := worded(f"avoid {x}", x)) is None:
            return None
        # said of what the assistant did more than once: a way it must not work, for good
        return replace(found, standing=True)
    if match := _NO_LEFTOVER.match(clause):
        found = worded(f"no {match.group('x')} left {match.group('where')}", match.group("x"))
        return replace(found, standing=True) if found else None
    if match := _ONLY_WHAT_CHANGES.match(clause):
        found = worded(f"only {match.group('x')}", match.group("x"))
        return replace(found, standing=True) if found else None
    if way := way_statement(clause):
        found = worded(way.content, way.subject)
        return Found(found.content, found.subject, standing=way.standing) if found else None
    if match := _USE_INSTEAD.match(clause) or _INSTEAD_USE.match(clause):
        x, y = clean(match.group("x")), clean(match.group("y"))
        used_for = clean(match.groupdict().get("for") or "")
        if usable(x) and y:
            said = f"Prefers {x} over {y} {used_for}" if used_for else f"Prefers {x} over {y}"
            return worded(said, f"{x} {y}", choice=bool(tool_words(x)))
        return None
    if (match := _USE_ONLY.match(clause.rstrip(" .!"))) and usable(x := clean(match.group("x"))):
        y = clean(match.group("y") or "")
        found = worded(f"use {x} only, {y}" if y else f"use {x} only", x)
        return Found(found.content, found.subject, standing=True) if found else None
    read, liked = liking_statement(clause)
    if read:
        return liked
    if own := left_to_user(clause):
        # "I always do the commits myself": what to leave to the user, never "always do …"
        return own
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
            x = clean(match.group("x"))
            if not usable(x) or (lead == "don't" and _NOT_DIRECTIVE.match(x)):
                return None
            if lead in ("always", "never") and (
                x.split()[0].lower() in _REMARK or _third_person(x.split()[0].lower())
            ):
                # "always the same error", "always fails on Mondays": a remark on what happens
                return None
            # "avoid adding new files" is no "don't adding new files".
            said = "avoid" if lead == "don't" and _AVOIDED.match(body) else lead
            found = worded(f"{said} {x}", x)
            if (
                found
                and lead == "don't"
                and _KIND_OBJECT.match(x)
                and not ONE_OFF.search(x)
                and not _ONE_PLACE.search(x)
            ):
                return replace(found, standing=True)  # "don't leave debug prints behind"
            return found
    if match := _IMPORTANT.match(body):
        x = clean(match.group("x"))
        if not usable(x) or not first_verb(x):
            return None
        return worded(f"don't {x}" if match.group("neg") else x, x)
    if (match := _REQUIREMENT.match(body)) and usable(match.group("x")):
        if ONE_OFF.match(match.group("x")) or match.group("x").lower() in ("that", "this"):
            return None
        return worded(match.group(0), match.group(0))
    if match := _STOP.match(body):
        x = clean(match.group("x"))
        found = worded(f"avoid {x}", x) if usable(x) else None
        # "stop adding emojis to your replies": every one of a kind of work product;
        # "stop reformatting unrelated files": every thing of a kind
        kind = bool(_KIND_OBJECT.match(x)) and not ONE_OFF.search(x) and not _ONE_PLACE.search(x)
        if found and (_EVERY_PRODUCT.search(x) or kind):
            return replace(found, standing=True)
        return found
    if (
        imperative_ok
        and (match := _CONDITION.match(body))
        and not _INFLECTED.match(_RULE_ADVERB.sub("", match.group("then")))
        and (
            first_verb(_RULE_ADVERB.sub("", match.group("then")))
            or _ruled_verb(match.group("then"))
            or (
                (_EVERY_TIME.match(body) or AT_THE_END.match(body))
                and _ruled_verb(f"always {match.group('then')}")
            )
        )
    ):
        x = clean(body) if len(body) <= MAX_OBJECT_CHARS else ""
        return worded(x, x) if x else None
    verb = first_verb(body)
    if verb and _PLURAL_HEAD.match(body) and body.split()[0].lower() not in VERBS:
        verb = ""  # "tests always fail on Mondays": a plural noun says what happens
    if verb and (imperative_ok or _INSTEAD.search(body)):
        x = clean(body)
        if not usable(x) or len(x.split()) < 2 or (not standing and _CODE_NAME.search(x)):
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


#: Examples after a habit: a bracketed list ("(feat:, fix:, chore:)") or the things it rules
#: out ("keep functions small, no god objects").
_EXAMPLES_AFTER = re.compile(r"(?<!\s)\s*\([^()]{1,60}\)[\s.!]*$|,\s*no\s+[^,;()]{1,40}$")


def habit_statement(clause: str) -> Found | None:
    """A rule in a form only a rule takes (`habit_forms`), never about "it", "this …" or a name
    from the code."""
    clause = clause.rstrip(" ;")  # "Every PHP file starts with declare(strict_types=1);"
    if (core := _EXAMPLES_AFTER.sub("", clause)) != clause and (found := habit_statement(core)):
        # "commit with conventional commits (feat:, fix:)": the habit, its examples kept on it
        return worded(clause, found.subject)
    if reply := reply_length_form(clause):
        return worded(reply.content, reply.subject)
    if said := impersonal_form(clause):
        return worded(said.content, said.subject)
    if ONE_OFF.search(clause) or len(clause) > MAX_OBJECT_CHARS:
        return None
    # A naming convention's own name (`snake_case`, `camelCase`) is no name from the code; the
    # everyday wordings of a habit may name one, being about every thing of a kind.
    named = NAMING_CONVENTION.sub("", clause)
    form = None if _CODE_NAME.search(named) else habit_form(clause)
    if form is not None and form.first_step is not None and not first_verb(form.first_step):
        form = None  # "the rule here is tests first, then …": no step of work first
    form = form or habit_wording(clause)
    if form is None or (form.first_step is not None and not first_verb(form.first_step)):
        return None
    return worded(form.content, form.subject)
