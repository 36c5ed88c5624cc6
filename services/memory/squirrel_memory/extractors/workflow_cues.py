"""The cues of the workflow habits (`workflow_habits`): the wordings that state how far to carry
a batch of work (`CARRY`), what "done" means (`DONE`, and `DONE_SAYING` wherever it stands),
the tests left as they are (`TESTS_BENT`), the whole suite run (`WHOLE_SUITE`, with the moment
every change reaches: `SUITE_CONDITION`), one piece at a time (`PACE`), the change shown before
it is made (`PREVIEW`) and finished work handed over (`HANDOVER`); and the user pointing at work
left undone (`LEFT_UNDONE`, `STILL`)."""

from __future__ import annotations

import re

_UNITS = r"(?:tasks?|items?|steps?|phases?|issues?|todos?|tickets?|points?|parts?|ones?|fix(?:es)?)"
_STOPPING = r"(?:stop(?:ping)?|paus(?:e|ing)|wait(?:ing)?|check(?:ing)? in|ask(?:ing)?(?: me)?)"
_FINISHED = r"(?:done|finished|complete|completed)"
CARRY = (
    # don't stop after the first task / no need to check in between steps
    # (… without stopping to ask me between them / don't stop to check in with me between tasks)
    re.compile(
        rf"\b(?:don'?t|do not|never|no need to|without)\s+{_STOPPING}\s+(?:\w+\s+)?"
        r"(?:to\s+(?:ask|check in|confirm|wait for|report)\s+(?:(?:in\s+)?with\s+)?(?:me\s+)?)?"
        rf"(?:after|between|at the end of)\s+(?:each|every|the first|one|a single|the|them|"
        rf"{_UNITS})\b",
        re.IGNORECASE,
    ),
    # don't stop until everything is done
    re.compile(r"\b(?:don'?t|do not|never)\s+stop\s+(?:until|till|before)\b", re.IGNORECASE),
    # keep going until the whole list is done / carry on through the rest of the plan
    re.compile(
        r"\b(?:keep going|keep working|continue|carry on|go on|proceed)\b[^.?!;]{0,40}?"
        r"\b(?:until|till|through)\b[^.?!;]{0,40}?\b(?:all|every|each|whole|entire|rest|"
        r"remaining|everything|list|plan|batch)\b",
        re.IGNORECASE,
    ),
    # do all the tasks in one go / finish every item before reporting back
    re.compile(
        rf"\b(?:do|finish|complete|implement|work through|go through|handle|tackle)\s+"
        rf"(?:all|every|each)(?:\s+of)?(?:\s+(?:the|them|these|those|remaining|open))?"
        rf"(?:\s+{_UNITS})?"
        rf"(?:[^.?!;]|\.(?=\w)){{0,40}}?\b(?:in one go|in one pass|in one session|before "
        rf"(?:you\s+)?(?:stop|"
        rf"report|ask|come back|check in)\w*|without (?:stopping|asking|pausing|"
        rf"checking in))\b",
        re.IGNORECASE,
    ),
    # continue with the remaining tasks / the rest of the steps
    re.compile(
        r"\b(?:continue|proceed|carry on|go on)\s+(?:with|to|through)\s+(?:all\s+)?the\s+"
        r"(?:remaining|rest of the)\s+\w+",
        re.IGNORECASE,
    ),
    # work through the whole list without asking / do the entire plan before you report back
    re.compile(
        r"\b(?:do|finish|complete|implement|work through|go through|handle|tackle)\s+(?:the\s+)?"
        r"(?:whole|entire|full)\s+(?:list|plan|batch|backlog|set|checklist|queue)\b[^.?!;]{0,40}?"
        r"\b(?:in one go|in one pass|before (?:you\s+)?(?:stop|report|ask|come back|check in)\w*|"
        r"without (?:stopping|asking|pausing|checking in))\b",
        re.IGNORECASE,
    ),
    # only report back when everything is finished / only stop once all the tasks are done
    re.compile(
        r"\bonly\s+(?:report back|report|come back|check in|stop|ping me|get back to me)\s+"
        r"(?:when|once|after)\s+(?:everything|all|every|each|the whole|the entire)\b",
        re.IGNORECASE,
    ),
    # I asked you to finish all of them / you were supposed to do every task
    re.compile(
        r"\b(?:i (?:asked|told) you to|you were (?:supposed|meant) to|you should have)\s+"
        r"(?:finish(?:ed)?|do(?:ne)?|complete(?:d)?|implement(?:ed)?|go(?:ne)? through)\s+"
        rf"(?:all|every|each|the whole|the entire|everything)\b(?:\s+(?:of\s+)?(?:the\s+)?"
        rf"(?:them|{_UNITS}))?"
        # the batch itself, not everything of a kind ("do everything in Python")
        r"(?=\s*(?:$|[,.!:—–-]|\s(?:not|before|without|in one)\b))",
        re.IGNORECASE,
    ),
)
DONE = (
    # done means the tests pass / finished = committed and pushed
    re.compile(rf"\b{_FINISHED}\s*(?:\s(?:means|is when|only when)\b|=)", re.IGNORECASE),
    # it's not done until it is pushed / a task is only finished when CI is green / nothing (no
    # task) is done until it's pushed
    re.compile(
        rf"\b(?:not|isn'?t|never|only|nothing\s+is|no\s+(?:[a-z]+\s+){{1,2}}?is)\s+(?:really\s+)?"
        rf"{_FINISHED}\s+(?:until|unless|"
        r"before|"
        rf"when|if|once)\b",
        re.IGNORECASE,
    ),
    # you're done when make check passes / a task is finished once it's deployed
    re.compile(
        r"\b(?:you(?:'re|\s+are)|it(?:'s|\s+is)|(?:a|the|each|every)\s+(?:task|change|feature|"
        r"ticket|story|pr|pull request|fix)\s+is)\s+(?:only\s+)?"
        rf"{_FINISHED}\s+(?:when|once|after)\s+(?!i\b|we\b)",
        re.IGNORECASE,
    ),
    # don't say it's done before the tests pass / never mark a task complete without …
    re.compile(
        r"\b(?:don'?t|do not|never)\s+(?:say|call|claim|report|mark|declare|tell me)\s+"
        r"(?:that\s+)?(?:(?:it|a task|the task|anything|something|this|that|you)"
        rf"(?:'s|'re|\s+is|\s+are|\s+as)?\s+)?{_FINISHED}\s+(?:until|before|unless|if|without|"
        r"when)\b",
        re.IGNORECASE,
    ),
    # don't tell me it works until you've run it / never say it's fixed without a test
    re.compile(
        r"\b(?:don'?t|do not|never)\s+(?:say|tell me|claim|report)\s+(?:that\s+)?"
        r"(?:it|this|that|something|anything)\s*(?:works|(?:'s|\s+is)\s+(?:working|fixed|ready))"
        r"\s+(?:until|before|unless|if|without)\b",
        re.IGNORECASE,
    ),
)
_BEND = (
    r"(?:modify|modifying|change|changing|edit|editing|alter|altering|rewrite|rewriting|weaken|"
    r"weakening|adjust|adjusting|tweak|tweaking|delete|deleting|remove|removing|skip|skipping|"
    r"disable|disabling|loosen|loosening)"
)
#: Tests changed to pass instead of the code fixed: "don't modify existing tests to make them
#: pass", "never change a test just to make it green", "fix the code, not the tests".
TESTS_BENT = (
    re.compile(
        rf"\b(?:don'?t|do not|never|stop|no)\s+(?:\w+\s+){{0,2}}?{_BEND}\s+"
        r"(?:(?:the|existing|any|a|my|our)\s+)*(?:tests?|specs?|assertions?|test cases?)\s+"
        r"(?:just\s+|only\s+|simply\s+)?(?:to\s+(?:make\s+(?:them|it)\s+)?|so\s+(?:that\s+)?"
        r"(?:they|it)\s+(?:can\s+)?)(?:pass|go green|green|succeed)\w*",
        re.IGNORECASE,
    ),
    re.compile(r"\bfix\s+the\s+code,?\s+not\s+the\s+tests?\b", re.IGNORECASE),
)
#: The whole suite rather than the tests at hand: "run the full suite, not just the one file",
#: "run all the tests before you finish", "full test suite please, not only the new test".
WHOLE_SUITE = (
    re.compile(
        r"\b(?:(?:run|running)\s+(?:the\s+)?(?:full|whole|entire|complete)\s+(?:test\s+)?suite|"
        r"(?:full|whole|entire|complete)\s+test\s+suite|run\s+all\s+(?:of\s+)?(?:the\s+)?tests)\b",
        re.IGNORECASE,
    ),
)
#: One piece of work at a time, the user's ok awaited before the next: "do them one at a time
#: and wait for my ok before the next", "wait for me to say go before the next task" (not "wait
#: for me", "stop after the export endpoint": where this batch stops).
PACE = (
    re.compile(
        r"\b(?:do|take|handle|tackle|work\s+(?:on|through))\s+(?:\w+\s+){0,2}?one\s+(?:\w+\s+)?"
        r"at\s+a\s+time\b[^.?!;]{0,20}?\bwait\b[^.?!;]{0,40}?\bbefore\s+(?:you\s+)?(?:the\s+next|"
        r"moving\s+on|going\s+on|continuing|(?:start|do|begin)(?:ing)?\s+the\s+next)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\bwait\s+(?:for\s+(?:my|me|the user'?s?|an?)\s+)?(?:ok|okay|go|go-ahead|approval|"
        r"confirmation|to\s+say\s+(?:go|so|ok)|reply|answer)?[^.?!;]{0,30}?\bbefore\s+(?:you\s+)?"
        r"(?:the next|moving on|going on|continuing|starting the next|(?:start|do|begin)(?:ing)?"
        r"\s+the next)\b",
        re.IGNORECASE,
    ),
)
#: The change shown before it is made: "show me the diff before applying anything", "before
#: applying a change, show me the diff", "show me the plan before writing any code" (not "show
#: me the diff of lexer.rs": this change).
_PREVIEW_OF = r"(?:the\s+|a\s+|your\s+)?(?:diff|patch|changes?|plan|proposal)"
_PREVIEW_BEFORE = (
    r"before\s+(?:you\s+)?(?:apply|applying|writ(?:e|ing)|mak(?:e|ing)|chang(?:e|ing)|"
    r"edit(?:ing)?|touch(?:ing)?|commit(?:ting)?|implement(?:ing)?)\s+(?:any|anything|a|an|"
    r"changes|code|edits|it|them)\b"
)
_SHOW_ME = r"(?:show\s+me|let\s+me\s+see)"
PREVIEW = (
    re.compile(rf"\b{_SHOW_ME}\s+{_PREVIEW_OF}\s+(?:first\s+)?{_PREVIEW_BEFORE}", re.I),
    re.compile(rf"\b{_PREVIEW_BEFORE}[^.?!;]{{0,20}}?,\s*{_SHOW_ME}\s+{_PREVIEW_OF}\b", re.I),
    # "Diff first, then I'll say go." / "Plan first, then code." (not "the diff first line")
    re.compile(
        r"^(?:(?:the|a|your)\s+)?(?:diff|patch|plan)\s+first(?=\s*(?:[,;.!]|$|then\b))", re.I
    ),
)
#: How finished work is handed over for review: "when you finish, push and open a PR", "open a
#: pull request when you're done instead of pushing to main" (not "open a PR for this"; "push
#: when you're done" is the push's own rule, as "did you push?" is).
_WHEN_DONE = (
    r"(?:when|once|after)\s+(?:you(?:'re|\s+are)\s+(?:done|finished)|you\s+(?:finish|are\s+"
    r"finished)|the\s+work\s+is\s+(?:done|finished)|(?:it'?s|it\s+is)\s+(?:done|finished))"
)
_HAND_OVER = (
    r"(?:(?:push\s+(?:the\s+branch\s+)?and\s+)?open\s+(?:a|the)\s+(?:pr|pull\s+request|"
    r"merge\s+request))"
)
HANDOVER = (
    re.compile(rf"\b{_WHEN_DONE}\s*,?\s*(?:then\s+)?{_HAND_OVER}\b", re.I),
    re.compile(rf"\b{_HAND_OVER}\b[^.?!;]{{0,40}}?\b{_WHEN_DONE}\b", re.I),
)
#: What makes a whole-suite run a habit rather than this task's step: a contrast with the
#: tests at hand, or the moment every change reaches.
SUITE_CONDITION = re.compile(
    r"\b(?:not\s+(?:just|only)|rather\s+than|instead\s+of|before\s+(?:you\s+)?(?:finish|"
    r"commit|push|say|call|are\s+done|report|hand))",
    re.IGNORECASE,
)
#: What the user finds left undone after the assistant said it finished: "there are still
#: uncommitted changes", "there appear to be lots of unpushed commits". Read only right after
#: the assistant acted: the user checks that finishing includes it.
LEFT_UNDONE = re.compile(
    r"^(?:(?:but|and|hmm|ok|okay|so|no|yet)[\s,]+)*there\s+(?:still\s+)?(?:are|is|appears?\s+to\s+be|"
    r"seems?\s+to\s+be)\s+(?:still\s+)?(?:lots\s+of\s+|a\s+lot\s+of\s+|many\s+|some\s+|a\s+few\s+|"
    r"several\s+|\d+\s+)?(?:uncommitted|unstaged|unpushed|unmerged)\s+(?:changes|files|commits|work)"
    # nothing after it but where it is left: "from my other branch, ignore them" is the user's
    r"(?:\s+(?:left|still|remaining|(?:in|on)\s+(?:the\s+)?(?:repo|repository|branch|working\s+"
    r"(?:tree|copy)|worktree)))*[\s.!]*$",
    re.IGNORECASE,
)
STILL = re.compile(r"\bstill\b", re.IGNORECASE)
#: Cues that name the assistant's own saying ("before you say it's done", "before saying it
#: works"): addressed to it wherever they stand, also after the step they ask for ("run the
#: tests before you say it's done").
DONE_SAYING = (
    # before you say it's finished, run the tests and commit
    re.compile(
        r"\bbefore\s+you\s+(?:say|call|mark|report|declare|claim|tell me)\s+(?:that\s+)?"
        r"(?:(?:it|this|that|(?:a|the)\s+(?:task|change|fix|feature|ticket)|anything|something|you)"
        r"(?:'s|'re|\s+is|\s+are|\s+as)?"
        rf"\s+)?{_FINISHED}\b",
        re.IGNORECASE,
    ),
    # before calling it done, run the tests / run the suite before saying it's finished
    re.compile(
        r"\bbefore\s+(?:calling|saying|marking|reporting|declaring|claiming|telling me)\s+"
        r"(?:that\s+)?(?:it|a task|the task|anything|something|this|that|you'?re)"
        rf"(?:'s|\s+is|\s+as)?\s+(?:{_FINISHED}|fixed|working|ready)\b",
        re.IGNORECASE,
    ),
    # review your own diff before handing it over / run the linter before you hand it back
    re.compile(
        r"\bbefore\s+(?:you\s+)?hand(?:ing)?\s+(?:it|this|that|the\s+work|anything|your\s+work)?"
        r"\s*(?:over|back|in)\b",
        re.IGNORECASE,
    ),
    # before you tell me it works
    re.compile(
        r"\bbefore\s+(?:you\s+)?(?:say|saying|tell me|telling me|claim|claiming|report|"
        r"reporting)\s+(?:that\s+)?(?:it|this|that|something|anything)\s*(?:works|(?:'s|\s+is)"
        r"\s+(?:working|fixed|ready))\b",
        re.IGNORECASE,
    ),
)
