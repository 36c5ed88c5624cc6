"""A directive the user gives with the team's way or their own taste as its reason: "don't use
var for non-obvious types, we spell them out", "don't call the encoder directly, we use the
framework's wrapper everywhere", "don't add comments to the code, I find them noisy", "we run
the tool through a version manager here, so use the wrapper, not the bare tool", "don't mock
the database in these tests, we got burned by that". The reason
says the directive holds for all later work, as a rule word would; a reason tied to the moment
("…, we need it for the demo", "…, we did that yesterday", "…, we use it in the build") says
nothing of the kind.
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.wording import word_set

#: The team's way after a comma: "…, we spell them out", "…, since we always test in Debug".
_TEAM_WAY = re.compile(
    r",\s+(?:(?:since|because|as)\s+)?we\s+(?:(?:always|usually|all|generally)\s+)?"
    r"(?P<verb>[a-z]+)\b(?P<rest>[^,;]*)$",
    re.IGNORECASE,
)
#: The user's taste after a comma: "…, I find them noisy", "…, I can't stand them".
_TASTE = re.compile(
    r",\s+(?:(?:since|because|as)\s+)?i\s+(?:find\s+(?:them|those|these)\s+[a-z]+|"
    r"(?:hate|dislike|can'?t stand)\s+(?:them|those|these))\b[^,;]*$"
    # "…, that's how I like it", "…, that's the way I like them", "…, I prefer it that way"
    r"|,\s+(?:that'?s|that\s+is)\s+(?:how|the\s+way)\s+(?:i|we)\s+(?:like|prefer|want)\s+"
    r"(?:it|them|things|my\s+\w+)(?:\s+(?:done|written|kept))?\s*$"
    r"|,\s+(?:i|we)\s+prefer\s+(?:it|them)\s+that\s+way\s*$",
    re.IGNORECASE,
)
#: A lesson the team learned as the reason: "…, we got burned by that last year", "… — it bit
#: us before", "… — that's how everything in this codebase is done", "…; every hierarchy we
#: had turned into a pain". What went wrong before, or how all the code is written, holds for
#: later work.
_LESSON = re.compile(
    r"(?:[,;:]|\s[—–-])\s*(?:(?:since|because|as)\s+)?(?:"
    r"we(?:'ve|\s+have)?\s+(?:got|been|were|get)\s+(?:burn(?:ed|t)|bitten)\b|"
    r"(?:it|that|this|they)(?:'s|\s+has|\s+have)?\s+(?:bit|bitten|burn(?:ed|t))\s+us\b|"
    r"that'?s\s+how\s+(?:everything|all\s+the\s+code|things|we\s+do\s+(?:it|things))\s+"
    r"(?:is\s+|are\s+)?(?:done\s+|written\s+)?(?:here|everywhere|in\s+this\s+(?:codebase|code\s+base|"
    r"repo|repository|project))\b|"
    r"every\s+[\w-]+\s+we(?:'ve)?\s+(?:had|tried|built|wrote)\s+(?:turned|became|ended\s+up)\b|"
    # "…, that takes forever here": a cost of the project, every time
    r"(?:it|that|this)(?:'s|\s+is|\s+takes)\s+(?:forever|ages|too\s+(?:slow|long))\s+"
    r"(?:here|in\s+this\s+(?:codebase|repo|repository|project))\b)",
    re.IGNORECASE,
)
#: Words after "we" that say what the team needs, did or will do, not how it works.
_NOT_A_WAY = word_set(
    "are were was will would need needs should can could did had have has want wanted just ",
    "already might may must still also only don't do does got get going re ll ve d",
)
#: A reason about one thing of the moment ("we use it in the build", "we need that one").
_ONE_THING = re.compile(r"\b(?:it|this|that|yet|now|today|tomorrow)\b", re.IGNORECASE)
#: Where the reason's own reason starts ("… everywhere so we can swap it").
_REASON_OF_REASON = re.compile(r"\s+(?:so|because|since|as)\s+.*$", re.IGNORECASE)


#: The team's way first, then what follows from it: "we run the SDK through a version manager
#: here, so use the wrapper, not the bare tool".
_WAY_SO = re.compile(
    r"^(?:we|our team)\s+(?:(?:always|usually|all|generally)\s+)?(?P<verb>[a-z]+)\b"
    r"(?P<rest>[^,;]*),\s+so\s+\S",
    re.IGNORECASE,
)


def _a_way(verb: str, rest: str) -> bool:
    """Whether "we <verb> <rest>" says how the team works, not what it needs or did."""
    verb = verb.lower()
    if verb in _NOT_A_WAY or verb.endswith("ed"):
        return False
    return not _ONE_THING.search(_REASON_OF_REASON.sub("", rest))


#: A reason that ties a directive to the moment: "…, we need it for the demo tomorrow", "…,
#: I'm still using it", "…, since QA is testing it today".
_MOMENT_REASON = re.compile(
    r",\s+(?:(?:since|because|as)\s+)?(?:(?:we|i)(?:'re|'m|\s+are|\s+am)?\s+(?:still\s+)?"
    r"(?:need|using|use|want)\s+(?:it|them|that|this)\b|[^,;]*\b(?:tomorrow|today|tonight|"
    r"right now|for now|this time|this (?:week|morning|afternoon|evening)|for the demo)\b)",
    re.IGNORECASE,
)


#: What follows a team's way and "so" when it is one task of the moment: a verb of one change
#: and the thing at hand ("…, so run the migration", "…, so fix the failing test").
_ONE_TASK_AFTER = re.compile(
    r",\s+so\s+(?:please\s+)?(?:run|fix|add|create|deploy|migrate|delete|remove|rename|install|"
    r"update|bump|open|merge|push|commit|revert|rerun|restart|reset|drop|seed)\s+(?:the|this|that|"
    r"these|those|it|them|my|our)\b",
    re.IGNORECASE,
)


def reasoned_by_moment(written: str) -> bool:
    """Whether a directive's reason ties it to the moment ("don't merge the branch, we need it
    for the demo tomorrow"): the directive is about the task at hand, no rule."""
    return bool(_MOMENT_REASON.search(written))


