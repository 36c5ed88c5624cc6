"""Decisions the user made by picking one of the options the assistant laid out in its reply.

Without a question tool, the assistant offers the ways it sees in prose ("**Option A:** a
`--json` flag on each subcommand … **Option B:** one global `--format` option …", "1. Redis …
2. PostgreSQL …", "two ways: JSON files …, or SwiftData models …", "Should we keep that
tiebreaker, or drop it …?") and the user picks in a few words ("B", "go with option 2", "the
first one, but keep the old flag", "vamos con la opción A", "nimm Variante 2", "drop the
tiebreaker"). The choice settles the project's design; a later session that does not know it
offers the same options again or builds the other one. The rule is the same in every project:

- the main agent's reply (outside code blocks) lays out two to five options: labelled ones
  ("Option A:", "Opción B:", "Variante 2:", "A)", "1.", "(a)", a bold name heading a line),
  two ways after a colon joined by "or", or one question "should we <verb> …, or <verb> …?";
  a reply that asks what to do next ("What next?", "Want me to …", "Which should I fix
  first?"), whose options are the assistant's next step (commit, push, continue, run the
  tests) or are questions of their own ("1. Which database?") decides nothing lasting and is
  not read;
- the user's next message, before the assistant speaks again, opens with the pick: a label
  of the options' kind ("B" for lettered ones, "option 2" for numbered ones, "the second", "la
  opción A", "the simpler approach"), after at most a few words of lead-in ("go with", "let's
  do", "vamos con", "nimm"), or the verb that opens one side of the question ("drop …"); a
  message with a question mark is a question back, not a pick;
- a message right after that takes the pick back ("actually, A") replaces it when it picks
  again, and drops it otherwise.

It becomes one project fact quoting the chosen option as the assistant wrote it, and what it was
chosen over when the options were labelled: "The user chose "<option>" over "<other>"." with the
user's own words when they said more than the pick. Options and answers are quoted short.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from squirrel_memory.extractors.activity import user_words
from squirrel_memory.extractors.answered_questions import KEY_PREFIX
from squirrel_memory.extractors.prose_answers import answered_replies
from squirrel_memory.extractors.wording import key_slug
from squirrel_memory.models import StoredEvent

#: A decision in dialogue: as one answered in prose (0.6).
IMPORTANCE = 0.6
MIN_OPTIONS = 2
MAX_OPTIONS = 5
MAX_OPTION_CHARS = 160
MAX_WORDS_CHARS = 140
#: Longest user message read as a pick (words).
MAX_PICK_WORDS = 30

_CODE_BLOCK = re.compile(r"```.*?(?:```|$)", re.DOTALL)
#: "Option A:", "**Opción B:**", "### Option A —", "Variante 2:".
_NAMED_LABEL = re.compile(
    r"(?<!\w)(?:#{1,4}[ \t]*)?(?:\*\*|__)?(?:option|opci[oó]n|variante?|choice|approach)"
    r"[ \t]+([A-Ea-e1-5])(?!\w)(?:\*\*|__)?[ \t]*(?:[:.)—–]|-(?!\w))[ \t]*(?:\*\*|__)?[ \t]*",
    re.IGNORECASE,
)
#: "A) …", "1. …", "(a) …" opening a line.
_LINE_LABEL = re.compile(r"(?m)^[ \t]*(?:[-*][ \t]+)?(?:\*\*)?\(?([A-Ea-e1-5])[).](?:\*\*)?[ \t]+")
#: "(a) …" after a colon, a comma or an "or".
_INLINE_LABEL = re.compile(r"(?:(?<=[:,;] )|(?<=\bor ))\(([a-e])\)[ \t]+")
#: "**Simpler approach:** …" opening a line (a bullet allowed).
_BOLD_LABEL = re.compile(r"(?m)^[ \t]*(?:[-*][ \t]+)?\*\*([^*:\n]{3,40}?):?\*\*:?[ \t]+")
#: "I see two ways: X, or Y."
_TWO_WAYS = re.compile(
    r"\b(?:two|2)[ \t]+(?:ways|options|approaches|possibilities)\b[^:\n]{0,40}:[ \t]*([^\n]+)",
    re.IGNORECASE,
)
#: "Should we keep that tiebreaker, or drop it …?"
_OR_QUESTION = re.compile(
    r"(?:^|(?<=[.:!] ))(?:should|shall|do)[ \t]+(?:we|i)[ \t]+([a-z]+)\b([^?\n]{3,200}?),?"
    r"[ \t]{1,3}or[ \t]{1,3}([a-z]+)\b([^?\n]{0,200})\?",
    re.IGNORECASE,
)
#: Words of a reply that offers a choice.
_CHOICE_WORDS = re.compile(
    r"\b(?:options?|ways?|approaches|alternatives|choices?|possibilities|which|prefer|recommend|"
    r"opci[oó]n|opciones|variante[n]?|welche|laquelle|cu[aá]l|deux)\b",
    re.IGNORECASE,
)
#: A reply that asks for the next step, or an option that is the assistant's next step.
_NEXT_STEP = re.compile(
    r"\bwhat(?:'s| is)?[ \t]+next\b|\bnext[ \t]+steps?\b|\b(?:want|like)[ \t]+me[ \t]+to\b|"
    r"\bwhich\b[^.?!\n]{0,60}\b(?:first|start with)\b",
    re.IGNORECASE,
)
_STEP_OPTION = re.compile(
    r"^(?:commit|push|merge|continue|keep going|stop|pause|wait|proceed|move on|finish|revert|"
    r"run (?:the )?(?:tests?|suite|build))\b",
    re.IGNORECASE,
)
#: Alternatives in time ("now or after the refactor"): the next step.
_WHEN = re.compile(r"(?<!for )\bnow,?[ \t]+or\b|\bor[ \t]+(?:after|before|later|first)\b")
#: Lead-in words before the pick, in a few languages.
_LEAD = re.compile(
    r"^(?:ok(?:ay)?|great|sounds good|yes|sure|let'?s|let us|go|with|for|do|use|pick|take|choose|"
    r"i'?ll|i'?d|we'?ll|going|vamos|con|nimm|nehmen|wir|on|part|sur|je|prends|prenons|"
    r"elijo|usa|usemos)\b[ \t,!.]*",
    re.IGNORECASE,
)
_ARTICLE = re.compile(r"^(?:the|la|el|le|l'|die|der|das)[ \t]*", re.IGNORECASE)
_LABEL_WORD = re.compile(r"^(?:option|opci[oó]n|variante?|choice|approach|number)[ \t]+", re.I)
_PICKED = re.compile(
    r"^\(?([a-e1-5]|first|second|third|1st|2nd|3rd|erste|zweite|primera|segunda|première|"
    r"deuxième)\)?(?:[ \t]+(?:one|option|approach|way|please|pls))?(?=$|[ \t]*[,.;:!—–-]|"
    r"[ \t]+(?:but|and|with|then|since|because|as)\b)",
    re.IGNORECASE,
)
_ORDINALS = {
    "first": 0, "1st": 0, "erste": 0, "primera": 0, "première": 0,
    "second": 1, "2nd": 1, "zweite": 1, "segunda": 1, "deuxième": 1,
    "third": 2, "3rd": 2,
}  # fmt: skip
_TAKEN_BACK = re.compile(
    r"^\s*(?:actually|wait|no wait|scratch that|on second thought|hmm)\b[ \t,.!]*", re.IGNORECASE
)
#: A question's end; ", or " between two ways; a trailing "or" or "and" left by a cut.
_QUESTION_MARK = re.compile(r"\?(?=\s|$)")
_OR = re.compile(r",?[ \t]{1,3}or[ \t]{1,3}")
_TRAILING_JOIN = re.compile(r"(?<![ \t,;])[ \t,;]+(?:or|and)$")
_SENTENCE_END = re.compile(r"(?<=[.!])[ \t]+(?=[A-Z(*`])")


@dataclass(frozen=True, slots=True)
class Offer:
    """The options one reply laid out: their labels (lower case) and texts; `labelled` when
    they can be named apart (a choice between them can say what it was chosen over)."""

    labels: tuple[str, ...]
    texts: tuple[str, ...]
    labelled: bool = True
    verbs: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ChosenOption:
    """One pick: key, statement and the reply's and the pick's events."""

    key: str
    content: str
    event_ids: tuple[str, ...]


def _flat(text: str) -> str:
    return " ".join(text.replace('"', "'").split())


def _option_text(raw: str) -> str:
    """An option's words: its first line (a short heading joined to the line under it), cut at
    its first sentence and at `MAX_OPTION_CHARS`."""
    lines = [line.strip() for line in raw.strip().split("\n")]
    text = lines[0] if lines else ""
    if len(text.split()) < 4 and len(lines) > 1 and lines[1]:
        text = f"{text}: {lines[1]}" if text else lines[1]
    text = _SENTENCE_END.split(text, maxsplit=1)[0]
    text = _TRAILING_JOIN.sub("", text.strip()).strip(" ,;")
    flat = _flat(text.replace("**", ""))
    if len(flat) > MAX_OPTION_CHARS:
        flat = flat[:MAX_OPTION_CHARS].rsplit(" ", 1)[0].rstrip(",;:") + " …"
    return flat if flat.count("`") % 2 == 0 else flat.replace("`", "")


def _paragraph(prose: str, start: int, end: int) -> str:
    """The words of `prose` from `start` to `end` or to the first blank line."""
    return prose[start:end].split("\n\n", maxsplit=1)[0]


def _labelled(prose: str, pattern: re.Pattern[str]) -> Offer | None:
    """The options `pattern`'s labels open, when they run A, B, … or 1, 2, … in order."""
    marks = list(pattern.finditer(prose))
    if not MIN_OPTIONS <= len(marks) <= MAX_OPTIONS:
        return None
    labels = tuple(m.group(1).lower() for m in marks)
    if labels != tuple("abcde"[: len(labels)]) and labels != tuple("12345"[: len(labels)]):
        return None
    ends = [m.start() for m in marks[1:]] + [len(prose)]
    texts = tuple(
        _option_text(_paragraph(prose, m.end(), e)) for m, e in zip(marks, ends, strict=True)
    )
    return Offer(labels, texts) if all(texts) else None


