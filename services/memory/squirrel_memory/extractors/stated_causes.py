"""A cause stated in one sentence of a reply, read by its shape, and the sentences to read.

"The problem is that the task runner does not forward stdin.", "The deploy hangs because the
service is never stopped.", "The CI failure is caused by a stale cache.", "`rustfmt` wants the
closure on one line.", "<cause>, so the prompt waits forever." `stated_cause` returns the
symptom such a sentence names (the trigger, when it names one) and the cause; never a sentence
about anyone's steps ("I", "we", "you"), a hedge ("probably", "might"), a plan, a question, a
test's expectation restated, or a cause that only says where. `sentences` gives the sentences
of a reply's prose outside code, plans and to-do lists. The diagnosed problems
(`diagnosed`) and the labelled fixes (`labelled_fixes`) read causes with them.
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.own_words import QUOTED_LINE
from squirrel_memory.extractors.wording import without_bold
from squirrel_memory.markdown_links import unlinked

MIN_CAUSE_CHARS = 20
MAX_CAUSE_CHARS = 240

SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(])")
_MARKUP = re.compile(r"^\s*(?:[-*+•]|\d+[.)]|#+)\s+")
#: "The (root) problem is that …", "The cause was …", "The real reason: …": the cause follows.
_NAMED = re.compile(
    r"^(?:[\w!,' -]{0,30}?\b)?the (?:real |actual |root |underlying )?(?:problem|issue|cause|"
    r"culprit|bug|reason(?: (?:it|this) (?:hangs|fails|breaks))?)(?: (?:here )?(?:is|was)"
    r"(?: that)?:?|:)\s+(?P<cause>.+)$",
    re.IGNORECASE,
)
#: "This happens because …", "That's because …", "Root cause: …", "What happened: …".
_THIS_BECAUSE = re.compile(
    r"^(?:(?:this|that|it) (?:happens|happened|hangs|hung|fails|failed|breaks|broke|occurs|"
    r"times out|crashes|is failing|was failing|is hanging|was hanging) because|"
    r"(?:this|that|it)(?: is|'s| was) because|(?:the )?root cause:|cause:|culprit:|"
    r"what (?:happened|went wrong):|here'?s what(?:'s| is)? (?:going on|happening):|"
    r"here'?s what happened:)"
    r"\s+(?P<cause>.+)$",
    re.IGNORECASE,
)
#: "<something> hangs because …": the symptom names the trigger.
_SYMPTOM_BECAUSE = re.compile(
    r"^(?P<trigger>(?!(?:it|this|that|they|these|those|there|which|so|and|but|or)\b)"
    r"[`\w][^,;:]{3,90}?\b(?:hangs?|hung|hanging|fails?|failed|failing|"
    r"breaks|broke|breaking|crash(?:es|ed)?|times? out|timed out|errors? out|stalls?|"
    r"(?:raises|raised|throws|threw|panics|panicked)(?! no\b| nothing\b)(?: [^,;:]{1,60}?)?|"
    r"(?:is|was|were|are) (?:stuck|red|broken|rejected|blocked|skipped|empty|wrong|missing)|"
    r"never (?:finishes|finished|returns|returned|starts|started|runs|ran)|"
    # a search that came back empty: "`rg` found nothing because …"
    r"(?:found|finds|returned|returns|matched|matches) (?:nothing|no (?:files?|matches|results))|"
    r"(?:does|did)n'?t (?:work|run|start|finish|show|load|build|pass)))\s+because\s+(?P<cause>.+)$",
    re.IGNORECASE,
)
#: "The CI failure is caused by …", "The hang is due to …", "The … error was because …": the
#: failure names the trigger.
_CAUSED_BY = re.compile(
    r"^(?P<trigger>(?:the|this|that) [^,;:]{0,60}?\b(?:failures?|errors?|hangs?|crash(?:es)?|"
    r"timeouts?|warnings?|breakage|regression))\s+(?:is|was|are|were) (?:caused by|due to)\s+"
    r"(?P<cause>.+)$",
    re.IGNORECASE,
)
#: "because" only after a failure that names itself ("The import error was because …"): "The
#: failure is because …" names no trigger of its own.
_NAMED_BECAUSE = re.compile(
    r"^(?P<trigger>(?:the|this|that) (?:[^,;:\s]+\s+){1,6}?(?:failures?|errors?|hangs?|"
    r"crash(?:es)?|timeouts?|warnings?|breakage|regression))\s+(?:is|was|are|were) "
    r"because(?: of)?\s+(?P<cause>.+)$",
    re.IGNORECASE,
)
#: "<cause>, so <symptom>": the runner does not pass stdin on, so the prompt waits forever.
_SO_SYMPTOM = re.compile(
    r"^(?P<cause>(?!(?:it|this|that|they|so|and|but)\b)[^;:]{15,180}?),? so (?P<trigger>"
    r"(?:the |a |an |`|every |each )[^;:]{3,90}?\b(?:hangs?|blocks?|waits? forever|stalls?|"
    r"fails?|breaks|crash(?:es)?|times? out|never (?:finishes|returns|starts|runs)|"
    r"(?:raises|throws|panics)(?! no\b| nothing\b)(?=\s+\w)|"
    r"(?:is|are) (?:stuck|skipped|rejected|empty|missing))\b[^;:]{0,40}?)\.?$",
    re.IGNORECASE,
)
#: "rustfmt wants the closure on one line": what a checker or tool asks for is the cause.
_WANTS = re.compile(
    r"^(?P<cause>(?:the )?`?[\w.@/-]+`? (?:wants|expects|requires|insists on|prefers)\s+.+)$",
    re.IGNORECASE,
)
#: "Found the problem: …".
_FOUND = re.compile(
    r"^found (?:it|the (?:problem|issue|cause|culprit|bug))\s*[:-]+\s*(?P<cause>.+)$", re.I
)
#: A sentence about the session's own steps or the user's: not a statement of cause.
PERSON = re.compile(
    r"\b(?:i|i'm|i've|i'd|i'll|my|me|we|we're|we've|we'll|our|us|you|your|you're|you've)\b",
    re.IGNORECASE,
)
#: A cause that only says where ("the issue is in the template") or that it is plain to see.
_NO_CAUSE = re.compile(
    r"^(?:in|inside|within|with|here|there|clear|simple|now|still|something|unclear|unknown|"
    r"not (?:yet )?(?:clear|known))\b",
    re.IGNORECASE,
)
#: A test's expectation restated: the work at hand, not a lesson.
_TEST = re.compile(
    r"\b(?:the|this|that|a|these) (?:tests?|mocks?|assertions?|fixtures?)\b|\bexpected\b", re.I
)
HEDGE = re.compile(
    r"\b(?:might|may|maybe|probably|perhaps|likely|possibly|presumably|seems?|seemingly|"
    r"appears? to|must be|could|would|guess|suspect|assume|not sure|unclear|somehow|"
    r"if so|either)\b",
    re.IGNORECASE,
)
#: A plan, a next step, a question or the fix itself: not the cause.
_PLAN = re.compile(
    r"^(?:let me|let's|i'll|i will|we need|we'll|now|next|first|then|to fix|the fix|fix|"
    r"solution|option|step)\b",
    re.IGNORECASE,
)
#: A heading or lead-in that opens a plan or a to-do list: what follows is not a finding.
_PLAN_HEADING = re.compile(
    r"^(?:#+\s*)?(?:\*\*)?(?:(?:the |my |a )?plan|next steps?|to-?dos?|tasks?|steps?|options?|"
    r"approach|proposal|what (?:i'll|i will|to) do)\b.*:?(?:\*\*)?\s*$",
    re.IGNORECASE,
)
_CHECKBOX = re.compile(r"^\s*[-*]\s*\[[ xX]?\]")
#: A report whose subject is only a pronoun ("it hangs", "this is broken") names nothing.
PRONOUN = re.compile(r"^(?:it|this|that|they|these|those|there)\b", re.IGNORECASE)


#: "It expected `x`, but `y` ran first": what a check expected against what happened.
_CONTRAST = re.compile(r"\bexpect(?:s|ed)?\b[^.;]{3,120}?,? but\b", re.IGNORECASE)
MAX_DETAIL_CHARS = 200


def contrast(following: list[str]) -> str:
    """The first of the sentences after a cause that says what was expected against what
    happened ("It expected `x – aborted`, but `x` ran concurrently and finished first"), as
    a clause to follow the cause; "" when none does, or it hedges or speaks of someone."""
    for text in following:
        flat = text.strip().rstrip(":.").strip()
        if not _CONTRAST.search(flat) or len(flat) > MAX_DETAIL_CHARS or flat.count("`") % 2:
            continue
        if PERSON.search(flat) or HEDGE.search(flat) or _PLAN.match(flat):
            continue
        return flat[:1].lower() + flat[1:] if PRONOUN.match(flat) else flat
    return ""


#: A heading a diagnosis puts over its cause: `### Root cause`, `**Cause:**`, `Why it fails`.
_CAUSE_HEADING = re.compile(
    r"^\s*(?:#{1,6}\s*)?(?:\*\*)?(?:the )?(?:root cause|cause|why it (?:fails|failed|broke|"
    r"breaks|hangs|hung))(?:\*\*)?\s*:?\s*(?:\*\*)?\s*$",
    re.IGNORECASE,
)
_HEADING = re.compile(r"^\s*(?:#{1,6}\s+\S|\*\*[^*]+\*\*:?\s*$)")
#: What a reply calls the problem before its cause: "This is a race in the scheduler".
_PROBLEM = re.compile(
    r"\b(?:an?|the) (?P<problem>(?:[\w’'/-]+ ){0,5}(?:bug|issue|problem|regression|race)"
    r"(?: in [^.;:]{3,60})?)(?=[.;:]|$)",
    re.IGNORECASE,
)


def headed_cause(text: str) -> tuple[str, str]:
    """(what the reply calls the problem, the cause) under a heading that announces the cause
    (`### Root cause`): its lead-in and the items it lists ("hk currently: uses …; renders
    …; passes …"), or its first sentence; ("", "") when there is none, or it speaks of
    someone's steps, hedges, or is too short or too long."""
    prose = unlinked(re.sub(r"```.*?(?:```|$)", " ", text, flags=re.DOTALL))
    lines = prose.split("\n")
    start = next((i for i, line in enumerate(lines) if _CAUSE_HEADING.match(line)), None)
    if start is None:
        return "", ""
    blocks: list[list[str]] = [[]]
    for line in lines[start + 1 :]:
        if _HEADING.match(line):
            break
        if line.strip():
            blocks[-1].append(line)
        elif blocks[-1]:
            blocks.append([])
    body = [
        *blocks[0],
        *(
            blocks[1]
            if blocks[0] and blocks[0][-1].rstrip().endswith(":") and len(blocks) > 1
            else []
        ),
    ]
    if not body:
        return "", ""
    lead = " ".join(without_bold(_MARKUP.sub("", body[0])).split())
    if lead.endswith(":"):
        items = [
            " ".join(without_bold(_MARKUP.sub("", line)).split()).rstrip(".")
            for line in body[1:]
            if _MARKUP.match(line)
        ]
        items = [item[:1].lower() + item[1:] for item in items if item]
        cause = f"{lead} {'; '.join(items)}" if items else ""
    else:
        cause = SENTENCE.split(lead)[0].rstrip(".")
    if not MIN_CAUSE_CHARS <= len(cause) <= MAX_CAUSE_CHARS or cause.count("`") % 2:
        return "", ""
    if PERSON.search(cause) or HEDGE.search(cause):
        return "", ""
    before = " ".join(lines[:start])
    named = _PROBLEM.search(before)
    return (named.group("problem") if named else ""), cause


#: What a report says code gets wrong: it leaves something out, lets it through, never does it.
_DEFECT = re.compile(
    r"(?<![.\w`])(?:omits?|omitted|leaves? out|left out|(?:is|are) missing|does ?n[o']t|never|"
    r"skips?|ignores?|bypass(?:es)?|pass(?:es)? through|leaks?)\b",
    re.IGNORECASE,
)
#: A name only code uses: `quoted`, camelCase, snake_case, dotted.name.
_CODE_NAME = re.compile(r"`[^`]+`|\b[a-z]+[A-Z]\w*|\b[A-Za-z]\w*_\w+|\b[A-Za-z]\w*\.[A-Za-z]\w*\b")


def reported_defect(text: str) -> str:
    """The first sentence of a user's report that says what named code gets wrong ("The
    shouldFilterFile function … omits paths.SummaryFileName"), or "": not a question, a guess,
    nor a sentence about someone's own steps, nor a quoted line (a pasted issue's words)."""
    for said in sentences(QUOTED_LINE.sub(" ", text)):
        flat = said.strip().rstrip(".!")
        if not MIN_CAUSE_CHARS <= len(flat) <= MAX_CAUSE_CHARS or flat.endswith(("?", ":")):
            continue
        if not (_DEFECT.search(flat) and _CODE_NAME.search(flat)) or flat.count("`") % 2:
            continue
        if "|" in flat or flat[:1].isdigit() or len(flat.split()) < 6:
            continue  # a pasted line of code or of a log, not the user's own words
        if PERSON.search(flat) or HEDGE.search(flat) or _PLAN.match(flat):
            continue
        return flat
    return ""


def sentences(text: str) -> list[str]:
    """The sentences of a reply's prose that are not inside a plan, a to-do list or code."""
    prose = re.sub(r"```.*?(?:```|$)", " ", text, flags=re.DOTALL)
    prose = unlinked(prose)
    found: list[str] = []
    in_plan = False
    for paragraph in prose.split("\n"):
        if not paragraph.strip():
            continue
        if _PLAN_HEADING.match(without_bold(paragraph.strip())):
            in_plan = True
            continue
        listed = bool(_MARKUP.match(paragraph))
        if (in_plan and listed) or _CHECKBOX.match(paragraph):
            continue
        in_plan = in_plan and listed
        flat = " ".join(without_bold(_MARKUP.sub("", paragraph)).split())
        found.extend(s.strip() for s in SENTENCE.split(flat) if s.strip())
    return found


def stated_cause(text: str) -> tuple[str, str]:
    """(the symptom it names, the cause) one sentence states, or ("", "")."""
    flat = text.strip()
    if flat.endswith(("?", ":")) or _PLAN.match(flat) or flat.count("`") % 2:
        return "", ""
    trigger = ""
    match = _NAMED.match(flat) or _THIS_BECAUSE.match(flat) or _FOUND.match(flat)
    if match is None:
        match = _SYMPTOM_BECAUSE.match(flat)
        trigger = match.group("trigger") if match else ""
    if match is None and (match := _SO_SYMPTOM.match(flat)):
        trigger = match.group("trigger")
    if match is None and (match := _WANTS.match(flat)) and PRONOUN.match(flat):
        match = None  # "It wants …" names nothing
    if match is None and (match := _CAUSED_BY.match(flat) or _NAMED_BECAUSE.match(flat)):
        named = match.group("trigger")
        # "This error is due to …" names nothing a later reader would recognise.
        trigger = "" if named.lower().startswith(("this", "that")) else f"{named} shows up"
    if match is None:
        return "", ""
    cause = match.group("cause").strip().rstrip(".!")
    # "… failed because of a stale cache": the cause is what follows "of".
    cause = re.sub(r"^of\s+", "", cause, flags=re.IGNORECASE)
    cause = re.sub(r"^(?:The|A|An|Each|Every|Its)\b", lambda m: m.group(0).lower(), cause)
    said = f"{trigger} {cause}"
    if not MIN_CAUSE_CHARS <= len(cause) <= MAX_CAUSE_CHARS or len(cause.split()) < 4:
        return "", ""
    if PERSON.search(said) or HEDGE.search(said) or _TEST.search(said):
        return "", ""
    if _NO_CAUSE.match(cause):
        return "", ""
    return trigger, cause
