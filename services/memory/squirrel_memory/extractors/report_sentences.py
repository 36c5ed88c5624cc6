"""A reply's sentences read as statements about the code by their shape, backed by what the
session's tools showed.

A report's points are its paragraphs' lines and list items (a bold label kept as the point's
subject), outside code blocks, tables, quoted lines and sections whose heading asks. A sentence
of one is a statement (`stated_shape`) when it is built on a finite verb (or names the parts of
a summary, each with what it is in brackets), not asked, guessed, planned, addressed to the user
or told as the session's own step, and its subject is not only a pronoun; it is backed
(`backed_statement`) when every code span it names occurs in what the session's tools saw (a
qualified name such as `fx.Rate` by each of its parts as a word), it names no stack nothing
showed (`stack_mentions`), and it is no line of a file nor the user's words, quoted. A sentence
too long to quote whole, or opened by a short lead-in's colon, gives its first clause
(`clauses`).
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.report_statements import (
    FENCE,
    HEADING,
    ITEM,
    PLANNED,
    SENTENCE,
    statement,
)
from squirrel_memory.extractors.report_statements import MAX_CHARS as MAX_STATEMENT_CHARS
from squirrel_memory.extractors.stack_mentions import unshown_stack
from squirrel_memory.extractors.wording import plain_apostrophes, without_bold

MIN_SPANS = 1
MAX_LABEL_CHARS = 60
_LABEL = re.compile(r"^\*\*(?P<label>[^*]{1,80}?)[.:]?\*\*\s*[.:—-]?\s*")
_SPAN = re.compile(r"`([^`\n]+)`")
#: The user addressed: advice or a question for them, not a statement about the code.
_ADDRESSED = re.compile(r"\b(?:you|your|you're|you'll|you've|yours)\b", re.IGNORECASE)
#: A report of the session's own step: its first word a participle or a past form of doing.
_STEP = re.compile(
    r"^(?!(?:no|some|every|any)thing\b)(?:\w+ing|\w+ed|made|ran|set|put|wrote|built|kept|got|saw|did|done|left|split|"
    r"plan|saved)\b",
    re.IGNORECASE,
)
#: A step of the session told as done, or a check's result of the moment: a progress line.
_DONE = re.compile(
    r"\b(?:confirmed|executed|verified|updated|created|committed|pushed|saved|completed|"
    r"passes|passed|succeeded|ready to|(?:is|are|stays|stay) (?:clean|green))\b",
    re.IGNORECASE,
)
#: A finite verb the statement is built on: an auxiliary, a negation's or a copula.
_AUXILIARY = re.compile(
    r"\b(?:is|are|was|were|has|have|had|does|do|did|can|cannot|must|"
    r"isn't|aren't|wasn't|weren't|hasn't|haven't|doesn't|don't|didn't|can't|won't)\b",
    re.IGNORECASE,
)
_ARTICLE = frozenset(("the", "a", "an", "this", "that", "each", "every", "all", "both"))
#: A subject that is only a pronoun ("This is the `x` game — …", "It uses `y`."): it names
#: nothing a later reader can recognise (what the project is, the summaries rule says).
_PRONOUN_SUBJECT = re.compile(r"^(?:this|that|it|these|those|they|there|here)\b", re.IGNORECASE)
#: "Key: value" with no sentence around it ("Sessions: `sessions/`"), unlabelled.
_FRAGMENT = re.compile(r"^(?:[^\s:`]+\s+){0,2}[^\s:`]+:\s")
#: "`path/` — what it holds": a listing's item, the layout when the session looked into the
#: folder (`reply_layout`), its own work when it made it.
_PATH_LISTING = re.compile(r"^`[^`]+`\s*(?:[—–]+|-{1,2})\s")
#: The parts a summary names, each in backticks with what it is in brackets: "3 crates:
#: `core` (the engine), `rules` (every rule), `cli` (the binary)". A list without a gloss
#: ("Modules: `a`, `b`") names the parts and says nothing of them.
_PARTS = re.compile(
    r"^(?:(?:\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)\s+)?"
    r"(?:crates|modules|packages|layers|services|apps|components|libraries|tiers):\s*"
    r"`[^`\n]{1,80}`\s*\([^()\n]{1,160}\)"
    r"(?:[,;]\s+(?:and\s+)?`[^`\n]{1,80}`\s*\([^()\n]{1,160}\)){1,11}\.?$",
    re.IGNORECASE,
)
#: Parts a list of parts names at least.
MIN_PARTS = 2
#: A short lead-in closed by a colon, before a statement: "Settings are split: ".
_LEAD_IN = re.compile(r"^(?:[A-Za-z][\w'-]*\s+){1,4}[a-z][\w'-]*:\s+(?=[`A-Z])")
_PREPOSITIONS = frozenset(
    str.split("in of for from on at with under over by into onto to as about within without")
)
#: A qualified name: identifiers joined by `.`, `::` or `#`, maybe called (`Store::open()`).
_QUALIFIED = re.compile(r"^[A-Za-z_]\w*(?:(?:\.|::|#)[A-Za-z_]\w*)+(?:\(\))?$")


#: A heading or lead line over work still to do ("**Required changes before implementation:**",
#: "## Remaining work", "Action items:", "Next steps"): its items are steps, not statements.
_TO_DO_LEAD = re.compile(
    r"\b(?:(?:required|needed|suggested|recommended|proposed|remaining|pending) "
    r"(?:changes|fixes|work|tasks|items|steps)|changes (?:required|needed|to make)|next steps?|"
    r"to-?dos?|action items?|follow-?ups?|open (?:items|issues|questions)|recommendations?|"
    r"what'?s left|still to do|left to do|before (?:implementation|merg\w*|release|shipping))\b",
    re.IGNORECASE,
)
#: A lead line: a bold line alone, or a short line ending in a colon.
_LEAD_LINE = re.compile(r"^(?:\*\*[^*]{2,80}\*\*:?|[^`|>*-][^`]{1,70}:)$")


def report_points(report: str) -> list[tuple[str, list[str]]]:
    """(label, sentences) of each list item and paragraph line of `report`, outside code
    blocks, tables and quoted lines, under no heading that asks something or heads work still
    to do (`_TO_DO_LEAD`)."""
    found: list[tuple[str, list[str]]] = []
    asking = to_do = False
    for line in FENCE.sub(" ", plain_apostrophes(report)).splitlines():
        if heading := HEADING.match(line):
            title = heading.group("title")
            asking = title.rstrip("*: ").endswith("?")
            to_do = bool(_TO_DO_LEAD.search(title))
            continue
        stripped = line.strip()
        if _LEAD_LINE.match(stripped):
            to_do = bool(_TO_DO_LEAD.search(stripped))  # until the next heading or lead
            continue
        if asking or to_do or not stripped or stripped.startswith(("|", ">")):
            continue
        item = ITEM.match(line)
        body = item.group("body").strip() if item else stripped
        label = ""
        if bold := _LABEL.match(body):
            label, body = bold.group("label").strip(" .:`"), body[bold.end() :]
            if len(label) > MAX_LABEL_CHARS or "?" in label or "`" in label:
                continue
        if label and body[:1].islower():
            body = body[0].upper() + body[1:]  # the label is its lead-in: "**Cause:** the …"
        found.append((label, SENTENCE.split(body)))
    return found


def _has_verb(flat: str) -> bool:
    """Whether `flat` is built on a finite verb (an auxiliary, or a present-tense verb ending
    in -s after its subject: a code span or a word that is not an article), rather than a
    fragment ("Support for `.tar` archives.") or an instruction ("Aggregate deltas by `x`.")."""
    prose = _SPAN.sub(" SPAN ", flat)
    if _AUXILIARY.search(prose):
        return True
    words = re.findall(r"[\w'-]+", prose)
    # A code span opening the sentence is its subject: its verb comes right after it
    # ("`src/routes/index.ts` mounts every handler under `/api`."), unless a preposition
    # follows that word, a plural noun's ("`Serve` handlers in the `api` package").
    if words[:1] == ["SPAN"] and len(words) > 2 and words[2].lower() not in _PREPOSITIONS:
        second = words[1]
        if second.endswith("s") and not second.endswith("ss") and second.islower():
            return True
    for position in range(2, len(words) - 1):
        word, before = words[position], words[position - 1]
        verb = word.endswith("s") and not word.endswith("ss") and word.islower()
        if verb and (before == "SPAN" or (before.islower() and before not in _ARTICLE)):
            return True
    return False


def _shown(said: str, seen: str) -> bool:
    """Whether every code span of `said` occurs in what the session's tools saw: as it is, or,
    for a qualified name (`fx.Rate`, `Book#slug`, `Store::open()`), each of its parts as a
    word of its own (the file showed `package fx` and `func Rate`)."""
    spans = [s.strip() for s in _SPAN.findall(said)]
    return all(span in seen or _parts_shown(span, seen) for span in spans)


def _parts_shown(span: str, seen: str) -> bool:
    if not _QUALIFIED.match(span):
        return False
    parts = re.split(r"\.|::|#", span.removesuffix("()"))
    return all(re.search(rf"(?<!\w){re.escape(part)}(?!\w)", seen) for part in parts)


#: A consequence said as advice after a statement: ", so <something> would/should …".
_SO_ADVICE = re.compile(
    r",? so (?:(?!so )[\w`'.-]+ ){1,4}?(?:would|should|could|can|might)(?: [^,;]{1,160})?\.?$",
    re.IGNORECASE,
)


def clauses(raw: str) -> list[str]:
    """The first clause of a sentence too long to quote whole, or opened by a short lead-in's
    colon ("Settings are split: `base.py` holds …; `manage.py` selects …"): what stands before
    its first semicolon, after the lead-in, when it opens with a capital or a code span. A
    later clause may lean on an earlier one ("… registers them all"); a sentence short enough
    and without a lead-in was judged whole ("Slug now uses `parameterize`; the test passes."
    is a report of the work, whichever half is read)."""
    flat = " ".join(raw.split())
    advice = _SO_ADVICE.search(flat)
    if advice and advice.start() > 0:
        # "… never touches `Repo` directly, so refunds would belong in `Billing`": the advice
        # that follows from it is left off, the statement before it judged alone
        return [f"{flat[: advice.start()].rstrip(' ,')}."]
    lead = _LEAD_IN.match(flat)
    if not lead and len(flat) <= MAX_STATEMENT_CHARS:
        return []
    first = flat[lead.end() if lead else 0 :].split("; ")[0].strip()
    if first == flat or not (first[:1] == "`" or first[:1].isupper()):
        return []
    return [first]


def stated_shape(raw: str, label: str, *, min_spans: int = MIN_SPANS) -> str:
    """`raw`, a sentence of a reply under `label`, as a statement about the code, or "": built
    on a verb, not asked, guessed, planned, addressed to the user or told as the session's own
    step, its subject not only a pronoun, with `min_spans` code spans at least (with none
    asked, the caller says what the sentence must name)."""
    flat = " ".join(without_bold(raw).split())
    prose = _SPAN.sub(" ", flat)
    if _ADDRESSED.search(prose) or _DONE.search(prose) or _STEP.match(flat):
        return ""
    if _PRONOUN_SUBJECT.match(flat):
        return ""
    if _PARTS.match(flat):
        # the parts a summary names, each with what it is: a statement without a verb
        return statement(flat, labelled=True, min_spans=max(min_spans, MIN_PARTS), plans=PLANNED)
    if not _has_verb(flat):
        return ""
    if not label and (_FRAGMENT.match(flat) or _PATH_LISTING.match(flat)):
        return ""
    labelled = bool(label) or min_spans == 0
    return statement(flat, labelled=labelled, min_spans=min_spans, plans=PLANNED)


def backed_statement(raw: str, label: str, seen: str, said_by_user: str) -> str:
    """`raw`, a sentence of a reply under `label`, as a statement about the code that what the
    session's tools showed (`seen`) backs, or "": its shape `stated_shape`'s, every code span
    of it in `seen`, and not a line of `seen` or the user's words (`said_by_user`) quoted."""
    said = stated_shape(raw, label)
    if not said or not _shown(said, seen):
        return ""
    if unshown_stack(said, seen):
        return ""  # a database, framework or test runner named in passing that nothing showed
    probe = said.rstrip(".")
    if probe in seen or probe in " ".join(said_by_user.split()):
        return ""  # a file's words or the user's own, quoted
    if "'" in probe and probe in seen.replace("\u2019", "'"):
        return ""  # the same, its typographic apostrophes read as plain ones
    return said