def _named(prose: str) -> Offer | None:
    """Options each opened by a bold name ("**Simpler approach:** …")."""
    marks = list(_BOLD_LABEL.finditer(prose))
    if not MIN_OPTIONS <= len(marks) <= MAX_OPTIONS:
        return None
    ends = [m.start() for m in marks[1:]] + [len(prose)]
    labels = tuple(" ".join(m.group(1).lower().split()) for m in marks)
    texts = tuple(
        _option_text(_paragraph(prose, m.end(), e)) for m, e in zip(marks, ends, strict=True)
    )
    return Offer(labels, texts) if all(texts) and len(set(labels)) == len(labels) else None


def offer(text: str) -> Offer | None:
    """The options a reply lays out (module docstring), or None."""
    prose = _CODE_BLOCK.sub(" ", text)
    if _NEXT_STEP.search(prose):
        return None
    found = None
    if _CHOICE_WORDS.search(prose):
        for pattern in (_NAMED_LABEL, _INLINE_LABEL, _LINE_LABEL):
            if (found := _labelled(prose, pattern)) is not None:
                break
        found = found or _named(prose) or _two_ways(prose)
    found = found or _or_question(prose)
    if found is None or any(_STEP_OPTION.match(t) or t.endswith("?") for t in found.texts):
        return None
    return found


