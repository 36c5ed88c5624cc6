"""A user's message as the standing-rule readers take it: the usual misspellings of the words
rules are read by mended ("alwasy run the formatter before commiting"), imperatives joined by
commas taken apart ("respond in English, keep explanations brief" is two instructions), a
rule put as a question or a polite wish read as the rule it asks for ("can you always run the
formatter before committing?", "it would be great if you could always add a test plan"), and
the words around a rule that make it one: a label ("Our convention: …"), "Ever." after a
prohibition, a thing ruled out in a few words ("no Lombok")."""

from __future__ import annotations

import re

from squirrel_memory.extractors.instruction_parts import ONE_OFF, VERBS, base_form
from squirrel_memory.extractors.wording import stem

#: Usual misspellings of the words the rules are read by, and their spelling.
_SPELLING = {
    "alwasy": "always",
    "allways": "always",
    "alwyas": "always",
    "awlays": "always",
    "alwys": "always",
    "nevr": "never",
    "nver": "never",
    "neevr": "never",
    "commiting": "committing",
    "comitting": "committing",
    "everytime": "every time",
    "whenver": "whenever",
    "alway": "always",
    "everywere": "everywhere",
    "evrywhere": "everywhere",
    "insted": "instead",
    "instad": "instead",
    "globaly": "globally",
}
_MISSPELT = re.compile(r"\b(?:" + "|".join(_SPELLING) + r")\b", re.IGNORECASE)


#: Turns of a learner's English around the words rules are read by, and the plain English:
#: "please to not commit …" (please do not), "you must to write …" (must write), "is better
#: you use …" (use …), "no put magic numbers …" (don't put: a verb after "no" that is no noun).
_LEARNERS = (
    (re.compile(r"\bplease\s+to\s+not\b", re.IGNORECASE), "please do not"),
    (re.compile(r"\bplease\s+to\s+(never|always)\b", re.IGNORECASE), "please \\1"),
    (re.compile(r"\b(must|should)\s+to\s+(?=[a-z])", re.IGNORECASE), "\\1 "),
    (
        re.compile(
            r"^(?:it\s+)?is\s+(?:much\s+|more\s+)?better\s+(?:that\s+)?you\s+(?=[a-z])", re.I
        ),
        "",
    ),
    (
        re.compile(
            r"^no\s+(put|add|write|make|change|touch|leave|create|delete|remove|modify)\s+"
            r"(?!of\b|for\b|to\b)(?=[a-z])",
            re.IGNORECASE,
        ),
        "don't \\1 ",
    ),
)


def mended_spelling(message: str) -> str:
    """The message with the usual misspellings of the words rules are read by mended
    ("alwasy run the formatter before commiting"), and a learner's turns around them in plain
    English ("please to not commit the .env" → "please do not commit the .env")."""
    mended = _MISSPELT.sub(lambda m: _SPELLING[m.group(0).lower()], message)
    for pattern, plain in _LEARNERS:
        mended = pattern.sub(plain, mended)
    return mended


