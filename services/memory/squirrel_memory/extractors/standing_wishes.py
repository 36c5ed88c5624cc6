"""What the user or the team wants, forbids or chooses for all later work, said in everyday words.

- a duty for every session: "your standing job is to keep the TODO list up to date";
- a rule named as the rule: "the rule here is tests first, then implementation";
- a step the assistant may take unasked: "you don't need to ask me before running tests";
- what the user never wants: "I never want force pushes on main";
- a wish over every thing of a kind: "I'd like every new endpoint to have an integration test";
- a want said with a rule word: "I want conventional commits from now on", "I always want
  --no-ff merges" (never "I want a logout button");
- a default: "default to async/await, never raw callbacks";
- a prohibition said to last: "don't ever commit .env files", "don't use sudo in scripts, ever";
- a means replaced: "quit using `any`, use proper types", "stop generating getters by hand, use
  data classes" (not "stop using the old config, use this one");
- a habit stopped over every thing: "stop wrapping every error in a custom exception";
- a kind of thing ruled out by what it is: "don't add comments that just restate the code";
- the team's choice of one means over another: "we use RSpec here, not minitest", "in library
  code we return Result instead of panicking" (not "we fixed X instead of Y");
- what the team does without, with what it does instead: "we don't write raw SQL, everything
  goes through the query builder" (not "we don't use that here"; "we don't use ORMs" alone may
  tell how the code at hand is written).

`STANDING_WISHES` holds them in the order they are tried (`habit_wordings`).
"""

from __future__ import annotations

import re

from squirrel_memory.extractors.habit_forms import HabitForm
from squirrel_memory.extractors.habit_kinds import (
    KIND,
    VAGUE_END,
    Wording,
    a_kind,
    as_sentence,
    work_kind,
)