def lesson_reason(written: str) -> bool:
    """Whether a directive ends in a lesson the team learned or a cost of the project as its
    reason ("…, we got burned by that", "…, that takes forever here"): the "here" of the
    reason is the project, no spot of the task."""
    return bool(_LESSON.search(written.strip().rstrip(".!")))


def reasoned_by_way(written: str) -> bool:
    """Whether a directive ends in the team's way or the user's taste as its reason."""
    clause = written.strip().rstrip(".!")
    if _TASTE.search(clause) or _LESSON.search(clause):
        return True
    if (way_so := _WAY_SO.match(clause)) is not None and _ONE_TASK_AFTER.search(clause):
        return False  # "we use Postgres here, so run the migration against it": the task
    match = _TEAM_WAY.search(clause) or way_so
    return match is not None and _a_way(match.group("verb"), match.group("rest"))


#: "I don't want a base class for this — we prefer composition over inheritance here": the
#: thing refused this time, then the team's way that says why.
_REFUSED_THEN_WAY = re.compile(
    r"^(?:i\s+)?(?:don'?t|do\s+not)\s+want\s+[^—–;]{2,80}?\s+[—–-]+\s+"
    r"(?P<way>(?:we|our\s+team)\s+(?:(?:always|generally|usually)\s+)?"
    r"(?:prefer|use|write|keep|follow|avoid|favou?r)\b[^—–]{3,160})$",
    re.IGNORECASE,
)


def way_after_refusal(clause: str) -> str | None:
    """The team's way a refusal of the moment gives as its reason ("I don't want a base class
    for this — we prefer composition over inheritance here" → "we prefer composition over
    inheritance here"): the way holds for later work, the refusal is of this one thing."""
    match = _REFUSED_THEN_WAY.match(clause.strip().rstrip(";"))
    return match.group("way").rstrip(" ;.") if match else None