def imperatives_apart(listed: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Clauses with imperatives joined by commas taken apart ("respond in English, keep
    explanations brief" is two instructions); a condition, a list of objects or a sentence
    going on after its comma stays whole."""
    apart: list[tuple[str, str]] = []
    for written, clause in listed:
        parts = [p.strip() for p in clause.split(",")]
        if len(parts) > 1 and (all(_imperative(p) for p in parts) or _ban_then_task(parts)):
            said = [p.strip() for p in written.split(",")]
            apart.extend(
                zip(said, parts, strict=True)
                if len(said) == len(parts)
                else ((p, p) for p in parts)
            )
        else:
            apart.append((written, clause))
    return apart


def _imperative(part: str) -> bool:
    """Whether a part of a clause opens with a verb of work and says something after it."""
    words = part.split()
    return len(words) >= 2 and (words[0].lower() in VERBS or stem(words[0].lower()) in VERBS)


#: A prohibition of a verb of work ("please don't create new files for helpers like this").
_PROHIBITION = re.compile(r"^(?:please\s+)?(?:don'?t|do not|never)\s+", re.IGNORECASE)
#: What to do with the thing at hand instead ("put it in utils.py", "move them to lib/").
_TASK_AFTER = re.compile(r"^\w+\s+(?:it|this|that|them|these|those)\b", re.IGNORECASE)


def _ban_then_task(parts: list[str]) -> bool:
    """ "don't create new files for helpers like this, put it in utils.py": a prohibition, then
    what to do with the thing at hand this time; "never use npm, use pnpm" (the way to use
    instead) stays whole."""
    return (
        len(parts) == 2
        and _PROHIBITION.match(parts[0]) is not None
        and _imperative(_PROHIBITION.sub("", parts[0]))
        and _imperative(parts[1])
        and _TASK_AFTER.match(parts[1]) is not None
    )


#: "can you always …?", "could you please never …?", "can we … from now on?": a question whose
#: answer is a way of working.
_ASKED = re.compile(
    r"^(?:(?:can|could|would|will)\s+you|(?:can|could)\s+we)\s+(?:please\s+)?"
    r"(?:make sure to\s+|remember to\s+)?(?P<x>[^?]+?)[\s?!]*$",
    re.IGNORECASE,
)
#: "it would be great if you could always …", "I'd appreciate it if you never …".
_POLITE = re.compile(
    r"^(?:it(?:'d|’d|\s+would)\s+be\s+(?:really\s+)?(?:great|nice|good|helpful|ideal|better|"
    r"awesome|lovely)|i(?:'d|’d|\s+would)\s+(?:really\s+)?(?:appreciate it|love it|like it|"
    r"prefer it))\s+if\s+you\s+(?:could|would|can|'d)?\s*(?P<x>[^?]+?)[\s.!]*$",
    re.IGNORECASE,
)
_INSISTED = re.compile(
    r"^(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:make sure|remember)\s+to\s", re.I
)
_RULE_WORD = re.compile(r"^(?:always|never)\s+(?P<rest>.+)$", re.IGNORECASE)
#: "would you mind always …", "may I ask that you never …", "could you make it a habit to …":
#: a request, never a question of what the assistant can do; a rule when it has a rule word, a
#: lasting marker or names the habit itself.
_REQUESTED = re.compile(
    r"^(?:would\s+you\s+mind|would\s+it\s+be\s+possible\s+(?:for\s+you\s+)?to|"
    r"(?:can|could|may)\s+i\s+ask\s+(?:you\s+to|that\s+you)|"
    r"(?P<habit>(?:can|could|would|will)\s+you\s+(?:please\s+)?make\s+it\s+a\s+habit\s+(?:to|of))"
    r")\s+(?:please\s+)?(?P<x>[^?]+?)[\s?!.]*$",
    re.IGNORECASE,
)
#: A step asked to be remembered each time a kind of work comes ("… every time you change
#: behaviour").
_EACH_TIME = re.compile(
    r"\b(?:every ?time|each time|any ?time|whenever|(?:before|after|for|with|on) (?:every|each))\b",
    re.IGNORECASE,
)
#: A condition met again and again, or a marker of every later session.
_LASTING = re.compile(
    r"\b(?:before|after|whenever|every|each|when|once|by default|from now on|going forward|"
    r"in (?:the )?future)\b",
    re.IGNORECASE,
)
#: "stop adding …", "stop using …": a way of working asked to end, not a thing to stop now.
_STOP_DOING = re.compile(r"^stop\s+[a-z]+ing\b", re.IGNORECASE)
_MARKED = re.compile(r"\b(?:from now on|going forward|in (?:the )?future)$", re.IGNORECASE)


def asked_as_rule(clause: str) -> str | None:
    """The rule a question or a polite wish asks for ("can you always run the formatter before
    committing?" → "always run the formatter before committing"), or None. A question with no
    condition or marker ("can you always run the tests?") may ask what the assistant can do;
    a polite wish without "always" or "never" is a request of the moment. "can you stop
    adding emojis?" asks for the directive "stop adding emojis", as plainly said."""
    if match := _POLITE.match(clause):
        x = match.group("x")
        return x if _RULE_WORD.match(x) else None
    if match := _REQUESTED.match(clause.strip()):
        return _requested(match)
    if not clause.rstrip().endswith("?") or (match := _ASKED.match(clause)) is None:
        return None
    x = match.group("x")
    if _STOP_DOING.match(x):
        return x  # "can you stop adding emojis?": the directive "stop adding emojis", asked
    ruled = _RULE_WORD.match(x)
    insisted = bool(_INSISTED.match(clause))  # "can you make sure to always …?"
    if (ruled and (insisted or _LASTING.search(ruled.group("rest")))) or _MARKED.search(x):
        return x
    if insisted and _EACH_TIME.search(x):
        return x  # "could you remember to update the changelog every time you …?"
    return None


def _requested(match: re.Match[str]) -> str | None:
    """The rule a request lead asks for ("would you mind always running the linter first" →
    "always run the linter first"; "could you make it a habit to run X" → "always run X"), or
    None for a request of the moment ("would you mind running the linter on this file?")."""
    x = match.group("x").strip()
    lead, _, rest = x.partition(" ")
    ruled = lead.lower() in ("always", "never")
    x = f"{lead} {base_form(rest)}" if ruled else base_form(x)
    if match.group("habit"):
        return x if _RULE_WORD.match(x) else f"always {x}"
    if _RULE_WORD.match(x) or _MARKED.search(x) or _EACH_TIME.search(x):
        return x
    return None


#: A label that names what follows as a rule ("Our convention: …", "Rule of thumb: …").
_RULE_LABEL = re.compile(
    r"^(?:(?:our|the|a|my|one)\s+)?(?:(?:general|house|team|golden|coding|simple|one|only|"
    r"single|main|big|key)\s+)?"
    r"(?:rule|convention|policy|standard|guideline)s?(?:\s+of\s+thumb)?"
    # "One rule in this codebase:", "A rule we follow here:": where it holds, who keeps it
    r"(?:\s+(?:we|i)\s+(?:follow|have|keep|use))?"
    r"(?:\s+(?:in|for|of|on|across)\s+(?:this|the|our)\s+(?:repo|repository|project|codebase|"
    r"code\s?base|team|shop|house))?(?:\s+here)?\s*:",
    re.IGNORECASE,
)
#: A lead that names what follows as the rule without a colon ("By convention, all timestamps
#: are UTC", "house style is single quotes"), and what makes work done under a label ("Done
#: means: …", "Definition of done: …").
_RULE_LEAD = re.compile(
    r"^(?:by\s+convention\b|(?:(?:our|the)\s+)?(?:house|team|coding|code)\s+style\s+is\b|"
    r"(?:(?:our|the|my)\s+)?definition\s+of\s+done\s*:|done\s+means\s*:)",
    re.IGNORECASE,
)
#: Words that tie a statement to a moment ("before the demo tomorrow").
_MOMENT = re.compile(
    r"\b(?:now(?! on\b)|tomorrow|tonight|this (?:week|morning|afternoon|evening|sprint)|"
    r"next (?:week|month|release)|until (?:monday|tuesday|wednesday|thursday|friday))\b",
    re.IGNORECASE,
)
#: Words that make a statement after a standing marker a rule ("the deploy always goes through
#: the Makefile").
_RULE_WORDS = re.compile(r"\b(?:always|never|must|only|should)\b", re.IGNORECASE)
#: A label that stresses what follows ("Important: …", "NB: …").
_STRESS_LABEL = re.compile(
    r"^(?:(?:very|really|super)\s+)?(?:important|crucial|critical|essential|nb|n\.b\.?|"
    r"reminder|remember|heads[- ]up)\s*:",
    re.IGNORECASE,
)
#: A label that sets off a note ("Note: …", "FYI: …"): a rule only when what follows is a
#: norm for every thing of a kind (`_KIND_NORM`) or has a rule word.
_NOTE_LABEL = re.compile(r"^(?:note|fyi|psa)\s*:", re.IGNORECASE)
#: A norm for every thing of a kind, with no rule word: "every public type derives Debug",
#: "partial functions are off limits", "coroutines are launched in viewModelScope, not
#: GlobalScope" (a kind named bare, then the one way and the one ruled out). Not "the bug is
#: in the parser, not the lexer" (one thing of the task), nor "every test fails" (`_HAPPENS`).
_KIND_NORM = re.compile(
    r"^(?:every|each|all)\s+(?!(?:the|this|that|of|my|your|time)\b)[a-z][\w-]*\b"
    r"|\b(?:(?:is|are)\s+(?:off[- ]limits|not allowed|forbidden|banned))\b"
    r"|^(?!(?:the|this|that|these|those|it|its|there|here|my|your|his|her|their|a|an|one|"
    r"some|i|we|you|he|she|they)\b)[a-z][\w-]*(?:\s+[a-z][\w-]*)?\s+"
    r"(?:are|is|goes?|lives?|stays?|belongs?)"
    r"\s+[^,;]{2,60},\s+not\s+(?:in\s+|on\s+|with\s+)?[\w.`'-]+",
    re.IGNORECASE,
)
#: How things stand, not how they are to be: "every test fails on CI", "tests are slow, not
#: broken".
_STATE = re.compile(
    r"\b(?:fail\w*|break\w*|broken|crash\w*|hang\w*|pass(?:es|ing|ed)?|flak\w*|slow|down|"
    r"missing|wrong|stuck|red|green|times? out|timing out)\b",
    re.IGNORECASE,
)


def _kind_norm(body: str) -> bool:
    """Whether `body` is a norm for every thing of a kind (`_KIND_NORM`), not a state."""
    return bool(_KIND_NORM.search(body)) and not _STATE.search(body)


#: What happens, said with a rule word ("the tests always fail on CI"): a remark, no rule.
_HAPPENS = re.compile(
    r"\b(?:always|never|only)\s+(?:fails?|breaks?|crash(?:es)?|hangs?|errors?|times? out|"
    r"flakes?|dies|works?|passes|happens?|seems?|looks?|gets?|got|was|were|is|are|the|a|an|"
    r"same|this|that|it)\b",
    re.IGNORECASE,
)
#: A contrast that rules one thing out after a comma ("…, never a global").
_NEVER_A = re.compile(r",\s*never\s+an?\s+[\w-]+(?:\s+[\w-]+){0,2}\W*$", re.IGNORECASE)
#: Fewest and most words of a rule kept as said after its label.
MIN_LABELLED_WORDS = 3
MAX_LABELLED_WORDS = 16
#: "no Lombok", "no force pushes": a thing ruled out, in a few words (not "no need", "no idea").
_NO_THING = re.compile(
    r"^no\s+(?!(?:need|problem|worries|way|idea|clue|rush|hurry|thanks|luck)\b)"
    r"(?P<x>[\w`'.+/-]+(?:\s+[\w`'.+/-]+){0,3})$",
    re.IGNORECASE,
)
#: "Ever." after a prohibition, as a sentence of its own.
_EVER_NEXT = re.compile(r"^\s*(?:[.!]\s*)?(?:ever|never ever|not ever)[\s.!]*$", re.IGNORECASE)
#: "Always." after a rule in a few words ("tests before commits. always."), as a sentence of
#: its own.
_ALWAYS_NEXT = re.compile(
    r"^\s*(?:[.!]\s*)?(?:always|every (?:single )?time|without exception|no exceptions)[\s.!]*$",
    re.IGNORECASE,
)
_PROHIBITION = re.compile(
    r"^(?:(?:please|and|also|so)\s+)*(?:don'?t|do not|never|no)\b", re.IGNORECASE
)


def stressed_rule(written: str, body: str) -> bool:
    """Whether a clause is a statement stressed as a rule: a label ("Important: …") and a rule
    word ("migrations are append-only, never edit one")."""
    if _HAPPENS.search(body):
        return bool(_STRESS_LABEL.match(written) and _RULE_WORDS.search(body))
    if _NOTE_LABEL.match(written):
        return _kind_norm(body)
    return bool(_STRESS_LABEL.match(written) and (_RULE_WORDS.search(body) or _kind_norm(body)))


def rule_as_said(body: str, *, labelled: bool, marked: bool) -> bool:
    """Whether a clause no form reads can stand as the rule in its own words: after a rule's
    label ("Our convention: one class per file"), or with a rule word after a lasting marker or
    a stressing label ("for future reference, the deploy always goes through the Makefile");
    a few words, none tying them to the moment or telling what happens ("the tests always fail
    on CI"), and not a question."""
    ruled = _RULE_WORDS.search(body) or _kind_norm(body)
    # "the logger is passed in, never a global": the one ruled out, no remark on what happens
    if not (labelled or (marked and ruled)) or _HAPPENS.search(_NEVER_A.sub("", body)):
        return False
    words = body.split()
    return (
        MIN_LABELLED_WORDS <= len(words) <= MAX_LABELLED_WORDS
        and not body.rstrip().endswith("?")
        and not ONE_OFF.search(body)
        and not _MOMENT.search(body)
    )


#: A clause that opens on what it is said of ("the page reloads", "it crashes"): a remark.
_SAID_OF = re.compile(
    r"^(?:the|this|that|these|those|it|its|my|our|your|their|he|she|they|we|i|there)\b", re.I
)


def ever_after(message: str, written: str) -> bool:
    """Whether a prohibition is followed by "Ever." ("Don't use force unwraps. Ever.", "no
    force push. ever."), or any clause by "Always." ("tests before commits. always."): said
    for all later work."""
    at = message.find(written)
    if at < 0:
        return False
    rest = message[at + len(written) :]
    # "the build breaks. every time.": what happens, no rule
    said_always = (
        bool(_ALWAYS_NEXT.match(rest))
        and not _SAID_OF.match(written)
        and not _STATE.search(written)
    )
    return said_always or (bool(_PROHIBITION.match(written)) and bool(_EVER_NEXT.match(rest)))


_FIRST_SENTENCE = re.compile(r"^(?P<first>[^.!?\n]+)[.!]+(?P<rest>.*)$", re.DOTALL)


#: "Ever" closing a prohibition's own clause ("no mocks in the integration tests, ever", "no
#: force pushes ever"), longest first.
_EVER_TAILS = ("never ever", "not ever", "ever")


def without_ever_tail(clause: str) -> str | None:
    """A prohibition without the "ever" that closes it ("no mocks in the integration tests,
    ever" → "no mocks in the integration tests"): said for all later work; None when the
    clause is no prohibition or has no such "ever". (Read from the end, no pattern: one pass.)"""
    if not _PROHIBITION.match(clause):
        return None
    text = clause.rstrip(" \t\n.!")
    low = text.lower()
    tail = next((t for t in _EVER_TAILS if low.endswith(t)), None)
    if tail is None or len(low) == len(tail) or low[-len(tail) - 1] not in " \t,":
        return None  # "whatever", "forever", "never"
    rest = text[: -len(tail)].rstrip(" \t,")
    return rest if len(rest.split()) >= 2 else None


def ruled_out_for_good(message: str) -> bool:
    """Whether a message opens with a thing ruled out and "Ever." after it ("no force push.
    ever.", "no mocks in the integration tests, ever"): a prohibition, not a "no" that
    corrects what the assistant did."""
    first = re.split(r"(?<=[.!?])\s+|\n", message.strip(), maxsplit=1)[0]
    if without_ever_tail(first) is not None:
        return True  # "no mocks in the integration tests, ever", "no force pushes ever"
    found = _FIRST_SENTENCE.match(message.strip())
    return (
        found is not None
        and ruled_out_thing(found.group("first")) is not None
        and bool(_EVER_NEXT.match(found.group("rest")) or _ALWAYS_NEXT.match(found.group("rest")))
    )


#: "As always: …", "As usual, …": what follows is the user's way again, when it is a rule.
_AS_ALWAYS = re.compile(r"^(?:as|like)\s+(?:always|usual|ever)\s*[:,—-]\s*(?P<rest>\S.*)$", re.I)


def labelled_rule(written: str) -> bool:
    """Whether a clause opens with a label naming what follows as a rule ("Our convention: …",
    "Rule of thumb: …"), or says it again as the user's way ("As always: functions that
    allocate take an allocator, never a global one") when what follows is worded as a rule."""
    if _RULE_LABEL.match(written) or _RULE_LEAD.match(written.strip()):
        return True
    again = _AS_ALWAYS.match(written.strip())
    if again is None:
        return False
    rest = again.group("rest")
    return bool(
        _RULE_WORDS.search(rest) or _kind_norm(rest) or _NO_THING.match(rest.rstrip(" .;:!"))
    )


def ruled_out_thing(body: str) -> str | None:
    """ "no Lombok", "no force pushes" → the thing ruled out, in a few words; None for "no
    need", "no idea" or longer words."""
    match = _NO_THING.match(body.rstrip(" .!"))
    return match.group("x") if match else None


#: "we're a Kotlin shop, so prefer Kotlin for new code": a reason, then what follows from it.
_REASON_SO = re.compile(r"^(?P<why>[^,;]{3,80}),\s+so\s+(?P<x>[a-z][^;]{3,160})$", re.IGNORECASE)


#: A reason that is the user's own liking ("I like one widget per file, so …"): the rule itself,
#: what follows "so" being the case at hand.
_LIKING_REASON = re.compile(r"^(?:i|we)\s+(?:really\s+)?(?:like|love|prefer)\s", re.IGNORECASE)


#: "because I review diffs on my phone, keep lines short", "since CI is slow, run the tests
#: locally before every push": the reason first, then the directive.
_REASON_FIRST = re.compile(
    r"^(?:because|since|given that)\s+(?P<why>[^,;]{3,80}),\s+(?P<x>[a-z][^;]{3,160})$",
    re.IGNORECASE,
)


def after_reason(clause: str) -> str | None:
    """The directive a clause gives after its reason ("we're a Kotlin shop, so prefer Kotlin
    over Java for new code" → "prefer Kotlin over Java for new code"; "since CI is slow, run
    the tests before every push" → "run the tests before every push"), or None when no
    directive follows ("it failed, so I reverted it"). The directive is read on its own: the
    reason makes no rule of it ("because the API changed, update the client" is the task)."""
    match = _REASON_SO.match(clause) or _REASON_FIRST.match(clause)
    if match is None or _LIKING_REASON.match(match.group("why")):
        return None  # "I like one widget per file, so split X out": the liking is the rule
    x = match.group("x")
    head = x.split(maxsplit=1)[0].lower()
    return x if head in VERBS or head in ("always", "never", "don't", "dont") else None