#: A state the work at hand should reach ("I want every test to pass"), not a habit.
_STATE = re.compile(
    r"(?:pass|work|compile|run|build|succeed|load|start|fail|be\s+(?:green|fixed|done))\b", re.I
)
#: "your standing job is to keep the TODO list up to date": a duty for every session.
_STANDING_JOB = re.compile(
    r"^your\s+(?:standing|ongoing|permanent)\s+(?:job|task|role|duty)\s+(?:is|will be)\s+"
    r"to\s+(?P<x>[a-z][^;]{3,140})$",
    re.IGNORECASE,
)
#: "the rule here is tests first, then implementation", "our rule is to never use X": a rule
#: named as the rule.
_THE_RULE_IS = re.compile(
    r"^(?:the|our|my)\s+(?:rule|convention|policy|standard|practice)(?:\s+here)?\s+is"
    r"(?:\s+that|\s*:|\s+to(?=\s))?\s+(?P<x>[a-z`][^;]{5,140})$",
    re.IGNORECASE,
)
#: "you don't need to ask me before running tests": a step the assistant may take unasked.
_NO_NEED_TO_ASK = re.compile(
    r"^you\s+(?:don'?t|do not)\s+(?:need|have)\s+to\s+ask(?:\s+me)?\s+(?:before|to|for "
    r"permission to|whether to)\s+(?P<x>[a-z][^,;]{3,80}?)(?:\s*,\s*(?:just\s+)?[^,;]{2,60})?$",
    re.IGNORECASE,
)
#: "I never want force pushes on main, under no circumstances".
_NEVER_WANT = re.compile(
    r"^(?:i|we)\s+never\s+want\s+(?P<x>(?!to\b|you\b)[^,;]{3,80}?)"
    r"(?:\s*,\s*(?:under no circumstances|ever|at all|please))?$",
    re.IGNORECASE,
)
#: "I'd like every new endpoint to have an integration test".
_LIKE_EVERY = re.compile(
    r"^(?:i|we)\s*(?:'d|’d|\s+would)?\s+(?:really\s+)?(?:like|want|need|expect|prefer)\s+"
    rf"(?:every|all)\s+(?P<new>new\s+)?{KIND}\s+to\s+(?P<x>[a-z]+\b[^;]{{2,100}})$",
    re.IGNORECASE,
)
#: "I want the commit messages to follow Conventional Commits": what every later one of a
#: thing the work makes again and again (a commit, a pull request, a branch) should follow,
#: said without "every".
_WANT_RECURRING = re.compile(
    r"^(?:i|we)\s*(?:'d|’d|\s+would)?\s+(?:really\s+)?(?:like|want|need|expect|prefer)\s+"
    r"(?:(?:the|our|my|its)\s+)?(?P<k>(?:git\s+)?(?:commit(?:\s+message|\s+subject)?|"
    r"pull\s+request(?:\s+title)?|pr(?:\s+title)?|branch(?:\s+name)?|tag(?:\s+name)?)s)\s+"
    r"to\s+(?P<x>(?:follow|use|match|adhere\s+to|conform\s+to|stick\s+to|start\s+with|"
    r"be\s+written\s+in)\s+[^;]{2,100})$",
    re.IGNORECASE,
)
_RULE_LEAD = (
    r"(?:(?:also|and|so|but)\s*,?\s*)?(?:as a (?:general )?rule|from now on|going forward|"
    r"in general|by default|in (?:the )?future)\s*,?\s*"
)
#: "I want conventional commit messages from now on", "I always want --no-ff merges".
_WANT_RULED = re.compile(
    rf"^(?P<lead>{_RULE_LEAD})?(?:i|we)\s+(?P<always>always\s+)?(?:(?:really|generally)\s+)?"
    r"(?:want|need|expect)\s+(?P<x>[^,;]{3,100}?)"
    r"(?P<ruled>,?\s*(?:from now on|going forward|from here on|by default|in (?:the )?future|"
    r"every ?time|always))?$",
    re.IGNORECASE,
)
#: "default to async/await, never raw callbacks".
_DEFAULT_TO = re.compile(
    r"^(?:always\s+)?default\s+to\s+(?P<x>[^,;]{2,60}?)"
    r"(?:\s*[,;]\s*(?:and\s+)?(?:never|not|no)\s+(?P<y>[^,;]{2,60}))?$",
    re.IGNORECASE,
)
#: "don't ever commit .env files", "never ever force-push", "don't use sudo, ever".
_DONT_EVER = re.compile(
    r"^(?:(?:don'?t|do not|never)\s*,?\s+ever|never\s*,?\s+ever)\s+(?P<x>[a-z][^;]{2,120})$"
    r"|^(?:don'?t|do not)\s+(?P<x2>[a-z][^;]{2,120}?)\s*,?\s+(?:ever|never ever)$",
    re.IGNORECASE,
)
#: "quit using `any`, use proper types", "stop generating getters by hand, use data classes".
_STOP_REPLACED = re.compile(
    r"^(?:stop|quit)\s+(?P<g>[a-z]+ing)\s+(?P<y>[^,;]{2,80}?)\s*,\s*(?:(?:and|just|instead)\s+)*"
    r"use\s+(?P<x>[^,;]{2,60}?)(?:\s+instead)?$",
    re.IGNORECASE,
)
#: "stop wrapping every error in a custom exception class".
_STOP_EVERY = re.compile(
    r"^(?:stop|quit)\s+(?P<x>[a-z]+ing\b[^;]*\b(?:every|all the time|each time|everywhere)\b"
    r"[^;]*)$",
    re.IGNORECASE,
)
#: "don't add comments that just restate the code".
_DONT_KIND_THAT = re.compile(
    r"^(?:don'?t|do not|never|avoid)\s+(?P<v>[a-z]+)\s+"
    r"(?P<k>(?:[a-z][\w-]*\s+){0,2}[a-z][\w-]*[^s\W]s)\s+(?:that|which|who)\s+(?P<x>[^;]{3,80})$",
    re.IGNORECASE,
)
_TEAM_VERBS = (
    r"use|write|return|raise|throw|prefer|log|mock|handle|wrap|store|put|keep|deploy|manage|"
    r"format|lint|"
    r"name|go\s+with|stick\s+(?:to|with)"
)
#: "we use RSpec here, not minitest", "in library code we return Result instead of panicking".
_WE_CHOOSE = re.compile(
    r"^(?:(?:in|for)\s+(?P<where>[a-z][\w-]*(?:\s+[\w-]+){0,3}?)\s*,?\s+)?we\s+"
    rf"(?:(?:always|only|generally|usually)\s+)?(?P<v>{_TEAM_VERBS})\s+(?P<x>[^,;]{{1,60}}?)"
    r"(?:\s+(?:here|in this (?:repo|repository|project|codebase)))?\s*,?\s+"
    r"(?:not|instead of|rather than|over|never)\s+(?P<y>[^,;]{1,60})$",
    re.IGNORECASE,
)
#: "we don't write raw SQL, everything goes through the query builder": what the team does
#: without, in the present tense (not "we don't use that here", "we don't have tests yet").
_WE_DONT = re.compile(
    r"^we\s+(?:don'?t|do not)\s+(?P<v>use|write|add|commit|push|vendor|pin|mock|merge|"
    r"squash|rebase|amend|deploy|ship|log|store|hardcode|hard-code|expose|catch|swallow)\s+"
    r"(?P<x>[^,;]{2,60}?)(?P<place>\s+(?:here|in (?:this|our) (?:repo|repository|project|codebase|"
    r"team|company)))?"
    r"(?:\s*[,;:]\s*(?P<rest>[^;]{3,100}))?$",
    re.IGNORECASE,
)


def _rule_named(match: re.Match[str]) -> HabitForm | None:
    x = match.group("x").strip()
    return HabitForm(as_sentence(x), x) if len(x.split()) >= 3 else None