def _two_ways(prose: str) -> Offer | None:
    """'two ways: X, or Y.' as two unlabelled options."""
    match = _TWO_WAYS.search(prose)
    if match is None:
        return None
    sentence = _SENTENCE_END.split(match.group(1), maxsplit=1)[0]
    sides = _OR.split(sentence)
    if len(sides) != MIN_OPTIONS or _WHEN.search(sentence):
        return None
    texts = tuple(_option_text(side) for side in sides)
    return Offer(("1", "2"), texts, labelled=False) if all(texts) else None


def _or_question(prose: str) -> Offer | None:
    """'Should we <verb> X, or <verb> Y?' as two options named by their verbs."""
    match = _OR_QUESTION.search(prose)
    if match is None or len(_QUESTION_MARK.findall(prose)) != 1 or _WHEN.search(match.group(0)):
        return None
    first = _option_text(f"{match.group(1)}{match.group(2)}")
    second = _option_text(f"{match.group(3)}{match.group(4)}")
    verbs = (match.group(1).lower(), match.group(3).lower())
    if verbs[0] == verbs[1]:
        return None
    return Offer(("1", "2"), (first, second), labelled=False, verbs=verbs)


def pick(said: str, options: Offer) -> int | None:
    """The index of the option the user's message picks (module docstring), or None."""
    found = _picked(said, options)
    return found[0] if found else None


