"""The words that decide whether a clause is a standing rule or about the task at hand.

"always", "from now on", "in this repo", "before every commit", "as usual" make a clause a
rule for all later work; "From now on: …" makes every directive after it in its message one.
"in this handler", "for now", "this response", "here" with a name from the code tie a clause to
one spot of the task, however it is worded; "we" and "our" make it the team's way again.
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.instruction_forms import ASKED_CONDITION, MADE_CONDITION
from squirrel_memory.extractors.instruction_parts import TOLD_OF
from squirrel_memory.extractors.wording import strip_markdown

#: Words that make a clause a general rule rather than a request about the task at hand.
STANDING = re.compile(
    r"\b(?:always|never|from now on|going forward|moving forward|from here on|"
    r"in (?:the )?future|for future reference|next time|generally speaking|"
    r"your (?:standing|ongoing|permanent) (?:job|task|role|duty)|"
    # "when you write Bash, quote all variables": each time a kind of thing is made
    rf"{MADE_CONDITION}|"
    # "when I give you a list of tasks, do all of them": each such request of the user's
    rf"{ASKED_CONDITION}|"
    # "whenever you're ready, …": when the user is ready for it, once
    r"every ?time|each time|(?:whenever|any ?time(?= (?:you|we)\b))(?! you(?:'re| are) ready| "
    r"you (?:can|want|like|wish|please)\b| you get a chance| "
    r"you have (?:a )?(?:moment|minute|sec|second|time))|by default|as a (?:general )?rule|"
    r"in general|"
    r"(?:in|for|across) (?:this|the|our) (?:repo|repository|project|codebase)|"
    r"in (?:all|every) (?:repo|repositorie|project)s?|prefers?|preferably|everywhere|"
    # "rubocop before you commit, as always": a habit said again
    r"(?:as|like) (?:always|usual)|as per usual|"
    r"for everything|at all times|all the time|for all (?:\w+ )?(?:projects|repos|code|files)|"
    r"exclusively|only use|consistently|throughout the (?:code|codebase|project)|"
    r"(?:the|our|my) (?:overriding|overarching|golden|guiding) (?:rule|principle|directive)|"
    # "fix any code quality issues you notice": every such thing met later, not one of them
    r"(?:any|every|all(?: the)?|whatever) (?:[\w-]+ ){0,3}?(?:issues?|problems?|bugs?|errors?|"
    r"warnings?|typos?|smells?|inconsistenc(?:y|ies)|mistakes?|things?) (?:that )?you "
    r"(?:notice|see|find|spot|come across|encounter|run into)|"
    # "use uv run for every python command", "use the logger for anything that isn't output"
    r"for every|for (?:anything|everything|any \w+) (?:that|which|you)|"
    # "in any UI you build", "on every file you touch": each such thing the work makes later
    r"(?:any|every|each) (?:new )?[a-z][\w-]*(?: [a-z][\w-]*)? (?:that )?you (?:build|write|create|"
    r"add|touch|make|generate|open|edit|change|modify)\b|"
    # "when you're unsure, ask me": each time the work reaches that state
    r"(?:when(?:ever)?|if) you(?:'re| are) (?:ever )?(?:unsure|not sure|in doubt|uncertain|"
    r"stuck|blocked)|"
    # "when you review my code, point out security issues first": each review
    r"(?:when(?:ever)?|if) you review (?:my |our |a |any )?(?:code|prs?|pull requests?|changes|"
    r"diffs?)\b|"
    # "when reviewing a PR, …", "in code reviews, be blunt", "during code review, …": every review
    r"(?:when(?:ever)?|while) (?:you(?:'re| are) )?reviewing (?:my |our |a |an |any )?(?:code|prs?|"
    r"pull requests?|changes?|diffs?|patch(?:es)?)\b|"
    r"(?:in|during|for) (?:(?:all|any|every|your|our) )?(?:(?:code|pr|pull request) )?reviews\b|"
    r"(?:in|during|for) (?:a |any |every |each )?(?:code|pr|pull request) review\b|"
    # "sign off every commit": every one of the work's commits or pull requests
    r"(?:every|each) (?:single )?(?:commit|pull request|pr)s?\b(?!\s+(?:since|from|on|in|of|"
    r"between|until|up to|after|before)\b)|"
    # "don't summarise at the end of every answer": how every answer is given
    r"(?:of|in|after|before) (?:every|each|any|all(?: of)?) (?:your )?(?:answers?|"
    r"repl(?:y|ies)|messages?)|"
    # "use the testing allocator in every test": a means used in every thing of a kind
    r"\buse\s[^,;]{1,60}?\bin (?:every|each) (?:new )?[a-z]+|"
    r"(?:for|before|after|on|with) (?:every|each) (?:commit|change|pr|"
    r"pull request|push|release|task|merge)s?|"
    # "finish each task by running the tests": how every piece of work ends
    r"(?:finish|end|wrap up|close out|complete) (?:each|every) (?:new )?(?:task|change|step|"
    r"item|story|ticket|issue|feature|fix|pr|pull request|session)s? (?:by|with)|"
    # "commit after each milestone": a step of work again and again, whatever the unit
    r"(?:before|after) (?:every|each) (?:new )?(?:milestone|step|phase|stage|feature|fix|edit|"
    r"iteration|session|ticket|issue|story|slice|part|module|file|function|endpoint|component|"
    r"refactor(?:ing)?|deploy(?:ment)?|migration|upgrade|rebase|build|review)s?)\b",
    re.IGNORECASE,
)
#: "use type hints in all the code you write", "keep the PRs you open small": how every such
#: thing is made, named with "the" (things of a kind or code, never one thing nor things made,
#: nor those of the moment: "check the links you add now", "… for the cases we discussed").
_THINGS_YOU_MAKE = re.compile(
    r"\b(?:all(?: of)? )?the (?:[a-z][\w-]* ){0,2}?(?:[a-z][\w-]*[^s\W]s|code) (?:that )?you "
    r"(?:write|create|add|make|generate|open|build|pick|choose|leave|draft)\b"
    rf"(?![^,;]*(?:\b(?:now|today|tonight|yet|this time|at the moment|right away)\b|{TOLD_OF}))",
    re.IGNORECASE,
)
#: A step done to those things once made ("commit the files you create", "delete the files you
#: create when you're done", "list the files you create in your summary"): the end of the task
#: at hand, not how the things are made.
_DONE_TO_MADE = re.compile(
    r"^(?:(?:please|pls|also|and|then|just|now)\s+)*(?:commit|push|delete|remove|list|open|send|"
    r"show|review|test|run|check|merge|revert|move|rename|paste|share|upload|deploy|fix|stage|"
    r"squash|clean)\b|\bwhen you(?:'re| are) (?:done|finished)\b|\bat the end\b|"
    r"\bin your (?:summary|reply|answer|report)\b",
    re.IGNORECASE,
)
#: A change made once across the code ("Rename Room.join/2 to enter/2 everywhere", "replace
#: the old client everywhere"): "everywhere" says how far the change goes, not that it recurs.
_ONE_CHANGE = re.compile(
    r"^(?:(?:please|now|then|also|and)\s+)*(?:rename|replace|move|delete|remove|convert|change|"
    r"update|migrate|switch|swap|bump|upgrade|fix|drop|strip|rewrite|port)\b",
    re.IGNORECASE,
)


#: The team's choice here and the rival it rules out: "We use minimal APIs here, no
#: controllers", "we write hooks here, not class components".
_OUR_CHOICE_HERE = re.compile(
    r"^(?:(?:and|also|note)\W+)?we\s+(?:use|prefer|write|follow|go with|stick (?:to|with))\s+"
    r"[^,;]{1,50}?\s+here\s*,\s*(?:no|not)\s+\w",
    re.IGNORECASE,
)


#: One thing the task makes, then what it does: "write a hook that always runs the tests",
#: "add a test that the parser never crashes". A rule word after it says how that one thing
#: behaves, not how later work is done ("write functions that never mutate their arguments"
#: names a kind of thing, no article before it, and stays a rule).
_MADE_THING = re.compile(
    r"^(?:(?:please|pls|can you|could you|now|then|also|and|so|ok|okay)[ \t,]+)*"
    r"(?:write|add|create|make|build|implement|set up|generate|introduce|put in)[ \t]+"
    r"(?:a|an|one|the|another|some)[ \t]+[^,;.!?\n]{1,60}?[ \t](?:that|which|so that|where)[ \t]",
    re.IGNORECASE,
)
#: "show me every error you find in the log", "list any issues you see": a report handed to the
#: user of what this search finds; "every … you find" says how far it goes, not that it recurs.
_REPORT_TO_ME = re.compile(
    r"^(?:(?:please|pls|can you|could you|now|then|also|and|just)[ \t,]+)*(?:show|send|give|list|"
    r"tell|paste|report)(?:[ \t]+(?:me|us))?\b",
    re.IGNORECASE,
)
_MET_LATER = re.compile(r"you (?:notice|see|find|spot|come across|encounter|run into)$", re.I)
#: "never-used helpers", "an always-on flag": a rule word joined to the next word names a thing.
_JOINED_RULE_WORD = frozenset({"always", "never"})


def standing_words(written: str) -> bool:
    """Whether a clause holds a word that makes it a standing rule (`STANDING`), other than
    the "everywhere" of a change made once across the code, a rule word joined to the word
    after it ("the never-used helpers") or one that says how a thing the task makes behaves
    ("add a test that the parser never crashes"), or gives the team's choice here against its
    rival ("we use minimal APIs here, no controllers"); or that says how the things the
    assistant makes are made ("use type hints in all the code you write"), not a step done to
    them once made ("commit the files you create"), nor a report asked of what this search
    finds ("show me every error you find in the log")."""
    if _OUR_CHOICE_HERE.match(written.strip()):
        return True
    made = _MADE_THING.match(written.strip())
    offset = len(written) - len(written.lstrip())
    made_end = offset + made.end() if made else -1
    found = [
        m.group(0).lower()
        for m in STANDING.finditer(written)
        if not (
            m.group(0).lower() in _JOINED_RULE_WORD
            and (written[m.end() : m.end() + 1] == "-" or m.start() >= made_end >= 0)
        )
    ]
    if found and _REPORT_TO_ME.match(written.strip()):
        # "show me every error you find in the log": this search's report
        found = [f for f in found if not _MET_LATER.search(f)]
    if not found:
        # "use type hints in all the code you write"; not "commit the files you create"
        return bool(_THINGS_YOU_MAKE.search(written)) and not _DONE_TO_MADE.search(written.strip())
    return not (all(f == "everywhere" for f in found) and _ONE_CHANGE.match(written.strip()))


#: A marker that makes every directive of its message a standing one ("From now on: …").
_MESSAGE_STANDING = re.compile(
    r"(?:^|[\n.!:]\s*)(?:from now on|going forward|moving forward|from here on|"
    r"in (?:the )?future|for future reference|"
    r"as a (?:general )?rule|general rules?|ground rules?|house rules?)\b",
    re.IGNORECASE,
)
#: A condition on the work: the directive under it holds each time it is met.
CONDITIONED = re.compile(
    r"\b(?:until|before|after|when|whenever|once|every|all|each|unless)\b", re.IGNORECASE
)
#: A clause tied to one spot of the task at hand: "in this function", "from this action", "on
#: this screen", "for this one", "for now", "just this once". A rule word in it ("Always return
#: 404 in this handler", "Prefer the cached value in this function") is about that spot, not
#: later work. The whole project ("in this repo", "for this crate") or its team is no spot.
TASK_SPOT = re.compile(
    r"\b(?:(?:in|on|from|for|to|inside|within|into) (?:this|that) (?!(?:repo|repository|project|"
    r"codebase|code base|monorepo|workspace|team|company|org|organi[sz]ation|shop|house|crate|"
    r"package|app|application|library|service|language|ecosystem|stack)\b)[\w-]+|"
    r"for now|(?:just )?this once|this time|for the time being|"
    # "never cache this response": one thing of the task ("always do this before committing",
    # "this way", "this kind of code" say how work is done)
    r"this (?!(?:repo|repository|project|codebase|code base|monorepo|workspace|team|company|org|"
    r"organi[sz]ation|shop|house|crate|package|app|application|library|service|language|"
    r"ecosystem|stack|way|pattern|style|kind|sort|type|format|convention|rule|approach|mistake|"
    r"again|when|whenever|before|after|if|unless|for|in|on|at|by|with|and|or|as|is|was|so|too|"
    r"every|each|first|is|should|must|every ?time)\b)[a-z][\w-]*)\b",
    re.IGNORECASE,
)
#: "Always return None here when the key is missing", "use GenServer.call here, not cast": "here"
#: with a case of the code or a name from it is a spot of the task ("never use npm here" is the
#: project's way).
HERE_SPOT = re.compile(
    r"\bhere\b(?:\s+(?:when|if|unless|whenever|once)\b|.*?(?:\b\w+\.\w+\(?|\b[a-z]+_[a-z_]+\b|"
    r"\b[a-z]+[A-Z]\w*))|(?:\b\w+\.\w+\(?|\b[a-z]+_[a-z_]+\b|\b[a-z]+[A-Z]\w*).*?\bhere\b"
)
#: "in this module we never …", "our handlers here …": the team's way, not a spot of the task.
WE = re.compile(r"\b(?:we|our|us)\b", re.IGNORECASE)
SCOPE_PHRASE = re.compile(
    r"^(?:(?:in|for|across) (?:this|the|our) (?:repo|repository|project|codebase)|"
    r"(?:around |over )?here)\b,?\s*",
    re.IGNORECASE,
)


#: A kind of work the rule after it holds for, put first: "For UI changes, always take a
#: screenshot", "For commits, use the imperative mood". Its last word names things of a kind
#: (a plural), never the task's own ("for these tests", "for now", "for example").
KIND_FIRST = re.compile(
    r"^for\s+(?P<kind>(?!(?:these|those|this|that|now|example|instance|me|you|us|my)\b)"
    r"(?:[\w/.-]+\s+){0,3}?[\w/.-]+s),\s+(?=\S)",
    re.IGNORECASE,
)


def kind_last(clause: str) -> str:
    """`clause` with a leading "For <kind of work>," moved to its end ("always take a
    screenshot for UI changes"), so the rule reads first; `clause` itself without one."""
    found = KIND_FIRST.match(clause)
    if found is None:
        return clause
    rest = clause[found.end() :].rstrip()
    end = rest[-1] if rest[-1:] in ".!" else ""
    return f"{rest.rstrip('.!')} for {found.group('kind')}{end}"


def marker_start(message: str) -> int | None:
    """Where a marker that makes every directive after it a standing one ("From now on: …")
    starts in `message` (0 when only its markdown-free text has one); None without one."""
    found = _MESSAGE_STANDING.search(message)
    if found is not None:  # the marker's first word, not the sentence end before it
        return found.start() + len(found.group(0)) - len(found.group(0).lstrip(".!:\n \t"))
    return 0 if _MESSAGE_STANDING.search(strip_markdown(message)) else None


def after_marker(message: str, written: str, marker_at: int | None) -> bool:
    """Whether a clause comes at or after the message's standing marker: "Add a decoder. From
    now on, document every public function" makes the second a rule, not the request before
    it."""
    if marker_at is None:
        return False
    at = message.find(written)
    return at < 0 or at + len(written) > marker_at