def _unasked(match: re.Match[str]) -> HabitForm | None:
    x = match.group("x").strip()
    if VAGUE_END.search(x) or not a_kind(x.split(maxsplit=1)[-1]):
        return None  # "you don't need to ask before doing that"
    return HabitForm(f"No need to ask before {x}", f"ask before {x}")


def _never_wanted(match: re.Match[str]) -> HabitForm | None:
    x = match.group("x").strip()
    return HabitForm(f"No {x}", x) if a_kind(x) else None


def _like_every(match: re.Match[str]) -> HabitForm | None:
    kind = match.group("k")
    if not work_kind(kind) or _STATE.match(match.group("x")):
        return None  # "I'd like every user to have an avatar": the product; "… to pass": a check
    new = "new " if match.group("new") else ""
    said = f"Every {new}{kind} should {match.group('x').strip()}"
    return HabitForm(said, f"every {kind} {match.group('x')}")


def _want_recurring(match: re.Match[str]) -> HabitForm | None:
    kind = " ".join(match.group("k").split())
    x = match.group("x").strip().rstrip(".!")
    return HabitForm(f"{as_sentence(kind)} should {x}", f"{kind} {x}")


def _want(match: re.Match[str]) -> HabitForm | None:
    x = match.group("x").strip()
    if not (match.group("lead") or match.group("always") or match.group("ruled")):
        return None  # "I want a logout button": the task at hand
    if not a_kind(x) or x.lower().split()[0] in ("to", "you", "some", "more", "help"):
        return None
    return HabitForm(f"Prefers {x}", x)


def _default(match: re.Match[str]) -> HabitForm | None:
    x, y = match.group("x").strip(), (match.group("y") or "").strip()
    if not a_kind(x):
        return None
    return HabitForm(f"Default to {x}" + (f", never {y}" if y else ""), f"{x} {y}".strip())


def _dont_ever(match: re.Match[str]) -> HabitForm | None:
    x = (match.group("x") or match.group("x2")).strip()
    if VAGUE_END.search(x):
        return None  # "don't ever do that again": no thing named
    return HabitForm(f"Never {x}", x)


def _replaced(match: re.Match[str]) -> HabitForm | None:
    gerund, y, x = match.group("g").lower(), match.group("y").strip(), match.group("x").strip()
    if not (a_kind(y) and a_kind(x)):
        return None  # "stop using the old config, use this one"
    said = y if gerund == "using" else f"{gerund} {y}"
    return HabitForm(f"Use {x} instead of {said}", f"{x} {y}")


def _kind_ruled_out(match: re.Match[str]) -> HabitForm | None:
    if not a_kind(match.group("k")):
        return None  # "don't delete the files that …": things of the moment
    return HabitForm(as_sentence(match.group(0)), f"{match.group('v')} {match.group('k')}")


def _team_without(match: re.Match[str]) -> HabitForm | None:
    verb, x, rest = match.group("v").lower(), match.group("x").strip(), match.group("rest")
    if not a_kind(x) or not (rest or match.group("place")):
        return None  # "we don't use ORMs" alone may tell how the code at hand is written
    said = f"Don't {verb} {x}" + (f", {rest.strip()}" if rest else "")
    return HabitForm(said, f"{verb} {x}")


def _team_choice(match: re.Match[str]) -> HabitForm | None:
    verb, x, y = match.group("v").lower(), match.group("x").strip(), match.group("y").strip()
    if not (a_kind(x) and a_kind(y)):
        return None
    said = f"Use {x}, not {y}" if verb == "use" else f"{as_sentence(verb)} {x} instead of {y}"
    where = match.group("where")
    return HabitForm(said + (f" in {where}" if where else ""), f"{x} {y}")


def _standing_job(match: re.Match[str]) -> HabitForm | None:
    return HabitForm(as_sentence(match.group("x")), match.group("x"))


def _stopped_every(match: re.Match[str]) -> HabitForm | None:
    if re.match(r"the\b", match.group("x")):
        return None
    return HabitForm(f"Avoid {match.group('x')}", match.group("x"))


STANDING_WISHES: tuple[Wording, ...] = (
    (_STANDING_JOB, _standing_job),
    (_THE_RULE_IS, _rule_named),
    (_NO_NEED_TO_ASK, _unasked),
    (_NEVER_WANT, _never_wanted),
    (_LIKE_EVERY, _like_every),
    (_WANT_RECURRING, _want_recurring),
    (_WANT_RULED, _want),
    (_DEFAULT_TO, _default),
    (_DONT_EVER, _dont_ever),
    (_STOP_REPLACED, _replaced),
    (_STOP_EVERY, _stopped_every),
    (_DONT_KIND_THAT, _kind_ruled_out),
    (_WE_CHOOSE, _team_choice),
    (_WE_DONT, _team_without),
)