def _picked(said: str, options: Offer) -> tuple[int, str] | None:
    """The index of the option `said` picks and the words after the pick."""
    words = said.strip()
    if not words or "?" in words or len(words.split()) > MAX_PICK_WORDS:
        return None
    rest = words
    for _ in range(4):
        rest = _LEAD.sub("", rest, count=1)
    rest = _LABEL_WORD.sub("", _ARTICLE.sub("", rest, count=1), count=1)
    low = rest.lower()
    if options.verbs:
        first = re.match(r"[a-z]+", low)
        stem = first.group(0) if first else ""
        forms = [(v, f"{v}ed", f"{v}s") for v in options.verbs]
        hits = [i for i, words_of in enumerate(forms) if stem in words_of]
        return (hits[0], rest) if len(hits) == 1 else None
    for index, label in enumerate(options.labels):
        if len(label) > 1 and re.match(rf"{re.escape(label)}\b", low):
            return index, rest[len(label) :]
    found = _PICKED.match(rest)
    if found is None:
        return None
    label = found.group(1).lower()
    if label in _ORDINALS:
        index = _ORDINALS[label]
    elif label.isdigit() != options.labels[0].isdigit():
        return None  # a letter for numbered options, or a number for lettered ones
    elif label.isdigit():
        index = int(label) - 1
    else:
        index = "abcde".index(label)
    return (index, rest[found.end() :]) if index < len(options.texts) else None


def _statement(options: Offer, index: int, said: str, more: str) -> str:
    """The decision's words: the option chosen, what it was chosen over, and the user's own
    words when they said more than the pick."""
    chosen = options.texts[index].rstrip(".")
    others = [t.rstrip(".") for i, t in enumerate(options.texts) if i != index]
    if options.verbs:
        content = f"The user chose to {chosen}"
    else:
        content = f'The user chose "{chosen}"'
        if options.labelled or len(options.texts) == MIN_OPTIONS:
            content += " over " + " and ".join(f'"{o}"' for o in others)
    extra = _flat(said)
    if options.verbs or len(re.findall(r"\w+", more)) > 1:
        if len(extra) > MAX_WORDS_CHARS:
            extra = extra[:MAX_WORDS_CHARS].rsplit(" ", 1)[0].rstrip(",;:") + " …"
        content += f' (the user: "{extra}")'
    return content + "."


def chosen_options(events: list[StoredEvent]) -> list[ChosenOption]:
    """The decisions the user's picks among the options the assistant laid out record."""
    found: dict[str, ChosenOption] = {}
    for event, options, later in answered_replies(events, offer):
        said = user_words(later[0])
        picked = _picked(said, options)
        if picked is None:
            continue
        answer = later[0]
        if len(later) > 1 and (back := _TAKEN_BACK.match(user_words(later[1]))):
            said = user_words(later[1])[back.end() :]
            picked = _picked(said, options)
            if picked is None:
                continue
            answer = later[1]
        index, more = picked
        content = _statement(options, index, said, more)
        key = KEY_PREFIX + (key_slug(options.texts[index]) or event.id)
        found[key] = ChosenOption(key, content, (event.id, answer.id))
    return list(found.values())
