"""A way of working the user asks for as their wish, and a state of the project they say is
deliberate.

Users often give how they want the work carried, once, in the words of a wish rather than a
rule: "I want you to act as my project coordinator, delegating actual work to workers", "I want
to minimize the diff to main and reuse the audited logic", "your standing job will be to keep
track of the loose threads". And when the assistant takes a state of the project for a mistake,
they say it is meant: "`vendor/` is committed on purpose", ".claude/* is gitignored
intentionally". The instruction forms (`preferences`) read neither: the wish is no imperative,
and the statement is about a thing, not what to do.

What decides is the evidence's shape, the same in every ecosystem, never its words:

- **Who said it**: only the user's own messages reach this (`rules._preferences`); a sentence
  that asks (ends with "?") or quotes someone else is not read.
- **A wish about a way, not a task**: what follows the wish's lead is a verb phrase whose
  object is no single named thing. A definite or new thing ("fix the login test", "add a dark
  mode toggle", "look at it"), a name from the code, a path, a URL or the task's own time
  words ("for now", "these") make it the task at hand, and nothing is kept; nor when the
  user goes on to say what they do themselves ("I want to commit, realize I need to pull
  first, …" tells a story of their own work).
- **A way, not a new piece of work**: "I want you to add pagination" asks for work as much
  as "I want you to act as my reviewer" asks for a way. A wish is kept only with a shape a
  request for work lacks: said as a standing job or with a rule word ("your standing job is
  to …", "from now on"), a role given to the assistant ("act as my …", "be my …"), stressed
  ("it's imperative that you …"), or taking up the words of the user's own previous message
  when that asked a question ("does this minimize the diff?" … "I want to minimize the diff
  to main"): the user comes back to a concern they raised, a judgement of the approach at
  hand. The assistant's words are not read ("yes, I want you to add the cache" after "Shall I
  add a cache?" accepts a proposal), nor a previous request ("add the coupon field" … "I want
  you to cache coupon lookups" is the next task on the same subject). A refusal ("I don't
  want to use Redux") needs none of these: it rules a means out.
- **Whether it answers what the assistant did**: said right after the assistant acted, the
  wish redirects its way of working (a correction: one step up); said as a standing job
  ("your standing job is to …", "from now on") it is a rule; else it is tentative and waits,
  like every instruction said once, to recur in another session (`recurrence`).
- **A deliberate state**: a named thing (a path, a file, a folder, a setting), never a
  pronoun, said by the user to be in its state "intentionally", "on purpose", "deliberately"
  or "by design". It is kept for this project as what not to undo, in the user's words.

Each memory quotes what the user said (a habit is stated by what the evidence shows, not
paraphrased into a broader rule).
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.firmness import (
    CORRECTION_STEP,
    CORRECTION_TAG,
    EMPHASIS_STEP,
    EMPHASIS_TAG,
    STANDING_IMPORTANCE,
    STANDING_TAG,
    TENTATIVE_IMPORTANCE,
    TENTATIVE_TAG,
    StatedPreference,
)
from squirrel_memory.extractors.instruction_keys import instruction_key, topic
from squirrel_memory.extractors.instruction_parts import ONE_OFF
from squirrel_memory.extractors.own_words import own_words
from squirrel_memory.extractors.wording import strip_markdown, word_set
from squirrel_memory.models import Scope

#: The tag of a way of working said as the user's wish, and of a state said to be deliberate.
WISH_TAG = "wish"
DELIBERATE_TAG = "deliberate"
#: The longest sentence read (a longer one is a pasted document or a story), and the longest
#: quote kept (cut at its last comma before it).
MAX_SENTENCE_CHARS = 400
MAX_QUOTE_CHARS = 180
#: Fewest words after the wish's verb: "I want you to help" says nothing of how; a refusal
#: may be shorter ("I don't want to use Redux").
MIN_WISH_WORDS = 3
MIN_REFUSAL_WORDS = 2

_ASIDE = re.compile(r"\s*\([^()]{0,240}\)")
_SENTENCES = re.compile(r"(?<=[.!;?])\s+|\n+")
#: A new wish of the speaker's own inside a sentence, after a comma, a semicolon or a slash
#: typed as one ("keep the rules high level/i don't wanna force users …"): a clause of its own.
_NEXT_WISH = re.compile(
    r"(?:[,;]\s+|(?<=\w)/\s*)"
    r"(?=i\s+(?:really\s+|also\s+|just\s+)?(?:don'?t\s+|do not\s+)?"
    r"(?:wanna|(?:want|need|would like|'d like)\s+(?:you\s+)?to)\s)",
    re.IGNORECASE,
)
_LEAD_IN = re.compile(
    r"^(?:(?:ok|okay|so|and|also|but|well|yes|yeah|now|then|please)\b[,:]?\s*)+",
    re.IGNORECASE,
)
#: The wish's lead: "I want you to", "I'd like to", "I need you to", "I don't want you to"
#: ("I don't wanna"), "your job is to", "it's imperative that you" (with "here's" as typed for
#: "here it's"), "my overall goal is to" (a goal for the whole project: standing).
_WISH = re.compile(
    r"(?:^|[,;:]\s+|\b(?:but|and)\s+)"
    r"(?P<lead>(?:i\s+(?:really\s+|also\s+|just\s+)?(?P<neg>don'?t\s+|do not\s+)?"
    # "… but dont want to use any of these": the speaker left out, as typed in a hurry
    r"|(?P<bare>don'?t\s+|do not\s+))"
    r"(?:(?:want|need|would like|'d like)\s+(?P<you>you\s+)?to|wanna)"
    r"|your\s+(?P<standing>standing\s+|ongoing\s+|permanent\s+)?(?:main\s+|only\s+|first\s+)?"
    r"(?:job|role)\s+(?:is|will be)\s+to"
    # the user's goal for the whole project, not the task: "my high level goal is to keep …"
    r"|(?:my|our)\s+(?P<goal>(?:high[- ]level|overall|long[- ]term|ultimate|end)\s+goals?)"
    r"\s+(?:is|are|here is)\s+to"
    r"|(?:it|here)'?s\s+(?P<stress>imperative|essential|vital|crucial)\s+(?:that\s+)?you)"
    r"\s+(?P<x>.+)$",
    re.IGNORECASE,
)
#: Words after which no verb follows, or that make the verb's object one thing of the task.
_NOT_A_WAY = word_set(
    "the a an this that these those it its them me us him her one some something anything ",
    "everything what why how where when which who if whether know see understand",
)
#: A name from the code, a path, a file, a command's flag, a URL or a number: one thing.
_CODE_NAME = re.compile(
    r"\b[a-z]+[A-Z]\w*|\b\w+_\w+|\w/\w|\w\.\w{1,4}\b|`|https?://|\d{2,}|(?:^|\s)--?[a-z]"
)
#: Where a quote is cut: the reason or the next request after the wish.
_QUOTE_END = re.compile(r",\s+(?=(?:so that|because|since|while|which|then)\b)", re.IGNORECASE)
_STANDING = re.compile(
    r"\b(?:always|never|from now on|going forward|at all times|every time|whenever)\b",
    re.IGNORECASE,
)
#: "`.claude/*` is gitignored intentionally", "vendor/ is committed on purpose", "the lock
#: file is deliberately not committed": a named thing, its state, the word that it is meant.
_MEANT = r"(?:intentionally|on purpose|deliberately|by design)"
_THING = r"(?P<thing>`[^`]{1,80}`|[\w.*/@-]+(?:\s+[\w.*/@-]+){0,3}?)"
_DELIBERATE = re.compile(
    rf"(?:^|[,;:]\s+|\b(?:but|and)\s+){_THING}\s+(?P<verb>is|are)\s+"
    rf"(?:(?P<state>(?:not\s+)?[\w-]+(?:\s+[\w-]+)?)\s+{_MEANT}|{_MEANT}\s+"
    rf"(?P<state2>(?:not\s+)?[\w-]+(?:\s+[\w-]+)?))\b",
    re.IGNORECASE,
)
_PRONOUN = re.compile(
    r"^(?:it|this|that|these|those|they|which|what|i|we|you|he|she|there|here|one|all|"
    r"everything|something|nothing)$",
    re.IGNORECASE,
)


def said_sentences(text: str) -> list[str]:
    """The user's own sentences (`own_words`), without asides in brackets; a new wish inside a
    sentence (`_NEXT_WISH`) is a sentence of its own."""
    text = own_words(text)
    # a typographic apostrophe ("don’t", "here’s", as phones and some editors type it)
    text = _ASIDE.sub("", strip_markdown(text)).replace("’", "'")
    found: list[str] = []
    for raw in _SENTENCES.split(text):
        said = " ".join(raw.split())
        if said and len(said) <= MAX_SENTENCE_CHARS and not said.endswith("?"):
            found.extend(_LEAD_IN.sub("", clause) for clause in _NEXT_WISH.split(said))
    return found


def quoted(text: str) -> str:
    """The user's words up to where the reason or the next request begins, at most
    `MAX_QUOTE_CHARS` long (cut at a comma), without end punctuation."""
    text = _QUOTE_END.split(text, maxsplit=1)[0].strip(" ,;:.!")
    if len(text) > MAX_QUOTE_CHARS:
        cut = text[:MAX_QUOTE_CHARS]
        text = cut[: cut.rfind(",")] if "," in cut else ""
    return text.strip(" ,;:")


def _is_way(words: str, *, least: int = MIN_WISH_WORDS, goal: bool = False) -> bool:
    """Whether the words after the wish's lead are a way of working: a verb first, then no
    single named thing of the task. A goal for the whole project names what it keeps ("keep
    the public API stable"): its object may be definite."""
    tokens = re.findall(r"[\w'’-]+", words.lower())
    if len(tokens) < least or not re.fullmatch(r"[a-z][a-z-]+", tokens[0]):
        return False
    if tokens[0] in _NOT_A_WAY or (tokens[1] in _NOT_A_WAY and not goal):
        return False
    if "i" in tokens or "i'm" in tokens or "i’m" in tokens:
        return False  # "I want to commit, realize I need to pull first": the user's own acts
    # the task's time words ("for now", "these") in the verb's own phrase, before any comma
    return not _CODE_NAME.search(words) and not ONE_OFF.search(words.split(",", 1)[0])


def wanted_ways(
    text: str, *, after_assistant_action: bool, root: str = "", before: str = ""
) -> list[StatedPreference]:
    """The ways of working the user's message asks for as a wish, and the states of the
    project it says are deliberate (see the module's docstring); paths under `root` (the
    project's folder) are named relative to it; `before` is the user's own previous
    message."""
    found: list[StatedPreference] = []
    for said in said_sentences(text):
        if (wish := _wish(said, after_assistant_action, root, before)) is not None:
            found.append(wish)
        elif (meant := _deliberate(said, after_assistant_action)) is not None:
            found.append(meant)
    return found


def _wish(
    said: str, after_assistant_action: bool, root: str, before: str
) -> StatedPreference | None:
    match = _WISH.search(said)
    if match is None:
        return None
    way = quoted(match.group("x"))
    quote = quoted(said[match.start("lead") :])
    negative = bool(match.group("neg") or match.group("bare"))
    if negative and (refused := _refused(way, said[: match.start()], root)):
        return _refusal(refused, quote, after_assistant_action)
    least = MIN_REFUSAL_WORDS if negative else MIN_WISH_WORDS
    goal = bool(match.group("goal"))
    if not _is_way(way, least=least, goal=goal) or (goal and not _KEEPING.match(way)):
        return None
    standing = bool(match.group("standing") or match.group("goal")) or bool(_STANDING.search(said))
    stressed = bool(match.group("stress"))
    if not (negative or standing or stressed or _ROLE.match(way) or _takes_up(way, before)):
        return None  # "I want you to add pagination": a request for work, not a way
    kind = STANDING_TAG if standing else TENTATIVE_TAG
    importance = STANDING_IMPORTANCE if standing else TENTATIVE_IMPORTANCE
    correction = after_assistant_action and not standing
    if correction:
        importance += CORRECTION_STEP
    if stressed:
        importance += EMPHASIS_STEP
    marks = (CORRECTION_TAG if correction else None, EMPHASIS_TAG if stressed else None)
    said_as = (
        "does not want this"
        if negative
        else "states a goal for the whole project"
        if goal
        else "wants this way of working"
    )
    return StatedPreference(
        key=instruction_key(way),
        content=f"The user {said_as}, in their words: “{quote}”.",
        tags=tuple(t for t in ("preference", topic(way), kind, WISH_TAG, *marks) if t),
        scope=Scope.USER,
        importance=round(importance, 3),
        correction=correction,
        standing=standing,
    )


#: A goal for the whole project holds for every later change: it keeps something as it is
#: ("keep the public API stable", "make sure it runs offline", "avoid new dependencies"), where
#: "fix the login test" is a task, however it is called.
_KEEPING = re.compile(
    r"^(?:keep|stay|remain|maintain|preserve|ensure|make sure|avoid|support|stick)\b", re.I
)
#: A role given to the assistant: "act as my reviewer", "be my project coordinator".
_ROLE = re.compile(r"^(?:act|serve|work)\s+as\s+(?:my|our|a|an|the)\s|^be\s+(?:my|our)\s", re.I)
#: Fewest words (of `MIN_TAKEN_CHARS` letters or more) a wish shares with the user's previous
#: message to take it up.
MIN_TAKEN_WORDS = 2
MIN_TAKEN_CHARS = 4


def _content_words(text: str) -> set[str]:
    """Words of `MIN_TAKEN_CHARS` letters or more, a plural's "s" off."""
    words = re.findall(rf"[a-z][a-z-]{{{MIN_TAKEN_CHARS - 1},}}", text.lower())
    return {w[:-1] if w.endswith("s") and not w.endswith("ss") else w for w in words}


def _takes_up(way: str, before: str) -> bool:
    """Whether the wish takes up the words of the user's previous message, a question."""
    if not before.rstrip().endswith("?"):
        return False
    return len(_content_words(way) & _content_words(before)) >= MIN_TAKEN_WORDS


#: "use any of these", "use them", "touch it": a refused means named by a pronoun.
_POINTED = re.compile(
    r"^(?P<verb>[a-z][a-z-]+)\s+(?P<any>(?:any|all|either|one)\s+of\s+)?"
    r"(?P<pronoun>it|them|these|those|this|that)\s*$",
    re.IGNORECASE,
)
#: A named thing a pronoun can point back to: a code span, a path or a file name.
_NAMED = re.compile(r"`[^`]{1,120}`|(?<![\w/.-])(?:[\w.~-]*/)+[\w.*-]+|\b[\w-]+\.[a-z]{1,5}\b")


def _refused(way: str, before: str, root: str) -> str | None:
    """ "use any of these" after a sentence that named `challenge/list.md`: the refusal with
    the pronoun replaced by the last thing named before it, or None."""
    pointed = _POINTED.match(way)
    named = _NAMED.findall(before)
    if pointed is None or not named:
        return None
    thing = named[-1].strip("`").rstrip(".,;:")
    home = root.rstrip("/") + "/"
    if root and thing.startswith(home):
        thing = thing[len(home) :]
    elif thing.startswith(("/", "~")):
        thing = thing.rsplit("/", 1)[-1]  # outside the project: its name, not the machine's path
    return f"{pointed.group('verb').lower()} {pointed.group('any') or ''}`{thing}`"


def _refusal(refused: str, quote: str, after_assistant_action: bool) -> StatedPreference:
    """A means the user refused for this project, named by what it points back to."""
    importance = TENTATIVE_IMPORTANCE + (CORRECTION_STEP if after_assistant_action else 0.0)
    tags = (
        "preference",
        topic(refused),
        TENTATIVE_TAG,
        WISH_TAG,
        CORRECTION_TAG if after_assistant_action else None,
    )
    return StatedPreference(
        key=instruction_key(refused),
        content=f"The user does not want to {refused}, in their words: “{quote}”.",
        tags=tuple(t for t in tags if t),
        scope=Scope.PROJECT,
        importance=round(importance, 3),
        correction=after_assistant_action,
    )


def _deliberate(said: str, after_assistant_action: bool) -> StatedPreference | None:
    match = _DELIBERATE.search(said)
    if match is None:
        return None
    thing = match.group("thing").strip()
    bare = thing.strip("`")
    head = bare.split()[0] if bare.split() else ""
    if not bare or _PRONOUN.match(bare) or _PRONOUN.match(head):
        return None
    state = " ".join((match.group("state") or match.group("state2") or "").split())
    if not state or _PRONOUN.match(state.split()[-1]):
        return None
    named = thing if thing.startswith("`") or not re.search(r"[/.*]", thing) else f"`{thing}`"
    importance = TENTATIVE_IMPORTANCE + (CORRECTION_STEP if after_assistant_action else 0.0)
    tags = ("preference", TENTATIVE_TAG, DELIBERATE_TAG, CORRECTION_TAG)
    return StatedPreference(
        key=instruction_key(f"{bare} {state}"),
        content=(
            f"The user says {named} {match.group('verb').lower()} {state} on purpose: "
            "a deliberate choice, not to be undone."
        ),
        tags=tags if after_assistant_action else tags[:-1],
        scope=Scope.PROJECT,
        importance=round(importance, 3),
        correction=after_assistant_action,
    )
